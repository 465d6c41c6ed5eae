"""Command line: check, coverage, faq, diff, explain, schema, bench."""
from __future__ import annotations

import argparse
import json
import sys

from models.loader import InvalidRuleset, load_ruleset

from .findings import SEVERITIES

EXIT_OK, EXIT_FINDINGS, EXIT_BAD_INPUT = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # usage errors exit 2 without a traceback
        self.print_usage(sys.stderr)
        print(f"用法错误：{message}", file=sys.stderr)
        raise SystemExit(EXIT_BAD_INPUT)


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="python -m verifier", description="版杀规则冲突验证器")
    sub = p.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("check", help="检查一个规则目录")
    c.add_argument("ruleset")
    c.add_argument("--format", choices=["text", "json", "md", "sarif", "html", "short"], default="text",
                   help="text：给人读的报告；short：每个问题一行 path:line: 严重度 kind 说明（供脚本与编辑器）")
    c.add_argument("--fail-on", choices=list(SEVERITIES) + ["never"], default="error")
    c.add_argument("--only", action="append", help="只运行这些检查（finding 类型）")
    c.add_argument("--players", type=int)
    c.add_argument("--baseline", help="以此 findings JSON 为基线，只对新出现的问题失败")
    c.add_argument("--lang", choices=["zh", "en"], default="zh")
    c.add_argument("--output", "-o")
    c.add_argument("--quiet", action="store_true", help="不显示进度；文本报告只列问题与结尾一行结果")
    c.add_argument("--progress", action="store_true", help="stderr 不是终端时也显示进度（逐行输出）")
    c.add_argument("--color", choices=["auto", "always", "never"], default="auto",
                   help="文本报告的颜色（auto：仅在终端上且未设 NO_COLOR 时）")
    c.add_argument("--all", action="store_true", help="逐条列出编码采用的假设（默认只列名称与数量）")
    c.add_argument("--incremental", action="store_true", help="复用 .cache/verifier/ 中未受修改影响的结论")
    cov = sub.add_parser("coverage", help="编码覆盖率报告")
    cov.add_argument("ruleset")
    cov.add_argument("--format", choices=["text", "json"], default="text")
    e = sub.add_parser("explain", help="说明一种检查")
    e.add_argument("kind", nargs="?")
    sub.add_parser("schema", help="打印 ruleset.yaml 的 JSON Schema")
    bl = sub.add_parser("baseline", help="重新生成 findings/ 下所有内置规则的结果（--check 只检查是否过期）")
    bl.add_argument("--check", action="store_true")
    bl.add_argument("--quiet", action="store_true", help="不显示每个规则的进度")
    bl.add_argument("ids", nargs="*", help="只处理这些内置规则（默认全部）")
    df = sub.add_parser("diff", help="比较两个版本（目录，或 git 版本 REV:rulesets/<id>）")
    df.add_argument("old")
    df.add_argument("new")
    df.add_argument("--fail-on", choices=list(SEVERITIES) + ["never"], default="error")
    df.add_argument("--format", choices=["text", "json"], default="text")
    fq = sub.add_parser("faq", help="生成疑问解答（FAQ）")
    fq.add_argument("ruleset")
    fq.add_argument("--format", choices=["md", "bbcode"], default="md")
    return p


def _load(path: str):
    try:
        return load_ruleset(path)
    except InvalidRuleset as exc:
        for err in exc.errors:
            print(f"{err.file}:{err.line}: 错误: {err.message}", file=sys.stderr)
        raise SystemExit(EXIT_BAD_INPUT)


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.cmd == "schema":
        from models.schema import SCHEMA
        print(json.dumps(SCHEMA, ensure_ascii=False, indent=2))
        return EXIT_OK
    if args.cmd == "explain":
        from .analyses import ANALYSES
        for a in ANALYSES:
            if args.kind in (None, a.kind):
                print(f"{a.kind}（{a.summary}；默认严重度 {a.severity}；判定方式 {a.decides_by}）\n  {a.doc()}\n")
        return EXIT_OK
    if args.cmd == "baseline":
        from .baseline import regenerate
        from .progress import Progress
        # a line per ruleset as it starts and ends, even in a log; the live display on a terminal
        stale = regenerate(verify=args.check, only=args.ids, progress=lambda title: Progress(
            title=title, force=True, detail=False, quiet=args.quiet))
        if args.check and stale:
            for path in stale:
                print(f"{path}:1: 过期：请运行 python -m verifier baseline", file=sys.stderr)
            return EXIT_FINDINGS
        return EXIT_OK
    if args.cmd == "diff":
        return _diff(args)
    rs = _load(args.ruleset)
    if args.cmd == "faq":
        from .engine import check
        from .faq import faq_bbcode, faq_markdown
        from .progress import Progress
        with Progress(lang="zh") as progress:   # on a terminal only: the FAQ is a full check
            report = check(rs, progress=progress)
        sys.stdout.write((faq_bbcode if args.format == "bbcode" else faq_markdown)(rs, report))
        return EXIT_OK
    if args.cmd == "coverage":
        from .coverage import coverage
        cov = coverage(rs)
        if args.format == "json":
            print(json.dumps(cov, ensure_ascii=False, indent=2))
        else:
            print(f"{rs.title}：段落 {cov['mapped']}/{cov['passages']} 已映射；技能 {cov['semantic']}/{cov['skills']} 完全语义化（{cov['semantic_percent']}%）")
            for name in cov["opaque_skills"]:
                print(f"  不透明（opaque）：{name}")
            for name in cov["unmapped_passages"]:
                print(f"  未映射：{name}")
        return EXIT_OK
    return _check(args, rs)


