"""Infinite trigger loops: the trigger graph (an effect produces an event a trigger
consumes) built with networkx, each cycle checked for feasibility and termination."""
from __future__ import annotations

from typing import Iterator

import networkx as nx

from models.domain import Ruleset, Skill
from models.encoding.loop_game import TOO_MANY, cycle_in_game
from models.encoding.reach import bindings_for
from models.encoding.scenarios import Use, enabled_ever
from models.encoding.semantics import UNMODELLED_KINDS

from ..findings import Finding
from ..narrate import describe_player, game_json, now_line, opening, pick_text, steps_zh, table_json, table_text
from .base import Analysis, Context
from .pending import trace_skills


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


def invoked(rs: Ruleset, skill: Skill) -> list[tuple[Skill, dict]]:
    """The skills a use_skill effect of skill can make someone use at once, each with that
    effect's arguments (which limits the use breaks, who uses it)."""
    out = []
    for e in skill.all_effects():
        if e.kind != "use_skill" or not isinstance(e.args, dict):
            continue
        a = e.args
        barred = {rs.aliases.get(t, t) for t in a.get("except_tags") or []}
        for s in rs.skills:
            if s.trigger or s.static or not (s.timing or s.targets):
                continue   # only a skill one uses can be used this way
            if a.get("skill") not in ("$any", s.name) or barred & {rs.aliases.get(t, t) for t in s.tags}:
                continue
            out.append((s, a))
    return out


def _user_holds(rs: Ruleset, skill: Skill, used: Skill, a: dict) -> bool:
    """Whoever the effect makes use `used` may hold it: the holder of `skill` itself (who:
    self, or a target the filter lets be the holder), or another player (a shared skill, or
    one an effect grants)."""
    who = a.get("who", "target")
    if used is not skill:
        return True
    if who == "self" or (who in ("target", "target1", "target2") and not (skill.targets or {}).get("filter", {}).get("other")):
        return True
    granted = any(e.kind == "gain_skill" and isinstance(e.args, dict) and e.args.get("skill") in (used.name, "$all")
                  for e in rs.effects())
    return bool(used.owner) or granted


GOING_OUT_EVENTS = ("about_to_go_out", "went_out", "killed")


def _reaches_holder(rs: Ruleset, a: Skill, b: Skill, event: tuple) -> bool:
    """A going out a causes can be the one b listens for (on: self): some out or damage of a
    may land on b's holder. A filter naming a role lands only on that role; `self` only on
    a's holder."""
    trig = b.trigger or {}
    if event[0] not in GOING_OUT_EVENTS or trig.get("on", "self") != "self" or event[0] == "killed":
        return True
    for e in a.all_effects():
        args = e.args if isinstance(e.args, dict) else {}
        if e.kind not in ("damage", "out"):
            continue
        who = args.get("who", "target")
        if isinstance(who, dict) and who.get("role") and b.owner_role:
            roles = who["role"] if isinstance(who["role"], list) else [who["role"]]
            if b.owner_role in {rs.aliases.get(r, r) for r in roles if isinstance(r, str)}:
                return True
        elif who == "self":
            if a is b or (a.owner_role and a.owner_role == b.owner_role):
                return True
        else:
            return True
    return any(e.kind == "opaque" for e in a.all_effects())


def trigger_graph(rs: Ruleset) -> nx.DiGraph:
    """An edge a -> b when a use of a can make b resolve: a produces the event trigger b
    listens for, or a makes someone use b at once (use_skill)."""
    g = nx.DiGraph()
    triggered = [s for s in rs.skills if s.trigger]
    for s in rs.skills:
        g.add_node(s.uid, skill=s)
    for a in rs.skills:
        events = produced_events(rs, a)
        for b in triggered:
            hit = sorted((e for e in events if consumes(b, e) and _reaches_holder(rs, a, b, e)), key=repr)
            if hit:
                g.add_edge(a.uid, b.uid, event=hit[0])
        for b, args in invoked(rs, a):
            if _user_holds(rs, a, b, args):
                g.add_edge(a.uid, b.uid, event=("use_skill", b.name), breaks=tuple(args.get("ignores") or ()))
    return g


