"""Readable text for a person at a terminal: coloured when it goes to one, wrapped to its width,
errors first, each finding with the source lines it is about and the assumptions it rests on.
Compact by default (a few rows per finding, its scenario in one row); `details` gives the whole
scenario, every quoted line at length and the encoding's locations."""
from __future__ import annotations

import io
import os
import re
import shutil
import sys
from collections import Counter

from rich.cells import cell_len, chop_cells
from rich.console import Console
from rich.text import Text

from ..findings import SEVERITIES, Finding, Report, sort_key

SEV_ZH = {"error": "错误", "warning": "警告", "info": "提示"}
VERDICT_ZH = {"proved": "已证明", "witnessed": "有实例", "unknown": "未知"}
SEV_EN = {"error": "error", "warning": "warning", "info": "info"}
# short names of the finding kinds, for headings and the progress display
KIND_ZH = {"contradiction": "矛盾", "order-dependence": "结算顺序", "loop": "无限循环", "impossible-win": "无法获胜",
           "simultaneous-win": "同时获胜", "dead-rule": "死规则", "missing-rule": "缺失规则",
           "undefined-reference": "未定义术语", "inconsistent-text": "原文不一致", "setup": "开局配置",
           "faq-mismatch": "疑问解答不符", "assumption": "假设", "unknown": "无法判定",
           "ambiguity": "歧义"}
LABELS = {
    "zh": {"ruleset": "规则", "source": "原帖", "bounds": "界限", "roles": "角色", "steps": "步骤", "outcomes": "结果", "example": "另一例",
           "assumptions": "假设", "see": "另见", "suppressed": "已抑制", "new": "新", "more_lines": "另 {n} 行", "same": "同上一条，第 {lines} 行",
           "more_items": "另 {n} 项", "more_assumptions": "另 {n} 条", "details_hint": "（--details 显示完整场景：角色、步骤、结果）",
           "bounds_text": "{players} 名玩家槽位，开局后至多 {depth} 步（发动或触发技能、投票出局、进入下一天各算一步），rlimit {rlimit}",
           "coverage": "覆盖：技能 {semantic}/{skills} 完全语义化（{semantic_percent}%），段落 {mapped}/{passages} 已映射",
           "collapsed": "编码采用的假设 {n} 条（原文未说明或需要调和之处如何解读、引擎如何抽象；--all 逐条列出）：",
           "none": "未发现问题。", "summary": "结果：", "sep": "，", "unknown": "未知", "of_which": "（其中假设 {n}）"},
    "en": {"ruleset": "Ruleset", "source": "Source", "bounds": "Bounds", "roles": "cast", "steps": "steps", "example": "case",
           "outcomes": "result", "assumptions": "assumes", "see": "see", "suppressed": "suppressed", "new": "new",
           "more_lines": "{n} more lines", "same": "as above, lines {lines}",
           "more_items": "{n} more", "more_assumptions": "{n} more", "details_hint": "(--details shows whole scenarios: cast, steps, results)",
           "bounds_text": "{players} player slots, depth {depth}, rlimit {rlimit}",
           "coverage": "Coverage: skills {semantic}/{skills} fully semantic ({semantic_percent}%), "
                       "passages {mapped}/{passages} mapped",
           "collapsed": "{n} assumptions the encoding makes where the text is silent (--all lists them):",
           "none": "No findings.", "summary": "Result: ", "sep": ", ", "unknown": "unknown",
           "of_which": " ({n} of them assumptions)"},
}
SEV_STYLE = {"error": "bold red", "warning": "bold yellow", "info": "cyan"}
VERDICT_STYLE = {"proved": "green", "witnessed": "magenta", "unknown": "yellow"}
MAX_QUOTED = 6     # source lines quoted per finding (details); the rest are named by number
QUOTE_ROWS = 2     # a quoted line longer than this many screen rows is cut with … (details)
COMPACT_QUOTED = 3       # compact: rows of quotation per finding, each one screen row
COMPACT_ASSUMPTIONS = 2  # compact: assumptions shown per finding, each one screen row
MIN_OUTCOME = 16         # compact: cells an outcome gets at least in the one-row scenario
MAX_OUTCOMES = 3         # compact: more outcomes than this are a final state; its steps are shown instead
DEFAULT_WIDTH = 100


