"""Game-level questions over short scenarios: a few skill uses in one window.

A scenario fixes which player slot does what (bindings); z3 chooses everything else
about the state, within what a reachable state may look like (World.realizable).
"""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field, fields, replace
from typing import Callable, Iterator

import z3

from ..domain import Effect, Skill
from .connectives import And, If, Not, Or
from .decode import concrete
from .night_end import may_be_dying, settle_window
from .semantics import Semantics, Unbound
from .solver import Answer, Solver
from .sorts import RECORDS, State
from .world import Binding, World


@dataclass(frozen=True)
class Use:
    skill: Skill
    binding: Binding


@dataclass
class Pin:
    """Extra facts about the starting state, in game terms."""
    dying: tuple[int, ...] = ()       # these slots are about to go out
    dead: tuple[int, ...] = ()        # these slots have just gone out
    alive: tuple[int, ...] = ()

    def constraints(self, st: State) -> list:
        cs = []
        for i in range(len([k for k in st.terms if k[0] == "alive"])):
            cs.append(st[("dying", i)] == (i in self.dying))
        cs += [st[("alive", i)] for i in self.dying + self.alive]
        cs += [Not(st[("alive", i)]) for i in self.dead]
        return cs


@dataclass
class OrderResult:
    answer: Answer
    start: dict = field(default_factory=dict)        # concrete starting state
    before: dict = field(default_factory=dict)       # after the uses that set the scene
    ab: dict = field(default_factory=dict)           # final state, a then b
    ba: dict = field(default_factory=dict)           # final state, b then a
    differing: list = field(default_factory=list)    # keys whose final value depends on the order
    history: list = field(default_factory=list)      # the moves from the deal to the start (confirm_order)
    table: tuple | None = None                       # (players, rest of the table per identity) (confirm_order)
    dealt: dict = field(default_factory=dict)        # the state as dealt, before the history (confirm_order)
    idle_choices: set = field(default_factory=set)   # (0 = a / 1 = b, effect uid): a choice whose guard did not hold
    turn_failed: tuple = ([], [])    # why b (a then b) and a (b then a) no longer happened at their turn
    trail: dict = field(default_factory=dict)        # the game to ask for first next time (confirm_order)
    detoured: bool = False                         # a ballot for oneself or a use on the out (detours)
    setup: list = field(default_factory=list)        # the uses made while setup resolved, told (confirm_order)


def in_one_window(uses: list[Use]) -> list[Use]:
    """The uses of a scenario happen in one window: each binding knows who used what
    (for conditions like 当晚没有发动… / 成为…的目标)."""
    window = tuple((u.binding.self_slot, u.skill.name, u.binding.targets) for u in uses)
    return [Use(u.skill, replace(u.binding, window=window)) for u in uses]


def _enabled_all(world: World, st: State, uses: list[Use]) -> list:
    return [world.enabled(st, u.skill, u.binding) for u in uses]


def _shared(world: World, solver: Solver):
    """One symbolic start state and one solver session for all order questions of a world:
    building the reachable-state constraints once is most of the cost of a question."""
    from .solver import Session
    cache = world.__dict__.setdefault("_order_session", {})
    if "s0" not in cache:
        s0 = world.state("o")
        cache["s0"] = s0
        cache["session"] = Session(solver, world.realizable(s0))
    return cache["s0"], cache["session"]


def order_question(world: World, solver: Solver, scene: list[Use], a: Use, b: Use, pin: Pin,
                   prefer_alive: tuple[int, ...] = (), outcome: Callable[[tuple], bool] | None = None,
                   answer_only: bool = False) -> OrderResult:
    """Is there a reachable state where resolving a then b differs from b then a?
    A witness with the prefer_alive players alive is tried first (it reads more naturally).
    outcome(key): whether a difference in that value counts (default: every value).
    answer_only: the answer without the states (decoding them was a tenth of zemu's order share)."""
    if prefer_alive:
        first = order_question(world, solver, scene, a, b, Pin(pin.dying, pin.dead, pin.alive + prefer_alive), (), outcome,
                               answer_only)
        if first.answer.sat:
            return first
        if first.answer.status == "unknown":
            return first
    s0, session = _shared(world, solver)
    q = _question(world, s0, scene, a, b, pin, outcome)
    if isinstance(q, OrderResult):
        return q
    cs, pre, ab, ba, keys, _, _ = q
    ans = session.check(cs, "order")
    if not ans.sat or answer_only:
        return OrderResult(ans)
    return _decoded(world, ans, s0, pre, ab, ba, keys)


