"""A witness's history has no steps that change nothing: in_game's found history is cut down
while a move can be left out and the rest still lead to the situation."""
from __future__ import annotations

import z3

from models.encoding import reach
from models.encoding.scenarios import shortest
from models.encoding.solver import Solver
from models.encoding.world import World

from test_window_gained import _ruleset


def test_moves_that_change_nothing_are_left_out():
    rs = _ruleset(3)
    world = World(rs, 4)
    solver = Solver(world.ctx, int(rs.bounds["rlimit"]))
    u = reach.unrolled(world, solver, 3, list(rs.skills), symmetric=False)
    recruited = lambda st: z3.Or([st[("label", i, "信徒")] for i in range(4)])  # noqa: E731
    at = [recruited(st) for st in u.states]
    moves = u.trans.moves
    day = next(i for i, mv in enumerate(moves) if mv.label == "day")
    recruit = next(i for i, mv in enumerate(moves) if mv.skill is not None and mv.skill.name == "招募")
    # a found history with a new day before and after the one move that matters
    padded = [u.sels[0] == day, u.sels[1] == recruit, u.sels[2] == day]
    ans = solver.check(u.constraints + padded + [at[3]], "padded")
    assert ans.sat
    short, t = shortest(solver, u, list(u.constraints), at, ans, 3, "test")
    assert t == 1
    assert short.model.eval(u.sels[0], model_completion=True).as_long() == recruit
