"""The win check against a going-out trigger, as a game question: a move puts a player
out and ends the game (a faction meets its win condition), while a trigger answering
that going out would still change which factions meet theirs."""
from __future__ import annotations

from dataclasses import dataclass

import z3

from ..domain import Skill
from .reach import Move, Trace, bounded_trace, faction_goal, game_over, settled, unrolled
from .semantics import Unbound
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
    differ = z3.Or([faction_goal(world, after, f) != faction_goal(world, shot, f)
                    for f in sorted(rs.factions) if not rs.factions[f].shares_win] + [z3.BoolVal(False, world.ctx)])
    return z3.And(en, fresh, differ)


def _winners(world: World, m, st) -> tuple[str, ...]:
    return tuple(f for f in sorted(world.rs.factions) if z3.is_true(m.eval(faction_goal(world, st, f), model_completion=True)))


def trigger_after_win(world: World, solver, skill: Skill, skills: list[Skill], depth: int, quiet: int) -> WinCheck:
    u = unrolled(world, solver, depth, skills, quiet=quiet)
    moves = [mv for mv in u.trans.moves if mv.skill is skill]

    def goal(before, after):
        return z3.And(z3.Not(game_over(world, before)), game_over(world, after),
                      z3.Or([_changes(world, before, after, mv) for mv in moves] + [z3.BoolVal(False, world.ctx)]))

    trace = bounded_trace(world, solver, goal, depth, "wincheck", skills, quiet=quiet, pair=True, retry=True)
    if not trace.answer.sat:
        return WinCheck(trace)
    m = trace.answer.model
    before, after = u.states[len(trace.states) - 2], u.states[len(trace.states) - 1]
    with at_table(world, u.table):
        mv = next(mv for mv in moves if z3.is_true(m.eval(_changes(world, before, after, mv), model_completion=True)))
        shot = settled(world, world.run(after, mv.skill, mv.binding))
        return WinCheck(trace, mv, _winners(world, m, after), _winners(world, m, shot))