def _question(world: World, s0: State, scene: list[Use], a: Use, b: Use, pin: Pin, outcome):
    """_order_terms, or an OrderResult that already answers: words the scenario does not
    bind, or no value that could differ."""
    try:
        terms = _order_terms(world, s0, scene, a, b, pin, outcome)
    except Unbound as exc:
        return OrderResult(Answer("unknown", reason=f"unbound:{exc}"))
    return terms if terms[4] else OrderResult(Answer("unsat"))


def _order_terms(world: World, s0: State, scene: list[Use], a: Use, b: Use, pin: Pin, outcome):
    """The question over start state s0: constraints (with "the orders differ"), the state
    before the pair, both final states and the values compared."""
    *scene, a, b = in_one_window(scene + [a, b])
    cs = pin.constraints(s0) + _enabled_all(world, s0, scene)
    pre = s0
    for u in scene:
        pre = world.run(pre, u.skill, u.binding)
    cs += _enabled_all(world, pre, [a, b])
    # both are enabled when the window resolves; the one resolving second is checked
    # again at its turn (the first may have blocked, converted or saved its way out)
    after_a, after_b = world.run(pre, a.skill, a.binding), world.run(pre, b.skill, b.binding)
    ab = world.resolve(after_a, b.skill, b.binding)
    ba = world.resolve(after_b, a.skill, a.binding)
    turns = (turn_checks(world, after_a, b), turn_checks(world, after_b, a))
    # compared once the window has settled: the outs happen and the triggers they fire
    victims = may_be_dying(s0, [ab, ba], pin.dying, world.k)
    ab, ba = settle_window(world, ab, victims), settle_window(world, ba, victims)
    # where targeting lands is how the window resolves, not an outcome; nor is which of two
    # lethal effects on one player is recorded as the cause (one cause is kept per player, the
    # last written: a player hit by both has both causes, in either order)
    keys = [k for k in sorted(ab.terms, key=repr) if ab.terms[k] is not ba.terms[k] and not ab.terms[k].eq(ba.terms[k]) and k[0] not in RECORDS
            and (outcome is None or outcome(k))]
    if keys:
        cs.append(Or([matters(world, pre, ab, ba, k) for k in keys]))
    return cs, pre, ab, ba, keys, _choice_guards(world, pre, [a, b]), turns


def turn_checks(world: World, st: State, u: Use) -> list[tuple[str, z3.BoolRef]]:
    """What a judge checks again when the use's turn comes, each as (in words, "it fails in
    st"): the story says why the second action of an order no longer happened."""
    s, b = u.skill, u.binding
    out = []
    if not s.trigger:
        out.append(("发动者已出局", Not(st[("alive", b.self_slot)])))
        out.append(("发动者的技能已被封锁", Or(world.sem.skills_blocked(st, b.self_slot, s),
                                               world.sem.tags_blocked(st, b.self_slot, s))))
    out.append(("发动者已不再持有该技能", Not(world.holds(st, b.self_slot, s))))
    if s.targets:
        f = s.targets.get("filter") or {}
        out.append(("目标已不符合选择范围", Not(And([world.sem.filter(f, t, b.as_dict(t), st) for t in b.targets]
                                                         + [z3.BoolVal(True, world.ctx)]))))
    if s.condition:
        out.append(("发动条件已不满足", Not(world.sem.cond(s.condition, b.as_dict(), st))))
    return out


def _choice_guards(world: World, st: State, uses: list[Use]) -> dict:
    """(use index, effect uid) -> "this choice of the use applies" in st, for its guarded
    choose effects (a story tells only the choices that were made)."""
    from .reach import choice_guards
    return {(n, uid): g for n, u in enumerate(uses) for uid, g in choice_guards(world, u.skill, u.binding, st).items()}


# budgets, in times the rlimit: "does the window happen in the game as dealt?", then "after a
# few moves?" (a trace query; measured on zemu: most of its confirmations resolve well within it)
CONFIRM_DEAL_BUDGET, CONFIRM_TRACE_BUDGET = 5, 5


def confirm_order(world: World, solver: Solver, scene: list[Use], a: Use, b: Use, pin: Pin, outcome,
                  depth: int, skills: list) -> OrderResult:
    """The same question in a game: the start state is reached from a legal deal at a table
    of the stated size by at most depth legal moves (use limits kept, play stopped at a win),
    and nobody has won when the window opens; every count counts the whole table.
    The result carries that history (res.history) and the table (res.table)."""
    return confirm_orders(world, solver, [(scene, a, b, pin)], outcome, depth, skills)[1]


