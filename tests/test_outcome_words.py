"""A player who is not out yet but on the way (about to go out, or holding a status a later
step puts out) is told so: "未出局" alone reads as a lasting difference."""
from __future__ import annotations

from tests.inline_rulesets import one_each
from verifier.narrate import outcome_text

SOURCE = ("# 来源: 用例\n甲、乙两种身份，各一张。\n（空行）\n"
          "濒死的角色在白天开始时出局。\n（空行）\n每天夜晚、白天。\n")


def _ruleset(settled: bool):
    rule = [{"name": "濒死出局", "src": 4, "owner": {"status": "濒死"},
             "trigger": {"event": "phase_start", "phase": "白天"}, "condition": {"has_status": ["self", "濒死"]},
             "effects": [{"out": {"who": "self", "cause": "濒死"}}]}]
    return one_each({"甲": [], "乙": []}, SOURCE, ["濒死"], shared=rule if settled else None)


def test_a_player_holding_a_status_a_later_step_puts_out_is_on_the_way():
    values = {("alive", 1): True, ("status", 1, "濒死"): True}
    assert "仍持有[濒死]，待结算" in outcome_text(_ruleset(settled=True), [("alive", 1)], values)
    # no rule puts its holder out: the status says nothing about going out
    assert "待结算" not in outcome_text(_ruleset(settled=False), [("alive", 1)], values)
    # not held: nothing to say
    assert "待结算" not in outcome_text(_ruleset(settled=True), [("alive", 1)], {("alive", 1): True})


def test_a_player_about_to_go_out_is_on_the_way():
    values = {("alive", 0): True, ("dying", 0): True}
    assert "即将出局，待结算" in outcome_text(_ruleset(settled=False), [("alive", 0)], values)
