"""The encoded world of one ruleset: sorts, states, what a reachable state may look
like (a sound over-approximation), who holds a skill, and a skill's transition."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import z3

from ..domain import Ruleset, Skill
from .connectives import And, If, Implies, Not, Or
from .quiet import needs_living_holder, on_own_going_out
from .semantics import Semantics, Unbound, writes_of
from .sorts import GOING_OUT_EVENTS, REDIRECT_KINDS, State, StateFactory, Vocabulary, make_sorts

ACTIVE_WHO = ("self", "target")


def mentions_target(e) -> bool:
    """Does the effect (or its guard) refer to the skill's target?"""
    def walk(x) -> bool:
        if x == "target":
            return True
        if isinstance(x, dict):
            return any(walk(v) for v in x.values())
        if isinstance(x, list):
            return any(walk(v) for v in x)
        return False
    if isinstance(e.args, dict) and "who" not in e.args and e.kind in ("set_faction", "grant_status", "remove_status",
                                                                         "damage", "out", "revive", "set_role", "add_label"):
        return True
    return walk(e.args) or walk(e.guard) or any(mentions_target(x) for x in e.instead)


@dataclass
class Binding:
    """Concrete slots for the words of a skill: self, targets, and trigger participants."""
    self_slot: int
    targets: tuple[int, ...] = ()
    others: tuple[tuple[str, int], ...] = ()   # caster / source / victim
    # the other uses a scenario puts in the same window: (slot, skill name, targets)
    window: tuple[tuple[int, str, tuple[int, ...]], ...] = ()

    def as_dict(self, target: int | None = None) -> dict:
        d = {"self": self.self_slot, **dict(self.others)}
        if self.window:
            # sorted tuples, not sets: bindings name decision variables, which must be stable
            d["$used"] = tuple(sorted({(i, name) for i, name, _ in self.window}))
            d["$targeted_by"] = tuple(sorted({(t, name) for _, name, ts in self.window for t in ts}))
            d["$window"] = tuple(sorted(self.window))
        if self.targets:
            d["$targets"] = self.targets
            d |= {f"target{n}": t for n, t in enumerate(self.targets, 1)}   # 第一名/第二名目标
        if target is not None:
            d["target"] = target
        elif self.targets:
            d["target"] = self.targets[0]
        return d