def confirm_orders(world: World, solver: Solver, situations: list[tuple[list[Use], Use, Use, Pin]], outcome,
                   depth: int, skills: list, pin: dict | None = None, plain: bool = False) -> tuple[int, OrderResult]:
    """confirm_order for several situations (scene, a, b, pin) of one pair at once: one game
    question whether any of them arises (measured on zemu: a pair had about nine, and asking
    each alone was most of its order-dependence time). (the situation reached, its result).
    pin: a trail found before (res.trail): only that game is asked for. plain: neither a use of
    the window nor a move before it is a detour (detours.odd_use)."""
    from .detours import held_in, odd_use

    def builder(scene, a, b, pin):
        def build(s0):
            # the table's values are the same variables at every depth: the question is too
            q = _question(world, s0, scene, a, b, pin, outcome)
            if isinstance(q, OrderResult):
                return [], q
            odd = [odd_use(u.skill, u.binding.self_slot, u.binding.targets, lambda x: s0[("faction", x)],
                           world.rs, held_in(s0))
                   for u in list(scene) + [a, b] if u.binding.targets] if plain else []
            if any(x is True for x in odd):
                return [], OrderResult(Answer("unsat"))
            return q[0] + [Not(x) for x in odd if x is not False], q
        return build

    game = in_games(world, solver, [(builder(*sit), list(sit[0]) + [sit[1], sit[2]]) for sit in situations],
                    depth, skills, "order-game", pin=pin, plain=plain)
    if isinstance(game.payload, OrderResult):
        return game.option, game.payload
    if not game.answer.sat:
        return game.option, OrderResult(game.answer)
    cs, pre, ab, ba, keys, guards, turns = game.payload
    res = _decoded(world, game.answer, game.s0, pre, ab, ba, keys)
    res.history, res.dealt, res.table, res.trail = game.history, game.dealt, game.table, game.trail
    res.setup = game.setup
    res.detoured = game.detoured
    m = game.answer.model
    res.idle_choices = {key for key, g in guards.items() if not z3.is_true(m.eval(g, model_completion=True))}
    res.turn_failed = tuple([why for why, term in checks if z3.is_true(m.eval(term, model_completion=True))]
                            for checks in turns)
    return game.option, res


@dataclass
class Game:
    """A state reached in a game (in_game): the answer, the start state's variables, what the
    builder returned, the moves from the deal, the state as dealt and the table."""
    answer: Answer
    s0: State | None = None
    payload: object = None
    history: list = field(default_factory=list)
    dealt: dict = field(default_factory=dict)
    table: tuple | None = None
    option: int = 0            # which of in_games' options the game reached
    trail: dict = field(default_factory=dict)   # the game to ask for first next time (pinned.trail_json)
    detoured: bool = False   # a ballot for oneself or a use on the out in the history (detours)
    setup: list = field(default_factory=list)   # the uses made while setup resolved, told (setup_told)


def in_game(world: World, solver: Solver, build: Callable, depth: int, skills: list, purpose: str,
            window: list[Use] = (), answers_last_move: bool = False, pin: dict | None = None) -> Game:
    """Is there a state s0, reached from a legal deal at the stated table by at most depth
    legal moves with nobody having won, where build(s0)'s constraints hold? build(s0) -> (constraints,
    payload) runs at the table (counts take in the rest); a payload that is an answer already
    (not a tuple) is returned as it is. The game as dealt is tried first (no unrolling: most
    situations arise on the first night), then up to depth moves. pin: a trail found before
    (Game.trail): only that game is asked for."""
    return in_games(world, solver, [(build, list(window))], depth, skills, purpose, answers_last_move, pin=pin)


