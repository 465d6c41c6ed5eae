"""Win check against a going-out trigger: a player goes out, a faction's win condition
now holds, and the trigger answering that going out (a shot on going out) would change
who wins, while the text never says whether the game ends first."""
from __future__ import annotations

from typing import Iterator

from models.encoding.win_check import trigger_after_win, triggers_after_win

from ..findings import Finding
from ..narrate import describe_player, game_json, opening, table_json, table_text
from .base import Context
from .pending import trace_skills

# the moment a trigger answers, in the words of the rule texts
_AFTER = {"went_out": "出局", "killed": "出局"}
AFTER_GOING_OUT = tuple(_AFTER)


class WinCheckOrder:
    """A going out makes a faction's win condition hold, and a trigger answering that
    going out (a shot, a last action on going out) could still change who wins; the
    ruleset says neither that the game ends at once nor that the trigger resolves first
    (`win_check`). The judge must decide on the spot whether the trigger happens. Fix: say
    when wins are checked (after the triggers, or the game ends at once).
    Verdict witnessed: a game from a legal deal at the table the setup states, then the
    two outcomes. Limits: bounded traces (quiet days, then `depth` moves)."""
    kind = "order-dependence"   # part of that analysis (order.py): one analysis per kind
    severity = "warning"

    def questions(self, cx: Context) -> list[str]:
        """The triggers asked about (uids): every one answering a going out, unless the text
        says when wins are checked."""
        if cx.rs.win_check:
            return []
        # a trigger on "about to go out" answers before the going out, so before any win check
        # it could make (a replacement, "免于此次出局"): no question of which comes first
        return [s.uid for s in trace_skills(cx.rs, cx.world) if (s.trigger or {}).get("event") in AFTER_GOING_OUT]

    def run(self, cx: Context, asked: set[str] | None = None) -> Iterator[Finding]:
        """asked: only these triggers (the share of this process); None: all."""
        skills = trace_skills(cx.rs, cx.world)
        mine = [next(x for x in skills if x.uid == uid) for uid in self.questions(cx)
                if asked is None or uid in asked]
        if mine:
            yield from cx.cached_global("wincheck", [s.uid for s in mine], lambda: self._decide(cx, mine, skills))

    def _decide(self, cx: Context, triggers: list, skills) -> tuple[list[Finding], dict | None]:
        """Each trigger's question gets its first start; those it leaves undecided get their
        second start together, as one question whether any of them changes who wins (measured
        on zemu: no second start of one decided it, each the cost of three first starts)."""
        rs = cx.rs
        depth, quiet = int(rs.bounds["depth"]), int(rs.bounds["quiet"])
        results, undecided = {}, []
        for s in triggers:
            res = trigger_after_win(cx.world, cx.solver, s, skills, depth, quiet, retry=False)
            if res.trace.answer.status == "unknown":
                undecided.append(s)
            else:
                results[s.uid] = res
        while undecided:
            res = triggers_after_win(cx.world, cx.solver, undecided, skills, depth, quiet, retry="second")
            if not res.trace.answer.sat:
                results.update({s.uid: res for s in undecided})
                break
            results[res.move.skill.uid] = res
            undecided = [s for s in undecided if s is not res.move.skill]
        findings, used = [], set()
        for s in triggers:
            res = results[s.uid]
            if res.trace.answer.status == "unknown":
                findings.append(self._unknown(cx, s))
            elif res.move is not None:
                findings.append(self._finding(cx, s, res))
            # a "no" or an undecided answer rests on every skill; a game, on the skills it used
            used = None if used is None or res.move is None else used | set(res.trace.used)
        return findings, None if used is None else {"kind": "trace", "skills": sorted(used)}

    def _unknown(self, cx: Context, skill) -> Finding:
        return Finding(kind="unknown", severity="warning", verdict="unknown", subjects=(skill.name,),
                       message=f"有人出局使某阵营达成胜利条件时，规则没有说明先判定胜负还是先结算出局（或被杀）时的触发；"
                               f"{cx.skill_text(skill)}此时发动能否改变胜负，在求解预算内未能判定。",
                       locations=cx.locs(skill.where), key=("wincheck", skill.uid),
                       group=("wincheck-budget", "有人出局使某阵营达成胜利条件时，规则没有说明先判定胜负还是先结算"
                              "出局（或被杀）时的触发；以下 {n} 个触发此时发动能否改变胜负，在求解预算内未能判定",
                              cx.skill_text(skill)))

    def _finding(self, cx: Context, skill, res) -> Finding:
        rs, world, trace, mv = cx.rs, cx.world, res.trace, res.move
        who = f"P{mv.binding.self_slot + 1}"
        tgt = "、".join(f"P{t + 1}" for t in mv.binding.targets)
        use = f"{who} 发动{cx.skill_text(skill)}" + (f"，目标 {tgt}" if tgt else "")
        now_t, then_t = "、".join(res.now) or "无人", "、".join(res.then) or "无阵营"
        size, rest = table_text(world.k, trace.table, trace.states[-1], seated=world.vocab.seats)
        event = _AFTER[(skill.trigger or {}).get("event")]
        gone = f"P{dict(mv.binding.others).get('victim', mv.binding.self_slot) + 1}"
        return Finding(
            kind=self.kind, severity=self.severity, verdict="witnessed", subjects=(skill.name,),
            message=f"{gone}{event}时{now_t}已达成胜利条件，规则没有说明此时{cx.skill_text(skill)}是否还能发动"
                    f"（发动后满足胜利条件的是{then_t}）。",
            message_en=f"A going out meets a win while '{skill.name}' answering it would change the winners; "
                       "the text does not say which comes first.",
            locations=cx.locs(skill.where), key=("wincheck", skill.uid),
            scenario={"roles": [describe_player(rs, trace.states[0], i, dealt=True) for i in range(world.k)] + ([rest] if rest else []),
                      "steps": opening(size, trace.steps),
                      "outcomes": [f"立即判定胜负：{now_t}获胜，{cx.skill_text(skill)}不发动",
                                   f"先结算（{use}），再判定：满足胜利条件的是{then_t}"]},
            witness={"kind": "trace", "steps": trace.steps, **table_json(trace.table), **game_json(trace),
                     "claim": {"game_over": True, "then": {"move": "skill", "skill": skill.uid,
                                                           "self": mv.binding.self_slot, "targets": list(mv.binding.targets),
                                                           "others": dict(mv.binding.others)},
                               "win_after": list(res.then)}},
            question=f"{gone}{event}使{now_t}达成胜利条件时，{cx.skill_text(skill)}还能发动吗？",
            rulings=({"ruling": "立即判定胜负，不再发动", "outcome": f"{now_t}获胜"},
                     {"ruling": f"先结算{cx.skill_text(skill)}，再判定胜负", "outcome": f"满足胜利条件的是{then_t}"}),
        )
