"""The win check against a going-out trigger, as a game question: a move puts a player
out and ends the game (a faction meets its win condition), while a trigger answering
that going out would still change which factions meet theirs."""
from __future__ import annotations

from dataclasses import dataclass

import z3

from ..domain import Skill
from .connectives import And, Not, Or
from .reach import Move, Trace, Transitions, bounded_trace, faction_goal, game_over, settled, setup_skills, unrolled
from .semantics import Unbound
from .solver import Answer, Solver
from .anywhere import table_state
from .table import at_table
from .world import World


@dataclass
class WinCheck:
    trace: Trace
    move: Move | None = None        # the trigger that would still fire
    now: tuple[str, ...] = ()       # who meets the win condition when the game would end
    then: tuple[str, ...] = ()      # who meets it once the trigger has resolved


def _changes(world: World, before, after, mv: Move) -> z3.BoolRef:
    rs = world.rs
    try:
        en = world.enabled(after, mv.skill, mv.binding)
        shot = settled(world, world.run(after, mv.skill, mv.binding))
    except Unbound:
        return z3.BoolVal(False, world.ctx)
    victim = dict(mv.binding.others).get("victim", mv.binding.self_slot)
    # the going out it answers is the one the last move made
    fresh = before[("alive", victim)]
    differ = Or([faction_goal(world, after, f) != faction_goal(world, shot, f)
                    for f in sorted(rs.factions) if not rs.factions[f].shares_win] + [z3.BoolVal(False, world.ctx)])
    return And(en, fresh, differ)


def _winners(world: World, m, st) -> tuple[str, ...]:
    return tuple(f for f in sorted(world.rs.factions) if z3.is_true(m.eval(faction_goal(world, st, f), model_completion=True)))


# times the rlimit for the game question, before its second start (RETRY_SCALE times this, at
# most RETRY_CAP times the rlimit). Measured (z3's resource count): every question decided on
# the bundled rulesets at the first start used under 10x; those decided on the second start used
# 34M and 52M (of 60M); zemu's seven undecided ones spent 40M, then 60M, each without an answer
WINCHECK_BUDGET = 10


def _any_step(world: World, skills: list[Skill]):
    """One move from any state a game at the table can be in (anywhere.py), that move ending
    the game: (before, after, its moves, constraints, table)."""
    cache = world.__dict__.setdefault("_wincheck_step", {})
    key = tuple(s.uid for s in skills)
    if key not in cache:
        once = setup_skills(world)
        trans = Transitions(world, [s for s in skills if s not in once]).build()
        before, base, tbl = table_state(world)
        day = z3.Int("wc_day", world.ctx)
        with at_table(world, tbl):
            after, extra = trans.step(before, z3.Int("wc_move", world.ctx), day)
            cs = base + extra + [day >= 1, Not(game_over(world, before)), game_over(world, after)]
        cache[key] = (before, after, trans.moves, cs, tbl)
    return cache[key]


def could_change_winners(world: World, solver: Solver, skill: Skill, skills: list[Skill]) -> bool:
    """Can the trigger change who wins right after a move ends the game, from any state a game
    could be in? No (unsat) settles the question without a game: a cheap sufficient proof."""
    before, after, moves, cs, tbl = _any_step(world, skills)
    with at_table(world, tbl):
        changes = Or([_changes(world, before, after, mv) for mv in moves if mv.skill is skill] +
                        [z3.BoolVal(False, world.ctx)])
    return not solver.check(cs + [changes], "wincheck-step", rlimit=solver.rlimit * 20).unsat


def trigger_after_win(world: World, solver, skill: Skill, skills: list[Skill], depth: int, quiet: int,
                      retry: bool | str = True) -> WinCheck:
    """Is there a game where a move ends it and skill, answering that going out, would change who
    wins? retry: as bounded_trace's (False: the first start only)."""
    if not could_change_winners(world, solver, skill, skills):
        return WinCheck(Trace(Answer("unsat")))
    return triggers_after_win(world, solver, [skill], skills, depth, quiet, retry)


def triggers_after_win(world: World, solver, triggers: list[Skill], skills: list[Skill], depth: int, quiet: int,
                       retry: bool | str = True) -> WinCheck:
    """trigger_after_win for any of several triggers at once (without the one-step proof): one
    question (unsat: none of them), the game names the trigger it found (WinCheck.move)."""
    u = unrolled(world, solver, depth, skills, quiet=quiet)
    moves = [mv for mv in u.trans.moves if any(mv.skill is t for t in triggers)]

    def goal(before, after):
        return And(Not(game_over(world, before)), game_over(world, after),
                      Or([_changes(world, before, after, mv) for mv in moves] + [z3.BoolVal(False, world.ctx)]))

    trace = bounded_trace(world, solver, goal, depth, "wincheck", skills, quiet=quiet, pair=True, retry=retry,
                          budget=WINCHECK_BUDGET)
    if not trace.answer.sat:
        return WinCheck(trace)
    m = trace.answer.model
    before, after = u.states[len(trace.states) - 2], u.states[len(trace.states) - 1]
    with at_table(world, u.table):
        mv = next(mv for mv in moves if z3.is_true(m.eval(_changes(world, before, after, mv), model_completion=True)))
        shot = settled(world, world.run(after, mv.skill, mv.binding))
        return WinCheck(trace, mv, _winners(world, m, after), _winners(world, m, shot))
