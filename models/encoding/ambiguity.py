"""Ambiguity questions: does reading the text one way or another change what happens?

An ambiguity is one global choice per game (semantics.reading_var). A use of a skill that
reads it is compared under two options from the same state: whether it can happen, and what
it changes. Asked first over the reachable-state over-approximation (no: the reading is
harmless there, a proof within the slots), then in a game dealt at the table (a witness).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import z3

from ..domain import Skill
from .connectives import And, If, Not, Or
from .decode import concrete, player_of
from .quiet import answers_going_out
from .reach import (Move, answers_of_the_gone, bindings_for, choices_text, faction_goal, first_called, game_days, game_over,
                    going_out_follows, history_and_note, history_of, idle_choices, inner_bindings, move_json, move_text, owed_pending,
                    phase_after, phase_duties_done, phase_named, phase_trigger, quiet_days_text, readings_of,
                    setup_choice, setup_skills, trigger_follows, unrolled, window_follows)
from .detours import detoured_game, held_in, no_odd_moves, odd_use, skill_reads
from .pinned import canon as _canon, moves_pinned, pinned, trail_json
from .rest_triggers import silent_rest_at
from .scenarios import _shared, matters, shortest
from .semantics import Unbound
from .solver import Answer, Solver
from .sorts import RECORDS, State
from .table import at_table, composition
from .world import Binding, World

CONFIRM_BUDGET = 10   # times the rlimit: one game question per ambiguity


@dataclass
class ReadingResult:
    answer: Answer
    binding: Binding | None = None
    start: dict = field(default_factory=dict)
    under: tuple = ()                          # (state under option i, state under option j)
    differing: list = field(default_factory=list)
    history: list = field(default_factory=list)
    table: tuple | None = None
    dealt: dict = field(default_factory=dict)  # the state as dealt, before the history
    moves: list = field(default_factory=list)  # the history as plain moves (move_json), for a replay
    quiet: list = field(default_factory=list)  # the identities voted out on the quiet days, and their days
    quiet_days: list = field(default_factory=list)
    first_day: int = 1
    others: list = field(default_factory=list)  # the readings of other ambiguities the game rests on
    # the game as the solver found it, to continue it (continue_reading): the use's step, the
    # move numbers before it, the quiet days' choices, the state as dealt and the unrolling's quiet
    pins: dict = field(default_factory=dict)
    chosen: list = field(default_factory=list)  # the options the use's choose effects took (“所选：…”)
    told_moves: list = field(default_factory=list)  # the moves of the history, one per told line
    trail: dict = field(default_factory=dict)  # the game to ask for first next time (pinned.trail_json)
    detoured: bool = False   # a ballot for oneself or a use on the out in the history (detours)
    phase: str | None = None   # the phase a use without a timing of its own was made in
    allowed: tuple = (True, True)   # whether the use can be made under option i, under option j
    note: str = ""   # said before the use: the day's vote put nobody out (reach.history_and_note)


def _outcome_pair(world: World, st: State, skill: Skill, b: Binding, name: str, i: int, j: int, outcome,
                  living: bool = False):
    """(differs, state under i, state under j, keys that may differ) for one use from st:
    the use is built once with the reading fixed to each option (the state before it is
    shared, so only the use itself can differ). living: only a difference about a player
    in the game when the use is made (or about no player) counts."""
    # a game question is asked again (plain, pinned, once more without detours) over the same
    # unrolled states: the same pair, built once (st and outcome kept: their ids stay theirs)
    memo = world.__dict__.setdefault("_outcome_pairs", {})
    key = (id(st), skill.uid, b.self_slot, b.targets, b.others, b.window, name, i, j, id(outcome), living)
    if key not in memo:
        memo[key] = (st, outcome, _built_pair(world, st, skill, b, name, i, j, outcome, living))
    return memo[key][2]


def _built_pair(world: World, st: State, skill: Skill, b: Binding, name: str, i: int, j: int, outcome,
                living: bool):
    allowed = {}

    def under(option: int) -> dict:
        with world.sem.reading_fixed(name, option):
            en = world.enabled(st, skill, b)
            post = world.run(st, skill, b)
        allowed[option] = en
        return {k: If(en, post[k], st[k]) for k in st.terms}
    si, sj = State(under(i)), State(under(j))
    keys = [k for k in sorted(si.terms, key=repr) if k[0] not in ("spent",) + RECORDS and (outcome is None or outcome(k))
            and not si[k].eq(sj[k])]
    # what a player out under both readings holds is no outcome (as for orders: scenarios.matters)
    alive = lambda k: st[("alive", player_of(k))] if living and player_of(k) is not None else z3.BoolVal(True, world.ctx)  # noqa: E731
    differs = Or([And(matters(world, st, si, sj, k), alive(k)) for k in keys] + [z3.BoolVal(False, world.ctx)])
    return differs, si, sj, keys, (allowed[i], allowed[j])


def foreign_statuses(rs, skill: Skill) -> set[str]:
    """The statuses the post leaves to base rules (external) that the skill does not read:
    a player holding one brings a rule into the story the question is not about (lovers
    dying together in a question about a seer's range); one the skill reads is its subject."""
    return {n for n, st in rs.statuses.items() if st.external and not skill_reads(skill, n)}


def foreign_status_keys(world: World, st: State, skill: Skill) -> list:
    """The keys of foreign_statuses, for every slot."""
    foreign = foreign_statuses(world.rs, skill)
    return [k for k in sorted(st.terms, key=repr) if k[0] == "status" and k[2] in foreign]


def _differing(m, world: World, st: State, si: State, sj: State, keys: list) -> list:
    """The keys whose difference is an outcome in the model."""
    return [k for k in keys if z3.is_true(m.eval(matters(world, st, si, sj, k), model_completion=True))]


def reading_question(world: World, solver: Solver, ambiguity: str, skill: Skill, i: int, j: int,
                     outcome=None) -> ReadingResult:
    """Is there a reachable state where a use of skill differs under options i and j?"""
    s0, session = _shared(world, solver)
    parts, found = [], []
    for b in bindings_for(world, skill, [0]):
        try:
            d, si, sj, keys, _ = _outcome_pair(world, s0, skill, b, ambiguity, i, j, outcome)
        except Unbound:
            continue
        if keys:
            parts.append(d)
            found.append((b, d, si, sj, keys))
    if not parts:
        return ReadingResult(Answer("unsat"))
    ans = session.check([Or(parts)], "reading")
    if not ans.sat:
        return ReadingResult(ans)
    m = ans.model
    for b, d, si, sj, keys in found:
        if z3.is_true(m.eval(d, model_completion=True)):
            ci, cj = concrete(m, si, world.sorts), concrete(m, sj, world.sorts)
            return ReadingResult(ans, b, concrete(m, s0, world.sorts), (ci, cj), _differing(m, world, s0, si, sj, keys))
    return ReadingResult(ans)


def confirm_reading(world: World, solver: Solver, ambiguity: str, skill: Skill, i: int, j: int, outcome,
                    depth: int, skills: list, quiet: int = 0, living_targets: bool = False,
                    plain: bool = False, pin: dict | None = None, foreign_ok: bool = False) -> ReadingResult:
    """The same question in a game: from a legal deal at the table, at most depth legal moves
    (after quiet days where allowed), nobody has won yet, and then the use differs.
    living_targets: only uses whose targets are alive and not about to go out (a lasting
    effect on a player on the way out shows nothing a judge can follow).
    plain: the difference is about a player still in the game, no player of the story holds a
    status whose meaning the post leaves to base rules (what it does there, such as lovers
    dying together, is not in the game the engine plays), and neither the use nor a move
    before it is a detour (odd_use: a skill on its own user, harm on one's own camp).
    foreign_ok: with plain, players of the story may hold such statuses (where every game
    deals one: a forced setup choice gives them); the rest of plain still holds.
    pin: a trail found before (ReadingResult.trail): only that game is asked for, its moves
    and its use fixed; unsat when it no longer shows the difference."""
    # a skill of the one-off phases (开局) is used once, while they resolve: its use is the
    # last of setup by a holder who has not used it there (no quiet days, no moves before)
    at_setup = skill in setup_skills(world)
    if at_setup and quiet:
        return ReadingResult(Answer("unsat"))
    bound = [depth, quiet]
    var = world.sem.reading_var(ambiguity)
    if pin:
        u = unrolled(world, solver, depth, skills, symmetric=False, quiet=quiet)
        fixed = pinned(u, pin)
        if fixed is None:
            return ReadingResult(Answer("unsat"))   # a move or value the encoding no longer has
        goals = _reading_goals(world, u, skill, ambiguity, i, j, outcome, at_setup, living_targets, plain, foreign_ok, pin)
        if not goals:
            return ReadingResult(Answer("unsat"))
        # the game found before, moves fixed: a small question, asked once
        ans = solver.check(u.constraints + [var == i, Or([g[2] for g in goals])] + fixed, "reading-pinned",
                           rlimit=solver.rlimit * CONFIRM_BUDGET)
        if not ans.sat:
            return ReadingResult(ans)
    else:
        # shorter games first (a use at setup has none after it): most readings differ on the
        # first night, where the question is small; the last one covers every game up to depth.
        # Every game of d moves goes on (a day passes), so a shorter game is one of the longer.
        ans, u, goals = Answer("unsat"), None, []
        depths = [0] if at_setup else sorted({0, 1, depth})
        for d in depths:
            # every deal (not only slot-ordered ones), so the user can be slot 0: a k times smaller question
            u = unrolled(world, solver, d, skills, symmetric=False, quiet=quiet)
            goals = _reading_goals(world, u, skill, ambiguity, i, j, outcome, at_setup, living_targets, plain,
                                   foreign_ok, None)
            if not goals:
                continue
            query = u.constraints + [var == i, Or([g[2] for g in goals])]
            # a baigei3 reading, too, ran out only once other questions had built their terms
            ans = solver.check_retrying(query, "reading-game", solver.rlimit * CONFIRM_BUDGET) if d == depths[-1] else \
                solver.check(query, f"reading-game-{d}", rlimit=solver.rlimit * CONFIRM_BUDGET)
            if ans.sat:
                break
        if not ans.sat:
            return ReadingResult(ans)
        # the history without moves that change nothing (each goal pinned to its own step)
        at = [Or([g for s, _, g, _, _, _, _ in goals if s == t] + [z3.BoolVal(False, world.ctx)])
              for t in range(len(u.states))]
        first = next(t for t in range(len(u.states)) if z3.is_true(ans.model.eval(at[t], model_completion=True)))
        ans, _ = shortest(solver, u, u.constraints + [var == i], at, ans, first, "reading-game")
    m = ans.model
    for t, b, g, si, sj, keys, allowed in goals:
        if z3.is_true(m.eval(g, model_completion=True)):
            ci, cj = concrete(m, si, world.sorts), concrete(m, sj, world.sorts)
            use = Move(skill, b, skill.name)
            played, note = history_and_note(m, u, t, use)
            history = quiet_days_text(m, u, t, but=use if at_setup else None) + [text for text, _ in played if text]
            quiet, first_day = game_days(m, u, t)
            # the moves and the use may rest on how other ambiguities are read: the story says so
            others = [f"「{name}」按「{option}」理解" for name, option in
                      readings_of(m, world, [mv.skill for _, mv in played if mv.skill is not None] + [skill] +
                                  answers_of_the_gone(m, world, u, t), skip=ambiguity)]
            value = lambda x: m.eval(x, model_completion=True)   # noqa: E731
            pins = {"step": t, "quiet": len(u.quiet_sels), "sels": [value(x).as_long() for x in u.sels[:t]],
                    "quiet_sels": [value(x).as_long() for x in u.quiet_sels],
                    "dealt": {k: value(v) for k, v in u.states[0].terms.items()}} if not at_setup else {}
            trail = {**trail_json(m, u, t), "use": move_json(use), "bound": bound}
            return ReadingResult(ans, b, concrete(m, u.states[t], world.sorts), (ci, cj),
                                 _differing(m, world, u.states[t], si, sj, keys), history,
                                 composition(m, u.table) if u.table else None, concrete(m, u.states[0], world.sorts),
                                 [move_json(mv) for _, mv in played], [mv.role for _, mv in quiet],
                                 [d for d, _ in quiet], first_day, others, pins,
                                 choices_text(m, world, use, idle_choices(m, u, u.states[t], use)),
                                 [mv for text, mv in played if text], trail, detoured_game(m, u, t),
                                 None if skill.timing or at_setup else phase_named(world, m, u, t),
                                 tuple(z3.is_true(m.eval(a, model_completion=True)) for a in allowed),
                                 "" if at_setup else note)
    return ReadingResult(ans)


def _reading_goals(world: World, u, skill: Skill, ambiguity: str, i: int, j: int, outcome, at_setup: bool,
                   living_targets: bool, plain: bool, foreign_ok: bool, pin: dict | None) -> list[tuple]:
    """The uses of skill at each state of the game u whose outcome differs under options i and j
    (confirm_reading's question): (step, binding, goal, state under i, under j, keys, allowed)."""
    goals = []
    with at_table(world, u.table):
        for t, st in enumerate(u.states[:1] if at_setup else u.states):
            if pin and t != len(pin["moves"]):
                continue
            for b in inner_bindings(world, skill):
                if pin and _canon(move_json(Move(skill, b, skill.name))) != _canon(pin.get("use")):
                    continue
                try:
                    d, si, sj, keys, allowed = _outcome_pair(world, st, skill, b, ambiguity, i, j, outcome, living=plain)
                except Unbound:
                    continue
                if not keys:
                    continue
                follows = _declined_at_setup(world, skill, b) if at_setup else _use_follows(u, t, skill, b)
                living = [And(st[("alive", x)], Not(st[("dying", x)])) for x in b.targets] \
                    if living_targets else []
                if plain:
                    # no base-rule statuses in the cast, and neither the use nor a move before
                    # it a detour (odd_use)
                    odd = odd_use(skill, b.self_slot, b.targets, lambda x, st=st: st[("faction", x)],
                                  world.rs, held_in(st))
                    if odd is True:
                        continue
                    living += ([] if foreign_ok else [Not(st[k]) for k in foreign_status_keys(world, st, skill)]) + \
                        ([] if odd is False else [Not(odd)]) + no_odd_moves(u, t)
                # a use without a timing of its own is in the phase the game is in
                now = ([] if skill.timing or at_setup else phase_after(world, u, t)) + \
                    silent_rest_at(world, u.table, st, [(skill, b)])
                # not inside a run of going-out triggers that still owes a forced one: the
                # story would stop before a move the rules make
                owed = owed_pending(u.trans, u.sels, u.states, t, Move(skill, b, skill.name)) if t else None
                now += [] if owed is None else [Not(owed)]
                # the game before the use is played under option i (the scenario says so)
                goals.append((t, b, And([Not(game_over(world, st)), d, follows] + living + now), si, sj, keys,
                              allowed))
    return goals


CONTINUE_STEPS = 3   # moves after the use in which a difference only in records may show


@dataclass
class Continued:
    """The found game played on after the use, the same moves under both options: the first
    state where a value the text names differs, or a move that happens under one option and
    cannot under the other."""
    answer: Answer
    history: list = field(default_factory=list)   # the moves after the use, told (as played under i)
    moves: list = field(default_factory=list)     # the whole game as plain moves, the use among them
    use_at: int = 0                               # the use's place in moves
    under: tuple = ()                             # the state at the end under option i, under option j
    differing: list = field(default_factory=list)
    blocked: str = ""                             # the move that cannot happen under option j, told
    blocked_at: int | None = None                 # its place in moves
    compared: bool = True                         # False: the use is no move of a game (at setup)
    told_moves: list = field(default_factory=list)  # the moves after the use, one per told line
    others: list = field(default_factory=list)    # the readings of other ambiguities those moves rest on


def continue_reading(world: World, solver: Solver, ambiguity: str, skill: Skill, i: int, j: int,
                     game: ReadingResult, skills: list, told, after: list | None = None) -> Continued:
    """Where a use differs under two options only in records the post never names (told(key)
    is false for every differing key): is it a difference in the game? The found game (its deal
    and moves pinned) goes on with the use as its move and then at most CONTINUE_STEPS legal
    moves under option i; the same moves are played under option j from the use on. Asked for
    1, 2, … moves after the use, so the first consequence is the one shown. unsat: none within
    that many moves of this game (a bound, not a proof about other games).
    after: the moves after the use found before (move_json): only they are asked for."""
    pins = game.pins
    t = pins.get("step")
    if t is None:
        return Continued(Answer("unknown", reason="a use at setup is no move of a game"), compared=False)
    u = unrolled(world, solver, t + 1 + CONTINUE_STEPS, skills, symmetric=False, quiet=pins["quiet"])
    idx = next((n for n, mv in enumerate(u.trans.moves) if mv.skill is skill and mv.binding is not None
                and (mv.binding.self_slot, mv.binding.targets, mv.binding.others) ==
                (game.binding.self_slot, game.binding.targets, game.binding.others)), None)
    if idx is None or len(u.quiet_sels) != len(pins["quiet_sels"]):
        return Continued(Answer("unknown", reason="the use is no move of the found game"), compared=False)
    var = world.sem.reading_var(ambiguity)
    pinned = [var == i, u.sels[t] == idx] + [x == v for x, v in zip(u.sels, pins["sels"])] + \
        [x == v for x, v in zip(u.quiet_sels, pins["quiet_sels"])] + \
        [u.states[0][k] == v for k, v in pins["dealt"].items() if k in u.states[0].terms]
    later = range(1, CONTINUE_STEPS + 1)
    if after is not None:
        fixed = moves_pinned(u, t + 1, after)
        if fixed is None:
            return Continued(Answer("unknown", reason="the moves found before are no moves here"), compared=False)
        pinned, later = pinned + fixed, [len(after)]
    with at_table(world, u.table):
        before = u.states[t]
        other, possible = [before], []
        for s in range(t, len(u.sels)):
            # the use and the moves after it, with the same free choices (ballots…), read as option j
            st, extra = u.trans.step(other[-1], u.sels[s], u.days[s], read_as=((var, j),), choices=u.choices[s])
            other.append(st)
            possible.append(extra[0])
        keys = [k for k in sorted(before.terms, key=repr) if k[0] not in ("spent",) + RECORDS and told(k)]
        # n moves after the use: a named value differs, or the n-th move cannot happen under j
        differs = [Or([matters(world, before, u.states[t + 1 + n], other[1 + n], k) for k in keys] +
                         ([And(u.sels[t + n] != -1, Not(possible[n]))] if n else []) +
                         [z3.BoolVal(False, world.ctx)]) for n in range(CONTINUE_STEPS + 1)]
    # the use as a move of the found game (the pins alone): else nothing was compared
    ans = solver.check(u.constraints + pinned, "reading-continue", rlimit=solver.rlimit * CONFIRM_BUDGET)
    if not ans.sat:
        return Continued(Answer("unknown", reason="the use is no move of the found game"), compared=False)
    for n in later:
        ans = solver.check(u.constraints + pinned + [differs[n]], "reading-continue",
                           rlimit=solver.rlimit * CONFIRM_BUDGET)
        if ans.status != "unsat":
            break
    if not ans.sat:
        return Continued(ans)
    m = ans.model
    picked = [m.eval(x, model_completion=True).as_long() for x in u.sels[:t + 1 + n]]
    moves = [u.trans.moves[x] for x in picked if x >= 0]
    mine, theirs = u.states[t + 1 + n], other[1 + n]
    blocked = z3.is_true(m.eval(And(u.sels[t + n] != -1, Not(possible[n])), model_completion=True))
    told_moves = history_of(m, u, t + 1 + n, since=t + 1)
    day = game_days(m, u, t + n)[1] + sum(mv.label == "day" for mv in moves[:t + n + 1])
    others = [f"「{name}」按「{option}」理解" for name, option in
              readings_of(m, world, [mv.skill for _, mv in told_moves if mv.skill is not None], skip=ambiguity)]
    return Continued(ans, [text for text, _ in told_moves if text], [move_json(mv) for mv in moves], t,
                     (concrete(m, mine, world.sorts), concrete(m, theirs, world.sorts)),
                     [k for k in keys if z3.is_true(m.eval(matters(world, before, mine, theirs, k), model_completion=True))],
                     move_text(moves[t + n], day, first_called(world.rs)) if blocked else "", t + n if blocked else None,
                     told_moves=[mv for text, mv in told_moves if text], others=others)


def _use_follows(u, t: int, skill: Skill, b: Binding) -> z3.BoolRef:
    """The use may follow the first t moves of the unrolled game u as a move of its own would:
    a timed skill as a window (phase order, daily limits, held when its phase began, forced
    skills not passed over), a phase trigger at its phase, an answer to a going out right after
    it; a replacement answers when the outs happen, once the phase the game is in is played out."""
    if skill.timing:
        return window_follows(u.trans, u.sels, t, [(skill, b)], u.states)
    if phase_trigger(skill):
        return trigger_follows(u.trans, u.sels, t, skill, b, u.states)
    if (skill.trigger or {}).get("event") == "about_to_go_out":
        return And(going_out_follows(u.trans, u.states, t, skill, b), phase_duties_done(u.trans, u.sels, u.states, t))
    if answers_going_out(skill):
        return going_out_follows(u.trans, u.states, t, skill, b, u.sels)
    return z3.BoolVal(True, u.trans.world.ctx)


def _declined_at_setup(world: World, skill: Skill, b: Binding) -> z3.BoolRef:
    """The user did not use the setup skill while setup resolved (reach.after_setup's choices)."""
    mine = [setup_choice(world, skill, x) for x in bindings_for(world, skill, range(world.k)) if x.self_slot == b.self_slot]
    return Not(Or(mine + [z3.BoolVal(False, world.ctx)]))


def wins_only_under(world: World, st: State, faction: str, ambiguity: str, i: int, j: int) -> z3.BoolRef:
    """In st the faction has won when the ambiguity is read as option i, and not as option j."""
    with world.sem.reading_fixed(ambiguity, i):
        won_i = faction_goal(world, st, faction)
    with world.sem.reading_fixed(ambiguity, j):
        won_j = faction_goal(world, st, faction)
    return And(won_i, Not(won_j))


def win_differs(world: World, st: State, factions: list[str], ambiguity: str, pairs) -> z3.BoolRef:
    """In st some faction has won under one option of a pair and not under the other."""
    return Or([wins_only_under(world, st, f, ambiguity, i, j) for f in factions for i, j in pairs]
                 + [z3.BoolVal(False, world.ctx)])

