"""Reachability of state checks (win conditions): bounded traces for witnesses, and
inductive invariants (Houdini over candidate facts) for proofs of "never"."""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations, permutations, product

import z3

from ..domain import Skill, without_parts
from ..schema import VOTE_OUT_CAUSES
from .connectives import And, If, Implies, Not, Or
from .decode import concrete, number, pack
from .semantics import UNMODELLED_KINDS, Unbound
from .solver import Answer, Solver
from .sorts import RECORDS, State, cause_index, daily_extra_uses
from .readings import reads_reading
from .quiet import answers_going_out, changes_state, duty_if, forced, on_own_going_out, quiet_identities, setup_forced
from .rest_triggers import duties_in_slots, silent_rest
from .table import Table, at_table, composition, deal_table, players_range
from .world import Binding, World, mentions_target


def uses_words(skill: Skill) -> set[str]:
    """Which participant words the skill's text refers to."""
    words: set[str] = set()

    def walk(x) -> None:
        if isinstance(x, str) and x.lstrip("$") in ("caster", "victim", "source", "killer"):
            words.add("source" if x.lstrip("$") == "killer" else x.lstrip("$"))
        elif isinstance(x, dict):
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
    walk(skill.condition)
    for e in skill.all_effects():
        walk(e.args)
        walk(e.guard)
    trig = skill.trigger or {}
    if trig.get("event") == "targeted":
        words.add("caster")
    if trig.get("event") in ("about_to_go_out", "went_out", "killed"):
        words.add("victim")
    return words


def target_choices(skill: Skill, k: int) -> list[tuple[int, ...]]:
    """The target tuples a use may name among k slots: one target, and two distinct ones
    where the skill takes two (a pair made lovers in one use; more than two are not
    modelled). Ordered pairs only where the skill tells its targets apart (target1, target2)."""
    if not skill.targets:
        return [()]
    out: list[tuple[int, ...]] = []
    low, high = max(1, skill.min_targets), min(skill.max_targets, 2)
    if low <= 1:
        out += [(j,) for j in range(k)]
    if high >= 2:
        pairs = permutations(range(k), 2) if _names_places(skill) else combinations(range(k), 2)
        out += [tuple(p) for p in pairs]
    return out


def _names_places(skill: Skill) -> bool:
    text = repr([[e.args, e.guard] for e in skill.all_effects()])
    return "'target1'" in text or "'target2'" in text


def bindings_for(world: World, skill: Skill, self_slots: range | list[int]) -> list[Binding]:
    """Every binding of the words the skill uses (targets: target_choices)."""
    k = world.k
    words = sorted(uses_words(skill))
    out = []
    own = on_own_going_out(skill.trigger or {})
    for i in self_slots:
        target_opts = target_choices(skill, k)
        for t in target_opts:
            for combo in product(range(k), repeat=len(words)):
                others = tuple(zip(words, combo))
                if own and dict(others).get("victim", i) != i:
                    continue   # "on: self": the one going out is the holder
                out.append(Binding(i, t, others))
    return out


def seat_anchors(skill: Skill, binding: Binding) -> set[int] | None:
    """The slots whose neighbours the skill reads (neighbour_of self / target); None when it
    reads the neighbours of someone else too (a filter), so the slots cannot be told."""
    found: set[int] = set()
    unknown = False

    def walk(x) -> None:
        nonlocal unknown
        if isinstance(x, dict):
            for key, v in x.items():
                if key == "neighbour_of":
                    of = v.get("of") if isinstance(v, dict) else v
                    if of == "self":
                        found.add(binding.self_slot)
                    elif of == "target":
                        found.update(binding.targets)
                    else:
                        unknown = True
                else:
                    walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
    walk([skill.targets, skill.condition] + [[e.args, e.guard] for e in skill.all_effects()])
    return None if unknown else found


def inner_bindings(world: World, skill: Skill) -> list[Binding]:
    """Bindings of a use whose seat reads stay among the slots: at a table larger than the
    slots the rest sit beside the first and the last slot, and the engine does not know who
    they are, so a neighbour read anchored there is left to an inner slot (the user in slot 0,
    else in slot 1; every binding when the reads cannot be told or nothing else is left)."""
    every = bindings_for(world, skill, [0])
    rng = players_range(world.rs)
    if not world.vocab.seats or rng is None or rng[1] <= world.k:
        return every
    inner = lambda b: (a := seat_anchors(skill, b)) is None or all(0 < x < world.k - 1 for x in a)  # noqa: E731
    return [b for b in every if inner(b)] or [b for b in bindings_for(world, skill, [1]) if inner(b)] or every


@dataclass
class Move:
    skill: Skill | None
    binding: Binding | None
    label: str
    role: str | None = None    # vote-rest: the identity of the player outside the slots
    pending: bool = False      # vote: the one voted out is about to go out (a trigger may answer)


@dataclass
class SetupUse:
    """A use a slot may make while the one-off phases resolve (after_setup)."""
    skill: Skill
    binding: Binding
    made: z3.BoolRef       # it was made
    could: z3.BoolRef      # it could be (its holder, its condition)
    before: State          # the game before it, and after it if made
    after: State

    @property
    def move(self) -> Move:
        return Move(self.skill, self.binding, self.skill.name)


def votes_can_pend(skills: list[Skill], ballots: bool) -> bool:
    """A vote-out may leave the one voted out about to go out: some trigger answers a player
    about to go out for any cause or a vote-out. Not where such an answer changes a vote's
    weight or adds votes while the count is read from the ballots: it would change the count
    after the fact (the engine does not keep a count as counted)."""
    answering = [s for s in skills if (s.trigger or {}).get("event") == "about_to_go_out" and
                 (s.trigger or {}).get("cause") in (None, "any") + VOTE_OUT_CAUSES]
    rewrites = ballots and any(e.kind in ("vote_weight", "received_votes") for s in answering for e in s.all_effects())
    return bool(answering) and not rewrites


def vote_immune(world: World, st: State, i: int) -> z3.BoolRef:
    """Slot i cannot be voted out: it holds a status that stops going out and excepts no
    vote-out (by either name of the cause)."""
    return And([world.sem.blocked(st, i, "out", c) for c in VOTE_OUT_CAUSES])


def temporary_statuses(rs) -> list[str]:
    """Statuses only ever granted for a while (duration phase, day or until:<phase>) and held
    by nobody at the deal."""
    spans: dict[str, set] = {}
    for e in rs.effects():
        if e.kind == "grant_status" and isinstance(e.args, dict) and isinstance(e.args.get("status"), str):
            d = str(e.args.get("duration") or "permanent")
            spans.setdefault(e.args["status"], set()).add(d in ("phase", "day") or d.startswith("until:"))
    dealt = {s for r in rs.roles.values() for s in (r.statuses or ())} | \
        {s for lab in rs.labels.values() for s in lab.implies_statuses}
    return sorted(s for s, temp in spans.items() if temp == {True} and s not in dealt)


def settled(world: World, st: State) -> State:
    """The pending outs happen: every player about to go out goes out."""
    upd = {}
    for i in range(world.k):
        upd[("alive", i)] = And(st[("alive", i)], Not(st[("dying", i)]))
        upd[("dying", i)] = z3.BoolVal(False, world.ctx)
    return st.set(upd)


@dataclass
class Transitions:
    """A step: one skill use, a vote-out, or the pending outs happening."""
    world: World
    skills: list[Skill]
    moves: list[Move] = field(default_factory=list)
    _template: tuple | None = None
    reads_day: bool = False   # a condition on the day number (第一天…) is part of a move
    rest: bool = True      # the players outside the slots can be voted out (a game at a table)
    quiet: tuple[str, ...] | None = None   # a quiet day (quiet.py): only these identities outside
                                           # the slots can be voted out, or nothing happens
    day_one: int | None = None   # the place in the day the first traced move's day begins at
                                 # (begins_with, when no quiet day came first); None: its start

    def build(self) -> "Transitions":
        if self.quiet is not None:
            self.moves = [Move(None, None, "vote-rest", r) for r in self.quiet]
            return self
        # in the order of the day: the moves of one phase are one range of move numbers
        for s in sorted(self.skills, key=lambda s: (_skill_rank(self.world.rs, s) is None,
                                                    _skill_rank(self.world.rs, s) or 0)):
            for b in bindings_for(self.world, s, range(self.world.k)):
                self.moves.append(Move(s, b, s.name))
        for j in range(self.world.k):
            self.moves.append(Move(None, Binding(j), "vote"))
        if votes_can_pend(self.skills, self.world.vocab.ballots):
            # a trigger answering "about to go out" may answer a vote-out too ("免于此次出局"):
            # the one voted out is then about to go out until the outs are settled
            for j in range(self.world.k):
                self.moves.append(Move(None, Binding(j), "vote", pending=True))
        if self.rest and players_range(self.world.rs) is not None:
            # a player outside the slots can be voted out too (the table counts them)
            for r in self.world.vocab.rest_roles:
                self.moves.append(Move(None, None, "vote-rest", r))
        self.moves.append(Move(None, None, "settle"))
        extra = extra_uses(self.world.rs)
        if any(_daily(mv, extra) is not None or _rank(self.world.rs, mv) is not None for mv in self.moves):
            # a new day: daily use limits start again, and the phases of the day come again
            self.moves.append(Move(None, None, "day"))
        return self

    def ballots(self, st: State, new: State, i: int, guard):
        """A vote-out when the text reads ballots: everyone casts a fresh ballot, and the one
        voted out has the most votes. Ties: any of the tied when the text says what a tie does
        (a re-vote or a choice the engine does not model); none when it says a tie puts nobody
        out (voting.tie_out: none), but a tied player its tie_break names; none when it is silent."""
        w = self.world
        cast = {("ballot", v): w.factory.havoc(("ballot", v), st[("ballot", v)]) for v in range(w.k)}
        voted = st.set(cast)
        ok = [And(t >= -1, t < w.k) for t in cast.values()]
        ok += [Or(w.sem.voter(st, v), cast[("ballot", v)] == -1) for v in range(w.k)]   # only voters cast
        ok.append(w.sem.filter({"top_voted": True}, i, {}, voted))
        voting = w.rs.voting or {}
        if voting.get("tie_out") == "none" or not voting.get("tie"):
            # a tie puts nobody out, or the text is silent on ties: a game never rests on one
            got = w.sem.received
            alone = And([got(voted, i) > got(voted, j) for j in range(w.k) if j != i])
            brk = voting.get("tie_break")
            ok.append(Or(alone, w.sem.filter(brk, i, {}, voted)) if brk else alone)
        return And([guard] + ok), new.set(cast)

    def relation(self, st: State, sel: z3.ArithRef) -> tuple[State, z3.BoolRef]:
        """The state after the move numbered sel, and "that move is possible"."""
        w = self.world
        results: list[tuple[z3.BoolRef, State]] = []
        late: list = []     # moves that may still happen once a faction has won
        for idx, mv in enumerate(self.moves):
            try:
                if mv.label == "vote":
                    i = mv.binding.self_slot
                    # the day's vote comes after the night's outs are settled (天亮): nobody is
                    # still about to go out when a player is voted out
                    # a status that stops going out ([不死]) stops a vote-out too, unless it excepts it
                    guard = And([st[("alive", i)], Not(vote_immune(w, st, i))] +
                                   [Not(st[("dying", j)]) for j in range(w.k)])
                    new = st.set({("alive", i): z3.BoolVal(mv.pending, w.ctx), ("dying", i): z3.BoolVal(mv.pending, w.ctx)} |
                                 ({("cause", i): z3.IntVal(cause_index(w.vocab, VOTE_OUT_CAUSES[0]), w.ctx)}
                                  if w.vocab.causes else {}) |
                                 ({("by", i): z3.IntVal(-1, w.ctx)} if w.vocab.killers else {}))
                    if w.vocab.ballots:
                        guard, new = self.ballots(st, new, i, guard)
                elif mv.label == "vote-rest":
                    guard = And([st[("rest", mv.role)] > 0] + [Not(st[("dying", j)]) for j in range(w.k)])
                    new = st.set({("rest", mv.role): st[("rest", mv.role)] - 1})
                elif mv.label == "day":
                    # statuses granted for a phase, a day or until a phase are gone by the next day;
                    # the night's pending outs happen at dawn (天亮), before the new day
                    guard = z3.BoolVal(True, w.ctx)
                    new = settled(w, st).set({("status", i, s): z3.BoolVal(False, w.ctx)
                                  for s in temporary_statuses(w.rs) for i in range(w.k) if ("status", i, s) in st.terms} |
                                 {("redir", i): z3.IntVal(i, w.ctx) for i in range(w.k) if ("redir", i) in st.terms} |
                                 {("extra", i, sk): z3.IntVal(0, w.ctx) for sk in w.vocab.extra for i in range(w.k)})
                elif mv.label == "settle":
                    # only when someone is about to go out: a trace shows no move that does nothing
                    guard, new = Or([st[("dying", j)] for j in range(w.k)]), settled(w, st)
                else:
                    guard = w.enabled(st, mv.skill, mv.binding)
                    new = w.run(st, mv.skill, mv.binding)
            except Unbound:
                continue
            results.append((And(sel == idx, guard), new))
            if mv.skill is not None and answers_going_out(mv.skill):
                late.append(results[-1][0])
        merged = {}
        for key, before in st.terms.items():
            term = before
            for g, new in reversed(results):
                after = new.terms[key]
                # unchanged terms are shared objects: `is` first, z3's (slower) eq only if not
                if after is not before and not after.eq(before):
                    term = If(g, after, term)
            merged[key] = term
        # the chosen move must be possible: a trace never shows a move that did nothing;
        # once a faction has won play stops (move -1: no guard holds, the state stays)
        # on a quiet day nothing may happen at all (move -1)
        idle = sel == -1 if self.quiet is not None else z3.BoolVal(False, w.ctx)
        possible = Or([g for g, _ in results] + [idle])
        after_win = Or([sel == -1] + late) if (w.rs.win_check or {}).get("when") == "after_triggers" else sel == -1
        return State(merged), If(game_over(w, st), after_win, possible)

    def step(self, st: State, sel: z3.ArithRef, day: z3.ArithRef | None = None,
             read_as: tuple = (), choices: list | None = None) -> tuple[State, list]:
        """relation() for this state: built once over a state of fresh variables, then
        instantiated per step by substitution (z3 does that much faster than rebuilding
        every effect in Python). Unknown values an effect writes (havoc) are renamed per
        step, so every step still writes values of its own. day: the number of the day the
        step is on, for conditions on the day (第一天…). read_as: (reading variable, option)
        pairs this step is read under; the state it starts from keeps its own readings.
        choices: the unknown values of another copy of this step (the same free choices, such
        as ballots); last_choices holds those of the step just built."""
        if self._template is None:
            # the same moves at the same table are the same relation: built once per world
            # (measured on zemu: about 27 s each, and every unrolling with its own depth or
            # symmetry built it again)
            shared = self.world.__dict__.setdefault("_templates", {})
            held = _table_terms(self.world.sem.table)
            key = (tuple(s.uid for s in self.skills), self.rest, self.quiet, tuple(t.get_id() for t in held))
            if key not in shared:
                made = len(self.world.factory.made)
                pre, sel0 = self.world.state("move"), z3.Int("move_template", self.world.ctx)
                post, possible = self.relation(pre, sel0)
                keys = sorted(pre.terms, key=repr)
                # "it is phase P" ({phase: P}) is the game's phase at this step (phase_now): a
                # value of its own per step, like an unknown value an effect writes
                shared[key] = ((pre, sel0, keys, pack([post[k] for k in keys] + [possible], self.world.sorts),
                                self.world.factory.made[made:] + list(phase_flags(self.world).values())),
                               self.world.sem.reads_day, held)   # held: keeps the ids of the key taken
            self._template, self.reads_day, _ = shared[key]
        pre, sel0, keys, packed, havoc = self._template
        fresh = choices if choices is not None else [z3.FreshConst(h.sort(), prefix="havoc") for h in havoc]
        self.last_choices = fresh
        flags = phase_flags(self.world)
        self.last_flags = dict(zip(flags, fresh[len(fresh) - len(flags):]))
        pairs = [(pre[k], st[k]) for k in keys if pre[k] is not st[k] and not pre[k].eq(st[k])] + [(sel0, sel)] + \
                list(zip(havoc, fresh)) + \
                ([(game_day(self.world), day)] if day is not None and self.reads_day else []) + \
                [(flag, z3.BoolVal(False, self.world.ctx)) for flag in once_phase_flags(self.world)] + \
                [(var, z3.IntVal(option, self.world.ctx)) for var, option in read_as]
        # one simultaneous substitution: a reading variable inside st's terms stays as it is
        got = z3.substitute(packed, *pairs)
        terms = [got.arg(i) for i in range(len(keys) + 1)]
        return State(dict(zip(keys, terms[:-1]))), [terms[-1]]