def in_games(world: World, solver: Solver, options: list[tuple[Callable, list[Use]]], depth: int, skills: list,
             purpose: str, answers_last_move: bool = False, pin: dict | None = None, plain: bool = False) -> Game:
    """in_game for several situations at once (build, window): does a game reach any of them?
    One question for all (unsat: none is reached), the game names the one it reached
    (Game.option). An option whose builder answers already is left out; when all do, the
    first one's answer is returned. pin: a trail found before (Game.trail): only that game,
    its moves fixed, is asked for (unsat: it no longer reaches a situation). plain: no move of
    the game before the situation is a detour (detours.no_odd_moves)."""
    from .detours import detoured_game, no_odd_moves
    from .pinned import pinned, trail_json
    from .rest_triggers import silent_rest_at
    from .reach import game_day, game_over, history_of, phase_after, setup_told, unrolled, window_follows
    from .table import at_table, composition
    s0 = world.state("g")
    ans, u, at, payloads, answered = Answer("unsat"), None, {}, {}, None
    pick = z3.Int(f"{purpose}|option", world.ctx)
    fixed = None
    depths = sorted({0, 1, depth}) if pin is None else [depth if pin["moves"] else 0]
    for d in depths:
        u = unrolled(world, solver, d, skills, symmetric=False)
        if pin is not None:
            fixed = pinned(u, pin)
            if fixed is None:
                return Game(Answer("unsat"), s0)   # a move or value the encoding no longer has
        # a condition on the day's number reads the day of the state the situation arises in
        on_day = [[game_day(world) == u.days[t]] if world.sem.reads_day else [] for t in range(len(u.states))]
        same = [[s0[k] == st[k] for k in sorted(s0.terms, key=repr)] + on_day[t] for t, st in enumerate(u.states)]
        if plain:
            same = [cs + no_odd_moves(u, t) for t, cs in enumerate(same)]
        own, at = {}, {}
        for i, (build, window) in enumerate(options):
            with at_table(world, u.table):
                cs, payload = build(s0)
                if not isinstance(payload, tuple):
                    answered = payload if answered is None else answered
                    continue
                payloads[i] = payload
                own[i] = cs + [Not(game_over(world, s0))]
            # the window's own uses follow the history: in phase order, within their daily limits
            # and no-repeat rules counted with that day's (and the last night's) moves
            uses = [(w.skill, w.binding) for w in window]
            with at_table(world, u.table):
                silent = [silent_rest_at(world, u.table, st, [(w.skill, w.binding) for w in window]) for st in u.states]
            # a window of uses without a timing of their own is in the phase the game is in
            timeless = bool(window) and not any(w.skill.timing for w in window)
            at[i] = [And(same[t] + ([window_follows(u.trans, u.sels, t, uses, u.states)] if uses else []) +
                            (phase_after(world, u, t) if timeless else []) +
                            silent[t] +
                            ([_just_went_out(window, u.states, t)] if answers_last_move else []))
                     if pin is None or t == len(pin["moves"]) else z3.BoolVal(False, world.ctx)
                     for t in range(len(u.states))]
        if not own:
            return Game(answered if isinstance(answered, Answer) else Answer("unsat"), s0, answered)
        if len(own) == 1:
            (i, mine), = own.items()
            query = u.constraints + mine + [Or(at[i])]
        else:
            query = u.constraints + [Or([And([pick == i] + own[i] + [Or(at[i])]) for i in sorted(own)])]
        budget = solver.rlimit * (CONFIRM_TRACE_BUDGET if d else CONFIRM_DEAL_BUDGET)
        # the game as dealt is a small question; after moves, an undecided one gets a second start
        ans = solver.check(query + fixed, f"{purpose}-pinned", rlimit=budget) if fixed is not None else \
            solver.check_retrying(query, f"{purpose}-{d}", budget) if d == depths[-1] else \
            solver.check(query, f"{purpose}-{d}", rlimit=budget)
        if ans.sat:
            break
    if not ans.sat:
        return Game(ans, s0, payloads.get(min(own)))
    i = ans.model.eval(pick, model_completion=True).as_long() if len(own) > 1 else next(iter(own))
    t = next(n for n, c in enumerate(at[i]) if z3.is_true(ans.model.eval(c, model_completion=True)))
    if fixed is None:
        # the history is shortened for the situation it reached (a pinned one was already)
        base = u.constraints + own[i] if len(own) == 1 else u.constraints + [pick == i] + own[i]
        ans, t = shortest(solver, u, base, at[i], ans, t, purpose)
    return Game(ans, s0, payloads[i], history_of(ans.model, u, t), concrete(ans.model, u.states[0], world.sorts),
                composition(ans.model, u.table) if u.table else None, option=i, trail=trail_json(ans.model, u, t),
                detoured=detoured_game(ans.model, u, t), setup=setup_told(ans.model, u))


def _just_went_out(window: list[Use], states: list, t: int) -> z3.BoolRef:
    """A window of triggers answering a going out comes right after the move that made it: each
    trigger's victim was alive (not yet about to go out) before the last move and is out (about
    to go out) after it. The dealt game has had no going out."""
    parts = []
    for w in window:
        event = (w.skill.trigger or {}).get("event")
        if event not in ("went_out", "killed", "about_to_go_out"):
            continue
        if t == 0:
            return z3.BoolVal(False, states[0][("alive", 0)].ctx)
        victim = dict(w.binding.others).get("victim", w.binding.self_slot)
        key = "dying" if event == "about_to_go_out" else "alive"
        was, now = states[t - 1][(key, victim)], states[t][(key, victim)]
        parts.append(And(Not(was), now) if key == "dying" else And(was, Not(now)))
    return And(parts + [z3.BoolVal(True, states[0][("alive", 0)].ctx)])


