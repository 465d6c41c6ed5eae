"""A faction's win condition is built once over fresh variables and instantiated per state by
substitution (reach._instance). It must mean, at every state of a game and at the whole
table, exactly what building it over that state means."""
from __future__ import annotations

import z3

from models.encoding.reach import _goal_term, faction_goal, unrolled
from models.encoding.solver import Solver
from models.encoding.table import at_table
from models.encoding.world import World
from models.loader import load_ruleset
from verifier.analyses.pending import trace_skills


def test_instantiated_goal_equals_goal_built_per_state():
    rs = load_ruleset("rulesets/yunvlieshou")
    world = World(rs, None)
    solver = Solver(world.ctx, int(rs.bounds["rlimit"]))
    u = unrolled(world, solver, 2, trace_skills(rs, world), symmetric=False)
    assert u.table is not None   # the counts take in the rest of the table
    with at_table(world, u.table):
        for st in u.states:
            for faction in sorted(rs.factions):
                got, direct = faction_goal(world, st, faction), _goal_term(world, st, faction)
                s = z3.Solver(ctx=world.ctx)
                s.add(got != direct)
                assert s.check() == z3.unsat, faction
    # built once per faction and table, then instantiated
    assert sum(1 for k in world.sem.memo if k[0] == "goal-template") == len(rs.factions)
