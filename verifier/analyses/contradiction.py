"""Contradiction: an effect the text says happens regardless (必定/一定/强制) meets a status
or a forced replacement that says it cannot happen, with no precedence between them."""
from __future__ import annotations

from typing import Iterator

from models.domain import FORCED_MEANINGS, Effect, Skill
from models.encoding.reach import use_text
from models.encoding.readings import reads_reading
from models.encoding.scenarios import Use, conflict_at_effect
from models.encoding.world import Binding

from ..findings import Finding
from ..narrate import describe_player, player
from .base import Analysis, Context
from .pending import ordered

BLOCKED_BY = {"set_faction": "faction_change", "out": "out", "damage": "damage", "grant_status": "status_gain"}
WHAT_ZH = {"faction_change": "改变阵营", "out": "出局", "damage": "受到伤害", "status_gain": "获得状态"}


def _forced_tags(cx: Context) -> set[str]:
    return {t.name for t in cx.rs.tags.values() if t.meaning in FORCED_MEANINGS}


def _who_slot(e: Effect) -> str:
    a = e.args if isinstance(e.args, dict) else {}
    who = a.get("who", "target")
    return who if isinstance(who, str) else "target"


class Contradiction(Analysis):
    """Two rules demand incompatible outcomes in a reachable situation and no precedence rule
    decides: an effect marked as certain (必定/无法被阻止) on a player who holds a status that
    forbids exactly that, or whose forced replacement effect prevents it.
    Fix: say which rule wins. Limits: one effect against one status or one replacement."""
    kind = "contradiction"
    summary = "“必定发生”的效果与“无法发生”的状态/替代效果冲突且无优先规则"
    severity = "error"
    decides_by = "smt"

    def run(self, cx: Context) -> Iterator[Finding]:
        rs = cx.rs
        yield from self._rulings_against_text(cx)
        forced_tags = _forced_tags(cx)
        for skill in rs.skills:
            for e in skill.all_effects():
                if not e.force or e.kind not in BLOCKED_BY:
                    continue
                if any(reads_reading(e.guard, a["name"]) for a in rs.ambiguities):
                    continue   # forced only under a reading: whether it wins is that switch's question
                what = BLOCKED_BY[e.kind]
                if e.kind == "damage":
                    blockers = [s for s in rs.statuses.values() if ({"damage", "out"} & s.blocks)]
                else:
                    blockers = [s for s in rs.statuses.values() if what in s.blocks]
                a = e.args if isinstance(e.args, dict) else {}
                cause = a.get("cause") or a.get("kind")
                for status in sorted(blockers, key=lambda s: s.name):
                    if self._settled(cx, skill, status.name) or (cause and cause in status.except_causes):
                        continue  # a stated precedence, or the status itself lets this cause through
                    yield from self._against_status(cx, skill, e, status.name, what)
                if e.kind in ("out", "damage"):
                    for rep in rs.skills:
                        trig = rep.trigger or {}
                        if trig.get("event") != "about_to_go_out" or not any(x.kind == "prevent_out" for x in rep.all_effects()):
                            continue
                        if not (set(rep.tags) & forced_tags or rep.mandatory) or ordered(rs, skill, rep) or \
                                self._settled(cx, skill, rep.name):
                            continue
                        yield from self._against_replacement(cx, skill, e, rep)

    def _rulings_against_text(self, cx: Context) -> Iterator[Finding]:
        """A recorded ruling that reverses an order the text itself states."""
        for i, r in enumerate(cx.rs.rulings):
            first, then = r.get("first"), r.get("then")
            if not (first and then):
                continue
            for p in cx.rs.precedence:
                order = p.get("order") or []
                reverse = (p.get("first") == then and p.get("then") == first) or \
                    (first in order and then in order and order.index(then) < order.index(first))
                if reverse:
                    yield Finding(
                        kind=self.kind, severity="error", verdict="proved", subjects=(first, then),
                        message=f"记录的裁定「{r['ruling']}」规定【{first}】先于【{then}】，与原文的优先规则相反。",
                        message_en=f"The ruling puts '{first}' before '{then}', against the stated precedence.",
                        locations=cx.locs(cx.src_where(p.get("src"), cx.yaml_line(("rulings", i)))),
                        key=("ruling", first, then),
                    )

    def _settled(self, cx: Context, skill: Skill, other: str) -> bool:
        for p in list(cx.rs.precedence) + list(cx.rs.rulings):
            names = {p.get("first"), p.get("then")} | set(p.get("order") or [])
            if skill.name in names and other in names:
                return True
        return False

    def _against_status(self, cx: Context, skill: Skill, e: Effect, status: str, what: str) -> Iterator[Finding]:
        who = _who_slot(e)
        b = Binding(0, (1,) if skill.targets else ())
        victim = 1 if who == "target" and skill.targets else 0
        if who not in ("self", "target"):
            return
        ans, start = conflict_at_effect(cx.world, cx.solver, Use(skill, b), e, victim, status)
        if not ans.sat:
            return
        yield Finding(
            kind=self.kind, severity="error", verdict="witnessed", subjects=(skill.name, status),
            message=f"{cx.skill_text(skill)}写明必定使目标{WHAT_ZH[what]}，而[{status}]写明持有者无法{WHAT_ZH[what]}；"
                    f"规则没有说明二者谁优先。",
            message_en=f"'{skill.name}' says it always happens; [{status}] says it cannot. No precedence.",
            locations=cx.locs(e.where, skill.where, cx.rs.statuses[status].where), key=(skill.uid, status),
            scenario={"roles": [describe_player(cx.rs, start, i) for i in sorted({0, victim})],
                      "steps": [use_text(player(0), skill, cx.skill_text(skill), player(victim))],
                      "outcomes": [f"按{skill.shown}：{player(victim)} {WHAT_ZH[what]}",
                                   f"按[{status}]：{player(victim)} 不会{WHAT_ZH[what]}"]},
            question=f"{cx.skill_text(skill)}作用于持有[{status}]的角色时，是否生效？",
            rulings=({"ruling": f"{skill.shown}优先", "first": skill.name, "then": status, "outcome": f"{WHAT_ZH[what]}"},
                     {"ruling": f"[{status}]优先", "first": status, "then": skill.name, "outcome": f"不{WHAT_ZH[what]}"}),
        )

    def _against_replacement(self, cx: Context, skill: Skill, e: Effect, rep: Skill) -> Iterator[Finding]:
        victim = 1 if _who_slot(e) == "target" and skill.targets else 0
        b = Binding(0, (1,) if skill.targets else ())
        rb = Binding(victim, (), (("victim", victim), ("source", 0)))
        ans, start = conflict_at_effect(cx.world, cx.solver, Use(skill, b), e, victim, None, Use(rep, rb))
        if not ans.sat:
            return
        yield Finding(
            kind=self.kind, severity="error", verdict="witnessed", subjects=(skill.name, rep.name),
            message=f"{cx.skill_text(skill)}写明必定使目标出局，而{cx.skill_text(rep)}是强制的替代效果（免于此次出局）；"
                    f"规则没有说明二者谁优先。",
            message_en=f"'{skill.name}' always removes its target; the forced replacement '{rep.name}' prevents it.",
            locations=cx.locs(e.where, rep.where), key=(skill.uid, rep.uid),
            scenario={"roles": [describe_player(cx.rs, start, i) for i in sorted({0, victim})],
                      "steps": [use_text(player(0), skill, cx.skill_text(skill), player(victim)),
                                f"{player(victim)} 的{cx.skill_text(rep)}触发"],
                      "outcomes": [f"按{skill.shown}：{player(victim)} 出局",
                                   f"按{rep.shown}：{player(victim)} 免于出局"]},
            question=f"{cx.skill_text(skill)}的目标拥有{cx.skill_text(rep)}时，目标是否出局？",
            rulings=({"ruling": f"{skill.shown}优先", "first": skill.name, "then": rep.name, "outcome": "出局"},
                     {"ruling": f"{rep.shown}优先", "first": rep.name, "then": skill.name, "outcome": "免于出局"}),
        )
