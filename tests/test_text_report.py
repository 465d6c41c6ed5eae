"""The terminal report, the one-line-per-finding format and the progress display, on rulesets/s11."""
from __future__ import annotations

import io
import re
from dataclasses import replace

import pytest
from rich.cells import cell_len

from models.loader import load_ruleset
from verifier.engine import check
from verifier.findings import Report
from verifier.progress import Progress
from verifier.reports import WRITERS
from verifier.reports.short import write_short
from verifier.reports.text_report import SEV_ZH, message_of, write_text

ESC = "\x1b["
FAST_KINDS = ["setup", "assumption", "undefined-reference", "inconsistent-text"]   # text checks: no solver traces


@pytest.fixture(scope="module")
def rs():
    return load_ruleset("rulesets/s11")


@pytest.fixture(scope="module")
def report(rs) -> Report:
    rep = check(rs, kinds=FAST_KINDS)
    assert {f.severity for f in rep.findings} == {"error", "warning", "info"}, "s11 should give all three"
    return rep


@pytest.fixture(scope="module")
def with_assumption(report) -> Report:
    """One warning that rests on a stated assumption (s11's own warnings rest on none)."""
    warn = next(f for f in report.findings if f.severity == "warning")
    found = [replace(warn, assumptions=("假定【测试】按原文第二种读法结算",)) if f is warn else f
             for f in report.findings]
    return replace(report, findings=found)


def test_plain_has_no_escape_codes(report, monkeypatch) -> None:
    assert ESC not in write_text(report, color=False)
    monkeypatch.setenv("NO_COLOR", "1")
    assert ESC not in write_text(report)             # auto: NO_COLOR wins
    monkeypatch.delenv("NO_COLOR")
    assert ESC not in write_text(report)             # auto: stdout is not a terminal under pytest


def test_color_always_has_escape_codes(report) -> None:
    assert ESC in write_text(report, color=True)


@pytest.mark.parametrize("details", [False, True])
@pytest.mark.parametrize("width", [40, 72, 120])
def test_width_is_respected(report, width, details) -> None:
    for line in write_text(report, color=False, width=width, all_findings=True, details=details).splitlines():
        assert cell_len(line) <= width, line


def test_chinese_wraps_between_characters(report) -> None:
    """A line is filled before it breaks: rich alone would break only at spaces."""
    lines = write_text(report, color=False, width=60).splitlines()
    long_msgs = [ln for ln in lines if ln.startswith("  ") and cell_len(ln) > 50]
    assert long_msgs, "expected wrapped message lines close to the width"


def test_errors_then_warnings_then_info(report) -> None:
    text = write_text(report, color=False, all_findings=True)
    heads = [m.group(1) for m in re.finditer(r"^(错误|警告|提示) \S+ [a-z-]+ · ", text, re.M)]
    order = [list(SEV_ZH.values()).index(h) for h in heads]
    assert heads and order == sorted(order)
    assert text.index("── 错误") < text.index("── 警告") < text.index("── 提示")


def test_quotes_the_source_line(report, rs) -> None:
    text = write_text(report, color=False, width=200)
    f = next(f for f in report.findings if f.severity == "error")
    loc = next(loc for loc in f.locations if loc.file == rs.source_file)
    quoted = rs.source_lines[loc.line - 1].strip()
    assert re.search(rf"^\s+{loc.line} │ " + re.escape(quoted[:30]), text, re.M)


def test_assumptions_appear(with_assumption) -> None:
    for details in (False, True):
        text = write_text(with_assumption, color=False, details=details)
        assert "假设  假定【测试】按原文第二种读法结算" in text
        assert "assumes  假定【测试】" in write_text(with_assumption, color=False, lang="en", details=details)


def _with_cast(report) -> tuple[Report, object]:
    """The report with one stated assumption on the finding that has a cast and steps."""
    f = next(f for f in report.findings if (f.scenario or {}).get("roles") and (f.scenario or {}).get("steps"))
    g = replace(f, assumptions=("假定【测试】按原文第二种读法结算",))
    return replace(report, findings=[g if x is f else x for x in report.findings]), g


def test_default_is_compact(report, rs) -> None:
    """Per finding: header, message, quoted lines and assumptions; no cast and no step lines,
    the outcomes in one row; --details brings the whole scenario back."""
    rep, f = _with_cast(report)
    short, full = (write_text(rep, color=False, width=100, details=d) for d in (False, True))
    cast, step, outcome = f.scenario["roles"][0], f.scenario["steps"][0], f.scenario["outcomes"][0]
    assert not re.search(r"^\s+角色  ", short, re.M) and cast not in short and step not in short
    assert re.search(rf"^\s+角色  {re.escape(cast)}", full, re.M) and re.search(rf"^\s+步骤  {re.escape(step[:10])}", full, re.M)
    assert re.search(rf"^\s+结果  {re.escape(outcome)}", short, re.M)
    assert message_of(f, "zh")[:20] in short
    loc = next(loc for loc in f.locations if loc.file == rs.source_file)
    assert re.search(rf"^\s+{loc.line} │ " + re.escape(rs.source_lines[loc.line - 1].strip()[:20]), short, re.M)
    assert "假设  假定【测试】按原文第二种读法结算" in short
    others = [loc for loc in f.locations if loc.file != rs.source_file]
    if others:   # the encoding's locations only in the details
        assert f"{others[0].file}:{others[0].line}" in full
    assert "--details" in short and "--details" not in full
    assert len(short.splitlines()) < len(full.splitlines())
    cast_row = re.compile(r"^\s+cast\s+\S", re.M)
    assert not cast_row.search(write_text(rep, color=False, lang="en"))
    assert cast_row.search(write_text(rep, color=False, lang="en", details=True))


