"""A window whose order the text never gives is shown by a few confirmed pairs: one finding
with its examples, saying how many other pairs of that window were not asked (each more pair
is the same missing sentence, and confirming each in a game was a third of zemu's check)."""
from __future__ import annotations

import re

from game_replay import replay_game
from tests.inline_rulesets import one_each
from verifier.analyses.order import WINDOW_EXAMPLES
from verifier.engine import check

def _ruleset():
    one = {"min": 1, "max": 1, "filter": {"alive": True}}
    grant = [{"grant_status": {"who": "target", "status": "醒"}}]
    remove = [{"remove_status": {"who": "target", "status": "醒"}}]
    # two wake a target, two calm one: each waker against each calmer is a pair whose order
    # matters; and the day reads it: a woken target of 惊吓 goes out
    skills = {"甲": [{"name": "唤醒", "src": 3, "timing": ["夜晚"], "targets": one, "effects": grant}],
              "乙": [{"name": "安抚", "src": 4, "timing": ["夜晚"], "targets": one, "effects": remove}],
              "丙": [{"name": "叫醒", "src": 3, "timing": ["夜晚"], "targets": one, "effects": grant}],
              "丁": [{"name": "哄睡", "src": 4, "timing": ["夜晚"], "targets": one, "effects": remove}],
              "戊": [{"name": "惊吓", "src": 5, "timing": ["白天"], "targets": one,
                     "effects": [{"out": {"who": "target", "cause": "惊吓"}, "if": {"has_status": ["target", "醒"]}}]}]}
    return one_each(skills, "# 来源: 用例\n甲、乙、丙、丁、戊五种身份，各一张。\n唤醒、叫醒[夜晚]：目标获得[醒]。\n"
                            "安抚、哄睡[夜晚]：目标失去[醒]。\n惊吓[白天]：若目标持有[醒]，目标出局。\n每天先夜晚、后白天。\n", ["醒"])


def test_a_window_is_shown_by_a_few_pairs_and_says_how_many_more():
    rs = _ruleset()
    found = [f for f in check(rs, kinds=["order-dependence"]).findings
             if f.kind == "order-dependence" and f.verdict == "witnessed"]
    assert len(found) == 1, [f.message for f in found]
    f = found[0]
    # four pairs (each waker with each calmer) differ; the first few confirmed show the cause
    assert len(f.examples) + 1 == WINDOW_EXAMPLES < 4
    assert f.message.startswith("夜晚内同时结算的技能没有规定先后，例如以下 3 对"), f.message
    # the other pairs of the window are counted, not asked (two wakers commute: a pair the first
    # screening flags, not a problem, so the count says "may")
    assert re.search(r"另有 \d+ 对技能在初步筛选中也可能因先后不同而结果不同，未逐一确认", f.message), f.message
    for case in [f.to_json(rs.id)] + list(f.examples):
        if case["witness"].get("game"):
            assert replay_game(rs, case["witness"])[0], case["message"]
