"""Dead rules: skills whose trigger or condition can never hold, or whose effects can
never change anything, in any reachable state; and, inside a skill that works, a single
effect whose `if` never holds, always holds, or that never changes anything."""
from __future__ import annotations

from itertools import permutations, product
from typing import Iterable, Iterator

from models.encoding.reach import bindings_for, uses_words
from models.encoding.scenarios import Probe, Use
from models.encoding.semantics import UNMODELLED_KINDS, writes_of
from models.encoding.world import Binding

from ..findings import Finding
from .base import Analysis, Context
from .order import MESSAGE_MAX
from .text_checks import undefined_reads

MAX_BINDINGS = 16
EFFECT_BINDINGS = 64   # an effect is judged over every use of its skill; with more uses, not at all
# unmodelled effects that change what the effects after them see: an extra character (counts),
# targeting moved; the others (feedback, disguise, uses, cooldowns, forced targets, refreshes)
# write nothing a later effect or condition of the same resolution reads
SEEN_LATER = {"create", "redirect", "swap"}

GUARD_NEVER, GUARD_ALWAYS, INERT = "guard-never", "guard-always", "inert"


class DeadRule(Analysis):
    """A skill that can never be used or never does anything: its trigger or condition is
    unsatisfiable in every reachable state, or every effect leaves the state as it was.
    Inside a skill that can be used and changes something, each effect on its own: its `if`
    never holds when the resolution reaches it (warning), always holds there (info: the
    condition is redundant), or the effect never changes the modelled state (warning), e.g.
    it grants a permanent status the skill's own target filter already requires, converts to
    the faction the target must already be in, or what it does is always repeated or undone
    by the skill's other effects. Effects with the same finding on one source line are one
    finding, keyed by their indices. A sentence the encoding copies into each option of a
    choice is one rule: reported only when it is dead in every option.
    In a game it is a trap for the player holding it, or a sign the text says something
    other than what was meant. Example: a bite that grants [忠诚] and then "if the victim has
    no [忠诚]" takes the charges off: the second condition never holds. Fix: correct the
    condition or the effect (or its order), or drop the redundant condition.
    Verdict proved (over an over-approximation of reachable states); limits: the player slots
    in bounds. An effect is judged over every use by one slot (every binding of the words its
    skill names, every number of distinct targets it allows) and counts take in the rest of
    the table the setup states as any number of players; a proof needs every answer unsat, so
    a budget-out (rlimit), a word a use leaves unbound, or a skill with more than 64 uses gives
    no finding (unknown, not reported). Not judged: effects whose result is not modelled
    (feedback, uses, cooldowns, forced targets, disguises, refreshes, extra characters,
    redirects) and, after an extra character or a redirect, the rest of the skill; whether a
    damage changes anything (how many land is not kept) or a non-permanent status grant does
    (its duration is not kept); with an unmodelled effect in the skill, only the change at the
    effect itself (what the unmodelled effect would read of it is not seen)."""
    kind = "dead-rule"
    summary = "永远无法触发、或触发后不改变任何东西的规则"
    severity = "warning"
    decides_by = "smt"

    def run(self, cx: Context) -> Iterator[Finding]:
        probe: list = []   # built on the first cache miss only
        for i, skill in enumerate(cx.rs.skills):
            cx.tick(i, len(cx.rs.skills))
            if skill.is_opaque or skill.static:
                continue
            yield from cx.cached("dead", [skill], None, lambda skill=skill: self._decide(cx, skill, probe))
            if _effect_plan(cx.rs, skill):
                quoted = sorted({_source_text(cx, _line(skill, e)) for e in skill.all_effects()})   # in the messages
                yield from cx.cached("dead-effect", [skill], quoted,
                                     lambda skill=skill: self._decide_effects(cx, skill, probe))

    def _probe(self, cx: Context, probe_box: list) -> Probe:
        if not probe_box:
            probe_box.append(Probe(cx.world, cx.solver))
        return probe_box[0]

    def _decide(self, cx: Context, skill, probe_box: list) -> Iterator[Finding]:
        probe = self._probe(cx, probe_box)
        bindings = bindings_for(cx.world, skill, [0])[:MAX_BINDINGS]
        answers = [probe.enabled_ever(Use(skill, b)) for b in bindings]
        if any(a.status == "unknown" and not a.reason.startswith("unbound") for a in answers):
            return
        if answers and all(a.unsat for a in answers):
            if undefined_reads(cx.rs, skill):
                return   # told with its cause, the undefined term (undefined-reference)
            yield self._finding(cx, skill, "其发动条件/触发条件在任何可达局面下都不成立")
            return
        if not skill.effects or any(e.kind in UNMODELLED_KINDS for e in skill.all_effects()) or \
                all(_stated_zero(e) for e in skill.all_effects()):
            return
        changes = [probe.changes_anything(Use(skill, b)) for b in bindings]
        if any(a.sat or (a.status == "unknown") for a in changes):
            return
        if any(undefined_reads(cx.rs, skill, e.guard) for e in skill.all_effects() if e.guard is not None):
            return   # its effects wait on an undefined word: told with that cause (undefined-reference)
        yield self._finding(cx, skill, "它的效果在任何可达局面下都不改变局面")

    def _finding(self, cx: Context, skill, why: str) -> Finding:
        return Finding(
            kind=self.kind, severity=self.severity, verdict="proved", subjects=(skill.name,),
            message=f"{cx.skill_text(skill)}是无效规则：{why}。",
            message_en=f"'{skill.name}' is a dead rule.",
            locations=cx.locs(skill.where), key=(skill.uid,),
            scenario={"roles": [cx.owner_name(skill)], "steps": [f"检查{cx.skill_text(skill)}"], "outcomes": [why]},
        )

    # ---- one effect at a time ---------------------------------------------------------------
    def _decide_effects(self, cx: Context, skill, probe_box: list) -> Iterator[Finding]:
        uses = _all_uses(cx.world, skill)
        if uses is None:
            return
        probe = self._probe(cx, probe_box)
        if not _works(probe, skill, uses):
            return   # never used, or changes nothing at all: the skill's own finding says so
        covered: set[int] = set()   # effects inside one already found dead
        found: dict = {}            # (check, first source line) -> effects: one finding per group
        for e, checks in _effect_plan(cx.rs, skill):
            if id(e) in covered:
                continue
            for check in self._effect_checks(probe, uses, e, checks):
                found.setdefault((check, _line(skill, e)), []).append(e)
                if check != GUARD_ALWAYS:
                    covered |= {id(x) for x in _below(e)}
        for (check, line), effects in sorted(found.items(), key=lambda kv: kv[1][0].index):
            if check != GUARD_ALWAYS and _works_elsewhere(skill, effects, line):
                continue
            yield self._effect_finding(cx, skill, effects, check)

    def _effect_checks(self, probe: Probe, uses: list, e, checks: set) -> Iterator[str]:
        if "guard" in checks:
            ever = _verdict(probe.effect_guard(u, e, True) for u in uses)
            if ever == "unsat":
                yield GUARD_NEVER
                return
            if ever == "sat" and "redundant" in checks and \
                    _verdict(probe.effect_guard(u, e, False) for u in uses) == "unsat":
                yield GUARD_ALWAYS
        if "inert" in checks:
            here = _verdict(probe.effect_matters(u, e, alone=True) for u in uses)
            if here == "unsat":
                yield INERT
            elif here == "sat" and "overall" in checks and \
                    _verdict(probe.effect_matters(u, e) for u in uses) == "unsat":
                yield INERT + "-overall"

    def _effect_finding(self, cx: Context, skill, effects: list, check: str) -> Finding:
        why, why_en = {
            GUARD_NEVER: ("该效果的条件在任何可达局面下都不成立", "its condition never holds"),
            GUARD_ALWAYS: ("只要发动该技能，该条件在任何可达局面下都成立",
                           "its condition always holds when the skill is used"),
            INERT: ("它在任何可达局面下都不改变局面（结算时其结果总已成立或总被阻止）",
                    "it never changes anything"),
            INERT + "-overall": ("它在任何可达局面下都不改变技能结算后的局面（其结果总被同一技能的其他效果重复或抵消）",
                                 "the skill's other effects always repeat or undo it"),
        }[check]
        numbers = [str(e.index + 1) for e in effects]
        # named by what it does and where the text says it (the encoding's numbering is not the post's)
        what = "、".join(f"“{w}”" for w in list(dict.fromkeys(_what(e) for e in effects))[:3])
        head = f"{cx.skill_text(skill)}中{what}这一效果"
        tail = f"{'的条件多余' if check == GUARD_ALWAYS else '无效'}：{why}。"
        place = _quote(cx, skill, effects[0], MESSAGE_MAX - len(head) - len(tail))
        indices = ",".join(str(e.index) for e in effects)
        return Finding(
            kind=self.kind, severity="info" if check == GUARD_ALWAYS else self.severity, verdict="proved",
            subjects=(skill.name,), message=head + place + tail,
            message_en=f"'{skill.name}', effect {', '.join(numbers)}: {why_en}.",
            locations=cx.locs(*[e.where for e in effects], skill.where),
            key=(skill.uid, f"effect:{indices}", check.removesuffix("-overall")),
            scenario={"roles": [cx.owner_name(skill)],
                      "steps": list(dict.fromkeys(f"检查{cx.skill_text(skill)}中“{_what(e)}”这一效果" for e in effects)),
                      "outcomes": [why]},
        )


