"""A trigger answering someone else's going out needs its holder alive (a judge checks each
actor at its turn), unless the text lets the out holder act (`holder_out`)."""
from __future__ import annotations

import z3

from models.encoding.reach import bounded_trace
from models.encoding.solver import Solver
from models.encoding.world import World
from tests.inline_rulesets import one_each

ONE = {"min": 1, "max": 1, "filter": {"alive": True}}


def _ruleset(holder_out: bool):
    # 乙's trigger could only fire once 乙 is out (its condition), on another player's going out
    trig = {"event": "went_out", "on": {"other": True}, "cause": "any"}
    if holder_out:
        trig["holder_out"] = True
    skills = {"甲": [{"name": "刺杀", "src": 3, "timing": ["夜晚"], "targets": ONE,
                     "effects": [{"out": {"who": "target", "cause": "刺杀"}}]}],
              "乙": [{"name": "遗志", "src": 4, "timing": [], "tags": [], "trigger": trig,
                     "condition": {"not": {"alive": "self"}},
                     "effects": [{"grant_status": {"who": "victim", "status": "安息", "duration": "permanent"}}]}],
              "丙": [], "丁": []}
    return one_each(skills, "# 来源: 用例\n甲、乙、丙、丁四种身份，各一张。\n刺杀[夜晚]：目标出局。\n"
                            "遗志：乙出局后，每有其他角色出局，该角色获得[安息]。\n[安息]：标记。\n每天先夜晚、后白天。\n",
                    ["安息"])


def _rested(rs):
    world = World(rs, None)
    solver = Solver(world.ctx, int(rs.bounds["rlimit"]))
    return bounded_trace(world, solver, lambda st: z3.Or([st[("status", i, "安息")] for i in range(world.k)]),
                         3, "dead-holder-test", list(rs.skills), table=False)


def test_an_out_holder_does_not_answer_another_going_out():
    assert _rested(_ruleset(holder_out=False)).answer.unsat


def test_holder_out_lets_it_answer():
    assert _rested(_ruleset(holder_out=True)).answer.sat
