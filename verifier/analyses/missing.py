"""Missing rules: situations the rules reach but never answer."""
from __future__ import annotations

from typing import Iterator

from ..findings import Finding
from .base import Analysis, Context


class MissingRule(Analysis):
    """A reachable situation for which the rules give no outcome: a vote tie the vote rules
    do not cover, or a faction with neither a win nor a lose condition. The judge has to
    improvise. Fix: add the rule. Limits: the situations the language names (vote ties,
    factions without end conditions)."""
    kind = "missing-rule"
    summary = "规则没有覆盖的可达局面"
    severity = "error"
    decides_by = "text"

    def run(self, cx: Context) -> Iterator[Finding]:
        rs = cx.rs
        v = rs.voting
        if v is not None and not v.get("tie"):
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
        for name, f in sorted(rs.factions.items()):
            if f.win is None and f.lose is None and not f.shares_win:
                yield Finding(
                    kind=self.kind, severity="warning", verdict="proved", subjects=(name,),
                    message=f"{name}既没有胜利条件也没有失败条件：规则没有说明该阵营何时获胜或出局。",
                    message_en=f"{name} has neither a win nor a lose condition.",
                    locations=cx.locs(f.where), key=("no-end", name),
                    question=f"{name}在什么情况下获胜？",
                )
