"""Win conditions: can each faction win (a bounded trace) or never (an inductive proof),
and can two factions win at once with no priority between them."""
from __future__ import annotations

from itertools import combinations
from typing import Iterator

from models.encoding.reach import (both_win, bounded_trace, faction_goal, possible_somewhere, prove_unreachable,
                                   still_inductive)

from ..findings import Finding
from ..narrate import describe_player, game_json, table_json, table_text
from .base import Analysis, Context
from .influence import reads_of
from .pending import trace_skills


def _trace_skills(cx: Context):
    return trace_skills(cx.rs, cx.world)


class ImpossibleWin(Analysis):
    """A faction whose win condition no sequence of effects can make true. In a game its
    players cannot win and the faction is pointless or misleading. Example: a win that
    needs every player to hold a status the faction's own member can never get.
    Fix: restate the condition (e.g. "all other players"). Verdict proved: an invariant
    holds after setup, every effect preserves it, and it rules the win out.
    Limits: the invariant is found among simple candidate facts over the player slots."""
    kind = "impossible-win"
    summary = "某阵营的胜利条件永远无法达成（已证明）"
    severity = "error"
    decides_by = "smt"
    may_be_unknown = True

    def run(self, cx: Context) -> Iterator[Finding]:
        for name, f in sorted(cx.rs.factions.items()):
            if f.win:
                yield from cx.cached_global(
                    "win", name, lambda name=name, f=f: self._decide(cx, name, f),
                    revalidate=lambda facts, changed, name=name: still_inductive(cx.world, cx.solver, name, facts, changed),
                    goal_reads=reads_of(f.win))

    def _decide(self, cx: Context, name: str, f) -> tuple[list[Finding], dict]:
        depth = int(cx.rs.bounds["depth"])
        # "can it win at all?" only decides whether to look for a proof, and reports nothing
        # when it can: a game of the slots alone is enough (at the real table a win needs more
        # outs than the bounded depth allows)
        trace = bounded_trace(cx.world, cx.solver, lambda st, n=name: faction_goal(cx.world, st, n), depth,
                              f"win-{len(name)}", _trace_skills(cx), table=False)
        if trace.answer.sat:
            return [], {"kind": "trace", "skills": trace.used}
        proof = prove_unreachable(cx.world, cx.solver, name)
        if proof.answer.unsat:
            facts = "；".join(c.text for c in proof.facts)
            return [Finding(
                kind=self.kind, severity="error", verdict="proved", subjects=(name,),
                message=f"{name}的胜利条件永远无法达成：{facts}，因此条件不可能成立。",
                message_en=f"The win condition of {name} can never be met (proved by an inductive invariant).",
                locations=cx.locs(f.where), key=(name,),
                scenario={"roles": [], "steps": [f"不变式：{c.text}（开局后成立，且每个效果都保持它）" for c in proof.facts],
                          "outcomes": [f"{name}无法获胜"]},
                witness={"kind": "invariant", "faction": name, "facts": [c.name for c in proof.facts]},
                question=f"{name}的胜利条件是否应理解为另一种含义？",
            )], {"kind": "invariant", "facts": proof.inductive}
        return [Finding(
            kind="unknown", severity="warning", verdict="unknown", subjects=(name,),
            message=f"在 {cx.world.k} 名玩家、{depth} 步内找不到{name}获胜的过程，也未能证明其不可能（{proof.reason or proof.answer.reason}）。",
            message_en=f"No win of {name} within bounds, and no proof it is impossible.",
            locations=cx.locs(f.where), key=("win", name),
        )], {"kind": "none"}


class SimultaneousWin(Analysis):
    """Two factions whose win conditions can hold in the same state while the ruleset gives
    no priority between them and neither allows a shared win. The judge cannot say who won.
    Fix: give a win-check order. Limits: bounded traces from a dealt game."""
    kind = "simultaneous-win"
    summary = "两个阵营可能同时满足胜利条件且无优先级"
    severity = "warning"
    decides_by = "smt"
    may_be_unknown = True

    def run(self, cx: Context) -> Iterator[Finding]:
        rs = cx.rs
        if rs.win_priority:
            ordered = set(rs.win_priority)
        else:
            ordered = set()
        depth = int(rs.bounds["depth"])
        winners = [n for n, f in sorted(rs.factions.items()) if f.win]
        pairs = list(combinations(winners, 2))
        for j, (a, b) in enumerate(pairs):
            cx.tick(j, len(pairs))
            if cx.shard and j % cx.shard[1] != cx.shard[0]:
                continue
            if a in ordered and b in ordered:
                continue
            if rs.factions[a].shares_win or rs.factions[b].shares_win:
                continue
            yield from cx.cached_global("simul", [a, b], lambda a=a, b=b: self._decide(cx, a, b, depth),
                                        goal_reads=reads_of(rs.factions[a].win) | reads_of(rs.factions[b].win))

    def _decide(self, cx: Context, a: str, b: str, depth: int) -> tuple[list[Finding], dict]:
        rs = cx.rs
        goal = lambda st, a=a, b=b: both_win(cx.world, st, a, b)  # noqa: E731
        if possible_somewhere(cx.world, cx.solver, goal, "simul-abstract").unsat:
            return [], {"kind": "none"}  # no reachable state satisfies both: nothing to search
        trace = bounded_trace(cx.world, cx.solver, goal, depth, "simul", _trace_skills(cx),
                              quiet=int(rs.bounds["quiet"]))
        if trace.answer.status == "unknown":
            return [Finding(kind="unknown", severity="warning", verdict="unknown", subjects=(a, b),
                            message=f"{a}与{b}能否同时获胜，在求解预算内未能判定。",
                            locations=cx.locs(rs.factions[a].where, rs.factions[b].where), key=("simul", a, b))], None
        if not trace.answer.sat:
            return [], None
        last = trace.states[-1]
        size, rest = table_text(cx.world.k, trace.table, last)
        return [Finding(
            kind=self.kind, severity=self.severity, verdict="witnessed", subjects=(a, b),
            message=f"{a}与{b}的胜利条件可以同时成立{'（' + size + '）' if size else ''}，而规则没有给出二者的判胜优先级。",
            message_en=f"{a} and {b} can both meet their win conditions at once, with no priority.",
            locations=cx.locs(rs.factions[a].where, rs.factions[b].where), key=(a, b),
            scenario={"roles": [describe_player(rs, trace.states[0], i) for i in range(cx.world.k)] + ([rest] if rest else []),
                      "steps": [size + "，开局后"] * bool(size) + (trace.steps or ["开局即满足"]),
                      "outcomes": [f"此时{a}与{b}同时满足胜利条件"] +
                                  [describe_player(rs, last, i) for i in range(cx.world.k)]},
            witness={"kind": "trace", "steps": trace.steps, **table_json(trace.table), **game_json(trace),
                     "claim": {"win": [a, b]}},
            question=f"{a}与{b}同时满足胜利条件时，谁获胜？",
            rulings=({"ruling": f"{a}优先", "outcome": f"{a}获胜"}, {"ruling": f"{b}优先", "outcome": f"{b}获胜"},
                     {"ruling": "共同获胜", "outcome": f"{a}与{b}共同获胜"}),
        )], {"kind": "trace", "skills": trace.used}
