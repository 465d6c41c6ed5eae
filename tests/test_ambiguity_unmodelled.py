"""A reading that only decides who is told what (an info effect) is not proved harmless by the
same modelled outcome: it is an unknown, naming the skill."""
from __future__ import annotations

import os

import yaml

from tests.inline_rulesets import load_inline
from verifier.engine import check

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "ambiguity", "bad_self_guard")


def _fixture() -> tuple[dict, str]:
    """The fixture's encoding (to edit) and its post."""
    with open(os.path.join(HERE, "ruleset.yaml"), encoding="utf-8") as fh:
        raw = yaml.safe_load(fh)
    with open(os.path.join(HERE, "source.txt"), encoding="utf-8") as fh:
        return raw, fh.read()


def _finding(guarded_kind: str):
    raw, source = _fixture()
    guard = raw["roles"][1]["skills"][0]
    guard["targets"]["filter"] = {"alive": True}
    effect = {"info": {"to": "self", "what": "目标的身份"}} if guarded_kind == "info" else \
        {"grant_status": {"who": "target", "status": "被守护"}}
    guard["effects"].append({**effect, "if": {"reading": ["卫士能否守护自己", "可以"]}, "src": 4})
    [f] = [f for f in check(load_inline(raw, source), kinds=["ambiguity"]).findings if "卫士能否守护自己" in f.subjects]
    return f


def test_a_reading_of_an_info_effect_is_unknown_not_harmless():
    f = _finding("info")
    assert f.kind == "unknown" and "未建模" in f.message and "【守护】" in f.message
    # the same guard on an effect the engine models (granted anyway: no difference) is harmless
    g = _finding("status")
    assert g.kind == "ambiguity" and "无害" in g.message


def _declared(unmodelled: str | None):
    raw, source = _fixture()
    amb = next(a for a in raw["ambiguities"] if a["name"] == "卫士能否守护自己")
    if unmodelled:
        amb["unmodelled"] = unmodelled
    rs = load_inline(raw, source)
    return rs, check(rs, kinds=["ambiguity"])


def test_a_switch_the_engine_cannot_express_goes_to_the_judge_with_its_options():
    from verifier.faq import faq_markdown
    rs, report = _declared("编码无法表达这一区别")
    [f] = [f for f in report.findings if "卫士能否守护自己" in f.subjects]
    # an open question with the text's options, never called harmless, and asked in the FAQ
    assert (f.kind, f.severity, f.verdict) == ("ambiguity", "warning", "unknown")
    assert "编码无法表达这一区别" in f.message and "无害" not in f.message
    assert [r["ruling"].split("（")[0] for r in f.rulings] == [o["name"] for a in rs.ambiguities
                                                                if a["name"] == "卫士能否守护自己" for o in a["options"]]
    assert f.question in faq_markdown(rs, report)
    # the same switch without the declaration is decided by the engine (not this open question)
    _, plain = _declared(None)
    [g] = [g for g in plain.findings if "卫士能否守护自己" in g.subjects]
    assert "编码无法表达这一区别" not in g.message and "需要导演裁定" not in g.message


def test_a_reading_of_a_status_duration_is_not_called_harmless():
    """Granted for a night under one reading and for good under the other: one use looks the
    same either way, so the check says it cannot tell (it does not prove it harmless)."""
    raw, source = _fixture()
    guard = raw["roles"][1]["skills"][0]
    guard["targets"]["filter"] = {"alive": True}
    guard["effects"] += [
        {"grant_status": {"who": "target", "status": "被守护", "duration": "phase"},
         "if": {"reading": ["卫士能否守护自己", "可以"]}, "src": 4},
        {"grant_status": {"who": "target", "status": "被守护", "duration": "permanent"},
         "if": {"reading": ["卫士能否守护自己", "不可以"]}, "src": 4}]
    [f] = [f for f in check(load_inline(raw, source), kinds=["ambiguity"]).findings if "卫士能否守护自己" in f.subjects]
    assert f.verdict == "unknown" and "持续时间" in f.message and "无害" not in f.message