def shortest(solver: Solver, u, base: list, at: list, ans: Answer, t: int, purpose: str) -> tuple[Answer, int]:
    """A history a judge reads without steps that change nothing: while some move of the found
    history can be left out (the others, in their order, still lead to the situation), it is.
    Each try pins the moves, a small question; one the budget does not decide keeps the move."""
    idx = lambda a, i: a.model.eval(u.sels[i], model_completion=True).as_long()   # noqa: E731
    moves = [idx(ans, i) for i in range(t)]
    j = 0
    while j < len(moves) and len(moves) > 1:   # the game as dealt was asked already
        keep = moves[:j] + moves[j + 1:]
        pinned = [u.sels[i] == mv for i, mv in enumerate(keep)]
        got = solver.check(base + pinned + [at[len(keep)]], f"{purpose}-shorter", rlimit=solver.rlimit * CONFIRM_DEAL_BUDGET)
        if got.sat:
            ans, moves = got, keep
        else:
            j += 1
    return ans, len(moves)


def _decoded(world: World, ans: Answer, s0: State, pre: State, ab: State, ba: State, keys: list) -> OrderResult:
    m = ans.model
    res = OrderResult(ans, concrete(m, s0, world.sorts), concrete(m, pre, world.sorts),
                      concrete(m, ab, world.sorts), concrete(m, ba, world.sorts))
    res.differing = [k for k in keys if z3.is_true(m.eval(matters(world, pre, ab, ba, k), model_completion=True))]
    return res


# What a player who is out in both orders holds does not change the game: a status, label,
# lost or gained skill, vote weight or ballot of the dead is no outcome a judge rules on.
OUT_IRRELEVANT = ("status", "label", "lost", "gained", "votes", "ballot", "received")


def held_before(world: World, pre: State, k) -> z3.BoolRef:
    """For a lost-skill key: the player held a skill of that name before the pair. Losing
    a skill one never held (失去所有技能 on a player without it) is no outcome."""
    return Or([world.holds(pre, k[1], s) for s in world.rs.skills if s.name == k[2]] +
                 [z3.BoolVal(False, world.ctx)])


def matters(world: World, pre: State, ab: State, ba: State, k) -> z3.BoolRef:
    """The two outcomes ab, ba (from pre) differ on k in a way a judge rules on. A gained
    copy of a skill the player holds anyway (by identity) is no difference: what counts is
    whether they hold it."""
    if k[0] in OUT_IRRELEVANT:
        differs = And(ab[k] != ba[k], Or(ab[("alive", k[1])], ba[("alive", k[1])]))
        if k[0] == "gained":
            skill = next(s for s in world.rs.skills if s.uid == k[2])
            differs = And(differs, world.holds(ab, k[1], skill) != world.holds(ba, k[1], skill))
        return And(differs, held_before(world, pre, k)) if k[0] == "lost" else differs
    return ab[k] != ba[k]


def possible(world: World, solver: Solver, scene: list[Use], extra: Callable[[State], list], purpose: str,
             pin: Pin | None = None) -> tuple[Answer, dict, dict]:
    """Can the scene happen in a reachable state with the extra facts? Returns the start
    state and the state after the scene when it can."""
    scene = in_one_window(scene)
    try:
        s0 = world.state("p")
        cs = world.realizable(s0) + (pin.constraints(s0) if pin else []) + _enabled_all(world, s0, scene)
        after = s0
        for u in scene:
            after = world.run(after, u.skill, u.binding)
        cs += extra(s0)
    except Unbound as exc:
        return Answer("unknown", reason=f"unbound:{exc}"), {}, {}
    ans = solver.check(cs, purpose)
    if not ans.sat:
        return ans, {}, {}
    return ans, concrete(ans.model, s0, world.sorts), concrete(ans.model, after, world.sorts)


def changes_anything(world: World, solver: Solver, use: Use, pin: Pin | None = None) -> tuple[Answer, dict, dict]:
    """Is there a reachable state where the use is enabled and changes the state?"""
    try:
        s0 = world.state("d")
        cs = world.realizable(s0) + (pin.constraints(s0) if pin else []) + [world.enabled(s0, use.skill, use.binding)]
        after = world.run(s0, use.skill, use.binding)
    except Unbound as exc:
        return Answer("unknown", reason=f"unbound:{exc}"), {}, {}
    keys = [k for k in sorted(after.terms, key=repr) if after.terms[k] is not s0.terms[k] and not after.terms[k].eq(s0.terms[k])]
    if not keys:
        return Answer("unsat"), {}, {}
    ans = solver.check(cs + [Or([after[k] != s0[k] for k in keys])], "dead")
    if not ans.sat:
        return ans, {}, {}
    return ans, concrete(ans.model, s0, world.sorts), concrete(ans.model, after, world.sorts)


def enabled_ever(world: World, solver: Solver, use: Use, pin: Pin | None = None) -> Answer:
    try:
        s0 = world.state("e")
        cs = world.realizable(s0) + (pin.constraints(s0) if pin else []) + [world.enabled(s0, use.skill, use.binding)]
    except Unbound as exc:
        return Answer("unknown", reason=f"unbound:{exc}")
    return solver.check(cs, "enabled")


