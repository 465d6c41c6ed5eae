"""z3 sorts and the symbolic game state over k player slots.

This package is the only code that imports z3. A state is an immutable mapping from
variable keys to z3 terms; effects return new states that share unchanged terms.
Keys: ("faction", i) ("role", i) ("alive", i) ("dying", i) ("status", i, S) ("label", i, L)
("lost", i, skill) ("counter", C) / ("counter", C, i) ("item", I) ("win", F) ("lose", F)
("votes", i); ("dealt", i) the identity dealt at the start when identities can change; when the ruleset speaks of ballots: ("ballot", i) (whom i voted for, -1 none)
and ("received", i) (extra votes i receives).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator

import z3

from ..domain import Ruleset
from ..resolve import causes_of
from ..schema import VOTE_OUT_CAUSES

Key = tuple
BALLOT_WORDS = {"voted_for", "voted_by", "top_voted", "votes_for", "received_votes", "tie_out"}
SEAT_WORDS = {"neighbour_of", "next_to"}


def _changes_role(e) -> bool:
    if e.kind == "set_role":
        return True
    writes = (e.args or {}).get("writes") if e.kind == "opaque" and isinstance(e.args, dict) else None
    return any(str(w).split(":")[0] == "role" for w in writes or [])


def _mentions(x, words: set[str]) -> bool:
    if isinstance(x, dict):
        return any(k in words or _mentions(v, words) for k, v in x.items())
    if isinstance(x, list):
        return any(_mentions(v, words) for v in x)
    return False


def reads_seats(skill) -> bool:
    """The skill's targets, condition or effects speak of seats (neighbours)."""
    parts = [skill.targets, skill.condition] + [[e.args, e.guard] for e in skill.all_effects()]
    return _mentions(parts, SEAT_WORDS)


@dataclass
class Sorts:
    ctx: z3.Context
    faction: z3.DatatypeSortRef
    factions: dict[str, z3.ExprRef]
    role: z3.DatatypeSortRef
    roles: dict[str, z3.ExprRef]

    def faction_name(self, term: z3.ExprRef) -> str:
        for name, const in self.factions.items():
            if z3.eq(const, term):
                return name
        return str(term)

    def role_name(self, term: z3.ExprRef) -> str:
        for name, const in self.roles.items():
            if z3.eq(const, term):
                return name
        return str(term)


def make_sorts(rs: Ruleset, ctx: z3.Context) -> Sorts:
    fnames = sorted(rs.factions)
    fsort, fconsts = z3.EnumSort("Faction", [f"F{i}" for i in range(len(fnames))], ctx=ctx)
    rnames = sorted(rs.roles) or ["_none"]
    rsort, rconsts = z3.EnumSort("Role", [f"R{i}" for i in range(len(rnames))], ctx=ctx)
    return Sorts(ctx, fsort, dict(zip(fnames, fconsts)), rsort, dict(zip(rnames, rconsts)))


# effects that move later targeting elsewhere. `redirect` (所有以…为目标的技能视为指向…) is not
# modelled: landing every targeted effect on every slot made conan096's game questions run out
# of budget (one confirmation: witnessed in 26 s without it, budget spent with it)
REDIRECT_KINDS = ("swap",)


@dataclass
class Vocabulary:
    """Which variables exist for this ruleset (sorted for determinism)."""
    k: int
    statuses: list[str]
    labels: list[str]
    skills: list[str]
    global_counters: list[str]
    player_counters: list[str]
    items: list[str]
    factions: list[str]
    gained: list[str]
    ballots: bool = False    # the text reads who voted for whom
    dealt: bool = False      # identities can change: the dealt one is kept ("dealt", i)
    seats: bool = False      # the text reads seats (a ring in slot order): slots are not interchangeable
    # skills with a per-game use limit, (uid, count): ("spent", i, uid) counts slot i's uses
    limited: list = field(default_factory=list)
    # identities a player outside the slots may hold: ("rest", r) counts those still alive
    # (constrained in game questions only, see table.py)
    rest_roles: list = field(default_factory=list)
    # going-out causes, tracked per slot (("cause", i): 0 none, else 1 + index) when a
    # condition or trigger reads the cause of someone's going out
    causes: list = field(default_factory=list)
    # a swap exists: ("redir", i) is where targeting of slot i lands (i: nowhere else)
    redirects: bool = False
    # a vote weight the text gives as a fraction (神眷者的投票计为1.5票): votes are rational
    fractional_votes: bool = False
    # a going-out trigger reads who caused it (its killer): ("by", i) is the slot whose
    # move put slot i out or about to go out (-1 nobody, or a vote)
    killers: bool = False
    # skills an effect grants extra uses a day (extra_use): ("extra", i, name) is the extra
    # uses slot i has been granted today (reset when a day begins)
    extra: list = field(default_factory=list)

    @staticmethod
    def of(rs: Ruleset, k: int) -> "Vocabulary":
        gc = sorted(c.name for c in rs.counters.values() if c.scope != "per_player")
        pc = sorted(c.name for c in rs.counters.values() if c.scope == "per_player")
        gained = sorted({uid for s in rs.skills for e in s.all_effects() if e.kind == "gain_skill"
                         for uid in rs.granted_by(e)[0]})
        return Vocabulary(k, sorted(rs.statuses), sorted(rs.labels), sorted({s.name for s in rs.skills}), gc, pc,
                          sorted(rs.items), sorted(rs.factions), gained, _mentions(rs.raw, BALLOT_WORDS),
                          any(_changes_role(e) for e in rs.effects()), _mentions(rs.raw, SEAT_WORDS),
                          per_game_limits(rs), dealable_roles(rs), tracked_causes(rs),
                          any(e.kind in REDIRECT_KINDS for e in rs.effects()), fractional_votes(rs),
                          reads_killer(rs), daily_extra_uses(rs))


