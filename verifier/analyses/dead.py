"""Dead rules: skills whose trigger or condition can never hold, or whose effects can
never change anything, in any reachable state."""
from __future__ import annotations

from typing import Iterator

from models.encoding.reach import bindings_for
from models.encoding.scenarios import Probe, Use
from models.encoding.semantics import UNMODELLED_KINDS

from ..findings import Finding
from .base import Analysis, Context

MAX_BINDINGS = 16


class DeadRule(Analysis):
    """A skill that can never be used or never does anything: its trigger or condition is
    unsatisfiable in every reachable state, or every effect leaves the state as it was.
    In a game it is a trap for the player holding it, or a sign the text says something
    other than what was meant. Fix: correct the condition or the effect. Verdict proved
    (over an over-approximation of reachable states); limits: the player slots in bounds."""
    kind = "dead-rule"
    summary = "永远无法触发、或触发后不改变任何东西的规则"
    severity = "warning"
    decides_by = "smt"

    def run(self, cx: Context) -> Iterator[Finding]:
        probe: list = []   # built on the first cache miss only
        for i, skill in enumerate(cx.rs.skills):
            cx.tick(i, len(cx.rs.skills))
            if skill.is_opaque or skill.static:
                continue
            yield from cx.cached("dead", [skill], None, lambda skill=skill: self._decide(cx, skill, probe))

    def _decide(self, cx: Context, skill, probe_box: list) -> Iterator[Finding]:
        if not probe_box:
            probe_box.append(Probe(cx.world, cx.solver))
        probe = probe_box[0]
        bindings = bindings_for(cx.world, skill, [0])[:MAX_BINDINGS]
        answers = [probe.enabled_ever(Use(skill, b)) for b in bindings]
        if any(a.status == "unknown" and not a.reason.startswith("unbound") for a in answers):
            return
        if answers and all(a.unsat for a in answers):
            yield self._finding(cx, skill, "其发动条件/触发条件在任何可达局面下都不成立")
            return
        if not skill.effects or any(e.kind in UNMODELLED_KINDS for e in skill.all_effects()):
            return
        changes = [probe.changes_anything(Use(skill, b)) for b in bindings]
        if any(a.sat or (a.status == "unknown") for a in changes):
            return
        yield self._finding(cx, skill, "它的效果在任何可达局面下都不改变局面")

    def _finding(self, cx: Context, skill, why: str) -> Finding:
        return Finding(
            kind=self.kind, severity=self.severity, verdict="proved", subjects=(skill.name,),
            message=f"{cx.skill_text(skill)}是无效规则：{why}。",
            message_en=f"'{skill.name}' is a dead rule.",
            locations=cx.locs(skill.where), key=(skill.uid,),
            scenario={"roles": [cx.owner_name(skill)], "steps": [f"检查{cx.skill_text(skill)}"], "outcomes": [why]},
        )