def blocked_by(world: World, st_key_status: str):
    """Extra-facts builder: slot i holds status S in the starting state."""
    def build(slot: int):
        return lambda st: [st[("status", slot, st_key_status)]]
    return build


class Probe:
    """Many one-use questions over one shared symbolic state and one solver session."""

    def __init__(self, world: World, solver: Solver):
        from .solver import Session
        self.world = world
        self.s0 = world.state("probe")
        self.session = Session(solver, world.realizable(self.s0))

    def enabled_ever(self, use: Use) -> Answer:
        try:
            en = self.world.enabled(self.s0, use.skill, use.binding)
        except Unbound as exc:
            return Answer("unknown", reason=f"unbound:{exc}")
        return self.session.check([en], "enabled")

    def changes_anything(self, use: Use) -> Answer:
        try:
            en = self.world.enabled(self.s0, use.skill, use.binding)
            after = self.world.run(self.s0, use.skill, use.binding)
        except Unbound as exc:
            return Answer("unknown", reason=f"unbound:{exc}")
        keys = [k for k in sorted(after.terms, key=repr) if after.terms[k] is not self.s0.terms[k] and not after.terms[k].eq(self.s0.terms[k])]
        if not keys:
            return Answer("unsat")
        return self.session.check([en, Or([after[k] != self.s0[k] for k in keys])], "dead")

    # One effect of a skill. A proof is an unsat answer over every binding; any other answer
    # (sat, a budget-out, a word the binding leaves unbound) proves nothing. Counts take in the
    # rest of the table, when the setup states its size, as any number (_FreeRest).
    def used(self, use: Use, changing: bool) -> Answer:
        """Is there a reachable state where the use is enabled (and, changing=True, changes
        the state)? What the effect questions below rest on: asked the same way."""
        try:
            en, after, _ = self._resolution(use)
        except Unbound as exc:
            return Answer("unknown", reason=f"unbound:{exc}")
        cs = [en]
        if changing:
            keys = [k for k in sorted(after.terms, key=repr) if after.terms[k] is not self.s0.terms[k] and not after.terms[k].eq(self.s0.terms[k])]
            if not keys:
                return Answer("unsat")
            cs.append(Or([after[k] != self.s0[k] for k in keys]))
        return self.session.check(cs + self._rest_facts(), "dead-used")

    def effect_guard(self, use: Use, effect: Effect, holds: bool) -> Answer:
        """Is there a reachable state where the use is enabled, its resolution reaches the
        effect (the effects before it applied, the guards and the choice above it taken) and
        the effect's `if` then holds (holds=True) or fails (holds=False)? unsat for True: the
        guard never holds when the skill is used; for False (True being sat): it always holds."""
        try:
            en, _, seen = self._resolution(use)
            with self._watching():
                at = []
                for pc, b, before, _ in seen.get(id(effect), []):
                    g = self.world.sem.cond(effect.guard, b, before)
                    at.append(And(pc, g if holds else Not(g)))
        except Unbound as exc:
            return Answer("unknown", reason=f"unbound:{exc}")
        if not at:
            return Answer("unsat")   # the resolution never reaches the effect
        return self.session.check([en, Or(at)] + self._rest_facts(), "dead-guard")

    def effect_matters(self, use: Use, effect: Effect, alone: bool = False) -> Answer:
        """Is there a reachable state where the use is enabled and the effect changes the
        state: the state after the use differs from the state after the use without that
        effect (and what it replaces with, `instead`)? alone=True: the state right after the
        effect differs from the state right before it. unsat: it never changes anything."""
        try:
            en, after, seen = self._resolution(use)
            if alone:
                pairs = [(before, then) for _, _, before, then in seen.get(id(effect), [])]
            else:
                with self._watching(skip=effect):
                    pairs = [(after, self.world.run(self.s0, use.skill, use.binding))]
        except Unbound as exc:
            return Answer("unknown", reason=f"unbound:{exc}")
        diff = [x[k] != y[k] for x, y in pairs for k in sorted(x.terms, key=repr) if x.terms[k] is not y.terms[k] and not x.terms[k].eq(y.terms[k])]
        if not diff:
            return Answer("unsat")
        return self.session.check([en, Or(diff)] + self._rest_facts(), "dead-effect")

    def uncovered(self, use: Use, cases: list[Effect], context: list, subject, tiers: list) -> tuple[Answer, list]:
        """Is there a reachable state where the use is enabled, its resolution reaches the
        cases (sibling effects split by tiers), the conditions they share (context) hold when
        the first is reached, and none of the cases applies when it resolves? The answer, and
        the values of subject (a <num> read where the first case resolves) that no case covers
        (up to three, each with the start state)."""
        try:
            en, _, seen = self._resolution(use)
            with self._watching():
                first = seen.get(id(cases[0]), [])
                if not first:
                    return Answer("unsat"), []
                sem = self.world.sem
                ctx = Or([And(pc, *[sem.cond(c, b, before) for c in context]) for pc, b, before, _ in first])
                applies = [And(pc, sem.cond(tier, b, before))
                           for e, tier in zip(cases, tiers) for pc, b, before, _ in seen.get(id(e), [])]
                _, b, before, _ = first[0]
                value = self._value(subject, b, before)
                known = self._stated(subject, b, before)
        except Unbound as exc:
            return Answer("unknown", reason=f"unbound:{exc}"), []
        cs = [en, ctx, known, Not(Or(applies + [z3.BoolVal(False, self.world.ctx)]))] + self._rest_facts()
        values: list = []
        ans = self.session.check(cs, "uncovered-case")
        while ans.sat and len(values) < 3:
            v = ans.model.eval(value, model_completion=True)
            values.append((v, concrete(ans.model, self.s0, self.world.sorts)))
            cs = cs + [value != v]
            more = self.session.check(cs, "uncovered-case")
            if not more.sat:
                break
            ans = more
        return (Answer("sat") if values else ans), values

    def _value(self, subject: dict, b: dict, st: State) -> z3.ArithRef:
        """The number a tier reads; a strength is the first player's the filter names (the
        cases ask whether someone of that strength is there)."""
        sem = self.world.sem
        if "strength" in subject:
            out = z3.RealVal(0, self.world.ctx)
            for i, g in reversed(sem.slots(subject["strength"], b, st)):
                out = If(g, sem.strength(st, i), out)
            return out
        return sem.num(subject, b, st)

    def _stated(self, subject: dict, b: dict, st: State) -> z3.BoolRef:
        """The number is one the text gives: a strength only of an identity whose strength the
        text states (an unknown strength is no evidence of a gap between tiers)."""
        sem = self.world.sem
        if "strength" not in subject:
            return sem.true()
        stated = [r for r, role in self.world.rs.roles.items() if role.strength is not None and r in self.world.sorts.roles]
        out = sem.false()
        for i, g in reversed(sem.slots(subject["strength"], b, st)):
            out = If(g, Or([st[("role", i)] == self.world.sorts.roles[r] for r in stated] + [sem.false()]), out)
        return out

    def _resolution(self, use: Use) -> tuple:
        """(enabled, state after, where each effect resolved: id -> [(path condition, binding
        words, state before, state after)]) for the use from the probe state; the last
        skill's uses are kept (its effects are asked about one after another)."""
        key = (use.skill.uid, repr(use.binding))
        kept = self.__dict__.setdefault("_resolved", {})
        if key not in kept:
            if any(k[0] != key[0] for k in kept):
                kept.clear()
            with self._watching() as sem:
                kept[key] = (self.world.enabled(self.s0, use.skill, use.binding),
                             self.world.run(self.s0, use.skill, use.binding), sem.seen)
        return kept[key]

    @contextmanager
    def _watching(self, skip: Effect | None = None) -> Iterator["_Watching"]:
        """world.enabled / world.run / conditions built by a _Watching copy of the world's
        semantics: the same terms, each effect's resolutions recorded, skip left out."""
        if "rest" not in self.__dict__:
            from .table import players_range
            rng = players_range(self.world.rs)
            self.rest = _FreeRest(self.world, rng[0], rng[1]) if rng else None
        before = self.world.sem
        sem = _Watching(**{f.name: getattr(before, f.name) for f in fields(Semantics)}, skip=skip)
        if self.rest is not None:
            sem.table = self.rest
        self.world.sem = sem
        try:
            yield sem
        finally:
            self.world.sem = before

    def _rest_facts(self) -> list:
        return list(self.rest.constraints) if self.rest is not None else []


