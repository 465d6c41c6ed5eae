"""Setup arithmetic: counts that must add up and probabilities that must sum to 100%,
checked by z3 over the whole player range the text allows."""
from __future__ import annotations

from typing import Iterator

from models.encoding.arith import Arith
from models.encoding.reach import won_at_setup
from models.encoding.solver import Solver

from ..findings import Finding
from ..narrate import describe_player, game_json, table_json, table_text
from .base import Analysis, Context
from .influence import reads_of


class Setup(Analysis):
    """The composition arithmetic does not add up for some allowed player count: groups that
    do not sum to the stated total, or case probabilities that do not sum to 100% (or leave
    0–100%). A formula that goes below 0% with no stated floor is read as 0% and reported
    once per distribution as a note: the text lacks its "最小0%". A judge cannot deal such a game. Fix: correct the numbers or the ranges.
    Also a win condition that already holds when setup ends, at a legal deal of the
    table the setup states (a witness: the deal).
    Verdict proved when it holds for every count (z3 over the stated range)."""
    kind = "setup"
    summary = "开局配置的数字不自洽，或开局即满足胜利条件"
    severity = "error"
    decides_by = "smt"
    may_be_unknown = True

    def run(self, cx: Context) -> Iterator[Finding]:
        setup = cx.rs.setup
        if not setup:
            return
        ar = Arith.make()
        solver = Solver(ar.ctx, int(cx.rs.bounds["rlimit"]))
        players = setup.get("players") or {}
        rng = ar.range(players.get("min"), players.get("max"))
        groups = setup.get("groups") or []
        counts = {g["name"]: ar.num(g["count"]) for g in groups}
        stated = setup.get("stated_total")
        if stated is not None and groups:
            total = ar.total(list(counts.values()))
            ans, n = ar.counterexample(solver, rng + [ar.differs(total, stated["value"])])
            cx.solver.stats.queries += 1
            if ans.sat:
                got = ar.value_at(total, n)
                parts = "＋".join(f"{g['name']}{ar.value_at(counts[g['name']], n)}" for g in groups)
                yield Finding(
                    kind=self.kind, severity="error", verdict="witnessed" if players.get("max") != players.get("min") else "proved",
                    subjects=(stated.get("of") or "总数",),
                    message=f"原文写明共 {stated['value']}，但列出的各项相加为 {got}（{n} 人时：{parts}）。",
                    message_en=f"The stated total is {stated['value']} but the listed groups add up to {got}.",
                    locations=cx.locs(cx.src_where(stated["src"], cx.yaml_line(("setup", "stated_total"))),
                                      *(cx.src_where(g.get("src")) for g in groups[:3])),
                    key=("stated_total",),
                    scenario={"roles": [f"{n} 名玩家"], "steps": [parts], "outcomes": [f"合计 {got} ≠ {stated['value']}"]},
                )
        for i, t in enumerate(setup.get("totals") or []):
            total = ar.total([counts[g] for g in t["groups"] if g in counts])
            ans, n = ar.counterexample(solver, rng + [ar.differs(total, ar.num(t["value"]))])
            if ans.sat:
                yield Finding(
                    kind=self.kind, severity="error", verdict="witnessed", subjects=(t.get("name") or "小计",),
                    message=f"{t.get('name') or '小计'}应为 {ar.value_at(ar.num(t['value']), n)}，但 {'、'.join(t['groups'])} 相加为 {ar.value_at(total, n)}（{n} 人时）。",
                    message_en="A stated subtotal does not match its groups.",
                    locations=cx.locs(cx.src_where(t["src"], cx.yaml_line(("setup", "totals", i)))),
                    key=("total", t.get("name") or str(i)),
                )
        for i, d in enumerate(setup.get("distributions") or []):
            yield from self._distribution(cx, ar, solver, rng, d, i, players)
        for name, f in sorted(cx.rs.factions.items()):
            if f.win and not f.shares_win:   # a shared win is read when another ends the game
                yield from cx.cached_global("won-at-setup", name, lambda name=name, f=f: self._won(cx, name, f),
                                            goal_reads=reads_of(f.win))

    def _won(self, cx: Context, name: str, f) -> tuple[list[Finding], dict | None]:
        """A win that already holds when setup ends, at some legal deal."""
        trace = won_at_setup(cx.world, cx.solver, name)
        where = cx.locs(f.where)
        if trace.answer.status == "unknown":
            return [Finding(kind="unknown", severity="warning", verdict="unknown", subjects=(name,),
                            message=f"开局时{name}是否已满足胜利条件，在求解预算内未能判定。",
                            locations=where, key=("won-at-setup", name))], None
        if not trace.answer.sat:
            return [], {"kind": "none"}
        size, rest = table_text(cx.world.k, trace.table, trace.states[0], seated=cx.world.vocab.seats)
        return [Finding(
            kind=self.kind, severity="error", verdict="witnessed", subjects=(name,),
            message=f"{size or '开局'}发牌并结算开局阶段后，{name}的胜利条件已经成立：游戏尚未开始即可判定胜负。",
            message_en=f"The win condition of {name} already holds when setup ends.",
            locations=where, key=("won-at-setup", name),
            scenario={"roles": [describe_player(cx.rs, trace.states[0], i, dealt=True) for i in range(cx.world.k)] + ([rest] if rest else []),
                      "steps": [f"{size}，发牌" if size else "发牌"] + (trace.steps or ["开局阶段结算完毕"]),
                      "outcomes": [f"{name}已满足胜利条件"]},
            witness={"kind": "trace", "steps": trace.steps, **table_json(trace.table), **game_json(trace),
                     "claim": {"win": [name]}},
            question=f"开局时{name}的胜利条件就已成立，是否应改写该条件？",
        )], {"kind": "trace", "skills": trace.used}

    def _distribution(self, cx: Context, ar: Arith, solver: Solver, rng: list, d: dict, i: int, players: dict):
        where = cx.src_where(d["src"], cx.yaml_line(("setup", "distributions", i)))
        bounded = players.get("max") is not None and players.get("min") is not None
        terms, below = [], []
        for j, case in enumerate(d["cases"]):
            raw = ar.clamp(ar.num(case["percent"]), case.get("min"), case.get("max"))
            if case.get("min") is None:
                # a chance formula that goes below zero with no stated floor is read as 0% (the
                # only reading a judge gives it); the missing floor is reported once, below
                ans, n = ar.counterexample(solver, rng + [raw < 0])
                if ans.sat:
                    below.append((case, n, ar.value_at(raw, n)))
                raw = ar.clamp(raw, 0, None)
            terms.append(raw)
            ans, n = ar.counterexample(solver, rng + [ar.outside(raw, 0, 100)])
            if ans.sat:
                yield Finding(
                    kind=self.kind, severity="error", verdict="witnessed", subjects=(d["name"], str(case["value"])),
                    message=f"「{d['name']}」取 {case['value']} 的概率在 {n} 人时为 {ar.value_at(raw, n)}%，不在 0%–100% 之间。",
                    message_en=f"A probability of '{d['name']}' leaves 0–100% for {n} players.",
                    locations=cx.locs(where), key=("dist-range", d["name"], str(case["value"])),
                    scenario={"roles": [f"{n} 名玩家"], "steps": [f"计算「{d['name']}」={case['value']} 的概率"],
                              "outcomes": [f"{ar.value_at(raw, n)}%"]},
                )
        total = ar.total(terms)
        ans, n = ar.counterexample(solver, rng + [ar.differs(total, 100)])
        sums = not ans.sat
        if ans.sat:
            values = "，".join(f"{c['value']}：{ar.value_at(t, n)}%" for c, t in zip(d["cases"], terms))
            yield Finding(
                kind=self.kind, severity="error", verdict="witnessed", subjects=(d["name"],),
                message=f"「{d['name']}」各情况的概率之和在 {n} 人时为 {ar.value_at(total, n)}%，不等于 100%（{values}"
                        f"{'；负值按 0% 计' if below else ''}）。",
                message_en=f"The probabilities of '{d['name']}' do not sum to 100% for {n} players.",
                locations=cx.locs(where), key=("dist-sum", d["name"]),
                scenario={"roles": [f"{n} 名玩家"], "steps": [values], "outcomes": [f"合计 {ar.value_at(total, n)}%"]},
                assumptions=() if bounded else ("原文未给出人数范围，按编码中的假设范围检查",),
            )
        if below:
            cases = "；".join(f"取 {c['value']} 在 {n} 人时为 {v}%" for c, n, v in below)
            yield Finding(
                kind=self.kind, severity="info", verdict="witnessed", subjects=(d["name"],),
                message=f"「{d['name']}」的概率公式在部分人数下为负（{cases}），原文未写“最小0%”；"
                        + (f"按 0% 理解时各情况之和{_in_range(players)}恰为 100%。" if sums else
                           "即使按 0% 理解，各情况之和也不是 100%。"),
                message_en=f"A chance formula of '{d['name']}' goes below 0% with no stated floor.",
                locations=cx.locs(where, *(cx.src_where(c.get("src")) for c, _, _ in below)),
                key=("dist-negative", d["name"]),
                scenario={"roles": [f"{n} 名玩家" for _, n, _ in below],
                          "steps": [f"计算「{d['name']}」={c['value']} 的概率" for c, _, _ in below],
                          "outcomes": [f"{v}%（按 0% 计）" for _, _, v in below]},
                question=f"「{d['name']}」的概率公式为负时是否按 0% 计？",
            )


def _in_range(players: dict) -> str:
    """The player counts a statement holds for, where the range is not the text's own."""
    if not players.get("assumed") or players.get("min") is None:
        return ""
    top = players.get("max")
    return f"在 {players['min']}–{top} 人时" if top is not None else f"在 {players['min']} 人及以上时"
