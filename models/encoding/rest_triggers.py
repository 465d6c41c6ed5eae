"""The players outside the slots do not act, so none may hold a forced trigger that would fire.

A game at a table counts the players outside the slots by identity (table.py) and lets them
act only by being voted out. A forced trigger (强制) cannot be declined, though: a living
player outside the slots whose identity holds one would act when its event happens (a wolf
whose fang turns every knifed player, a watcher told of every death). Such a game is not
one the rules allow. So when such an event happens in a game, no living player outside the
slots holds an identity with a forced trigger on it: that identity sits in a slot, was not
dealt, or is out. The trigger's cause and its filter on who goes out are read, its other
conditions are not (more games are refused than need be, never one too many); a trigger only
on its own holder (its own going out, its own targeting) never fires for a player the game
never names.

The same holds for a duty: a holder who cannot decline a skill that reaches other players (at
setup: the relic handed to another, two lovers named; every night: two marks to remove) acts
on players the game would then have to name, so that identity is not dealt outside the slots
(duties_in_slots). A duty under a condition (only while holding the relic) is not read here:
the condition is about a player the game does not track.
"""
from __future__ import annotations

import json

import z3

from ..domain import Skill
from .connectives import And, Implies, Not, Or
from .quiet import duty_if, forced, on_own_going_out, setup_forced
from .semantics import Unbound
from .sorts import State
from ..schema import VOTE_OUT_CAUSES

# the effects of a use that can make each event
EVENT_EFFECTS = {"about_to_go_out": ("out", "damage"), "went_out": ("out", "damage"), "killed": ("out", "damage"),
                 "faction_changed": ("set_faction", "set_role"), "faction_eliminated": ("out", "damage", "set_faction")}


def loud_identities(rs, identities) -> dict[str, set[tuple]]:
    """identity -> the events on other players that one of its own forced triggers answers, as
    (event, faction: for a faction's elimination, cause: for a going out, on: the filter on
    the player it happens to, as JSON); a trigger that changes nothing (it only tells) is left
    out."""
    out: dict[str, set[tuple]] = {}
    for s in rs.skills:
        trig = s.trigger or {}
        if s.owner_role not in identities or not trig or not forced(rs, s):
            continue
        if not any(e.kind != "info" for e in s.all_effects()):
            continue
        event = trig.get("event")
        if on_own_going_out(trig) or (event == "targeted" and trig.get("on", "self") == "self") or \
                event in ("phase_start", "phase_end", "setup"):
            continue   # its own going out or targeting; a phase's own rhythm (not an event of others)
        cause = trig.get("cause") if trig.get("cause") not in (None, "any") else None
        on = trig.get("on") if isinstance(trig.get("on"), dict) and event in GOING else {}
        out.setdefault(s.owner_role, set()).add((event, trig.get("faction") if event == "faction_eliminated" else None,
                                                 cause, json.dumps(on, ensure_ascii=False, sort_keys=True)))
    return out


GOING = ("about_to_go_out", "went_out", "killed")


def _gone(world, st: State, faction: str) -> z3.BoolRef:
    """Nobody of the faction is alive at the table (inside at_table: the rest counts)."""
    return world.sem.cond({"none": {"alive": True, "faction": faction}}, {}, st)


def _matches(world, on: dict, i: int, st: State) -> z3.BoolRef:
    """The trigger's filter holds for slot i going out (one that names its holder or another
    participant: taken to hold)."""
    if not on:
        return z3.BoolVal(True, world.ctx)
    try:
        return world.sem.filter(on, i, {"victim": i}, st)
    except (Unbound, KeyError):
        return z3.BoolVal(True, world.ctx)


def _happened(world, before: State, after: State, event: tuple) -> z3.BoolRef:
    """The event shows between two states (any player it may happen to; an unknown event:
    always). A player outside the slots going out is taken to match any filter."""
    (kind, faction, cause, on), k, ctx = event, world.k, world.ctx
    on = json.loads(on)
    # the cause of a going out, where the rules keep it (else any going out counts)
    why = (lambda i: world.sem.cause_is(after, i, cause)) if cause and world.vocab.causes else \
        (lambda i: z3.BoolVal(True, ctx))
    outside = [after[key] < before[key] for key in before.terms if key[0] == "rest" and key in after.terms] \
        if not cause or cause in VOTE_OUT_CAUSES else []
    if kind == "about_to_go_out":
        parts = [And(Not(before[("dying", i)]), after[("dying", i)], why(i), _matches(world, on, i, after))
                 for i in range(k)]
    elif kind in ("went_out", "killed"):
        parts = [And(before[("alive", i)], Not(after[("alive", i)]), why(i), _matches(world, on, i, after))
                 for i in range(k)] + outside
    elif kind == "faction_changed":
        parts = [before[("faction", i)] != after[("faction", i)] for i in range(k)]
    elif kind == "faction_eliminated" and faction:
        return And(Not(_gone(world, before, faction)), _gone(world, after, faction))
    else:
        return z3.BoolVal(True, ctx)
    return Or(parts + [z3.BoolVal(False, ctx)])