def _stated_zero(e) -> bool:
    a = e.args if isinstance(e.args, dict) else {}
    return e.kind in ("counter", "vote_weight", "received_votes") and a.get("op", "add") in ("add", "sub") \
        and a.get("value") == 0


def _effect_plan(rs, skill) -> list[tuple[object, set[str]]]:
    """The effects to judge one by one, in resolution order, with what to ask of each:
    guard (never / always holds; redundant: also always), inert (changes nothing at the
    effect; overall: also whether the state after the skill is the same without it). Not
    judged: unmodelled effects, anything after one that changes what later effects see
    (SEEN_LATER), and whether a change is made where the state abstracts it (_change_seen)."""
    effects = skill.all_effects()
    unmodelled = {id(e) for e in effects if e.kind in UNMODELLED_KINDS}
    plan = []
    for n, e in enumerate(effects):
        if e.kind in SEEN_LATER:
            break
        if id(e) in unmodelled or _stated_zero(e):
            continue   # a change of 0 the text itself states (增加0个点数) is no rule left unused
        checks: set[str] = set()
        # a guard on an undefined word is told with its cause (undefined-reference), not as dead
        if e.guard is not None and not undefined_reads(rs, skill, e.guard):
            checks |= {"guard"} | ({"redundant"} if not _trivial(e.guard) else set())
        below = _below(e)
        if _change_seen(rs, e) and not any(id(x) in unmodelled for x in below):
            checks.add("inert")
            # a change at the effect stays to the end unless a later effect writes there too;
            # with an unmodelled effect in the skill only the change at the effect is judged
            if not unmodelled and _overlap(writes_of(e), set().union(*[writes_of(x) for x in effects[n + len(below):]])):
                checks.add("overall")
        if checks:
            plan.append((e, checks))
    return plan


