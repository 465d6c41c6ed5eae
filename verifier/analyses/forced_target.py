"""Forced targeting (must_target) against the target rules of the skill it forces."""
from __future__ import annotations

from dataclasses import replace
from typing import Iterator

from models.domain import Effect, Skill
from models.encoding.decode import concrete
from models.encoding.quiet import forced
from models.encoding.reach import use_text, uses_words
from models.encoding.scenarios import possible
from models.encoding.semantics import Unbound
from models.encoding.world import Binding

from ..findings import Finding
from ..narrate import describe_player, named_in, player, reason_zh, relevant
from .base import Context
from .contradiction import Contradiction
from .influence import skill_reads
from .order import MESSAGE_MAX
from .win_lose import WinAndLose

WHO_ZH = {"self": "发动者", "target": "其目标", "caster": "发动者", "victim": "出局者", "source": "出局的来源"}
FILTER_ZH = {  # key -> (text when true, text when false); a value is appended where the key takes one
    "alive": ("存活", "已出局"), "dead": ("已出局", "存活"), "other": ("自己以外", None),
    "faction": ("属于{}", None), "not_faction": ("不属于{}", None), "initial_faction": ("初始属于{}", None),
    "role": ("身份为{}", None), "not_role": ("身份不为{}", None), "has_status": ("持有[{}]", None),
    "lacks_status": ("未持有[{}]", None), "label": ("有[{}]标签", None), "not_label": ("没有[{}]标签", None),
}


