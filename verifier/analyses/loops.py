"""Infinite trigger loops: the trigger graph (an effect produces an event a trigger
consumes) built with networkx, each cycle checked for feasibility and termination."""
from __future__ import annotations

from typing import Iterator

import networkx as nx

from models.domain import Ruleset, Skill
from models.encoding.reach import bindings_for
from models.encoding.scenarios import Use, enabled_ever

from ..findings import Finding
from .base import Analysis, Context


def produced_events(rs: Ruleset, skill: Skill) -> set[tuple]:
    """Events a use of the skill can cause."""
    out: set[tuple] = set()
    targeted = {t.name for t in rs.tags.values() if t.meaning == "targeted"}
    if skill.targets:
        for tag in set(skill.tags) & targeted:
            out.add(("targeted", tag))
        out.add(("targeted", None))
    out.add(("skill_used", skill.name))
    for e in skill.all_effects():
        a = e.args if isinstance(e.args, dict) else {}
        if e.kind == "set_faction":
            out.add(("faction_changed",))
        elif e.kind == "grant_status":
            out.add(("status_gained", a.get("status")))
        elif e.kind in ("damage", "out"):
            out |= {("about_to_go_out",), ("went_out",), ("killed",), ("faction_eliminated",)}
        elif e.kind == "counter" and a.get("op", "add") in ("add", "set"):
            # halving or subtracting never newly reaches a threshold from below
            out.add(("counter_reached", a.get("name")))
        elif e.kind == "opaque":
            for w in a.get("writes") or []:
                head, _, arg = w.partition(":")
                if head == "faction":
                    out.add(("faction_changed",))
                elif head == "status":
                    out.add(("status_gained", arg or None))
                elif head == "alive":
                    out |= {("about_to_go_out",), ("went_out",), ("killed",), ("faction_eliminated",)}
                elif head == "counter":
                    out.add(("counter_reached", arg or None))
    return out


def consumes(skill: Skill, event: tuple) -> bool:
    trig = skill.trigger or {}
    ev = trig.get("event")
    if ev is None or ev != event[0]:
        return False
    if ev == "targeted":
        return trig.get("tag") is None or event[1] is None or trig.get("tag") == event[1]
    if ev == "status_gained":
        return event[1] is None or trig.get("status") == event[1]
    if ev == "counter_reached":
        return event[1] is None or trig.get("counter") == event[1]
    if ev == "skill_used":
        return trig.get("skill") == event[1]
    return True


def trigger_graph(rs: Ruleset) -> nx.DiGraph:
    g = nx.DiGraph()
    triggered = [s for s in rs.skills if s.trigger]
    for s in rs.skills:
        g.add_node(s.uid, skill=s)
    for a in triggered:
        events = produced_events(rs, a)
        for b in triggered:
            hit = sorted((e for e in events if consumes(b, e)), key=repr)
            if hit:
                g.add_edge(a.uid, b.uid, event=hit[0])
    return g


def terminates(rs: Ruleset, cycle: list[Skill], events: list[tuple]) -> str | None:
    """A decreasing measure that bounds the loop, in words, or None."""
    limited = {t.name for t in rs.tags.values() if t.meaning == "limited"}
    for s in cycle:
        if s.uses and s.uses.get("per") == "game":
            return f"【{s.name}】全局限用{s.uses['count']}次"
        if set(s.tags) & limited:
            return f"【{s.name}】是限定技"
        if s.charges is not None:
            return f"【{s.name}】有次数限制"
        if s.uses:
            return f"【{s.name}】每个时段限用{s.uses['count']}次"
    kinds = {e.kind for s in cycle for e in s.all_effects()}
    if all(e[0] in ("went_out", "about_to_go_out", "killed", "faction_eliminated") for e in events) \
            and "revive" not in kinds:
        return "每名角色只能出局一次"
    if all(e[0] == "status_gained" for e in events) and "remove_status" not in kinds:
        return "状态已持有时再次获得不会产生新事件"
    return None


class Loop(Analysis):
    """Triggers that can re-fire each other without bound: effect A produces the event that
    trigger B listens for, and B's effect produces A's event again. A game that reaches it
    never finishes the step. Fix: limit uses, or say the trigger fires once per window.
    Reported unless a decreasing measure (limited uses, going out once) proves termination."""
    kind = "loop"
    summary = "触发效果可以无限互相触发"
    severity = "error"
    decides_by = "both"

    def run(self, cx: Context) -> Iterator[Finding]:
        g = trigger_graph(cx.rs)
        for cycle in sorted(nx.simple_cycles(g), key=lambda c: (len(c), c)):
            if len(cycle) > 4:
                continue
            skills = [g.nodes[u]["skill"] for u in cycle]
            events = [g.edges[cycle[i], cycle[(i + 1) % len(cycle)]]["event"] for i in range(len(cycle))]
            if any(s.is_opaque for s in skills):
                continue
            if terminates(cx.rs, skills, events):
                continue
            feasible = all(self._can_fire(cx, s) for s in skills)
            if not feasible:
                continue
            names = tuple(dict.fromkeys(s.name for s in skills))
            chain = " → ".join(f"【{s.name}】" for s in skills + skills[:1])
            yield Finding(
                kind=self.kind, severity="error", verdict="witnessed", subjects=names,
                message=f"触发链 {chain} 可以无限循环：每一步都产生下一步的触发事件，且没有次数限制使其终止。",
                message_en=f"Trigger cycle {chain} can repeat without bound.",
                locations=cx.locs(*(s.where for s in skills)), key=tuple(sorted(cycle)),
                scenario={"roles": [cx.owner_name(s) for s in skills],
                          "steps": [f"{cx.skill_text(s)}结算，产生事件 {events[i][0]}，触发下一个效果" for i, s in enumerate(skills)],
                          "outcomes": ["回到第一步，结算永不结束"]},
                question=f"{chain} 互相触发时如何终止？",
            )

    def _can_fire(self, cx: Context, s: Skill) -> bool:
        for b in bindings_for(cx.world, s, [0])[:8]:
            if enabled_ever(cx.world, cx.solver, Use(s, b)).sat:
                return True
        return False
