"""FAQ generation: every ambiguous case as a question a player would ask, the concrete
situation from the witness, each possible ruling with its outcome, and the source lines.
The author's own FAQ answers appear as already settled."""
from __future__ import annotations

from models.domain import Ruleset

from .findings import Finding, Report, sort_key

FAQ_KINDS = ("order-dependence", "contradiction", "missing-rule", "simultaneous-win", "inconsistent-text",
             "ambiguity")


def questions(report: Report) -> list[Finding]:
    return [f for f in sorted(report.findings, key=sort_key) if f.kind in FAQ_KINDS and not f.suppressed]


def _lines(f: Finding) -> str:
    return "、".join(f"{loc.file}:{loc.line}" for loc in f.locations)


def faq_markdown(rs: Ruleset, report: Report) -> str:
    rid = rs.id
    out = [f"# {rs.title} —— 自动生成的疑问解答（FAQ）", "",
           "以下问题由验证器从规则文本中证明或找到实例：规则对它们没有给出唯一答案，请导演在开局前裁定。", ""]
    for n, f in enumerate(questions(report), start=1):
        out.append(f"## 问题 {n}：{f.question or f.message}")
        out.append("")
        out.append(f"- 编号：`{f.stable_id(rid)}`（{f.kind}）")
        out.append(f"- 说明：{f.message}")
        if f.scenario:
            if f.scenario.get("roles"):
                out.append("- 情境：" + "；".join(f.scenario["roles"]))
            for st in f.scenario.get("steps", []):
                out.append(f"  - {st}")
        if f.rulings:
            out.append("- 可能的裁定：")
            for r in f.rulings:
                out.append(f"  - **{r['ruling']}** → {r.get('outcome', '')}")
        elif f.scenario and f.scenario.get("outcomes"):
            out.append("- 不同结果：")
            for o in f.scenario["outcomes"]:
                out.append(f"  - {o}")
        for ex in f.examples:
            out.append(f"- 另一例：{ex['message']}")
            for o in (ex.get("scenario") or {}).get("outcomes") or []:
                out.append(f"  - {o}")
        out.append(f"- 原文位置：{_lines(f)}")
        out.append("")
    settled = rs.faq + [{"question": r["question"], "answer": r["ruling"], "src": r.get("src")} for r in rs.rulings]
    if settled:
        out.append("## 已有定论（规则自带的解答与已记录的裁定）")
        out.append("")
        for q in settled:
            out.append(f"- **{q['question']}** —— {q['answer']}")
        out.append("")
    return "\n".join(out)


def faq_bbcode(rs: Ruleset, report: Report) -> str:
    rid = rs.id
    out = [f"[size=5][b]{rs.title} —— 疑问解答（自动生成）[/b][/size]", ""]
    for n, f in enumerate(questions(report), start=1):
        out.append(f"[b]问题 {n}：{f.question or f.message}[/b]")
        out.append(f"[color=gray]编号 {f.stable_id(rid)}（{f.kind}）[/color]")
        out.append(f"{f.message}")
        if f.scenario:
            out.append("[list]")
            for item in f.scenario.get("roles", []) + f.scenario.get("steps", []):
                out.append(f"[*]{item}")
            out.append("[/list]")
        if f.rulings:
            out.append("可能的裁定：")
            out.append("[list=1]")
            for r in f.rulings:
                out.append(f"[*][b]{r['ruling']}[/b] → {r.get('outcome', '')}")
            out.append("[/list]")
        for ex in f.examples:
            out.append(f"另一例：{ex['message']}")
            out.append("[list]")
            for o in (ex.get("scenario") or {}).get("outcomes") or []:
                out.append(f"[*]{o}")
            out.append("[/list]")
        out.append(f"[size=1]原文：{_lines(f)}[/size]")
        out.append("")
    settled = rs.faq + [{"question": r["question"], "answer": r["ruling"]} for r in rs.rulings]
    if settled:
        out.append("[b]已有定论[/b]")
        out.append("[list]")
        for q in settled:
            out.append(f"[*]{q['question']} —— {q['answer']}")
        out.append("[/list]")
    return "\n".join(out) + "\n"


def faq_documents(rs: Ruleset, report: Report) -> dict[str, str]:
    return {".faq.md": faq_markdown(rs, report), ".faq.bbcode": faq_bbcode(rs, report)}