class ForcedTarget(Contradiction):
    """Besides the contradictions above: a forced target (must_target: "when they next use an
    active skill they must choose X") that the forced skill's own targeting rules forbid. For
    each must_target effect, every active skill with targets that the forced players can hold
    (by role, shared owner or a gained skill, as the encoding decides) and that still has a
    phase after the forcing (not only once-phases that are over) is checked in a reachable state
    right after the forcing skill resolves: its target filter excludes X (X is alive and the
    skill only takes players who are out; X is out and it takes living players; `other` with X
    the user; a faction, role, status or label X lacks), or its no_repeat_target rule forbids X
    because the forced player chose X with it the night before (that use is part of the state).
    Only a skill its holder must use (a tag meaning forced, [强制]) is checked: an optional
    skill whose forced target is illegal simply cannot be used, which the text already answers.
    Why: the text then demands two incompatible things of one player, and the judge must rule
    whether the skill is skipped after all, is used ignoring its limit, or the target is free.
    Fix: say it in the forcing skill's text (被强制时无视目标限制 / 无法发动), or give a precedence
    or a ruling naming both skills. Limits: one forcing use and one binding of its words; the
    state of the forced use is the one right after the forcing (later deaths, status durations
    and "当晚" are not modelled); a skill's condition must hold for X, so only the filter or the
    no-repeat rule forbids it; a budget-out is reported as unknown."""
    may_be_unknown = True

    def run(self, cx: Context) -> Iterator[Finding]:
        yield from super().run(cx)
        yield from self.forced_targets(cx)
        yield from WinAndLose().run(cx)

    def forced_targets(self, cx: Context) -> Iterator[Finding]:
        for skill in cx.rs.skills:
            for e in skill.all_effects():
                if e.kind != "must_target" or not isinstance(e.args, dict):
                    continue
                for forced in _active_skills(cx):
                    if not _mandatory(cx, forced):
                        continue   # an optional skill whose forced target is illegal just can't be used
                    if self._settled(cx, skill, forced.name) or not _window_left(cx, skill, forced):
                        continue
                    reasons = (["filter"] if (forced.targets or {}).get("filter") else []) + \
                        (["no-repeat"] if _no_repeat(cx, forced) and _repeats(cx, forced) else [])
                    for reason in reasons:
                        extra = [reason, e.index, _binding_json(_forcing_binding(cx, skill))]
                        yield from cx.cached("forced-target", [skill, forced], extra,
                                             lambda s=skill, e=e, f=forced, r=reason: self._decide(cx, s, e, f, r))

    def _decide(self, cx: Context, skill: Skill, e: Effect, forced: Skill, reason: str) -> Iterator[Finding]:
        world, sem = cx.world, cx.world.sem
        b = _forcing_binding(cx, skill)
        bd = b.as_dict()
        probe = world.state("ft")
        try:
            pairs = [(w, t) for w, _ in sem.slots(e.args.get("who"), bd, probe)
                     for t, _ in sem.slots(e.args.get("target"), bd, probe)]
        except Unbound:
            return
        unknown = None
        for w, t in pairs:
            kept: dict = {}
            ans, _, _ = possible(world, cx.solver, [], lambda s0, w=w, t=t, kept=kept:
                                 _situation(cx, skill, e, forced, reason, b, w, t, s0, kept), "forced-target")
            if ans.sat:
                yield self._finding(cx, skill, e, forced, reason, w, t,
                                    {k: concrete(ans.model, st, world.sorts) for k, st in kept.items()})
                return
            if ans.status == "unknown" and unknown is None:
                unknown = ans.reason
        if unknown is not None:
            if unknown.startswith("unbound:"):
                return
            yield Finding(kind="unknown", severity="warning", verdict="unknown", subjects=(skill.name, forced.name),
                          message=f"{cx.skill_text(skill)}强制指定的目标是否可能被{cx.skill_text(forced)}的目标规则禁止，"
                                  f"在求解预算内未能判定（{reason_zh(unknown)}）。",
                          message_en=f"Whether '{skill.name}' can force '{forced.name}' onto a target it forbids "
                                     f"was not decided within the budget.",
                          locations=cx.locs(e.where, forced.where), key=("forced-target", skill.uid, forced.uid, reason))

    def _finding(self, cx: Context, skill: Skill, e: Effect, forced: Skill, reason: str, w: int, t: int,
                 states: dict) -> Finding:
        today, after = states["today"], states["after"]
        forcer = cx.owner_name(skill)
        target_zh = _who_zh(e.args.get("target"), forcer)
        who_zh = _who_zh(e.args.get("who"), forcer)
        if reason == "filter":
            limit = f"只能选择{_filter_zh(forced.targets['filter'])}的角色"
            outcome = f"按{cx.skill_text(forced)}：{player(t)} 不符合目标条件，不能被选择"
        else:
            limit = "不能连续两晚选择同一名角色"
            outcome = f"按{cx.skill_text(forced)}：{player(w)} 昨晚已选择 {player(t)}，今晚不能再选择"
        head = f"{cx.skill_text(skill)}要求{who_zh}下次发动主动技能时必须选择{target_zh}为目标，而{cx.skill_text(forced)}"
        tail = "规则没有说明被强制的目标不合法时怎么办。"
        message = f"{head}{limit}，{tail}"
        if len(message) > MESSAGE_MAX:
            message = f"{head}的目标规则禁止该目标，{tail}"
        cast = sorted({w, t} | set(_slots_of(_forcing_binding(cx, skill))))
        # the cast shows the statuses and labels these two skills read (not what lingers in
        # the model from the night before: durations are not modelled)
        words = skill_reads(skill, cx.rs) | skill_reads(forced, cx.rs)
        shown = (named_in(words, "status") & relevant(cx.rs), named_in(words, "label"))
        roles = [describe_player(cx.rs, today, i, *shown) for i in cast]
        steps = []
        if reason == "no-repeat":
            steps.append("前一晚：" + use_text(player(w), forced, cx.skill_text(forced), player(t)))
        use = _forcing_binding(cx, skill)
        aimed = player(use.targets[0]) if use.targets else ""
        steps.append(use_text(player(use.self_slot), skill, cx.skill_text(skill), aimed) + f"：{player(w)} 下次发动主动技能时必须选择 "
                     f"{player(t)} 为目标")
        now = describe_player(cx.rs, after, t, *shown)
        changed = now != describe_player(cx.rs, today, t, *shown)
        steps.append(f"{player(w)} 欲发动{cx.skill_text(forced)}" + (f"（此时 {now}）" if changed else ""))
        forced_by = f"按{cx.skill_text(skill)}：{player(w)} 必须选择 {player(t)}"
        return Finding(
            kind=self.kind, severity="warning", verdict="witnessed", subjects=(skill.name, forced.name),
            message=message,
            message_en=f"'{skill.name}' forces a target that '{forced.name}' may not choose "
                       f"({'its target filter' if reason == 'filter' else 'no two nights running'}).",
            locations=cx.locs(e.where, skill.where, forced.where),
            key=("forced-target", skill.uid, forced.uid, reason),
            scenario={"roles": roles, "steps": steps, "outcomes": [forced_by, outcome]},
            question=f"被{cx.skill_text(skill)}强制指定目标的角色发动{cx.skill_text(forced)}时，"
                     f"被强制指定的目标不合法怎么办？",
            rulings=({"ruling": f"{forced.shown}不能发动", "outcome": f"{player(w)} 本次不能发动{forced.shown}"},
                     {"ruling": "无视限制发动", "outcome": f"{player(w)} 以 {player(t)} 为目标发动{forced.shown}"},
                     {"ruling": "自由选择目标", "outcome": f"强制失效，{player(w)} 可按{forced.shown}的规则另选目标"}),
            assumptions=tuple(f"{a['about']}：{a['text']}" for a in cx.rs.assumptions
                              if a.get("about") in (skill.name, forced.name)),
        )