def severity_text(sev: str, lang: str) -> str:
    return SEV_EN[sev] if lang == "en" else SEV_ZH[sev]


def verdict_text(verdict: str, lang: str) -> str:
    return verdict if lang == "en" else VERDICT_ZH[verdict]


def message_of(f: Finding, lang: str) -> str:
    return f.message_en if lang == "en" and f.message_en else f.message


def use_color(color: bool | None, stream=None) -> bool:
    """None means: colour only on a terminal, and never when NO_COLOR is set (no-color.org)."""
    if color is not None:
        return color
    stream = stream or sys.stdout
    return not os.environ.get("NO_COLOR") and hasattr(stream, "isatty") and stream.isatty()


def terminal_width(stream=None) -> int:
    stream = stream or sys.stdout
    if hasattr(stream, "isatty") and stream.isatty():
        return shutil.get_terminal_size((DEFAULT_WIDTH, 24)).columns
    return DEFAULT_WIDTH


def source_lines_of(report: Report) -> list[str]:
    """The lines of the post the report's source locations point into (empty if it is gone)."""
    path = report.ruleset.get("source") or ""
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read().splitlines()  # as the loader reads it, so line numbers agree
    except OSError:
        return []


def baseline_states(report: Report) -> dict[int, str]:
    """id(finding) -> "new"/"unchanged" when the report was compared with a baseline."""
    state = getattr(report, "baseline_state", None)
    if not callable(state):
        return {}
    return {id(f): s for f in report.findings if (s := state(f))}


def collapsed(f: Finding) -> bool:
    return f.severity == "info" and f.kind == "assumption"


def write_text(report: Report, lang: str = "zh", color: bool | None = None, width: int | None = None,
               all_findings: bool = False, quiet: bool = False, source_lines: list[str] | None = None,
               details: bool = False, **_opts) -> str:
    """The report as text. color/width None: decided from stdout; all_findings: list every
    assumption instead of counting them; quiet: no header or coverage, findings and the summary only;
    details: each finding's whole scenario and every location instead of a few rows."""
    lang = "en" if lang == "en" else "zh"
    t = LABELS[lang]
    color = use_color(color)
    page = _Page(width or terminal_width())
    src = source_lines if source_lines is not None else source_lines_of(report)
    states = baseline_states(report)
    if not quiet:
        _header(page, report, t)
    findings = sorted(report.findings, key=sort_key)
    folded = [] if all_findings else [f for f in findings if collapsed(f) and not f.suppressed]
    shown = [f for f in findings if f not in folded]
    for sev in SEVERITIES:
        group = [f for f in shown if f.severity == sev]
        fold = [f for f in folded if f.severity == sev]
        if not group and not fold:
            continue
        count = sum(1 for f in group + fold if not f.suppressed)
        page.rule(Text(f" {severity_text(sev, lang)} {count} ", style=SEV_STYLE[sev]))
        prev = None
        for f in group:
            if not details and prev is not None and same_root(prev, f):
                _follower(page, f, states.get(id(f)), t, lang)   # one root cause: one entry, the rest a line each
                continue
            _finding(page, f, report, src, states.get(id(f)), t, lang, details)
            prev = f
        if fold:
            _folded(page, fold, t)
    if not findings:
        page.para(Text(t["none"]))
    if not quiet and report.coverage:
        page.para(Text(t["coverage"].format(**report.coverage), style="dim"))
    if not quiet and not details and any(f.scenario for f in shown):
        page.para(Text(t["details_hint"], style="dim"))
    page.para(_summary_line(report, states, len(folded), t, lang))
    return page.render(color)