def _table_terms(table) -> list:
    """A table's terms (z3 shares equal terms: two tables dealt alike have the same ids)."""
    if table is None:
        return []
    return [table.n] + [table.rest[r] for r in sorted(table.rest)] + \
        [v for r in sorted(table.values) for _, v in sorted(table.values[r].items(), key=repr)]


def once_phase_flags(world: World) -> list:
    """The conditions "it is phase P" ({phase: P}, semantics) for the phases that happen once
    at setup: a move of a game comes after setup, so they never hold for it."""
    rs = world.rs
    names = {p.name for p in rs.phases if p.once} | {rs.window_of(p.name) for p in rs.phases if p.once}
    return [z3.Bool(f"phase_is_{n}", world.ctx) for n in sorted(names)]


def phase_flags(world: World) -> dict[str, z3.BoolRef]:
    """The conditions "it is phase P" ({phase: P}, semantics) for the phases and windows that
    come every day, by name."""
    rs = world.rs
    once = {p.name for p in rs.phases if p.once} | {rs.window_of(p.name) for p in rs.phases if p.once}
    names = {p.name for p in rs.phases if not p.once} | {rs.window_of(p.name) for p in rs.phases if not p.once}
    return {n: z3.Bool(f"phase_is_{n}", world.ctx) for n in sorted(names - once)}


def _now_in(rs, now: z3.ArithRef, name: str) -> z3.BoolRef:
    """The place in the day `now` (a rank, -1: nothing ranked yet today) is in the window of
    phase `name` (a phase of a window with several is told apart only by its window)."""
    phase = _phase_rank(rs, [name])
    if phase is None:
        return z3.BoolVal(False, now.ctx)
    return And(now >= 3 * phase, now <= 3 * phase + 2)


def phase_now(trans: "Transitions", sels: list, flags: list[dict]) -> tuple[list, list]:
    """The phase each step of a game is in: that of its own move when the move has one (a
    skill of a phase, a phase's trigger, the vote), else that of the last such move of the
    day (a trigger answering a going out, a skill without a timing); none before the first.
    (constraints tying each step's flags to it, the "now" rank after each step.)"""
    rs = trans.world.rs
    ctx = trans.world.ctx
    day = day_moves(trans)
    by_rank: dict[int, list[int]] = {}
    for i, mv in enumerate(trans.moves):
        if (r := _rank(rs, mv)) is not None:
            by_rank.setdefault(r, []).append(i)
    out, nows, now = [], [], z3.IntVal(-1, ctx)
    for sel, mine in zip(sels, flags):
        rank = z3.IntVal(-1, ctx)
        for r, idxs in sorted(by_rank.items()):
            rank = If(_among(sel, idxs), r, rank)
        here = If(rank == -1, now, rank)
        out += [flag == _now_in(rs, here, name) for name, flag in mine.items()]
        now = If(_among(sel, day), -1, here)
        nows.append(now)
    return out, nows


