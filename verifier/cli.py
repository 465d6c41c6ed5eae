"""Command line: check, coverage, faq, diff, explain, schema, baseline.

Strict: every option is checked before any work starts (exit 2 with the allowed values and a
"did you mean"); messages and help are Chinese, English with --lang en; a closed pipe,
Ctrl-C (exit 130) or a bad path never ends in a traceback.
"""
from __future__ import annotations

import argparse
import json
import os
import sys

from models.loader import InvalidRuleset, load_ruleset

from .cli_text import choices_text, did_you_mean, invalid, t, translate_argparse
from .findings import SEVERITIES

EXIT_OK, EXIT_FINDINGS, EXIT_BAD_INPUT, EXIT_INTERRUPTED = 0, 1, 2, 130
LANGS = ("zh", "en")


class BadInput(Exception):
    """A usage or input error found before (or instead of) any work: printed, exit 2."""


class _Formatter(argparse.HelpFormatter):
    prefix = "用法："

    def add_usage(self, usage, actions, groups, prefix=None):
        super().add_usage(usage, actions, groups, self.prefix if prefix is None else prefix)


class _EnFormatter(_Formatter):
    prefix = "usage: "


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args, lang: str = "zh", commands: dict | None = None, **kwargs):
        kwargs.setdefault("formatter_class", _EnFormatter if lang == "en" else _Formatter)
        super().__init__(*args, add_help=False, allow_abbrev=False, **kwargs)
        self.lang = lang
        # shared with the subparsers: command name -> its parser; "" -> the words being parsed
        self.commands = commands if commands is not None else {}
        self._positionals.title = t(lang, "positionals")
        self._optionals.title = t(lang, "options")
        self.add_argument("-h", "--help", action="help", help=t(lang, "help"))

    def format_help(self) -> str:
        text = super().format_help()
        if self.lang != "en":   # argparse ends section titles with an ASCII colon
            for title in (t(self.lang, "positionals"), t(self.lang, "options"), t(self.lang, "commands")):
                text = text.replace(f"\n{title}:\n", f"\n{title}：\n")
        return text

    def error(self, message: str) -> None:  # usage errors exit 2 without a traceback
        # the options of the command given, for "did you mean" on an unrecognized one
        named = [self.commands[w] for w in self.commands.get("", []) if w in self.commands]
        options = [o for a in (named[0] if named else self)._actions for o in a.option_strings]
        self.print_usage(sys.stderr)
        commands = [c for c in self.commands if c]
        print(t(self.lang, "usage_error") + translate_argparse(self.lang, message, commands, options),
              file=sys.stderr)
        raise SystemExit(EXIT_BAD_INPUT)


def _choice(lang: str, allowed):
    """An argparse type: one of allowed, else the allowed values and the closest one."""
    allowed = list(allowed)

    def parse(value: str) -> str:
        if value not in allowed:
            raise argparse.ArgumentTypeError(invalid(lang, value, allowed))
        return value
    return parse


def _kinds(lang: str):
    """--only: kinds of finding, comma-separated (the option may also be repeated)."""
    from .analyses import ANALYSES
    allowed = sorted({k for a in ANALYSES for k in a.yields()})

    def parse(value: str) -> list[str]:
        kinds = [k.strip() for k in value.split(",") if k.strip()]
        if not kinds:
            raise argparse.ArgumentTypeError(t(lang, "empty_list", allowed=choices_text(lang, allowed)))
        for k in kinds:
            if k not in allowed:
                raise argparse.ArgumentTypeError(invalid(lang, k, allowed))
        return kinds
    return parse


def _players(lang: str):
    from models.schema import SCHEMA
    spec = SCHEMA["properties"]["bounds"]["properties"]["players"]
    lo, hi = spec.get("minimum", 1), spec.get("maximum", 99)

    def parse(value: str) -> int:
        try:
            n = int(value)
        except ValueError:
            n = None
        if n is None or not lo <= n <= hi:
            raise argparse.ArgumentTypeError(t(lang, "players_range", lo=lo, hi=hi, value=value))
        return n
    return parse


def prog_name() -> str:
    """The program as it was invoked: `python -m verifier` or the installed script's name."""
    arg0 = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    if arg0 in ("", "-c", "__main__.py") or arg0.endswith(".py"):
        return f"{os.path.basename(sys.executable) or 'python'} -m verifier"
    return arg0


