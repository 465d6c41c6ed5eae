"""A going-out trigger that names its source (击杀者) answers the player whose move put the
victim out, never another player: the engine's games and the replay agree."""
from __future__ import annotations

import z3

from models.encoding.reach import bounded_trace
from models.encoding.solver import Solver
from models.encoding.world import World
from tests.inline_rulesets import one_each

ONE = {"min": 1, "max": 1, "filter": {"alive": True}}


def _ruleset():
    # 甲 puts a player out at night; 乙's trigger brands whoever put a player out
    skills = {"甲": [{"name": "刺杀", "src": 3, "timing": ["夜晚"], "targets": ONE,
                     "effects": [{"out": {"who": "target", "cause": "刺杀"}}]}],
              "乙": [{"name": "审判", "src": 4, "timing": [], "tags": [],
                     "trigger": {"event": "went_out", "on": {"alive": False}, "cause": "any"},
                     "condition": {"not": {"cause": "投票出局"}},   # a vote-out has no killer
                     "effects": [{"grant_status": {"who": "source", "status": "罪人", "duration": "permanent"}}]}],
              "丙": [], "丁": []}
    return one_each(skills, "# 来源: 用例\n甲、乙、丙、丁四种身份，各一张。\n刺杀[夜晚]：目标出局。\n"
                            "审判：有角色出局时，击杀者获得[罪人]。\n[罪人]：标记。\n每天先夜晚、后白天。\n", ["罪人"])


def _branded_innocent(rs):
    """A game where a player who never put anyone out (not the 甲) is branded."""
    world = World(rs, None)
    solver = Solver(world.ctx, int(rs.bounds["rlimit"]))
    killer = world.sorts.roles["甲"]

    def goal(st):
        return z3.Or([z3.And(st[("status", i, "罪人")], st[("role", i)] != killer) for i in range(world.k)])
    return bounded_trace(world, solver, goal, 3, "killer-test", list(rs.skills), table=False)


def test_the_source_is_the_killer():
    rs = _ruleset()
    assert World(rs, None).vocab.killers
    assert _branded_innocent(rs).answer.unsat


def test_a_killer_is_branded():
    rs = _ruleset()
    world = World(rs, None)
    solver = Solver(world.ctx, int(rs.bounds["rlimit"]))
    killer = world.sorts.roles["甲"]
    got = bounded_trace(world, solver, lambda st: z3.Or([z3.And(st[("status", i, "罪人")], st[("role", i)] == killer)
                                                         for i in range(world.k)]),
                        3, "killer-test", list(rs.skills), table=False)
    assert got.answer.sat
