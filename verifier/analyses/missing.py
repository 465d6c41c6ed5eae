"""Missing rules: situations the rules reach but never answer."""
from __future__ import annotations

from typing import Iterator

from models.encoding.reach import bindings_for, day_text, first_called, first_out_day, move_json
from models.encoding.decode import concrete
from models.encoding.scenarios import Use, empty_pick, empty_pick_in_game
from models.encoding.setup_pick import setup_pick
from models.encoding.table import players_range

from ..findings import Finding
from ..narrate import (describe_player, opening_line, pick_text, player, reason_zh, table_json, table_text, window_game_json,
                       witness_json)
from .base import Analysis, Context
from .cases import CaseCoverage
from .win_lose import LostFactionBack
from .pending import trace_skills


def random_picks(effects) -> list:
    """(effect, filter) for every 'random player matching F' the effects name."""
    out = []
    for e in effects:
        a = e.args if isinstance(e.args, dict) else {}
        for v in a.values():
            if isinstance(v, dict) and "random" in v:
                out.append((e, v["random"] or {}))
    return out


# ---- random picks made at setup, decided at the deal for every player count ----------------
def runs_at_setup(rs, skill) -> bool:
    """The skill resolves at setup: a setup trigger, or a timing of once-phases only."""
    once = {p.name for p in rs.phases if p.once}
    return (skill.trigger or {}).get("event") == "setup" or bool(skill.timing and set(skill.timing) <= once)


def setup_pick_findings(cx: Context, skill, e, flt: dict) -> Iterator[Finding]:
    """One finding per (skill, effect): the player counts at which the deal can leave the pick
    nobody to choose (missing-rule), or, when none can be shown, those the solver could not
    decide (unknown)."""
    rs = cx.rs
    got = setup_pick(cx.world, cx.solver, skill, e, flt)
    empty, unknown = got.where("empty"), got.where("unknown")
    if not empty and not unknown:
        return
    who, what = cx.skill_text(skill), pick_text(flt)
    players = (rs.setup or {}).get("players") or {}
    locations = cx.locs(e.where, skill.where, cx.src_where(players.get("src"), cx.yaml_line(("setup", "players"))))
    checked = (got.checked,) if got.checked else ()
    key = ("empty-pick", skill.uid, str(e.index))
    why = "人数少于模型的玩家槽位" if all(c.reason == "slots" for c in got.counts if c.answer == "unknown") \
        else "求解预算用尽"
    if not empty:
        yield Finding(
            kind="unknown", severity="warning", verdict="unknown", subjects=(skill.name,),
            message=f"未能判定{who}开局随机选择一名{what}时，{counts_text(unknown)} 人局中是否可能无人可选（{why}）。",
            message_en=f"Could not decide whether the setup pick of '{skill.name}' can find nobody (solver budget).",
            locations=locations, key=key, assumptions=checked,
        )
        return
    outcomes = [f"{counts_text(empty)} 人局中没有符合条件的角色：规则未给出结果"]
    target = next((c.target for c in got.counts if c.answer == "empty" and c.target), "")
    if unknown:
        outcomes.append(f"{counts_text(unknown)} 人局未能判定（{why}）")
    yield Finding(
        kind="missing-rule", severity="warning", verdict="witnessed", subjects=(skill.name,),
        message=f"{who}要在开局随机选择一名{what}，但 {counts_text(empty)} 人局的发牌可能没有任何这样的角色，规则未说明此时如何处理。",
        message_en=f"The setup pick of '{skill.name}' can find nobody at {counts_text(empty)} players.",
        locations=locations, key=key, assumptions=checked,
        scenario={"roles": [f"{c.n} 人局：{deal_text(rs, c.deal)}" for c in got.counts if c.answer == "empty"],
                  "steps": [f"开局：{who}结算" + (f"（目标为{target}）" if target else "") + f"，需要随机选择一名{what}"],
                  "outcomes": outcomes},
        question=f"{who}开局找不到符合条件的角色时怎么办？",
    )


def counts_text(ns: list[int]) -> str:
    """15、16、17 → 15–17; runs of consecutive counts joined, others listed."""
    runs: list[list[int]] = []
    for n in sorted(ns):
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return "、".join(f"{r[0]}–{r[-1]}" if len(r) > 2 else "、".join(map(str, r)) for r in runs)


def deal_text(rs, deal: dict[str, int]) -> str:
    """A deal by the setup's groups (by faction where it lists none): 甲组 5（A、B×4）."""
    def part(name: str, roles: list[str]) -> str:
        got = [(r, deal[r]) for r in roles if deal.get(r)]
        listed = "、".join(f"{r}×{c}" if c > 1 else r for r, c in got)
        return listed if roles == [name] else f"{name} {sum(c for _, c in got)}（{listed}）"
    parts, placed = [], set()
    for g in (rs.setup or {}).get("groups") or []:
        members = [r for r in (g.get("roles") or [g["name"]]) if deal.get(r) and r not in placed]
        if members:
            parts.append(part(g["name"], members))
            placed.update(members)
    by_faction: dict[str, list[str]] = {}
    for r in sorted(deal):
        if r not in placed and deal[r]:
            by_faction.setdefault(rs.roles[r].faction, []).append(r)
    parts += [part(f, roles) for f, roles in sorted(by_faction.items())]
    return "、".join(parts)


