"""An ambiguity read by a win condition: harmless only when no reachable state tells the
readings apart; a difference no game within the bounds reaches is an open question, not a
harmless one."""
from __future__ import annotations

from tests.inline_rulesets import load_inline
from verifier.engine import check


def _verdict(win_reading: dict):
    roles = [{"name": r, "src": 2, "faction": f"{r}阵营", "count": 1} for r in ("甲", "乙", "丙", "丁")]
    factions = [{"name": f"{r}阵营", "src": 2} for r in ("甲", "乙", "丙", "丁")]
    factions[0]["win"] = win_reading
    raw = {"schema": "ruleset/v1", "id": "case", "title": "用例", "source": "source.txt",
           "bounds": {"players": 4, "depth": 1}, "setup": {"src": 2, "players": {"min": 4, "max": 4, "src": 2}},
           "phases": [{"name": "白天", "src": 3}], "factions": factions, "roles": roles,
           "voting": {"src": 3, "weight_default": 1, "tie": None},
           "ambiguities": [{"name": "胜利的写法", "src": 3, "text": "甲阵营的胜利条件",
                            "options": [{"name": "一", "text": "第一种"}, {"name": "二", "text": "第二种"}]}]}
    rs = load_inline(raw, "# 来源: 用例\n甲、乙、丙、丁四种身份，各一张。\n每天投票出局一人；甲阵营的胜利条件有两种写法。\n")
    [f] = [f for f in check(rs, kinds=["ambiguity"]).findings if "胜利的写法" in f.subjects]
    return f


def test_readings_that_never_differ_are_harmless_and_an_unreached_difference_is_open():
    same = _verdict({"all": [{"none": {"faction": "乙阵营", "alive": True}},
                             {"any": [{"reading": ["胜利的写法", "一"]}, {"reading": ["胜利的写法", "二"]}]}]})
    assert same.kind == "ambiguity" and "无害" in same.message and "界限内" not in same.message
    # everyone out: a state the readings tell apart, no game of one move reaches it
    far = _verdict({"all": [{"none": {"alive": True}}, {"reading": ["胜利的写法", "一"]}]})
    assert far.kind == "unknown" and far.severity == "info" and "没有合法对局走到" in far.message
