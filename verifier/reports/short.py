"""One line per finding, for scripts and editors: `path:line: 严重度 kind message`
(the quickfix / compiler-error shape). Suppressed findings are left out. With a baseline each
line ends in ` [新]` or ` [已知]` (` [new]` / ` [known]`), so new findings can be picked out with grep."""
from __future__ import annotations

from ..findings import Report, sort_key
from .text_report import message_of, severity_text

STATE = {"zh": {"new": "新", "unchanged": "已知"}, "en": {"new": "new", "unchanged": "known"}}


def write_short(report: Report, lang: str = "zh", **_opts) -> str:
    marks = STATE["en" if lang == "en" else "zh"]
    out = []
    for f in sorted(report.findings, key=sort_key):
        if f.suppressed:
            continue
        loc = f.locations[0] if f.locations else None
        where = f"{loc.file}:{loc.line}" if loc else f"{report.ruleset.get('source', '')}:1"
        message = " ".join(message_of(f, lang).split())  # one line, whatever the message holds
        state = report.baseline_state(f)
        mark = f" [{marks[state]}]" if state in marks else ""
        out.append(f"{where}: {severity_text(f.severity, lang)} {f.kind} {message}{mark}")
    return "".join(line + "\n" for line in out)
