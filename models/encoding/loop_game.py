"""A trigger cycle in a game: from a legal deal, legal moves reach a state where each member
of the cycle resolves in the state the one before it left (its event freshly made where the
state can tell), and after the last member the first one fires again."""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import product

import z3

from ..domain import Skill
from .connectives import And, Not, Or
from .reach import Trace, bindings_for, bounded_trace, game_over, unrolled
from .semantics import Unbound
from .solver import Answer
from .sorts import State
from .table import at_table
from .world import Binding, World

# rounds of bindings tried in one question; beyond it an unsat answer proves nothing
MAX_ROUNDS = 256
TOO_MANY = "too many bindings"   # the reason of an answer cut at MAX_ROUNDS


@dataclass
class CycleGame:
    trace: Trace
    uses: list[tuple[Skill, Binding]] = field(default_factory=list)   # the round, in the model's game
    passed: list[bool] = field(default_factory=list)   # per member: entered by use_skill
    start: int = 0          # the member of the cycle (as given) the round starts at


def _made(world: World, before: State, after: State, skill: Skill, b: Binding, going_out: bool = True) -> z3.BoolRef:
    """The event the trigger listens for is made by this step: a status gained now, a counter
    reaching its value now, and (going_out) the holder going out now. Inside a round a going
    out is left to World.enabled: a replacement saves its holder, who may go out again at once."""
    trig, true = skill.trigger or {}, z3.BoolVal(True, world.ctx)
    ev, who = trig.get("event"), dict(b.others).get("victim", b.self_slot)
    if ev == "status_gained" and trig.get("on", "self") == "self":
        key = ("status", b.self_slot, trig.get("status"))
        return And(Not(before[key]), after[key]) if key in before.terms else true
    if ev == "counter_reached" and isinstance(trig.get("value"), int) and ("counter", trig.get("counter")) in before.terms:
        key = ("counter", trig["counter"])
        return And(before[key] < trig["value"], after[key] >= trig["value"])
    if going_out and ev == "about_to_go_out":
        return And(Not(before[("dying", who)]), after[("dying", who)])
    if going_out and ev == "went_out":
        return And(before[("alive", who)], Not(after[("alive", who)]))
    return true


def _round(world: World, st: State, cycle: list[Skill], binds: tuple[Binding, ...], passed: list[bool]) -> z3.BoolRef:
    """In st (nobody has won) the cycle goes round once with these bindings and comes back to
    its first member. passed[i]: the step into member i makes its holder use it at once
    (use_skill), which the rules let break the member's limits: only its effects count."""
    conds, cur, prev = [Not(game_over(world, st))], st, st
    for i, (s, b) in enumerate(zip(cycle, binds)):
        if i == 0 or not passed[i]:
            conds.append(world.enabled(cur, s, b))
        prev, cur = cur, world.run(cur, s, b)
        if i + 1 < len(cycle) and not passed[i + 1]:
            conds.append(_made(world, prev, cur, cycle[i + 1], binds[i + 1], going_out=False))
    if not passed[0]:
        conds += [world.enabled(cur, cycle[0], binds[0]), _made(world, prev, cur, cycle[0], binds[0], going_out=False)]
    return And(conds)


def cycle_in_game(world: World, solver, cycle: list[Skill], passed: list[bool], skills: list[Skill],
                  depth: int, quiet: int) -> CycleGame:
    """A game that reaches one full round of the cycle, entered the way the rules allow: at a
    member one uses, or at a trigger whose event the game's last move made. unsat only when
    every round of bindings was asked (else unknown: the question was cut)."""
    rounds = []
    for r in range(len(cycle)):
        members, into = cycle[r:] + cycle[:r], passed[r:] + passed[:r]
        for binds in product(*(bindings_for(world, s, range(world.k)) for s in members)):
            rounds.append((members, into, binds, r))
    cut = len(rounds) > MAX_ROUNDS
    rounds = rounds[:MAX_ROUNDS]
    u = unrolled(world, solver, depth, skills, quiet=quiet)    # the game bounded_trace asks about
    prev = {id(b): a for a, b in zip(u.states, u.states[1:])}

    def entered(st: State, members, into, binds, _start=0) -> z3.BoolRef:
        """The round starts in st: its first member is one a player uses (or is made to
        use), or its event comes from the move that led to st."""
        first = members[0]
        if not first.trigger or into[0]:
            return _round_or_false(world, st, members, binds, into)
        if id(st) not in prev:
            return z3.BoolVal(False, world.ctx)
        return And(_made(world, prev[id(st)], st, first, binds[0]), _round_or_false(world, st, members, binds, into))

    def goal(st: State) -> z3.BoolRef:
        return Or([entered(st, *r) for r in rounds] + [z3.BoolVal(False, world.ctx)])

    trace = bounded_trace(world, solver, goal, depth, "loop-game", skills, quiet=quiet, retry=True)
    if not trace.answer.sat:
        if trace.answer.unsat and cut:
            return CycleGame(Trace(Answer("unknown", reason=TOO_MANY)))
        return CycleGame(trace)
    # the round the model's game runs, in the state where the trace ends
    m, st = trace.answer.model, u.states[len(trace.states) - 1]
    with at_table(world, u.table):
        for r in rounds:
            if z3.is_true(m.eval(entered(st, *r), model_completion=True)):
                return CycleGame(trace, list(zip(r[0], r[2])), r[1], r[3])
    return CycleGame(trace)


def _round_or_false(world: World, st: State, cycle: list[Skill], binds, passed: list[bool]) -> z3.BoolRef:
    try:
        return _round(world, st, cycle, binds, passed)
    except Unbound:
        return z3.BoolVal(False, world.ctx)
