"""The end of a window: the pending outs happen and what those outs trigger happens.

An order question compares the two orders once the window has settled, the way a judge
reads the night's result: a difference that a going-out trigger undoes at once (a faction
that returns its converts when its leader goes out) is no outcome anyone rules on.
"""
from __future__ import annotations

import z3

from ..domain import Skill
from .connectives import And, If
from .reach import bindings_for, settled
from .semantics import Unbound
from .sorts import State
from .world import World


def settle_triggers(world: World) -> list[Skill]:
    """The going-out triggers that fire without a choice (no targets to pick), in the order
    the ruleset lists them: a shot's target is a new decision, not part of settling."""
    return [s for s in world.rs.skills
            if (s.trigger or {}).get("event") == "went_out" and not s.targets and not s.is_opaque
            and any(e.kind != "info" for e in s.all_effects())]


def settle_window(world: World, st: State, victims: set[int]) -> State:
    """st after the window: every player about to go out goes out, then each went_out trigger
    of each of them fires once (checked as a judge checks it: the holder still holds it, the
    one going out is its kind of victim). victims: the slots that may be about to go out in st
    (the others cannot, so their triggers are not built). One round: outs these triggers
    cause are pending again, not settled."""
    out = settled(world, st)
    if not victims:
        return out
    for skill in settle_triggers(world):
        for b in bindings_for(world, skill, range(world.k)):
            others = dict(b.others)
            v = others.get("victim")
            if v is None or v not in victims or set(others) != {"victim"}:
                continue
            try:
                fires = And(st[("dying", v)], world.enabled(out, skill, b))
                after = world.run(out, skill, b, fires)
            except Unbound:
                continue
            spent = ("spent", b.self_slot, skill.uid)
            if spent in after.terms:
                # a trigger that does not fire was never declared: its uses are not spent
                after = after.set({spent: If(fires, after[spent], out[spent])})
            out = after
    return out


def may_be_dying(s0: State, states: list[State], pinned: tuple[int, ...], k: int) -> set[int]:
    """Slots that may be about to go out in one of the states: pinned dying at the start, or
    written by an effect of the window (a term that is still the start's is its pinned value)."""
    return {i for i in range(k) if i in pinned or any(not st[("dying", i)].eq(s0[("dying", i)]) for st in states)}
