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


def test_rest_counts_are_reused_only_while_they_cannot_differ():
    """rest_matching is memoized: a state that changes only the slots reuses the counts of a
    filter over the player's own values; a change of the rest's counts is asked again; either
    way the answer is what an empty memo gives."""
    rs, world, solver, u = _game()
    st = u.states[0]
    slot_only = st.set({("alive", 0): z3.BoolVal(False, world.ctx)})
    rest_key = next(k for k in st.terms if k[0] == "rest")
    rest_changed = st.set({rest_key: st[rest_key] - 1})
    flt = {"alive": True}
    with at_table(world, u.table):
        first = world.sem.rest_matching(flt, {}, st)
        assert world.sem.rest_matching(flt, {}, slot_only) is first
        assert world.sem.rest_matching(flt, {}, rest_changed) is not first
        got = [world.sem.rest_matching(flt, {}, x) for x in (slot_only, rest_changed)]
        world.sem.memo.clear()
        want = [world.sem.rest_matching(flt, {}, x) for x in (slot_only, rest_changed)]

    def total(pairs):
        return z3.Sum([z3.If(g, n, 0) for g, n in pairs] + [z3.IntVal(0, world.ctx)])
    for g, w in zip(got, want):
        assert solver.check(u.constraints + [total(g) != total(w)], "t").unsat
