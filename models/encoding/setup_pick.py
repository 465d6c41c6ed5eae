"""Random picks made at setup ("开局随机一名…"), decided at the real table for each player
count of the setup's range: can the deal leave nobody to pick?

Two ways to decide, both over the table table.py deals (a group's count at N, each identity
within its card count, cards beyond N undealt):

* direct -- when the pick depends only on what a dealt card says (faction, role, statuses,
  labels; everyone is alive at the deal) and the skill fires for its holder whenever the holder
  is dealt: whether a deal at N has the holder and no candidate is a question of card counts,
  answered exactly by arithmetic (which also gives the deal);
* smt -- otherwise: the dealt game of table.py with the count fixed, the skill enabled with
  some binding, its effect's guard holding, and nobody at the table matching the filter.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import z3

from .connectives import And, Or
from .decode import concrete
from .reach import bindings_for
from .semantics import Unbound
from .table import REST_BASE, RestView, at_table, composition, deal_table, players_range

# filter keys whose value for a player at the deal is fixed by the card dealt
DEAL_KEYS = {"alive", "dead", "other", "faction", "not_faction", "initial_faction", "role", "not_role",
             "has_status", "lacks_status", "label", "not_label", "any"}
INF = float("inf")


@dataclass
class AtCount:
    n: int
    answer: str                                     # "empty" | "never" | "unknown"
    deal: dict[str, int] = field(default_factory=dict)   # identity -> players of a deal with no candidate
    reason: str = ""    # unknown: z3's reason, or "slots" (n is below the model's player slots)
    target: str = ""    # the identity of the skill's target in that deal (smt, a skill with targets)


@dataclass
class SetupPick:
    counts: list[AtCount]
    route: str          # "direct" | "smt"
    checked: str = ""   # how the counts were chosen, when the text does not state them

    def where(self, answer: str) -> list[int]:
        return [c.n for c in self.counts if c.answer == answer]


def setup_pick(world, solver, skill, effect, flt: dict, rlimit: int | None = None) -> SetupPick:
    """For each player count of the setup's range: can the random pick of the effect find
    nobody when the skill resolves at setup? A setup that states no player count: the slots
    are the whole table (the counts checked are said in `checked`)."""
    rng = players_range(world.rs)
    if rng is None:
        got = SmtPick(world, solver, skill, effect, flt, table=False, rlimit=rlimit).at(None)
        return SetupPick([got], "smt", f"原文未给出人数范围，按 {world.k} 名玩家检查")
    lo, hi, assumed = rng
    if not assumed and ((world.rs.setup or {}).get("players") or {}).get("assumed"):
        assumed = f"人数范围 {lo}–{hi} 为编码假设"
    direct = _direct(world, skill, effect, flt)
    smt: SmtPick | None = None
    counts = []
    for n in range(lo, hi + 1):
        got = direct(n) if direct is not None else None
        if got is None:
            smt = smt or SmtPick(world, solver, skill, effect, flt, rlimit=rlimit)
            got = smt.at(n)
        counts.append(got)
    return SetupPick(counts, "direct" if direct is not None else "smt", assumed)


def _at(n: int, ans) -> AtCount:
    if ans.sat:
        return AtCount(n, "empty")
    if ans.unsat:
        return AtCount(n, "never")
    return AtCount(n, "unknown", reason=ans.reason)


# ---- direct: card counts -------------------------------------------------------------------
def _direct(world, skill, effect, flt: dict):
    """A function n -> AtCount (None where it cannot say), or None when the pick is not one
    the cards decide: the holder is a dealt identity whose skill fires on being dealt (no
    target, condition or guard; the pick is its first effect) and the filter reads only what a
    card says."""
    rs = world.rs
    trig = skill.trigger or {}
    if (skill.owner_role not in world.vocab.rest_roles or skill.targets or skill.condition
            or effect.guard is not None or (trig and set(trig) != {"event"}) or not _deal_keys_only(flt)
            or not skill.effects or effect is not skill.effects[0]):   # earlier effects: the solver applies them
        return None
    setup = rs.setup or {}
    if setup.get("deal") or any("of" in d for d in setup.get("distributions") or []):
        return None   # conditions tie the counts together at the deal: the solver reads them
    st = world.state("deal")
    tbl = deal_table(world, st)
    match: dict[str, bool] = {}
    for r in world.vocab.rest_roles:
        got = _matches(world, tbl, st, flt, r, holder=False)
        if got is None:
            return None
        match[r] = got
    holder = _matches(world, tbl, st, flt, skill.owner_role, holder=True)
    if holder is None:
        return None
    groups = _groups(world, tbl, st)
    if groups is None:
        return None
    caps = {r: _cap(rs.roles[r].count) for r in world.vocab.rest_roles}

    def at(n: int) -> AtCount | None:
        sizes = []
        for members, count in groups:
            c = _value_at(count, tbl.n, n)
            if c is None:
                return None
            sizes.append((members, c))
        if holder:
            return AtCount(n, "never")   # the holder is a candidate itself
        return _deal_without(skill.owner_role, sizes, caps, match, n, sorted(world.vocab.rest_roles))
    return at


def _deal_keys_only(flt) -> bool:
    if not isinstance(flt, dict):
        return False
    for key, val in flt.items():
        if key not in DEAL_KEYS:
            return False
        if key == "any" and not all(_deal_keys_only(sub) for sub in val):
            return False
    return True


def _matches(world, tbl, st, flt: dict, role: str, holder: bool) -> bool | None:
    """Does a player dealt the role match the filter (the holder: as the skill's self)?
    None when that is not fixed by the card."""
    view = RestView(st, tbl.values[role], REST_BASE)
    b = {"self": REST_BASE if holder else 0}
    with at_table(world, tbl):
        got = z3.simplify(world.sem.filter(flt, REST_BASE, b, view))
    return True if z3.is_true(got) else False if z3.is_false(got) else None


def _groups(world, tbl, st) -> list[tuple[list[str], object]] | None:
    """The setup's groups as table.py deals them: (members, card count term); the roles of
    no group form a group of their own (no count) only when the setup lists none. None when
    two groups share an identity (then only the solver can deal)."""
    rs = world.rs
    dealable = set(world.vocab.rest_roles)
    out, seen = [], set()
    with at_table(world, tbl):
        for g in (rs.setup or {}).get("groups") or []:
            members = [r for r in (g.get("roles") or ([g["name"]] if g["name"] in rs.roles else [])) if r in dealable]
            if not members or "count" not in g:
                continue
            if seen & set(members):
                return None
            seen.update(members)
            out.append((members, world.sem.num(g["count"], {}, st)))
    if not out:
        out.append((sorted(dealable), None))
    return out


def _cap(count) -> float:
    return count if isinstance(count, int) and not isinstance(count, bool) else INF


def _value_at(term, n_term, n: int) -> int | None:
    if term is None:
        return n   # no groups: any n cards
    v = z3.simplify(z3.substitute(term, (n_term, z3.IntVal(n, n_term.ctx))))
    if z3.is_int_value(v):
        return v.as_long()
    if z3.is_rational_value(v) and v.as_fraction().denominator == 1:
        return int(v.as_fraction())
    return None


def _deal_without(holder: str, sizes: list, caps: dict, match: dict, n: int, roles: list[str]) -> AtCount:
    """Is there a deal of n players, the holder among them, in which nobody matches? Each
    group's cards sum to its count (within the card counts); players are dealt from the cards,
    at most one per card. A deal without candidates deals only non-candidate cards: a group
    gives at most min(count, their cards) of them; it exists iff those add up to n and the
    holder's group deals at least one card."""
    if any(c < 0 or c > sum(caps[r] for r in members) for members, c in sizes) or sum(c for _, c in sizes) < n:
        return AtCount(n, "never", reason="no deal")          # no legal deal at n at all
    held = [(members, c) for members, c in sizes if holder in members]
    if not held or held[0][1] < 1 or caps[holder] < 1:
        return AtCount(n, "never", reason="holder not dealt")
    deal: dict[str, int] = {holder: 1}
    for members, c in sizes:
        room = min(c, n) - (1 if holder in members else 0)
        for r in sorted(members, key=lambda r: (r != holder, roles.index(r))):
            if match[r] or room <= 0:
                continue
            take = min(room, caps[r] - deal.get(r, 0))
            if take > 0:
                deal[r] = deal.get(r, 0) + take
                room -= take
    total = sum(deal.values())
    if total < n:
        return AtCount(n, "never")
    for r in sorted(deal, key=lambda r: (r == holder, -roles.index(r))):   # undeal the surplus
        drop = min(total - n, deal[r] - (1 if r == holder else 0))
        deal[r] -= drop
        total -= drop
    return AtCount(n, "empty", {r: c for r, c in sorted(deal.items()) if c})


# ---- smt: the dealt game at the table -------------------------------------------------------
class SmtPick:
    """The dealt game (table.py; without a stated range the slots alone), built once per pick:
    some binding of the skill resolves the effect (its guard holding, the skill's earlier
    effects applied) while nobody at the table matches the filter. at(n) fixes the count."""

    def __init__(self, world, solver, skill, effect, flt: dict, table: bool = True, rlimit: int | None = None):
        self.world, self.solver, self.rlimit = world, solver, rlimit
        st = self.st = world.state("pick")
        tbl = self.tbl = deal_table(world, st) if table else None
        self.goals: list[tuple[object, z3.BoolRef]] = []   # (binding, it resolves with nobody to pick)
        with at_table(world, tbl):
            self.base = world.initial(st) + (tbl.constraints if tbl else [])
            for b in bindings_for(world, skill, [0]):
                bd = b.as_dict()
                try:
                    pre, parts = st, [world.enabled(st, skill, b)]
                    if effect in skill.effects:
                        for e in skill.effects[:skill.effects.index(effect)]:
                            pre = world.sem.apply(e, pre, bd)
                    if effect.guard is not None:
                        parts.append(world.sem.cond(effect.guard, bd, pre))
                    parts.append(world.sem.cond({"none": flt}, bd, pre))
                except Unbound:
                    continue
                self.goals.append((b, And(parts)))

    def at(self, n: int | None) -> AtCount:
        if not self.goals:
            return AtCount(n or self.world.k, "never")
        if self.tbl is not None and n is not None and n < self.world.k:
            return AtCount(n, "unknown", reason="slots")   # the table cannot seat the model's slots
        fix = [self.tbl.n == n] if self.tbl is not None and n is not None else []
        ans = self.solver.check(self.base + fix + [Or([g for _, g in self.goals])], "setup-pick", rlimit=self.rlimit)
        got = _at(n or self.world.k, ans)
        if ans.sat:
            m = ans.model
            values = concrete(m, self.st, self.world.sorts)
            b = next(b for b, g in self.goals if z3.is_true(m.eval(g, model_completion=True)))
            got.deal = _deal_of(self.world, m, values, self.tbl)
            got.target = values[("role", b.targets[0])] if b.targets else ""
        return got


def _deal_of(world, model, values: dict, tbl) -> dict[str, int]:
    deal: dict[str, int] = {}
    for i in range(world.k):
        r = values[("role", i)]
        deal[r] = deal.get(r, 0) + 1
    if tbl is not None:
        for r, c in composition(model, tbl)[1].items():
            deal[r] = deal.get(r, 0) + c
    return dict(sorted(deal.items()))