def terminates(rs: Ruleset, cycle: list[Skill], events: list[tuple], breaks: list[tuple] | None = None) -> str | None:
    """A decreasing measure that bounds the loop, in words, or None. A measure is refused
    when a skill of the cycle undoes it: a use limit the step into that skill breaks
    (use_skill ignoring 次数/限定) or a member refreshes; going out once when a member
    revives or prevents the going out."""
    limited = {t.name for t in rs.tags.values() if t.meaning == "limited"}
    breaks = breaks or [()] * len(cycle)
    refreshed = {a.get("skill") for s in cycle for e in s.all_effects()
                 if e.kind in ("refresh_skill", "extra_use") for a in [e.args if isinstance(e.args, dict) else {}]}
    for i, s in enumerate(cycle):
        into = set(breaks[i - 1])   # how the cycle's previous step makes s resolve
        if s.name in refreshed or "$all" in refreshed or "$chosen" in refreshed:
            continue
        if s.uses and s.uses.get("per") == "game" and "uses" not in into:
            return f"{s.shown}全局限用{s.uses['count']}次"
        if set(s.tags) & limited and not {"limited", "uses"} & into:
            return f"{s.shown}是限定技"
        if s.charges is not None and "uses" not in into:
            return f"{s.shown}有次数限制"
        if s.uses and "uses" not in into:
            return f"{s.shown}每个时段限用{s.uses['count']}次"
    granted = {(e.args or {}).get("status") for s in cycle for e in s.all_effects()
               if e.kind == "grant_status" and isinstance(e.args, dict)}
    for s in cycle:
        spent = _spent_status(s)
        if spent and spent not in granted:
            return f"{s.shown}每次都要去除目标的[{spent}]，而它的目标必须持有[{spent}]"
    kinds = {e.kind for s in cycle for e in s.all_effects()}
    # each round someone really goes out, unless a member revives, or every step is an
    # "about to go out" that a member of the cycle may prevent
    really_out = any(e[0] in ("went_out", "killed", "faction_eliminated") for e in events) or "prevent_out" not in kinds
    if all(e[0] in ("went_out", "about_to_go_out", "killed", "faction_eliminated") for e in events) \
            and "revive" not in kinds and really_out:
        return "每名角色只能出局一次"
    if all(e[0] == "status_gained" for e in events) and "remove_status" not in kinds:
        return "状态已持有时再次获得不会产生新事件"
    return None


def _changes_each_round(cycle: list[Skill]) -> bool:
    """Some skill of a use_skill cycle does something of its own besides passing the use on
    (a point gained each time): the repetition then adds up. A chain that only makes the
    next one use a skill ends in one use of some skill, whatever its length."""
    inert = UNMODELLED_KINDS | {"use_skill", "opaque"}
    return any(e.kind not in inert for s in cycle for e in s.all_effects())


def _spent_status(s: Skill) -> str | None:
    """A status the skill's targets must hold and its resolution removes from them: each use
    uses up some of a finite supply."""
    t = s.targets or {}
    need = (t.get("filter") or {}).get("has_status")
    if not need or s.min_targets < 1:
        return None
    for e in s.all_effects():
        a = e.args if isinstance(e.args, dict) else {}
        if e.kind == "remove_status" and a.get("who") == "target" and a.get("status") == need and e.guard is None:
            return need
    return None


