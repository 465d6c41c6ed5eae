"""undefined-reference: how much an undefined element matters, told from the rules (a status
no one can first be given is info; a near-identical defined name is offered as the typo)."""
from __future__ import annotations

import os

import yaml

from tests.inline_rulesets import load_inline
from verifier.engine import check

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "undefined-reference")


def _fixture(name: str) -> tuple[dict, str]:
    with open(os.path.join(HERE, name, "ruleset.yaml"), encoding="utf-8") as fh:
        raw = yaml.safe_load(fh)
    with open(os.path.join(HERE, name, "source.txt"), encoding="utf-8") as fh:
        return raw, fh.read()


def _undefined(raw: dict, source: str) -> list:
    return [f for f in check(load_inline(raw, source), kinds=["undefined-reference"]).findings
            if f.kind == "undefined-reference"]


def test_status_nothing_gives_is_info_and_a_grant_makes_it_a_warning():
    raw, source = _fixture("bad_external_no_basis")
    [given] = _undefined(raw, source)
    assert given.severity == "warning"
    # the only grant becomes a pass-on (an opaque effect reading and writing it): no one ever holds it
    effects = raw["roles"][0]["skills"][0]["effects"]
    effects[0] = {"opaque": {"text": "目标的[禁锢]传递给自己", "who": "target",
                             "reads": ["status:禁锢"], "writes": ["status:禁锢"]}, "src": 4}
    [idle] = _undefined(raw, source)
    assert idle.severity == "info" and "不会出现" in idle.message
    # held at the deal: it is in games again
    raw["roles"][1]["statuses"] = ["禁锢"]
    [held] = _undefined(raw, source)
    assert held.severity == "warning"


def test_a_defined_name_one_character_away_is_offered():
    raw, source = _fixture("good_undeclared_term")
    source = source.replace("若该角色处于【迷雾】状态", "若该角色处于【迷露】状态")
    [typo] = _undefined(raw, source)
    assert typo.subjects == ("迷露",) and "「迷雾」" in typo.message and "笔误" in typo.message
    [plain] = _undefined(*_fixture("bad_undeclared_term"))
    assert "笔误" not in plain.message


def _guarded(guard: dict) -> tuple[dict, str]:
    raw = {"schema": "ruleset/v1", "id": "case", "title": "用例", "source": "source.txt",
           "bounds": {"players": 3, "depth": 2},
           "phases": [{"name": "夜晚", "src": 2}],
           "factions": [{"name": "甲阵营", "src": 2}, {"name": "乙阵营", "src": 2}],
           "statuses": [{"name": "印记", "src": 2, "permanent": True}, {"name": "圣痕", "src": 3, "permanent": True}],
           "terms": [{"name": "迷雾", "kind": "undefined", "src": 3}],
           "roles": [{"name": "甲身份", "src": 2, "faction": "甲阵营",
                      "skills": [{"name": "烙印", "src": 2, "timing": ["夜晚"],
                                  "targets": {"min": 1, "max": 1, "filter": {"alive": True}},
                                  "effects": [{"grant_status": {"who": "target", "status": "印记"}, "if": guard}]}]},
                     {"name": "乙身份", "src": 2, "faction": "乙阵营"}]}
    return raw, "# 来源: 用例\n甲身份【烙印】：夜晚使一名角色获得[印记]。\n若该角色为【迷雾】的目标则……（原文没有【迷雾】）；[圣痕]无人能获得。\n"


def test_a_rule_waiting_on_an_undefined_word_is_told_once():
    """Its effect never happens because nothing is called 迷雾: the undefined-reference says so
    (naming the rule); no dead-rule repeats it. A defined status nobody can hold is dead-rule."""
    raw, source = _guarded({"targeted_by": ["target", "迷雾"]})
    report = check(load_inline(raw, source), kinds=["undefined-reference", "dead-rule"])
    assert [f.kind for f in report.findings if f.kind in ("dead-rule", "undefined-reference")] == ["undefined-reference"]
    assert "烙印" in report.findings[0].message or any("烙印" in f.message for f in report.findings)
    raw, source = _guarded({"has_status": ["target", "圣痕"]})
    report = check(load_inline(raw, source), kinds=["dead-rule"])
    assert any(f.kind == "dead-rule" and f.subjects == ("烙印",) for f in report.findings)


def test_two_undefined_words_one_inside_the_other_on_one_line_are_one_finding():
    """【迷雾】 and 【迷雾判定】 on one line: one question for the author, naming both; on
    different lines they stay two."""
    raw, source = _fixture("bad_undeclared_term")
    same = source.replace("处于【迷雾】状态", "处于【迷雾】状态（见【迷雾判定】）")
    [one] = _undefined(raw, same)
    assert set(one.subjects) == {"迷雾", "迷雾判定"} and "同一个问题" in one.message
    apart = same.replace("（见【迷雾判定】）", "") + "【迷雾判定】另行说明。\n"
    assert len(_undefined(raw, apart)) == 2


def test_an_undefined_word_the_assumption_of_another_names_as_its_part_is_told_with_it():
    """[禁锢] is assumed to come with 锁链 ("其<锁链>"): one finding, the part's lines in its
    results; a word inside a longer one (锁 in 锁链) is no part."""
    raw, source = _fixture("bad_external_no_basis")
    source = source.rstrip("\n") + "被[禁锢]者身上有【锁链】。\n"
    raw["statuses"][0]["assumption"] = "按惯例理解为不能发动技能，其<锁链>来自惯例"
    [one] = _undefined(raw, source)
    assert one.subjects == ("禁锢", "锁链") and any("「锁链」" in o for o in one.scenario["outcomes"])
    raw["statuses"][0]["assumption"] = "按惯例理解为不能发动技能，铁锁链来自惯例"
    assert len(_undefined(raw, source)) == 2


def test_a_win_read_through_an_undefined_status_says_so():
    """甲阵营 wins when someone holds [禁锢], a status the post never defines: an undecided win
    of 甲阵营 names it as the cause. With the base rules the post names for it, it is not."""
    from verifier.analyses.text_checks import undefined_behind
    raw, source = _fixture("bad_external_no_basis")
    raw["factions"][0]["win"] = {"count": {"has_status": "禁锢"}, "op": ">=", "value": 1}
    assert undefined_behind(load_inline(raw, source), "甲阵营") == ["禁锢"]
    assert undefined_behind(load_inline(raw, source), "乙阵营") == []
    raw["statuses"][0].update({"basis": "base_rules", "basis_src": 2})
    assert undefined_behind(load_inline(raw, source), "甲阵营") == []