GOING_OUT_EVENTS = ("went_out", "killed", "about_to_go_out")

# values the engine keeps to decide later questions (why and by whom a player went out, where
# targeting lands, extra uses granted today), not outcomes a judge rules on
RECORDS = ("cause", "redir", "by", "extra")


def daily_extra_uses(rs: Ruleset) -> list[str]:
    """The skills an effect grants extra uses a day of (每天仅一次，可再次发动) whose daily limit is
    the default one (once a phase). A skill with a stated daily count keeps that count: its
    extra uses are not counted (fewer witnesses, never an illegal one; counting them made every
    game question of zemu larger and lost a witness at its budget)."""
    stated = {s.name for s in rs.skills if (s.uses or {}).get("per") in ("day", "phase")
              and isinstance((s.uses or {}).get("count"), int)}
    return sorted({e.args["skill"] for e in rs.effects() if e.kind == "extra_use" and isinstance(e.args, dict)
                   and e.args.get("per", "day") == "day" and e.args.get("skill") not in (None, "$all", *stated)})


def _names_source(x) -> bool:
    if isinstance(x, str):
        return x.lstrip("$") in ("source", "killer")
    if isinstance(x, dict):
        return any(_names_source(v) for v in x.values())
    return isinstance(x, list) and any(_names_source(v) for v in x)


def reads_killer(rs: Ruleset) -> bool:
    """A trigger on a going out reads who caused it (its `source`)."""
    return any((s.trigger or {}).get("event") in GOING_OUT_EVENTS and
               (_names_source(s.condition) or any(_names_source([e.args, e.guard]) for e in s.all_effects()))
               for s in rs.skills)


def _has_fraction(x) -> bool:
    if isinstance(x, float):
        return not x.is_integer()
    if isinstance(x, dict):
        return any(_has_fraction(v) for v in x.values())
    return isinstance(x, list) and any(_has_fraction(v) for v in x)


def fractional_votes(rs: Ruleset) -> bool:
    """Some vote weight or extra vote is a fraction: votes are counted as rationals, not rounded."""
    return any(e.kind in ("vote_weight", "received_votes") and _has_fraction(e.args) for e in rs.effects())


def _reads_cause(x) -> bool:
    if isinstance(x, dict):
        if set(x) == {"cause"} or (x.get("cause") not in (None, "any") and "event" in x):
            return True
        return any(_reads_cause(v) for v in x.values())
    return isinstance(x, list) and any(_reads_cause(v) for v in x)


def tracked_causes(rs: Ruleset) -> list[str]:
    """The going-out causes, when a condition ({cause: X}) or a trigger reads one."""
    if not any(_reads_cause(s.trigger) or _reads_cause(s.condition) or
               any(_reads_cause(e.guard) or _reads_cause(e.args) for e in s.all_effects()) for s in rs.skills):
        return []
    return sorted(causes_of(rs))


def cause_index(vocab: "Vocabulary", cause: str) -> int:
    """The tracked value of a cause (the vote-out causes are one)."""
    if cause in VOTE_OUT_CAUSES:
        cause = VOTE_OUT_CAUSES[0]
    return vocab.causes.index(cause) + 1 if cause in vocab.causes else 0


def dealable_roles(rs: Ruleset) -> list[str]:
    """Identities a deal can give out: not created in play, not with zero cards."""
    return sorted(r for r, role in rs.roles.items() if not role.created and role.count != 0)