def phase_named(world: World, m, u: "Unrolled", t: int) -> str | None:
    """The phase a use without a timing of its own is in right after the first t moves of a
    model's game (phase_after), by the name of its window; None before any phase that day."""
    if not t or not u.nows:
        return None
    now = m.eval(u.nows[t - 1], model_completion=True).as_long()
    order = day_windows(world.rs)
    return order[now // 3] if now >= 0 and now // 3 < len(order) else None


def phase_after(world: World, u: "Unrolled", t: int) -> list:
    """The flags "it is phase P" for a use right after the first t moves that has no timing
    of its own (a trigger answering a going out, a skill used at any time): the phase of the
    last ranked move of that day."""
    now = u.nows[t - 1] if t and u.nows else z3.IntVal(-1, world.ctx)
    return [flag == _now_in(world.rs, now, name) for name, flag in phase_flags(world).items()]


def game_day(world: World) -> z3.ArithRef:
    """The day number a condition on the day reads (semantics: {day: …}); each step of a trace
    puts its own day in its place."""
    return z3.Int("game_day", world.ctx)


def faction_goal(world: World, st: State, faction: str, win: dict | None = None) -> z3.BoolRef:
    """The faction wins: its win condition holds with at least one player of it, or an
    effect declared its win. win: one clause of its condition instead of the whole (does
    that clause alone ever let it win? no effect's declaration counts then)."""
    if win is not None:
        return _wins_by(world, st, faction, win)
    sem = world.sem
    key = ("goal", faction, id(st), id(sem.table), sem.memo_readings())
    hit = sem.memo.get(key)
    if hit is not None and hit[0] is st and hit[1] is sem.table:
        return hit[2]
    out = _instance(world, ("goal-template", faction), st, lambda pre: _goal_term(world, pre, faction))
    sem.memo[key] = (st, sem.table, out)
    return out


def _instance(world: World, name: tuple, st: State, build) -> z3.BoolRef:
    """build(state) for st, built once over a state of fresh variables (per table and fixed
    readings) and instantiated by substitution: a win condition counts the whole table, and
    building it again in Python for every state was most of a win-check question's time."""
    sem = world.sem
    key = name + (id(sem.table), sem.memo_readings())
    got = sem.memo.get(key)
    if got is None or got[0] is not sem.table:
        pre = world.state("tpl")
        term = build(pre)
        free = {v.get_id() for v in _free_vars(term)}
        reads = [k for k in sorted(pre.terms, key=repr) if pre[k].get_id() in free]
        got = (sem.table, pre, term, reads)   # the table kept: its id stays its own
        sem.memo[key] = got
    _, pre, term, reads = got
    pairs = [(pre[k], st[k]) for k in reads]
    return z3.substitute(term, *pairs) if pairs else term


def _goal_term(world: World, st: State, faction: str) -> z3.BoolRef:
    f, sem = world.rs.factions[faction], world.sem
    # a faction wins through its players, and not while its own lose condition holds
    # ("未曾达到判负条件"): a faction whose rules say it loses when all are out cannot win dead
    member = Or([st[("faction", i)] == world.sorts.factions[faction] for i in range(world.k)] +
                   [And(g, n > 0) for g, n in world.sem.rest_matching({"faction": faction}, {}, st)])
    lost = sem.cond(f.lose, {}, st) if f.lose else z3.BoolVal(False, world.ctx)
    by_rule = And(sem.cond(f.win, {}, st), member, Not(lost)) if f.win else z3.BoolVal(False, world.ctx)
    return Or(by_rule, st[("win", faction)])


def _wins_by(world: World, st: State, faction: str, win: dict) -> z3.BoolRef:
    f, sem = world.rs.factions[faction], world.sem
    member = Or([st[("faction", i)] == world.sorts.factions[faction] for i in range(world.k)] +
                   [And(g, n > 0) for g, n in sem.rest_matching({"faction": faction}, {}, st)])
    lost = sem.cond(f.lose, {}, st) if f.lose else z3.BoolVal(False, world.ctx)
    return And(sem.cond(win, {}, st), member, Not(lost))


def game_over(world: World, st: State) -> z3.BoolRef:
    """Some faction has won: nothing more happens in this game. A faction that wins together
    with others (shares_win: "游戏结束时…共同胜利") rides on another's end of the game and
    does not end it by itself; an effect declaring its win still does."""
    rs = world.rs
    return Or([faction_goal(world, st, f) if not rs.factions[f].shares_win else st[("win", f)]
                  for f in sorted(rs.factions)] + [z3.BoolVal(False, world.ctx)])


def win_and_lose(world: World, st: State, faction: str) -> z3.BoolRef:
    """The faction's win and lose conditions both hold, it has a player (living or out),
    and nobody has won (its own win does not count while it has lost: faction_goal)."""
    f, sem = world.rs.factions[faction], world.sem
    member = Or([st[("faction", i)] == world.sorts.factions[faction] for i in range(world.k)] +
                   [And(g, n > 0) for g, n in sem.rest_matching({"faction": faction}, {}, st)])
    return And(sem.cond(f.win, {}, st), sem.cond(f.lose, {}, st), member, Not(game_over(world, st)))


def back_from_lost(world: World, before: State, after: State, faction: str) -> z3.BoolRef:
    """A move ends the faction's lose condition: it held before (nobody had won) and not after."""
    f, sem = world.rs.factions[faction], world.sem
    return And(sem.cond(f.lose, {}, before), Not(sem.cond(f.lose, {}, after)), Not(game_over(world, before)))


def both_win(world: World, st: State, a: str, b: str) -> z3.BoolRef:
    return And(faction_goal(world, st, a), faction_goal(world, st, b))


@dataclass
class Trace:
    answer: Answer
    steps: list[str] = field(default_factory=list)
    states: list[dict] = field(default_factory=list)
    used: list[str] = field(default_factory=list)   # uids of the skills the trace uses
    table: tuple | None = None   # (players, {identity: count} outside the slots) when dealt at a table
    quiet: list[str] = field(default_factory=list)   # the identities voted out on the quiet days, in order
    moves: list[dict] = field(default_factory=list)  # the trace's moves, for a replay (move_json)
    quiet_days: list[int] = field(default_factory=list)   # the day of each quiet vote-out
    first_day: int = 1     # the day the moves begin (game_days: idle quiet days are not told)
    deal: dict = field(default_factory=dict)   # the slots as dealt, before setup resolved


def move_json(mv: Move) -> dict:
    """A move as plain data: what an independent interpreter needs to replay it."""
    if mv.skill is not None:
        return {"move": "skill", "skill": mv.skill.uid, "self": mv.binding.self_slot,
                "targets": list(mv.binding.targets), "others": dict(mv.binding.others)}
    if mv.label == "vote":
        return {"move": "vote", "self": mv.binding.self_slot} | ({"pending": True} if mv.pending else {})
    if mv.label == "vote-rest":
        return {"move": "vote-rest", "role": mv.role}
    return {"move": mv.label}


@dataclass
class Unrolled:
    """A dealt game after setup, unrolled depth steps; built once per world and skill set,
    then asked about many goals. Each goal gets a fresh solver over these constraints:
    measured on zemu, that is about 1.7x faster than one incremental session (a fresh
    solver preprocesses the whole formula; an incremental one cannot)."""
    trans: Transitions
    states: list[State]
    sels: list
    constraints: list
    table: Table | None = None   # the rest of the table (None: the slots are the whole table)
    quiet: Transitions | None = None   # the quiet days before states[0] (quiet.py)
    quiet_sels: list = field(default_factory=list)
    days: list = field(default_factory=list)   # the day each state is on (a term)
    choices: list = field(default_factory=list)   # each move's unknown values (Transitions.step)
    nows: list = field(default_factory=list)   # the place in the day after each step (phase_now)
    init: State | None = None   # the slots as dealt, before the one-off phases (after_setup)
    setup_uses: list = field(default_factory=list)   # the SetupUse of the one-off phases


TRACE_BUDGET = 20   # a trace query may use this many times the ruleset's rlimit


def unrolled(world: World, solver: Solver, depth: int, skills: list[Skill], symmetric: bool = True,
             table: bool = True, quiet: int = 0) -> Unrolled:
    """symmetric=False: every deal, for questions that fix what each slot does.
    The game is dealt at a table of the size the setup states (table.py): the slots plus a
    counted rest; goals over it are built inside at_table(world, u.table).
    table=False: the slots are the whole table (a small game; never a witness).
    quiet: up to that many quiet days (quiet.py) come between setup and states[0], where
    these rules allow them."""
    # quiet days need players outside the slots: a table of the size the setup states
    who = quiet_identities(world.rs, world.vocab.rest_roles) if table and quiet and players_range(world.rs) else ()
    quiet = quiet if who else 0
    key = (depth, tuple(s.uid for s in skills), symmetric, table, quiet)
    cache = world.__dict__.setdefault("_unrolled", {})
    if key in cache:
        return cache[key]
    once = setup_skills(world)
    trans = Transitions(world, [s for s in skills if s not in once], rest=table).build()
    trans.day_one = None if quiet else day_one_rank(world.rs)   # a quiet day is a whole day
    init = world.state("init")
    tbl = deal_table(world, init) if table else None
    with at_table(world, tbl):
        made: list = []
        st, setup_cs = after_setup(world, init, once, made)
        cs = world.initial(init) + setup_cs + (symmetry_breaking(world, init) if symmetric else [])
        cs += tbl.constraints if tbl else []
        cs += duties_in_slots(world, tbl, init, once)
        calm = Transitions(world, [], quiet=who).build() if quiet else None
        quiet_sels = []
        for t in range(quiet):
            sel = z3.Int(f"quiet_{t}", world.ctx)
            st, extra = calm.step(st, sel)
            cs += extra
            quiet_sels.append(sel)
        states, sels, choices, flags = [st], [], [], []
        new_day = day_moves(trans)
        days = [z3.IntVal(1 + quiet, world.ctx)]   # the day each state is on (quiet days count)
        for t in range(depth):
            sel = z3.Int(f"move_{t}", world.ctx)
            st, extra = trans.step(st, sel, days[-1])
            choices.append(trans.last_choices)
            flags.append(trans.last_flags)
            cs += extra
            sels.append(sel)
            states.append(st)
            days.append(days[-1] + If(_among(sel, new_day), 1, 0))
        cs += faction_out_timing(trans, sels, states)   # counts the table: inside at_table
        cs += silent_rest(world, tbl, states)   # nobody outside the slots holds a forced trigger that fires
    phased, nows = phase_now(trans, sels, flags)
    cs += phased
    cs += use_limits(trans, sels, states) + going_out_timing(trans, sels, states) + phase_order(trans, sels) + \
        no_repeat(trans, sels) + first_vote_out(trans, sels, quiet_sels) + \
        collected_at_phase_start(trans, sels, states) + forced_in_phase(trans, sels, states) + \
        owed_triggers(trans, sels, states)
    cache[key] = Unrolled(trans, states, sels, cs, tbl, calm, quiet_sels, days, choices, nows, init, made)
    return cache[key]


def _among(sel, idxs: list[int]) -> z3.BoolRef:
    """sel is one of idxs, as a few ranges (a skill's moves are numbered one after another:
    one test per range keeps the terms small)."""
    runs: list[list[int]] = []
    for i in sorted(idxs):
        if runs and i == runs[-1][1] + 1:
            runs[-1][1] = i
        else:
            runs.append([i, i])
    return Or([sel == lo if lo == hi else And(sel >= lo, sel <= hi) for lo, hi in runs] +
              [z3.BoolVal(False, sel.ctx)])


def _daily(mv: Move, extra: frozenset = frozenset()) -> int | None:
    """The count of a use limit per day or per phase on the move's skill (a vote-out: one a
    day). A skill with a timing and no stated limit is used once per phase (a player hands
    in one action per skill when the phase begins), counted per day like per-phase limits
    (fewer witnesses, never an illegal one); extra: the skills some effect grants extra uses
    of (their count is not modelled: no default limit)."""
    if mv.label in ("vote", "vote-rest"):
        return 1
    if mv.skill is not None and _phase_trigger(mv.skill):
        return 1   # a phase starts and ends once a day: its trigger fires once for each holder
    u = (mv.skill.uses or {}) if mv.skill is not None else {}
    if u.get("per") in ("day", "phase") and isinstance(u.get("count"), int):
        return u["count"]
    if mv.skill is not None and not u and mv.skill.timing and not mv.skill.trigger and \
            mv.skill.name not in extra and "$all" not in extra:
        return 1
    return None


def extra_uses(rs) -> frozenset:
    """The names of the skills some effect grants extra uses of that the engine does not count
    (not per day, or of every skill: no default limit for them). Extra uses a day are state,
    ("extra", i, skill), and raise the day's limit (use_limits)."""
    daily = set(daily_extra_uses(rs))
    return frozenset((e.args or {}).get("skill") for e in rs.effects() if e.kind == "extra_use" and isinstance(e.args, dict)
                     and (e.args or {}).get("skill") not in daily)


def _allowance(world: World, st: State, mv: Move) -> z3.ArithRef | int:
    """Extra uses of the move's skill granted today, in st (0 for other skills); a team's
    skill (shared limit) gets the largest grant of any holder."""
    if mv.skill is None or mv.skill.name not in world.vocab.extra:
        return 0
    grants = [st[("extra", i, mv.skill.name)] for i in
              (range(world.k) if (mv.skill.uses or {}).get("shared") else [mv.binding.self_slot])]
    best = grants[0]
    for g in grants[1:]:
        best = If(g > best, g, best)
    return best


def _own_grant(skill: Skill) -> int:
    """The extra uses a day the skill's own effects may grant it."""
    return max([int(e.args.get("count", 1)) for e in skill.all_effects() if e.kind == "extra_use"
                and isinstance(e.args, dict) and e.args.get("skill") == skill.name] + [0])


def use_limits(trans: Transitions, sels: list, states: list) -> list:
    """A skill limited per day or per phase is used at most its count between two "day"
    moves (per phase is counted per day: fewer witnesses, never an illegal one), plus the
    extra uses granted that day before the use; a shared limit counts all holders together;
    one vote-out a day. Per-game limits are state (("spent", i, uid)), checked by each move's guard."""
    groups: dict[tuple, list[int]] = {}
    day = day_moves(trans)
    extra = extra_uses(trans.world.rs)
    for idx, mv in enumerate(trans.moves):
        count = _daily(mv, extra)
        if count is not None and mv.skill is None:
            groups.setdefault(("vote", None, count), []).append(idx)
        elif count is not None:
            who = None if (mv.skill.uses or {}).get("shared") else mv.binding.self_slot
            groups.setdefault((mv.skill.uid, who, count), []).append(idx)
    out = []
    world = trans.world
    for (_, _, count), idxs in sorted(groups.items(), key=repr):
        first = trans.moves[idxs[0]]
        granted = first.skill is not None and first.skill.name in world.vocab.extra
        if count >= len(sels):
            continue   # never more uses than moves: no constraint (extra grants only raise the limit)
        used = z3.IntVal(0, sels[0].ctx)
        for t, sel in enumerate(sels):
            used = If(_among(sel, day), 0, used + If(_among(sel, idxs), 1, 0))
            # the grants made before this move today (the state before it)
            out.append(used <= count + (_allowance(world, states[t], first) if granted else 0))
    return out + cooldowns(trans, sels)


def day_moves(trans: Transitions) -> list[int]:
    """The numbers of the moves that begin a new day."""
    return [i for i, mv in enumerate(trans.moves) if mv.label == "day"]


def _cooled_moves(trans: Transitions) -> dict[tuple, list[int]]:
    """The moves of each skill with a cooldown (冷却N), per holder: (uid, holder, N) -> moves."""
    out: dict[tuple, list[int]] = {}
    for idx, mv in enumerate(trans.moves):
        if mv.skill is not None and mv.skill.cooldown:
            out.setdefault((mv.skill.uid, mv.binding.self_slot, int(mv.skill.cooldown)), []).append(idx)
    return out


def cooldowns(trans: Transitions, sels: list) -> list:
    """A skill with a cooldown of N days (冷却N) used by one holder twice: more than N new days
    between the two uses (an effect that resets or adds to a cooldown is not modelled: fewer
    witnesses, never an illegal one)."""
    out = []
    for (_, _, n), idxs in sorted(_cooled_moves(trans).items(), key=repr):
        for a in range(len(sels)):
            for b in range(a + 1, len(sels)):
                out.append(Implies(And(_among(sels[a], idxs), _among(sels[b], idxs)),
                                      _days_between(trans, sels, a, b) > n))
    return out


def day_one_rank(rs) -> int | None:
    """Where in the day the game begins (begins_with: 游戏从第零夜开始): the start of that
    phase; None when the first day is whole."""
    phase = (rs.begins_with or {}).get("phase")
    return _in_phase(_phase_rank(rs, [phase]), 0) if phase else None


def first_called(rs) -> str | None:
    """The text's name for a first day that begins late (begins_with.called: 第零夜), if it gives one."""
    return (rs.begins_with or {}).get("called") or None


def day_text(day: int, called: str | None = None, phase: str = "") -> str:
    """第 N 天 and its phase. Where the text names the first, partial day (called: 第零夜), that
    day goes by its name and the later ones are counted from 1, as the text counts them (its
    第一天 is the engine's second day)."""
    if called and day == 1:
        return called + (f"（{phase}）" if phase else "")
    return f"第 {day - 1 if called else day} 天{phase}"


def first_out_day(rs) -> int:
    """The first day whose vote can put a player out (voting.first_out_day; 1 by default; 2
    when the game begins after the vote's phase, or with a vote of no stated phase)."""
    first = int((rs.voting or {}).get("first_out_day", 1))
    begins = day_one_rank(rs)
    vote = _in_phase(_phase_rank(rs, [rs.voting["phase"]]), 1) if (rs.voting or {}).get("phase") else None
    return max(first, 2) if begins is not None and (vote is None or vote < begins) else first


def first_vote_out(trans: Transitions, sels: list, quiet_sels: list) -> list:
    """No vote-out before voting.first_out_day: a quiet day is a day (idle or not), and a
    traced move is on day 1 + the quiet days + the "day" moves before it."""
    first = first_out_day(trans.world.rs)
    if first <= 1:
        return []
    out = [sel == -1 for t, sel in enumerate(quiet_sels) if t + 1 < first]
    votes = [i for i, mv in enumerate(trans.moves) if mv.label in ("vote", "vote-rest")]
    day = day_moves(trans)
    for j, sel in enumerate(sels):
        today = 1 + len(quiet_sels) + z3.Sum([If(_among(sels[x], day), 1, 0) for x in range(j)] +
                                             [z3.IntVal(0, sel.ctx)])
        out.append(Implies(_among(sel, votes), today >= first))
    return out


def _days_between(trans: Transitions, sels: list, j: int, t: int) -> z3.ArithRef:
    """How many "day" moves come after move j and before move t."""
    day = day_moves(trans)
    return z3.Sum([If(_among(sels[x], day), 1, 0) for x in range(j + 1, t)] + [z3.IntVal(0, sels[0].ctx)])


def _repeat_groups(trans: Transitions) -> dict[tuple, list[int]]:
    """(skill, user, target) -> the moves that use that skill on that target, for the skills
    that may not take the same target two nights running."""
    groups: dict[tuple, list[int]] = {}
    for idx, mv in enumerate(trans.moves):
        if mv.skill is not None and mv.skill.no_repeat_target:
            for t in mv.binding.targets:
                groups.setdefault((mv.skill.uid, mv.binding.self_slot, t), []).append(idx)
    return groups


def no_repeat(trans: Transitions, sels: list) -> list:
    """no_repeat_target: two uses of the skill by one player on one target have a night
    between them (at least two "day" moves: not the same day, not the next)."""
    out = []
    for _, idxs in sorted(_repeat_groups(trans).items(), key=repr):
        for j in range(len(sels)):
            for t in range(j + 1, len(sels)):
                both = And(_among(sels[j], idxs), _among(sels[t], idxs))
                out.append(Implies(both, _days_between(trans, sels, j, t) >= 2))
    return out


def _may_be_gained(world: World, skill: Skill, st: State) -> bool:
    """Can a player come to hold the skill during play (a gained copy, a label, faction,
    status or item that changes hands, an identity that changes)? A dealt identity's own
    skill cannot."""
    if not skill.owner_role:
        return True
    if any(("gained", i, skill.uid) in st.terms for i in range(world.k)):
        return True
    return any(e.kind == "set_role" for e in world.rs.effects())


def _forced_phase_skills(trans: Transitions) -> list[tuple[Skill, int, list[int]]]:
    """(skill, its place in the day, its moves) for each skill its holder cannot decline: a
    skill with a timing and a tag meaning forced ([强制]), and a trigger on a phase's start
    or end (it fires when the phase begins or ends; an expiry is not skipped)."""
    rs = trans.world.rs
    out = []
    for s in trans.skills:
        if _phase_trigger(s):
            r = _in_phase(_phase_rank(rs, [s.trigger["phase"]]), 0 if s.trigger["event"] == "phase_start" else 2)
        else:
            r = _skill_rank(rs, s)
            if not forced(rs, s) or not changes_state(s):
                r = None   # one that only tells changes nothing: used or not, the same game
        if r is not None:
            out.append((s, r, [i for i, mv in enumerate(trans.moves) if mv.skill is s]))
    return out


def _would_change(world: World, st: State, skill: Skill, b: Binding) -> z3.BoolRef:
    """Firing the trigger in st changes the game (a trigger that changes nothing, such as an
    expiry with nothing to expire, is the same game whether told or not)."""
    try:
        post = world.run(st, skill, b)
    except Unbound:
        return z3.BoolVal(False, world.ctx)
    # a key the skill leaves alone holds the very same term: no C call to compare it
    return Or([post[k] != st[k] for k in sorted(st.terms, key=repr)
                  if k[0] not in ("spent",) + RECORDS and post[k] is not st[k] and not post[k].eq(st[k])] + [z3.BoolVal(False, world.ctx)])


def _declined(trans: Transitions, sels: list, states: list, t: int, skill: Skill, r: int, idxs: list,
              passing: z3.BoolRef) -> list:
    """If the step before state t passes the skill's phase (passing) for the first time that
    day and a holder has not used it that day, the holder could not use it then."""
    world = trans.world
    day = day_moves(trans)
    same_day = [And([Not(_among(sels[x], day)) for x in range(j, t)] + [z3.BoolVal(True, world.ctx)])
                for j in range(t)]
    rank_at = [_rank_of(trans, sels[j]) for j in range(t)]
    passed = Or([And(same_day[j], rank_at[j] > r) for j in range(t)] + [z3.BoolVal(False, world.ctx)])
    out = []
    for i in range(world.k):
        mine = [x for x in idxs if trans.moves[x].binding.self_slot == i]
        if not mine:
            continue
        used = Or([And(same_day[j], _among(sels[j], mine)) for j in range(t)] + [z3.BoolVal(False, world.ctx)])
        able = Or([And(world.enabled(states[t], skill, trans.moves[x].binding),
                             _would_change(world, states[t], skill, trans.moves[x].binding))
                      if skill.trigger else world.enabled(states[t], skill, trans.moves[x].binding) for x in mine])
        if duty_if(world.rs, skill):   # a duty only while its condition holds
            able = And(able, world.sem.cond(duty_if(world.rs, skill), {"self": i}, states[t]))
        out.append(Implies(And(passing, Not(passed), Not(used)), Not(able)))
    return out


def forced_in_phase(trans: Transitions, sels: list, states: list) -> list:
    """A skill its holder cannot decline ([强制], a phase trigger) is used in its phase
    whenever it can be: a day does not pass that phase (a move of a later phase, or the next
    day) while a holder who has not used it that day could (a trigger: and it would change
    something)."""
    day = day_moves(trans)
    out = []
    for skill, r, idxs in _forced_phase_skills(trans):
        for t in range(len(sels)):
            passing = Or(_among(sels[t], day), _rank_of(trans, sels[t]) > r)
            if trans.day_one is not None and r < trans.day_one:   # the first day never has that phase
                passing = And(passing, past_day_one(trans, sels, t))
            out += _declined(trans, sels, states, t, skill, r, idxs, passing)
    return out


def phase_duties_done(trans: Transitions, sels: list, states: list, t: int) -> z3.BoolRef:
    """After the first t moves, every forced skill of the phase the day is in, or of an
    earlier phase of that day, was used if it could be: where a replacement (免于出局…)
    answers, when the outs happen, that phase has been played out."""
    world = trans.world
    if t == 0:
        return z3.BoolVal(True, world.ctx)
    day = day_moves(trans)
    today = [And([Not(_among(sels[x], day)) for x in range(j, t)]) for j in range(t)]
    rank_at = [_rank_of(trans, sels[j]) for j in range(t)]
    parts = []
    for skill, r, idxs in _forced_phase_skills(trans):
        # a move of that phase, or a later one, came today (a phase is its start, actions and end)
        reached = Or([And(today[j], rank_at[j] >= r - r % 3) for j in range(t)])
        parts += _declined(trans, sels, states, t, skill, r, idxs, reached)
    return And(parts + [z3.BoolVal(True, world.ctx)])


def past_day_one(trans: Transitions, sels: list, t: int) -> z3.BoolRef:
    """A "day" move came among the first t moves: move t is not on the game's first day."""
    day = day_moves(trans)
    return Or([_among(sels[x], day) for x in range(t)] + [z3.BoolVal(False, trans.world.ctx)])


def collected_at_phase_start(trans: Transitions, sels: list, states: list) -> list:
    """A judge collects a phase's actions when it begins: a skill used in a phase was held
    by its user before that day's earlier moves of the same phase (a skill gained while the
    phase resolves is first used in a later one). Phase order keeps a day's ranks rising, so
    move j is in move t's phase when some move i <= j of t's day has t's rank."""
    if len(sels) < 2:
        return []
    world, rs = trans.world, trans.world.rs
    day = day_moves(trans)
    groups: dict[tuple, list[int]] = {}
    for i, mv in enumerate(trans.moves):
        if mv.skill is None or mv.skill.trigger or _rank(rs, mv) is None or \
                not _may_be_gained(world, mv.skill, states[0]):
            continue
        groups.setdefault((mv.skill.uid, mv.binding.self_slot), []).append(i)
    if not groups:
        return []
    skill_of = {mv.skill.uid: mv.skill for mv in trans.moves if mv.skill is not None}
    rank_at = [_rank_of(trans, sel) for sel in sels]
    out = []
    for t in range(1, len(sels)):
        for j in range(t):
            in_phase = Or([And([rank_at[i] == rank_at[t]] + [Not(_among(sels[x], day)) for x in range(i + 1, t + 1)])
                              for i in range(j + 1)])
            for (uid, user), idxs in sorted(groups.items(), key=repr):
                out.append(Implies(And(_among(sels[t], idxs), in_phase),
                                      world.holds(states[j], user, skill_of[uid])))
    return out


def window_follows(trans: Transitions, sels: list, t: int, uses: list, states: list | None = None) -> z3.BoolRef:
    """The uses of a window (skill, binding) may come right after the first t moves in the
    same game: since the last "day" move no move belongs to a later phase than the window,
    the window's uses and that day's earlier uses of the same skill stay within its daily
    limit, a skill that may not repeat a target did not take one of theirs on this day or
    the day before, and (given the states) each user held the skill before that day's
    earlier moves of the same window: a judge collects a window's actions when it begins,
    so a skill gained while it resolves is used in a later window."""
    ctx = trans.world.ctx
    rs = trans.world.rs
    window = [Move(skill, b, skill.name) for skill, b in uses]
    ranks = [r for mv in window if (r := _rank(rs, mv)) is not None]
    day = day_moves(trans)
    parts = []
    # moves of this day: those after the last "day" move among the first t
    today = [And([Not(_among(sels[x], day)) for x in range(j, t)]) for j in range(t)]
    if ranks:
        for j in range(t):
            r = _rank_of(trans, sels[j])
            parts.append(Implies(today[j], Or(r == -1, r <= min(ranks))))
        if trans.day_one is not None:   # the first day begins where the text says
            parts.append(Or(past_day_one(trans, sels, t), min(ranks) >= trans.day_one))
    extra = extra_uses(rs)
    for mv in window:
        count = _daily(mv, extra)
        if count is None:
            continue
        shared = bool((mv.skill.uses or {}).get("shared"))
        same = [i for i, m in enumerate(trans.moves) if m.skill is not None and m.skill.uid == mv.skill.uid
                and (shared or m.binding.self_slot == mv.binding.self_slot)]
        in_window = sum(1 for m in window if m.skill.uid == mv.skill.uid and
                        (shared or m.binding.self_slot == mv.binding.self_slot))
        used = z3.Sum([If(And(today[j], _among(sels[j], same)), 1, 0) for j in range(t)] + [z3.IntVal(0, ctx)])
        if mv.skill.name in trans.world.vocab.extra:
            if states is None:
                continue   # the grants made today are not known here: no limit (never too few)
            # the extra uses granted before the window, and those its own uses may grant
            # while it resolves (a second use in one window rests on the first's grant)
            count += _allowance(trans.world, states[t], mv) + (_own_grant(mv.skill) if in_window > 1 else 0)
        parts.append(used + in_window <= count)
    cooled = _cooled_moves(trans)
    for mv in window:
        for (uid, holder, n), idxs in cooled.items():
            if uid == mv.skill.uid and holder == mv.binding.self_slot:
                # the window is on the day of the first t moves: its use cools like a move's
                parts += [Implies(_among(sels[j], idxs), _days_between(trans, sels, j, t) > n) for j in range(t)]
    if states is not None and ranks:
        # the window comes after the phases before it: a forced skill of theirs was used if it could be
        # (the same terms for every window of one game after t moves: built once)
        memo = trans.__dict__.setdefault("_declined_memo", {})
        for skill, r, idxs in _forced_phase_skills(trans):
            if r < min(ranks):
                key = (id(states), id(sels), t, skill.uid, r)
                # on the first day a phase before the one it begins with never comes
                passing = past_day_one(trans, sels, t) if trans.day_one is not None and r < trans.day_one else \
                    z3.BoolVal(True, ctx)
                if key not in memo:
                    memo[key] = (states, sels, _declined(trans, sels, states, t, skill, r, idxs, passing))
                parts += memo[key][2]
    if states is not None:
        world = trans.world
        rank_at = [_rank_of(trans, sels[j]) for j in range(t)]
        for mv in window:
            r = _rank(rs, mv)
            if r is None:
                continue
            for j in range(t):
                # move j is in this window: today, at or after the day's first move of its phase
                in_window = Or([And(today[i], rank_at[i] == r) for i in range(j + 1)])
                parts.append(Implies(in_window, world.holds(states[j], mv.binding.self_slot, mv.skill)))
    groups = _repeat_groups(trans)
    for mv in window:
        for target in (mv.binding.targets if mv.skill.no_repeat_target else ()):
            idxs = groups.get((mv.skill.uid, mv.binding.self_slot, target), [])
            for j in range(t):
                parts.append(Implies(_among(sels[j], idxs), _days_between(trans, sels, j, t) >= 2))
    return And(parts + [z3.BoolVal(True, ctx)])


def _rank_of(trans: Transitions, sel) -> z3.ArithRef:
    """The phase rank of the move sel (-1: a move without one)."""
    by_rank: dict[int, list[int]] = {}
    for i, mv in enumerate(trans.moves):
        if (r := _rank(trans.world.rs, mv)) is not None:
            by_rank.setdefault(r, []).append(i)
    rank = z3.IntVal(-1, sel.ctx)
    for r, idxs in sorted(by_rank.items()):
        rank = If(_among(sel, idxs), r, rank)
    return rank


def _rank(rs, mv: Move) -> int | None:
    """The place in the day of the move's skill, or of a vote-out when the text gives the
    vote its phase (voting.phase); None: other moves."""
    if mv.label in ("vote", "vote-rest") and (rs.voting or {}).get("phase"):
        return _in_phase(_phase_rank(rs, [rs.voting["phase"]]), 1)
    if mv.skill is not None and _phase_trigger(mv.skill):
        # a phase's start comes before its actions, its end after them
        return _in_phase(_phase_rank(rs, [mv.skill.trigger["phase"]]), 0 if mv.skill.trigger["event"] == "phase_start" else 2)
    return _skill_rank(rs, mv.skill) if mv.skill is not None else None


def _in_phase(phase: int | None, moment: int) -> int | None:
    """A place in the day: a phase's start (0), its actions (1), its end (2)."""
    return None if phase is None else 3 * phase + moment


def trigger_follows(trans: Transitions, sels: list, t: int, skill: Skill, b: Binding,
                    states: list | None = None) -> z3.BoolRef:
    """A trigger on a phase's start or end may fire right after the first t moves: it comes in
    the order of the day's phases (window_follows: given the states, a forced skill of an
    earlier phase that day was used if it could be) and has not answered its phase today for
    this holder (a phase begins or ends once a day)."""
    same = [i for i, m in enumerate(trans.moves) if m.skill is not None and m.skill.uid == skill.uid
            and m.binding.self_slot == b.self_slot]
    day = day_moves(trans)
    today = [And([Not(_among(sels[x], day)) for x in range(j, t)]) for j in range(t)]
    again = [And(today[j], _among(sels[j], same)) for j in range(t)]
    return And(window_follows(trans, sels, t, [(skill, b)], states),
                  Not(Or(again + [z3.BoolVal(False, trans.world.ctx)])))


def phase_trigger(skill: Skill) -> bool:
    """A trigger on a phase's start or end (阶段开始/结束时)."""
    return _phase_trigger(skill)


def _phase_trigger(skill: Skill) -> bool:
    """A trigger on a phase's start or end (阶段开始/结束时)."""
    trig = skill.trigger or {}
    return trig.get("event") in ("phase_start", "phase_end") and bool(trig.get("phase"))


def _skill_rank(rs, skill: Skill) -> int | None:
    """Its earliest window, in the order the text gives the phases (None: no timing, e.g. triggers)."""
    if not skill.timing or skill.trigger:
        return None
    return _in_phase(_phase_rank(rs, skill.timing), 1)


def day_windows(rs) -> list[str]:
    """The windows of the phases that come every day, in the order of the day."""
    return list(dict.fromkeys(rs.window_of(p.name) for p in rs.phases if not p.once))


def _phase_rank(rs, phases) -> int | None:
    """The earliest window of the phases in the order of the day (None: only once phases)."""
    order = day_windows(rs)
    ranks = [order.index(rs.window_of(p)) for p in phases if rs.window_of(p) in order]
    return min(ranks) if ranks else None


def phase_order(trans: Transitions, sels: list) -> list:
    """Within a day, skill uses follow the order of their phases (the witch after the
    wolves); a "day" move starts the next day. The first day begins where the text says
    (begins_with, unless quiet days came first)."""
    ranked = [(i, r) for i, mv in enumerate(trans.moves) if (r := _rank(trans.world.rs, mv)) is not None]
    if not sels or (len({r for _, r in ranked}) < 2 or len(sels) < 2) and trans.day_one is None:
        return []
    ctx = sels[0].ctx
    day = day_moves(trans)
    # the first day begins where the text says (begins_with): its earlier phases do not happen
    out, now = [], z3.IntVal(-1 if trans.day_one is None else trans.day_one, ctx)
    by_rank: dict[int, list[int]] = {}
    for i, r in ranked:
        by_rank.setdefault(r, []).append(i)
    for sel in sels:
        rank = z3.IntVal(-1, ctx)
        for r, idxs in sorted(by_rank.items()):
            rank = If(_among(sel, idxs), r, rank)
        out.append(Or(rank == -1, now <= rank))
        now = If(_among(sel, day), -1, If(rank == -1, now, rank))
    return out


def going_out_timing(trans: Transitions, sels: list, states: list) -> list:
    """A trigger answering a player's going out fires right after it: the move before put
    its victim out (or was another such trigger: a chain), and once per going out (a trace
    has one going out per player)."""
    out = []
    groups = _going_out_groups(trans)
    chain = [i for g in groups.values() for i in g]
    for (_, _, victim), idxs in sorted(groups.items(), key=repr):
        for t, sel in enumerate(sels):
            this = _among(sel, idxs)
            if t == 0:
                out.append(Not(this))
                continue
            just = Or(states[t - 1][("alive", victim)], Or([sels[t - 1] == i for i in chain]))
            out.append(Implies(this, just))
        if len(sels) > 1:
            out.append(z3.Sum([If(_among(sel, idxs), 1, 0) for sel in sels]) <= 1)
    return out


def _going_out_groups(trans: Transitions, events=("went_out", "killed")) -> dict[tuple, list[int]]:
    """(skill uid, holder, victim) -> the moves of a trigger answering that player's going out
    (or, with events=("about_to_go_out",), that player's being about to go out)."""
    groups: dict[tuple, list[int]] = {}
    for idx, mv in enumerate(trans.moves):
        trig = (mv.skill.trigger or {}) if mv.skill is not None else {}
        if trig.get("event") not in events:
            continue
        victim = dict(mv.binding.others).get("victim", mv.binding.self_slot)
        groups.setdefault((mv.skill.uid, mv.binding.self_slot, victim), []).append(idx)
    return groups


def owed_triggers(trans: Transitions, sels: list, states: list) -> list:
    """A forced trigger answering a player's going out (强制: a shot, a relic handed on) fires in
    the run of such triggers that follows it: the first later move that is not one comes only
    after each forced trigger on that going out has fired, unless its holder can no longer use
    it there (re-checked at that point) or it would change nothing. A forced one answering a
    player about to go out (a replacement) fires before the outs happen."""
    world = trans.world
    groups = _going_out_groups(trans)
    chain = [i for g in groups.values() for i in g]
    out = []
    for (uid, _, victim), idxs in _forced_groups(trans, groups):
        owed = {s: _owed_at(trans, states[s], idxs) for s in range(1, len(sels))}
        for t in range(len(sels)):
            for s in range(t + 1, len(sels)):
                went, not_fired, run = _unanswered(trans, sels, states, idxs, chain, victim, t, s)
                ends = And(Not(_among(sels[s], chain)), sels[s] != -1)
                out.append(Not(And([went, ends, not_fired, owed[s]] + run)))
    # a replacement (免于出局…) answers a player about to go out before the outs happen (天亮,
    # a settling): a move that puts the pending outs into effect comes only once it fired
    outs = [i for i, mv in enumerate(trans.moves) if mv.label in ("settle", "day")]
    for (uid, _, victim), idxs in _forced_groups(trans, _going_out_groups(trans, ("about_to_go_out",))):
        # a vote-out that puts its player out at once skips what answers a player about to go
        # out: not where such a forced answer would answer this one
        direct = [i for i, mv in enumerate(trans.moves) if mv.label == "vote" and not mv.pending
                  and mv.binding.self_slot == victim]
        for s in range(len(sels)):
            fired = Or([_among(sels[x], idxs) for x in range(s)] + [z3.BoolVal(False, world.ctx)])
            out.append(Not(And(_among(sels[s], outs), states[s][("dying", victim)], Not(fired),
                                     _owed_at(trans, states[s], idxs))))
            if direct and votes_can_pend(trans.skills, world.vocab.ballots):
                out.append(Not(And(_among(sels[s], direct), _owed_at(trans, _voted_pending(world, states[s], victim), idxs))))
    return out


def _unanswered(trans: Transitions, sels: list, states: list, idxs: list[int], chain: list[int],
                victim: int, t: int, s: int) -> tuple:
    """The victim went out at move t, and the moves after it up to move s are a run of
    going-out triggers none of which is one of idxs, in parts: (went out at move t, none of
    idxs fired after it before move s, [each move after it before move s is a going-out
    trigger]). Callers conjoin them in their own order (answers at the budget edge follow
    the terms)."""
    went = And(states[t][("alive", victim)], Not(states[t + 1][("alive", victim)]))
    run = [_among(sels[x], chain) for x in range(t + 1, s)]
    fired = Or([_among(sels[x], idxs) for x in range(t + 1, s)] + [z3.BoolVal(False, trans.world.ctx)])
    return went, Not(fired), run


def owed_pending(trans: Transitions, sels: list, states: list, s: int, use: Move | None = None) -> z3.BoolRef:
    """After the first s moves a forced trigger on a going out is still owed (owed_triggers):
    the state is inside a run of going-out triggers that has not answered it yet. A story
    stopped there leaves out a move the rules make (a lover dying along, in a shot's chain).
    use: the move made next; it answers its own going out."""
    groups = _going_out_groups(trans)
    chain = [i for g in groups.values() for i in g]
    mine = None
    if use is not None and use.skill is not None and use.binding is not None:
        mine = (use.skill.uid, use.binding.self_slot, dict(use.binding.others).get("victim", use.binding.self_slot))
    owed = []
    for key, idxs in _forced_groups(trans, groups):
        if key == mine:
            continue
        for t in range(s):
            went, not_fired, run = _unanswered(trans, sels, states, idxs, chain, key[2], t, s)
            owed.append(And(And([went, not_fired] + run), _owed_at(trans, states[s], idxs)))
    return Or(owed + [z3.BoolVal(False, trans.world.ctx)])


def _voted_pending(world: World, st: State, i: int) -> State:
    """st with player i voted out and about to go out (a pending vote-out)."""
    return st.set({("dying", i): z3.BoolVal(True, world.ctx)} |
                  ({("cause", i): z3.IntVal(cause_index(world.vocab, VOTE_OUT_CAUSES[0]), world.ctx)}
                   if world.vocab.causes else {}) |
                  ({("by", i): z3.IntVal(-1, world.ctx)} if world.vocab.killers else {}))


def _forced_groups(trans: Transitions, groups: dict) -> list:
    """The groups (going_out groups) of a trigger its holder cannot decline."""
    rs = trans.world.rs
    skill_of = {mv.skill.uid: mv.skill for mv in trans.moves if mv.skill is not None}
    return [(key, idxs) for key, idxs in sorted(groups.items(), key=repr)
            if forced(rs, skill_of[key[0]]) and duty_if(rs, skill_of[key[0]]) is None]


def _owed_at(trans: Transitions, st: State, idxs: list[int]) -> z3.BoolRef:
    """One of these trigger moves can be used in st, and it would change something."""
    # asked for the same state again and again (every goal of a reading at that step, every
    # going out before it): built once per state (measured on zemu: half of an ambiguity share)
    memo = trans.__dict__.setdefault("_owed_memo", {})
    key = (id(st), tuple(idxs))
    if key not in memo:
        world = trans.world
        memo[key] = (st, Or([And(world.enabled(st, trans.moves[i].skill, trans.moves[i].binding),
                                       _would_change(world, st, trans.moves[i].skill, trans.moves[i].binding))
                                for i in idxs]))   # st kept: its id stays its own
    return memo[key][1]


def going_out_follows(trans: Transitions, states: list, t: int, skill: Skill, b: Binding,
                      sels: list | None = None) -> z3.BoolRef:
    """A trigger answering a player's going out may be used after the first t moves only right
    after the going out it answers: the last move made it, or (given sels) was another trigger
    answering a going out, a chain, as in a game (going_out_timing). A use a day later answers
    nothing."""
    if t == 0:
        return z3.BoolVal(False, trans.world.ctx)
    victim = dict(b.others).get("victim", b.self_slot)
    if (skill.trigger or {}).get("event") == "about_to_go_out":
        return Not(states[t - 1][("dying", victim)])
    if sels is None:
        return states[t - 1][("alive", victim)]
    chain = [i for g in _going_out_groups(trans).values() for i in g]
    return Or(states[t - 1][("alive", victim)], _among(sels[t - 1], chain))


def faction_out_timing(trans: Transitions, sels: list, states: list) -> list:
    """A trigger on a faction's elimination (全部出局) fires right after the move that left
    the faction with no living player (counted at the table), or after another such trigger
    on the same faction (a chain), and once for each holder in a trace."""
    world = trans.world
    groups: dict[tuple, list[int]] = {}
    for idx, mv in enumerate(trans.moves):
        trig = (mv.skill.trigger or {}) if mv.skill is not None else {}
        if trig.get("event") == "faction_eliminated" and trig.get("faction"):
            groups.setdefault((world.sem.canon(trig["faction"]), mv.skill.uid, mv.binding.self_slot), []).append(idx)
    if not groups:
        return []
    gone = {f: [world.sem.cond({"none": {"alive": True, "faction": f}}, {}, st) for st in states]
            for f in {f for f, _, _ in groups}}
    out = []
    for (f, _, _), idxs in sorted(groups.items(), key=repr):
        chain = [i for (g, _, _), ids in groups.items() if g == f for i in ids]
        for t, sel in enumerate(sels):
            this = _among(sel, idxs)
            if t == 0:
                out.append(Not(this))
                continue
            just = And(gone[f][t], Or(Not(gone[f][t - 1]), _among(sels[t - 1], chain)))
            out.append(Implies(this, just))
        if len(sels) > 1:
            out.append(z3.Sum([If(_among(sel, idxs), 1, 0) for sel in sels]) <= 1)
    return out


def symmetry_breaking(world: World, init: State) -> list:
    """Slots are interchangeable: the encoding treats every slot alike (bindings, goals and
    the deal range over all of them), so renaming the slots of a trace gives a trace. A
    search may then start only from deals whose roles are in slot order: a k! smaller
    space to rule out. With seats (neighbours, a seat next to someone) only mirroring the
    row of slots keeps a game the same (turning does not: the rest of a larger table sits
    between the last slot and the first): the first slot's role is not larger than the last's."""
    sorts, k = world.sorts, world.k
    if k < 2:
        return []
    names = sorted(sorts.roles)

    def rank(i: int):
        term = z3.IntVal(len(names), world.ctx)
        for n in reversed(range(len(names))):
            term = If(init[("role", i)] == sorts.roles[names[n]], n, term)
        return term
    ranks = [rank(i) for i in range(k)]
    if world.vocab.seats:
        return [ranks[0] <= ranks[k - 1]]
    return [ranks[i] <= ranks[i + 1] for i in range(k - 1)]


def bounded_trace(world: World, solver: Solver, goal, depth: int, purpose: str, skills: list[Skill],
                  table: bool = True, quiet: int = 0, pair: bool = False, retry: bool | str = False,
                  budget: int = 0, retry_cap: int = 0) -> Trace:
    """Find a trace of at most depth steps from a dealt game to a state where goal holds
    (at the table the setup states; table=False: in a game of the slots alone), after up
    to `quiet` quiet days where the rules allow them. pair: goal(before, after) is about
    a move, the one that ends the trace. budget: times the rlimit (default TRACE_BUDGET);
    retry_cap: the second start's cap, times the rlimit (default RETRY_CAP). retry="second":
    only the second start (the question joins several that each had their first)."""
    u = unrolled(world, solver, depth, skills, table=table, quiet=quiet)
    states, sels = u.states, u.sels
    if pair:
        first = goal
        goal = _PairGoal(first, states)
    with at_table(world, u.table):
        goals = [goal(s) for s in states]
        if world.sem.reads_day:   # the goal is met on the day of its state
            goals = [And(g, game_day(world) == u.days[t]) for t, g in enumerate(goals)]
        reached = Or(goals)
    query, budget = u.constraints + [reached], solver.rlimit * (budget or TRACE_BUDGET)
    ans = solver.second_start(query, purpose, budget, retry_cap) if retry == "second" else \
        solver.check_retrying(query, purpose, budget, retry_cap) if retry else solver.check(query, purpose, rlimit=budget)
    if not ans.sat:
        return Trace(ans)
    m = ans.model
    decoded = [concrete(m, s, world.sorts) for s in states]
    steps: list[str] = quiet_days_text(m, u)
    quiet_days, first_day = game_days(m, u)
    quiet_roles = [mv.role for _, mv in quiet_days]
    days = {"quiet_days": [d for d, _ in quiet_days], "first_day": first_day,
            "deal": concrete(m, u.init, world.sorts) if u.init is not None else {}}
    used: list[str] = []
    moves: list[dict] = []
    table = composition(m, u.table) if u.table else None
    with at_table(world, u.table):
        if _goal_met(m, goal, states[0]):
            return Trace(ans, steps, decoded[:1], table=table, quiet=quiet_roles, **days)
    for t, text, mv in _told_moves(m, u, len(sels), _VoteNotes(m, u)):
        if text:
            steps.append(text)
        moves.append(move_json(mv))
        if mv.skill is not None:
            used.append(mv.skill.uid)
        with at_table(world, u.table):
            met = _goal_met(m, goal, states[t + 1])
        if met or t == depth - 1:
            decoded = decoded[: t + 2]
            break
    return Trace(ans, steps, decoded, sorted(set(used)), table, quiet_roles, moves, **days)


def game_days(m, u: Unrolled, upto: int | None = None) -> tuple[list[tuple[int, Move]], int]:
    """The quiet vote-outs with their days, and the day the traced moves begin. A quiet day
    without a vote-out changes nothing (no skill, no trigger, no vote), so the days are told
    without them: the vote-outs on consecutive days from voting.first_out_day, the moves from
    the next day, or later when a vote-out among the first upto moves needs it."""
    first_out = first_out_day(u.trans.world.rs)
    idxs = [m.eval(sel, model_completion=True).as_long() for sel in u.quiet_sels]
    if u.trans.reads_day:
        # a condition read the day's number: the days are told as the engine counted them
        return [(d, u.quiet.moves[i]) for d, i in enumerate(idxs, 1) if i >= 0], len(idxs) + 1
    outs, day = [], 0
    for i in idxs:
        if i >= 0:
            day = max(day + 1, first_out)
            outs.append((day, u.quiet.moves[i]))
    start, days_before = day + 1, 0
    for sel in u.sels[:upto]:
        mv = u.trans.moves[m.eval(sel, model_completion=True).as_long()]
        days_before += mv.label == "day"
        if mv.label in ("vote", "vote-rest"):
            start = max(start, first_out - days_before)
    return outs, start


def setup_told(m, u: Unrolled, but: Move | None = None) -> list[str]:
    """The uses the slots made while the one-off phases resolved that changed something (开局时:
    whom the bride chose, a pick the rules then void, a forced trigger that registered a
    character), in the order they resolve, and the setup skills a slot could use and did not
    (a judge asks whether the bride chose anyone); empty when there is nothing to tell. A use
    that changed nothing (a rank already held) is a move of the game, not told. A pinned story
    keeps these uses (pinned.trail_json). but: a use told apart, made once the rest of setup
    resolved (a reading's use at setup): its holder is not said to have left it unused."""
    is_true = lambda term: z3.is_true(m.eval(term, model_completion=True))   # noqa: E731
    rs = u.trans.world.rs
    made, used, could = [], set(), {}
    for use in u.setup_uses:
        s, b = use.skill, use.binding
        if is_true(use.made):
            used.add((s.uid, b.self_slot))
            # an effect whose result lives outside the modelled state (a character registered)
            # may have changed what the model does not show
            outside = any(e.kind in UNMODELLED_KINDS and e.kind != "info" for e in s.all_effects())
            if not s.table_wide and (outside or _changed(m, use.before, use.after)):
                # a pick of any number (选择一半的角色) reaches the rest of the table too, which
                # the model does not follow: the story says it lists only the slots
                rest = s.targets is not None and s.targets.get("max", 0) is None and u.table is not None \
                    and sum(composition(m, u.table)[1].values()) > 0
                made.append(move_text(use.move) + ("（其余玩家中的目标不在此列出）" if rest and use.binding.targets else "")
                            + _created_elsewhere(m, use, u.trans.world))
            elif not s.table_wide and setup_forced(rs, s) and _picks_at_random(s):
                # nothing in the slots changed: the random pick fell on the rest of the table
                # (a judge asks whom the fox's pick chose)
                made.append(move_text(use.move) + f"（随机选中的角色不在 P1～P{u.trans.world.k} 之中）")
        elif not setup_forced(rs, s) and not (s.uses or {}).get("shared") and is_true(use.could):
            # a team's choice (a shared use) is the team's, not this player's to decline
            could.setdefault((s.uid, b.self_slot), s)
    apart = (but.skill.uid, but.binding.self_slot) if but is not None and but.skill is not None else None
    made += [f"P{i + 1} 未使用{s.shown}" for (uid, i), s in could.items() if (uid, i) not in used and (uid, i) != apart]
    return [f"开局时：{'；'.join(made)}"] if made else []


def _created_elsewhere(m, use: SetupUse, world: World) -> str:
    """「（新增的角色 X 不在 P1～Pk 之中）」 for the characters the use brings into play that no
    slot holds afterwards: the cast does not show them, so the story says where they are."""
    made = sorted({(e.args or {}).get("role") for e in use.skill.all_effects()
                   if e.kind == "create" and isinstance(e.args, dict)} - {None})
    roles = world.sorts.roles
    held = lambda r: r in roles and any(   # noqa: E731
        m.eval(use.after[("role", i)], model_completion=True).eq(roles[r]) for i in range(world.k))
    return "".join(f"（新增的角色 {r} 不在 P1～P{world.k} 之中）" for r in made if not held(r))


def _picks_at_random(skill: Skill) -> bool:
    """An effect of the skill that changes the game lands on a player picked at random (随机一名)."""
    return any(e.kind not in UNMODELLED_KINDS and isinstance(e.args, dict)
               and any(isinstance(v, dict) and "random" in v for v in e.args.values()) for e in skill.all_effects())


def _changed(m, before: State, after: State) -> bool:
    """The model gives some value of the game in the two states apart (the count of uses
    made and the engine's records are not something a use changed for a judge)."""
    keys = [k for k, term in after.terms.items()
            if k[0] not in ("spent",) + RECORDS and k in before.terms and term is not before.terms[k]]
    # the values compared, no new term built: terms a story builds shift later answers at
    # the budget edge (measured: a conan096 reading's bounded "no" became "out of budget")
    value = lambda term: m.eval(term, model_completion=True)   # noqa: E731
    return any(not value(after.terms[k]).eq(value(before.terms[k])) for k in keys)


def quiet_days_text(m, u: Unrolled, upto: int | None = None, but: Move | None = None) -> list[str]:
    """The quiet days of a model's game, one line each, and the day the traced moves begin
    (said when a quiet day had a vote-out, or when the moves do not begin on day 1); but: a
    setup use told apart (setup_told)."""
    outs, start = game_days(m, u, upto)
    told = dict(outs)
    setup = setup_told(m, u, but)
    # a day the engine counted (reads_day) passes without a vote-out too: said, not skipped
    days = range(1, start) if u.trans.reads_day else sorted(told)
    called = first_called(u.trans.world.rs)
    out = [f"{day_text(day, called)}：{move_text(told[day])}（此前的夜晚与当天无人发动技能、无人因技能出局）" if day in told
           else f"{day_text(day, called)}：无人出局（此前的夜晚与当天无人发动技能，投票也无人出局）" for day in days]
    first = m.eval(u.sels[0], model_completion=True).as_long() if u.sels and upto != 0 else -1
    # traced moves that begin with the next day tell that day themselves (history_of)
    if (outs or start > 1) and not (first >= 0 and u.trans.moves[first].label == "day"):
        out.append(f"{day_text(start, called)}起：")
    return setup + out


def won_at_setup(world: World, solver: Solver, faction: str) -> Trace:
    """A legal deal at the table where the faction's win holds once setup is over, whatever
    the conditions we cannot encode (opaque: "有阵营宣布胜利时") are."""
    def goal(st):
        won = faction_goal(world, st, faction)
        names = {v.get_id() for v in _free_vars(won)}
        free = [o for o in world.sem.opaque_conditions.values() if o.get_id() in names][:4]
        return And([z3.substitute(won, *[(o, z3.BoolVal(v, world.ctx)) for o, v in zip(free, vals)])
                       for vals in product((False, True), repeat=len(free))])
    return bounded_trace(world, solver, goal, 0, "won-at-setup", [])


def _free_vars(term) -> list:
    """The uninterpreted constants a term reads."""
    seen, out, todo = set(), [], [term]
    while todo:
        t = todo.pop()
        if t.get_id() in seen:
            continue
        seen.add(t.get_id())
        if z3.is_const(t) and t.decl().kind() == z3.Z3_OP_UNINTERPRETED:
            out.append(t)
        todo.extend(t.children())
    return out


def history_of(m, u: Unrolled, upto: int, since: int = 0) -> list[tuple[str, Move]]:
    """The first upto moves of a model's trace (from move `since` on), as (text, move); a new
    day says its number (the moves begin on the day after the quiet days). A move told by no
    text ("") changed nothing a judge rules on (_trigger_told)."""
    # the moves before `since` are told elsewhere; their day's vote note too
    return [(text, mv) for t, text, mv in _told_moves(m, u, upto, _VoteNotes(m, u))
            if text is not None and t >= since]


def history_and_note(m, u: Unrolled, t: int, mv: Move) -> tuple[list[tuple[str, Move]], str]:
    """history_of(m, u, t), and the vote note a move made right after those t moves carries
    when it is told apart from them (a reading's use): "第 N 天投票无人出局" when it comes
    after that day's vote phase, nobody was voted out and no earlier move said so; else ""."""
    votes = _VoteNotes(m, u)
    told = [(text, move) for _, text, move in _told_moves(m, u, t, votes) if text is not None]
    rank = _rank(u.trans.world.rs, mv)
    if rank is None:   # no place of its own: where the day is
        rank = m.eval(u.nows[t - 1], model_completion=True).as_long() if t and u.nows else -1
    return told, votes.after_vote(rank)


def _told_moves(m, u: Unrolled, upto: int, votes: "_VoteNotes"):
    """(t, text, move) for each of the first upto moves of a model's trace, told with the vote
    notes (text None: no move to tell, _move_told); votes keeps the day they reached."""
    day = votes.day = game_days(m, u, upto)[1]
    called = first_called(u.trans.world.rs)
    for t, sel in enumerate(u.sels[:upto]):
        n = m.eval(sel, model_completion=True).as_long()
        if n < 0:
            break   # play stopped (a faction has won)
        mv = u.trans.moves[n]
        day += mv.label == "day"
        yield t, votes.told(t, mv, day, _move_told(m, u, t, mv, day, called)), mv


def _move_told(m, u: Unrolled, t: int, mv: Move, day: int, called: str | None) -> str | None:
    """How move t of a model's trace is told (both history_of and bounded_trace): None when
    it is no move to tell at all (a phase's trigger that changed nothing, nothing to expire),
    "" when it is a move of the game a judge rules nothing on (_trigger_told), else the move
    with who went out, the ballots and what was gained."""
    before, after = u.states[t], u.states[t + 1]
    if _quiet_trigger(m, mv, before, after):
        return None
    told = _trigger_told(m, u.trans.world, mv, before, after)
    if told is not None:
        return move_text(mv, day, called) + told if told else ""
    return move_text(mv, day, called) + outs_text(m, u, before, after, mv) + \
        ballots_text(m, u, mv, after) + gains_text(m, u, before, after, mv)


class _VoteNotes:
    """Says once per day that its vote, which could put someone out, put nobody out (the
    ballots do not show how): where the day passes its vote phase, before the first move
    told after it (a night that follows the vote), else when the next day begins."""

    def __init__(self, m, u: Unrolled):
        rs = u.trans.world.rs
        self.m, self.u, self.rs, self.called = m, u, rs, first_called(rs)
        phase = (rs.voting or {}).get("phase")
        self.vote_rank = _in_phase(_phase_rank(rs, [phase]), 1) if phase else None
        self.voted = self.said = False   # on the day of the moves told so far
        self.day = 1   # the day of the last move told

    def _note(self, day: int) -> str:
        if self.voted or self.said or self.rs.voting is None or day < first_out_day(self.rs):
            return ""
        self.said = True
        return f"{day_text(day, self.called)}投票无人出局"

    def after_vote(self, rank: int) -> str:
        """The note for something at place `rank` of the day of the last move told."""
        return self._note(self.day) if self.vote_rank is not None and rank > self.vote_rank else ""

    def _dawn(self, t: int, day: int) -> str | None:
        """Move t begins day `day` and puts out players whose going out comes from moves made
        before the previous day's vote (these rules play the night first): they went out at
        that day's dawn, before its vote ("第 N 天天亮，P3 出局"); None otherwise."""
        if self.vote_rank is None or not t:
            return None
        if not 0 <= self.m.eval(self.u.nows[t - 1], model_completion=True).as_long() < self.vote_rank:
            return None
        gone = gone_players(self.m, self.u, self.u.states[t], self.u.states[t + 1])
        return f"{day_text(day - 1, self.called)}天亮，{'、'.join(gone)} 出局" if gone else None

    def told(self, t: int, mv: Move, day: int, text: str | None) -> str | None:
        """text (move t's, _move_told) with the note it carries."""
        self.day = day
        if mv.label == "day":
            dawn = self._dawn(t, day) if text else None
            note = self._note(day - 1)
            self.voted = self.said = False
            begins = move_text(mv, day, self.called)
            if dawn:
                # the game ended at that dawn: no vote, no new day
                if z3.is_true(self.m.eval(game_over(self.u.trans.world, self.u.states[t + 1]), model_completion=True)):
                    return dawn
                rest = text.replace(outs_text(self.m, self.u, self.u.states[t], self.u.states[t + 1], mv), "", 1)
                return "；".join([dawn] + ([note] if note else []) + [rest])
            if note and text and text.startswith(begins):
                return f"{begins}（{note}）{text[len(begins):]}"
            return text
        self.voted |= mv.label in ("vote", "vote-rest")
        if text and self.vote_rank is not None and \
                self.m.eval(self.u.nows[t], model_completion=True).as_long() > self.vote_rank:
            note = self._note(day)
            return f"{note}；{text}" if note else text
        return text


def _quiet_trigger(m, mv: Move, before: State, after: State) -> bool:
    """A trigger on a phase's start or end whose firing left every value as it was."""
    if mv.skill is None or not _phase_trigger(mv.skill):
        return False
    same = lambda key: z3.is_true(m.eval(before[key] == after[key], model_completion=True))   # noqa: E731
    return all(same(key) for key in after.terms if key in before.terms)


def _trigger_told(m, world: World, mv: Move, before: State, after: State) -> str | None:
    """How a phase trigger that changed something is told: None as any move; "" (not told,
    kept in the game) when what changed is nothing to a judge (losing a skill never held);
    else the counters it moved, when that is all it did ("（次数 0→1）": "X 触发"
    alone reads as the skill taking effect)."""
    if mv.skill is None or not _phase_trigger(mv.skill):
        return None
    val = lambda term: m.eval(term, model_completion=True)   # noqa: E731
    moved, other = [], False
    for key in sorted(after.terms, key=repr):
        if key not in before.terms or z3.is_true(val(before[key] == after[key])):
            continue
        if key[0] == "counter":
            who = f"P{key[2] + 1} 的" if len(key) > 2 and key[2] != mv.binding.self_slot else ""
            moved.append(f"{who}{key[1]} {val(before[key])}→{val(after[key])}")
        elif key[0] == "lost" and not z3.is_true(val(Or([world.holds(before, key[1], sk) for sk in world.rs.skills
                                                              if sk.name == key[2]] + [z3.BoolVal(False, world.ctx)]))):
            continue   # losing a skill one never held (an expiry with nothing to expire)
        else:
            other = True
    if other:
        return None
    return f"（{'，'.join(moved)}）" if moved else ""


def _option_names(rs, option: list) -> list[tuple[str, str]]:
    """(kind, name) of the roles, skills and statuses an option of a choose names."""
    out: list[tuple[str, str]] = []

    def walk(x, key=None) -> None:
        if isinstance(x, dict):
            for k, v in x.items():
                walk(v, k)
        elif isinstance(x, list):
            for v in x:
                walk(v, key)
        elif isinstance(x, str):
            if key in ("role", "to") and x in rs.roles:
                out.append(("role", x))
            elif key == "skill":
                out.append(("skill", x))
            elif key == "status" and x in rs.statuses:
                out.append(("status", x))
    for e in option:
        if e.kind == "gain_skill" and isinstance(e.args, dict) and isinstance(e.args.get("skill"), str):
            out.append(("gain", e.args["skill"]))
        walk([e.args, e.guard])
        out += [("line", str(n)) for n in e.where.src]
    return list(dict.fromkeys(out))


def option_label(rs, options: list, j: int) -> str:
    """An option told by what only it names: a role, else the skill it gives, a skill, a
    status, else its place among the options and the source line it comes from (第3项（第115行）)."""
    if not 0 <= j < len(options):
        return ""
    named = [set(_option_names(rs, o)) for o in options]
    others = set().union(*(n for i, n in enumerate(named) if i != j))
    own = [n for n in _option_names(rs, options[j]) if n not in others]
    if not own and len(options) > 1:
        # an option told by what it leaves out: the one skill every other option takes away
        kept = set.intersection(*(n for i, n in enumerate(named) if i != j)) - named[j]
        own = [("gain", n) for k, n in sorted(kept) if k == "skill"]
    for kind, shown in (("role", "{}"), ("gain", "获得【{}】"), ("skill", "【{}】"), ("status", "[{}]"),
                        ("line", "第{}行")):
        names = [shown.format(n) for k, n in own if k == kind]
        if names and kind == "line":
            # a line alone does not say which item of an enumerated list: the line's own
            # opening does (the post's numbering, 3：…), else its place
            first = int(names[0][1:-1])
            text = rs.source_lines[first - 1].strip() if 0 < first <= len(rs.source_lines) else ""
            if text:
                return f"“{_opening(text)}”（{names[0]}）"
            return f"第{j + 1}项（{'、'.join(names[:2])}）"
        if names:
            return "、".join(names[:2])
    return ""


OPTION_QUOTE = 16   # at most this many characters of an option's own line name it


def _opening(text: str) -> str:
    """The opening of a line up to its first pause (，；。) or OPTION_QUOTE characters."""
    stops = [i for i, ch in enumerate(text) if ch in "，；。,;" and i >= 4]
    cut = min(stops[0] if stops else len(text), OPTION_QUOTE)
    return text[:cut] + ("…" if text[cut:].strip("，；。,; ") else "")


def choices_text(m, world: World, mv: Move, idle: set | frozenset = frozenset()) -> list[str]:
    """The options a move's choose effects took: “所选：” and what only that option names.
    idle: uids of choose effects whose guard did not hold (no choice was made)."""
    if mv.skill is None or mv.binding is None:
        return []
    decls = None
    out = []
    for e in mv.skill.effects:
        if e.kind != "choose" or not e.options or e.uid in idle:
            continue
        if decls is None:
            exact = {d.name(): d for d in m.decls() if d.name().startswith("choice|")}
            # a use known only without the record of who else acted in its window ($window…):
            # the same choice; never in place of the exact name (a trace's move of the same
            # player is another, unconstrained choice)
            # (only where one choice has that name: several situations asked in one game each
            # have theirs, and the others' are unconstrained)
            stripped: dict[str, list] = {}
            for n, d in exact.items():
                stripped.setdefault(_without_window(n), []).append(d)
            decls = {n: ds[0] for n, ds in stripped.items() if len(ds) == 1} | exact
        for t in (mv.binding.targets if mentions_target(e) and len(mv.binding.targets) > 1 else [None]):
            name = f"choice|{e.uid}|{sorted(mv.binding.as_dict(t).items())}"
            d = decls.get(name, decls.get(_without_window(name)))
            label = option_label(world.rs, e.options, m[d].as_long()) if d is not None else ""
            if label:
                out.append(f"所选：{label}")
    return out


def _without_window(name: str) -> str:
    """A choice's variable name without the window's record of who acted in it ($window…)."""
    import ast
    head, sep, items = name.rpartition("|")
    try:
        kept = [kv for kv in ast.literal_eval(items) if kv[0] not in ("$targeted_by", "$used", "$window")]
    except (ValueError, SyntaxError):
        return name
    return f"{head}{sep}{kept}"


def readings_of(m, world: World, skills, skip: str | None = None) -> list[tuple[str, str]]:
    """(ambiguity, option) a game was played under, for the ambiguities these skills read
    (an option no ruling picked; not skip)."""
    parts = [[s.condition, (s.targets or {}).get("filter")] + [[e.args, e.guard] for e in s.all_effects()] for s in skills]
    out = []
    for amb in world.rs.ambiguities:
        if amb["name"] == skip or not reads_reading(parts, amb["name"]) or world.rs.ruled_option(amb["name"]):
            continue
        v = m.eval(world.sem.reading_var(amb["name"]), model_completion=True)
        options = [o["name"] for o in amb["options"]]
        if z3.is_int_value(v) and 0 <= v.as_long() < len(options):
            out.append((amb["name"], options[v.as_long()]))
    return out


def answers_of_the_gone(m, world: World, u: "Unrolled", upto: int) -> list[Skill]:
    """The triggers answering a going out (免于死亡, a shot) of the identities whose players
    went out or became about to go out in the first upto steps: whether they fired may rest
    on how an ambiguity is read, and a story that shows the death says so."""
    roles = set()
    for t in range(min(upto, len(u.states) - 1)):
        before, after = u.states[t], u.states[t + 1]
        for i in range(world.k):
            gone = Or(And(before[("alive", i)], Not(after[("alive", i)])),
                         And(Not(before[("dying", i)]), after[("dying", i)]))
            if z3.is_true(m.eval(gone, model_completion=True)):
                roles.add(concrete(m, before, world.sorts).get(("role", i)))
    return [s for s in world.rs.skills if s.owner_role in roles and answers_going_out(s)]


def readings_text(m, world: World, skills) -> list[str]:
    """The readings a game was played under, for the ambiguities these skills read: “按「…」理解”."""
    return [f"按「{option}」理解" for _, option in readings_of(m, world, skills)]


def outs_text(m, u: Unrolled, before: State, after: State, mv: Move) -> str:
    """Who the pending outs put out, for a move that makes them happen (a new day's dawn, a
    settling): otherwise a story shows the going out only in a later snapshot."""
    if mv.label not in ("day", "settle"):
        return ""
    gone = gone_players(m, u, before, after)
    if not gone:
        return ""
    return f"（{'、'.join(gone)}）" if mv.label == "settle" else f"（天亮时 {'、'.join(gone)} 出局）"


def gone_players(m, u: Unrolled, before: State, after: State) -> list[str]:
    """The slots alive before and out after, as told (P1…)."""
    return [f"P{i + 1}" for i in range(u.trans.world.k)
            if z3.is_true(m.eval(And(before[("alive", i)], Not(after[("alive", i)])), model_completion=True))]


def gains_text(m, u: Unrolled, before: State, after: State, mv: Move | None = None) -> str:
    """What a move handed out, so a later use of it is explained: the skills players gained
    and the items that changed hands (“P2 获得【X】”)."""
    world = u.trans.world
    skills = {s.uid: s for s in world.rs.skills}
    is_true = lambda x: z3.is_true(m.eval(x, model_completion=True))   # noqa: E731
    told: list[str] = choices_text(m, world, mv, idle_choices(m, u, before, mv)) if mv is not None else []
    for key in after.terms:
        if key[0] == "gained" and key[2] in skills and is_true(after[key]) and not is_true(before[key]):
            told.append(f"P{key[1] + 1} 获得{skills[key[2]].shown}")
        elif key[0] == "item":
            was, now = (m.eval(st[key], model_completion=True).as_long() for st in (before, after))
            if now != was and 0 <= now < world.k:
                told.append(f"P{now + 1} 获得{key[1]}")
    told = without_parts(told)
    return f"（{'；'.join(told)}）" if told else ""


def idle_choices(m, u: Unrolled, before: State, mv: Move) -> set:
    """uids of the move's guarded choose effects whose guard did not hold (no choice was made:
    the story tells only the choices that were)."""
    world = u.trans.world
    if mv.skill is None or mv.binding is None:
        return set()
    with at_table(world, u.table):   # a count in a guard counts the whole table
        guards = choice_guards(world, mv.skill, mv.binding, before)
    return {uid for uid, held in guards.items() if not z3.is_true(m.eval(held, model_completion=True))}


def choice_guards(world: World, skill: Skill, b: Binding, st: State) -> dict:
    """effect uid -> "this guarded choose of the use applies" in st (a story tells only the
    choices that were made)."""
    out = {}
    for e in skill.effects:
        if e.kind == "choose" and e.guard is not None:
            try:
                out[e.uid] = world.sem.cond(e.guard, b.as_dict(), st)
            except Unbound:
                continue
    return out


def ballots_text(m, u: Unrolled, mv: Move, after: State) -> str:
    """For a vote-out in a ruleset that reads ballots (who voted for whom): the ballots cast,
    a weight other than one, the votes a skill added, who cast none. A finding may turn on
    them (nobody voted for the one voted out)."""
    world = u.trans.world
    if mv.label != "vote" or not world.vocab.ballots:
        return ""
    val = lambda x: number(m.eval(x, model_completion=True))   # noqa: E731
    by: dict[int, list[str]] = {}
    none = []
    for v in range(world.k):
        target, weight = val(after[("ballot", v)]), val(after[("votes", v)])
        if target < 0:
            none.append(f"P{v + 1}")
        else:
            by.setdefault(target, []).append(f"P{v + 1}" + (f"（{weight} 票）" if weight != 1 else ""))
    parts = [f"{'、'.join(who)} 投 P{t + 1}" for t, who in sorted(by.items())]
    parts += [f"P{i + 1} 另计 {n} 票" for i in range(world.k) if (n := val(after[("received", i)]))]
    parts += [f"{'、'.join(none)} 未投票"] if none else []
    parts += ["其余玩家未投票"] if u.table is not None and val(u.table.n) > world.k else []
    return f"（{'；'.join(parts)}）"


def move_text(mv: Move, day: int | None = None, called: str | None = None) -> str:
    """A move in words; day: the number of the day the move is on (a "day" move: the day it
    begins); a skill's move then says its day and phase (第 2 天早夜，…); called: the text's
    name for the first day (day_text)."""
    if mv.label == "vote":
        return f"P{mv.binding.self_slot + 1} 被投票出局" + ("（即将出局，待结算）" if mv.pending else "")
    if mv.label == "settle":
        return "结算：即将出局者出局"
    if mv.label == "day":
        return day_text(day, called) + "开始" if day else "新的一天开始"
    if mv.label == "vote-rest":
        return f"其余玩家中的一名{mv.role}被投票出局"
    tgt = "、".join(f"P{x + 1}" for x in mv.binding.targets)
    trig = mv.skill.trigger or {}
    if trig:
        # a trigger is not used: it fires (a phase's: when the phase starts or ends; a phase
        # named for a moment, 白天开始时, is that moment)
        phase, start = trig.get("phase", ""), trig.get("event") == "phase_start"
        moment = phase if phase.endswith("时") and start else f"{phase}{'开始' if start else '结束'}时"
        when = (day_text(day, called, moment) if day else moment) + "，" if _phase_trigger(mv.skill) else ""
        if mv.skill.table_wide:
            # a rule of the whole table (held through a label every card carries), not a player's skill
            return f"{when}{mv.skill.shown}结算（P{mv.binding.self_slot + 1}）" + (f"，目标 {tgt}" if tgt else "")
        return f"{when}P{mv.binding.self_slot + 1} 的{mv.skill.shown}触发" + (f"，目标 {tgt}" if tgt else "")
    timing = list(mv.skill.timing)
    # a skill of many phases: the span of them (which one the move took is not known)
    phases = "/".join(timing) if len(timing) <= 2 else f"{timing[0]}至{timing[-1]}"
    when = day_text(day, called, phases) + "，" if day and timing else ""
    if mv.skill.told:
        # an entry the encoding named: the use in the text's words (plain substitution, nothing run)
        return when + mv.skill.told.replace("{self}", f"P{mv.binding.self_slot + 1}").replace("{targets}", tgt)
    return when + use_text(f"P{mv.binding.self_slot + 1}", mv.skill, mv.skill.shown, tgt)


def use_text(who: str, skill: Skill, shown: str, tgt: str = "") -> str:
    """A player's use of a skill in words: "P1 使用【X】，目标 P2", or "P1 的【X】强制发动，
    目标 P2" when its holder could not decline it (a forced tag, the text's 必须)."""
    used = f"{who} 的{shown}强制发动" if skill.always_forced else f"{who} 使用{shown}"
    return used + (f"，目标 {tgt}" if tgt else "")


class _PairGoal:
    """A goal about a move as a goal about the state after it (states[0]: no move)."""

    def __init__(self, goal, states):
        self.goal, self.prev = goal, {id(b): a for a, b in zip(states, states[1:])}

    def __call__(self, st):
        before = self.prev.get(id(st))
        return self.goal(before, st) if before is not None else z3.BoolVal(False, st[next(iter(st.terms))].ctx)


def _goal_met(m, goal, st) -> bool:
    return z3.is_true(m.eval(goal(st), model_completion=True))


# ---- invariants -----------------------------------------------------------------------------
@dataclass
class Candidate:
    name: str
    text: str
    build: object     # callable(State) -> BoolRef


def candidate_facts(world: World, faction: str, win: dict | None = None) -> list[Candidate]:
    """Small universally quantified facts that could together rule out a win."""
    rs, sorts, k = world.rs, world.sorts, world.k
    out: list[Candidate] = []
    f_const = sorts.factions[faction]
    members = sorted(r.name for r in rs.roles.values() if world.sem.canon(r.faction) == faction)
    out.append(Candidate(f"no-win-flag:{faction}", f"没有效果宣布{faction}获胜", lambda st: Not(st[("win", faction)])))
    out.append(Candidate(f"members:{faction}", f"{faction}的角色只可能是其初始身份（{'、'.join(members) or '无'}）",
                         lambda st: And([Implies(st[("faction", i)] == f_const,
                                                       Or([st[("role", i)] == sorts.roles[r] for r in members] +
                                                             [z3.BoolVal(False, world.ctx)])) for i in range(k)])))
    out.append(Candidate(f"empty:{faction}", f"没有角色属于{faction}",
                         lambda st: And([st[("faction", i)] != f_const for i in range(k)])))
    mentioned = _statuses_in(rs.factions[faction].win if win is None else win, world)
    for role in sorted(rs.roles):
        for s in sorted(mentioned):
            out.append(Candidate(f"never:{role}:{s}", f"{role}永远不会持有[{s}]",
                                 lambda st, r=role, s=s: And([Implies(st[("role", i)] == sorts.roles[r],
                                                                             Not(st[("status", i, s)])) for i in range(k)])))
            out.append(Candidate(f"exists-or-none:{role}:{s}", f"要么场上有{role}，要么无人持有[{s}]",
                                 lambda st, r=role, s=s: Or(Or([st[("role", i)] == sorts.roles[r] for i in range(k)]),
                                                               And([Not(st[("status", i, s)]) for i in range(k)]))))
    return out


def _statuses_in(cond, world: World) -> set[str]:
    found: set[str] = set()

    def walk(x) -> None:
        if isinstance(x, dict):
            for key, v in x.items():
                if key in ("has_status", "lacks_status") and isinstance(v, str):
                    found.add(world.sem.canon(v))
                elif key == "has_status" and isinstance(v, list) and len(v) == 2:
                    found.add(world.sem.canon(v[1]))
                else:
                    walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
    walk(cond)
    return found & set(world.rs.statuses)


def setup_skills(world: World) -> list[Skill]:
    """The skills of the one-off phases, in the order they happen: phase by phase, and in
    a phase its start triggers, the skills used in it, then its end triggers (an end
    trigger sees the statuses the phase's skills granted)."""
    phases = [p.name for p in world.rs.phases]
    once = {p.name for p in world.rs.phases if p.once}
    out = []
    for s in world.rs.skills:
        trig = s.trigger or {}
        if s.timing and set(s.timing) <= once:
            out.append((min(phases.index(p) for p in s.timing), 1, s))
        elif trig.get("event") == "setup":
            out.append((-1, 0, s))
        elif trig.get("phase") in once:
            out.append((phases.index(trig["phase"]), 2 if trig.get("event") == "phase_end" else 0, s))
    return [s for _, _, s in sorted(out, key=lambda x: (x[0], x[1]))]


def setup_choice(world: World, s: Skill, b: Binding) -> z3.BoolRef:
    """Whether the holder used the setup skill this way while setup resolved (after_setup)."""
    return z3.Bool(f"setup_use_{s.uid}_{b.self_slot}_{b.targets}_{b.others}", world.ctx)


def after_setup(world: World, init: State, once_skills: list[Skill], made: list | None = None) -> tuple[State, list]:
    """The state once the one-off phases are over: each holder of a setup skill may use it on
    targets of their choice, within its use limit (once, unless the text gives a count: the
    one-off phase comes once); a holder who can use a setup skill they cannot decline (a
    trigger, a forced skill) uses it. made: given, each possible use is added to it (a
    SetupUse), in the order setup resolves them."""
    after = init
    cs: list = []
    extra = extra_uses(world.rs)
    for s in once_skills:
        limit = _daily(Move(s, None, s.name), extra)
        if limit is None and s.trigger and not s.uses:
            limit = 1    # a setup trigger fires once for each holder
        by_holder: dict[int, list[tuple]] = {}   # holder -> (used this way, bound to be usable) per binding
        duty = duty_if(world.rs, s)
        for b in bindings_for(world, s, range(world.k)):
            try:
                choice = setup_choice(world, s, b)
                en = world.enabled(after, s, b)
                # bound to use it only while the duty's condition holds
                bound = And(en, world.sem.cond(duty, {"self": b.self_slot}, after)) if duty else en
                nxt = world.run(after, s, b)
            except Unbound:
                continue
            g = And(choice, en)
            by_holder.setdefault(b.self_slot, []).append((g, bound))
            if made is not None:
                made.append(SetupUse(s, b, g, en, after, nxt))
            after = State({key: (If(g, nxt.terms[key], term)
                                 if nxt.terms[key] is not term and not nxt.terms[key].eq(term) else term)
                           for key, term in after.terms.items()})
        for uses in by_holder.values():
            if setup_forced(world.rs, s):   # a holder who can use it does
                cs.append(Implies(Or([en for _, en in uses]), Or([g for g, _ in uses])))
            if limit is not None and len(uses) > limit:
                cs.append(z3.Sum([If(g, 1, 0) for g, _ in uses]) <= limit)
    return after, cs


@dataclass
class Proof:
    answer: Answer
    facts: list[Candidate] = field(default_factory=list)     # the facts that rule the win out
    reason: str = ""
    inductive: list[str] = field(default_factory=list)       # names of the whole inductive set


def prove_unreachable(world: World, solver: Solver, faction: str, win: dict | None = None) -> Proof:
    """Houdini over candidate facts (see invariants.py); then ask whether the surviving,
    inductive facts rule out the win."""
    from .invariants import Fact, houdini
    cands = [Fact(c.name, c.text, c.build) for c in candidate_facts(world, faction, win)]
    alive, unknown = houdini(world, solver, cands, "inv")
    if unknown is not None:
        return Proof(unknown, reason="invariant step unknown")
    if not alive:
        return Proof(Answer("unknown"), reason="no inductive facts")
    st = world.state("goal")
    ans = solver.check(world.realizable(st) + [c.build(st) for c in alive] + [faction_goal(world, st, faction, win)],
                       "inv-goal")
    if ans.unsat:
        core = _minimal_facts(world, solver, alive, faction, win)
        return Proof(ans, core, inductive=[c.name for c in alive])
    return Proof(Answer("unknown") if ans.status != "unsat" else ans, alive, reason="facts do not exclude the win")


def _minimal_facts(world: World, solver: Solver, facts: list[Candidate], faction: str,
                   win: dict | None = None) -> list[Candidate]:
    """Drop facts not needed to exclude the win (for a readable proof)."""
    needed = list(facts)
    for c in list(facts):
        trial = [x for x in needed if x is not c]
        st = world.state("min")
        if solver.check(world.realizable(st) + [x.build(st) for x in trial] + [faction_goal(world, st, faction, win)],
                        "inv-min").unsat:
            needed = trial
    return needed


def still_inductive(world: World, solver: Solver, faction: str, names: list[str], changed: list[Skill]) -> bool:
    """Do the facts of an earlier proof survive an edit of the changed skills?"""
    from .invariants import Fact, houdini
    facts = [Fact(c.name, c.text, c.build) for c in candidate_facts(world, faction) if c.name in set(names)]
    if len(facts) != len(set(names)):
        return False
    kept, unknown = houdini(world, solver, facts, "reinv", only=changed)
    if unknown is not None or len(kept) != len(facts):
        return False
    st = world.state("regoal")
    return solver.check(world.realizable(st) + [f.build(st) for f in facts] + [faction_goal(world, st, faction)],
                        "inv-goal").unsat
