"""Readable Chinese text for a person at a terminal."""
from __future__ import annotations

from ..findings import Report, sort_key

SEV_ZH = {"error": "错误", "warning": "警告", "info": "提示"}
VERDICT_ZH = {"proved": "已证明", "witnessed": "有实例", "unknown": "未知"}
SEV_EN = {"error": "error", "warning": "warning", "info": "info"}


def write_text(report: Report, lang: str = "zh") -> str:
    rid = report.ruleset["id"]
    s = report.summary()
    b = report.bounds
    out = [f"规则：{report.ruleset['title']}（{rid}）",
           f"界限：{b['players']} 名玩家槽位，深度 {b['depth']}，rlimit {b['rlimit']}",
           f"结果：错误 {s['error']}，警告 {s['warning']}，提示 {s['info']}，未知 {s['unknown']}"
           + (f"，已抑制 {s['suppressed']}" if s.get("suppressed") else ""), ""]
    for f in sorted(report.findings, key=sort_key):
        msg = f.message_en if lang == "en" and f.message_en else f.message
        sev = SEV_EN[f.severity] if lang == "en" else SEV_ZH[f.severity]
        loc = f.locations[0]
        tag = f"[{sev}/{f.kind}/{VERDICT_ZH[f.verdict] if lang != 'en' else f.verdict}]"
        out.append(f"{loc.file}:{loc.line}: {tag} {msg}" + (f"（已抑制：{f.suppressed}）" if f.suppressed else ""))
        if f.scenario:
            for r in f.scenario.get("roles", []):
                out.append(f"    角色  {r}")
            for st in f.scenario.get("steps", []):
                out.append(f"    步骤  {st}")
            for o in f.scenario.get("outcomes", []):
                out.append(f"    结果  {o}")
        for extra in f.locations[1:4]:
            out.append(f"    另见  {extra.file}:{extra.line}")
    if report.coverage:
        c = report.coverage
        out.append("")
        out.append(f"覆盖：技能 {c['semantic']}/{c['skills']} 完全语义化（{c['semantic_percent']}%），段落 {c['mapped']}/{c['passages']} 已映射")
    return "\n".join(out) + "\n"
