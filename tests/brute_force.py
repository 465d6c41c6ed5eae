"""An independent, pure-Python interpreter of the ruleset language on CONCRETE states,
and brute-force deciders for the questions the z3 engine answers.

Nothing here imports z3 or models.encoding: the only shared code is the loader's data
model (models.domain), so a mistake in the z3 encoding cannot be copied into this file.
The semantics mirror models/encoding/semantics.py and world.py as documented in
models/LANGUAGE.md: same state keys, same blocking rules, same guards, same per-target
application, same "realizable" over-approximation of reachable states.

A state is a mapping with the keys of models/encoding/sorts.py:
  ("role", i) ("faction", i) ("alive", i) ("dying", i) ("votes", i) ("status", i, S)
  ("label", i, L) ("lost", i, skill) ("counter", C) / ("counter", C, i) ("item", I)
  ("win", F) ("lose", F)
Opaque conditions and `phase` conditions without a bound phase are free booleans in the
engine (the same value in every state); here they are the extra keys ("opaque", text) and
("phase_is", P), read from the start state. An opaque effect makes each value it writes a
fresh unknown, read as ("havoc", n, key) (a permanent status / fixed label is kept).
`force: true` ignores the blocking statuses of set_faction, grant_status, damage and out
(an out or damage still needs a living target).

Deciding "exists a realizable state with ..." by enumeration: `states()` lists every
realizable concrete state (plain brute force, for tiny worlds), and `explore()` walks the
same space as a decision tree that forks on a variable only when the question reads it,
so one run stands for every state that agrees on what it read (exact, and fast enough
for the 2-slot worlds of the differential test). tests/test_differential.py checks that
the two give the same answers.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from typing import Any, Callable, Iterable, Iterator

from models.domain import Effect, Ruleset, Skill

COMPARE = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
           "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}
TARGET_DEFAULT_KINDS = ("set_faction", "grant_status", "remove_status", "damage", "out", "revive", "set_role",
                        "add_label")
# Counters are unbounded integers in the engine; enumeration needs a finite range. The
# generated rulesets use constants 0..3 and at most a few updates, so the values that
# behave differently all lie well inside this window around 0 / the counter's min.
COUNTER_SPAN = 8


class Unbound(Exception):
    """The text names a participant the binding does not provide."""


class NotSupported(Exception):
    """An element this interpreter does not model (opaque effects)."""


def _mentions(x, words: set) -> bool:
    if isinstance(x, dict):
        return any(k in words or _mentions(v, words) for k, v in x.items())
    if isinstance(x, list):
        return any(_mentions(v, words) for v in x)
    return False


def zdiv(a: int, d: int) -> int:
    """SMT-LIB integer division (Euclidean: the remainder is in [0, |d|))."""
    if d == 0:
        raise NotSupported("division by zero (unspecified in SMT-LIB)")
    r = a % abs(d)
    return (a - r) // d


@dataclass(frozen=True)
class Bind:
    """Concrete slots for self, the targets, and caster/source/victim."""
    self_slot: int
    targets: tuple = ()
    others: tuple = ()
    window: tuple = ()   # the uses of the scenario's window: (slot, skill name, targets)

    def words(self, target: int | None = None) -> dict:
        d = {"self": self.self_slot, **dict(self.others)}
        if self.targets:
            d["$targets"] = self.targets
        if self.window:
            # sorted tuples, not sets: bindings name decision variables, which must be stable
            d["$used"] = tuple(sorted({(i, name) for i, name, _ in self.window}))
            d["$targeted_by"] = tuple(sorted({(t, name) for _, name, ts in self.window for t in ts}))
            d["$window"] = tuple(sorted(self.window))
        if self.targets:
            d |= {f"target{n}": t for n, t in enumerate(self.targets, 1)}
        if target is not None:
            d["target"] = target
        elif self.targets:
            d["target"] = self.targets[0]
        return d


class View:
    """A state as the values written so far over a base mapping (copy on write)."""
    __slots__ = ("base", "writes")

    def __init__(self, base, writes: dict | None = None):
        self.base = base
        self.writes = writes or {}

    def __getitem__(self, key):
        w = self.writes
        return w[key] if key in w else self.base[key]

    def set(self, upd: dict) -> "View":
        if not upd:
            return self
        w = dict(self.writes)
        w.update(upd)
        return View(self.base, w)

    def dict(self, keys: Iterable) -> dict:
        return {k: self[k] for k in keys}


# ---- exhaustive exploration ---------------------------------------------------------------
class _Oracle:
    """The start state of one run of the explorer: unassigned variables get the value the
    current branch prescribes when first read."""
    __slots__ = ("domain", "assigned", "prefix", "trail")

    def __init__(self, domain: Callable, fixed: dict, prefix: tuple):
        self.domain = domain
        self.assigned = dict(fixed)
        self.prefix = prefix
        self.trail: list = []

    def __getitem__(self, key):
        try:
            return self.assigned[key]
        except KeyError:
            pass
        dom = self.domain(key)
        pos = len(self.trail)
        idx = self.prefix[pos] if pos < len(self.prefix) else 0
        self.trail.append((key, idx, len(dom)))
        v = dom[idx]
        self.assigned[key] = v
        return v


def explore(fn: Callable, domain: Callable, fixed: dict | None = None) -> Iterator[tuple[dict, Any]]:
    """Run fn on every start state, one run per class of states that agree on what fn read.
    Yields (the values fn read, fn's result). fn must be a deterministic function of the
    values it reads; every state consistent with `fixed` is covered by exactly one run."""
    stack: list[tuple] = [()]
    fixed = fixed or {}
    while stack:
        prefix = stack.pop()
        o = _Oracle(domain, fixed, prefix)
        result = fn(o)
        trail = o.trail
        for pos in range(len(trail) - 1, len(prefix) - 1, -1):
            _, idx, n = trail[pos]
            base = tuple(i for _, i, _ in trail[:pos])
            for alt in range(n - 1, idx, -1):
                stack.append(base + (alt,))
        yield o.assigned, result


# ---- the interpreter ----------------------------------------------------------------------
class Interp:
    def __init__(self, rs: Ruleset, k: int = 2):
        self.rs = rs
        self.k = k
        self.factions = sorted(rs.factions)
        self.roles = sorted(rs.roles) or ["_none"]
        self.statuses = sorted(rs.statuses)
        self.labels = sorted(rs.labels)
        self.skills = sorted({s.name for s in rs.skills})
        self.gcounters = sorted(c.name for c in rs.counters.values() if c.scope != "per_player")
        self.pcounters = sorted(c.name for c in rs.counters.values() if c.scope == "per_player")
        self.items = sorted(rs.items)
        self.gained = sorted({uid for sk in rs.skills for e in sk.all_effects() if e.kind == "gain_skill"
                              for uid in self.granted(e)[0]})
        self.ballots = _mentions(rs.raw, {"voted_for", "voted_by", "top_voted", "votes_for", "received_votes", "tie_out"})
        # identities can change: the dealt one is a state value of its own
        self.dealt_key = any(e.kind == "set_role" or (e.kind == "opaque" and any(
            str(x).split(":")[0] == "role" for x in ((e.args or {}).get("writes") or []))) for e in rs.effects())
        self.produced = self._produced()
        # per-game use limits (mirror of sorts.per_game_limits): not for skills given extra uses
        extra = {(e.args or {}).get("skill") for e in rs.effects() if e.kind == "extra_use" and isinstance(e.args, dict)}
        self.limited = {sk.uid: sk.uses["count"] for sk in rs.skills
                        if (sk.uses or {}).get("per") == "game" and isinstance((sk.uses or {}).get("count"), int)
                        and sk.name not in extra and "$all" not in extra}
        # going-out causes, kept per player when something reads one (LANGUAGE.md: cause)
        self.causes = self._causes()
        # a swap: where targeting of each player lands (LANGUAGE.md: swap)
        self.redirects = any(e.kind == "swap" for e in rs.effects())   # redirect: not modelled
        self.killers = self._reads_killer()   # ("by", i): whose move put i out (-1 none)
        # ("extra", i, skill): extra uses of the skill granted to i today (extra_use, per day)
        # (only for skills whose daily limit is the default one; a stated count is kept as is)
        stated = {sk.name for sk in rs.skills if (sk.uses or {}).get("per") in ("day", "phase")
                  and isinstance((sk.uses or {}).get("count"), int)}
        self.extra = sorted({e.args["skill"] for e in rs.effects() if e.kind == "extra_use" and isinstance(e.args, dict)
                             and e.args.get("per", "day") == "day" and e.args.get("skill") not in (None, "$all", *stated)})
        self.keys = self._keys()
        self.table = None    # {"players": n, "rest": {identity: dealt count}} when a game is replayed at a table
        self.havocs = 0      # opaque writes so far in the current run (see _e_opaque)
        # the engine names a random pick by its filter and binding only, so two 随机 effects of
        # one use pick the same player; True gives each effect its own pick instead
        self.independent_picks = False
        self._effect = None

    def canon(self, name: str) -> str:
        return self.rs.aliases.get(name, name)

    def granted(self, e: Effect) -> tuple[list[str], bool]:
        """What a gain_skill grants: (uids of skills newly held, restores one's own). Gaining
        a skill one's own identity has restores it; otherwise the shared (label/faction)
        skill of that name if there is one, else every skill of that name."""
        a = e.args if isinstance(e.args, dict) else {}
        name = a.get("skill")
        if name in (None, "$all"):
            return [], True
        holder = e.skill.owner_role if e.skill and a.get("who", "self") == "self" else None
        if holder and any(s.name == name and s.owner_role == holder for s in self.rs.skills):
            return [], True
        named = [s for s in self.rs.skills if s.name == name]
        shared = [s for s in named if not s.owner_role]
        return sorted(x.uid for x in (shared or named)), False

    def _reads_killer(self) -> bool:
        """A trigger on a going out reads who caused it (its source / killer)."""
        def names(x) -> bool:
            if isinstance(x, str):
                return x.lstrip("$") in ("source", "killer")
            if isinstance(x, dict):
                return any(names(v) for v in x.values())
            return isinstance(x, list) and any(names(v) for v in x)
        return any((s.trigger or {}).get("event") in ("went_out", "killed", "about_to_go_out") and
                   names([s.condition] + [[e.args, e.guard] for e in s.all_effects()]) for s in self.rs.skills)

    def _causes(self) -> list[str]:
        def reads(x) -> bool:
            if isinstance(x, dict):
                if set(x) == {"cause"} or ("event" in x and x.get("cause") not in (None, "any")):
                    return True
                return any(reads(v) for v in x.values())
            return isinstance(x, list) and any(reads(v) for v in x)
        if not any(reads([s.trigger, s.condition] + [[e.guard, e.args] for e in s.all_effects()]) for s in self.rs.skills):
            return []
        made = {"投票"}
        for e in self.rs.effects():
            a = e.args if isinstance(e.args, dict) else {}
            c = a.get("cause") if e.kind == "out" else a.get("kind") if e.kind == "damage" else None
            if isinstance(c, str):
                made.add(c)
        made |= {x["term"] for x in self.rs.externals}
        return sorted(made | {"投票出局"})

    def cause_value(self, cause: str | None) -> int:
        """0: no cause kept; the vote-out causes are one."""
        cause = "投票" if cause == "投票出局" else cause
        return self.causes.index(cause) + 1 if cause in self.causes else 0

    # ---- variables --------------------------------------------------------------------
    def _keys(self) -> list:
        out = []
        for i in range(self.k):
            out += [("role", i), ("faction", i), ("alive", i), ("dying", i), ("votes", i)]
            if self.causes:
                out.append(("cause", i))
            if self.redirects:
                out.append(("redir", i))
            if self.killers:
                out.append(("by", i))
            if self.ballots:
                out += [("ballot", i), ("received", i)]
            if self.dealt_key:
                out.append(("dealt", i))
            out += [("status", i, s) for s in self.statuses]
            out += [("label", i, x) for x in self.labels]
            out += [("lost", i, sk) for sk in self.skills]
            out += [("gained", i, sk) for sk in self.gained]
            out += [("counter", c, i) for c in self.pcounters]
            out += [("spent", i, uid) for uid in sorted(self.limited)]
            out += [("extra", i, sk) for sk in self.extra]
        out += [("counter", c) for c in self.gcounters]
        # living players of each identity outside the slots (read only at a table, see
        # models/encoding/table.py; the interpreter checks the slots alone)
        out += [("rest", r) for r in sorted(r for r, role in self.rs.roles.items() if not role.created and role.count != 0)]
        out += [("item", it) for it in self.items]
        for f in self.factions:
            out += [("win", f), ("lose", f)]
        return out

    def _options(self, ambiguity: str) -> list[str]:
        return [o["name"] for a in self.rs.ambiguities if a["name"] == ambiguity for o in a["options"]]

    def domain(self, key) -> tuple:
        head = key[0]
        if head in ("role", "dealt"):
            return tuple(self.roles)
        if head == "faction":
            return tuple(self.factions)
        if head == "votes":
            return (1,)
        if head == "cause":
            return tuple(range(len(self.causes) + 1))
        if head == "rest":
            return (0,)   # nothing in the modelled subset reads votes except vote_weight
        if head == "counter":
            spec = self.rs.counters[key[1]]
            lo = spec.min if spec.min is not None else -COUNTER_SPAN
            hi = spec.max if spec.max is not None else max(lo, 0) + COUNTER_SPAN
            return tuple(range(lo, hi + 1))
        if head == "redir":
            return tuple(range(self.k))
        if head == "by":
            return (-1,)   # nobody has been put out when a state is enumerated
        if head in ("item", "ballot"):
            return tuple(range(-1, self.k))
        if head == "received":
            return (0, 1)
        if head == "spent":
            return tuple(range(0, self.limited[key[2]] + 1))
        if head == "extra":
            return (0,)   # a game starts with no extra uses granted
        if head == "strength":   # a role's strength the text does not give
            return tuple(range(0, 21))
        if head == "game_day":
            return (1, 2, 3)
        if head == "reading":   # LANGUAGE.md ambiguities: a game is read one way throughout
            return tuple(range(len(self._options(key[1]))))
        if head == "any_of":
            return (False, True)
        if head in ("alive", "dying", "status", "label", "lost", "gained", "win", "lose", "opaque", "phase_is",
                    "cause_is", "chance", "used", "targeted_by", "used_tag_on"):
            return (False, True)
        if head == "random":     # the player a 随机 effect picks (-1: none of the slots)
            return tuple(range(-1, self.k))
        if head == "choice":     # the option a choose effect takes (-1: none of them)
            return tuple(range(-1, key[3]))
        if head == "havoc":
            return self.domain(key[2])
        raise KeyError(key)

    # ---- static facts (mirror of World.produced & co.) ----------------------------------
    def _status_names(self, name: str) -> list[str]:
        if name == "$negative":
            return sorted(s.name for s in self.rs.statuses.values() if s.negative)
        if name == "$all":
            return sorted(self.rs.statuses)
        return [self.canon(name)]

    def _skill_names(self, name: str) -> list[str]:
        return sorted({s.name for s in self.rs.skills}) if name == "$all" else [name]

    def _produced(self) -> dict:
        out: dict[str, set] = {k: set() for k in ("faction", "status", "label", "role", "lost", "any_faction",
                                                   "any_status", "deck_role", "gained")}
        for e in self.rs.effects():
            a = e.args if isinstance(e.args, dict) else {}
            if e.kind == "set_faction":
                to = str(a.get("to"))
                if to != "$initial":
                    (out["any_faction"] if to.startswith("$") else out["faction"]).add(self.canon(to))
            elif e.kind == "grant_status":
                out["status"].update(self._status_names(a.get("status", "")))
            elif e.kind == "add_label":
                out["label"].add(self.canon(a.get("label", "")))
            elif e.kind in ("set_role", "create"):
                out["role"].add(a.get("to") or a.get("role"))
                if a.get("deck"):
                    out["deck_role"].add(a.get("to"))
            elif e.kind == "lose_skill":
                out["lost"].update(self._skill_names(a.get("skill", "")))
            elif e.kind == "gain_skill":
                out["gained"].update(self.granted(e)[0])
            elif e.kind == "opaque":
                for word in a.get("writes") or []:
                    head, _, arg = word.partition(":")
                    if head == "faction":
                        out["any_faction"].add("*")
                    elif head == "status":
                        out["status" if arg else "any_status"].add(arg or "*")
                    elif head == "label" and arg:
                        out["label"].add(arg)
                    elif head == "role":
                        out["role"].add(arg or "*")
                    elif head == "skills":
                        out["lost"].add("*")
        # a label an effect adds brings the statuses and labels it implies
        todo = list(out["label"])
        while todo:
            lab = self.rs.labels.get(todo.pop())
            if lab is None:
                continue
            out["status"].update(self.canon(s) for s in lab.implies_statuses)
            for x in lab.implies_labels:
                if self.canon(x) not in out["label"]:
                    out["label"].add(self.canon(x))
                    todo.append(self.canon(x))
        if "$flip" in out["role"]:
            out["role"].update(r.flip_to for r in self.rs.roles.values() if r.flip_to)
        return out

    def role_present(self, name: str) -> bool:
        role = self.rs.roles[name]
        if role.created or role.count == 0:
            return name in self.produced["role"] or "*" in self.produced["role"]
        return True

    def role_fixed(self, name: str) -> bool:
        p = self.produced["role"]
        return name not in p and "*" not in p

    def converted_to(self) -> dict:
        """Mirror of World.converted_to: faction -> roles a converted player can have (None: anyone)."""
        if getattr(self, "_converted", None) is None:
            out: dict = {}
            for sk in self.rs.skills:
                for e in sk.all_effects():
                    a = e.args if isinstance(e.args, dict) else {}
                    to = str(a.get("to"))
                    if e.kind != "set_faction" or to.startswith("$"):
                        continue
                    f = self.canon(to)
                    role = self.only_role(sk)
                    gainers = self.gainers(sk.uid) if sk.uid in self.gained else set()
                    who = a.get("who") or ("target" if sk.targets else "self")
                    if who != "self" or role is None or gainers is None:
                        out[f] = None
                    elif out.get(f, set()) is not None:
                        out[f] = out.get(f, set()) | self.becomes({role} | gainers)
            self._converted = out
        return self._converted

    def only_role(self, skill) -> str | None:
        """The one role that holds the skill: a role's own skill, or a shared one with
        owner: {role: R}; None when players of other roles may hold it."""
        if skill.owner_role:
            return skill.owner_role
        owner = skill.owner or {}
        return self.canon(owner["role"]) if "role" in owner else None

    def gainers(self, uid: str) -> set[str] | None:
        """Roles that gain the skill through their own skills, or None (anyone may)."""
        out: set[str] = set()
        for s in self.rs.skills:
            for e in s.all_effects():
                a = e.args if isinstance(e.args, dict) else {}
                if e.kind == "gain_skill" and uid in self.granted(e)[0]:
                    role = self.only_role(s)
                    if a.get("who", "self") != "self" or not role:
                        return None
                    out.add(role)
        return out

    def receivers(self, item: str) -> set[str] | None:
        """Roles that take the item themselves (or gain a skill that does), or None (anyone may)."""
        cache = self.__dict__.setdefault("_receivers_of", {})
        if item not in cache:
            cache[item] = self._receivers(item)
        return cache[item]

    def _receivers(self, item: str) -> set[str] | None:
        out: set[str] = set()
        for s in self.rs.skills:
            for e in s.all_effects():
                a = e.args if isinstance(e.args, dict) else {}
                if e.kind == "opaque" and any(str(w) in ("item", f"item:{item}") for w in a.get("writes") or []):
                    return None
                if e.kind == "give_item" and self.canon(a.get("item", "")) == item:
                    role = self.only_role(s)
                    if a.get("to", "self") != "self" or not role:
                        return None
                    out.add(role)
                    if s.uid in self.gained:
                        more = self.gainers(s.uid)
                        if more is None:
                            return None
                        out |= more
        return out

    def becomes(self, roles: set[str]) -> set[str]:
        """The roles these can turn into by their own identity changes."""
        edges: dict[str, set[str]] = {}
        to_anyone: set[str] = set()
        anything = "*" in self.produced["role"]
        for s in self.rs.skills:
            for e in s.all_effects():
                a = e.args if isinstance(e.args, dict) else {}
                if e.kind == "set_role":
                    if a.get("to") == "$flip":   # the flip table: each role turns into its own flip_to
                        for r in self.rs.roles.values():
                            if r.flip_to:
                                edges.setdefault(r.name, set()).add(r.flip_to)
                    elif a.get("who", "self") != "self" or not s.owner_role:
                        to_anyone.add(a.get("to"))   # anyone may be turned into it
                    else:
                        edges.setdefault(s.owner_role, set()).add(a.get("to"))
        if anything:
            return set(self.rs.roles)
        out = set(roles) | (to_anyone if roles else set())
        todo = list(out)
        while todo:
            for nxt in edges.get(todo.pop(), ()):
                if nxt not in out:
                    out.add(nxt)
                    todo.append(nxt)
        return out

    def role_counted(self, name: str) -> bool:
        explicit = self.produced["role"] - {"*"} - self.produced["deck_role"]
        if "$flip" in explicit:
            explicit |= {r.flip_to for r in self.rs.roles.values() if r.flip_to}
        return name not in explicit

    def initial_labels(self, role_name: str) -> set[str]:
        todo = [self.canon(x) for x in self.rs.roles[role_name].labels]
        seen: set[str] = set()
        while todo:
            lab = todo.pop()
            if lab in seen or lab not in self.rs.labels:
                continue
            seen.add(lab)
            todo.extend(self.canon(x) for x in self.rs.labels[lab].implies_labels)
        return seen

    def initial_statuses(self, role_name: str) -> set[str]:
        out = {self.canon(s) for s in self.rs.roles[role_name].statuses}
        for lab in self.initial_labels(role_name):
            out.update(self.canon(s) for s in self.rs.labels[lab].implies_statuses)
        return out

    def initial_faction(self, st, i: int) -> str:
        """The faction of the identity dealt to i."""
        return self.initial_faction_of_role(st[("dealt", i)] if self.dealt_key else st[("role", i)])

    def initial_faction_of_role(self, role: str) -> str:
        r = self.rs.roles.get(role)
        return self.canon(r.faction) if r is not None else self.factions[0]

    # ---- reachable-state facts (mirror of World.realizable), ordered so that each check
    # ---- comes right after the variables it reads (the explorer backtracks cheaply) ------
    def realizable(self, st) -> bool:
        k, rs, prod = self.k, self.rs, self.produced
        present = [r for r in sorted(rs.roles) if self.role_present(r)]
        for i in range(k):
            if st[("role", i)] not in present:
                return False
        if self.dealt_key:
            # the dealt cards keep the setup's card counts (mirror of World.realizable)
            for rname in sorted(rs.roles):
                role = rs.roles[rname]
                if isinstance(role.count, int) and not isinstance(role.count, bool) and not role.created:
                    if sum(1 for i in range(k) if st[("dealt", i)] == rname) > role.count:
                        return False
        for rname in present:
            role = rs.roles[rname]
            if isinstance(role.count, int) and not isinstance(role.count, bool) and self.role_counted(rname):
                if sum(1 for i in range(k) if st[("role", i)] == rname) > role.count:
                    return False
        for i in range(k):
            role = st[("role", i)]
            fixed = role in present and self.role_fixed(role)
            if st[("votes", i)] < 0:
                return False
            fac = st[("faction", i)]
            if not prod["any_faction"] and fac != self.initial_faction(st, i):
                conv = self.converted_to()
                if fac not in conv or (conv[fac] is not None and role not in conv[fac]):
                    return False
            if self.dealt_key:
                if st[("dealt", i)] not in self.dealt():
                    return False
                if st[("role", i)] != st[("dealt", i)] and not (role in present and not self.role_fixed(role)):
                    return False
                # a produced identity comes from a dealt one that can turn into it
                created = {(e.args or {}).get("role") for e in rs.effects() if e.kind == "create" and isinstance(e.args, dict)}
                if role in present and not self.role_fixed(role) and role not in created and \
                        role not in self.becomes({st[("dealt", i)]}):
                    return False
            perm = sorted(s for s in self.initial_statuses(role) if rs.statuses[s].permanent) if fixed else []
            for s in perm:
                if "faction_change" in rs.statuses[s].blocks and fac != self.canon(rs.roles[role].faction):
                    return False
            # a status / label no effect grants only comes with the dealt identity
            for s in self.statuses:
                v = st[("status", i, s)]
                if v and s not in prod["status"] and not prod["any_status"]:
                    if not (not self.role_fixed(role) or s in self.initial_statuses(role)):
                        return False
                if not v and s in perm:
                    return False
            fixed_labels = {x for x in self.initial_labels(role) if not rs.labels[x].removable} if fixed else set()
            for lab in self.labels:
                v = st[("label", i, lab)]
                if v and lab not in prod["label"]:
                    if not (not self.role_fixed(role) or lab in self.initial_labels(role)):
                        return False
                if not v and lab in fixed_labels:
                    return False
                if v:
                    spec = rs.labels[lab]
                    if not all(st[("status", i, self.canon(s))] for s in spec.implies_statuses):
                        return False
                    if not all(st[("label", i, self.canon(x))] for x in spec.implies_labels):
                        return False
            for sk in self.skills:
                if sk not in prod["lost"] and "*" not in prod["lost"] and "$all" not in prod["lost"]:
                    if st[("lost", i, sk)]:
                        return False
            for sk in self.gained:
                gainers = self.gainers(sk)
                if gainers is not None and st[("gained", i, sk)] and role not in self.becomes(gainers):
                    return False
        for key in self.keys:
            if key[0] == "counter":
                spec = rs.counters[key[1]]
                v = st[key]
                if (spec.min is not None and v < spec.min) or (spec.max is not None and v > spec.max):
                    return False
            elif key[0] == "item":
                if not (-1 <= st[key] < k):
                    return False
                receivers = self.receivers(key[1])
                if receivers is not None and st[key] != -1 and st[("role", st[key])] not in self.becomes(receivers):
                    return False
            elif key[0] in ("win", "lose"):
                if st[key]:
                    return False
        return True

    def dealt(self) -> list[str]:
        return [r for r in sorted(self.rs.roles) if not self.rs.roles[r].created and self.rs.roles[r].count != 0]

    def initial(self, st) -> bool:
        """A dealt game (mirror of World.initial): realizable, everyone alive as dealt."""
        dealt = self.dealt()
        for i in range(self.k):
            role = st[("role", i)]
            if role not in dealt:
                return False
            if not st[("alive", i)] or st[("dying", i)] or st[("votes", i)] != 1:
                return False
            if self.causes and st[("cause", i)] != 0:
                return False
            if self.redirects and st[("redir", i)] != i:
                return False
            if self.killers and st[("by", i)] != -1:
                return False
            if self.dealt_key and st[("dealt", i)] != role:
                return False
            if st[("faction", i)] != self.initial_faction_of_role(role):
                return False
            for s in self.statuses:
                if st[("status", i, s)] != (s in self.initial_statuses(role)):
                    return False
            for lab in self.labels:
                if st[("label", i, lab)] != (lab in self.initial_labels(role)):
                    return False
            for sk in self.skills:
                if st[("lost", i, sk)]:
                    return False
            for sk in self.gained:
                if st[("gained", i, sk)]:
                    return False
        for key in self.keys:
            if key[0] == "counter" and st[key] != self.rs.counters[key[1]].initial:
                return False
            if key[0] in ("spent", "extra") and st[key] != 0:
                return False
            if key[0] == "item" and st[key] != -1:
                return False
        return self.realizable(st)

    # ---- enumeration of concrete states ---------------------------------------------------
    def _expand(self, assigned: dict) -> Iterator[dict]:
        free = [key for key in self.keys if key not in assigned]
        for values in product(*(self.domain(key) for key in free)):
            st = {key: assigned[key] for key in self.keys if key in assigned}
            st.update(zip(free, values))
            yield st

    def states(self, pred: Callable | None = None) -> Iterator[dict]:
        """Every concrete state over self.keys satisfying pred (default: realizable)."""
        pred = pred or self.realizable
        for assigned, ok in explore(pred, self.domain):
            if ok:
                yield from self._expand(assigned)

    def complete(self, partial: dict, pred: Callable | None = None) -> dict | None:
        """A state satisfying pred (default: realizable) that agrees with partial, or None."""
        pred = pred or self.realizable
        for assigned, ok in explore(pred, self.domain, fixed=partial):
            if ok:
                out = {key: assigned.get(key, self.domain(key)[0]) for key in self.keys}
                out.update({key: v for key, v in partial.items() if key not in out})
                return out
        return None

    # ---- who ------------------------------------------------------------------------------
    def slots(self, who: Any, w: dict) -> list[tuple[int, dict | None]]:
        """Slots named by `who`, each with the filter that must hold (None: always)."""
        if who is None:
            who = "target" if "target" in w else "self"
        if isinstance(who, dict) and "any_of" in who:
            flt = who["any_of"] or {}
            tag = (repr(sorted(flt.items())) if flt else "", repr(sorted((k, v) for k, v in w.items() if isinstance(v, int))))
            return [(i, {"$chosen": ("any_of",) + tag + (i,), **flt}) for i in range(self.k)]
        if isinstance(who, dict) and "random" in who:
            # 随机一名…: a free pick, the same in both resolution orders; nobody when nobody matches
            flt = who["random"] or {}
            key = ("random", repr(sorted(flt.items())) if flt else "",
                   repr(sorted((k, v) for k, v in w.items() if isinstance(v, int))))
            if self.independent_picks and self._effect is not None:
                key += (self._effect.uid,)
            return [(i, {"$pick": key, **flt}) for i in range(self.k)]
        if isinstance(who, dict):
            return [(i, who) for i in range(self.k)]
        if isinstance(who, str) and who.startswith("holder:"):
            item = who.split(":", 1)[1]
            return [(i, {"holds": item}) for i in range(self.k)]
        if who == "all":
            return [(i, None) for i in range(self.k)]
        if who == "killer":
            who = "source"
        if who == "owner":
            who = "self"
        if who not in w:
            raise Unbound(who)
        return [(w[who], None)]

    def one(self, who: Any, w: dict) -> int:
        got = self.slots(who, w)
        if len(got) != 1:
            raise Unbound(str(who))
        return got[0][0]

    def in_slot(self, st, i: int, g: dict | None, w: dict) -> bool:
        if g is None:
            return True
        if "$pick" in g:
            return st[g["$pick"]] == i and self.filter({k: v for k, v in g.items() if k != "$pick"}, i, w, st)
        if "$chosen" in g:
            return st[g["$chosen"]] and self.filter({k: v for k, v in g.items() if k != "$chosen"}, i, w, st)
        return self.filter(g, i, w, st)

    # ---- filters, numbers, conditions ---------------------------------------------------
    def filter(self, f: dict, i: int, w: dict, st) -> bool:
        for key, val in sorted(f.items()):
            vals = val if isinstance(val, list) else [val]
            if key == "alive":
                ok = st[("alive", i)] if val else not st[("alive", i)]
            elif key == "dead":
                ok = (not st[("alive", i)]) if val else st[("alive", i)]
            elif key == "other":
                ok = not ("self" in w and val) or w["self"] != i
            elif key == "faction":
                ok = st[("faction", i)] in {self.canon(v) for v in vals}
            elif key == "not_faction":
                ok = st[("faction", i)] not in {self.canon(v) for v in vals}
            elif key == "initial_faction":
                ok = self.initial_faction(st, i) in {self.canon(v) for v in vals}
            elif key == "role":
                ok = st[("role", i)] in {self.canon(v) for v in vals}   # an undefined role: nobody's
            elif key == "not_role":
                ok = st[("role", i)] not in {self.canon(v) for v in vals}
            elif key == "has_status":
                ok = all(st[("status", i, self.canon(v))] for v in vals)
            elif key == "lacks_status":
                ok = not any(st[("status", i, self.canon(v))] for v in vals)
            elif key == "label":
                ok = all(st[("label", i, self.canon(v))] for v in vals)
            elif key == "not_label":
                ok = not any(st[("label", i, self.canon(v))] for v in vals)
            elif key == "holds":
                ok = all(st[("item", v)] == i for v in vals)
            elif key == "dying":
                ok = st[("dying", i)] == bool(val)
            elif key == "neighbour_of":
                of, living = (val.get("of"), bool(val.get("living"))) if isinstance(val, dict) else (val, False)
                ok = any(self.in_slot(st, j, g, w) and i in self.neighbours(st, j, living) for j, g in self.slots(of, w))
            elif key == "voted_for":
                ok = any(self.in_slot(st, j, g, w) and st[("ballot", i)] == j for j, g in self.slots(val, w))
            elif key == "voted_by":
                ok = any(st[("ballot", v)] == i and self.filter(val, v, w, st)
                         for v in range(self.k))
            elif key == "top_voted":
                got = [self.received(st, j) for j in range(self.k)]
                ok = (got[i] == max(got) and got[i] > 0) == bool(val)
            elif key == "targeted":
                chosen = w.get("$targets") or ((w["target"],) if "target" in w else ())
                ok = (i in chosen) == bool(val)
            elif key == "used_tag_on":
                tag = self.canon(val["tag"])
                tagged = {s.name for s in self.rs.skills if tag in {self.canon(t) for t in s.tags}}
                window = w.get("$window") or ()
                ok = any(self.in_slot(st, j, g, w) and (
                    any(u == i and name in tagged and j in ts for u, name, ts in window)
                    or st[("used_tag_on", i, j, tag)]) for j, g in self.slots(val.get("on"), w))
            elif key == "any":
                ok = any(self.filter(sub, i, w, st) for sub in val)
            elif key == "if":
                ok = self.cond(val, w, st)
            elif key == "strength":
                ok = COMPARE[val.get("op", ">=")](self.strength(st, i), self.num(val.get("value", 0), w, st))
            elif key == "counter":
                name, op, value = val
                ok = COMPARE[op](st[self.counter_key(name, None, {"self": i})], self.num(value, w, st))
            else:
                ok = True
            if not ok:
                return False
        return True

    def neighbours(self, st, j: int, living: bool) -> set[int]:
        """The seats next to j: the slots in slot order, and at a larger table the rest seated
        between the last slot and the first (living: skipping players who are out)."""
        k = self.k
        seats = list(range(k))
        if self.table and self.table["players"] > k:
            # one seat stands for the rest of the table: taken while any of them is alive
            seats.append("rest")
        taken = lambda x: (sum(st[("rest", r)] for r in self.table["rest"]) > 0) if x == "rest" else st[("alive", x)]
        here, out = seats.index(j), set()
        for step in (1, -1):
            for d in range(1, len(seats)):
                x = seats[(here + step * d) % len(seats)]
                if not living or taken(x):
                    out.add(x)
                    break
        return {x for x in out if x != "rest"} - {j}

    def voter(self, st, v: int) -> bool:
        return st[("alive", v)] or any(st[("status", v, s.name)] for s in self.rs.statuses.values() if s.keeps_vote)

    def received(self, st, i: int) -> int:
        # a ballot is cast by a voter (see the vote move) and counts for that tally even after
        # its voter goes out (mirror of Semantics.received)
        return sum(st[("votes", v)] for v in range(self.k) if st[("ballot", v)] == i) + st[("received", i)]

    def strength(self, st, i: int):
        role = self.rs.roles.get(st[("role", i)])
        if role is None:
            return 0
        return role.strength if role.strength is not None else st[("strength", role.name)]

    def num(self, n: Any, w: dict, st) -> int:
        if isinstance(n, bool):
            return int(n)
        if isinstance(n, (int, float)):
            if isinstance(n, float) and not n.is_integer():
                raise NotSupported("fractional number")
            return int(n)
        if not isinstance(n, dict):
            return 0
        if "count" in n:
            return sum(1 for i in range(self.k) if self.filter(n["count"], i, w, st)) + \
                sum(c for c, v in self.rest_views(st) if self.filter(n["count"], REST, w, v))
        if "counter" in n:
            return st[self.counter_key(n["counter"], n.get("who"), w)]
        if "players" in n:
            return self.table["players"] if self.table else self.k
        if "vote_weights" in n:
            return sum(st[("votes", i)] for i in range(self.k) if self.filter(n["vote_weights"], i, w, st)) + \
                sum(c for c, v in self.rest_views(st) if self.filter(n["vote_weights"], REST, w, v))
        if "votes_for" in n:
            return sum(self.received(st, i) for i, g in self.slots(n["votes_for"], w) if self.in_slot(st, i, g, w))
        if "strength" in n:
            return sum(self.strength(st, i) for i, g in self.slots(n["strength"], w) if self.in_slot(st, i, g, w))
        for op in ("add", "sub", "mul"):
            if op in n:
                terms = [self.num(x, w, st) for x in n[op]]
                out = terms[0]
                for t in terms[1:]:
                    out = out + t if op == "add" else out - t if op == "sub" else out * t
                return out
        if "div" in n:
            a, d = (self.num(x, w, st) for x in n["div"])
            rnd = n.get("round", "floor")
            if rnd == "ceil":
                return zdiv(a + d - 1, d)
            if rnd == "nearest":
                return zdiv(2 * a + d, 2 * d)
            return zdiv(a, d)
        if "abs" in n:
            return abs(self.num(n["abs"], w, st))
        return 0

    def counter_key(self, name: str, who: Any, w: dict) -> tuple:
        if name in self.gcounters:
            return ("counter", name)
        return ("counter", name, self.one(who or "self", w))

    def cond(self, c: Any, w: dict, st) -> bool:
        if c is None or c is True:
            return True
        if c is False:
            return False
        if "all" in c:
            return all(self.cond(x, w, st) for x in c["all"])
        if "any" in c:
            return any(self.cond(x, w, st) for x in c["any"])
        if "not" in c:
            return not self.cond(c["not"], w, st)
        if "cause" in c:
            cause = w.get("$cause")
            if cause is not None and cause != c["cause"]:
                return False
            if "victim" in w and self.causes:   # a named cause is still the victim's going out's
                return st[("cause", w["victim"])] == self.cause_value(c["cause"])
            return st[("cause_is", c["cause"])] if cause is None else True
        if "true" in c:
            return True
        if "false" in c:
            return False
        if "reading" in c:
            # the ambiguity's option: a ruling picks it, else the game is read one way (a free value)
            name, option = c["reading"]
            ruled = next((r.get("option") for r in self.rs.rulings if r.get("ambiguity") == name), None)
            if ruled is not None:
                return ruled == option
            return self._options(name)[st[("reading", name)]] == option
        if "lost" in c:
            # LANGUAGE.md: that faction has reached its lose condition, or an effect declared its loss
            f = self.rs.factions.get(c["lost"])
            return f is not None and (bool(st[("lose", f.name)]) or bool(f.lose and self.cond(f.lose, {}, st)))
        if "opaque" in c:
            return st[("opaque", repr(sorted(c.items(), key=repr)))]
        if "chance" in c:
            return st[("chance", c["chance"])]
        if "day" in c:
            day = w.get("$day")
            day = st[("game_day",)] if day is None else day
            spec = c["day"] if isinstance(c["day"], dict) else {"op": "==", "value": c["day"]}
            return COMPARE[spec.get("op", "==")](day, self.num(spec.get("value", 1), w, st))
        for key in ("used", "targeted_by"):
            if key in c:
                who, skill = c[key]
                if skill not in self.skills:
                    return False
                known = w.get(f"${key}") or set()
                return any(self.in_slot(st, i, g, w) and ((i, skill) in known or st[(key, i, skill)])
                           for i, g in self.slots(who, w))
        if "distinct" in c:
            members = [i for i in range(self.k) if self.filter(c["distinct"], i, w, st)]
            attr = {"faction": lambda i: st[("faction", i)], "role": lambda i: st[("role", i)],
                    "initial_faction": lambda i: self.initial_faction(st, i)}[c["by"]]
            values = [attr(i) for i in members]
            return len(values) == len(set(values))
        for key in ("has_status", "faction", "role", "label", "holds"):
            if key in c:
                who, name = c[key]
                flt = {key: name}
                return any(self.in_slot(st, i, g, w) and self.filter(flt, i, w, st) for i, g in self.slots(who, w))
        if "alive" in c:
            return any(self.in_slot(st, i, g, w) and st[("alive", i)] for i, g in self.slots(c["alive"], w))
        if "is" in c:
            a, b = (self.one(x, w) for x in c["is"])
            return a == b
        if "phase" in c:
            phase = w.get("$phase")
            if phase is None:
                return st[("phase_is", c["phase"])]
            return phase == c["phase"] or self.rs.window_of(phase) == c["phase"]
        if "every" in c:
            ok = lambda i, v: not self.filter(c["every"], i, w, v) or self.filter(c.get("satisfies") or {}, i, w, v)  # noqa: E731
            return all(ok(i, st) for i in range(self.k)) and all(ok(REST, v) for _, v in self.rest_views(st))
        if "none" in c:
            return not any(self.filter(c["none"], i, w, st) for i in range(self.k)) and \
                not any(self.filter(c["none"], REST, w, v) for _, v in self.rest_views(st))
        op = COMPARE[c.get("op", ">=")]
        if "count" in c:
            return op(self.num({"count": c["count"]}, w, st), self.num(c.get("value", 1), w, st))
        if "counter" in c:
            return op(st[self.counter_key(c["counter"], c.get("who"), w)], self.num(c.get("value", 0), w, st))
        if "value_of" in c:
            return op(self.num(c["value_of"], w, st), self.num(c.get("value", 0), w, st))
        return True

    # ---- effects -------------------------------------------------------------------------
    def blocked(self, st, i: int, what: str, cause: str | None = None) -> bool:
        for s in self.rs.statuses.values():
            if what in s.blocks and not (cause and cause in s.except_causes) and st[("status", i, s.name)]:
                return True
        return False

    def apply(self, e: Effect, st: View, w: dict, pc: bool = True) -> View:
        if e.guard is not None and pc:
            pc = self.cond(e.guard, w, st)
        a = e.args if isinstance(e.args, dict) else {"value": e.args}
        handler = getattr(self, f"_e_{e.kind}", None)
        self._effect = e
        new = handler(e, a, st, w, pc) if handler else st
        for sub in e.instead:
            new = self.apply(sub, new, w, pc)
        return new

    def _each(self, who, w, st, pc):
        """The slots an effect touches: resolves the words (may raise Unbound) even when
        the effect does not happen, then keeps the slots whose filter holds."""
        got = self.slots(who, w)
        if not pc:
            return []
        return [i for i, g in got if self.in_slot(st, i, g, w)]

    def _e_set_faction(self, e, a, st, w, pc):
        to = a.get("to")
        slots = self.slots(a.get("who"), w)
        if to in ("$caster", "$self", "$source"):
            src = self.one(to[1:], w)
        upd = {}
        if not pc:
            return st
        for i, g in slots:
            if not self.in_slot(st, i, g, w) or (not e.force and self.blocked(st, i, "faction_change")):
                continue
            if to in ("$caster", "$self", "$source"):
                val = st[("faction", src)]
            elif to == "$initial":
                val = self.initial_faction(st, i)
            else:
                val = self.canon(to)
            upd[("faction", i)] = val
        return st.set(upd)

    def _e_grant_status(self, e, a, st, w, pc):
        upd = {}
        for i in self._each(a.get("who"), w, st, pc):
            if not e.force and self.blocked(st, i, "status_gain"):
                continue
            for s in self._status_names(a["status"]):
                upd[("status", i, s)] = True
        return st.set(upd)

    def _e_remove_status(self, e, a, st, w, pc):
        upd = {}
        for i in self._each(a.get("who"), w, st, pc):
            for s in self._status_names(a["status"]):
                if not self.rs.statuses[s].permanent:
                    upd[("status", i, s)] = False
        return st.set(upd)

    def _e_damage(self, e, a, st, w, pc):
        kind = a.get("kind")
        upd = {}
        for i in self._each(a.get("who"), w, st, pc):
            if not st[("alive", i)]:
                continue
            if not e.force and (self.blocked(st, i, "damage", kind) or self.blocked(st, i, "out", kind)):
                continue
            upd[("dying", i)] = True
            if self.causes:
                upd[("cause", i)] = self.cause_value(kind)
            if self.killers:
                upd[("by", i)] = w.get("self", -1)
        return st.set(upd)

    def _e_out(self, e, a, st, w, pc):
        cause = a.get("cause")
        upd = {}
        for i in self._each(a.get("who"), w, st, pc):
            if not st[("alive", i)]:
                continue
            if not e.force and self.blocked(st, i, "out", cause):
                continue
            upd[("alive", i)] = False
            upd[("dying", i)] = False
            if self.causes:
                upd[("cause", i)] = self.cause_value(cause)
            if self.killers:
                upd[("by", i)] = w.get("self", -1)
        return st.set(upd)

    def _e_prevent_out(self, e, a, st, w, pc):
        return st.set({("dying", i): False
                       for i in self._each(a.get("who", "victim" if "victim" in w else "self"), w, st, pc)})

    def _e_revive(self, e, a, st, w, pc):
        return st.set({("alive", i): True for i in self._each(a.get("who"), w, st, pc)})

    def _e_set_role(self, e, a, st, w, pc):
        to = a.get("to")
        upd = {}
        for i in self._each(a.get("who"), w, st, pc):
            if to == "$flip":
                cur = st[("role", i)]
                role = self.rs.roles.get(cur)
                val = role.flip_to if role is not None and role.flip_to and role.flip_to in self.rs.roles else cur
            else:
                val = self.canon(to)
            upd[("role", i)] = val
        return st.set(upd)

    def _e_gain_skill(self, e, a, st, w, pc):
        upd = {}
        uids, _ = self.granted(e)
        for i in self._each(a.get("who", "self"), w, st, pc):
            for sk in self._skill_names(a["skill"]):
                upd[("lost", i, sk)] = False
            for uid in uids:      # a new skill, held from now on whatever the identity
                upd[("gained", i, uid)] = True
        return st.set(upd)

    def _e_lose_skill(self, e, a, st, w, pc):
        upd = {}
        for i in self._each(a.get("who", "self"), w, st, pc):
            for sk in self._skill_names(a["skill"]):
                upd[("lost", i, sk)] = True
            for uid in self.gained:
                if a["skill"] == "$all" or uid.split("/", 1)[-1] == a["skill"]:
                    upd[("gained", i, uid)] = False
        return st.set(upd)

    def _e_choose(self, e, a, st, w, pc):
        """One of the options, chosen by a player: one decision per use (both resolution
        orders see the same choice), read as ("choice", effect uid, binding, #options)."""
        pick = st[("choice", e.uid, tuple(sorted(w.items())), len(e.options))]
        for j, option in enumerate(e.options):
            for sub in option:
                st = self.apply(sub, st, w, pc and pick == j)
        return st

    def _e_add_label(self, e, a, st, w, pc):
        return st.set({("label", i, self.canon(a["label"])): True for i in self._each(a.get("who"), w, st, pc)})

    def _e_remove_label(self, e, a, st, w, pc):
        lab = self.rs.labels[self.canon(a["label"])]
        if not lab.removable:
            return st
        return st.set({("label", i, lab.name): False for i in self._each(a.get("who"), w, st, pc)})

    def _e_counter(self, e, a, st, w, pc):
        key = self.counter_key(a["name"], a.get("who", "self"), w)
        if not pc:
            return st
        cur = st[key]
        op = a.get("op", "add")
        if op == "halve":
            new = zdiv(cur, 2)
        else:
            val = self.num(a.get("value", 1), w, st)
            new = {"add": cur + val, "sub": cur - val, "set": val}.get(op, cur)
        spec = self.rs.counters[a["name"]]
        if spec.min is not None and new < spec.min:
            new = spec.min
        return st.set({key: new})

    def _vote_count(self, head: str, a, st, w, pc, default_who):
        got = self.slots(a.get("who", default_who), w)
        if not pc:
            return st
        raw = a.get("value", 1)
        # a weight the text gives as a fraction (1.5 票) is kept exact, as the engine keeps it
        val = Fraction(raw) if isinstance(raw, float) and not raw.is_integer() else self.num(raw, w, st)
        upd = {}
        for i, g in got:
            if self.in_slot(st, i, g, w):
                upd[(head, i)] = val if a.get("op") == "set" else st[(head, i)] + val
        return st.set(upd)

    def _e_vote_weight(self, e, a, st, w, pc):
        return self._vote_count("votes", a, st, w, pc, "self")

    def _e_received_votes(self, e, a, st, w, pc):
        return self._vote_count("received", a, st, w, pc, None)

    def _e_extra_use(self, e, a, st, w, pc):
        # the holder may use the skill `count` more times today; a second grant the same day adds none
        key = lambda i: ("extra", i, a.get("skill"))   # noqa: E731
        n = int(a.get("count", 1))
        return st.set({key(i): max(st[key(i)], n) for i in self._each(a.get("who", "self"), w, st, pc)
                       if a.get("skill") in self.extra})

    def _e_give_item(self, e, a, st, w, pc):
        to = self.one(a.get("to", "self"), w)
        return st.set({("item", a["item"]): to}) if pc else st

    def _faction_named(self, value: Any, w: dict, st) -> str:
        if isinstance(value, str) and value.startswith("$"):
            return st[("faction", self.one(value[1:], w))]
        return self.canon(value)

    def _e_win(self, e, a, st, w, pc):
        value = a.get("value", a.get("faction", "$self"))
        if isinstance(value, str) and value.startswith("$"):
            self.one(value[1:], w)
        return st.set({("win", self._faction_named(value, w, st)): True}) if pc else st

    def _e_lose(self, e, a, st, w, pc):
        value = a.get("value", a.get("faction", "$self"))
        if isinstance(value, str) and value.startswith("$"):
            self.one(value[1:], w)
        return st.set({("lose", self._faction_named(value, w, st)): True}) if pc else st

    def _e_opaque(self, e, a, st, w, pc):
        """The written values become unknown: each one a fresh free variable read from the
        start state as ("havoc", n, key) (n counts havocs within one run). Only the values
        of its `who` players (default self) are written; a permanent status or a non-
        removable label is never lost; a faction_change blocker still protects the faction."""
        try:
            guards = dict(self.slots(a.get("who", "self"), w))
        except Unbound:
            guards = {i: None for i in range(self.k)}
        if not pc:
            return st
        upd = {}
        for word in a.get("writes") or []:
            for key in self.keys_of(word):
                per_player = len(key) > 2 or key[0] in ("role", "faction", "alive", "dying", "votes")
                if key[0] == "counter" and len(key) == 2:
                    per_player = False
                if per_player and key[1] not in guards:
                    continue
                if per_player and not self.in_slot(st, key[1], guards[key[1]], w):
                    continue
                if key[0] == "faction" and self.blocked(st, key[1], "faction_change"):
                    continue
                self.havocs += 1
                fresh = st[("havoc", self.havocs, key)]
                if (key[0] == "status" and self.rs.statuses[key[2]].permanent) or \
                        (key[0] == "label" and not self.rs.labels[key[2]].removable):
                    fresh = st[key] or fresh
                upd[key] = fresh
        return st.set(upd)

    def keys_of(self, word: str) -> list:
        head, _, arg = word.partition(":")
        head = {"skills": "lost"}.get(head, head)
        out = []
        for key in sorted(self.keys, key=repr):
            if key[0] != head:
                continue
            if arg and head in ("status", "label", "counter", "item", "lost") and \
                    key[1 if head in ("counter", "item") else 2] != arg:
                continue
            out.append(key)
        return out

    # ---- skills ----------------------------------------------------------------------------
    def holds(self, st, i: int, skill: Skill) -> bool:
        if skill.uid in self.gained and st[("gained", i, skill.uid)]:
            return True
        if st[("lost", i, skill.name)]:
            return False
        if skill.owner_role:
            return st[("role", i)] == skill.owner_role
        for key, val in sorted((skill.owner or {}).items()):
            if key == "label" and not st[("label", i, self.canon(val))]:
                return False
            if key == "faction" and st[("faction", i)] != self.canon(val):
                return False
            if key == "status" and not st[("status", i, self.canon(val))]:
                return False
            if key == "item" and st[("item", val)] != i:
                return False
            if key == "role" and st[("role", i)] != self.canon(val):
                return False
        return True

    def enabled(self, st, skill: Skill, b: Bind) -> bool:
        trig = skill.trigger or {}
        if not self.holds(st, b.self_slot, skill):
            return False
        # the actor is checked at its turn: alive, unless the trigger answers its own going out,
        # the text lets the out holder act (holder_out), or it is targeted
        own = trig.get("event") in ("went_out", "about_to_go_out") and (
            (trig.get("on", "self") == "self" and "by" not in trig) or b.words().get("victim") == b.self_slot)
        if trig.get("event") != "targeted" and not trig.get("holder_out") and not own \
                and not st[("alive", b.self_slot)]:
            return False
        if skill.targets:
            f = skill.targets.get("filter") or {}
            for t in b.targets:
                if not self.filter(f, t, b.words(t), st):
                    return False
        if skill.condition and not self.cond(skill.condition, b.words(), st):
            return False
        on = trig.get("on")
        wd = b.words()
        if isinstance(on, dict):
            who = "self" if trig.get("event") == "targeted" else "victim"
            if who in wd and not self.filter(on, wd[who], wd, st):
                return False
        cause = trig.get("cause")
        if cause not in (None, "any") and wd.get("$cause") not in (None, cause):
            return False
        if cause not in (None, "any") and "victim" in wd and self.causes \
                and st[("cause", wd["victim"])] != self.cause_value(cause):
            return False
        if self.killers and trig.get("event") in ("went_out", "killed", "about_to_go_out") and "victim" in wd \
                and "source" in wd and not (st[("by", wd["victim"])] == wd["source"] or
                                            (st[("by", wd["victim"])] == -1 and wd["source"] == wd["victim"])):
            return False   # the source it names is whoever put the victim out (the victim itself for a vote)
        if trig.get("event") in ("went_out", "about_to_go_out") and trig.get("on", "self") == "self" \
                and "by" not in trig and "victim" in wd and wd["victim"] != b.self_slot:
            return False   # on: self -- the holder is the one going out
        # a death trigger needs its event still there (a replacement consumes the going-out)
        if trig.get("event") == "about_to_go_out" and "victim" in wd and not st[("dying", wd["victim"])]:
            return False
        if trig.get("event") == "went_out" and "victim" in wd and st[("alive", wd["victim"])]:
            return False
        if not trig and any(st[("status", b.self_slot, s.name)] for s in self.rs.statuses.values()
                            if "skills" in s.blocks and skill.name not in s.except_skills):
            return False
        tags = {self.canon(t) for t in skill.tags}
        if not trig and any(st[("status", b.self_slot, s.name)] for s in self.rs.statuses.values()
                            if tags & s.blocks_tags and not tags & s.except_tags):
            return False
        if skill.uid in self.limited:
            # LANGUAGE.md uses.shared: all holders' uses count together
            mine = [j for j in range(self.k)] if (skill.uses or {}).get("shared") else [b.self_slot]
            if sum(st[("spent", j, skill.uid)] for j in mine) >= self.limited[skill.uid]:
                return False
        return True

    @staticmethod
    def mentions_target(e: Effect) -> bool:
        def walk(x) -> bool:
            if x == "target":
                return True
            if isinstance(x, dict):
                return any(walk(v) for v in x.values())
            if isinstance(x, list):
                return any(walk(v) for v in x)
            return False
        if isinstance(e.args, dict) and "who" not in e.args and e.kind in TARGET_DEFAULT_KINDS:
            return True
        return walk(e.args) or walk(e.guard) or any(Interp.mentions_target(x) for x in e.instead)

    def run(self, st: View, skill: Skill, b: Bind) -> View:
        """Resolve the skill: effects naming the target apply once per target, in order."""
        # a chosen target whose targeting was moved (swap) is hit where it landed,
        # as the moves stood when this skill began to resolve; the mover itself is not moved
        moved = self.redirects and b.targets and not skill.trigger and \
            not any(e.kind == "swap" for e in skill.all_effects())
        lands = {t: (st[("redir", t)] if moved else t) for t in b.targets}
        for e in skill.effects:
            if self.mentions_target(e) and (len(b.targets) > 1 or moved):
                for t in b.targets:
                    st = self.apply(e, st, b.words(lands[t]))
            else:
                st = self.apply(e, st, b.words())
        return self._spend(st, skill, b)

    def _e_swap(self, e, a, st, w, pc):
        x, y = self.one(a.get("a", "target1"), w), self.one(a.get("b", "target2"), w)
        if not pc or x == y:
            return st
        return st.set({("redir", x): y, ("redir", y): x})


    def _spend(self, st: View, skill: Skill, b: Bind) -> View:
        """A declared use counts against a per-game limit, even when it fails at its turn."""
        if skill.uid in self.limited:
            return st.set({("spent", b.self_slot, skill.uid): st[("spent", b.self_slot, skill.uid)] + 1})
        return st

    def _e_refresh_skill(self, e, a, st, w, pc):
        name = a.get("skill")
        uids = [u for u in sorted(self.limited) if name in ("$all", "$chosen", None) or
                any(sk.uid == u and sk.name == name for sk in self.rs.skills)]
        return st.set({("spent", i, u): 0 for i in self._each(a.get("who", "self"), w, st, pc) for u in uids})

    def resolve(self, st: View, skill: Skill, b: Bind) -> View:
        """A pending action at its turn: it happens only if it still can."""
        return self.run(st, skill, b) if self.enabled(st, skill, b) else self._spend(st, skill, b)

    # ---- game-level questions -------------------------------------------------------------
    def faction_goal(self, st, faction: str) -> bool:
        f = self.rs.factions[faction]
        if st[("win", faction)]:
            return True
        if not f.win:
            return False
        # a faction wins through its players, and not while its own lose condition holds
        member = any(st[("faction", i)] == faction for i in range(self.k)) or \
            any(v[("faction", REST)] == faction for _, v in self.rest_views(st))
        return member and self.cond(f.win, {}, st) and not (f.lose and self.cond(f.lose, {}, st))

    def game_over(self, st) -> bool:
        """Some faction has won (one that only shares another's win does not end the game)."""
        return any(self.faction_goal(st, f) if not self.rs.factions[f].shares_win else st[("win", f)]
                   for f in self.factions)

    # ---- a table larger than the slots (a replayed game; mirror of models/encoding/table.py) ----
    def rest_views(self, st) -> list:
        """(how many, what one looks like) for the players outside the slots: per identity,
        the living (st[("rest", r)]) and the voted out, each as dealt."""
        if not self.table:
            return []
        out = []
        for r, dealt in sorted(self.table["rest"].items()):
            alive = st[("rest", r)]
            for living, count in ((True, alive), (False, dealt - alive)):
                if count:
                    out.append((count, RestPlayer(self, st, r, living)))
        return out


REST = 1000   # the index a player outside the slots is read at


class RestPlayer:
    """The state as seen at one player outside the slots: their values are the dealt ones."""

    def __init__(self, it: "Interp", st, role: str, alive: bool):
        self.it, self.st, self.role, self.alive = it, st, role, alive

    def __getitem__(self, key):
        mine = (key[0] == "counter" and len(key) == 3 and key[2] == REST) or (len(key) >= 2 and key[1] == REST)
        if not mine:
            return self.st[key]
        head, it = key[0], self.it
        if head in ("role", "dealt"):
            return self.role
        if head == "faction":
            return it.initial_faction_of_role(self.role)
        if head == "alive":
            return self.alive
        if head == "status":
            return key[2] in it.initial_statuses(self.role)
        if head == "label":
            return key[2] in it.initial_labels(self.role)
        if head == "votes":
            return 1
        if head == "counter":
            return it.rs.counters[key[1]].initial
        if head in ("spent", "received", "cause", "extra"):
            return 0
        if head in ("ballot", "by"):
            return -1
        return False   # dying, lost, gained


@dataclass
class OrderWitness:
    start: dict
    ab: dict
    ba: dict
    differing: list


def pin_ok(st, k: int, dying: tuple = (), dead: tuple = (), alive: tuple = ()) -> bool:
    """Mirror of scenarios.Pin: exactly the `dying` slots are about to go out."""
    for i in range(k):
        if st[("dying", i)] != (i in dying):
            return False
    return all(st[("alive", i)] for i in tuple(dying) + tuple(alive)) and not any(st[("alive", i)] for i in dead)


OUT_IRRELEVANT = ("status", "label", "lost", "gained", "votes", "ballot", "received")


def settle_window(it: Interp, st: View) -> View:
    """The window settles (mirror of night_end.settle_window, written from LANGUAGE.md): the
    players about to go out go out, then each going-out trigger that picks no target fires
    once for each of them, in the ruleset's order, if it still can."""
    dying = [i for i in range(it.k) if st[("dying", i)]]
    out = st.set({key: val for i in dying for key, val in ((("alive", i), False), (("dying", i), False))})
    for skill in it.rs.skills:
        if (skill.trigger or {}).get("event") != "went_out" or skill.targets or skill.is_opaque or \
                all(e.kind == "info" for e in skill.all_effects()):
            continue
        for bd in bindings(it, skill):
            words = dict(bd.others)
            if set(words) == {"victim"} and words["victim"] in dying and it.enabled(out, skill, bd):
                out = it.run(out, skill, bd)
    return out


def both_orders(it: Interp, st0, scene: list, a: tuple, b: tuple, pin: dict | None = None):
    """(ab, ba, differing keys) when the scene and both uses are enabled, else None.
    scene, a, b: (skill, Bind) pairs."""
    pin = pin or {}
    it.havocs = 0
    if not pin_ok(st0, it.k, **pin):
        return None
    # the uses happen in one window: each binding knows who used what (mirror of scenarios.in_one_window)
    window = tuple((bd.self_slot, s.name, bd.targets) for s, bd in list(scene) + [a, b])
    scene = [(s, Bind(bd.self_slot, bd.targets, bd.others, window)) for s, bd in scene]
    a = (a[0], Bind(a[1].self_slot, a[1].targets, a[1].others, window))
    b = (b[0], Bind(b[1].self_slot, b[1].targets, b[1].others, window))
    v = View(st0)
    if not all(it.enabled(v, s, bd) for s, bd in scene):
        return None
    pre = v
    for s, bd in scene:
        pre = it.run(pre, s, bd)
    if not (it.enabled(pre, *a) and it.enabled(pre, *b)):
        return None
    ab = settle_window(it, it.resolve(it.run(pre, *a), *b))
    ba = settle_window(it, it.resolve(it.run(pre, *b), *a))
    written = set(ab.writes) | set(ba.writes)
    # what a player out in both orders holds is no outcome (mirror of scenarios.OUT_IRRELEVANT),
    # nor is where targeting lands (LANGUAGE.md: swap), nor which lethal effect is the recorded
    # cause (LANGUAGE.md: going-out causes)
    # nor losing a skill one never held (mirror of scenarios.held_before)
    diff = [key for key in sorted(written, key=repr) if ab[key] != ba[key] and key[0] not in ("redir", "cause", "by", "extra") and
            (key[0] not in OUT_IRRELEVANT or ab[("alive", key[1])] or ba[("alive", key[1])]) and
            (key[0] != "lost" or held_before(it, pre, key)) and
            (key[0] != "gained" or holds_differ(it, ab, ba, key))]
    return ab, ba, diff


def holds_differ(it: Interp, ab, ba, key) -> bool:
    """A gained-skill key: the player holds the skill in one outcome and not the other (a
    gained copy of a skill held anyway is no difference)."""
    skill = next(s for s in it.rs.skills if s.uid == key[2])
    return it.holds(ab, key[1], skill) != it.holds(ba, key[1], skill)


def held_before(it: Interp, pre, key) -> bool:
    """A lost-skill key: the player held a skill of that name before the pair."""
    return any(it.holds(pre, key[1], s) for s in it.rs.skills if s.name == key[2])


def order_dependent(it: Interp, a: tuple, b: tuple, scene: list = (), pin: dict | None = None,
                    mode: str = "lazy") -> OrderWitness | None:
    """Is there a realizable state where the scene and both uses are enabled and resolving
    a then b ends differently from b then a? Returns a witness or None."""
    def q(st):
        got = both_orders(it, st, list(scene), a, b, pin)
        return got if got and got[2] else None

    if mode == "full":
        for st in it.states():
            # decisions (random picks, choices) and opaque values are not state: try each
            for assigned, got in explore(q, it.domain, fixed=st):
                if got:
                    return OrderWitness(dict(assigned), got[0].dict(it.keys), got[1].dict(it.keys), got[2])
        return None
    for assigned, got in explore(q, it.domain):
        if not got:
            continue
        full = it.complete(assigned)
        if full is not None:
            got = q(full)
            assert got, "a completed state must behave like the class it completes"
            return OrderWitness(full, got[0].dict(it.keys), got[1].dict(it.keys), got[2])
    return None


def possible(it: Interp, pred: Callable, mode: str = "lazy") -> dict | None:
    """A realizable state satisfying pred, or None."""
    if mode == "full":
        for st in it.states():
            for assigned, ok in explore(pred, it.domain, fixed=st):
                if ok:
                    return dict(assigned)
        return None
    for assigned, ok in explore(pred, it.domain):
        if ok:
            full = it.complete(assigned)
            if full is not None:
                return full
    return None


# ---- moves (mirror of reach.Transitions) -------------------------------------------------------
def uses_words(skill: Skill) -> set[str]:
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


def target_tuples(skill: Skill, k: int) -> list[tuple]:
    """LANGUAGE.md targets: a use names between min and max players (two at most are
    modelled), all different; target1/target2 tell the places apart, otherwise the order
    of two targets is immaterial."""
    if not skill.targets:
        return [()]
    lo = skill.targets.get("min", 1)
    hi = skill.targets.get("max", lo)
    lo, hi = max(1, 1 if lo is None else int(lo)), 2 if hi is None else min(2, int(hi))
    ordered = "target1" in repr(skill.effects) or "target2" in repr(skill.effects)
    out = [(j,) for j in range(k)] if lo <= 1 else []
    if hi >= 2:
        out += [(a, b) for a in range(k) for b in range(k) if a != b and (ordered or a < b)]
    return out


def bindings(it: Interp, skill: Skill) -> list[Bind]:
    words = sorted(uses_words(skill))
    out = []
    for i in range(it.k):
        for t in target_tuples(skill, it.k):
            for combo in product(range(it.k), repeat=len(words)):
                out.append(Bind(i, t, tuple(zip(words, combo))))
    return out


DECISIONS = ("random", "choice")   # per-use free decisions: a random pick, a player's choice


def outcomes(it: Interp, st: dict, skill: Skill, bd: Bind, decided: dict | None = None) -> list[tuple]:
    """Every way one use can go from the concrete state st: (enabled, the state its effects
    lead to (whether or not it is enabled), the decisions it read). Decisions (a 随机 pick, a `choose` option) are free; those in
    `decided` are taken as given. Opaque conditions / havoc values are free as well."""
    def use(o):
        it.havocs = 0
        v = View(o)
        return it.enabled(v, skill, bd), it.run(v, skill, bd).writes
    out = []
    for assigned, (en, writes) in explore(use, it.domain, fixed={**st, **(decided or {})}):
        read = {k: v for k, v in assigned.items() if k not in st and k[0] in DECISIONS}
        out.append((en, {**st, **writes}, read))
    return out


def successors(it: Interp, st: dict, skills: list[Skill], decided: dict | None = None
               ) -> Iterator[tuple[tuple, dict, dict | None]]:
    """Every state one move away: ("skill", skill, Bind) for a skill use (any slot, any
    single target), ("vote", j) for voting out an alive slot j, ("settle",) for the pending
    outs happening. With decided=None every use decides afresh (the documented reading);
    with a dict, a decision once taken is the same for the rest of the trace (what the
    engine encodes: one z3 variable per decision and binding) and the yielded third item
    is the grown dict."""
    for s in skills:
        for bd in bindings(it, s):
            try:
                got = outcomes(it, st, s, bd, decided)
            except Unbound:
                continue
            for en, new, read in got:
                if en:
                    yield ("skill", s, bd), new, (None if decided is None else {**decided, **read})
    pending_too = votes_can_pend(it, skills)
    for j in range(it.k):
        # a vote-out happens after the outs pending from the night are settled
        if not st[("alive", j)] or any(st[("dying", x)] for x in range(it.k)):
            continue
        if vote_immune(it, st, j):
            continue
        for pend in (False, True) if pending_too else (False,):
            yield from _voted_out(it, st, j, pend, decided)
    settled = dict(st)
    for i in range(it.k):
        settled[("alive", i)] = st[("alive", i)] and not st[("dying", i)]
        settled[("dying", i)] = False
    yield ("settle",), settled, decided


def votes_can_pend(it: Interp, skills: list[Skill]) -> bool:
    """A vote-out may leave the one voted out about to go out: a trigger on "about to go out"
    may answer it, unless that answer changes a vote's weight while the count is read from the
    ballots (the count would change after the fact)."""
    answering = [s for s in skills if (s.trigger or {}).get("event") == "about_to_go_out" and
                 (s.trigger or {}).get("cause") in (None, "any", "投票", "投票出局")]
    return bool(answering) and not (it.ballots and any(
        e.kind in ("vote_weight", "received_votes") for s in answering for e in s.all_effects()))


def vote_immune(it: Interp, st: dict, j: int) -> bool:
    """A status that stops going out stops a vote-out, unless it excepts the vote-out."""
    return all(it.blocked(st, j, "out", c) for c in ("投票", "投票出局"))


def _voted_out(it: Interp, st: dict, j: int, pending: bool, decided):
    out = {**st, ("alive", j): pending, ("dying", j): pending}
    if not it.ballots:
        yield ("vote", j), out, decided
        return
    # everyone casts a fresh ballot; the one voted out has the most votes (mirror of
    # reach.Transitions.ballots): one successor per distinct ballot box that allows it
    for box in product(range(-1, it.k), repeat=it.k):
        if any(box[v] != -1 and not it.voter(st, v) for v in range(it.k)):
            continue   # only a voter casts a ballot
        cast = {("ballot", v): box[v] for v in range(it.k)}
        voted = View({**st, **cast})
        got = [it.received(voted, x) for x in range(it.k)]
        if not (got[j] == max(got) and got[j] > 0):
            continue
        voting = it.rs.voting or {}
        if (voting.get("tie_out") == "none" or not voting.get("tie")) and got.count(got[j]) > 1 and not (
                voting.get("tie_break") and it.filter(voting["tie_break"], j, {}, voted)):
            continue   # nobody out on a tie (but the one a tie break names), or the text is silent
        yield ("vote", j), {**out, **cast}, decided


def setup_skills(rs: Ruleset) -> list[Skill]:
    """Skills of the one-off phases and setup triggers (mirror of reach.setup_skills)."""
    once = {p.name for p in rs.phases if p.once}
    out = []
    for s in rs.skills:
        trig = s.trigger or {}
        if s.timing and set(s.timing) <= once:
            out.append(s)
        elif trig.get("event") == "setup" or (trig.get("phase") in once):
            out.append(s)
    return out


def after_setup(it: Interp, st: dict, once: list[Skill], decided: dict | None = None) -> list[tuple[dict, dict]]:
    """Every (state, decisions) the one-off phases can leave: each setup skill, binding by
    binding, may be used when enabled (a free choice); a setup trigger that can fire fires
    at least once."""
    results = [(st, decided)]
    for s in once:
        nxt_results = []
        for start, dec in results:
            partial = [(start, dec, False, False)]      # (state, decisions, some use enabled, some use chosen)
            for bd in bindings(it, s):
                grown = []
                try:
                    for cur, d, any_en, any_ch in partial:
                        for en, new, read in outcomes(it, cur, s, bd, d):
                            d2 = None if d is None else {**d, **read}
                            grown.append((cur, d2, any_en or en, any_ch))
                            if en:
                                grown.append((new, d2, True, True))
                except Unbound:
                    continue
                partial = grown
            for cur, d, any_en, any_ch in partial:
                if (s.trigger or {}).get("event") == "setup" and any_en and not any_ch:
                    continue
                nxt_results.append((cur, d))
        results = nxt_results
    return results


def _freeze(it: Interp, st: dict, decided: dict | None) -> tuple:
    return tuple(st[k] for k in it.keys), tuple(sorted((decided or {}).items(), key=repr))


def start_states(it: Interp, shared: bool = False) -> list[tuple[dict, dict | None]]:
    """Every dealt game once the one-off phases are over (distinct), with its decisions."""
    once = setup_skills(it.rs)
    out, seen = [], set()
    for dealt in it.states(it.initial):
        for st, dec in after_setup(it, dealt, once, {} if shared else None):
            fz = _freeze(it, st, dec)
            if fz not in seen:
                seen.add(fz)
                out.append((st, dec))
    return out


def reach(it: Interp, goal: Callable[[dict], bool], depth: int, skills: list[Skill],
          shared: bool = False) -> list | None:
    """Breadth-first over concrete states from every dealt game after setup: a shortest
    trace (at most depth moves) to a state where goal holds, as [(None, start), (move,
    state), ...], or None. shared=True: decisions are shared by the whole trace (see
    successors)."""
    once = setup_skills(it.rs)
    skills = [s for s in skills if s not in once]
    frontier = [(st, dec, [(None, st)]) for st, dec in start_states(it, shared)]
    seen = {_freeze(it, st, dec) for st, dec, _ in frontier}
    for d in range(depth + 1):
        nxt = []
        for st, dec, path in frontier:
            if goal(st):
                return path
            if d == depth or any(it.faction_goal(View(st), f) for f in it.rs.factions):
                continue  # play stops once a faction has won
            for move, new, dec2 in successors(it, st, skills, dec):
                fz = _freeze(it, new, dec2)
                if fz not in seen:
                    seen.add(fz)
                    nxt.append((new, dec2, path + [(move, new)]))
        frontier = nxt
    return None


def forced_contradictions(it: Interp, mode: str = "lazy", reading: str = "documented") -> set[tuple[str, str]]:
    """(skill uid, status) pairs: an effect marked `force` meets a status that forbids it,
    in some realizable state where the skill is enabled (self = P1, target = P2).

    reading="engine" asks what analyses/contradiction.py asks: the victim holds a status
    whose `blocks` names the effect's kind, and the effect's guard holds, both in the state
    before the skill resolves. reading="documented" follows LANGUAGE.md: the guard is
    evaluated when the effect resolves (after the skill's earlier effects), the victim
    holds the status at that moment, a status does not forbid an out/damage whose cause/
    kind it lists under `except`, and an out/damage only happens to a living player."""
    documented = reading == "documented"
    what_of = {"set_faction": "faction_change", "out": "out", "damage": "damage", "grant_status": "status_gain"}
    out: set[tuple[str, str]] = set()
    for skill in it.rs.skills:
        for e in skill.all_effects():
            if not e.force or e.kind not in what_of:
                continue
            a = e.args if isinstance(e.args, dict) else {}
            who = a.get("who", "target")
            who = who if isinstance(who, str) else "target"
            if who not in ("self", "target"):
                continue
            bd = Bind(0, (1,) if skill.targets else ())
            victim = 1 if who == "target" and skill.targets else 0
            cause = a.get("cause") if e.kind == "out" else a.get("kind") if e.kind == "damage" else None
            pos = [i for i, x in enumerate(skill.effects) if x is e]
            before = skill.effects[:pos[0]] if pos else []
            for s in sorted(it.rs.statuses.values(), key=lambda s: s.name):
                blocks = {"damage", "out"} & s.blocks if e.kind == "damage" else {what_of[e.kind]} & s.blocks
                if not blocks:
                    continue
                if documented and e.kind in ("out", "damage") and cause and cause in s.except_causes:
                    continue

                def pred(st, s=s, skill=skill, bd=bd, e=e, victim=victim, before=before):
                    if not it.enabled(st, skill, bd):
                        return False
                    at = View(st)
                    if documented:
                        for x in before:
                            try:
                                at = it.apply(x, at, bd.words())
                            except Unbound:   # a swap of two targets, in a one-target binding
                                return False
                        if e.kind in ("out", "damage") and not at[("alive", victim)]:
                            return False
                    return at[("status", victim, s.name)] and (e.guard is None or it.cond(e.guard, bd.words(), at))
                if possible(it, pred, mode) is not None:
                    out.add((skill.uid, s.name))
    return out
