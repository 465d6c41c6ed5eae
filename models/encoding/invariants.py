"""Houdini: from candidate facts about every player slot, keep those that hold once setup
is over and that every effect (any skill, any binding, votes, settling) preserves. What
survives is a proven invariant of the game within the bounds."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import z3

from ..domain import Skill
from .connectives import And, Implies, Not, Or
from .semantics import Unbound
from .solver import Answer, Session, Solver
from .sorts import State
from .world import World


@dataclass
class Fact:
    name: str
    text: str
    build: Callable[[State], z3.BoolRef]
    reads: frozenset = frozenset()   # ("status", S), ("label", L), ("role",), ("faction",); empty = anything


def _touched(pre: State, post: State) -> set:
    out = set()
    for key, term in post.terms.items():
        before = pre.terms[key]
        if term is not before and not term.eq(before):
            out.add((key[0],) if key[0] in ("role", "faction") else (key[0], key[-1]))
    return out


def _prune(session: Session, hyp: list, facts: list[Fact], post: State, purpose: str) -> tuple[list[Fact], Answer | None]:
    facts = list(facts)
    while facts:
        terms = [c.build(post) for c in facts]
        ans = session.check(hyp + [Or([Not(t) for t in terms])], purpose)
        if ans.status == "unknown":
            return facts, ans
        if not ans.sat:
            return facts, None
        facts = [c for c, t in zip(facts, terms) if z3.is_true(ans.model.eval(t, model_completion=True))]
    return facts, None


def step_relations(world: World, skills: list[Skill], pre: State) -> list[tuple[z3.BoolRef, State]]:
    from .reach import bindings_for
    out = []
    for s in skills:
        for b in bindings_for(world, s, [0]):
            try:
                out.append((world.enabled(pre, s, b), world.run(pre, s, b)))
            except Unbound:
                continue
    t = z3.BoolVal(True, world.ctx)
    f = z3.BoolVal(False, world.ctx)
    out.append((pre[("alive", 0)], pre.set({("alive", 0): f, ("dying", 0): f})))
    settle = {}
    for i in range(world.k):
        settle[("alive", i)] = And(pre[("alive", i)], Not(pre[("dying", i)]))
        settle[("dying", i)] = f
    out.append((t, pre.set(settle)))
    return out


def houdini(world: World, solver: Solver, facts: list[Fact], purpose: str,
            only: list[Skill] | None = None) -> tuple[list[Fact], Answer | None]:
    """The largest subset of facts that is inductive (base after setup, every step). With
    `only`, just those skills' steps are checked: valid when the facts were already proven
    inductive for every other (unchanged) skill."""
    from .reach import after_setup, setup_skills
    once = setup_skills(world)
    init = world.state(f"{purpose}_base")
    after, setup_cs = after_setup(world, init, once)
    base = Session(solver, world.initial(init) + setup_cs, rlimit=solver.rlimit * 50)
    alive, unknown = _prune(base, [], facts, after, f"{purpose}-base")
    if unknown:
        return [], unknown
    pre = world.state(f"{purpose}_ind")
    # static skills too: a standing effect may change the state at any moment (sound over-approximation)
    later = [s for s in world.rs.skills if s not in once and (only is None or s in only)]
    steps = step_relations(world, later, pre)
    if only is not None:
        steps = steps[:-2]  # votes and settling were checked with these facts before
    session = Session(solver, world.realizable(pre), rlimit=solver.rlimit * 5)
    over_pre = {}   # each fact built once over the pre-state (steps share it)
    changed = True
    while changed and alive:
        changed = False
        for en, post in steps:
            touched = _touched(pre, post)
            exposed = [c for c in alive if not c.reads or c.reads & touched]
            if not exposed:
                continue  # the step writes nothing these facts read
            for c in alive:
                if c.name not in over_pre:
                    over_pre[c.name] = c.build(pre)
            hyp = [over_pre[c.name] for c in alive] + [en]
            kept, unknown = _prune(session, hyp, exposed, post, f"{purpose}-step")
            if unknown:
                return [], unknown
            if len(kept) != len(exposed):
                alive, changed = [c for c in alive if c in kept or c not in exposed], True
    return alive, None


def _co_granted(world: World) -> set[tuple[str, str]]:
    """(label, status) pairs some skill adds together: the candidates worth proving."""
    pairs: set[tuple[str, str]] = set()
    for skill in world.rs.skills:
        labels = {world.sem.canon(e.args.get("label", "")) for e in skill.all_effects()
                  if e.kind == "add_label" and isinstance(e.args, dict)}
        statuses = {world.sem.canon(e.args.get("status", "")) for e in skill.all_effects()
                    if e.kind == "grant_status" and isinstance(e.args, dict)}
        pairs |= {(lab, s) for lab in labels for s in statuses if lab in world.rs.labels and s in world.rs.statuses}
    return pairs


def slot_facts(world: World) -> list[Fact]:
    """Generic candidates: what a label or an identity always brings with it."""
    rs, sorts, k = world.rs, world.sorts, world.k
    sem = world.sem
    out: list[Fact] = []
    for lab, s in sorted(_co_granted(world)):
        if True:
            out.append(Fact(f"label-status:{lab}:{s}", f"拥有[{lab}]者必持有[{s}]",
                            lambda st, lab=lab, s=s: And([Implies(st[("label", i, lab)], st[("status", i, s)])
                                                            for i in range(k)]), frozenset({("label", lab), ("status", s)})))
    for r in sorted(rs.roles):
        rc = sorts.roles[r]
        init_f = sorts.factions[sem.canon(rs.roles[r].faction)]
        out.append(Fact(f"role-faction:{r}", f"{r}的阵营不会改变",
                        lambda st, rc=rc, f=init_f: And([Implies(st[("role", i)] == rc, st[("faction", i)] == f)
                                                           for i in range(k)]), frozenset({("role",), ("faction",)})))
        for s in sorted(world.initial_statuses(r)):
            out.append(Fact(f"role-status:{r}:{s}", f"{r}始终持有[{s}]",
                            lambda st, rc=rc, s=s: And([Implies(st[("role", i)] == rc, st[("status", i, s)])
                                                          for i in range(k)]), frozenset({("role",), ("status", s)})))
    return out
