"""A Markdown report for rule authors (a PR comment, a wiki page); also the shared labels."""
from __future__ import annotations

from collections import Counter

from ..analyses import by_kind
from ..findings import KINDS, SEVERITIES, Finding, Report, sort_key
from .text_report import collapsed, message_of, same_root, severity_text, verdict_text  # noqa: F401 (html, sarif import them from here)

LABELS: dict[str, dict[str, str]] = {
    "zh": {"heading": "验证报告：{title}（{id}）", "sep": "：", "ruleset": "规则", "source": "原帖", "bounds": "界限",
           "coverage": "覆盖",
           "summary": "摘要", "unknown": "未知", "suppressed": "已抑制", "kind": "类型", "count": "数量",
           "about": "说明", "findings": "问题", "none": "未发现问题。", "roles": "角色", "steps": "步骤",
           "outcomes": "结果", "locations": "位置", "verdict": "判定", "id": "编号", "example": "另一例",
           "undecided": "未能判定（{n} 条：在界限或求解预算内没有结论，不是规则有问题的证明）",
           "assumptions": "依赖的假设", "graph": "技能交互图",
           "same_root": "同一处原文还导致", "assumed": "编码采用的假设（{n} 条：原文未说明或需要调和之处如何解读、引擎如何抽象，完整内容见 JSON）",
           "baseline": "基线", "new": "新", "unchanged": "已知",
           "graph_missing": "未能载入规则目录，无法绘制技能交互图。",
           "legend_trigger": "触发（效果产生另一技能监听的事件）", "legend_conflict": "冲突（结算顺序/矛盾）",
           "legend_loop": "无限触发循环", "legend_opaque": "含不透明效果的技能", "legend_extra": "状态等非技能元素",
           "bounds_text": "{players} 名玩家槽位，开局后至多 {depth} 步（发动或触发技能、投票出局、进入下一天各算一步），rlimit {rlimit}",
           "coverage_text": "技能 {semantic}/{skills} 完全语义化（{semantic_percent}%），段落 {mapped}/{passages} 已映射"},
    "en": {"heading": "Verification report: {title} ({id})", "sep": ": ",
           "ruleset": "Ruleset", "source": "Source", "bounds": "Bounds",
           "coverage": "Coverage", "summary": "Summary", "unknown": "unknown", "suppressed": "suppressed",
           "kind": "Kind", "count": "Count", "about": "About", "findings": "Findings", "none": "No findings.",
           "roles": "Roles", "steps": "Steps", "outcomes": "Outcomes", "locations": "Locations", "example": "Another case",
           "undecided": "Undecided ({n}: no answer within the bounds or the solver budget; not a proven problem)",
           "verdict": "Verdict", "id": "ID", "assumptions": "Assumptions",
           "same_root": "The same passage also gives",
           "assumed": "Assumptions of the encoding ({n}: how it reads what the text leaves open; complete in the JSON)",
           "baseline": "Baseline", "new": "new", "unchanged": "known",
           "graph": "Skill interaction graph", "graph_missing": "The ruleset folder could not be loaded; no graph.",
           "legend_trigger": "trigger", "legend_conflict": "conflict (order / contradiction)",
           "legend_loop": "unbounded trigger loop", "legend_opaque": "skill with opaque effects",
           "legend_extra": "status or other non-skill element",
           "bounds_text": "{players} player slots, depth {depth}, rlimit {rlimit}",
           "coverage_text": "skills {semantic}/{skills} fully semantic ({semantic_percent}%), "
                            "passages {mapped}/{passages} mapped"},
}
SCENARIO_PARTS = (("roles", "-"), ("steps", "1."), ("outcomes", "-"))
_MD_SPECIAL = str.maketrans({c: "\\" + c for c in "\\`*_<|"})


def labels(lang: str) -> dict[str, str]:
    return LABELS["en" if lang == "en" else "zh"]


def kind_summary(kind: str) -> str:
    cls = by_kind().get(kind)
    return cls.summary if cls else kind


def inline(text: str) -> str:
    """One line of literal Markdown text: newlines folded, markup characters escaped."""
    out = " ".join(str(text).split("\n")).translate(_MD_SPECIAL)
    # at the start of a list item these would open a heading, quote or nested list
    return "\\" + out if out[:1] in ("#", ">", "-", "+", "=") else out