class World:
    def __init__(self, rs: Ruleset, k: int | None = None):
        self.rs = rs
        self.k = k or int(rs.bounds["players"])
        self.ctx = z3.Context()
        self.sorts = make_sorts(rs, self.ctx)
        self.vocab = Vocabulary.of(rs, self.k)
        self.factory = StateFactory(self.sorts, self.vocab)
        self.sem = Semantics(rs, self.sorts, self.factory)
        self._states = 0
        self.derived: list = []   # proven invariants, see strengthen()

    def state(self, prefix: str = "s") -> State:
        self._states += 1
        return self.factory.fresh_state(f"{prefix}{self._states}")

    def T(self):
        return z3.BoolVal(True, self.ctx)

    # ---- static facts of the ruleset ------------------------------------------------------
    @cached_property
    def produced(self) -> dict[str, set]:
        """What effects anywhere in the ruleset can produce, per kind."""
        out: dict[str, set] = {"faction": set(), "status": set(), "label": set(), "role": set(), "lost": set(),
                               "any_faction": set(), "any_status": set(), "deck_role": set(), "gained": set()}
        for e in self.rs.effects():
            a = e.args if isinstance(e.args, dict) else {}
            if e.kind == "set_faction":
                to = a.get("to")
                if to != "$initial":   # back to one's own initial faction is always possible
                    (out["any_faction"] if str(to).startswith("$") else out["faction"]).add(self.sem.canon(str(to)))
            elif e.kind == "grant_status":
                out["status"].update(self.sem._status_names(a.get("status", "")))
            elif e.kind == "add_label":
                out["label"].add(self.sem.canon(a.get("label", "")))
            elif e.kind in ("set_role", "create"):
                out["role"].add(a.get("to") or a.get("role"))
                if a.get("deck"):
                    out["deck_role"].add(a.get("to"))
            elif e.kind == "lose_skill":
                out["lost"].update(self.sem._skill_names(a.get("skill", "")))
            elif e.kind == "gain_skill":
                out["gained"].update(self.rs.granted_by(e)[0])
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
        # labels added by effects bring the statuses and labels they imply
        todo = list(out["label"])
        while todo:
            lab = self.rs.labels.get(todo.pop())
            if lab is None:
                continue
            out["status"].update(self.sem.canon(s) for s in lab.implies_statuses)
            for x in lab.implies_labels:
                if self.sem.canon(x) not in out["label"]:
                    out["label"].add(self.sem.canon(x))
                    todo.append(self.sem.canon(x))
        if "$flip" in out["role"]:
            out["role"].update(r.flip_to for r in self.rs.roles.values() if r.flip_to)
        return out

    @cached_property
    def converted_to(self) -> dict[str, set[str] | None]:
        """Per faction an effect converts to: the roles (current identities) a converted
        player can have, or None for anyone. Converting oneself with one's own role's skill
        ("转变为…阵营" when a faction is eliminated) reaches only that role and what it turns into."""
        out: dict[str, set[str] | None] = {}
        for s in self.rs.skills:
            for e in s.all_effects():
                a = e.args if isinstance(e.args, dict) else {}
                to = str(a.get("to"))
                if e.kind != "set_faction" or to.startswith("$"):
                    continue
                f = self.sem.canon(to)
                role = self.only_role(s)
                gainers = self.gainers(s.uid) if s.uid in self.vocab.gained else set()
                who = a.get("who") or ("target" if s.targets else "self")
                if who != "self" or role is None or gainers is None:
                    out[f] = None
                elif out.get(f, set()) is not None:
                    out[f] = out.get(f, set()) | self.becomes({role} | gainers)
        return out

    @cached_property
    def created_roles(self) -> set[str]:
        """Roles an effect brings into play as extra characters (create)."""
        return {(e.args or {}).get("role") for e in self.rs.effects() if e.kind == "create" and isinstance(e.args, dict)}

    def role_present(self, name: str) -> bool:
        role = self.rs.roles[name]
        if role.created or role.count == 0:
            return name in self.produced["role"] or "*" in self.produced["role"]
        return True

    def role_fixed(self, name: str) -> bool:
        """True when a slot with this role has held it since the start of the game."""
        return name not in self.produced["role"] and "*" not in self.produced["role"]

    def only_role(self, skill) -> str | None:
        """The one role that holds the skill: a role's own skill, or a shared one with
        owner: {role: R}; None when players of other roles may hold it."""
        if skill.owner_role:
            return skill.owner_role
        owner = skill.owner or {}
        return self.sem.canon(owner["role"]) if "role" in owner else None

    def gainers(self, uid: str) -> set[str] | None:
        """Roles that can gain the skill (their own skills grant it to themselves), or None
        when some effect grants it to other players or a shared skill does."""
        out: set[str] = set()
        for s in self.rs.skills:
            for e in s.all_effects():
                a = e.args if isinstance(e.args, dict) else {}
                if e.kind == "gain_skill" and uid in self.rs.granted_by(e)[0]:
                    role = self.only_role(s)
                    if a.get("who", "self") != "self" or not role:
                        return None
                    out.add(role)
        return out

    def receivers(self, item: str) -> set[str] | None:
        """Roles that can come to hold the item (their own skills give it to themselves, or
        roles that gain such a skill), or None when some effect hands it to others, a shared
        skill gives it, or an opaque effect writes it."""
        cache = self.__dict__.setdefault("_receivers_of", {})
        if item not in cache:
            cache[item] = self._receivers(item)
        return cache[item]

    def _receivers(self, item: str) -> set[str] | None:
        out: set[str] = set()
        for s in self.rs.skills:
            for e in s.all_effects():
                a = e.args if isinstance(e.args, dict) else {}
                writes = [str(w) for w in a.get("writes") or []] if e.kind == "opaque" else []
                if "item" in writes or f"item:{item}" in writes:
                    return None
                if e.kind != "give_item" or self.sem.canon(a.get("item", "")) != item:
                    continue
                role = self.only_role(s)
                if a.get("to", "self") != "self" or not role:
                    return None
                out.add(role)
                if s.uid in self.vocab.gained:
                    more = self.gainers(s.uid)
                    if more is None:
                        return None
                    out |= more
        return out

    def becomes(self, roles: set[str]) -> set[str]:
        """The roles these can turn into through their own identity changes (closure)."""
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
        # a card taken from the deck (deck: true) keeps the card counts
        explicit = self.produced["role"] - {"*"} - self.produced["deck_role"]
        if "$flip" in explicit:
            explicit |= {r.flip_to for r in self.rs.roles.values() if r.flip_to}
        return name not in explicit

    def initial_statuses(self, role_name: str) -> set[str]:
        role = self.rs.roles[role_name]
        out = {self.sem.canon(s) for s in role.statuses}
        for lab in self.initial_labels(role_name):
            out.update(self.sem.canon(s) for s in self.rs.labels[lab].implies_statuses)
        return out

    def initial_labels(self, role_name: str) -> set[str]:
        todo = [self.sem.canon(x) for x in self.rs.roles[role_name].labels]
        seen: set[str] = set()
        while todo:
            lab = todo.pop()
            if lab in seen or lab not in self.rs.labels:
                continue
            seen.add(lab)
            todo.extend(self.sem.canon(x) for x in self.rs.labels[lab].implies_labels)
        return seen

    # ---- states ---------------------------------------------------------------------------
    def realizable(self, st: State, derived: bool = True) -> list[z3.BoolRef]:
        """Constraints every reachable state satisfies (an over-approximation).
        derived=False: without the invariants proven over the slots alone (a state of a game
        at the table, where a condition counting the whole table can let an effect happen
        that the slots alone never allow)."""
        sem, sorts, prod = self.sem, self.sorts, self.produced
        cs: list[z3.BoolRef] = []
        present = [r for r in sorted(self.rs.roles) if self.role_present(r)]
        for i in range(self.k):
            role = st[("role", i)]
            cs.append(Or([role == sorts.roles[r] for r in present]))
            cs.append(st[("votes", i)] >= 0)
            if self.vocab.causes:
                cs.append(And(st[("cause", i)] >= 0, st[("cause", i)] <= len(self.vocab.causes)))
            if self.vocab.redirects:
                cs.append(And(st[("redir", i)] >= 0, st[("redir", i)] < self.k))
            if self.vocab.killers:
                cs.append(And(st[("by", i)] >= -1, st[("by", i)] < self.k))
            if self.vocab.ballots:
                cs.append(And(st[("ballot", i)] >= -1, st[("ballot", i)] < self.k))
            if self.vocab.dealt:
                dealt = [r for r in sorted(self.rs.roles) if not self.rs.roles[r].created and self.rs.roles[r].count != 0]
                cs.append(Or([st[("dealt", i)] == sorts.roles[r] for r in dealt] + [z3.BoolVal(False, self.ctx)]))
                # an identity no effect produces is the dealt one
                cs.append(Or([st[("role", i)] == st[("dealt", i)]] +
                                [role == sorts.roles[r] for r in present if not self.role_fixed(r) and r in sorts.roles]))
                # a produced identity comes from a dealt one that can turn into it
                for r in present:
                    if self.role_fixed(r) or r not in sorts.roles or r in self.created_roles:
                        continue  # a created character has no dealt card of its own
                    origins = [d for d in dealt if r in self.becomes({d})]
                    cs.append(Implies(role == sorts.roles[r],
                                         Or([st[("dealt", i)] == sorts.roles[d] for d in origins] +
                                               [z3.BoolVal(False, self.ctx)])))
            any_faction = bool(prod["any_faction"])
            if not any_faction:
                # a faction an effect converts to: anyone, or only the roles whose own skill does it
                ways = [st[("faction", i)] == sem.initial_faction(st, i)]
                for f, roles in sorted(self.converted_to.items()):
                    if f not in sorts.factions:
                        continue
                    who = z3.BoolVal(True, self.ctx) if roles is None else \
                        Or([role == sorts.roles[r] for r in sorted(roles) if r in sorts.roles] + [z3.BoolVal(False, self.ctx)])
                    ways.append(And(st[("faction", i)] == sorts.factions[f], who))
                cs.append(Or(ways))
            # a status or label no effect grants can only come from the dealt identity
            unfixed = [sorts.roles[r] for r in present if not self.role_fixed(r)]
            for s in self.vocab.statuses:
                if s not in prod["status"] and not prod["any_status"]:
                    origin = [sorts.roles[r] for r in present if s in self.initial_statuses(r)] + unfixed
                    cs.append(Implies(st[("status", i, s)], Or([role == r for r in origin] + [z3.BoolVal(False, self.ctx)])))
            for lab in self.vocab.labels:
                if lab not in prod["label"]:
                    origin = [sorts.roles[r] for r in present if lab in self.initial_labels(r)] + unfixed
                    cs.append(Implies(st[("label", i, lab)], Or([role == r for r in origin] + [z3.BoolVal(False, self.ctx)])))
                spec = self.rs.labels[lab]
                for s in spec.implies_statuses:
                    cs.append(Implies(st[("label", i, lab)], st[("status", i, sem.canon(s))]))
                for sub in spec.implies_labels:
                    cs.append(Implies(st[("label", i, lab)], st[("label", i, sem.canon(sub))]))
            for sk in self.vocab.skills:
                if sk not in prod["lost"] and "*" not in prod["lost"] and "$all" not in prod["lost"]:
                    cs.append(Not(st[("lost", i, sk)]))
            for sk in self.vocab.gained:
                gainers = self.gainers(sk)
                if gainers is not None:
                    # only a holder of a skill that grants it to itself can have gained it
                    # (or what that holder can turn into)
                    ok = [role == sorts.roles[r] for r in sorted(self.becomes(gainers)) if r in sorts.roles]
                    cs.append(Implies(st[("gained", i, sk)], Or(ok + [z3.BoolVal(False, self.ctx)])))
            for rname in present:
                if not self.role_fixed(rname):
                    continue
                is_r = role == sorts.roles[rname]
                for s in sorted(self.initial_statuses(rname)):
                    if self.rs.statuses[s].permanent:
                        cs.append(Implies(is_r, st[("status", i, s)]))
                        if "faction_change" in self.rs.statuses[s].blocks:
                            cs.append(Implies(is_r, st[("faction", i)] == sorts.factions[sem.canon(self.rs.roles[rname].faction)]))
                for lab in sorted(self.initial_labels(rname)):
                    if not self.rs.labels[lab].removable:
                        cs.append(Implies(is_r, st[("label", i, lab)]))
        if self.vocab.dealt:
            # the dealt cards keep the setup's card counts
            for rname in sorted(self.rs.roles):
                role = self.rs.roles[rname]
                if isinstance(role.count, int) and not isinstance(role.count, bool) and not role.created and rname in sorts.roles:
                    cs.append(z3.Sum([If(st[("dealt", i)] == sorts.roles[rname], 1, 0) for i in range(self.k)]) <= role.count)
        for rname in present:
            role = self.rs.roles[rname]
            # Identity cards are not created by an opaque swap: counts hold unless an effect
            # explicitly turns someone into this role (stated as an assumption in the report).
            if isinstance(role.count, int) and self.role_counted(rname):
                cs.append(z3.Sum([If(st[("role", i)] == sorts.roles[rname], 1, 0) for i in range(self.k)]) <= role.count)
        for name in self.vocab.global_counters + self.vocab.player_counters:
            spec = self.rs.counters[name]
            keys = [k for k in st.terms if k[0] == "counter" and k[1] == name]
            for key in keys:
                if spec.min is not None:
                    cs.append(st[key] >= spec.min)
                if spec.max is not None:
                    cs.append(st[key] <= spec.max)
        for it in self.vocab.items:
            cs.append(And(st[("item", it)] >= -1, st[("item", it)] < self.k))
            receivers = self.receivers(it)
            if receivers is not None:
                # only a player whose own skill takes the item can hold it (or what they turn into)
                ok = sorted(r for r in self.becomes(receivers) if r in sorts.roles)
                cs += [Implies(st[("item", it)] == i, Or([st[("role", i)] == sorts.roles[r] for r in ok] +
                                                             [z3.BoolVal(False, self.ctx)])) for i in range(self.k)]
        cs += [st[("rest", r)] >= 0 for r in self.vocab.rest_roles]
        for f in self.vocab.factions:
            cs.append(Not(st[("win", f)]))
            cs.append(Not(st[("lose", f)]))
        for uid, count in self.vocab.limited:
            cs += [And(st[("spent", i, uid)] >= 0, st[("spent", i, uid)] <= count) for i in range(self.k)]
        cs += [st[("extra", i, sk)] >= 0 for sk in self.vocab.extra for i in range(self.k)]
        cs += [fact.build(st) for fact in self.derived] if derived else []
        return cs + self.sem.reading_domain()

    def strengthen(self, solver, known: list[str] | None = None, changed: list | None = None) -> list:
        """Add the proven slot invariants (Houdini) to every realizable state from now on.
        known/changed: facts proven before an edit and the skills the edit touched; then only
        those skills are re-checked, unless they break a fact."""
        from .invariants import houdini, slot_facts
        candidates = slot_facts(self)
        if known is not None and changed is not None:
            start = [f for f in candidates if f.name in set(known)]
            kept, unknown = houdini(self, solver, start, "derive", only=changed)
            if unknown is None and len(kept) == len(start):
                self.derived = kept
                return kept
            candidates = kept
        facts, unknown = houdini(self, solver, candidates, "derive")
        self.derived = facts
        return facts

    def initial(self, st: State) -> list[z3.BoolRef]:
        """The start of a game: every slot as dealt."""
        sem, sorts = self.sem, self.sorts
        cs = self.realizable(st)
        dealt = [r for r in sorted(self.rs.roles) if not self.rs.roles[r].created and self.rs.roles[r].count != 0]
        for i in range(self.k):
            role = st[("role", i)]
            cs.append(Or([role == sorts.roles[r] for r in dealt]))
            cs.append(st[("alive", i)])
            cs.append(Not(st[("dying", i)]))
            cs.append(st[("faction", i)] == sem.initial_faction(st, i))
            cs.append(st[("votes", i)] == 1)
            if self.vocab.dealt:
                cs.append(st[("dealt", i)] == role)
            if self.vocab.ballots:
                cs += [st[("ballot", i)] == -1, st[("received", i)] == 0]
            for s in self.vocab.statuses:
                having = [r for r in dealt if s in self.initial_statuses(r)]
                cs.append(st[("status", i, s)] == Or([role == sorts.roles[r] for r in having] + [z3.BoolVal(False, self.ctx)]))
            for lab in self.vocab.labels:
                having = [r for r in dealt if lab in self.initial_labels(r)]
                cs.append(st[("label", i, lab)] == Or([role == sorts.roles[r] for r in having] + [z3.BoolVal(False, self.ctx)]))
            for sk in self.vocab.skills:
                cs.append(Not(st[("lost", i, sk)]))
            for sk in self.vocab.gained:
                cs.append(Not(st[("gained", i, sk)]))
        for name in self.vocab.global_counters + self.vocab.player_counters:
            for key in [k for k in st.terms if k[0] == "counter" and k[1] == name]:
                cs.append(st[key] == self.rs.counters[name].initial)
        for it in self.vocab.items:
            cs.append(st[("item", it)] == -1)
        for uid, _ in self.vocab.limited:
            cs += [st[("spent", i, uid)] == 0 for i in range(self.k)]
        if self.vocab.causes:
            cs += [st[("cause", i)] == 0 for i in range(self.k)]
        if self.vocab.redirects:
            cs += [st[("redir", i)] == i for i in range(self.k)]
        if self.vocab.killers:
            cs += [st[("by", i)] == -1 for i in range(self.k)]
        cs += [st[("extra", i, sk)] == 0 for sk in self.vocab.extra for i in range(self.k)]
        return cs + self.sem.reading_domain()

    # ---- skills -----------------------------------------------------------------------------
    def holds(self, st: State, i: int, skill: Skill) -> z3.BoolRef:
        sem, sorts = self.sem, self.sorts
        lost = Not(st[("lost", i, skill.name)])
        gained = st.get(("gained", i, skill.uid))
        if skill.owner_role:
            own = And(st[("role", i)] == sorts.roles[skill.owner_role], lost)
            return Or(own, gained) if gained is not None else own
        parts = []
        for key, val in sorted((skill.owner or {}).items()):
            if key == "label":
                parts.append(st[("label", i, sem.canon(val))])
            elif key == "faction":
                parts.append(st[("faction", i)] == sorts.factions[sem.canon(val)])
            elif key == "status":
                parts.append(st[("status", i, sem.canon(val))])
            elif key == "item":
                parts.append(st[("item", val)] == i)
            elif key == "role":
                parts.append(st[("role", i)] == sorts.roles[sem.canon(val)])
        held = And(parts + [lost])
        return Or(held, gained) if gained is not None else held

    def can_hold(self, skill: Skill) -> list[str]:
        """Roles whose slots may hold the skill (for scenario text); [] for shared skills."""
        return [skill.owner_role] if skill.owner_role else []

    def enabled(self, st: State, skill: Skill, b: Binding) -> z3.BoolRef:
        """The skill may be used / fire with this binding in state st."""
        sem = self.sem
        parts = [self.holds(st, b.self_slot, skill)]
        trig = skill.trigger or {}
        if needs_living_holder(trig, b.as_dict().get("victim"), b.self_slot):
            parts.append(st[("alive", b.self_slot)])
        if skill.targets:
            f = skill.targets.get("filter") or {}
            for t in b.targets:
                parts.append(sem.filter(f, t, b.as_dict(t), st))
        if skill.condition:
            parts.append(sem.cond(skill.condition, b.as_dict(), st))
        on = trig.get("on")
        bd = b.as_dict()
        if isinstance(on, dict):
            # the player the event happens to: the targeted player (the holder in our
            # scenarios) for targeted, the one going out otherwise
            who = "self" if trig.get("event") == "targeted" else "victim"
            if who in bd:
                parts.append(sem.filter(on, bd[who], bd, st))
        cause = trig.get("cause")
        if cause not in (None, "any") and bd.get("$cause") not in (None, cause):
            parts.append(z3.BoolVal(False, self.ctx))
        elif cause not in (None, "any") and "victim" in bd and self.vocab.causes:
            # a scenario that names the cause ($cause) still needs the victim's going out to
            # have it: in a game, the move that made them go out says why
            parts.append(sem.cause_is(st, bd["victim"], cause))
        if self.vocab.killers and trig.get("event") in GOING_OUT_EVENTS and "victim" in bd and "source" in bd:
            # the killer it names is the one whose move put the victim out (not any player); a
            # vote-out has none: the source then stands for the victim (LANGUAGE.md, 没有来源)
            by = st[("by", bd["victim"])]
            parts.append(Or(by == bd["source"], And(by == -1, bd["source"] == bd["victim"])))
        if on_own_going_out(trig) and "victim" in bd and bd["victim"] != b.self_slot:
            parts.append(z3.BoolVal(False, self.ctx))   # "on: self": the one going out is the holder
        # the event a death trigger answers must still be there: a replacement that resolved
        # first ("免于此次出局") has consumed the going-out, so a second one has nothing to replace
        if trig.get("event") == "about_to_go_out" and "victim" in bd:
            parts.append(st[("dying", bd["victim"])])
        elif trig.get("event") == "went_out" and "victim" in bd:
            parts.append(Not(st[("alive", bd["victim"])]))
        block = Or(sem.skills_blocked(st, b.self_slot, skill), sem.tags_blocked(st, b.self_slot, skill))
        if not trig:
            parts.append(Not(block))
        spent = st.get(("spent", b.self_slot, skill.uid))
        if spent is not None and (skill.uses or {}).get("shared"):
            # a team's limit (统一意见…): every holder's uses count together
            parts.append(z3.Sum([st[("spent", j, skill.uid)] for j in range(self.k)]) < self.limit_of(skill))
        elif spent is not None:
            parts.append(spent < self.limit_of(skill))
        return And(parts)

    def limit_of(self, skill: Skill) -> int:
        return dict(self.vocab.limited)[skill.uid]

    def blockers_of(self, what: str) -> set[str]:
        return {s.name for s in self.rs.statuses.values() if what in s.blocks}

    def run(self, st: State, skill: Skill, b: Binding, pc: z3.BoolRef | None = None) -> State:
        """The state after the skill resolves with binding b: effects that name the target
        apply once per target (in order); the others apply once. Nothing changes where pc
        (when given) is false."""
        landing = self._landing(st, skill, b)
        for e in skill.effects:
            if mentions_target(e) and landing:
                for t in b.targets:
                    for j, g in landing[t]:
                        st = self.sem.apply(e, st, b.as_dict(j), g if pc is None else And(pc, g))
            elif mentions_target(e) and len(b.targets) > 1:
                for t in b.targets:
                    st = self.sem.apply(e, st, b.as_dict(t), pc)
            else:
                st = self.sem.apply(e, st, b.as_dict(), pc)
        key = ("spent", b.self_slot, skill.uid)
        if key in st.terms:
            # declared is spent: a use blocked or cancelled at its turn still counts
            st = st.set({key: st[key] + 1})
        return st

    def _landing(self, st: State, skill: Skill, b: Binding) -> dict | None:
        """Where each chosen target's effects land, when a swap may have moved the
        targeting of that player: {target: [(player, guard)]}, read as the skill resolves. A
        skill that moves targeting itself (its targets are the ones it swaps) is not moved."""
        if not self.vocab.redirects or not b.targets or skill.trigger or \
                any(e.kind in REDIRECT_KINDS for e in skill.all_effects()):
            return None
        return {t: [(j, st[("redir", t)] == j) for j in range(self.k)] for t in b.targets}

    def resolve(self, st: State, skill: Skill, b: Binding) -> State:
        """One pending action at its turn in a window, the way a judge resolves it: checked
        again in the state the actions before it left (actor alive, still holding the skill,
        not blocked, targets still valid, the event it answers still there); if it no
        longer can happen it does nothing."""
        return self.run(st, skill, b, self.enabled(st, skill, b))

    def writes(self, skill: Skill) -> set[str]:
        out: set[str] = set()
        for e in skill.effects:
            out |= writes_of(e)
        return out


__all__ = ["World", "Binding", "Unbound"]