class _Page:
    """Lines of styled text, each at most `width` cells, rendered once at the end."""

    def __init__(self, width: int):
        self.width = max(20, width)
        self.lines: list[Text] = []
        self.quoted: set[int] = set()   # source lines the previous finding quoted

    def blank(self) -> None:
        self.lines.append(Text())

    def rule(self, title: Text) -> None:
        line = Text.assemble(("──", "dim"), title)   # not Text("──", style=…) + title: its style would cover all
        line.append("─" * max(0, self.width - cell_len(line.plain)), style="dim")
        self.lines.append(line)

    def para(self, text: Text, indent: int = 0, label: Text | str = "", label_width: int = 0) -> None:
        """text wrapped to the page, `indent` cells in; a label in front of its first line."""
        label = Text(label) if isinstance(label, str) else label
        lead = max(label_width, cell_len(label.plain) + (1 if label.plain else 0))
        for i, line in enumerate(wrap(text, self.width - indent - lead)):
            front = label if i == 0 else Text()
            self.lines.append(Text(" " * indent) + front + Text(" " * (lead - cell_len(front.plain))) + line)

    def render(self, color: bool) -> str:
        buf = io.StringIO()
        con = Console(file=buf, width=self.width, force_terminal=color, no_color=not color,
                      color_system="standard" if color else None, highlight=False, markup=False, emoji=False,
                      legacy_windows=False, force_jupyter=False, force_interactive=False)
        for line in self.lines:
            line.rstrip()
            con.print(line, soft_wrap=True)  # already wrapped: rich must not break it again
        return buf.getvalue()


# A unit that stays on one line: a run of Latin letters/digits, or one wide character, with
# opening brackets glued to what follows and closing punctuation to what precedes (so no
# line starts with ，or ）and none ends with 【).
_OPEN, _CLOSE = "[(（【「《“‘〈", "])）】」》”’〉，。、；：！？,.;:!?…%"
_TOKEN = re.compile(r"\s+|[\[【「][^\]】」\s]{1,10}[\]】」][" + re.escape(_CLOSE) + r"]*|[" + re.escape(_OPEN) + r"]*(?:[^\s" + re.escape(_OPEN + _CLOSE) +
                    r"\u1100-\uffff]+|\S)[" + re.escape(_CLOSE) + r"]*")


def wrap(text: Text, width: int) -> list[Text]:
    """Break text into lines of at most width cells: between words of Latin text and between
    any two characters of Chinese (rich breaks only at spaces, which Chinese rarely has)."""
    width = max(4, width)
    text = text.copy()
    text.expand_tabs(4)   # a tab has no cell width of its own: the terminal would move to its stop
    out: list[Text] = []
    for para in text.split("\n", allow_blank=True):
        plain = para.plain
        cuts: list[int] = []
        used = 0
        for m in _TOKEN.finditer(plain):
            tok, start = m.group(), m.start()
            w = cell_len(tok)
            if tok.isspace():
                if used and used + w > width:
                    cuts.append(m.end())   # break here; the spaces go
                    used = 0
                elif used:
                    used += w
                elif start:
                    cuts.append(m.end())   # no spaces at the start of a line
                continue
            if used + w <= width:
                used += w
                continue
            if used:
                cuts.append(start)
                used = 0
            pos = start
            for piece in chop_cells(tok, width)[:-1] if w > width else []:   # a token wider than a line
                pos += len(piece)
                cuts.append(pos)
            used = cell_len(plain[pos:m.end()])
        for line in para.divide(sorted(set(c for c in cuts if 0 < c < len(plain)))):
            line.rstrip()
            out.append(line)
    return out


def _header(page: _Page, report: Report, t: dict) -> None:
    rid = report.ruleset["id"]
    title = Text(f"{report.ruleset.get('title', rid)}", style="bold")
    title.append(f"（{rid}）" if t is LABELS["zh"] else f" ({rid})")
    lw = max(cell_len(t[k]) for k in ("ruleset", "source", "bounds")) + 2
    page.para(title, label=Text(t["ruleset"], style="dim"), label_width=lw)
    if report.ruleset.get("source"):
        page.para(Text(report.ruleset["source"]), label=Text(t["source"], style="dim"), label_width=lw)
    page.para(Text(t["bounds_text"].format(**report.bounds)), label=Text(t["bounds"], style="dim"), label_width=lw)
    page.blank()