class Loop(Analysis):
    """Triggers that can re-fire each other without bound: effect A produces the event that
    trigger B listens for, and B's effect produces A's event again; or a skill that makes
    someone use a skill at once (use_skill) can make them use itself again. A game that
    reaches it never finishes the step (or gives unlimited uses). Fix: limit uses, or say
    the trigger fires once per window. Reported unless a decreasing measure proves
    termination, and a measure counts only if nothing in the cycle undoes it (a use limit the
    use_skill breaks or a member refreshes; going out once while a member revives, or
    prevents every going out of the cycle).
    Verdict witnessed: a game from a legal deal at the table the setup states reaches one
    full round of the cycle (each member resolving in the state the one before left, the
    first firing again after the last). Limits: cycles of up to 4 skills; bounded traces
    (quiet days, then `depth` moves); a round that comes back once is taken to come back
    always (no measure was found that stops it)."""
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
            edges = [g.edges[cycle[i], cycle[(i + 1) % len(cycle)]] for i in range(len(cycle))]
            events = [e["event"] for e in edges]
            if any(s.is_opaque for s in skills) and not all(e["event"][0] == "use_skill" for e in edges):
                continue   # an opaque effect's events are guesses; a use_skill edge is stated
            if terminates(cx.rs, skills, events, [e.get("breaks", ()) for e in edges]):
                continue
            if all(e["event"][0] == "use_skill" for e in edges) and not _changes_each_round(skills):
                continue   # a chain of uses that only pass the use on is one use: nothing repeats
            if not all(self._can_fire(cx, s) for s in skills):
                continue   # some member never fires anywhere: no game runs the cycle
            passed = [edges[i - 1]["event"][0] == "use_skill" for i in range(len(skills))]
            yield from cx.cached_global("loop", tuple(cycle),
                                        lambda skills=skills, edges=edges, passed=passed, cycle=cycle:
                                        self._decide(cx, cycle, skills, edges, passed))

    def _decide(self, cx: Context, cycle: list[str], skills: list[Skill], edges: list[dict],
                passed: list[bool]) -> tuple[list[Finding], dict | None]:
        """The cycle confirmed in a game: a legal deal and legal moves reach one full round."""
        rs, world = cx.rs, cx.world
        names = tuple(dict.fromkeys(s.name for s in skills))
        chain = " → ".join(s.shown for s in skills + skills[:1])
        game = cycle_in_game(world, cx.solver, skills, passed, trace_skills(rs, world),
                             int(rs.bounds["depth"]), int(rs.bounds["quiet"]))
        trace = game.trace
        if trace.answer.status == "unknown":
            return [Finding(kind="unknown", severity="warning", verdict="unknown", subjects=names,
                            message=f"触发链 {chain} 能否在一局游戏中完整循环一轮，"
                                    + ("绑定组合过多，未全部检查。" if trace.answer.reason == TOO_MANY else "在求解预算内未能判定。"),
                            locations=cx.locs(*(s.where for s in skills)), key=("loop", *sorted(cycle)))], None
        if not game.uses:
            # within the bounds no game goes round (a longer one might): said, not dropped
            depth = int(rs.bounds["depth"])
            return [Finding(kind="unknown", severity="info", verdict="unknown", subjects=names,
                            message=f"触发链 {chain} 在规则上可以互相触发，但开局后 {steps_zh(depth)}内没有合法对局完整循环一轮。",
                            message_en=f"Trigger cycle {chain} is possible in the rules, but no game within the bounds goes round.",
                            locations=cx.locs(*(s.where for s in skills)), key=("loop", "within-bounds", *sorted(cycle)),
                            scenario={"roles": [], "steps": [f"{chain}：界限内的对局走不到完整的一轮"],
                                      "outcomes": ["界限内不会无限循环；更长的对局未检查"]})], None
        if all(e["event"][0] == "use_skill" for e in edges):
            broken = sorted({BREAK_WORDS[b] for e in edges for b in e.get("breaks", ()) if b in BREAK_WORDS})
            message = (f"{chain}：每次结算都可以令目标立即使用下一个技能（目标可以是持有者自己）" +
                       (f"，且以此使用的技能突破{''.join(f'[{b}]' for b in broken)}的限制" if broken else "") +
                       "，没有次数限制使其终止，可以无限重复。")
            outcome = "回到第一步：每次都可以再使用一次，使用次数没有上限"
        else:
            message = f"触发链 {chain} 可以无限循环：每一步都产生下一步的触发事件，且没有次数限制使其终止。"
            first, b0 = game.uses[0]
            outcome = f"回到第一步（{_actor(b0)} 的{first.shown}再次结算），结算永不结束"
        # the round as the game enters it
        skills, edges = skills[game.start:] + skills[:game.start], edges[game.start:] + edges[:game.start]
        size, rest = table_text(world.k, trace.table, trace.states[-1], seated=world.vocab.seats)
        round_steps = [f"{_actor(b)}：" + _step(cx, s, skills[(i + 1) % len(skills)], edges[i])
                       for i, (s, b) in enumerate(game.uses)]
        uses = [{"skill": s.uid, "self": b.self_slot, "targets": list(b.targets), "others": dict(b.others)}
                for s, b in game.uses]
        return [Finding(
            kind=self.kind, severity="error", verdict="witnessed", subjects=names,
            message=message,
            message_en=f"Trigger cycle {chain} can repeat without bound.",
            locations=cx.locs(*(s.where for s in skills)), key=tuple(sorted(cycle)),
            # the cast as setup left it; who changed on the way to the round, as they are then
            scenario={"roles": [describe_player(rs, trace.states[0], i, dealt=True) for i in range(world.k)] + ([rest] if rest else []),
                      "steps": opening(size, trace.steps) +
                               (now_line(rs, trace.states[0], trace.states[-1], range(world.k)) or ["此时："]) + round_steps,
                      "outcomes": [outcome]},
            witness={"kind": "trace", "steps": trace.steps, **table_json(trace.table), **game_json(trace),
                     "claim": {"cycle": uses, "passed": game.passed}},
            question=f"{chain} 互相触发时如何终止？",
        )], {"kind": "trace", "skills": sorted(set(trace.used) | {s.uid for s in skills})}

    def _can_fire(self, cx: Context, s: Skill) -> bool:
        for b in bindings_for(cx.world, s, [0])[:8]:
            if enabled_ever(cx.world, cx.solver, Use(s, b)).sat:
                return True
        return False


