"""The command line: strict options checked before any work, a path to ruleset.yaml, the
program's name in the usage line, Chinese (or English) everywhere, no traceback on a closed
pipe or Ctrl-C, baselines visible in every format, the cache on by default."""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time

import pytest

from verifier import cli

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
S11 = os.path.join("rulesets", "s11")
FAST = ["--only", "setup,faq-mismatch"]   # s11's quick analyses: no bounded traces


def _cli(*args: str, cwd: str = ROOT, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "verifier", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=300, env=dict(os.environ, PYTHONPATH=ROOT), **kw)


@pytest.fixture
def no_check(monkeypatch):
    """Fail if a check starts: validation must come first."""
    def refuse(*_a, **_k):
        raise AssertionError("a check ran before the options were validated")
    monkeypatch.setattr("verifier.engine.check", refuse)
    monkeypatch.chdir(ROOT)


def _main(capsys, *args: str) -> tuple[int, str, str]:
    code = cli.main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("args, expected", [
    (["check", S11, "--only", "setup,lop"], ["--only", "loop", "setup、", "你是不是想用 loop？"]),
    (["check", S11, "--only", "nosuch"], ["无效的值 nosuch", "order-dependence"]),
    (["check", S11, "--only", ","], ["至少给出一个值"]),
    (["check", S11, "--format", "jsno"], ["--format", "sarif", "你是不是想用 json？"]),
    (["check", S11, "--lang", "fr"], ["可选：zh、en"]),
    (["check", S11, "--players", "9"], ["2 到 8"]),
    (["check", S11, "--players", "many"], ["而不是 many"]),
    (["check", S11, "--fail-on", "warn"], ["你是不是想用 warning？"]),
    (["check", S11, "--formt", "json"], ["无法识别的参数", "你是不是想用 --format？"]),
    (["check", S11, "--baseline", "findings/nosuch.json"], ["findings/nosuch.json:1: 错误: 找不到基线文件"]),
    (["check", S11, "--baseline", "findings/zemu.json"], ["基线属于规则 zemu，而检查的是 s11"]),
    (["check", S11, "--baseline", "findings/s11.md"], ["不是 findings/v1 文档"]),
    (["check", S11, "-o", "/nonexistent/out.json"], ["目录 /nonexistent 不存在"]),
    (["check", "rulesets/s1"], ["rulesets/s1:0: 错误: 找不到规则目录", "你是不是想用 rulesets/s11？"]),
    (["check", "rulesets"], ["其中没有 ruleset.yaml"]),
    (["check"], ["缺少必需的参数：ruleset"]),
    (["chek", S11], ["未知命令 chek", "你是不是想用 check？"]),
    (["explain", "lop"], ["无效的值 lop", "你是不是想用 loop？"]),
    (["baseline", "s1"], ["没有内置规则 s1", "你是不是想用 s11？"]),
    (["faq", S11, "--format", "bbcod"], ["你是不是想用 bbcode？"]),
    (["check", S11, "--lang", "en", "--only", "lop"], ["usage error: --only: invalid value lop", "did you mean loop?"]),
    (["--lang", "en", "check", S11, "--format", "x"], ["allowed: json, text"]),
])
def test_bad_options_exit_2_before_any_work(capsys, no_check, args, expected):
    t0 = time.monotonic()
    code, out, err = _main(capsys, *args)
    assert code == 2, err
    for text in expected:
        assert text in err
    assert "Traceback" not in err and not out
    assert time.monotonic() - t0 < 10


def test_argparse_speaks_chinese_or_english(capsys, no_check):
    code, out, _ = _main(capsys, "check", "--help")
    assert code == 0 and out.startswith("用法：") and "\n选项：\n" in out and "显示此帮助并退出" in out
    assert not any(w in out for w in ("usage:", "show this help", "positional arguments", "options:"))
    code, out, _ = _main(capsys, "--lang", "en", "check", "-h")
    assert code == 0 and out.startswith("usage: ") and "\noptions:\n" in out and "用法" not in out
    code, _, err = _main(capsys, "diff", S11)
    assert code == 2 and "缺少必需的参数：new" in err and "the following" not in err


def test_version(capsys):
    code, out, _ = _main(capsys, "--version")
    assert code == 0 and out.startswith("bansha-verifier ")


def test_usage_names_the_program_as_invoked(capsys, monkeypatch, no_check):
    res = _cli("check")
    assert res.returncode == 2 and res.stderr.startswith("用法：") and "-m verifier check" in res.stderr.splitlines()[0]
    monkeypatch.setattr(sys, "argv", ["/usr/local/bin/bansha-verify"])
    _, _, err = _main(capsys, "check")
    assert err.startswith("用法：bansha-verify check")


