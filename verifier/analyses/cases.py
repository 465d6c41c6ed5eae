"""Case coverage: sibling effects of one skill that split a number into tiers or cases
(强度 ≤6 / 7–9 / 10; 点数 0–2 / 3–5) and leave a reachable value with no outcome.
Part of the missing-rule analysis (missing.py): one analysis per kind."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from models.domain import Effect, Skill
from models.encoding.reach import bindings_for
from models.encoding.scenarios import Probe, Use

from ..findings import Finding
from ..narrate import describe_player, player
from .base import Context

UPPER = ("<", "<=", "==")    # a case with an upper bound: the siblings are ranges, not thresholds
BINDINGS = 4                 # uses asked per skill (slot 0, the first bindings)


@dataclass(frozen=True)
class Tiers:
    """Sibling effects whose guards compare one number (subject) with different bounds,
    under the conditions they share (context)."""
    skill: Skill
    cases: tuple[Effect, ...]
    context: tuple
    subject: dict        # a <num>: the number the cases split
    words: str           # the number in the rule text's words
    tiers: tuple = ()    # per case, the part of its guard that names the number


def _conjuncts(c) -> list:
    return list(c["all"]) if isinstance(c, dict) and set(c) == {"all"} else [c]


def _numbers(c) -> Iterator[tuple[str, dict, str, str]]:
    """(key, subject <num>, words, op) of every comparison of a number inside the condition."""
    if isinstance(c, list):
        for x in c:
            yield from _numbers(x)
        return
    if not isinstance(c, dict):
        return
    for k in ("all", "any"):
        if k in c:
            yield from _numbers(c[k])
    if "not" in c:
        yield from _numbers(c["not"])
    op = str(c.get("op", ">="))
    if not isinstance(c.get("value"), (int, float)):
        return   # tiers are ranges of constants; a bound that is itself a count is no tier
    if "counter" in c and "op" in c:
        n = {"counter": c["counter"], **({"who": c["who"]} if "who" in c else {})}
        yield repr(("counter", n)), n, f"[{c['counter']}]", op
    elif "value_of" in c:
        yield repr(("value", c["value_of"])), c["value_of"], "数值", op
    elif "count" in c and isinstance(c["count"], dict):
        flt = c["count"]
        if isinstance(flt.get("strength"), dict) and isinstance(flt["strength"].get("value"), (int, float)):
            rest = {k: v for k, v in flt.items() if k != "strength"}
            yield repr(("strength", rest)), {"strength": rest}, "强度值", str(flt["strength"].get("op", ">="))
        else:
            yield repr(("count", flt)), {"count": flt}, "人数", op


def tiers_of(skill: Skill) -> list[Tiers]:
    """Groups of the skill's top-level effects whose guards split one number into cases, at
    least one of them bounded above (a partition, not a ladder of thresholds)."""
    guarded = [e for e in skill.effects if e.guard is not None]
    by_subject: dict[str, list[tuple[Effect, dict, str, set[str]]]] = {}
    for e in guarded:
        seen: dict[str, tuple[dict, str, set[str]]] = {}
        for key, subject, words, op in _numbers(e.guard):
            seen.setdefault(key, (subject, words, set()))[2].add(op)
        for key, (subject, words, ops) in seen.items():
            by_subject.setdefault(key, []).append((e, subject, words, ops))
    out = []
    for key, members in sorted(by_subject.items()):
        distinct = {repr(e.guard) for e, *_ in members}
        if len(distinct) < 2 or not any(ops & set(UPPER) for *_, ops in members):
            continue
        # the conditions every case shares are the situation; the rest tell the cases apart
        cases = tuple(dict((repr(e.guard), e) for e, *_ in members).values())
        # the text states the cases: each effect cites its own line, two lines at least (an
        # encoding's bookkeeping counter is no tier of the text)
        lines = {n for e in cases for n in e.where.src}
        if len(lines) < 2 or not all(e.where.src for e in cases):
            continue
        shared = [c for c in _conjuncts(members[0][0].guard)
                  if all(repr(c) in {repr(x) for x in _conjuncts(e.guard)} for e, *_ in members[1:])]
        # a case covers the values its tier condition admits; its other conditions are what
        # the case does beyond that, not what it covers
        tier = tuple({"all": [c for c in _conjuncts(e.guard) if repr(c) not in {repr(x) for x in shared}
                              and any(k == key for k, *_ in _numbers(c))]} for e in cases)
        out.append(Tiers(skill, cases, tuple(shared), members[0][1], members[0][2], tier))
    return out


class CaseCoverage:
    """Tiers or cases that leave a reachable value with no outcome: the sibling effects of a
    skill split a number (a strength, a counter, a count) into ranges, and a reachable state
    where the skill resolves, the situation the cases share holds, and no case applies (the
    values are named). The judge has no rule for that value. Fix: add the missing tier, or
    say that nothing happens. Verdict witnessed over the reachable states (an
    over-approximation of the game, not a replayed game); a ladder of thresholds (≥2, ≥4,
    ≥6) is not a partition and is not asked."""
    kind = "missing-rule"

    def run(self, cx: Context) -> Iterator[Finding]:
        probe = None
        for skill in cx.rs.skills:
            if skill.is_opaque:
                continue
            for t in tiers_of(skill):
                probe = probe or Probe(cx.world, cx.solver)
                yield from self._decide(cx, probe, t)

    def _decide(self, cx: Context, probe: Probe, t: Tiers) -> Iterator[Finding]:
        for b in bindings_for(cx.world, t.skill, [0])[:BINDINGS]:
            ans, values = probe.uncovered(Use(t.skill, b), list(t.cases), list(t.context), t.subject, list(t.tiers))
            if ans.sat:
                yield self._finding(cx, t, values, b)
                return

    def _finding(self, cx: Context, t: Tiers, values: list, b) -> Finding:
        rs, skill = cx.rs, t.skill
        shown = "、".join(_value_text(v) for v, _ in values)
        lines = sorted({n for e in t.cases for n in (e.where.src if e.where else [])})
        tiers = "、".join(f"第{n}行" for n in lines[:6])
        start = values[0][1]
        return Finding(
            kind=self.kind, severity="warning", verdict="witnessed", subjects=(skill.name,),
            message=f"{cx.skill_text(skill)}按{t.words}分档给出结果（{tiers}），但{t.words}为 {_value_text(values[0][0])}"
                    f"{' 等' if len(values) > 1 else ' '}时没有任何一档适用，规则未说明此时的结果。",
            message_en=f"'{skill.name}' splits {t.words} into cases, and {shown} is covered by none of them.",
            locations=cx.locs(*(e.where for e in t.cases), skill.where),
            key=("uncovered-case", skill.uid, *sorted(str(e.index) for e in t.cases)),
            scenario={"roles": [describe_player(rs, start, i) for i in range(cx.world.k)],
                      "steps": [f"{cx.skill_text(skill)}结算（{player(b.self_slot)}" +
                                (f"，目标 {'、'.join(player(x) for x in b.targets)}" if b.targets else "") + "），" +
                                ("且各档共同的前提成立，" if t.context else "") +
                                f"此时{t.words}为 {_value_text(values[0][0])}"],
                      "outcomes": [f"{t.words}为 {_value_text(v)}：{tiers}都不适用，规则未给出结果" for v, _ in values]},
            question=f"{cx.skill_text(skill)}结算时{t.words}不在任何一档（如 {shown}）时，结果是什么？",
        )


def _value_text(v) -> str:
    """A z3 number as the text writes it (whole numbers without a fraction)."""
    text = str(v)
    if "/" in text:
        num, den = text.split("/")
        return f"{int(num) / int(den):g}"
    return text.removesuffix(".0")
