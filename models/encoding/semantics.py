"""Conditions, filters, numbers and effects as z3 terms over a State.

A binding maps the words of the language (self, target, caster, source, victim) to
concrete player slots; the rest of the state stays symbolic. Every update is guarded
by a path condition, so an effect whose `if` is false leaves the state unchanged.
"""
from __future__ import annotations

from contextlib import contextmanager

from dataclasses import dataclass, field
from typing import Any

import z3

from ..domain import Effect, Ruleset
from .connectives import And, If, Implies, Not, Or
from .sorts import Sorts, State, StateFactory, cause_index

# Effect kinds whose result lives outside the modelled state (feedback, uses, targeting):
# they are semantic, but "changes nothing" must not be concluded from the model.
UNMODELLED_KINDS = {"info", "refresh_skill", "redirect", "create", "extra_use", "cooldown", "must_target",
                    "disguise", "use_skill"}
COMPARE = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
           "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}


class Unbound(Exception):
    """The text refers to a participant the current scenario does not bind."""


@dataclass
class Semantics:
    rs: Ruleset
    sorts: Sorts
    factory: StateFactory
    opaque_conditions: dict = field(default_factory=dict)
    table: Any = None   # table.Table while a game question is built: counts include the rest of the table
    # rest_matching per (filter, binding, state, table): a win condition asks the same counts of
    # one state for every faction and every move (most of a game question's build time on zemu)
    memo: dict = field(default_factory=dict, repr=False, compare=False)
    reads_day: bool = False   # a condition on the day number has been built (reach.game_day)

    @property
    def ctx(self) -> z3.Context:
        return self.sorts.ctx

    @property
    def k(self) -> int:
        return self.factory.vocab.k

    def true(self) -> z3.BoolRef:
        return z3.BoolVal(True, self.ctx)

    def false(self) -> z3.BoolRef:
        return z3.BoolVal(False, self.ctx)

    def canon(self, name: str) -> str:
        return self.rs.aliases.get(name, name)

    # ---- who ----------------------------------------------------------------------------
    def slots(self, who: Any, b: dict, st: State) -> list[tuple[int, z3.BoolRef]]:
        if who is None:
            who = "target" if "target" in b else "self"
        if isinstance(who, dict) and "any_of" in who:
            # 指定若干名…: the player decides for each matching player whether it is included
            tag = f"any_of|{sorted(who['any_of'].items()) if who['any_of'] else ''}|" \
                  f"{sorted((k, v) for k, v in b.items() if isinstance(v, int))}"
            return [(i, And(z3.Bool(f"{tag}|{i}", self.ctx), self.filter(who["any_of"] or {}, i, b, st)))
                    for i in range(self.k)]
        if isinstance(who, dict) and "random" in who:
            return self._random_pick(who["random"] or {}, b, st)
        if isinstance(who, dict):
            return [(i, self.filter(who, i, b, st)) for i in range(self.k)]
        if isinstance(who, str) and who.startswith("holder:"):
            item = who.split(":", 1)[1]
            return [(i, st[("item", item)] == i) for i in range(self.k)]
        if who == "all":
            return [(i, self.true()) for i in range(self.k)]
        if who == "killer":
            who = "source"
        if who == "owner":
            who = "self"
        if who not in b:
            raise Unbound(who)
        return [(b[who], self.true())]

    def _random_pick(self, flt: dict, b: dict, st: State) -> list[tuple[int, z3.BoolRef]]:
        """随机一名…: the solver picks the player among those matching; nobody is picked when
        nobody matches. At a table (a game question) the pick misses every slot only where a
        player outside the slots matches: otherwise it lands on a matching slot (the first one
        stands for any, which the free pick can also choose). Outside a game the rest of the
        table is unknown, so a miss stays possible."""
        pick = z3.Int(f"random|{sorted(flt.items()) if flt else ''}|"
                      f"{sorted((k, v) for k, v in b.items() if isinstance(v, int))}", self.ctx)
        matches = [self.filter(flt, i, b, st) for i in range(self.k)]
        hits = [And(pick == i, m) for i, m in enumerate(matches)]
        if self.table is None:
            return list(enumerate(hits))
        elsewhere = Or([And(g, n >= 1) for g, n in self.rest_matching(flt, b, st)] + [self.false()])
        forced = And(Not(Or(hits)), Not(elsewhere))
        return [(i, Or(hits[i], And([forced, matches[i]] + [Not(m) for m in matches[:i]])))
                for i in range(self.k)]

    def one(self, who: Any, b: dict, st: State) -> int:
        got = self.slots(who, b, st)
        if len(got) != 1:
            raise Unbound(str(who))
        return got[0][0]

    # ---- filters and conditions ---------------------------------------------------------
    def has_status(self, st: State, i: int, s: str) -> z3.BoolRef:
        return st[("status", i, self.canon(s))]

    def filter(self, f: dict, i: int, b: dict, st: State) -> z3.BoolRef:
        parts = []
        for key, val in sorted(f.items()):
            vals = val if isinstance(val, list) else [val]
            if key == "alive":
                parts.append(st[("alive", i)] if val else Not(st[("alive", i)]))
            elif key == "dead":
                parts.append(Not(st[("alive", i)]) if val else st[("alive", i)])
            elif key == "other":
                if "self" in b and val:
                    parts.append(self.true() if b["self"] != i else self.false())
            elif key == "faction":
                parts.append(Or([st[("faction", i)] == self.sorts.factions[self.canon(v)] for v in vals]))
            elif key == "not_faction":
                parts.append(And([st[("faction", i)] != self.sorts.factions[self.canon(v)] for v in vals]))
            elif key == "initial_faction":
                parts.append(Or([self.initial_faction(st, i) == self.sorts.factions[self.canon(v)] for v in vals]))
            elif key == "role":
                # an undefined role (terms kind undefined) is nobody's
                parts.append(Or([st[("role", i)] == self.sorts.roles[self.canon(v)] for v in vals
                                    if self.canon(v) in self.sorts.roles] + [self.false()]))
            elif key == "not_role":
                parts.append(And([st[("role", i)] != self.sorts.roles[self.canon(v)] for v in vals]))
            elif key == "has_status":
                parts.append(And([self.has_status(st, i, v) for v in vals]))
            elif key == "lacks_status":
                parts.append(And([Not(self.has_status(st, i, v)) for v in vals]))
            elif key == "label":
                parts.append(And([st[("label", i, self.canon(v))] for v in vals]))
            elif key == "not_label":
                parts.append(And([Not(st[("label", i, self.canon(v))]) for v in vals]))
            elif key == "holds":
                parts.append(And([st[("item", v)] == i for v in vals]))
            elif key == "dying":
                parts.append(st[("dying", i)] if val else Not(st[("dying", i)]))
            elif key == "neighbour_of":
                of, living = (val.get("of"), bool(val.get("living"))) if isinstance(val, dict) else (val, False)
                parts.append(Or([And(g, self.neighbour(st, i, j, living)) for j, g in self.slots(of, b, st)]
                                   + [self.false()]))
            elif key == "voted_for":
                # the ballot as cast (only voters cast one): the one voted out who voted for
                # himself voted for him too; "alive: true" beside it keeps only the living
                parts.append(Or([And(g, st[("ballot", i)] == j)
                                    for j, g in self.slots(val, b, st)] + [self.false()]))
            elif key == "voted_by":
                parts.append(Or([And(st[("ballot", v)] == i, self.filter(val, v, b, st))
                                    for v in range(self.k)] + [self.false()]))
            elif key == "top_voted":
                top = And([self.received(st, i) >= self.received(st, j) for j in range(self.k)]
                             + [self.received(st, i) > 0])
                parts.append(top if val else Not(top))
            elif key == "targeted":
                chosen = b.get("$targets") or ((b["target"],) if "target" in b else ())
                parts.append(self.true() if (i in chosen) == bool(val) else self.false())
            elif key == "used_tag_on":
                parts.append(Or([And(g, self.used_tag_on(i, j, self.canon(val["tag"]), b))
                                    for j, g in self.slots(val.get("on"), b, st)] + [self.false()]))
            elif key == "any":
                parts.append(Or([self.filter(sub, i, b, st) for sub in val] + [self.false()]))
            elif key == "all_of":   # internal: both filters (never written in a ruleset)
                parts.append(And([self.filter(sub, i, b, st) for sub in val] + [self.true()]))
            elif key == "not":      # internal
                parts.append(Not(self.filter(val, i, b, st)))
            elif key == "if":
                parts.append(self.cond(val, b, st))
            elif key == "strength":
                parts.append(COMPARE[val.get("op", ">=")](self.strength(st, i), self.num(val.get("value", 0), b, st)))
            elif key == "counter":
                name, op, value = val
                term = st[("counter", name)] if ("counter", name) in st.terms else st[("counter", name, i)]
                parts.append(COMPARE[op](term, self.num(value, b, st)))
        return And(parts) if parts else self.true()

    def rest_matching(self, f: dict, b: dict, st: State) -> list[tuple[z3.BoolRef, z3.ArithRef]]:
        """(the filter holds for a rest-of-table player of an identity, how many hold it) for
        each identity it may hold for; nothing outside a game question."""
        if self.table is None:
            return []
        # a filter that reads only the rest player's own values and the state's global ones
        # gives the same answer for every state with the same global terms (a move that only
        # changes the slots, as most do)
        own = _reads_own_only(f)
        key = ("rest", repr(f), repr(sorted(b.items(), key=repr)), _global_terms(st) if own else id(st),
               id(self.table), self.memo_readings())
        hit = self.memo.get(key)
        if hit is not None and (own or hit[0] is st) and hit[1] is self.table:
            return hit[2]
        out = []
        for count, view in self.table.views(st):
            got = z3.simplify(self.filter(f, view.index, b, view))
            if not z3.is_false(got):
                out.append((got, count))
        self.memo[key] = (st, self.table, out)   # st and table kept: their ids stay theirs
        return out

    def used_tag_on(self, i: int, j: int, tag: str, b: dict) -> z3.BoolRef:
        """i used a skill with the tag on j in the current window: known from the scenario's
        uses when it has them, unknown otherwise (traces have no windows)."""
        window = b.get("$window")
        if window is not None:
            tagged = {s.name for s in self.rs.skills if tag in {self.canon(t) for t in s.tags}}
            return self.true() if any(u == i and name in tagged and j in ts for u, name, ts in window) \
                else z3.Bool(f"used_tag_on|{i}|{j}|{tag}", self.ctx)
        return z3.Bool(f"used_tag_on|{i}|{j}|{tag}", self.ctx)

    # ---- seats, ballots, strength --------------------------------------------------------
    def neighbour(self, st: State, i: int, j: int, living: bool) -> z3.BoolRef:
        """i sits next to j. The slots sit in slot order; at a table of more players the rest
        sit between the last slot and the first (so those two are neighbours only when no one
        else is at the table); with no table the slots are the ring. living: among living
        players only, the seats of players who are out skipped (去除出局角色后)."""
        if i == j or i >= self.k or j >= self.k:
            return self.false()  # a rest-of-table player is not one of the slots
        k, lo, hi = self.k, min(i, j), max(i, j)
        inner = [st[("alive", x)] for x in range(lo + 1, hi)]             # the seats between, not wrapping
        outer = [st[("alive", x)] for x in list(range(hi + 1, k)) + list(range(lo))]
        if self.table is None:
            rest_away = self.true()
        else:   # the wrap passes the rest's seats: all of them empty (living) / none of them (seated)
            rest_away = (self.table.n == k) if not living else self.table.all_out(st)
        if not living:
            if hi - lo == 1:
                return self.true()
            return rest_away if (hi - lo == k - 1 and k > 2) else self.false()
        none_alive = lambda xs: Not(Or(xs + [self.false()]))
        return And(st[("alive", i)], Or(none_alive(inner), And(rest_away, none_alive(outer))))

    def voter(self, st: State, v: int) -> z3.BoolRef:
        """v casts a ballot: alive, or out with a status that keeps the vote (保留投票权)."""
        keep = [st[("status", v, s.name)] for s in self.rs.statuses.values() if s.keeps_vote]
        return Or([st[("alive", v)]] + keep)

    def received(self, st: State, i: int) -> z3.ArithRef:
        """Votes i receives: the weights of the ballots that name i, plus extras. A ballot is
        cast only by a voter (the vote-out move) and still counts for that tally after its
        voter goes out (the one voted out voted too)."""
        return z3.Sum([If(st[("ballot", v)] == i, st[("votes", v)], 0)
                       for v in range(self.k)] + [st[("received", i)]])

    def strength(self, st: State, i: int) -> z3.ArithRef:
        """The identity's 强度值; a role whose strength the text does not give has an unknown
        one (one value per role, the same throughout)."""
        return self._by_role("strength", st[("role", i)], lambda name, role: (
            z3.RealVal(role.strength, self.ctx) if role.strength is not None else
            z3.ToReal(z3.Int(f"strength|{name}", self.ctx))), z3.RealVal(0, self.ctx))  # whole points, like the texts'

    def initial_faction(self, st: State, i: int) -> z3.ExprRef:
        """The faction of the identity dealt to i (初始身份的阵营)."""
        dealt = st.get(("dealt", i))
        return self._by_role("initial_faction", st[("role", i)] if dealt is None else dealt,
                             lambda name, role: self.sorts.factions[self.canon(role.faction)],
                             self.sorts.factions[sorted(self.sorts.factions)[0]])

    def _by_role(self, what: str, role_term, value, default) -> z3.ExprRef:
        """A value per role for the role term, as an If-chain built once per term (effects ask
        for it again and again on the same slot)."""
        cache = self.__dict__.setdefault(f"_{what}", {})
        key = role_term.get_id()
        if key not in cache:
            term = default
            for name, role in sorted(self.rs.roles.items()):
                term = If(role_term == self.sorts.roles[name], value(name, role), term)
            cache[key] = (role_term, term)  # keep the term alive so its id is not reused
        return cache[key][1]

    def num(self, n: Any, b: dict, st: State) -> z3.ArithRef:
        if isinstance(n, bool):
            return z3.IntVal(int(n), self.ctx)
        if isinstance(n, (int, float)):
            return z3.RealVal(n, self.ctx) if isinstance(n, float) and not n.is_integer() else z3.IntVal(int(n), self.ctx)
        if not isinstance(n, dict):
            return z3.IntVal(0, self.ctx)
        if "count" in n:
            return z3.Sum([If(self.filter(n["count"], i, b, st), 1, 0) for i in range(self.k)] +
                          [If(g, c, 0) for g, c in self.rest_matching(n["count"], b, st)] + [z3.IntVal(0, self.ctx)])
        if "counter" in n:
            return self.counter_term(n["counter"], n.get("who"), b, st)
        if "players" in n:
            return self.table.n if self.table is not None else z3.IntVal(self.k, self.ctx)
        if "vote_weights" in n:  # the votes a group can cast: the sum of its members' vote weights
            return z3.Sum([If(self.filter(n["vote_weights"], i, b, st), st[("votes", i)], 0) for i in range(self.k)]
                          + [If(g, c, 0) for g, c in self.rest_matching(n["vote_weights"], b, st)]
                          + [z3.IntVal(0, self.ctx)])
        if "votes_for" in n:
            return z3.Sum([If(g, self.received(st, i), 0) for i, g in self.slots(n["votes_for"], b, st)]
                          + [z3.IntVal(0, self.ctx)])
        if "strength" in n:
            return z3.Sum([If(g, self.strength(st, i), 0) for i, g in self.slots(n["strength"], b, st)]
                          + [z3.RealVal(0, self.ctx)])
        for op in ("add", "sub", "mul"):
            if op in n:
                terms = [self.num(x, b, st) for x in n[op]]
                out = terms[0]
                for t in terms[1:]:
                    out = out + t if op == "add" else out - t if op == "sub" else out * t
                return out
        if "div" in n:
            a, d = (self.num(x, b, st) for x in n["div"])
            rnd = n.get("round", "floor")
            if rnd == "ceil":
                return (a + d - 1) / d
            if rnd == "nearest":
                return (2 * a + d) / (2 * d)
            return a / d
        if "abs" in n:
            a = self.num(n["abs"], b, st)
            return If(a >= 0, a, -a)
        return z3.IntVal(0, self.ctx)

    def counter_term(self, name: str, who: Any, b: dict, st: State) -> z3.ArithRef:
        if ("counter", name) in st.terms:
            return st[("counter", name)]
        i = self.one(who or "self", b, st)
        return st[("counter", name, i)]

    def cond(self, c: Any, b: dict, st: State) -> z3.BoolRef:
        if c is None or c is True:
            return self.true()
        if c is False:
            return self.false()
        if "all" in c:
            return And([self.cond(x, b, st) for x in c["all"]] + [self.true()])
        if "any" in c:
            return Or([self.cond(x, b, st) for x in c["any"]] + [self.false()])
        if "not" in c:
            return Not(self.cond(c["not"], b, st))
        if "cause" in c:
            cause = b.get("$cause")
            if cause is not None and cause != c["cause"]:
                return self.false()
            if "victim" in b and self.factory.vocab.causes:
                return self.cause_is(st, b["victim"], c["cause"])   # the going out has that cause
            if cause is None:
                return z3.Bool(f"cause_is_{c['cause']}", self.ctx)
            return self.true()
        if "true" in c:
            return self.true()
        if "false" in c:
            return self.false()
        if "chance" in c:
            # decided outside the game state (real-time actions, the undealt cards): either way
            return z3.Bool(f"chance|{c['chance']}", self.ctx)
        if "day" in c:
            day = b.get("$day")
            if day is None:
                self.reads_day = True   # traces put each step's day here (reach.game_day)
            term = z3.IntVal(day, self.ctx) if day is not None else z3.Int("game_day", self.ctx)
            spec = c["day"] if isinstance(c["day"], dict) else {"op": "==", "value": c["day"]}
            return COMPARE[spec.get("op", "==")](term, self.num(spec.get("value", 1), b, st))
        for key in ("used", "targeted_by"):
            if key in c:
                # within the current window; traces have no windows, so it is the player's
                # own record there (unknown unless the scenario binds it)
                who, skill = c[key]
                if skill not in {s.name for s in self.rs.skills}:
                    return self.false()  # an undefined skill is never used
                known = b.get(f"${key}")
                return Or([And(g, self.true() if known is not None and (i, skill) in known else
                                     z3.Bool(f"{key}|{i}|{skill}", self.ctx)) for i, g in self.slots(who, b, st)]
                             + [self.false()])
        if "distinct" in c:
            attr = {"faction": lambda i: st[("faction", i)], "initial_faction": lambda i: self.initial_faction(st, i),
                    "role": lambda i: st[("role", i)]}[c["by"]]
            return And([Implies(And(self.filter(c["distinct"], i, b, st), self.filter(c["distinct"], j, b, st)),
                                      attr(i) != attr(j)) for i in range(self.k) for j in range(i + 1, self.k)]
                          + [self.true()])
        if "reading" in c:
            return self.reading_is(*c["reading"])
        if "lost" in c:
            # that faction has reached its lose condition (判负), or an effect declared its loss
            f = self.rs.factions.get(c["lost"])
            if f is None:
                return self.false()
            lost = self.cond(f.lose, {}, st) if f.lose else self.false()
            key = ("lose", f.name)
            return Or(lost, st[key]) if key in st.terms else lost
        if "opaque" in c:
            key = repr(sorted(c.items(), key=repr))
            if key not in self.opaque_conditions:
                self.opaque_conditions[key] = z3.Bool(f"opaque_cond_{len(self.opaque_conditions)}", self.ctx)
            return self.opaque_conditions[key]
        for key in ("has_status", "faction", "role", "label", "holds"):
            if key in c:
                who, name = c[key]
                flt = {"has_status": {"has_status": name}, "faction": {"faction": name}, "role": {"role": name},
                       "label": {"label": name}, "holds": {"holds": name}}[key]
                return Or([And(g, self.filter(flt, i, b, st)) for i, g in self.slots(who, b, st)] + [self.false()])
        if "alive" in c:
            return Or([And(g, st[("alive", i)]) for i, g in self.slots(c["alive"], b, st)] + [self.false()])
        if "is" in c:
            a, bb = (self.one(x, b, st) for x in c["is"])
            return self.true() if a == bb else self.false()
        if "phase" in c:
            phase = b.get("$phase")
            if phase is None:
                return z3.Bool(f"phase_is_{c['phase']}", self.ctx)
            return self.true() if phase == c["phase"] or self.rs.window_of(phase) == c["phase"] else self.false()
        if "every" in c:
            every = {"all_of": [c["every"], {"not": c.get("satisfies") or {}}]}
            return And([Implies(self.filter(c["every"], i, b, st), self.filter(c.get("satisfies") or {}, i, b, st))
                           for i in range(self.k)] + [Implies(g, n == 0) for g, n in self.rest_matching(every, b, st)])
        if "none" in c:
            return And([Not(self.filter(c["none"], i, b, st)) for i in range(self.k)] +
                          [Implies(g, n == 0) for g, n in self.rest_matching(c["none"], b, st)])
        op = COMPARE[c.get("op", ">=")]
        if "count" in c:
            return op(self.num({"count": c["count"]}, b, st), self.num(c.get("value", 1), b, st))
        if "counter" in c:
            return op(self.counter_term(c["counter"], c.get("who"), b, st), self.num(c.get("value", 0), b, st))
        if "value_of" in c:
            return op(self.num(c["value_of"], b, st), self.num(c.get("value", 0), b, st))
        return self.true()

    # ---- effects -----------------------------------------------------------------------
    def blocked(self, st: State, i: int, what: str, cause: str | None = None) -> z3.BoolRef:
        blockers = [s for s in self.rs.statuses.values()
                    if what in s.blocks and not (cause and cause in s.except_causes)]
        return Or([st[("status", i, s.name)] for s in blockers] + [self.false()])

    def skills_blocked(self, st: State, i: int, skill) -> z3.BoolRef:
        """A status that blocks skills, unless it leaves this one alone (except_skills)."""
        blockers = [s for s in self.rs.statuses.values() if "skills" in s.blocks and skill.name not in s.except_skills]
        return Or([st[("status", i, s.name)] for s in blockers] + [self.false()])

    def tags_blocked(self, st: State, i: int, skill) -> z3.BoolRef:
        """A status that blocks only skills with certain tags (当晚发动的<普通>技能失效)."""
        tags = {self.canon(t) for t in skill.tags}
        blockers = [s for s in self.rs.statuses.values()
                    if tags & s.blocks_tags and not tags & s.except_tags]
        return Or([st[("status", i, s.name)] for s in blockers] + [self.false()])

    def apply(self, e: Effect, st: State, b: dict, pc: z3.BoolRef | None = None) -> State:
        pc = self.true() if pc is None else pc
        if e.guard is not None:
            pc = And(pc, self.cond(e.guard, b, st))
        handler = getattr(self, f"_e_{e.kind}", None)
        new = handler(e, e.args if isinstance(e.args, dict) else {"value": e.args}, st, b, pc) if handler else st
        for sub in e.instead:
            new = self.apply(sub, new, b, pc)
        return new

    def _e_refresh_skill(self, e, a, st, b, pc):
        """刷新: the holder may use the skill again as at the start ($chosen/$all: any of them)."""
        name = a.get("skill")
        uids = [uid for uid, _ in self.factory.vocab.limited
                if name in ("$all", "$chosen", None) or any(s.uid == uid and s.name == name for s in self.rs.skills)]
        upd = {}
        for i, g in self.slots(a.get("who", "self"), b, st):
            for uid in uids:
                upd |= self._upd(st, ("spent", i, uid), And(pc, g), z3.IntVal(0, self.ctx))
        return st.set(upd)

    def _upd(self, st: State, key, pc, value) -> dict:
        return {key: If(pc, value, st[key])}

    def _e_set_faction(self, e, a, st, b, pc):
        to = a.get("to")
        upd = {}
        for i, g in self.slots(a.get("who"), b, st):
            if to in ("$caster", "$self", "$source"):
                val = st[("faction", self.one(to[1:], b, st))]
            elif to == "$initial":
                val = self.initial_faction(st, i)
            else:
                val = self.sorts.factions[self.canon(to)]
            ok = And(pc, g, Not(self.blocked(st, i, "faction_change")) if not e.force else self.true())
            upd |= self._upd(st, ("faction", i), ok, val)
        return st.set(upd)

    def _status_names(self, name: str) -> list[str]:
        if name == "$negative":
            return sorted(s.name for s in self.rs.statuses.values() if s.negative)
        if name == "$all":
            return sorted(self.rs.statuses)
        return [self.canon(name)]

    def _e_grant_status(self, e, a, st, b, pc):
        upd = {}
        for i, g in self.slots(a.get("who"), b, st):
            for s in self._status_names(a["status"]):
                ok = And(pc, g, Not(self.blocked(st, i, "status_gain")) if not e.force else self.true())
                upd |= self._upd(st, ("status", i, s), ok, self.true())
        return st.set(upd)

    def _e_remove_status(self, e, a, st, b, pc):
        upd = {}
        for i, g in self.slots(a.get("who"), b, st):
            for s in self._status_names(a["status"]):
                if not self.rs.statuses[s].permanent:
                    upd |= self._upd(st, ("status", i, s), And(pc, g), self.false())
        return st.set(upd)

    def _e_swap(self, e, a, st, b, pc):
        """交换两名角色: later targeting of either lands on the other (until the day ends)."""
        x, y = self.one(a.get("a", "target1"), b, st), self.one(a.get("b", "target2"), b, st)
        if x == y:
            return st
        return st.set(self._upd(st, ("redir", x), pc, z3.IntVal(y, self.ctx)) |
                      self._upd(st, ("redir", y), pc, z3.IntVal(x, self.ctx)))

    def reading_var(self, ambiguity: str) -> z3.ArithRef:
        """Which option of the ambiguity the game is read with (one fact per game, like an
        opaque condition; World.realizable/initial keep it among the options)."""
        return z3.Int(f"reading|{ambiguity}", self.ctx)

    def reading_is(self, ambiguity: str, option: str) -> z3.BoolRef:
        ruled = self.rs.ruled_option(ambiguity)
        if ruled is not None:
            return self.true() if ruled == option else self.false()
        names = [o["name"] for a in self.rs.ambiguities if a["name"] == ambiguity for o in a["options"]]
        fixed = self.__dict__.get("_fixed_readings", {})
        if ambiguity in fixed:
            return self.true() if fixed[ambiguity] == names.index(option) else self.false()
        return self.reading_var(ambiguity) == names.index(option)

    def memo_readings(self) -> tuple:
        """The readings fixed while terms are built: part of every memo key."""
        return tuple(sorted(self.__dict__.get("_fixed_readings", {}).items()))

    @contextmanager
    def reading_fixed(self, ambiguity: str, index: int):
        """Terms built inside read the ambiguity as its option `index` (a constant, so the
        two readings of one use are built side by side instead of substituted)."""
        fixed = self.__dict__.setdefault("_fixed_readings", {})
        before = fixed.get(ambiguity)
        fixed[ambiguity] = index
        try:
            yield
        finally:
            if before is None:
                del fixed[ambiguity]
            else:
                fixed[ambiguity] = before

    def reading_domain(self) -> list:
        """Every ambiguity is read as one of its options."""
        return [And(self.reading_var(a["name"]) >= 0, self.reading_var(a["name"]) < len(a["options"]))
                for a in self.rs.ambiguities]

    def cause_is(self, st: State, i: int, cause: str) -> z3.BoolRef:
        """Player i went out (or is going out) for that cause (tracked: sorts.tracked_causes)."""
        return st[("cause", i)] == cause_index(self.factory.vocab, cause)

    def _cause(self, st: State, i: int, ok, cause, b: dict | None = None) -> dict:
        """Why player i goes out, and who made them (the user of the effect) where tracked."""
        out = {}
        if self.factory.vocab.causes:
            out |= self._upd(st, ("cause", i), ok, z3.IntVal(cause_index(self.factory.vocab, cause or ""), self.ctx))
        if self.factory.vocab.killers:
            by = b.get("self", -1) if b is not None else -1
            out |= self._upd(st, ("by", i), ok, z3.IntVal(by, self.ctx))
        return out

    def _e_damage(self, e, a, st, b, pc):
        kind = a.get("kind")
        upd = {}
        for i, g in self.slots(a.get("who"), b, st):
            immune = Or(self.blocked(st, i, "damage", kind), self.blocked(st, i, "out", kind))
            ok = And(pc, g, st[("alive", i)], Not(immune) if not e.force else self.true())
            upd |= self._upd(st, ("dying", i), ok, self.true())
            upd |= self._cause(st, i, ok, kind, b)
        return st.set(upd)

    def _e_out(self, e, a, st, b, pc):
        cause = a.get("cause")
        upd = {}
        for i, g in self.slots(a.get("who"), b, st):
            ok = And(pc, g, st[("alive", i)], Not(self.blocked(st, i, "out", cause)) if not e.force else self.true())
            upd |= self._upd(st, ("alive", i), ok, self.false())
            upd |= self._upd(st, ("dying", i), ok, self.false())
            upd |= self._cause(st, i, ok, cause, b)
        return st.set(upd)

    def _e_prevent_out(self, e, a, st, b, pc):
        upd = {}
        for i, g in self.slots(a.get("who", "victim" if "victim" in b else "self"), b, st):
            upd |= self._upd(st, ("dying", i), And(pc, g), self.false())
        return st.set(upd)

    def _e_revive(self, e, a, st, b, pc):
        upd = {}
        for i, g in self.slots(a.get("who"), b, st):
            upd |= self._upd(st, ("alive", i), And(pc, g), self.true())
        return st.set(upd)

    def _e_set_role(self, e, a, st, b, pc):
        upd = {}
        to = a.get("to")
        for i, g in self.slots(a.get("who"), b, st):
            if to == "$flip":
                cur = st[("role", i)]
                val = cur
                for name, role in sorted(self.rs.roles.items()):
                    if role.flip_to and role.flip_to in self.sorts.roles:
                        val = If(cur == self.sorts.roles[name], self.sorts.roles[role.flip_to], val)
            else:
                val = self.sorts.roles[self.canon(to)]
            upd |= self._upd(st, ("role", i), And(pc, g), val)
        return st.set(upd)

    def _skill_names(self, name: str) -> list[str]:
        return sorted({s.name for s in self.rs.skills}) if name == "$all" else [name]

    def _e_gain_skill(self, e, a, st, b, pc):
        upd = {}
        uids, _ = self.rs.granted_by(e)
        for i, g in self.slots(a.get("who", "self"), b, st):
            for sk in self._skill_names(a["skill"]):
                upd |= self._upd(st, ("lost", i, sk), And(pc, g), self.false())
            for uid in uids:  # a new skill, held from now on whatever the identity
                upd |= self._upd(st, ("gained", i, uid), And(pc, g), self.true())
        return st.set(upd)

    def _e_lose_skill(self, e, a, st, b, pc):
        upd = {}
        for i, g in self.slots(a.get("who", "self"), b, st):
            for sk in self._skill_names(a["skill"]):
                upd |= self._upd(st, ("lost", i, sk), And(pc, g), self.true())
            for key in [k for k in st.terms if k[0] == "gained" and k[1] == i]:
                if a["skill"] == "$all" or key[2].split("/", 1)[-1] == a["skill"]:
                    upd |= self._upd(st, key, And(pc, g), self.false())
        return st.set(upd)

    def _e_add_label(self, e, a, st, b, pc):
        upd = {}
        for i, g in self.slots(a.get("who"), b, st):
            upd |= self._upd(st, ("label", i, self.canon(a["label"])), And(pc, g), self.true())
        return st.set(upd)

    def _e_remove_label(self, e, a, st, b, pc):
        upd = {}
        lab = self.rs.labels[self.canon(a["label"])]
        if not lab.removable:
            return st
        for i, g in self.slots(a.get("who"), b, st):
            upd |= self._upd(st, ("label", i, lab.name), And(pc, g), self.false())
        return st.set(upd)

    def _e_counter(self, e, a, st, b, pc):
        name = a["name"]
        key = ("counter", name) if ("counter", name) in st.terms else ("counter", name, self.one(a.get("who", "self"), b, st))
        cur = st[key]
        val = self.num(a.get("value", 1), b, st)
        op = a.get("op", "add")
        new = {"add": cur + val, "sub": cur - val, "set": val, "halve": cur / 2}.get(op, cur)
        if z3.is_real(new):   # a counter holds whole numbers: a fractional amount (a strength) rounds down
            new = z3.ToInt(new)
        spec = self.rs.counters[name]
        if spec.min is not None:
            new = If(new < spec.min, spec.min, new)
        return st.set(self._upd(st, key, pc, new))

    def _vote_count(self, head: str, a, st, b, pc, default_who):
        """Add to or set a per-player vote number: the votes one casts or extra votes received."""
        upd = {}
        val = self.num(a.get("value", 1), b, st)
        for i, g in self.slots(a.get("who", default_who), b, st):
            new = val if a.get("op") == "set" else st[(head, i)] + val
            if isinstance(new, z3.ArithRef) and new.is_real() and not self.factory.vocab.fractional_votes:
                new = z3.ToInt(new)   # whole votes, unless the text gives a fractional weight
            upd |= self._upd(st, (head, i), And(pc, g), new)
        return st.set(upd)

    def _e_vote_weight(self, e, a, st, b, pc):
        return self._vote_count("votes", a, st, b, pc, "self")

    def _e_received_votes(self, e, a, st, b, pc):
        return self._vote_count("received", a, st, b, pc, None)

    def _e_extra_use(self, e, a, st, b, pc):
        """每天可再次发动: the holder may use the skill count more times today (a grant made again
        the same day gives no more)."""
        upd = {}
        count = z3.IntVal(int(a.get("count", 1)), self.ctx)
        for i, g in self.slots(a.get("who", "self"), b, st):
            key = ("extra", i, a.get("skill"))
            if key in st.terms:
                upd |= self._upd(st, key, And(pc, g), If(st[key] < count, count, st[key]))
        return st.set(upd)

    def _e_give_item(self, e, a, st, b, pc):
        to = self.one(a.get("to", "self"), b, st)
        return st.set(self._upd(st, ("item", a["item"]), pc, z3.IntVal(to, self.ctx)))

    def _faction_of(self, value: Any, b: dict, st: State) -> list[tuple[str, z3.BoolRef]]:
        if isinstance(value, str) and value.startswith("$"):
            i = self.one(value[1:], b, st)
            return [(f, st[("faction", i)] == c) for f, c in sorted(self.sorts.factions.items())]
        return [(self.canon(value), self.true())]

    def _e_win(self, e, a, st, b, pc):
        upd = {}
        for f, g in self._faction_of(a.get("value", a.get("faction", "$self")), b, st):
            upd |= self._upd(st, ("win", f), And(pc, g), self.true())
        return st.set(upd)

    def _e_lose(self, e, a, st, b, pc):
        upd = {}
        for f, g in self._faction_of(a.get("value", a.get("faction", "$self")), b, st):
            upd |= self._upd(st, ("lose", f), And(pc, g), self.true())
        return st.set(upd)

    def _e_choose(self, e, a, st, b, pc):
        """One of several options, chosen by a player: each option under its own choice."""
        # one decision per use: both resolution orders see the same choice
        pick = z3.Int(f"choice|{e.uid}|{sorted(b.items())}", self.ctx)
        for j, option in enumerate(e.options):
            for sub in option:
                st = self.apply(sub, st, b, And(pc, pick == j))
        return st

    def _e_opaque(self, e, a, st, b, pc):
        upd = {}
        try:
            guards = dict(self.slots(a.get("who", "self"), b, st))
        except Unbound:
            guards = {i: self.true() for i in range(self.k)}
        for w in a.get("writes") or []:
            for key in self.keys_of(w, st):
                per_player = len(key) > 2 or key[0] in ("role", "faction", "alive", "dying", "votes")
                if key[0] == "counter" and len(key) == 2:
                    per_player = False
                if per_player and key[1] not in guards:
                    continue  # an opaque effect writes only its own players' values
                g = guards[key[1]] if per_player else self.true()
                fresh = self.factory.havoc(key, st[key])
                if self._monotone(key):
                    fresh = Or(st[key], fresh)  # a permanent status / fixed label is never lost
                if key[0] == "faction":
                    g = And(g, Not(self.blocked(st, key[1], "faction_change")))  # [忠诚] still holds
                upd[key] = If(And(pc, g), fresh, st[key])
        return st.set(upd)

    def _monotone(self, key) -> bool:
        if key[0] == "status":
            return self.rs.statuses[key[2]].permanent
        if key[0] == "label":
            return not self.rs.labels[key[2]].removable
        return False

    def keys_of(self, word: str, st: State) -> list:
        """State keys named by an opaque reads/writes word (faction, status:S, counter:C …)."""
        head, _, arg = word.partition(":")
        head = {"skills": "lost", "win": "win"}.get(head, head)
        out = []
        for key in sorted(st.terms, key=repr):
            if key[0] != head:
                continue
            if arg and head in ("status", "label", "counter", "item", "lost") and key[1 if head in ("counter", "item") else 2] != arg:
                continue
            out.append(key)
        return out