def version() -> str:
    from importlib.metadata import PackageNotFoundError, version as dist_version
    try:
        return f"bansha-verifier {dist_version('bansha-verifier')}"
    except PackageNotFoundError:
        return "bansha-verifier (not installed)"


def _parser(lang: str, prog: str) -> argparse.ArgumentParser:
    from .reports import WRITERS

    def T(key: str) -> str:
        return t(lang, key)
    commands: dict[str, argparse.ArgumentParser] = {}
    p = _Parser(prog=prog, description=T("description"), lang=lang, commands=commands)
    p.add_argument("--version", action="version", version=version(), help=T("version"))
    p.add_argument("--lang", type=_choice(lang, LANGS), default="zh", metavar="{zh,en}", help=T("arg_lang"))
    sub = p.add_subparsers(dest="cmd", required=True, title=T("commands"), parser_class=_Parser)

    def command(name: str) -> argparse.ArgumentParser:
        c = sub.add_parser(name, help=T("cmd_" + name), description=T("cmd_" + name), lang=lang, commands=commands)
        c.add_argument("--lang", type=_choice(lang, LANGS), default="zh", metavar="{zh,en}", help=T("arg_lang"))
        commands[name] = c
        return c

    def option_of(c, flag: str, allowed, default: str, help_key: str) -> None:
        c.add_argument(flag, type=_choice(lang, allowed), default=default, metavar="{" + ",".join(allowed) + "}",
                       help=T(help_key))
    fail_on = list(SEVERITIES) + ["never"]
    c = command("check")
    c.add_argument("ruleset", help=T("arg_ruleset"))
    option_of(c, "--format", list(WRITERS), "text", "arg_format_check")
    option_of(c, "--fail-on", fail_on, "error", "arg_fail_on")
    c.add_argument("--only", action="append", type=_kinds(lang), metavar="KIND[,KIND…]", help=T("arg_only"))
    c.add_argument("--players", type=_players(lang), metavar="N", help=T("arg_players"))
    c.add_argument("--baseline", metavar="FILE.json", help=T("arg_baseline"))
    c.add_argument("--output", "-o", metavar="FILE", help=T("arg_output"))
    c.add_argument("--quiet", action="store_true", help=T("arg_quiet"))
    c.add_argument("--progress", action="store_true", help=T("arg_progress"))
    option_of(c, "--color", ["auto", "always", "never"], "auto", "arg_color")
    c.add_argument("--all", action="store_true", help=T("arg_all"))
    c.add_argument("--details", action="store_true", help=T("arg_details"))
    _cache_options(c, T)
    cov = command("coverage")
    cov.add_argument("ruleset", help=T("arg_ruleset"))
    option_of(cov, "--format", ["text", "json"], "text", "arg_format")
    e = command("explain")
    e.add_argument("kind", nargs="?", help=T("arg_kind"))
    command("schema")
    bl = command("baseline")
    bl.add_argument("--check", action="store_true", help=T("arg_baseline_check"))
    bl.add_argument("--quiet", action="store_true", help=T("arg_baseline_quiet"))
    bl.add_argument("ids", nargs="*", help=T("arg_ids"))
    df = command("diff")
    df.add_argument("old", help=T("arg_old"))
    df.add_argument("new", help=T("arg_new"))
    option_of(df, "--fail-on", fail_on, "error", "arg_fail_on")
    option_of(df, "--format", ["text", "json"], "text", "arg_format")
    fq = command("faq")
    fq.add_argument("ruleset", help=T("arg_ruleset"))
    option_of(fq, "--format", ["md", "bbcode"], "md", "arg_format")
    _cache_options(fq, T)
    sub.metavar = "{" + ",".join(commands) + "}"
    return p


def _cache_options(c, T) -> None:
    c.add_argument("--no-cache", action="store_true", help=T("arg_no_cache"))
    c.add_argument("--incremental", action="store_true", help=T("arg_incremental"))


def _lang_of(argv: list[str]) -> str:
    """--lang is needed before parsing: argparse's own messages and the help use it."""
    for i, a in enumerate(argv):
        if a == "--lang" and i + 1 < len(argv):
            return "en" if argv[i + 1] == "en" else "zh"
        if a.startswith("--lang="):
            return "en" if a.split("=", 1)[1] == "en" else "zh"
    return "zh"