def _finding(page: _Page, f: Finding, report: Report, src: list[str], state: str | None, t: dict, lang: str,
             details: bool = False) -> None:
    head = Text()
    head.append(severity_text(f.severity, lang), style=SEV_STYLE[f.severity] if not f.suppressed else "dim")
    if lang == "zh":
        head.append(f" {KIND_ZH.get(f.kind, f.kind)}", style="bold")
        head.append(f" {f.kind}", style="dim")
    else:
        head.append(f" {f.kind}", style="bold")
    head.append(" · ", style="dim")
    head.append(verdict_text(f.verdict, lang), style=VERDICT_STYLE[f.verdict])
    if state == "new":
        head.append(f" · {t['new']}", style="bold magenta")
    if f.locations:
        head.append("  ")
        head.append(f"{f.locations[0].file}:{f.locations[0].line}", style="blue")
    source = report.ruleset.get("source")
    quoted = [loc.line for loc in f.locations if loc.file == source and 0 < loc.line <= len(src)]
    again = [n for n in quoted if n in page.quoted]
    if again and not details:   # named in the header: a row of its own would be most of a compact finding
        head.append(f"  {t['same'].format(lines=_ranges(again))}", style="dim")
    page.para(head)
    page.para(Text(message_of(f, lang), style="dim" if f.suppressed else ""), indent=2)
    if f.suppressed:
        page.para(Text(f"{t['suppressed']}：{f.suppressed}", style="dim italic"), indent=2)
    if f.kind == "unknown" and not details:
        return   # an undecided question: its sentence says what; --details shows where
    if quoted:
        if details:
            _quote(page, quoted, src, t)
        else:
            _quote_compact(page, [n for n in quoted if n not in again], src, t)
        page.quoted = set(quoted)
    if details:
        _scenario(page, f, t, source)
    else:
        _scenario_row(page, f, t, message_of(f, lang))
    if details:   # compact: the header at the margin is the separator, a blank row would be a fifth of a finding
        page.blank()


def same_root(a: Finding, b: Finding) -> bool:
    """Findings of one kind from one place of the text (one formula, one sentence): one root cause."""
    return a.kind == b.kind and bool(a.locations) and bool(b.locations) and a.locations[0] == b.locations[0]


def _follower(page: _Page, f: Finding, state: str | None, t: dict, lang: str) -> None:
    line = Text("↳ ", style="dim")
    line.append(message_of(f, lang), style="dim" if f.suppressed else "")
    if state == "new":
        line.append(f" · {t['new']}", style="bold magenta")
    page.para(line, indent=2)


def _labels(t: dict) -> int:
    return max(cell_len(t[k]) for k in ("roles", "steps", "outcomes", "assumptions", "see")) + 2


def _scenario(page: _Page, f: Finding, t: dict, source: str | None) -> None:
    """Cast, steps and outcomes one item a line, the assumptions in full, the encoding's locations."""
    label_width = _labels(t)
    for scenario in [f.scenario] + [ex.get("scenario") for ex in f.examples]:
        if scenario is not f.scenario:
            page.para(Text("—"), indent=2, label=Text(t["example"], style="dim"), label_width=label_width)
        for part in ("roles", "steps", "outcomes"):
            for i, item in enumerate((scenario or {}).get(part) or []):
                page.para(Text(str(item)), indent=2, label=Text(t[part] if i == 0 else "", style="dim"),
                          label_width=label_width)
    for i, a in enumerate(f.assumptions):
        page.para(Text(a, style="italic"), indent=2, label=Text(t["assumptions"] if i == 0 else "", style="dim"),
                  label_width=label_width)
    others = [loc for loc in f.locations[1:] if loc.file != source]
    if others:
        page.para(Text("  ".join(f"{loc.file}:{loc.line}" for loc in others), style="blue"), indent=2,
                  label=Text(t["see"], style="dim"), label_width=label_width)