def write_markdown(report: Report, lang: str = "zh") -> str:
    t = labels(lang)
    rid = report.ruleset["id"]
    out = ["# " + inline(t["heading"].format(title=report.ruleset.get("title", rid), id=rid)), "",
           f"- {t['ruleset']}{t['sep']}`{rid}`",
           f"- {t['source']}{t['sep']}`{report.ruleset.get('source', '')}`",
           f"- {t['bounds']}{t['sep']}{t['bounds_text'].format(**report.bounds)}"]
    if report.coverage:
        out.append(f"- {t['coverage']}{t['sep']}{t['coverage_text'].format(**report.coverage)}")
    out += ["", *_summary(report, t, lang), "", f"## {t['findings']}", ""]
    findings = sorted(report.findings, key=sort_key)
    folded = [f for f in findings if collapsed(f) and not f.suppressed]
    problems = [f for f in findings if f not in folded]
    if not findings:
        out += [t["none"], ""]
    undecided = [f for f in problems if f.verdict == "unknown"]
    for n, group in enumerate(root_groups(problems), 1):
        if undecided and group[0] is undecided[0] and len(undecided) < len(problems):
            out += [f"## {t['undecided'].format(n=len(undecided))}", ""]
        out += _finding(group[0], n, rid, t, lang, report.baseline_state(group[0]))
        if group[1:]:   # one root cause (one formula, one sentence): a line each under the first
            out += [f"**{t['same_root']}**", "", *(f"- {inline(message_of(f, lang))} (`{f.stable_id(rid)}`)"
                                                   for f in group[1:]), ""]
    if folded:
        out += [f"## {t['assumed'].format(n=len(folded))}", ""]
        names = Counter("、".join(f.subjects) or f.kind for f in folded)
        out += ["、".join(inline(x) if c == 1 else f"{inline(x)}×{c}" for x, c in names.items()), ""]
    return "\n".join(out).rstrip("\n") + "\n"


def root_groups(findings: list[Finding]) -> list[list[Finding]]:
    """Consecutive findings of one root cause (text_report.same_root), the first leading."""
    groups: list[list[Finding]] = []
    for f in findings:
        if groups and same_root(groups[-1][0], f) and groups[-1][0].severity == f.severity:
            groups[-1].append(f)
        else:
            groups.append([f])
    return groups


def _summary(report: Report, t: dict[str, str], lang: str) -> list[str]:
    s = report.summary()
    heads = [severity_text(sev, lang) for sev in SEVERITIES] + [t["unknown"], t["suppressed"]]
    values = [s[sev] for sev in SEVERITIES] + [s["unknown"], s["suppressed"]]
    if "new" in s:   # compared with a baseline
        heads.append(t["new"])
        values.append(s["new"])
    rows = [f"## {t['summary']}", "", "| " + " | ".join(heads) + " |", "|" + "---:|" * len(heads),
            "| " + " | ".join(str(v) for v in values) + " |"]
    per_kind = Counter(f.kind for f in report.findings if not f.suppressed)
    if per_kind:
        rows += ["", f"| {t['kind']} | {t['about']} | {t['count']} |", "|---|---|---:|"]
        rows += [f"| `{k}` | {inline(kind_summary(k))} | {per_kind[k]} |" for k in KINDS if per_kind[k]]
    return rows


def _finding(f: Finding, n: int, rid: str, t: dict[str, str], lang: str, state: str | None = None) -> list[str]:
    head = [f"{n}. {severity_text(f.severity, lang)}", f"`{f.kind}`"]
    if f.subjects:
        head.append("、".join(map(inline, f.subjects)))
    if state:
        head.append(t[state])
    out = ["### " + " · ".join(head), "",
           f"- {t['verdict']}{t['sep']}{verdict_text(f.verdict, lang)}",
           f"- {t['id']}{t['sep']}`{f.stable_id(rid)}`"]
    if state:
        out.append(f"- {t['baseline']}{t['sep']}{t[state]}")
    if f.suppressed:
        out.append(f"- {t['suppressed']}{t['sep']}{inline(f.suppressed)}")
    out += ["", inline(message_of(f, lang)), ""]
    for part, bullet in SCENARIO_PARTS:
        items = (f.scenario or {}).get(part) or []
        if items:
            out += [f"**{t[part]}**", "", *(f"{bullet} {inline(x)}" for x in items), ""]
    for ex in f.examples:
        # another case of the same cause, whole
        out += [f"**{t['example']}**{t['sep']}{inline(ex['message'])}", ""]
        for part, bullet in SCENARIO_PARTS:
            items = (ex.get("scenario") or {}).get(part) or []
            if items:
                out += [f"*{t[part]}*", "", *(f"{bullet} {inline(x)}" for x in items), ""]
    if f.assumptions:
        out += [f"**{t['assumptions']}**", "", *(f"- {inline(a)}" for a in f.assumptions), ""]
    if f.locations:
        out += [f"**{t['locations']}**", "", *(f"- `{loc.file}:{loc.line}`" for loc in f.locations), ""]
    return out