def main(argv: list[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    lang = _lang_of(args_list)
    if argv is None:
        _stop_on_ctrl_c(lang)
    try:
        code = _main(args_list, lang)
        sys.stdout.flush()
        return code
    except BadInput as exc:
        print(str(exc), file=sys.stderr)
        return EXIT_BAD_INPUT
    except SystemExit as exc:   # argparse: a usage error (2), --help or --version (0)
        return exc.code if isinstance(exc.code, int) else EXIT_BAD_INPUT
    except BrokenPipeError:   # the reader went away (e.g. `| head`): not an error of ours
        _quiet_stdout()
        return EXIT_OK
    except KeyboardInterrupt:
        print(t(lang, "interrupted"), file=sys.stderr)
        return EXIT_INTERRUPTED


def _stop_on_ctrl_c(lang: str) -> None:
    """Ctrl-C ends the program at once with exit 130, also during a long solver call (z3 would
    take the signal to cancel just that query) and with the second process: SIGINT is blocked
    in every thread and process but one thread that waits for it."""
    import signal
    import threading
    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not threading.main_thread():
        return   # then KeyboardInterrupt, caught in main()
    try:   # multiprocessing unblocks SIGINT after it starts its resource tracker: start it first
        from multiprocessing import resource_tracker
        # it would warn of the semaphores an interrupted check leaves (and then removes them)
        sys.warnoptions.append("ignore:resource_tracker:UserWarning")
        resource_tracker.ensure_running()
    except Exception:   # no tracker: nothing will unblock the signal either
        pass
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})

    def watch() -> None:
        signal.sigwait({signal.SIGINT})
        import multiprocessing
        for child in multiprocessing.active_children():
            child.terminate()
        try:
            show_cursor = "\x1b[?25h" if sys.stderr.isatty() else ""   # a live progress display hid it
            print(show_cursor + "\n" + t(lang, "interrupted"), file=sys.stderr, flush=True)
        finally:
            os._exit(EXIT_INTERRUPTED)
    threading.Thread(target=watch, name="ctrl-c", daemon=True).start()


def _quiet_stdout() -> None:
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def _main(argv: list[str], lang: str) -> int:
    parser = _parser(lang, prog_name())
    parser.commands[""] = argv   # the words being parsed (for "did you mean")
    args = parser.parse_args(argv)
    args.lang = lang
    if args.cmd == "schema":
        from models.schema import SCHEMA
        print(json.dumps(SCHEMA, ensure_ascii=False, indent=2))
        return EXIT_OK
    if args.cmd == "explain":
        return _explain(args.kind, lang)
    if args.cmd == "baseline":
        return _baseline(args, lang)
    if args.cmd == "diff":
        return _diff(args)
    folder = ruleset_folder(args.ruleset, lang)
    if args.cmd == "check":   # everything the check needs is checked before it runs
        _writable(args.output, lang)
        base = _read_baseline(args.baseline, lang) if args.baseline else None
        rs = _load(folder, lang)
        if base is not None:
            _same_ruleset(args.baseline, base, rs, lang)
        return _check(args, rs, base)
    rs = _load(folder, lang)
    if args.cmd == "faq":
        from .engine import check
        from .faq import faq_bbcode, faq_markdown
        from .progress import Progress
        with Progress(lang=lang) as progress:   # on a terminal only: the FAQ is a full check
            report = check(rs, progress=progress, lang=lang, incremental=not args.no_cache)
        sys.stdout.write((faq_bbcode if args.format == "bbcode" else faq_markdown)(rs, report))
        return EXIT_OK
    from .coverage import coverage
    cov = coverage(rs)
    if args.format == "json":
        print(json.dumps(cov, ensure_ascii=False, indent=2))
    else:
        print(t(lang, "coverage", title=rs.title, **cov))
        for name in cov["opaque_skills"]:
            print(t(lang, "coverage_opaque", name=name))
        for name in cov["unmapped_passages"]:
            print(t(lang, "coverage_unmapped", name=name))
    return EXIT_OK