def _tie_sketch(rs) -> dict:
    """A tie at the first vote that can put someone out, at the smallest table the setup
    allows: four players split two and two, the others' ballots go elsewhere one each (a
    sketch of the vote, not a game: no skill is used before it)."""
    rng = players_range(rs)
    n = rng[0] if rng else 4
    day = first_out_day(rs)
    rest = n - 4
    return {"roles": ["P1、P2、P3、P4：均存活、均有投票权"] +
                     ([f"其余 {rest} 名玩家：均存活、均有投票权（身份不影响这一局面）"] if rest > 0 else []),
            "steps": [(f"{n} 人局，" if rng else "") + f"{day_text(day, first_called(rs))}投票：P1、P2 投给 P3；P3、P4 投给 P1" +
                      ("；其余玩家各投给不同的玩家或弃票，没有人的得票达到 2 票" if rest > 0 else "")],
            "outcomes": ["P1 与 P3 各得 2 票并列最高：规则未给出结果" +
                         ("（票权不同时，按各自的票权计）" if _weights_differ(rs) else "")]}


def _weights_differ(rs) -> bool:
    """Some skill changes a player's vote weight or votes received: a tie then depends on them."""
    return any(e.kind in ("vote_weight", "received_votes") for s in rs.skills for e in s.all_effects())


