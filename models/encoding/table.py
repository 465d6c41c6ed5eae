"""The whole table in a game question: the k player slots of the encoding plus the rest of
a table of N players, counted per identity.

N lies in the player range the setup states; the identities dealt follow its groups (a
group's count at N, each identity within its card count; cards beyond N stay undealt). The
players outside the slots keep what they were dealt (alive, initial faction, statuses and
labels), never act and are never acted on: a legal way for them to spend the game, unless a
skill forces them to act. Every count the rules make (存活人数, "all X are out", a faction's
members, the number of players) counts them too, so a condition on the table holds only
where it holds at the real size.
"""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field

import z3

from .connectives import And, If, Or
from .sorts import State

# a setup that leaves the top of the player range open is tried up to this many above its minimum
OPEN_RANGE = 5


@dataclass
class Table:
    n: z3.ArithRef                          # players at the table
    rest: dict[str, z3.ArithRef]            # identity -> players holding it outside the slots
    constraints: list = field(default_factory=list)
    values: dict = field(default_factory=dict)   # identity -> that rest player's state values
    assumed: str = ""                       # how the player range was chosen, when the text leaves it open

    def views(self, st: State) -> list[tuple[z3.ArithRef, "RestView"]]:
        """(how many, what one of them looks like) for each identity outside the slots, the
        living and the voted-out apart (st[("rest", r)] counts the living)."""
        out = []
        for index, r in enumerate(sorted(self.rest)):
            alive = st[("rest", r)]
            out.append((alive, RestView(st, self.values[r], REST_BASE + 2 * index)))
            dead = dict(self.values[r])
            dead[("alive", 0)] = z3.BoolVal(False, alive.ctx)
            out.append((self.rest[r] - alive, RestView(st, dead, REST_BASE + 2 * index + 1)))
        return out


    def all_out(self, st: State) -> z3.BoolRef:
        """No player outside the slots is alive (their seats are skipped as empty)."""
        # in name order: the terms, and so the solver's search, are the same on every run
        return z3.Sum([st[("rest", r)] for r in sorted(self.rest)] + [z3.IntVal(0, self.n.ctx)]) == 0


REST_BASE = 1000   # a rest player's index: beyond every slot


class RestView:
    """A state as seen at one rest player: that player's values are the constants they were
    dealt; everything global (counters, items, wins) is the state's."""

    def __init__(self, st: State, values: dict, index: int):
        self.st, self.values, self.index = st, values, index
        self.terms = st.terms

    def _mine(self, key) -> bool:
        if key[0] == "counter":
            return len(key) == 3 and key[2] == self.index
        return len(key) >= 2 and key[1] == self.index

    def __getitem__(self, key):
        if self._mine(key):
            return self.values[_slot0(key)]
        return self.st[key]

    def get(self, key, default=None):
        if self._mine(key):
            return self.values.get(_slot0(key), default)
        return self.st.get(key, default)


def _slot0(key) -> tuple:
    """The key at slot 0: a rest player's values are stored under slot-0 keys."""
    if key[0] == "counter":
        return key[:2] + (0,)
    return (key[0], 0) + tuple(key[2:])


def players_range(rs) -> tuple[int, int, str] | None:
    players = (rs.setup or {}).get("players") or {}
    lo, hi = players.get("min"), players.get("max")
    if lo is None:
        return None
    if hi is None:
        return int(lo), int(lo) + OPEN_RANGE, f"原文未给出人数上限，按 {lo}–{int(lo) + OPEN_RANGE} 人检查"
    return int(lo), int(hi), ""