def _explain(kind: str | None, lang: str) -> int:
    from .analyses import ANALYSES
    from .explain_text import explain
    kinds = [a.kind for a in ANALYSES]
    if kind is not None and kind not in kinds:
        raise BadInput(t(lang, "usage_error") + "explain" + t(lang, "sep") + invalid(lang, kind, kinds))
    print("\n".join(explain(a.kind, a.severity, a.decides_by, lang, a.doc())
                    for a in ANALYSES if kind in (None, a.kind)), end="")
    return EXIT_OK


def _baseline(args, lang: str) -> int:
    from .baseline import bundled
    root = "rulesets"
    ids = bundled(root) if os.path.isdir(root) else []
    if not ids:   # not the project: write no findings/ here
        raise BadInput(f"{root}: {t(lang, 'error')}: " + t(lang, "no_project", root=root, prog=prog_name()))
    for rid in args.ids:
        if rid not in ids:
            raise BadInput(t(lang, "usage_error") + t(lang, "unknown_id", value=rid, allowed=choices_text(lang, ids))
                           + did_you_mean(lang, rid, ids))
    from .baseline import regenerate
    from .progress import Progress
    # a line per ruleset as it starts and ends, even in a log; the live display on a terminal
    stale = regenerate(root=root, verify=args.check, only=args.ids, say=lambda path: print(t(lang, "wrote", path=path)),
                       progress=lambda title: Progress(title=title, force=True, detail=False, quiet=args.quiet,
                                                       lang=lang))
    if args.check and stale:
        for path in stale:
            print(f"{path}:1: " + t(lang, "baseline_stale", prog=prog_name()), file=sys.stderr)
        return EXIT_FINDINGS
    return EXIT_OK


def ruleset_folder(path: str, lang: str) -> str:
    """The ruleset folder PATH names: the folder itself, or the folder of a ruleset.yaml."""
    if os.path.isfile(path) and os.path.basename(path) == "ruleset.yaml":
        return os.path.dirname(path) or "."
    if os.path.isdir(path):
        if not os.path.isfile(os.path.join(path, "ruleset.yaml")):
            raise BadInput(f"{path}:0: {t(lang, 'error')}: {t(lang, 'not_a_ruleset')}")
        return path
    if os.path.exists(path):
        raise BadInput(f"{path}:0: {t(lang, 'error')}: {t(lang, 'not_ruleset_file')}")
    parent = os.path.dirname(path.rstrip("/")) or "."
    siblings = [os.path.join(os.path.dirname(path.rstrip("/")), d) for d in sorted(os.listdir(parent))
                if os.path.isfile(os.path.join(parent, d, "ruleset.yaml"))] if os.path.isdir(parent) else []
    raise BadInput(f"{path}:0: {t(lang, 'error')}: {t(lang, 'no_folder')}" + did_you_mean(lang, path.rstrip("/"), siblings))


def _invalid(exc: InvalidRuleset, lang: str) -> BadInput:
    return BadInput("\n".join(f"{err.file}:{err.line}: {t(lang, 'error')}: {err.text(lang)}" for err in exc.errors))


def _load(folder: str, lang: str):
    try:
        return load_ruleset(folder)
    except InvalidRuleset as exc:
        raise _invalid(exc, lang)
    except (OSError, UnicodeError) as exc:
        raise BadInput(f"{folder}: {t(lang, 'error')}: {exc}")


def _writable(path: str | None, lang: str) -> None:
    if not path:
        return
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise BadInput(f"{path}:0: {t(lang, 'error')}: {t(lang, 'output_is_dir')}")
    if not os.path.isdir(folder):
        raise BadInput(f"{path}:0: {t(lang, 'error')}: {t(lang, 'output_no_dir', dir=os.path.dirname(path))}")