class _FreeRest:
    """The players outside the slots, for a question over every reachable state: what they
    add to a count is any number >= 0 (and `none`/`every` any truth value), one per filter,
    binding and state of the slots it is counted in: an effect that could act on them acts on
    the slots too, so the rest changes only where the slots' terms change. The table size is
    any in the stated range. (A game question, table.Table, deals them instead.)"""

    def __init__(self, world: World, lo: int, hi: int):
        self.n = z3.Int("probe|table|players", world.ctx)
        self.constraints = [self.n >= lo, self.n <= hi, self.n >= world.k]
        self.added: dict = {}   # key -> (its variable, the slot terms that key it, kept alive)

    def all_out(self, st: State) -> z3.BoolRef:
        """Whether every player outside the slots is out: either, in a question over every state."""
        alive = [t for key, t in sorted(st.terms.items(), key=lambda kv: repr(kv[0])) if key[0] == "alive"]
        key = ("all_out", tuple(t.get_id() for t in alive))   # as the count: one per state of the slots
        if key not in self.added:
            self.added[key] = (z3.Bool(f"probe|table|all_out|{len(self.added)}", self.n.ctx), alive)
        return self.added[key][0]

    def adds(self, sem: Semantics, f: dict, b: dict, st: State) -> z3.ArithRef:
        slots = [sem.filter(f, i, b, st) for i in range(sem.k)]
        key = (repr(f), repr(sorted(b.items(), key=repr)), tuple(t.get_id() for t in slots))
        if key not in self.added:
            v = z3.Int(f"probe|table|rest|{len(self.added)}", sem.ctx)
            self.added[key] = (v, slots)
            self.constraints.append(v >= 0)
        return self.added[key][0]