def test_explain_every_kind_in_both_languages(capsys):
    from verifier.analyses import ANALYSES
    from verifier.explain_text import PARTS, TEXTS
    for a in ANALYSES:
        for lang in ("zh", "en"):
            assert all(TEXTS[a.kind][lang].get(p) for p in ("summary", *PARTS)), (a.kind, lang)
    code, out, _ = _main(capsys, "explain")
    assert code == 0 and all(a.kind in out for a in ANALYSES)
    assert "Fix:" not in out and "判定什么：" in out and "如何修复：" in out
    code, out, _ = _main(capsys, "explain", "loop", "--lang", "en")
    assert code == 0 and out.startswith("loop (") and "How to fix: " in out and "判定" not in out
    code, _, err = _main(capsys, "explain", "nosuch")
    assert code == 2 and "nosuch" in err


def test_only_takes_a_comma_list_and_a_path_to_ruleset_yaml(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    out = tmp_path / "r.json"
    code, _, _ = _main(capsys, "check", os.path.join(S11, "ruleset.yaml"), "--only", "setup,faq-mismatch",
                       "--only", "loop", "--format", "json", "-o", str(out))
    doc = json.loads(out.read_text(encoding="utf-8"))
    kinds = {f["kind"] for f in doc["findings"]}
    assert {"setup", "faq-mismatch"} <= kinds <= {"setup", "faq-mismatch", "loop", "unknown"}
    assert code == 1 and doc["ruleset"]["id"] == "s11"


def _baseline_of(capsys, tmp_path, drop: str) -> tuple[str, str]:
    """A baseline of s11's quick findings without the first finding of kind drop; its id."""
    full = tmp_path / "full.json"
    _main(capsys, "check", S11, *FAST, "--format", "json", "-o", str(full))
    doc = json.loads(full.read_text(encoding="utf-8"))
    gone = next(f for f in doc["findings"] if f["kind"] == drop)
    doc["findings"] = [f for f in doc["findings"] if f is not gone]
    base = tmp_path / "base.json"
    base.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return str(base), gone["id"]


def test_baseline_marks_new_and_known_findings(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    base, new_id = _baseline_of(capsys, tmp_path, drop="faq-mismatch")
    out = tmp_path / "r.json"
    code, _, _ = _main(capsys, "check", S11, *FAST, "--baseline", base, "--format", "json", "-o", str(out))
    doc = json.loads(out.read_text(encoding="utf-8"))
    states = {f["id"]: f["baseline"] for f in doc["findings"]}
    assert states[new_id] == "new" and sum(s == "new" for s in states.values()) == 1
    assert set(states.values()) == {"new", "unchanged"} and doc["summary"]["new"] == 1
    assert code == 1   # the new finding is an error
    md = tmp_path / "r.md"
    _main(capsys, "check", S11, *FAST, "--baseline", base, "--format", "md", "-o", str(md))
    text = md.read_text(encoding="utf-8")
    assert text.count("- 基线：新\n") == 1 and "- 基线：已知\n" in text and "| 新 |" in text
    _main(capsys, "check", S11, *FAST, "--baseline", base, "--format", "md", "--lang", "en", "-o", str(md))
    assert "- Baseline: new\n" in md.read_text(encoding="utf-8")
    sarif = tmp_path / "r.sarif"
    _main(capsys, "check", S11, *FAST, "--baseline", base, "--format", "sarif", "-o", str(sarif))
    results = json.loads(sarif.read_text(encoding="utf-8"))["runs"][0]["results"]
    assert sorted({r.get("baselineState") for r in results}) == ["new", "unchanged"]
    page = tmp_path / "r.html"
    _main(capsys, "check", S11, *FAST, "--baseline", base, "--format", "html", "-o", str(page))
    html = page.read_text(encoding="utf-8")
    assert html.count('data-baseline="new"') == 1 and 'data-baseline="unchanged"' in html
    assert '<span class="base new">新</span>' in html
    # without a baseline nothing is marked (the committed documents stay as they are)
    _main(capsys, "check", S11, *FAST, "--format", "json", "-o", str(out))
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert "new" not in doc["summary"] and not any("baseline" in f for f in doc["findings"])


def test_exit_code_depends_on_new_findings_only(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    base, _ = _baseline_of(capsys, tmp_path, drop="setup")
    assert _main(capsys, "check", S11, *FAST, "--baseline", base, "--fail-on", "error", "-o", os.devnull)[0] == 1
    full = tmp_path / "full.json"   # everything known: nothing fails
    assert _main(capsys, "check", S11, *FAST, "--baseline", str(full), "--fail-on", "info", "-o", os.devnull)[0] == 0


def test_a_closed_pipe_is_not_an_error():
    for args, code in ((["schema"], 0), (["check", S11, *FAST, "--format", "md"], 1)):
        p = subprocess.Popen([sys.executable, "-m", "verifier", *args], cwd=ROOT, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, env=dict(os.environ, PYTHONPATH=ROOT))
        p.stdout.close()   # the reader went away before anything was written (like `| head`)
        err = p.stderr.read().decode()
        assert p.wait(timeout=300) == code and "Traceback" not in err and "Error" not in err, err


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads /proc")
@pytest.mark.parametrize("whole_group", [True, False])
def test_ctrl_c_exits_130_at_once(whole_group):
    p = subprocess.Popen([sys.executable, "-m", "verifier", "check", S11, "--no-cache"], cwd=ROOT,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                         env=dict(os.environ, PYTHONPATH=ROOT))
    time.sleep(2.5)   # both processes are solving by now
    t0 = time.monotonic()
    if whole_group:   # a terminal's Ctrl-C reaches both processes
        os.killpg(p.pid, signal.SIGINT)
    else:
        os.kill(p.pid, signal.SIGINT)
    _, err = p.communicate(timeout=120)
    assert p.returncode == 130 and "已中断" in err and "Traceback" not in err and "Warning" not in err, err
    assert time.monotonic() - t0 < 5
    time.sleep(0.5)
    assert not _running_in_group(p.pid)   # the second process went too


def _running_in_group(pgid: int) -> list[int]:
    """Processes of the group that are not zombies (init reaps those when it gets to it)."""
    out = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            out.append(int(pid))
    return out


def test_keyboard_interrupt_in_process(capsys, monkeypatch):
    def interrupted(*_a, **_k):
        raise KeyboardInterrupt
    monkeypatch.chdir(ROOT)
    monkeypatch.setattr("verifier.engine.check", interrupted)
    code, _, err = _main(capsys, "check", S11)
    assert code == 130 and "已中断" in err


def test_baseline_refuses_outside_the_project(tmp_path):
    res = _cli("baseline", cwd=str(tmp_path))
    assert res.returncode == 2 and "没有内置规则" in res.stderr and "Traceback" not in res.stderr
    assert not os.listdir(tmp_path)   # no findings/ created


def test_baseline_command_does_not_use_the_cache(monkeypatch):
    import verifier.baseline as baseline
    seen = []

    class Stop(Exception):
        pass

    def check(rs, **kw):
        seen.append(kw)
        raise Stop
    monkeypatch.setattr(baseline, "check", check)
    with pytest.raises(Stop):
        baseline.render(os.path.join(ROOT, S11))
    assert seen and not seen[0].get("incremental")


def _json_check(capsys, folder: str, *extra: str) -> tuple[str, str]:
    code, out, err = _main(capsys, "check", folder, "--only", "dead-rule,setup", "--format", "json", *extra)
    assert code in (0, 1), err
    return out, err


def test_cache_is_on_by_default_and_gives_the_same_answers(capsys, tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    monkeypatch.setenv("VERIFIER_CACHE", str(cache))
    monkeypatch.chdir(tmp_path)
    shutil.copytree(os.path.join(ROOT, S11), "s11")
    fresh, _ = _json_check(capsys, "s11", "--no-cache")
    assert not cache.exists()
    cold, _ = _json_check(capsys, "s11")
    files = os.listdir(cache)
    assert files == ["s11.json"] and not os.access(cache / files[0], os.X_OK)
    doc = json.loads((cache / "s11.json").read_text(encoding="utf-8"))
    assert doc["format"] == "bansha-verifier-cache" and isinstance(doc["version"], int) and doc["entries"]
    warm, err = _json_check(capsys, "s11", "--incremental")
    assert fresh == cold == warm and not err
    # an edit that moves every line of ruleset.yaml: cached findings cite the new lines
    path = os.path.join("s11", "ruleset.yaml")
    text = open(path, encoding="utf-8").read()
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("# a comment that moves every line\n" + text)
    moved, _ = _json_check(capsys, "s11")
    assert moved == _json_check(capsys, "s11", "--no-cache")[0] != fresh


@pytest.mark.parametrize("damage, note", [
    (lambda text: text[: len(text) // 2], "已损坏"),
    (lambda text: json.dumps(dict(json.loads(text), version=-1)), "来自另一版本"),
    (lambda text: json.dumps(json.loads(text)["entries"]), "来自另一版本"),   # the layout before versions
])
def test_a_bad_cache_is_ignored_with_a_note(capsys, tmp_path, monkeypatch, damage, note):
    cache = tmp_path / "cache"
    monkeypatch.setenv("VERIFIER_CACHE", str(cache))
    monkeypatch.chdir(ROOT)
    fresh, _ = _json_check(capsys, S11, "--no-cache")
    _json_check(capsys, S11)
    path = cache / "s11.json"
    path.write_text(damage(path.read_text(encoding="utf-8")), encoding="utf-8")
    again, err = _json_check(capsys, S11)
    assert again == fresh and note in err and len(err.strip().splitlines()) == 1
    assert _json_check(capsys, S11)[1] == ""   # rewritten: no note the next time