def _read_baseline(path: str, lang: str) -> dict:
    """The baseline document, read and checked before the check runs."""
    def bad(key: str, **kw) -> BadInput:
        return BadInput(f"{path}:1: {t(lang, 'error')}: {t(lang, key, **kw)}")
    if not os.path.isfile(path):
        here = os.path.dirname(path) or "."
        near = [os.path.join(os.path.dirname(path), f) for f in sorted(os.listdir(here)) if f.endswith(".json")] \
            if os.path.isdir(here) else []
        raise BadInput(f"{path}:1: {t(lang, 'error')}: {t(lang, 'baseline_missing')}" + did_you_mean(lang, path, near))
    try:
        with open(path, encoding="utf-8") as fh:
            doc = json.load(fh)
    except OSError as exc:
        raise bad("baseline_unreadable", reason=exc.strerror or exc)
    except ValueError:   # not JSON
        raise bad("baseline_not_findings")
    if not (isinstance(doc, dict) and doc.get("schema") == "findings/v1" and isinstance(doc.get("findings"), list)
            and isinstance(doc.get("ruleset"), dict) and all(isinstance(f, dict) and "id" in f for f in doc["findings"])):
        raise bad("baseline_not_findings")
    return doc


def _same_ruleset(path: str, base: dict, rs, lang: str) -> None:
    other = base["ruleset"].get("id")
    if other != rs.id:
        raise BadInput(f"{path}:1: {t(lang, 'error')}: " + t(lang, "baseline_foreign", other=other, this=rs.id))


def _diff(args) -> int:
    from .diff import compare, render
    lang = args.lang
    specs = [ruleset_folder(s, lang) if os.path.exists(s) or ":" not in s else s for s in (args.old, args.new)]
    try:
        d, _, new_rep = compare(*specs)
    except InvalidRuleset as exc:
        raise _invalid(exc, lang)
    except FileNotFoundError as exc:
        raise BadInput(f"{exc}")
    if args.format == "json":
        rid = new_rep.ruleset["id"]
        print(json.dumps({"introduced": [f.to_json(rid) for f in d.introduced],
                          "resolved": [f.to_json(rid) for f in d.resolved],
                          "changed": [b.to_json(rid) for _, b in d.changed],
                          "skills_changed": d.skills_changed, "interactions": d.interactions, "stale": d.stale},
                         ensure_ascii=False, indent=2))
    else:
        sys.stdout.write(render(d, lang))
    if d.stale:
        return EXIT_FINDINGS
    if args.fail_on == "never":
        return EXIT_OK
    limit = SEVERITIES.index(args.fail_on)
    return EXIT_FINDINGS if any(SEVERITIES.index(f.severity) <= limit for f in d.introduced if not f.suppressed) else EXIT_OK


def _check(args, rs, base: dict | None) -> int:
    from .engine import check
    from .reports import WRITERS
    from .progress import Progress
    kinds = [k for group in args.only for k in group] if args.only else None
    with Progress(force=args.progress, quiet=args.quiet, lang=args.lang) as progress:
        report = check(rs, kinds=kinds, progress=progress, players=args.players, lang=args.lang,
                       incremental=not args.no_cache, earlier=base)
    if base is not None:
        report.known = frozenset(f["id"] for f in base["findings"])
    code = _exit_code(report, args.fail_on, base, rs, args.lang)
    text = WRITERS[args.format](report, lang=args.lang, **_text_options(args, rs))
    try:
        if args.output:
            with open(args.output, "w", encoding="utf-8") as fh:
                fh.write(text)
        else:
            sys.stdout.write(text)
            sys.stdout.flush()
    except BrokenPipeError:
        _quiet_stdout()
    except OSError as exc:
        raise BadInput(f"{args.output}: {t(args.lang, 'error')}: {t(args.lang, 'cannot_write', reason=exc.strerror)}")
    return code


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
            "all_findings": args.all, "quiet": args.quiet, "source_lines": rs.source_lines,
            "details": args.details}


def _exit_code(report, fail_on: str, base: dict | None, rs, lang: str = "zh") -> int:
    """1 when a stale encoding or a finding at or above fail_on is new (every finding, without a baseline)."""
    if base is not None:
        from .diff import stale_against
        stale = stale_against(base, rs)
        for key in stale:
            print(f"{rs.yaml_file}:1: " + t(lang, "stale_encoding", key=key), file=sys.stderr)
        if stale:
            return EXIT_FINDINGS
    if fail_on == "never":
        return EXIT_OK
    limit = SEVERITIES.index(fail_on)
    bad = [f for f in report.findings if not f.suppressed and SEVERITIES.index(f.severity) <= limit
           and report.baseline_state(f) != "unchanged"]
    return EXIT_FINDINGS if bad else EXIT_OK