def per_game_limits(rs: Ruleset) -> list[tuple[str, int]]:
    """Skills whose uses per game the text limits, as (uid, count). A skill that some
    effect grants extra uses of is left unlimited (extra uses are not modelled);
    refreshing a skill resets its count (semantics: refresh_skill)."""
    extra = {(e.args or {}).get("skill") for e in rs.effects() if e.kind == "extra_use" and isinstance(e.args, dict)}
    out = []
    for s in rs.skills:
        u = s.uses or {}
        if u.get("per") == "game" and isinstance(u.get("count"), int) and s.name not in extra and "$all" not in extra:
            out.append((s.uid, int(u["count"])))
    return sorted(out)


@dataclass(frozen=True)
class State:
    terms: dict
    fresh: int = 0

    def __getitem__(self, key: Key) -> z3.ExprRef:
        return self.terms[key]

    def get(self, key: Key, default=None):
        return self.terms.get(key, default)

    def set(self, updates: dict) -> "State":
        if not updates:
            return self
        merged = dict(self.terms)
        merged.update(updates)
        return State(merged, self.fresh)

    def keys(self) -> Iterator[Key]:
        return iter(sorted(self.terms, key=repr))


@dataclass
class StateFactory:
    sorts: Sorts
    vocab: Vocabulary
    counter: int = 0
    havoc_count: int = field(default=0)
    made: list = field(default_factory=list)   # every havoc value, in order (renamed per trace step)

    def fresh_state(self, prefix: str) -> State:
        ctx, v = self.sorts.ctx, self.vocab
        t: dict = {}
        for i in range(v.k):
            t[("role", i)] = z3.Const(f"{prefix}_role_{i}", self.sorts.role)
            if v.dealt:
                t[("dealt", i)] = z3.Const(f"{prefix}_dealt_{i}", self.sorts.role)
            t[("faction", i)] = z3.Const(f"{prefix}_faction_{i}", self.sorts.faction)
            t[("alive", i)] = z3.Bool(f"{prefix}_alive_{i}", ctx)
            t[("dying", i)] = z3.Bool(f"{prefix}_dying_{i}", ctx)
            if v.causes:
                t[("cause", i)] = z3.Int(f"{prefix}_cause_{i}", ctx)
            if v.redirects:
                t[("redir", i)] = z3.Int(f"{prefix}_redir_{i}", ctx)
            if v.killers:
                t[("by", i)] = z3.Int(f"{prefix}_by_{i}", ctx)
            number = z3.Real if v.fractional_votes else z3.Int
            t[("votes", i)] = number(f"{prefix}_votes_{i}", ctx)
            if v.ballots:
                t[("ballot", i)] = z3.Int(f"{prefix}_ballot_{i}", ctx)
                t[("received", i)] = number(f"{prefix}_received_{i}", ctx)
            for s in v.statuses:
                t[("status", i, s)] = z3.Bool(f"{prefix}_st_{i}_{s}", ctx)
            for lab in v.labels:
                t[("label", i, lab)] = z3.Bool(f"{prefix}_lb_{i}_{lab}", ctx)
            for sk in v.skills:
                t[("lost", i, sk)] = z3.Bool(f"{prefix}_lost_{i}_{sk}", ctx)
            for sk in v.gained:
                t[("gained", i, sk)] = z3.Bool(f"{prefix}_gained_{i}_{sk}", ctx)
            for c in v.player_counters:
                t[("counter", c, i)] = z3.Int(f"{prefix}_ct_{c}_{i}", ctx)
            for uid, _ in v.limited:
                t[("spent", i, uid)] = z3.Int(f"{prefix}_spent_{i}_{uid}", ctx)
            for sk in v.extra:
                t[("extra", i, sk)] = z3.Int(f"{prefix}_extra_{i}_{sk}", ctx)
        for c in v.global_counters:
            t[("counter", c)] = z3.Int(f"{prefix}_ct_{c}", ctx)
        for r in v.rest_roles:
            t[("rest", r)] = z3.Int(f"{prefix}_rest_{r}", ctx)
        for it in v.items:
            t[("item", it)] = z3.Int(f"{prefix}_item_{it}", ctx)
        for f in v.factions:
            t[("win", f)] = z3.Bool(f"{prefix}_win_{f}", ctx)
            t[("lose", f)] = z3.Bool(f"{prefix}_lose_{f}", ctx)
        return State(t)

    def havoc(self, key: Key, like: z3.ExprRef) -> z3.ExprRef:
        """A fresh unknown value for a variable an opaque effect writes."""
        self.havoc_count += 1
        made = z3.FreshConst(like.sort(), prefix=f"havoc_{key[0]}")
        self.made.append(made)
        return made
