"""每天仅一次，可再次发动 (extra_use, per day): a second use the same day rests on a grant the
first use made that day; without it the skill is used once a phase like any other."""
from __future__ import annotations

import z3

from models.encoding.reach import bounded_trace
from models.encoding.solver import Solver
from models.encoding.world import World
from tests.inline_rulesets import one_each

SOURCE = ("# 来源: 用例\n甲、乙、丙、丁四种身份，各一张。\n"
          "侦查[夜晚]：查验一名角色；若其为乙，则每天仅一次，可再次发动此技能。\n（空行）\n（空行）\n每天先夜晚、后白天。\n")


def _ruleset():
    skills = {"甲": [{"name": "侦查", "src": 3, "timing": ["夜晚"], "targets": {"min": 1, "max": 1, "filter": {}},
                     "effects": [{"grant_status": {"who": "target", "status": "被查", "duration": "permanent"}},
                                 {"counter": {"name": "查验数", "op": "add", "value": 1}},
                                 {"extra_use": {"who": "self", "skill": "侦查", "count": 1, "per": "day"},
                                  "if": {"role": ["target", "乙"]}}]}],
              "乙": [], "丙": [], "丁": []}
    return one_each(skills, SOURCE, ["被查"], counters=[{"name": "查验数", "src": 3, "scope": "global", "initial": 0}])


def _twice(rs, without_grant: bool):
    world = World(rs, None)
    solver = Solver(world.ctx, int(rs.bounds["rlimit"]))
    other = world.sorts.roles["乙"]

    def goal(st):
        twice = st[("counter", "查验数")] >= 2
        if without_grant:   # nobody checked was the 乙: no use granted a second one
            twice = z3.And([twice] + [z3.Not(z3.And(st[("status", i, "被查")], st[("role", i)] == other))
                                      for i in range(world.k)])
        return twice
    return bounded_trace(world, solver, goal, 2, "extra-use-test", list(rs.skills), table=False)


def test_a_granted_second_use():
    assert _twice(_ruleset(), without_grant=False).answer.sat


def test_no_second_use_without_the_grant():
    assert _twice(_ruleset(), without_grant=True).answer.unsat