def _situation(cx: Context, skill: Skill, e: Effect, forced: Skill, reason: str, b: Binding, w: int, t: int,
               s0, kept: dict) -> list:
    """Constraints over the start state s0: (for no-repeat, w used the forced skill on t the night
    before, reaching `today`) the forcing skill is used in `today` and its must_target effect
    names w and t; right after it (`after`) w can use the forced skill on t except that its
    target filter (or its no-repeat rule) forbids t."""
    world, sem = cx.world, cx.world.sem
    cs: list = []
    today = s0
    unfiltered = replace(forced, targets=dict(forced.targets or {}, filter={}))
    if reason == "no-repeat":
        cs.append(world.enabled(s0, forced, Binding(w, (t,))))
        today = world.run(s0, forced, Binding(w, (t,)))
    bf = Binding(w, (t,))
    if _same_window(cx, skill, forced):
        # both uses happen in one window: conditions such as 当晚被…指定 know of the forcing
        window = ((b.self_slot, skill.name, b.targets), (w, forced.name, (t,)))
        b, bf = replace(b, window=window), replace(bf, window=window)
    cs.append(world.enabled(today, skill, b))
    bd = b.as_dict()
    pre = today
    for top in skill.effects:   # the state when the must_target effect resolves
        if _contains(top, e):
            break
        pre = sem.apply(top, pre, bd)
    if e.guard is not None:
        cs.append(sem.cond(e.guard, bd, pre))
    cs += [g for i, g in sem.slots(e.args.get("who"), bd, pre) if i == w]
    cs += [g for i, g in sem.slots(e.args.get("target"), bd, pre) if i == t]
    after = world.run(today, skill, b)
    cs.append(world.enabled(after, unfiltered, bf))
    flt = (forced.targets or {}).get("filter") or {}
    if reason == "filter":
        cs.append(sem.filter({"not": flt}, t, bf.as_dict(t), after))
    else:
        cs.append(sem.filter(flt, t, bf.as_dict(t), after))
    kept.update(today=today, after=after)
    return cs


def _contains(top: Effect, e: Effect) -> bool:
    """e is top or nested in it (instead, choose options)."""
    return top is e or any(_contains(x, e) for x in top.instead) or \
        any(_contains(x, e) for option in top.options for x in option)