def _scenario_row(page: _Page, f: Finding, t: dict, message: str) -> None:
    """The outcomes in one row (what the scenario shows) unless the message already names each,
    then each assumption in one row."""
    label_width = _labels(t)
    room = page.width - 2 - label_width
    scenario = f.scenario or {}
    outcomes = [_shorter(str(o)) for o in scenario.get("outcomes") or []]
    steps = [" ".join(str(s).split()) for s in scenario.get("steps") or []]
    if len(outcomes) > MAX_OUTCOMES and steps:   # a whole board cut to one row says nothing; how it came about does
        page.para(Text(_share(steps, room, t, " → ")), indent=2, label=Text(t["steps"], style="dim"),
                  label_width=label_width)
    elif outcomes and not all(o.rsplit("：", 1)[-1] in message for o in outcomes):
        page.para(Text(_share(outcomes, room, t)), indent=2, label=Text(t["outcomes"], style="dim"),
                  label_width=label_width)
    shown = f.assumptions[:COMPACT_ASSUMPTIONS] if len(f.assumptions) <= COMPACT_ASSUMPTIONS \
        else f.assumptions[:COMPACT_ASSUMPTIONS - 1]
    rest = len(f.assumptions) - len(shown)
    for i, a in enumerate(shown):
        tail = f"  …{t['more_assumptions'].format(n=rest)}" if rest and i == len(shown) - 1 else ""
        row = Text(_cut(" ".join(a.split()), room - cell_len(tail)), style="italic")
        row.append(tail, style="dim")
        page.para(row, indent=2, label=Text(t["assumptions"] if i == 0 else "", style="dim"),
                  label_width=label_width)


# "先结算【甲】再结算【乙】：…" says which order in its first half; the second is implied
_ORDER = re.compile(r"先结算(【[^】]+】)再结算【[^】]+】")


def _shorter(outcome: str) -> str:
    return _ORDER.sub(r"先\1", " ".join(outcome.split()))


def _share(items: list[str], room: int, t: dict, sep: str = "；") -> str:
    """Items joined by sep in `room` cells: short ones whole, long ones cut to an equal share;
    those that find no room at all are counted."""
    keep = len(items)
    while keep > 1 and keep * MIN_OUTCOME + (keep - 1) * cell_len(sep) + 8 > room:
        keep -= 1
    more = len(items) - keep
    tail = f"  …{t['more_items'].format(n=more)}" if more else ""
    budget = room - cell_len(tail) - (keep - 1) * cell_len(sep)
    widths = sorted(cell_len(x) for x in items[:keep])
    share, left, n = budget // keep, budget, keep
    for w in widths:                # water-filling: what short items leave goes to the long ones
        if w > share:
            break
        left -= w
        n -= 1
        share = left // n if n else share
    return sep.join(_cut(x, share) for x in items[:keep]) + tail


def _quote_compact(page: _Page, lines: list[int], src: list[str], t: dict) -> None:
    """At most COMPACT_QUOTED lines, one row each, cut to the width; what does not fit is counted
    at the end of the last row. The first line of each passage comes first (a finding about two
    skills shows both), then the lines after them."""
    runs = _runs(lines)
    firsts = [a for a, _ in runs]
    chosen = set(firsts[:COMPACT_QUOTED])
    for n in sorted(set(lines)):
        if len(chosen) >= COMPACT_QUOTED:
            break
        chosen.add(n)
    shown = sorted(chosen)
    rest = [n for n in sorted(set(lines)) if n not in chosen]
    gutter = max((len(str(n)) for n in shown), default=1) + 3
    room = max(10, page.width - 2 - gutter)
    for i, n in enumerate(shown):
        tail = f"  …{t['more_lines'].format(n=len(rest))}" if rest and i == len(shown) - 1 else ""
        row = Text(_cut(" ".join(src[n - 1].split()), room - cell_len(tail)), style="green")
        row.append(tail, style="dim")
        page.para(row, indent=2, label=Text(f"{n:>{gutter - 3}} │", style="dim"), label_width=gutter)