# filter keys that read only the player's own values (or the binding), never another player's
OWN_FILTER_KEYS = {"alive", "dead", "other", "faction", "not_faction", "initial_faction", "role", "not_role",
                   "has_status", "lacks_status", "label", "not_label", "holds", "dying", "targeted"}


def _reads_own_only(f) -> bool:
    if not isinstance(f, dict):
        return False
    return all(k in OWN_FILTER_KEYS or (k in ("any", "all_of") and all(_reads_own_only(x) for x in v))
               or (k == "not" and _reads_own_only(v)) for k, v in f.items())


def _global_terms(st: State) -> tuple:
    """The ids of the state's terms that belong to no player slot (counters, items, wins, the
    rest of the table's counts), kept on the state: a state never changes."""
    got = st.__dict__.get("_global_ids")
    if got is None:
        got = tuple(sorted((repr(k), t.get_id()) for k, t in st.terms.items()
                           if not (len(k) >= 2 and isinstance(k[1], int))))
        st.__dict__["_global_ids"] = got
    return got


def writes_of(e: Effect) -> set[str]:
    """The kinds of state an effect may write, for cheap candidate filtering."""
    kind = e.kind
    a = e.args if isinstance(e.args, dict) else {}
    table = {
        "set_faction": {"faction"}, "grant_status": {f"status:{a.get('status')}"},
        "remove_status": {f"status:{a.get('status')}"}, "damage": {"dying"}, "out": {"alive", "dying"},
        "prevent_out": {"dying"}, "revive": {"alive"}, "set_role": {"role"}, "gain_skill": {"lost", "gained"},
        "lose_skill": {"lost"}, "add_label": {f"label:{a.get('label')}"}, "remove_label": {f"label:{a.get('label')}"},
        "counter": {f"counter:{a.get('name')}"}, "vote_weight": {"votes"}, "received_votes": {"received"}, "give_item": {f"item:{a.get('item')}"},
        "win": {"win"}, "lose": {"lose"}, "swap": {"redir"},
    }
    if kind == "choose":
        out = set()
        for option in e.options:
            for sub in option:
                out |= writes_of(sub)
        return out
    if kind == "opaque":
        return set(a.get("writes") or [])
    out = set(table.get(kind, set()))
    for sub in e.instead:
        out |= writes_of(sub)
    return out