def deal_table(world, init: State) -> Table | None:
    """The table around the slots of the dealt state init; None when the ruleset states no
    player count (the slots are then the whole table, as before)."""
    rs, sem, ctx = world.rs, world.sem, world.ctx
    rng = players_range(rs)
    if rng is None:
        return None
    lo, hi, assumed = rng
    n = z3.Int("table|players", ctx)
    dealable = world.vocab.rest_roles
    cards = {r: z3.Int(f"table|cards|{r}", ctx) for r in dealable}
    dealt = {r: z3.Int(f"table|dealt|{r}", ctx) for r in dealable}
    rest = {r: z3.Int(f"table|rest|{r}", ctx) for r in dealable}
    cs = [n >= lo, n <= hi]
    for r in dealable:
        count = rs.roles[r].count
        cs += [cards[r] >= 0, dealt[r] >= 0, dealt[r] <= cards[r]]
        if isinstance(count, int) and not isinstance(count, bool):
            cs.append(cards[r] <= count)
    tbl = Table(n, rest, assumed=assumed)
    tbl.values = {r: _values_of(world, init, r) for r in dealable}
    with at_table(world, tbl):
        grouped: set[str] = set()
        for g in (rs.setup or {}).get("groups") or []:
            members = [r for r in (g.get("roles") or ([g["name"]] if g["name"] in rs.roles else [])) if r in cards]
            if not members or "count" not in g:
                continue
            grouped.update(members)
            cs.append(z3.Sum([cards[r] for r in members]) == sem.num(g["count"], {}, init))
        if grouped:
            # a setup that lists its groups deals nothing else
            cs += [cards[r] == 0 for r in dealable if r not in grouped]
    cs.append(z3.Sum([dealt[r] for r in dealable] + [z3.IntVal(0, ctx)]) == n)
    for r in dealable:
        in_slots = z3.Sum([If(init[("role", i)] == world.sorts.roles[r], 1, 0) for i in range(world.k)])
        cs += [rest[r] == dealt[r] - in_slots, rest[r] >= 0, init[("rest", r)] == rest[r]]
    with at_table(world, tbl):
        # what the text ties together at the deal (e.g. as many of X as of Y)
        cs += [sem.cond(d["cond"], {}, init) for d in (rs.setup or {}).get("deal") or []]
        cs += [_dealt_case(sem, init, d) for d in (rs.setup or {}).get("distributions") or [] if "of" in d]
    tbl.constraints = cs
    return tbl


def _dealt_case(sem, init: State, d: dict) -> z3.BoolRef:
    """A distribution of a count ("of"): the deal has one of its values whose probability at
    this player count is above 0%."""
    of = sem.num(d["of"], {}, init)
    options = []
    for case in d["cases"]:
        if not isinstance(case.get("value"), int):
            continue
        p = sem.num(case["percent"], {}, init)
        if case.get("max") is not None:
            p = If(p > case["max"], case["max"], p)
        if case.get("min") is not None:
            p = If(p < case["min"], case["min"], p)
        options.append(And(of == case["value"], p > 0))
    return Or(options + [z3.BoolVal(False, init[("alive", 0)].ctx)])


def _values_of(world, st: State, role: str) -> dict:
    """The state values of a player holding the role as dealt, under slot-0 keys."""
    sorts, ctx = world.sorts, world.ctx
    T, F = z3.BoolVal(True, ctx), z3.BoolVal(False, ctx)
    faction = sorts.factions[world.sem.canon(world.rs.roles[role].faction)]
    statuses, labels = world.initial_statuses(role), world.initial_labels(role)
    out = {}
    for key in st.terms:
        if key[0] == "counter":
            if len(key) == 3 and key[2] == 0:
                out[key] = z3.IntVal(world.rs.counters[key[1]].initial, ctx)
            continue
        if len(key) < 2 or key[1] != 0:
            continue
        head = key[0]
        out[key] = {"role": lambda: sorts.roles[role], "dealt": lambda: sorts.roles[role],
                    "faction": lambda: faction, "alive": lambda: T, "dying": lambda: F,
                    "votes": lambda: z3.IntVal(1, ctx), "ballot": lambda: z3.IntVal(-1, ctx),
                    "received": lambda: z3.IntVal(0, ctx), "status": lambda: T if key[2] in statuses else F,
                    "label": lambda: T if key[2] in labels else F, "lost": lambda: F, "gained": lambda: F,
                    "spent": lambda: z3.IntVal(0, ctx), "cause": lambda: z3.IntVal(0, ctx),
                    "redir": lambda: z3.IntVal(0, ctx), "by": lambda: z3.IntVal(-1, ctx),
                    "extra": lambda: z3.IntVal(0, ctx)}[head]()   # slot-0 keys: targeting lands on itself
    return out


@contextmanager
def at_table(world, table: Table | None):
    """Build constraints counting the whole table (the rest of it too) inside this block."""
    before = world.sem.table
    world.sem.table = table
    try:
        yield table
    finally:
        world.sem.table = before


def composition(model, table: Table) -> tuple[int, dict[str, int]]:
    """The player count and the rest of the table per identity, from a model."""
    n = model.eval(table.n, model_completion=True).as_long()
    rest = {r: model.eval(t, model_completion=True).as_long() for r, t in table.rest.items()}
    return n, {r: c for r, c in rest.items() if c}
