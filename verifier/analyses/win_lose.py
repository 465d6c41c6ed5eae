"""Win and lose as game state: a faction whose win and lose conditions hold at once (part of
the contradiction kind), and a faction that has lost and is brought back (missing-rule)."""
from __future__ import annotations

from typing import Iterator

from models.encoding.anywhere import possible_at_table
from models.encoding.reach import back_from_lost, bounded_trace, win_and_lose

from ..findings import Finding
from ..narrate import describe_player, game_json, opening, table_json, table_text
from .base import Context
from .pending import trace_skills
from .influence import reads_of


class WinAndLose:
    """A faction's win condition and its lose condition hold in the same state of a legal game
    (it has players, nobody has won), and the text never says which counts (a sentence such as
    “未曾达到判负条件且最先达到判胜条件的阵营获胜”, `lose_over_win`). The judge must rule
    whether the faction wins or has lost. Fix: say that a faction that has reached its lose
    condition cannot win (or the opposite), or make the two conditions exclusive.
    Verdict witnessed: a game from a legal deal at the table the setup states; faction_goal
    lets the lose condition win meanwhile, so the game goes on. Limits: bounded traces."""
    kind = "contradiction"   # part of that analysis (forced_target.py): one analysis per kind
    severity = "warning"

    def run(self, cx: Context) -> Iterator[Finding]:
        rs = cx.rs
        if rs.lose_over_win:
            return
        both = [n for n, f in sorted(rs.factions.items()) if f.win and f.lose and not f.external]
        for j, name in enumerate(both):
            if not cx.mine(j):
                continue
            f = rs.factions[name]
            yield from cx.cached_global("winlose", [name], lambda name=name: self._decide(cx, name),
                                        goal_reads=reads_of(f.win) | reads_of(f.lose))

    def _decide(self, cx: Context, name: str) -> tuple[list[Finding], dict | None]:
        rs, world = cx.rs, cx.world
        goal = lambda st: win_and_lose(world, st, name)  # noqa: E731
        if possible_at_table(world, cx.solver, goal, "winlose-abstract").unsat:
            return [], {"kind": "none"}
        skills = trace_skills(rs, world)
        # a second start when undecided: conan096's 独立阵营 used 33M of 40M alone and ran out
        # once other questions had built their terms first
        trace = bounded_trace(world, cx.solver, goal, int(rs.bounds["depth"]), "winlose", skills,
                              quiet=int(rs.bounds["quiet"]), retry=True)
        if trace.answer.status == "unknown":
            return [_undecided(cx, name, "winlose", "的胜利条件与失败条件能否同时成立")], None
        if not trace.answer.sat:
            return [], None
        size = table_text(world.k, trace.table, trace.states[-1])[0]
        return [_witnessed(
            cx, self, name, trace,
            f"{name}的胜利条件与失败条件可以同时成立{'（' + size + '）' if size else ''}，规则没有说明此时该阵营获胜还是判负。",
            f"{name}'s win and lose conditions can hold at once; the text does not say which counts.",
            ("winlose", name), f"此时{name}同时满足胜利条件与失败条件", {"win_and_lose": name},
            f"{name}同时满足胜利条件与失败条件时，获胜还是判负？",
            ({"ruling": "判负优先", "outcome": f"{name}判负，游戏继续"}, {"ruling": "胜利优先", "outcome": f"{name}获胜"}),
        )], {"kind": "trace", "skills": trace.used}


class LostFactionBack:
    """A faction reaches its lose condition (判负) and a later move of a legal game ends it: a
    player converts into the faction, or one of its players comes back. The text says it has
    lost, and then it has players again: does it still take part, can it still win? Fix: say
    whether a faction that has lost can come back (单独判负后不再复活/加入…).
    Verdict witnessed: a game from a legal deal at the table the setup states, the last move
    ending the lose condition. Limits: bounded traces."""
    kind = "missing-rule"   # part of that analysis (missing.py): one analysis per kind
    severity = "warning"

    def run(self, cx: Context) -> Iterator[Finding]:
        rs = cx.rs
        losers = [n for n, f in sorted(rs.factions.items()) if f.lose and not f.external]
        for j, name in enumerate(losers):
            if not cx.mine(j):
                continue
            yield from cx.cached_global("lostback", [name], lambda name=name: self._decide(cx, name),
                                        goal_reads=reads_of(rs.factions[name].lose))

    def _decide(self, cx: Context, name: str) -> tuple[list[Finding], dict | None]:
        rs, world = cx.rs, cx.world
        goal = lambda before, after: back_from_lost(world, before, after, name)  # noqa: E731
        trace = bounded_trace(world, cx.solver, goal, int(rs.bounds["depth"]), "lostback", trace_skills(rs, world),
                              quiet=int(rs.bounds["quiet"]), pair=True)
        if trace.answer.status == "unknown":
            return [_undecided(cx, name, "lostback", "判负后能否重新有角色")], None
        if not trace.answer.sat or not trace.moves:
            return [], None
        return [_witnessed(
            cx, self, name, trace,
            f"{name}达到失败条件后，其失败条件可以重新不成立（{trace.steps[-1]}），规则没有说明已判负的阵营能否重新参与胜负。",
            f"{name} reaches its lose condition and a later move ends it; the text does not say whether it is back.",
            ("lostback", name), f"最后一步之前{name}已满足失败条件，之后不再满足", {"back_from_lost": name},
            f"{name}判负之后又有了角色（或角色复活），该阵营还能获胜吗？",
            ({"ruling": "判负不可撤销", "outcome": f"{name}不再参与胜负"},
             {"ruling": "重新参与", "outcome": f"{name}恢复为未判负，仍可获胜"}),
        )], {"kind": "trace", "skills": trace.used}


def _witnessed(cx: Context, check, name: str, trace, message: str, message_en: str, key: tuple, outcome: str,
               claim: dict, question: str, rulings: tuple) -> Finding:
    """A finding about a faction witnessed by a game: the cast as dealt, the game, the cast at the end."""
    rs, k = cx.rs, cx.world.k
    last = trace.states[-1]
    size, rest = table_text(k, trace.table, last, seated=cx.world.vocab.seats)
    return Finding(
        kind=check.kind, severity=check.severity, verdict="witnessed", subjects=(name,),
        message=message, message_en=message_en, locations=cx.locs(rs.factions[name].where), key=key,
        scenario={"roles": [describe_player(rs, trace.states[0], i, dealt=True) for i in range(k)] + ([rest] if rest else []),
                  "steps": opening(size, trace.steps, "开局即满足"),
                  "outcomes": [outcome] + [describe_player(rs, last, i) for i in range(k)]},
        witness={"kind": "trace", "steps": trace.steps, **table_json(trace.table), **game_json(trace), "claim": claim},
        question=question, rulings=rulings)


def _undecided(cx: Context, name: str, key: str, question: str) -> Finding:
    """The question about the faction ran out of budget: unknown, never clean."""
    return Finding(kind="unknown", severity="warning", verdict="unknown", subjects=(name,),
                   message=f"{name}{question}，在求解预算内未能判定。",
                   locations=cx.locs(cx.rs.factions[name].where), key=(key, name),
                   group=(f"{key}-budget", f"以下 {{n}} 个阵营{question}，在求解预算内未能判定", name))