def _diff(args) -> int:
    from .diff import compare, render
    try:
        d, _, new_rep = compare(args.old, args.new)
    except InvalidRuleset as exc:
        for err in exc.errors:
            print(f"{err.file}:{err.line}: 错误: {err.message}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except FileNotFoundError as exc:
        print(f"{exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.format == "json":
        rid = new_rep.ruleset["id"]
        print(json.dumps({"introduced": [f.to_json(rid) for f in d.introduced],
                          "resolved": [f.to_json(rid) for f in d.resolved],
                          "changed": [b.to_json(rid) for _, b in d.changed],
                          "skills_changed": d.skills_changed, "interactions": d.interactions, "stale": d.stale},
                         ensure_ascii=False, indent=2))
    else:
        sys.stdout.write(render(d))
    if d.stale:
        return EXIT_FINDINGS
    if args.fail_on == "never":
        return EXIT_OK
    limit = SEVERITIES.index(args.fail_on)
    return EXIT_FINDINGS if any(SEVERITIES.index(f.severity) <= limit for f in d.introduced if not f.suppressed) else EXIT_OK


def _check(args, rs) -> int:
    from .engine import check
    from .reports import WRITERS
    from .progress import Progress
    with Progress(force=args.progress, quiet=args.quiet, lang=args.lang) as progress:
        report = check(rs, kinds=args.only, progress=progress, players=args.players, lang=args.lang,
                       incremental=args.incremental)
    writer = WRITERS.get(args.format)
    if writer is None:
        print(f"用法错误：格式 {args.format} 尚未实现", file=sys.stderr)
        return EXIT_BAD_INPUT
    text = writer(report, lang=args.lang, **_text_options(args, rs))
    if args.output:
        with open(args.output, "w", encoding="utf-8") as fh:
            fh.write(text)
    else:
        sys.stdout.write(text)
    return _exit_code(report, args.fail_on, args.baseline, rs)


def _text_options(args, rs) -> dict:
    """Colour and width for the text report: a terminal's when it goes to one, plain text otherwise."""
    if args.format != "text":
        return {}
    from .reports.text_report import terminal_width, use_color
    to_terminal = not args.output and sys.stdout.isatty()
    color = {"always": True, "never": False}.get(args.color)
    if color is None:
        color = use_color(None, sys.stdout) and to_terminal
    return {"color": color, "width": terminal_width(sys.stdout) if to_terminal else None,
            "all_findings": args.all, "quiet": args.quiet, "source_lines": rs.source_lines}


def _exit_code(report, fail_on: str, baseline: str | None, rs=None) -> int:
    known: set[str] = set()
    if baseline:
        try:
            with open(baseline, encoding="utf-8") as fh:
                base = json.load(fh)
            known = {f["id"] for f in base.get("findings", [])}
        except (OSError, ValueError) as exc:
            print(f"{baseline}:0: 错误: 无法读取基线（{exc}）", file=sys.stderr)
            return EXIT_BAD_INPUT
        from .diff import stale_against
        stale = stale_against(base, rs) if rs is not None else []
        for key in stale:
            print(f"{rs.yaml_file}:1: 过期编码：{key} 所引用的原文已改变，但编码未更新", file=sys.stderr)
        if stale:
            return EXIT_FINDINGS
    if fail_on == "never":
        return EXIT_OK
    limit = SEVERITIES.index(fail_on)
    rid = report.ruleset["id"]
    bad = [f for f in report.findings if not f.suppressed and SEVERITIES.index(f.severity) <= limit
           and f.stable_id(rid) not in known]
    return EXIT_FINDINGS if bad else EXIT_OK
