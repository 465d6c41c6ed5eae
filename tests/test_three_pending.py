"""Three actions pending in one window: the window resolves one action at a time, so an
order question about two of them may only arise after a third has resolved first. The
engine asks each pair from every state a game reaches, and a game may reach the pair
after earlier moves of the same phase that day: that is the third action resolving first
(its users held their skills when the phase began). Any two orders of a pending set that
end differently differ in one swap of neighbours after a common first part, so pairs
after such a first part cover every order of three or more actions."""
from __future__ import annotations

from verifier.engine import check

from game_replay import replay_game
from inline_rulesets import one_each
from cases import cases



def _ruleset():
    one = {"min": 1, "max": 1, "filter": {"alive": True}}
    # 甲 wakes a player for this night only; 乙 puts out a woken target; 丙 calms a target
    skills = {"甲": [{"name": "唤醒", "src": 3, "timing": ["夜晚"], "targets": one,
                     "effects": [{"grant_status": {"who": "target", "status": "醒", "duration": "phase"}}]}],
              "乙": [{"name": "惊吓", "src": 4, "timing": ["夜晚"], "targets": one,
                     "effects": [{"out": {"who": "target", "cause": "惊吓"}, "if": {"has_status": ["target", "醒"]}}]}],
              "丙": [{"name": "安抚", "src": 5, "timing": ["夜晚"], "targets": one,
                     "effects": [{"remove_status": {"who": "target", "status": "醒"}}]}],
              "丁": []}
    return one_each(skills, "# 来源: 用例\n甲、乙、丙、丁四种身份，各一张。\n唤醒[夜晚]：目标当晚获得[醒]。\n"
                            "惊吓[夜晚]：若目标持有[醒]，目标出局。\n安抚[夜晚]：目标失去[醒]。\n每天先夜晚、后白天。\n", ["醒"])


def test_a_pair_that_differs_only_after_a_third_action():
    rs = _ruleset()
    found = [f for f in cases(check(rs, kinds=["order-dependence"]).to_json()["findings"])
             if f["kind"] == "order-dependence" and {"惊吓", "安抚"} <= set(f["subjects"])]
    assert found, "惊吓 and 安抚 differ once 唤醒 has resolved first in the same night"
    w = found[0]["witness"]
    moves = w["game"]["moves"]
    # the third action is a move of the same night, just before the pair: no new day between
    assert [mv["move"] for mv in moves] == ["skill"] and "唤醒" in moves[0]["skill"]
    assert replay_game(rs, w)[0]
