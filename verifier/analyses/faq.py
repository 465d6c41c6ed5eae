"""FAQ answers checked against the encoded rules."""
from __future__ import annotations

from typing import Iterator

from models.encoding.scenarios import possible

from ..findings import Finding
from .base import Analysis, Context


class FaqMismatch(Analysis):
    """An answer in the ruleset's own FAQ that the encoded rules contradict: the FAQ says only
    one skill acts in a phase while another skill's timing is that phase, or it says
    something is impossible that a reachable state allows. Players read both and disagree.
    Fix: correct the FAQ or the rule. Claims: only_skills_in_phase, skill_timing,
    never/always/possible conditions."""
    kind = "faq-mismatch"
    summary = "规则自带的疑问解答与规则正文矛盾"
    severity = "error"
    decides_by = "both"

    def run(self, cx: Context) -> Iterator[Finding]:
        for i, q in enumerate(cx.rs.faq):
            claim = q.get("claim") or {}
            where = cx.src_where(q["src"], cx.yaml_line(("faq", i)))
            for problem, others in self._check(cx, claim):
                if set(others.get("field", ())) and _recorded(cx.rs, others["field"], q["src"]):
                    continue   # the same two passages are one inconsistent-text finding (with its FAQ question)
                yield Finding(
                    kind=self.kind, severity="error", verdict="proved" if not others.get("witness") else "witnessed",
                    subjects=tuple([q["question"]] + others.get("subjects", [])),
                    message=f"疑问解答「{q['question']}」答「{q['answer']}」，但{problem}。",
                    message_en=f"FAQ '{q['question']}' contradicts the rules.",
                    locations=cx.locs(where, *others.get("wheres", [])), key=(q["question"], problem),
                    scenario={"roles": [], "steps": [f"疑问解答：{q['question']} —— {q['answer']}"], "outcomes": [problem]},
                )

    def _check(self, cx: Context, claim: dict):
        rs = cx.rs
        if "only_skills_in_phase" in claim:
            c = claim["only_skills_in_phase"]
            allowed = set(c.get("skills") or [])
            for s in rs.skills:
                if c["phase"] in s.timing and s.name not in allowed:
                    yield (f"{cx.skill_text(s)}的使用时间正是{c['phase']}",
                           {"subjects": [s.name], "wheres": [s.where]})
        if "skill_timing" in claim:
            c = claim["skill_timing"]
            for s in rs.skill_named(c["skill"]):
                if set(s.timing) != set(c.get("phases") or []):
                    yield (f"规则正文中{cx.skill_text(s)}的使用时间是{'、'.join(s.timing) or '（无）'}，而非{'、'.join(c.get('phases') or [])}",
                           {"subjects": [s.name], "wheres": [s.where], "field": (s.name, "timing")})
        for mode in ("never", "always", "possible"):
            if mode not in claim:
                continue
            cond = claim[mode]
            want = (lambda st, c=cond: [cx.world.sem.cond(c, {}, st)]) if mode != "always" else \
                (lambda st, c=cond: [cx.world.sem.cond({"not": c}, {}, st)])
            ans, start, _ = possible(cx.world, cx.solver, [], want, "faq")
            if mode in ("never", "always") and ans.sat:
                yield ("存在规则允许的局面与之相反", {"witness": True})
            if mode == "possible" and ans.unsat:
                yield ("规则不允许这种局面出现", {})


def _recorded(rs, field: tuple[str, str], src) -> bool:
    """The encoding records this FAQ answer as one reading of the element among the text's
    disagreeing passages (`readings`): the disagreement is told once, by inconsistent-text."""
    element, name = field
    lines = {src} if isinstance(src, int) else set(src or ())
    for r in rs.readings:
        if r["element"] == element and r.get("field") == name and \
                any(lines & ({x["src"]} if isinstance(x["src"], int) else set(x["src"] or ())) for x in r["readings"]):
            return True
    return False