def _works_elsewhere(skill, effects: list, line: int) -> bool:
    """One sentence the encoding repeats in each option of a choice ("选择一个身份……该身份转变
    阵营") is one rule: dead in the options where, say, the chosen identity always holds a
    status that blocks it is the rule at work, not a rule left unused. Such effects are
    reported only when every copy of the sentence in that choice is dead."""
    parent = {id(x): e for e in skill.all_effects() if e.kind == "choose" for opt in e.options for x in opt}
    chooses = {id(parent[id(e)]) for e in effects if id(e) in parent}
    if not chooses or len(chooses) != 1 or any(id(e) not in parent for e in effects):
        return False
    choice = parent[id(effects[0])]
    dead = {id(e) for e in effects}
    kinds = {e.kind for e in effects}
    copies = [x for opt in choice.options for x in opt if x.kind in kinds and _line(skill, x) == line]
    return any(id(x) not in dead for x in copies)


def _trivial(guard) -> bool:
    return guard is True or guard == {} or (isinstance(guard, dict) and "true" in guard)


def _below(e) -> list:
    """The effect and every effect nested in it (its `instead` and `choose` options)."""
    out = [e]
    for sub in e.instead:
        out += _below(sub)
    for option in e.options:
        for sub in option:
            out += _below(sub)
    return out


def _overlap(a: set[str], b: set[str]) -> bool:
    """Do two sets of writes (semantics.writes_of) name a common part of the state?"""
    def parts(w: str) -> tuple[str, str]:
        head, _, arg = w.partition(":")
        return head, arg
    return any(ha == hb and (not xa or not xb or xa == xb or xa.startswith("$") or xb.startswith("$"))
               for ha, xa in map(parts, a) for hb, xb in map(parts, b))