class MissingRule(Analysis):
    """A reachable situation for which the rules give no outcome: a vote tie the vote rules
    do not cover, a faction with neither a win nor a lose condition, or a random pick
    ("随机一名…") from a set that can be empty, or sibling effects that split a number into
    tiers and leave a reachable value with no tier (cases.py). The judge has to improvise. Example: 开局随机一名
    甲阵营角色获得[某状态], while at 8 players the deal may hold no 甲阵营 player. Fix: add the
    rule (what happens when nobody qualifies), or change the setup so somebody always does.
    A pick made at setup is decided at the deal for every player count of the setup's range
    (an open top: up to 5 above the minimum, said in the finding; no range: the model's player
    slots): exactly from the card counts when the pick reads only what a card says, otherwise
    by the solver over the dealt table (a budget-out is `unknown`). Limits: the situations the
    language names; a setup pick sees the table as dealt (other setup effects resolving before
    it are not applied), and the deal follows the setup's groups and card counts only (a
    constraint the text states in prose, not in `groups`, is not used)."""
    kind = "missing-rule"
    summary = "规则没有覆盖的可达局面"
    severity = "error"
    decides_by = "text"
    may_be_unknown = True   # a setup pick the solver decides can run out of budget

    def run(self, cx: Context) -> Iterator[Finding]:
        yield from LostFactionBack().run(cx)
        rs = cx.rs
        v = rs.voting
        if v is not None and not v.get("tie") and not v.get("external"):
            where = cx.src_where(v.get("src"), cx.yaml_line(("voting",)))
            yield Finding(
                kind=self.kind, severity="error", verdict="witnessed", subjects=("投票",),
                message="投票规则没有说明平票（两名或以上角色得票相同且最高）时如何处理。",
                message_en="The vote rules do not say what happens on a tie.",
                locations=cx.locs(where), key=("vote-tie",),
                scenario=_tie_sketch(rs),
                question="投票出现平票时如何处理？",
                rulings=({"ruling": "平票者都出局", "outcome": "P1、P3 出局"},
                         {"ruling": "无人出局", "outcome": "无人出局"},
                         {"ruling": "重新投票", "outcome": "再投一轮"}),
            )
        for skill in rs.skills:
            for e, flt in random_picks(skill.all_effects()):
                if runs_at_setup(rs, skill):
                    yield from setup_pick_findings(cx, skill, e, flt)
                    continue
                b = bindings_for(cx.world, skill, [0])[:1]
                if not b:
                    continue
                ans, start = empty_pick(cx.world, cx.solver, Use(skill, b[0]), flt, e.guard)
                if ans.sat:
                    yield from self._pick_in_game(cx, skill, e, flt, b[0])
        yield from CaseCoverage().run(cx)
        yield from self._endless(cx)

    def _pick_in_game(self, cx: Context, skill, e, flt: dict, binding) -> Iterator[Finding]:
        """A pick the reachable states can leave empty, confirmed in a game (a legal deal at the
        stated table, legal moves, the rest of the table counted): witnessed only then."""
        rs, depth = cx.rs, int(cx.rs.bounds["depth"])
        key = ("empty-pick", skill.uid, str(e.index))
        use = {"skill": skill.uid, "self": binding.self_slot, "targets": list(binding.targets),
               "others": dict(binding.others)}
        game = None
        for trail in cx.earlier_trails((self.kind,), lambda w: w.get("kind") == "pick" and
                                       (w.get("game") or {}).get("window") == [use]):
            # the game of the baseline still leaves the pick empty: the story stays as it was
            game = empty_pick_in_game(cx.world, cx.solver, Use(skill, binding), flt, e.guard, depth,
                                      trace_skills(rs, cx.world), pin=trail)
            if game.answer.sat:
                break
        if game is None or not game.answer.sat:
            game = empty_pick_in_game(cx.world, cx.solver, Use(skill, binding), flt, e.guard, depth,
                                      trace_skills(rs, cx.world))
        if game.answer.status == "unknown":
            yield Finding(
                kind="unknown", severity="warning", verdict="unknown", subjects=(skill.name,),
                message=f"{cx.skill_text(skill)}随机选择时可能无人可选，但未能在对局中确认（{reason_zh(game.answer.reason)}）。",
                message_en=f"'{skill.name}' may pick from an empty set; not confirmed in a game.",
                locations=cx.locs(e.where, skill.where), key=key)
            return
        if not game.answer.sat:
            return   # no legal game within the depth leaves the pick empty
        who = "、".join(player(t) for t in binding.targets)
        size, rest = table_text(cx.world.k, game.table, game.dealt, seated=cx.world.vocab.seats)
        history = [text for text, _ in game.history if text]
        start = concrete(game.answer.model, game.s0, cx.world.sorts)
        yield Finding(
            kind=self.kind, severity="warning", verdict="witnessed", subjects=(skill.name,),
            message=f"{cx.skill_text(skill)}要求随机选择一名{pick_text(flt)}，但可能没有任何角色符合条件，规则未说明此时如何处理。",
            message_en=f"'{skill.name}' picks a random player from a set that can be empty.",
            locations=cx.locs(e.where, skill.where), key=key,
            scenario={"roles": [describe_player(rs, game.dealt if history else start, i, dealt=True) for i in range(cx.world.k)]
                      + ([rest] if rest else []),
                      "steps": opening_line(size, game.setup, history) + [
                                f"{cx.skill_text(skill)}结算（{player(binding.self_slot)}" + (f"，目标 {who}" if who else "")
                                + f"），需要随机选择一名{pick_text(flt)}"],
                      "outcomes": ["没有符合条件的角色：规则未给出结果"]},
            witness={"kind": "pick", "skill": skill.uid, "history": history, "start": witness_json(start),
                     **table_json(game.table),
                     **window_game_json(game.dealt, [move_json(mv) for _, mv in game.history], [use],
                                        trail=game.trail)},
            question=f"{cx.skill_text(skill)}找不到符合条件的角色时怎么办？",
        )

    def _endless(self, cx: Context) -> Iterator[Finding]:
        rs = cx.rs
        # one root cause: every faction the text gives no end conditions is one finding
        named = _ended_by_effects(rs)
        endless = [(name, f) for name, f in sorted(rs.factions.items())
                   if f.win is None and f.lose is None and not f.shares_win and not f.external and name not in named]
        if endless:
            names = "、".join(name for name, _ in endless)
            yield Finding(
                kind=self.kind, severity="warning", verdict="proved", subjects=tuple(n for n, _ in endless),
                message=f"{names}既没有胜利条件也没有失败条件：规则没有说明{'这些阵营' if len(endless) > 1 else '该阵营'}何时获胜或出局。",
                message_en=f"{names}: neither a win nor a lose condition.",
                locations=cx.locs(*(f.where for _, f in endless)), key=("no-end",),
                scenario={"roles": [], "steps": [f"{n}：原文第{'、'.join(map(str, f.where.src[:4]))}行" for n, f in endless],
                          "outcomes": ["没有胜负条件：导演无法判定其胜负"]},
                question=f"{names}在什么情况下获胜？",
            )


def _ended_by_effects(rs) -> set[str]:
    """Factions a win or lose effect names: as the faction it declares, or in its condition
    ("the holder's faction wins; faction F only once a counter is 0" names F). A win for
    whoever holds something ($self) names no faction; nor does a skill whose wins name every
    faction in turn ("the other faction left wins"): neither is an end condition of a
    faction's own."""
    out: set[str] = set()
    for skill in rs.skills:
        named: set[str] = set()

        def walk(x) -> None:
            if isinstance(x, str) and x in rs.factions:
                named.add(x)
            elif isinstance(x, dict):
                for v in x.values():
                    walk(v)
            elif isinstance(x, (list, tuple)):
                for v in x:
                    walk(v)
        for e in skill.all_effects():
            if e.kind in ("win", "lose"):
                walk([e.args, e.guard])
        if len(named) < len(rs.factions) - 1:
            out |= named
    return out