def _quote(page: _Page, lines: list[int], src: list[str], t: dict) -> None:
    """The cited lines of the post, numbered as in the file; long lines cut to a few rows.
    Lines the finding just above quoted are named, not repeated (neighbours often share a skill)."""
    valid = [n for n in lines if 0 < n <= len(src)]
    again = [n for n in valid if n in page.quoted]
    shown = [n for n in valid if n not in page.quoted][:MAX_QUOTED]
    gutter = max((len(str(n)) for n in shown + again), default=1) + 3
    room = max(10, (page.width - 2 - gutter) * QUOTE_ROWS)
    if again:
        page.para(Text(t["same"].format(lines=_ranges(again)), style="dim"), indent=2,
                  label=Text(f"{'':>{gutter - 3}} │", style="dim"), label_width=gutter)
    for n in shown:
        page.para(Text(_cut(src[n - 1].strip(), room), style="green"), indent=2,
                  label=Text(f"{n:>{gutter - 3}} │", style="dim"), label_width=gutter)
    rest = [n for n in valid if n not in shown and n not in again]
    if rest:
        page.para(Text(t["more_lines"].format(n=len(rest)) + "：" + _ranges(rest), style="dim"),
                  indent=2 + gutter)


def _runs(lines: list[int]) -> list[tuple[int, int]]:
    """80, 81, 82, 90 -> (80, 82), (90, 90)"""
    out: list[list[int]] = []
    for n in sorted(set(lines)):
        if out and n == out[-1][1] + 1:
            out[-1][1] = n
        else:
            out.append([n, n])
    return [(a, b) for a, b in out]


def _ranges(lines: list[int]) -> str:
    """80, 81, 82, 90 -> 80–82, 90"""
    return ", ".join(str(a) if a == b else f"{a}–{b}" for a, b in _runs(lines))


def _cut(text: str, cells: int) -> str:
    if cell_len(text) <= cells:
        return text
    return chop_cells(text, cells - 1)[0] + "…"


def _folded(page: _Page, fold: list[Finding], t: dict) -> None:
    page.para(Text(t["collapsed"].format(n=len(fold)), style="dim"))
    names = Counter("、".join(f.subjects) or f.kind for f in fold)
    page.para(Text("、".join(n if c == 1 else f"{n}×{c}" for n, c in names.items())), indent=2)
    page.blank()


def _summary_line(report: Report, states: dict[int, str], folded: int, t: dict, lang: str) -> Text:
    s = report.summary()
    line = Text(t["summary"], style="bold")
    parts: list[tuple[str, str]] = []
    for sev in SEVERITIES:
        word = severity_text(sev, lang)
        plural = "s" if s[sev] != 1 and sev != "info" else ""
        parts.append((f"{word} {s[sev]}" if lang == "zh" else f"{s[sev]} {word}{plural}",
                      SEV_STYLE[sev] if s[sev] else "dim"))
        if sev == "info" and folded:
            parts[-1] = (parts[-1][0] + t["of_which"].format(n=folded), parts[-1][1])
    parts.append((f"{t['unknown']} {s['unknown']}" if lang == "zh" else f"{s['unknown']} unknown",
                  "yellow" if s["unknown"] else "dim"))
    if states:
        new = sum(1 for f in report.findings if not f.suppressed and states.get(id(f)) == "new")
        parts.append((f"{t['new']} {new}" if lang == "zh" else f"{new} new", "bold magenta" if new else "dim"))
    if s.get("suppressed"):
        parts.append((f"{t['suppressed']} {s['suppressed']}" if lang == "zh" else f"{s['suppressed']} suppressed", "dim"))
    for i, (text, style) in enumerate(parts):
        if i:
            line.append(t["sep"])
        line.append(text, style=style)
    return line