def _active_skills(cx: Context) -> list[Skill]:
    """Skills a player chooses targets for in a phase (主动技能): timing, targets, no trigger."""
    return [s for s in cx.rs.skills if s.timing and s.targets and not s.trigger and not s.static
            and not s.is_opaque and s.max_targets >= 1]


def _mandatory(cx: Context, skill: Skill) -> bool:
    """The holder must use it (a tag meaning 'forced', [强制], or the text's `mandatory`;
    under a condition too: the case a finding is about may meet it): only then can a forced
    target its rules forbid leave the player with no legal move."""
    return forced(cx.rs, skill)


def _raw(cx: Context, skill: Skill) -> dict:
    node = cx.rs.raw
    for p in skill.yaml_path:
        node = node[p]
    return node if isinstance(node, dict) else {}


def _no_repeat(cx: Context, skill: Skill) -> bool:
    return bool(_raw(cx, skill).get("no_repeat_target"))


def _phase_names(cx: Context, names) -> list:
    """Phases named by a timing (a window's name stands for its phases)."""
    phases = {p.name: p for p in cx.rs.phases}
    out = []
    for n in names:
        if n in phases:
            out.append(phases[n])
        else:
            out += [phases[x] for w in cx.rs.windows if w.name == n for x in w.phases if x in phases]
    return out


def _repeats(cx: Context, skill: Skill) -> bool:
    """The skill can be used on two days running (a phase that is not once)."""
    return any(not p.once for p in _phase_names(cx, skill.timing))


def _window_left(cx: Context, forcing: Skill, forced: Skill) -> bool:
    """Can the forced skill be used at all after the forcing? A phase that recurs, or a once-phase
    at or after the forcing's first phase (or in its window). A triggered forcing: any time."""
    mine = _phase_names(cx, forcing.timing)
    theirs = _phase_names(cx, forced.timing)
    if not mine or not theirs:
        return True
    first = min(p.index for p in mine)
    windows = {cx.rs.window_of(p.name) for p in mine}
    return any(not p.once or p.index >= first or cx.rs.window_of(p.name) in windows for p in theirs)


def _same_window(cx: Context, forcing: Skill, forced: Skill) -> bool:
    mine = {cx.rs.window_of(p.name) for p in _phase_names(cx, forcing.timing)}
    return any(cx.rs.window_of(p.name) in mine for p in _phase_names(cx, forced.timing))


def _forcing_binding(cx: Context, skill: Skill) -> Binding:
    """One binding of the forcing skill's words: self in slot 0, its target in slot 1, each
    trigger participant in the next free slot (the victim of a death on self is self)."""
    k = cx.world.k
    targets = (1 % k,) if skill.targets else ()
    trig = skill.trigger or {}
    others, free = [], 1 + len(targets)
    for word in sorted(uses_words(skill)):
        if word == "victim" and trig.get("on") == "self":
            others.append((word, 0))
            continue
        others.append((word, free % k))
        free += 1
    return Binding(0, targets, tuple(others))


def _slots_of(b: Binding) -> list[int]:
    return [b.self_slot, *b.targets, *(i for _, i in b.others)]


def _binding_json(b: Binding) -> list:
    return [b.self_slot, list(b.targets), [list(x) for x in b.others]]


def _who_zh(who, forcer: str) -> str:
    if who == "self":
        return f"发动者（{forcer}）"
    if isinstance(who, str):
        return WHO_ZH.get(who, who)
    if isinstance(who, dict) and who:
        return f"{_filter_zh(who.get('any_of', who) or {})}的角色"
    return "相关角色"


def _filter_zh(flt: dict) -> str:
    parts = []
    for key, val in sorted(flt.items()):
        if key not in FILTER_ZH:
            parts.append("符合目标条件")
            continue
        yes, no = FILTER_ZH[key]
        if isinstance(val, bool):
            text = yes if val else no
            if text:
                parts.append(text)
        else:
            parts.append(yes.format("、".join(val) if isinstance(val, list) else val))
    return "、".join(dict.fromkeys(parts)) or "任意"
