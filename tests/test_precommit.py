"""The pre-commit entry point checks only the ruleset folders a commit touches."""
from __future__ import annotations

import yaml

import verifier.precommit as precommit


def _calls(monkeypatch, argv: list[str]) -> tuple[int, list[list[str]]]:
    calls: list[list[str]] = []
    monkeypatch.setattr(precommit, "cli_main", lambda args: calls.append(args) or (1 if "s11" in args[1] else 0))
    return precommit.main(argv), calls


def test_only_touched_folders_once(monkeypatch) -> None:
    code, calls = _calls(monkeypatch, ["--fail-on", "warning", "rulesets/s11/source.txt", "rulesets/s11/ruleset.yaml",
                                       "rulesets/zemu/ruleset.yaml", "rulesets/nope/source.txt"])
    assert code == 1
    assert [c[1] for c in calls] == ["rulesets/s11", "rulesets/zemu"]
    for c in calls:
        assert c[0] == "check" and "--quiet" in c and c[c.index("--format") + 1] in ("short", "text")
        assert c[-2:] == ["--fail-on", "warning"]


def test_nothing_touched(monkeypatch) -> None:
    assert _calls(monkeypatch, ["docs/x.md"]) == (0, [])


def test_hook_definition() -> None:
    (hook,) = yaml.safe_load(open(".pre-commit-hooks.yaml", encoding="utf-8"))
    assert hook["entry"] == "bansha-verify-changed" and hook["pass_filenames"] and hook["require_serial"]


def test_diff_lines_name_file_line_and_chinese_severity() -> None:
    from verifier.diff import Diff, _relocated, render
    from verifier.findings import Finding, Location
    f = Finding(kind="loop", severity="error", verdict="witnessed", subjects=("甲",), message="甲触发自己。",
                locations=(Location("/tmp/x/old/HEAD/source.txt", 7), Location("rulesets/a/ruleset.yaml", 3)))
    moved = _relocated(f, "/tmp/x/old/HEAD", "HEAD:rulesets/a")
    assert [loc.file for loc in moved.locations] == ["HEAD:rulesets/a/source.txt", "rulesets/a/ruleset.yaml"]
    text = render(Diff(introduced=[moved], resolved=[f]))
    assert "+ HEAD:rulesets/a/source.txt:7: 错误 loop 甲触发自己。" in text.splitlines()
    assert "- /tmp/x/old/HEAD/source.txt:7: 错误 loop 甲触发自己。" in text.splitlines()