@dataclass
class _Watching(Semantics):
    """The world's semantics, recording where each effect resolves (and leaving skip out);
    with a _FreeRest as its table, counts take in any rest of the table."""
    skip: Effect | None = None
    seen: dict = field(default_factory=dict)   # id(effect) -> [(path condition, binding words, before, after)]

    def apply(self, e: Effect, st: State, b: dict, pc: z3.BoolRef | None = None) -> State:
        after = st if e is self.skip else super().apply(e, st, b, pc)
        self.seen.setdefault(id(e), []).append((self.true() if pc is None else pc, b, st, after))
        return after

    def rest_matching(self, f: dict, b: dict, st: State) -> list:
        if isinstance(self.table, _FreeRest):
            return [(self.true(), self.table.adds(self, f, b, st))]
        return super().rest_matching(f, b, st)


def empty_pick(world: World, solver: Solver, use: Use, flt: dict, guard=None, at_setup: bool = False) -> tuple[Answer, dict]:
    """Can the skill resolve (its effect's guard holding) while nobody matches the filter it
    picks a random player from? A setup skill is judged on the dealt game."""
    try:
        s0 = world.state("pick")
        base = world.initial(s0) if at_setup else world.realizable(s0)
        cs = base + _nobody_to_pick(world, s0, use, flt, guard)
    except Unbound as exc:
        return Answer("unknown", reason=f"unbound:{exc}"), {}
    ans = solver.check(cs, "empty-pick")
    return ans, (concrete(ans.model, s0, world.sorts) if ans.sat else {})


def _nobody_to_pick(world: World, s0: State, use: Use, flt: dict, guard) -> list:
    bd = use.binding.as_dict()
    cs = [world.enabled(s0, use.skill, use.binding)]
    if guard is not None:
        cs.append(world.sem.cond(guard, bd, s0))
    cs += [Not(world.sem.filter(flt, i, bd, s0)) for i in range(world.k)]
    # and nobody outside the slots either (at a table)
    cs += [Or(Not(g), n == 0) for g, n in world.sem.rest_matching(flt, bd, s0)]
    return cs


def empty_pick_in_game(world: World, solver: Solver, use: Use, flt: dict, guard, depth: int, skills: list,
                       pin: dict | None = None) -> Game:
    """empty_pick in a game: a legal deal at the stated table and at most depth legal moves
    lead to the skill resolving while nobody, in the slots or the rest of the table, matches.
    pin: a trail found before: only that game is asked for."""
    def build(s0):
        try:
            return _nobody_to_pick(world, s0, use, flt, guard), ()
        except Unbound as exc:
            return [], Answer("unknown", reason=f"unbound:{exc}")
    return in_game(world, solver, build, depth, skills, "pick-game", window=[use], answers_last_move=True, pin=pin)


def conflict_at_effect(world: World, solver: Solver, use: Use, effect, victim: int, status: str | None,
                       replacement: Use | None = None) -> tuple[Answer, dict]:
    """Can the forced effect meet the block when it resolves? The state is taken just before
    that effect (earlier effects of the same skill applied); its guard must hold there, the
    victim must be alive, and hold the blocking status or have the replacement enabled."""
    try:
        s0 = world.state("contra")
        bd = use.binding.as_dict()
        cs = world.realizable(s0) + [world.enabled(s0, use.skill, use.binding)]
        pre = s0
        for e in use.skill.effects:
            if e is effect:
                break
            pre = world.sem.apply(e, pre, bd)
        if effect.guard is not None:
            cs.append(world.sem.cond(effect.guard, bd, pre))
        cs.append(pre[("alive", victim)])
        if status is not None:
            cs.append(pre[("status", victim, status)])
        if replacement is not None:
            cs.append(world.enabled(pre, replacement.skill, replacement.binding))
    except Unbound as exc:
        return Answer("unknown", reason=f"unbound:{exc}"), {}
    ans = solver.check(cs, "contra")
    return ans, (concrete(ans.model, s0, world.sorts) if ans.sat else {})