# the events of the trigger graph in the words of the rule texts
EVENT_WORDS = {"targeted": "被指定为目标", "went_out": "出局", "about_to_go_out": "即将出局", "killed": "致人出局",
               "faction_eliminated": "阵营全部出局", "faction_changed": "阵营改变", "status_gained": "获得状态",
               "counter_reached": "计数达到", "skill_used": "技能发动"}
BREAK_WORDS = {"timing": "发动时间", "condition": "发动条件", "status": "状态", "limited": "限定", "uses": "次数",
               "lost": "已失去技能", "targets": "目标选择"}


def _step(cx: Context, s: Skill, nxt: Skill, edge: dict) -> str:
    ev = edge["event"]
    if ev[0] == "use_skill":
        broken = "、".join(f"[{BREAK_WORDS[b]}]" for b in edge.get("breaks", ()) if b in BREAK_WORDS)
        return f"{cx.skill_text(s)}结算，令目标立即使用{cx.skill_text(nxt)}" + (f"（突破{broken}的限制）" if broken else "")
    what = EVENT_WORDS.get(ev[0], ev[0]) + (f"[{ev[1]}]" if len(ev) > 1 and ev[1] else "")
    hit = [(f"对{_whom(e.args.get('who', 'target'))}造成[{e.args.get('kind', '伤害')}]" if e.kind == "damage"
            else f"使{_whom(e.args.get('who', 'target'))}出局")
           for e in s.all_effects()
           if ev[0] in GOING_OUT_EVENTS and e.kind in ("damage", "out") and isinstance(e.args, dict)]
    if hit:
        return f"{cx.skill_text(s)}结算，{'、'.join(dict.fromkeys(hit))}，触发{cx.skill_text(nxt)}（其持有者{what}）"
    return f"{cx.skill_text(s)}结算，产生事件「{what}」，触发{cx.skill_text(nxt)}"


def _whom(who) -> str:
    """Who an effect lands on, in the rule text's words (its holder may be among them)."""
    if isinstance(who, dict):
        return pick_text(who)
    return {"self": "自己", "target": "目标", "victim": "出局者", "caster": "发动者", "source": "来源"}.get(str(who), str(who))

def _actor(b) -> str:
    """Who resolves a member of the round, and on whom."""
    on = "、".join(f"P{t + 1}" for t in b.targets)
    return f"P{b.self_slot + 1}" + (f"（目标 {on}）" if on else "")