def test_compact_quotes_at_most_three_lines(report, rs) -> None:
    """Long citations: three lines, one row each, the rest counted ("…另 N 行")."""
    f = report.findings[0]
    many = tuple(replace(f.locations[0], line=n) for n in range(1, 8))
    rep = replace(report, findings=[replace(f, locations=many)])
    text = write_text(rep, color=False, width=80, quiet=True)
    assert len(re.findall(r"^\s+\d+ │", text, re.M)) == 3 and "…另 4 行" in text
    assert len(re.findall(r"^\s+\d+ │", write_text(rep, color=False, width=80, details=True), re.M)) == 6


def test_assumption_findings_are_folded_by_default(report) -> None:
    n = sum(1 for f in report.findings if f.kind == "assumption")
    folded = write_text(report, color=False)
    full = write_text(report, color=False, all_findings=True)
    assert f"编码采用的假设 {n} 条" in folded
    assert len(folded.splitlines()) < len(full.splitlines())
    assert folded.count(" assumption · ") == 0
    # in full, each assumption is a header or folded under the one with the same root cause ("↳")
    shown, in_assumption = 0, False
    for line in full.splitlines():
        if " · " in line and not line.startswith(" "):
            in_assumption = " assumption · " in line
            shown += in_assumption
        elif in_assumption and line.lstrip().startswith("↳"):
            shown += 1
    assert shown == n


def test_closing_summary_line(report) -> None:
    last = write_text(report, color=False).rstrip("\n").splitlines()[-1]
    s = report.summary()
    assert last.startswith("结果：") and f"错误 {s['error']}" in last and f"警告 {s['warning']}" in last
    assert "新" not in last                                   # no baseline, no "new" count
    rid = report.ruleset["id"]
    marked = replace(report, known=frozenset(f.stable_id(rid) for f in report.findings[1:]))
    assert "新 1" in write_text(marked, color=False).rstrip("\n").splitlines()[-1]


def test_quiet_drops_the_header(report) -> None:
    text = write_text(report, color=False, quiet=True)
    assert not text.startswith("规则") and text.rstrip("\n").splitlines()[-1].startswith("结果：")


def test_short_format(report) -> None:
    assert WRITERS["short"] is write_short
    lines = write_short(report).splitlines()
    assert len(lines) == len([f for f in report.findings if not f.suppressed])
    for line in lines:
        assert re.match(r"^[^:]+:\d+: (错误|警告|提示) [a-z-]+ ", line), line
    for line in write_short(report, lang="en").splitlines():
        assert re.match(r"^[^:]+:\d+: (error|warning|info) [a-z-]+ ", line), line
    assert not re.search(r" \[(新|已知)\]$", write_short(report), re.M)   # no baseline, no marks


def test_short_format_marks_new_and_known(report) -> None:
    rid = report.ruleset["id"]
    active = [f for f in report.findings if not f.suppressed]
    marked = replace(report, known=frozenset(f.stable_id(rid) for f in active[1:]))
    lines = write_short(marked).splitlines()
    assert sum(ln.endswith(" [新]") for ln in lines) == 1 and sum(ln.endswith(" [已知]") for ln in lines) == len(lines) - 1
    en = write_short(marked, lang="en").splitlines()
    assert sum(ln.endswith(" [new]") for ln in en) == 1 and sum(ln.endswith(" [known]") for ln in en) == len(en) - 1


class _Stream(io.StringIO):
    def __init__(self, tty: bool):
        super().__init__()
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


def test_progress_silent_when_not_a_tty(rs) -> None:
    err = _Stream(tty=False)
    with Progress(stream=err) as p:
        check(rs, kinds=["setup"], progress=p)
    assert err.getvalue() == ""


def test_progress_plain_lines_when_asked(rs) -> None:
    err = _Stream(tty=False)
    with Progress(stream=err, force=True) as p:
        check(rs, kinds=["setup"], progress=p)
    text = err.getvalue()
    assert ESC not in text and "开局配置" in text and re.search(r"\d+\.\d s", text)


def test_progress_brief_prints_only_start_and_end(rs) -> None:
    """What `baseline` shows per ruleset in a log: one line as it starts, one as it ends."""
    err = _Stream(tty=False)
    with Progress(stream=err, force=True, detail=False, title="s11 (1/1)") as p:
        check(rs, kinds=["setup", "assumption"], progress=p)
    lines = err.getvalue().splitlines()
    assert len(lines) == 2 and all("s11 (1/1)：" in ln for ln in lines) and "完成" in lines[1]


def test_progress_quiet_on_a_terminal(rs) -> None:
    err = _Stream(tty=True)
    with Progress(stream=err, quiet=True) as p:
        check(rs, kinds=["setup"], progress=p)
    assert err.getvalue() == ""


def test_progress_live_on_a_terminal(rs) -> None:
    err = _Stream(tty=True)
    with Progress(stream=err) as p:
        check(rs, kinds=["setup", "dead-rule"], progress=p)
    assert ESC in err.getvalue() and "死规则" in err.getvalue()


def test_cli_details_option(capsys) -> None:
    from verifier import cli
    outs = []
    for extra in ([], ["--details"]):
        code = cli.main(["check", "rulesets/s11", "--only", "setup", "--color", "never", "--fail-on", "never", *extra])
        outs.append(capsys.readouterr().out)
        assert code == 0
    compact, full = outs
    assert not re.search(r"^\s+角色  ", compact, re.M) and re.search(r"^\s+角色  ", full, re.M)
    cli.main(["check", "--help"])
    assert "--details" in capsys.readouterr().out
