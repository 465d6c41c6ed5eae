"""Missing rules: situations the rules reach but never answer."""
from __future__ import annotations

from typing import Iterator

from models.encoding.reach import bindings_for
from models.encoding.scenarios import Use, empty_pick

from ..findings import Finding
from ..narrate import describe_player
from .base import Analysis, Context


def random_picks(effects) -> list:
    """(effect, filter) for every 'random player matching F' the effects name."""
    out = []
    for e in effects:
        a = e.args if isinstance(e.args, dict) else {}
        for v in a.values():
            if isinstance(v, dict) and "random" in v:
                out.append((e, v["random"] or {}))
    return out


class MissingRule(Analysis):
    """A reachable situation for which the rules give no outcome: a vote tie the vote rules
    do not cover, or a faction with neither a win nor a lose condition. The judge has to
    improvise. Fix: add the rule. Limits: the situations the language names (vote ties,
    factions without end conditions, random picks from a set that can be empty — not at the
    deal, whose composition our few player slots do not represent)."""
    kind = "missing-rule"
    summary = "规则没有覆盖的可达局面"
    severity = "error"
    decides_by = "text"

    def run(self, cx: Context) -> Iterator[Finding]:
        rs = cx.rs
        v = rs.voting
        if v is not None and not v.get("tie") and not v.get("external"):
            where = cx.src_where(v.get("src"), cx.yaml_line(("voting",)))
            yield Finding(
                kind=self.kind, severity="error", verdict="witnessed", subjects=("投票",),
                message="投票规则没有说明平票（两名或以上角色得票相同且最高）时如何处理。",
                message_en="The vote rules do not say what happens on a tie.",
                locations=cx.locs(where), key=("vote-tie",),
                scenario={"roles": ["P1、P2、P3、P4：均存活、均有投票权"],
                          "steps": ["P1、P2 投给 P3；P3、P4 投给 P1"],
                          "outcomes": ["P1 与 P3 各得 2 票并列最高：规则未给出结果"]},
                question="投票出现平票时如何处理？",
                rulings=({"ruling": "平票者都出局", "outcome": "P1、P3 出局"},
                         {"ruling": "无人出局", "outcome": "无人出局"},
                         {"ruling": "重新投票", "outcome": "再投一轮"}),
            )
        for skill in rs.skills:
            for e, flt in random_picks(skill.all_effects()):
                b = bindings_for(cx.world, skill, [0])[:1]
                if not b:
                    continue
                once = {p.name for p in rs.phases if p.once}
                at_setup = (skill.trigger or {}).get("event") == "setup" or bool(skill.timing and set(skill.timing) <= once)
                if at_setup:
                    continue  # who exists at the deal depends on the full composition, not our few slots
                ans, start = empty_pick(cx.world, cx.solver, Use(skill, b[0]), flt, e.guard)
                if ans.sat:
                    yield Finding(
                        kind=self.kind, severity="warning", verdict="witnessed", subjects=(skill.name,),
                        message=f"{cx.skill_text(skill)}要求随机选择一名符合条件的角色，但可能没有任何角色符合条件，规则未说明此时如何处理。",
                        message_en=f"'{skill.name}' picks a random player from a set that can be empty.",
                        locations=cx.locs(e.where, skill.where), key=("empty-pick", skill.uid, str(e.index)),
                        scenario={"roles": [describe_player(rs, start, i) for i in range(cx.world.k)],
                                  "steps": [f"{cx.skill_text(skill)}结算，需要随机选择一名角色"],
                                  "outcomes": ["没有符合条件的角色：规则未给出结果"]},
                        question=f"{cx.skill_text(skill)}找不到符合条件的角色时怎么办？",
                    )
        for name, f in sorted(rs.factions.items()):
            if f.win is None and f.lose is None and not f.shares_win and not f.external:
                yield Finding(
                    kind=self.kind, severity="warning", verdict="proved", subjects=(name,),
                    message=f"{name}既没有胜利条件也没有失败条件：规则没有说明该阵营何时获胜或出局。",
                    message_en=f"{name} has neither a win nor a lose condition.",
                    locations=cx.locs(f.where), key=("no-end", name),
                    question=f"{name}在什么情况下获胜？",
                )
