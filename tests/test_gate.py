"""The author's and CI's workflow: rulings settle a question, suppressions are shown but do
not fail, the baseline gate fails only on new findings or stale encodings, diff reports what
a change introduced, and the committed JSON Schema is the generated one."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from models.loader import load_ruleset
from verifier.engine import check

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BAD = os.path.join(ROOT, "tests", "fixtures", "order-dependence", "bad_two_convert_triggers")


def _copy(tmp_path, name="rs") -> str:
    dest = tmp_path / name
    shutil.copytree(BAD, dest)
    return str(dest)


def _append(folder: str, text: str) -> None:
    with open(os.path.join(folder, "ruleset.yaml"), "a", encoding="utf-8") as fh:
        fh.write("\n" + text)


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "verifier", *args], cwd=ROOT, capture_output=True, text=True)


def _order_findings(folder: str):
    return [f for f in check(load_ruleset(folder)).findings if f.kind == "order-dependence"]


def test_a_ruling_settles_the_question(tmp_path):
    folder = _copy(tmp_path)
    assert _order_findings(folder), "the fixture must have the order question"
    _append(folder, 'rulings:\n  - {question: "先结算哪一个？", ruling: "先结算【反噬】", first: 反噬, then: 蛊惑, src: 4}\n')
    assert not _order_findings(folder)


def test_a_ruling_against_the_stated_order_is_reported(tmp_path):
    folder = _copy(tmp_path)
    _append(folder, "precedence:\n  - {first: 蛊惑, then: 反噬, src: 5}\n"
                    'rulings:\n  - {question: "先结算哪一个？", ruling: "先结算【反噬】", first: 反噬, then: 蛊惑, src: 4}\n')
    kinds = {(f.kind, f.subjects) for f in check(load_ruleset(folder)).findings}
    assert ("contradiction", ("反噬", "蛊惑")) in kinds


def test_a_suppression_is_shown_and_does_not_fail(tmp_path):
    folder = _copy(tmp_path)
    rid = load_ruleset(folder).id
    fid = _order_findings(folder)[0].stable_id(rid)
    _append(folder, f'suppressions:\n  - {{finding: "{fid}", reason: "导演已口头裁定"}}\n')
    report = check(load_ruleset(folder))
    sup = [f for f in report.findings if f.stable_id(rid) == fid]
    assert sup and sup[0].suppressed == "导演已口头裁定"
    assert _cli("check", folder, "--fail-on", "warning").returncode in (0, 1)
    doc = json.loads(_cli("check", folder, "--format", "json").stdout)
    assert doc["summary"]["suppressed"] == 1


def test_baseline_gate_fails_only_on_new_findings(tmp_path):
    folder = _copy(tmp_path)
    base = tmp_path / "base.json"
    _cli("check", folder, "--format", "json", "-o", str(base))
    assert _cli("check", folder, "--baseline", str(base), "--fail-on", "warning").returncode == 0
    _append(folder, "voting: {src: 4, tie: null}\n")   # plants a missing-rule error
    assert _cli("check", folder, "--baseline", str(base)).returncode == 1


def test_stale_encoding_fails_the_gate(tmp_path):
    folder = _copy(tmp_path)
    base = tmp_path / "base.json"
    _cli("check", folder, "--format", "json", "-o", str(base))
    src = os.path.join(folder, "source.txt")
    lines = open(src, encoding="utf-8").read().splitlines()
    lines[3] = lines[3] + "（作者修改了这句）"
    open(src, "w", encoding="utf-8").write("\n".join(lines) + "\n")
    res = _cli("check", folder, "--baseline", str(base), "--fail-on", "never")
    assert res.returncode == 1 and "过期编码" in res.stderr


def test_diff_reports_introduced_findings(tmp_path):
    old = _copy(tmp_path, "old")
    new = _copy(tmp_path, "new")
    _append(new, "voting: {src: 4, tie: null}\n")
    res = _cli("diff", old, new, "--format", "json")
    doc = json.loads(res.stdout)
    assert any(f["kind"] == "missing-rule" for f in doc["introduced"])
    assert res.returncode == 1


def test_committed_schema_is_generated_from_the_model():
    with open(os.path.join(ROOT, "schema", "ruleset.schema.json"), encoding="utf-8") as fh:
        committed = json.load(fh)
    from models.schema import SCHEMA
    assert committed == json.loads(json.dumps(SCHEMA)), "run: python -m verifier schema > schema/ruleset.schema.json"


@pytest.mark.parametrize("fmt", ["text", "json", "md", "sarif", "html"])
def test_every_format_renders(tmp_path, fmt):
    res = _cli("check", BAD, "--format", fmt, "--fail-on", "never")
    assert res.returncode == 0 and res.stdout.strip()
