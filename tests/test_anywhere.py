"""The quick "is it possible at all" question counts the whole table: a count over the table
holds in a state of the game even where the slots alone could never make it hold (a proof
over the slots alone would call a simultaneous win at six players impossible)."""
from __future__ import annotations

from models.encoding.anywhere import possible_at_table
from models.encoding.solver import Solver
from models.encoding.world import World
from tests.inline_rulesets import one_each


def test_a_count_of_the_whole_table_is_possible_though_the_slots_alone_never_reach_it():
    rs = one_each({r: [] for r in "甲乙丙丁戊己"}, "# 来源: 用例\n甲乙丙丁戊己六种身份，各一张。\n\n\n\n每天先夜晚、后白天。\n", [])
    world = World(rs, 4)
    solver = Solver(world.ctx, int(rs.bounds["rlimit"]))
    six_alive = lambda st: world.sem.cond({"count": {"alive": True}, "op": ">=", "value": 6}, {}, st)  # noqa: E731
    assert possible_at_table(world, solver, six_alive, "test").sat
    seven_alive = lambda st: world.sem.cond({"count": {"alive": True}, "op": ">=", "value": 7}, {}, st)  # noqa: E731
    assert possible_at_table(world, solver, seven_alive, "test").unsat
    # the slots alone: four players, never six
    st = world.state("slots")
    assert solver.check(world.realizable(st) + [six_alive(st)], "test").unsat
