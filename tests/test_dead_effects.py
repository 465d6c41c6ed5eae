"""Dead rules one effect at a time: which effect a finding names, and the questions it must
not answer from a shortcut (counts over the slots alone, one target, a status's duration)."""
from __future__ import annotations

import os
import shutil

import yaml

from models.loader import load_ruleset
from verifier.engine import check

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "fixtures", "dead-rule")


def _effect_findings(path: str) -> list:
    report = check(load_ruleset(path), kinds=["dead-rule"])
    return [f for f in report.findings if f.kind == "dead-rule" and len(f.key) == 3]


def _variant(tmp_path, fixture: str, name: str, edit) -> str:
    dst = tmp_path / name
    shutil.copytree(os.path.join(FIXTURES, fixture), dst)
    raw = yaml.safe_load((dst / "ruleset.yaml").read_text(encoding="utf-8"))
    edit(raw)
    (dst / "ruleset.yaml").write_text(yaml.safe_dump(raw, allow_unicode=True), encoding="utf-8")
    return str(dst)


def _skill(raw: dict, name: str) -> dict:
    return next(s for r in raw["roles"] for s in r.get("skills", []) if s["name"] == name)


def test_a_finding_names_the_effect_and_quotes_its_line():
    for fixture, skill, index, check_, severity in (
            ("bad_dead_effect", "洗礼", 1, "inert", "warning"),
            ("bad_guard_never", "审讯", 1, "guard-never", "warning"),
            ("bad_guard_always", "净化", 0, "guard-always", "info")):
        found = _effect_findings(os.path.join(FIXTURES, fixture))
        assert [f.key for f in found] == [(f"甲身份/{skill}", f"effect:{index}", check_)], fixture
        f = found[0]
        assert f.severity == severity and f.verdict == "proved" and f.subjects == (skill,)
        # named by what it does and the post's line, never by the encoding's effect number
        assert f"【{skill}】中“" in f.message and "个效果" not in f.message and "第4行“甲身份【" in f.message
        assert len(f.message) <= 200


def test_counts_take_in_the_rest_of_the_table(tmp_path):
    """With 3 slots at most 3 players are in 乙阵营; at a table of 8 more can be."""
    def count_guard(raw):
        e = _skill(raw, "净化")["effects"][0]
        e["if"] = {"count": {"faction": "乙阵营"}, "op": "<=", "value": 3}

    def at_table(raw):
        count_guard(raw)
        raw["setup"] = {"players": {"min": 8, "max": 8, "src": 3}}
    slots = _effect_findings(_variant(tmp_path, "good_guard_always", "slots", count_guard))
    assert [f.key[2] for f in slots] == ["guard-always"]
    assert _effect_findings(_variant(tmp_path, "good_guard_always", "table", at_table)) == []


def test_every_number_of_targets_is_asked(tmp_path):
    """“若只选择了一名角色”: always so with one target, not when the skill may take two."""
    def one_target_guard(top):
        def edit(raw):
            s = _skill(raw, "净化")
            s["targets"]["max"] = top
            s["effects"][0]["if"] = {"count": {"targeted": True}, "op": "==", "value": 1}
        return edit
    one = _effect_findings(_variant(tmp_path, "good_guard_always", "one", one_target_guard(1)))
    assert [f.key[2] for f in one] == ["guard-always"]
    assert _effect_findings(_variant(tmp_path, "good_guard_always", "two", one_target_guard(2))) == []


def test_a_status_that_does_not_last_for_ever_is_not_judged_inert(tmp_path):
    """Granting a status that may expire to one who holds it may lengthen it: not proved inert.
    A status every grant gives for good (removable or not) shows every change a grant makes."""
    def lasting(permanent, duration="permanent"):
        def edit(raw):
            raw["statuses"][0]["permanent"] = permanent
            _skill(raw, "洗礼")["effects"][-1]["grant_status"]["duration"] = duration
        return edit
    assert [f.key[2] for f in _effect_findings(_variant(tmp_path, "bad_dead_effect", "kept", lasting(True)))] == ["inert"]
    assert [f.key[2] for f in _effect_findings(_variant(tmp_path, "bad_dead_effect", "for_good", lasting(False)))] == ["inert"]
    assert _effect_findings(_variant(tmp_path, "bad_dead_effect", "expiring", lasting(False, "day"))) == []
