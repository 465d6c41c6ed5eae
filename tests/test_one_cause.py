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
