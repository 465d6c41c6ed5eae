"""Readable Chinese text for a person at a terminal."""
from __future__ import annotations

from ..findings import Report, sort_key

SEV_ZH = {"error": "错误", "warning": "警告", "info": "提示"}
VERDICT_ZH = {"proved": "已证明", "witnessed": "有实例", "unknown": "未知"}
SEV_EN = {"error": "error", "warning": "warning", "info": "info"}
LABELS_ZH = {"roles": "角色", "steps": "步骤", "outcomes": "结果", "see": "另见"}
LABELS_EN = {"roles": "cast ", "steps": "step ", "outcomes": "result", "see": "see  "}


def write_text(report: Report, lang: str = "zh") -> str:
    rid = report.ruleset["id"]
    s = report.summary()
    b = report.bounds
    en = lang == "en"
    L = LABELS_EN if en else LABELS_ZH
    if en:
        out = [f"Ruleset: {report.ruleset['title']} ({rid})",
               f"Bounds: {b['players']} player slots, depth {b['depth']}, rlimit {b['rlimit']}",
               f"Result: {s['error']} errors, {s['warning']} warnings, {s['info']} info, {s['unknown']} unknown"
               + (f", {s['suppressed']} suppressed" if s.get("suppressed") else ""), ""]
    else:
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
                out.append(f"    {L['roles']}  {r}")
            for st in f.scenario.get("steps", []):
                out.append(f"    {L['steps']}  {st}")
            for o in f.scenario.get("outcomes", []):
                out.append(f"    {L['outcomes']}  {o}")
        for extra in f.locations[1:4]:
            out.append(f"    {L['see']}  {extra.file}:{extra.line}")
    if report.coverage:
        c = report.coverage
        out.append("")
        out.append(f"覆盖：技能 {c['semantic']}/{c['skills']} 完全语义化（{c['semantic_percent']}%），段落 {c['mapped']}/{c['passages']} 已映射")
    return "\n".join(out) + "\n"