def _change_seen(rs, e) -> bool:
    """Would the state show every change the effect makes? Not for a choice (its options are
    judged one by one), a damage (how many damages land is not kept, only "going out") or
    a status some grant gives for a while (how long it lasts is not kept: a grant to a
    holder may lengthen it)."""
    if e.kind in ("choose", "damage"):
        return False
    if e.kind == "grant_status":
        name = rs.aliases.get(str((e.args or {}).get("status")), str((e.args or {}).get("status")))
        status = rs.statuses.get(name)
        # a status every grant gives for good: holding it is all there is to see
        return status is not None and (status.permanent or _only_for_good(rs, name))
    return True


def _only_for_good(rs, status: str) -> bool:
    """Every grant of the status (anywhere in the ruleset) is permanent."""
    durations = {str(x.args.get("duration") or "permanent") for x in rs.effects()
                 if x.kind == "grant_status" and isinstance(x.args, dict)
                 and rs.aliases.get(str(x.args.get("status")), str(x.args.get("status"))) == status}
    return durations == {"permanent"}


def _all_uses(world, skill) -> list[Use] | None:
    """Every use of the skill by slot 0 (the slots are interchangeable up to turning the
    ring): each binding of the words it names, with every tuple of distinct targets from its
    minimum to its maximum; None when they are more than EFFECT_BINDINGS."""
    lo = int((skill.targets or {}).get("min", 1) or 0) if skill.targets else 0
    bindings = [b for b in bindings_for(world, skill, [0]) if len(b.targets) >= lo]
    words = sorted(uses_words(skill))
    for n in [0] * (skill.targets is not None and lo == 0) + list(range(2, min(skill.max_targets, world.k) + 1)):
        for targets in permutations(range(world.k), n):
            for combo in product(range(world.k), repeat=len(words)):
                bindings.append(Binding(0, targets, tuple(zip(words, combo))))
                if len(bindings) > EFFECT_BINDINGS:
                    return None
    return None if len(bindings) > EFFECT_BINDINGS else [Use(skill, b) for b in bindings]


def _works(probe: Probe, skill, uses: list) -> bool:
    """The skill can be used and changes something (or has an effect whose change we do not see)."""
    if any(probe.used(u, changing=True).sat for u in uses):
        return True
    return any(e.kind in UNMODELLED_KINDS for e in skill.all_effects()) and any(probe.used(u, changing=False).sat for u in uses)


def _verdict(answers: Iterable) -> str:
    """unsat when every answer is unsat; sat at the first sat one; else unknown."""
    unknown = False
    for a in answers:
        if a.sat:
            return "sat"
        unknown |= not a.unsat
    return "unknown" if unknown else "unsat"


def _what(e) -> str:
    """The effect in a few words (its kind and what it names)."""
    a = e.args if isinstance(e.args, dict) else {}
    named = {k: v for k, v in a.items() if isinstance(v, str) and not v.startswith("$")}
    words = {"grant_status": "获得[{status}]", "remove_status": "移除[{status}]", "set_faction": "加入{to}",
             "add_label": "加上[{label}]", "remove_label": "去掉[{label}]", "gain_skill": "获得【{skill}】",
             "lose_skill": "失去【{skill}】", "set_role": "身份变为{to}", "give_item": "交出〈{item}〉",
             "counter": "改变计数{name}"}
    plain = {"set_faction": "改变阵营", "set_role": "改变身份", "damage": "受到伤害", "out": "出局",
             "prevent_out": "免于出局", "revive": "复活", "vote_weight": "改变票权", "received_votes": "改变所得票数",
             "win": "获胜", "lose": "失败", "choose": "选择其一", "grant_status": "获得状态", "remove_status": "移除状态"}
    try:
        return words[e.kind].format(**named)
    except (KeyError, IndexError):
        return plain.get(e.kind, e.kind)


def _line(skill, e) -> int:
    """The effect's first source line (its skill's when it has none; 0: none at all)."""
    lines = e.where.src or skill.where.src
    return lines[0] if lines else 0


def _source_text(cx: Context, n: int) -> str:
    return cx.rs.source_lines[n - 1].strip() if 0 < n <= len(cx.rs.source_lines) else ""


def _quote(cx: Context, skill, e, room: int) -> str:
    """Where the effect is written: its first source line, quoted as far as room allows."""
    n = _line(skill, e)
    if not n:
        return f"（ruleset.yaml 第{e.where.yaml_line}行）"
    text = _source_text(cx, n)
    room -= len(f"（第{n}行“”）")
    if len(text) > room:
        text = text[:max(room - 1, 0)] + "…"
    return f"（第{n}行“{text}”）"
