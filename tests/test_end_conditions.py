"""A faction with neither a win nor a lose condition is reported, unless a win or lose effect
names it (in what it declares or in its condition): a route the text gives that faction."""
from __future__ import annotations

from tests.inline_rulesets import load_inline
from verifier.engine import check


def _endless(win_if: dict | None, each: bool = False) -> set[str]:
    roles = [{"name": r, "src": 2, "faction": f"{r}阵营", "count": 1} for r in ("甲", "乙", "丙")]
    effect = {"win": "$self"}
    if win_if:
        effect["if"] = win_if
    # each: "the faction left wins", written as one win per faction
    effects = [{"win": f"{r}阵营", "if": {"none": {"alive": True, "not_faction": f"{r}阵营"}}} for r in ("甲", "乙", "丙")] \
        if each else [effect]
    roles[2]["skills"] = [{"name": "夺冠", "src": 3, "timing": ["白天"], "effects": effects}]
    raw = {"schema": "ruleset/v1", "id": "case", "title": "用例", "source": "source.txt",
           "bounds": {"players": 3, "depth": 2}, "setup": {"src": 2, "players": {"min": 3, "max": 3, "src": 2}},
           "phases": [{"name": "白天", "src": 3}],
           "factions": [{"name": f"{r}阵营", "src": 2} for r in ("甲", "乙", "丙")], "roles": roles}
    rs = load_inline(raw, "# 来源: 用例\n甲、乙、丙三种身份，各一张。\n夺冠[白天]：持有者所在阵营获胜（乙阵营需另有条件）。\n")
    found = [f for f in check(rs, kinds=["missing-rule"]).findings if f.kind == "missing-rule" and "既没有胜利条件" in f.message]
    return {s for f in found for s in f.subjects}


def test_a_faction_a_win_effect_names_has_a_route():
    assert _endless(None) == {"甲阵营", "乙阵营", "丙阵营"}     # a win for "the holder's faction" names none
    assert _endless({"not": {"faction": ["self", "乙阵营"]}}) == {"甲阵营", "丙阵营"}
    assert _endless(None, each=True) == {"甲阵营", "乙阵营", "丙阵营"}     # every faction in turn names none
