"""Any state a game at the table can be in, over-approximated: what the effects can produce
in the slots (World.realizable without the invariants proven over the slots alone: a condition
counting the whole table can let an effect happen that the slots alone never allow), the rest
of the table anywhere between all out and as dealt. A question unsat here is unsat in every
game at the table, without unrolling one."""
from __future__ import annotations

import z3

from .connectives import And
from .solver import Answer, Session, Solver
from .sorts import State
from .table import Table, at_table, deal_table
from .world import World


def table_state(world: World) -> tuple[State, list, Table | None]:
    """(the state, its constraints, the table): built once per world."""
    cache = world.__dict__.setdefault("_table_state", {})
    if "st" not in cache:
        tbl = deal_table(world, world.state("any_deal"))
        st = world.state("any")
        with at_table(world, tbl):
            cs = world.realizable(st, derived=False) + (tbl.constraints if tbl else [])
            cs += [And(st[("rest", r)] >= 0, st[("rest", r)] <= tbl.rest[r]) for r in (tbl.rest if tbl else {})]
        cache.update(st=st, cs=cs, tbl=tbl)
    return cache["st"], cache["cs"], cache["tbl"]


def possible_at_table(world: World, solver: Solver, goal, purpose: str) -> Answer:
    """Does goal(state) hold in any state a game at the table can be in (the goal built at the
    table)? One session per world: the questions share the state's constraints."""
    st, cs, tbl = table_state(world)
    cache = world.__dict__.setdefault("_table_session", {})
    if "session" not in cache:
        cache["session"] = Session(solver, cs)
    with at_table(world, tbl):
        g = goal(st)
    return cache["session"].check([g], purpose)
