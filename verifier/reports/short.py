"""One line per finding, for scripts and editors: `path:line: 严重度 kind message`
(the quickfix / compiler-error shape). Suppressed findings are left out."""
from __future__ import annotations

from ..findings import Report, sort_key
from .text_report import message_of, severity_text


def write_short(report: Report, lang: str = "zh", **_opts) -> str:
    out = []
    for f in sorted(report.findings, key=sort_key):
        if f.suppressed:
            continue
        loc = f.locations[0] if f.locations else None
        where = f"{loc.file}:{loc.line}" if loc else f"{report.ruleset.get('source', '')}:1"
        message = " ".join(message_of(f, lang).split())  # one line, whatever the message holds
        out.append(f"{where}: {severity_text(f.severity, lang)} {f.kind} {message}")
    return "".join(line + "\n" for line in out)
