"""A witness's history avoids a move that targets its own user (a seer checking himself, a
wolf biting himself) when the same history works with another target."""
from __future__ import annotations

import z3

from models.encoding.reach import unrolled
from models.encoding.scenarios import shortest
from models.encoding.solver import Solver
from models.encoding.world import World
from tests.inline_rulesets import one_each

ONE = {"min": 1, "max": 1, "filter": {"alive": True}}


def _ruleset():
    skills = {"甲": [{"name": "刺杀", "src": 3, "timing": ["夜晚"], "targets": ONE,
                     "effects": [{"grant_status": {"who": "target", "status": "重伤", "duration": "permanent"}}]}],
              "乙": [], "丙": [], "丁": []}
    return one_each(skills, "# 来源: 用例\n甲、乙、丙、丁四种身份，各一张。\n刺杀[夜晚]：目标获得[重伤]。\n"
                            "[重伤]：标记。\n（空行）\n每天先夜晚、后白天。\n", ["重伤"])


def test_a_history_prefers_another_target():
    rs = _ruleset()
    world = World(rs, None)
    solver = Solver(world.ctx, int(rs.bounds["rlimit"]))
    u = unrolled(world, solver, 1, list(rs.skills), symmetric=False, table=False)
    at = [z3.Or([st[("status", i, "重伤")] for i in range(world.k)]) for st in u.states]
    own = [i for i, mv in enumerate(u.trans.moves) if mv.binding is not None and mv.skill is not None
           and mv.binding.self_slot in mv.binding.targets]
    # a found history whose one move targets its own user
    ans = solver.check(u.constraints + [at[1], z3.Or([u.sels[0] == i for i in own])], "test")
    assert ans.sat
    ans, t = shortest(solver, u, u.constraints, at, ans, 1, "test")
    assert t == 1
    picked = ans.model.eval(u.sels[0], model_completion=True).as_long()
    assert picked not in own and u.trans.moves[picked].skill.name == "刺杀"
