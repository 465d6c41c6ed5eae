"""One disagreement of the text is one finding: a FAQ answer that is itself one of the
passages the encoding records as disagreeing (`readings`) is told by inconsistent-text, with
its FAQ question; a FAQ answer nothing else records stays a faq-mismatch."""
from __future__ import annotations

import os

import yaml

from tests.inline_rulesets import load_inline
from verifier.engine import check

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "inconsistent-text", "bad_two_timings")


def _kinds(with_reading: bool) -> list[str]:
    with open(os.path.join(HERE, "ruleset.yaml"), encoding="utf-8") as fh:
        raw = yaml.safe_load(fh)
    with open(os.path.join(HERE, "source.txt"), encoding="utf-8") as fh:
        source = fh.read() + "三、疑问解答\n问：巡视何时使用？答：白天。\n"
    raw["faq"] = [{"question": "巡视何时使用？", "answer": "白天。", "src": 8,
                   "claim": {"skill_timing": {"skill": "巡视", "phases": ["白天"]}}}]
    if with_reading:
        raw["readings"][0]["readings"][1]["src"] = [6, 8]   # the FAQ line is one of the passages
    found = check(load_inline(raw, source), kinds=["faq-mismatch", "inconsistent-text"]).findings
    return sorted(f.kind for f in found if f.kind in ("faq-mismatch", "inconsistent-text"))


def test_a_faq_answer_among_the_disagreeing_passages_is_one_finding():
    assert _kinds(with_reading=True) == ["inconsistent-text"]
    assert _kinds(with_reading=False) == ["faq-mismatch", "inconsistent-text"]


def test_one_window_without_an_order_is_one_finding_with_each_case():
    """Pairs of one window whose order the text never gives are one cause: one finding names
    each pair, tells one game whole and carries the others as examples, each replayed."""
    from game_replay import replay_game
    from test_three_pending import _ruleset
    from verifier.engine import check
    from verifier.faq import faq_markdown
    rs = _ruleset()
    report = check(rs, kinds=["order-dependence"])
    found = [f for f in report.findings if f.kind == "order-dependence" and f.verdict == "witnessed"]
    assert len(found) == 1 and found[0].examples, [f.message for f in found]
    f = found[0]
    assert f.message.startswith("夜晚内同时结算的技能没有规定先后") and f.question.startswith("夜晚内")
    for case in [f.to_json(rs.id)] + list(f.examples):
        assert case["scenario"]["roles"] and case["witness"]
        if case["witness"].get("game"):
            assert replay_game(rs, case["witness"])[0], case["message"]
    assert "另一例" in faq_markdown(rs, report)
