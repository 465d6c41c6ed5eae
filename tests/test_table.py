"""A game question is dealt at the real table: the slots plus a counted rest that follows the
setup's groups, and every count of the rules counts the rest too."""
from __future__ import annotations

import os

import z3

from models.encoding.reach import unrolled
from models.encoding.solver import Solver
from models.encoding.table import at_table
from models.encoding.world import World
from models.loader import load_ruleset

HERE = os.path.dirname(os.path.abspath(__file__))
BAD = os.path.join(HERE, "fixtures", "simultaneous-win", "bad_count_at_table")


def _game():
    rs = load_ruleset(BAD)
    world = World(rs)
    solver = Solver(world.ctx, 2_000_000)
    return rs, world, solver, unrolled(world, solver, 0, [], symmetric=False)


def test_rest_follows_the_groups():
    rs, world, solver, u = _game()
    st = u.states[0]
    # 4 players: whatever the two slots hold, the rest holds the other cards of the groups
    for role, count in (("狼", 1), ("神", 1), ("民", 2)):
        in_slots = z3.Sum([z3.If(st[("role", i)] == world.sorts.roles[role], 1, 0) for i in range(world.k)])
        assert solver.check(u.constraints + [u.table.rest[role] + in_slots != count], "t").unsat
    assert solver.check(u.constraints + [u.table.n != 4], "t").unsat


def test_counts_include_the_rest():
    rs, world, solver, u = _game()
    st = u.states[0]
    with at_table(world, u.table):
        alive = world.sem.num({"count": {"alive": True}}, {}, st)
        no_god = world.sem.cond({"none": {"alive": True, "role": "神"}}, {}, st)
        players = world.sem.num({"players": True}, {}, st)
    assert solver.check(u.constraints + [alive != 4], "t").unsat
    assert solver.check(u.constraints + [players != 4], "t").unsat
    # the only 神 is either in a slot (alive at the deal) or in the rest: never "all 神 out" at the deal
    assert solver.check(u.constraints + [no_god], "t").unsat
    # outside a game question the slots are the whole table (2 players alive at most)
    assert solver.check(u.constraints + [world.sem.num({"count": {"alive": True}}, {}, st) > 2], "t").unsat