def silent_rest(world, table, states: list) -> list:
    """For each step of a game: if it shows an event a forced trigger of an identity outside
    the slots answers, no living player outside the slots holds that identity before it.
    Inside at_table (a faction's elimination counts the table)."""
    if table is None:
        return []
    loud = loud_identities(world.rs, set(table.rest))
    out = []
    for r, events in sorted(loud.items()):
        for t in range(1, len(states)):
            fired = Or([_happened(world, states[t - 1], states[t], e) for e in sorted(events, key=repr)])
            out.append(Implies(fired, states[t - 1][("rest", r)] == 0))
    return out


def _harm(skill: Skill) -> tuple[set, bool]:
    """The causes its going-out effects name (None: one names none), and whether every one
    of them hits the use's targets."""
    causes, on_targets = set(), True
    for e in skill.all_effects():
        if e.kind in ("out", "damage") and isinstance(e.args, dict):
            causes.add(e.args.get("cause") or e.args.get("kind"))
            on_targets = on_targets and e.args.get("who") == "target"
    return causes, on_targets


def silent_rest_at(world, table, st: State, uses: list) -> list:
    """The uses of a situation ((skill, binding): a reading's use, an order window) come after
    state st: if one of them can make an event a forced trigger outside the slots answers (a
    going out of its cause, of a target its filter matches), no living player outside the
    slots holds that identity in st. A faction's elimination can come only when no living
    member is outside the slots. Inside at_table."""
    if table is None:
        return []
    kinds = {e.kind for s, _ in uses for e in s.all_effects()}
    out = []
    for r, events in sorted(loud_identities(world.rs, set(table.rest)).items()):
        can = []
        for kind, faction, cause, on in sorted(events, key=repr):
            if kind in EVENT_EFFECTS and not set(EVENT_EFFECTS[kind]) & kinds:
                continue
            if kind in GOING:
                for skill, b in uses:
                    causes, on_targets = _harm(skill)
                    if not causes or (cause and None not in causes and cause not in causes):
                        continue
                    victims = b.targets if on_targets and b is not None else range(world.k)
                    can += [_matches(world, json.loads(on), v, st) for v in victims]
            elif kind == "faction_eliminated" and faction:
                # the uses touch only the slots: a living member outside them keeps the faction
                outside = world.sem.rest_matching({"alive": True, "faction": faction}, {}, st)
                can.append(And([Implies(g, n == 0) for g, n in outside] + [z3.BoolVal(True, world.ctx)]))
            else:
                can.append(z3.BoolVal(True, world.ctx))
        if can:
            out.append(Implies(Or(can), st[("rest", r)] == 0))
    return out


def _reaches_others(skill: Skill) -> bool:
    """A use changes a player other than its user: it must take a target, or an effect
    changes someone it does not take as a target (a random pick, a label's holders, a
    created character); with optional targets a use may take none."""
    if skill.targets and skill.min_targets >= 1:
        return True
    for e in skill.all_effects():
        if e.kind == "info":
            continue
        who = e.args.get("who", e.args.get("to")) if isinstance(e.args, dict) else None
        if who not in ("self", "target"):
            return True
    return False


def duties_in_slots(world, table, init: State, setup_skills: list) -> list:
    """No identity outside the slots holds a skill it cannot decline that reaches other
    players: a setup skill (a trigger, a forced one), or a forced skill of the day's phases
    (its triggers are silent_rest's). It is dealt into a slot or not at all: its use on
    players outside the slots would change players the game never tracks (a relic whose
    forced curse then acts every night, marks the game counts)."""
    if table is None:
        return []
    rs = world.rs
    setup = {s.uid for s in setup_skills}
    duties = [s for s in rs.skills if s.owner_role in table.rest and _reaches_others(s) and
              (setup_forced(rs, s) if s.uid in setup else
               not s.trigger and s.timing and forced(rs, s) and duty_if(rs, s) is None)]
    return [init[("rest", r)] == 0 for r in sorted({s.owner_role for s in duties})]
