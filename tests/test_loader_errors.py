"""Bad input: `python -m verifier check <dir>` exits 2 and prints `file:line: 错误: …` on
stderr, with no traceback, and the line is the line of the offending YAML node.
Nothing in a ruleset is ever executed."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from typing import Callable

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ERROR_LINE = re.compile(r"^(?P<file>.+?):(?P<line>\d+): 错误: (?P<message>.+)$")

SOURCE = "# 来源: fixture | 作者: tests\n甲身份属于甲阵营，夜晚可使用【乙技能】获得[护盾]。\n"

# A valid ruleset; every case below breaks exactly one node of it.
BASE = """\
schema: ruleset/v1
id: broken
title: 坏输入
author: tests
source: source.txt
phases:
  - {name: 夜晚, src: 2}
factions:
  - {name: 甲阵营, src: 2, lose: {none: {alive: true, faction: 甲阵营}}}
statuses:
  - {name: 护盾, src: 2, blocks: []}
tags:
  - {name: 指定, src: 2, meaning: targeted}
roles:
  - name: 甲身份
    src: 2
    faction: 甲阵营
    skills:
      - name: 乙技能
        src: 2
        timing: [夜晚]
        effects:
          - grant_status:
              who: self
              status: 护盾
            src: 2
      - name: 丙技能
        src: 2
        tags: [指定]
        trigger: {event: went_out, on: self, cause: 毒药}
        effects:
          - out: {who: self, cause: 毒药}
            src: 2
"""


def _swap(old: str, new: str) -> Callable[[str], str]:
    def edit(text: str) -> str:
        assert text.count(old) == 1, old
        return text.replace(old, new)
    return edit


@dataclass(frozen=True)
class Case:
    name: str
    edit: Callable[[str], str]
    offending: str | None          # the offending line's text (its line number is expected); None: line 0
    bug: str | None = None         # known engine problem: the whole case fails
    line_bug: str | None = None    # known engine problem: only the reported line is wrong
    executes: str | None = None    # a file that exists only if the YAML was executed
    says: tuple[str, ...] = ()     # what the message must name: the expected set, the nearest name



CASES = [
    Case("yaml-syntax-error", _swap("title: 坏输入\n", "title: 坏输入: 冒号\n"), "title: 坏输入: 冒号"),
    Case("duplicate-key", _swap("author: tests\n", "author: tests\ntitle: 又一个标题\n"), "title: 又一个标题"),
    Case("unknown-top-level-key", lambda t: t + "colour: 红\n", "colour: 红"),
    Case("role-missing-faction", _swap("    faction: 甲阵营\n", "    count: 1\n"), "  - name: 甲身份"),
    Case("undeclared-status-in-effect", _swap("              status: 护盾\n", "              status: 幽灵\n"),
         "              status: 幽灵"),
    Case("python-tag-echo",
         _swap("title: 坏输入\n", 'title: !!python/object/apply:os.system ["echo hacked"]\n'),
         'title: !!python/object/apply:os.system ["echo hacked"]'),
    Case("python-tag-touch",
         _swap("title: 坏输入\n", 'title: !!python/object/apply:os.system ["touch {tmp}/HACKED"]\n'),
         'title: !!python/object/apply:os.system ["touch {tmp}/HACKED"]', executes="HACKED"),
    Case("python-tag-on-a-valid-list",
         _swap("        timing: [夜晚]\n", "        timing: !!python/object/apply:os.system [夜晚]\n"),
         "        timing: !!python/object/apply:os.system [夜晚]"),
    Case("python-name-tag-on-a-scalar",
         _swap("title: 坏输入\n", "title: !!python/name:os.system\n"), "title: !!python/name:os.system"),
    Case("nonexistent-folder", lambda t: t, None),
    Case("part-of-not-in-the-text", _swap("      - name: 丙技能\n", "      - name: 丙技能\n        part_of: 丁技能\n"),
         "        part_of: 丁技能", says=("丁技能", "source.txt")),
    # the strict loader: enumerations, undeclared names, source lines
    Case("enum-value-outside", _swap("        timing: [夜晚]\n", "        timing: [夜晚]\n        uses: {count: 1, per: night}\n"),
         "        uses: {count: 1, per: night}", says=("'night'", "game | day | phase")),
    Case("enum-value-nearest", _swap("meaning: targeted}", "meaning: targetted}"),
         "  - {name: 指定, src: 2, meaning: targetted}", says=("最接近的是 'targeted'",)),
    Case("unknown-effect-field", _swap("          - out: {who: self, cause: 毒药}", "          - out: {who: self, cuase: 毒药}"),
         "          - out: {who: self, cuase: 毒药}", says=("'cuase'", "最接近的是 'cause'")),
    Case("undeclared-cause-in-trigger", _swap("on: self, cause: 毒药}", "on: self, cause: 毒}"),
         "        trigger: {event: went_out, on: self, cause: 毒}",
         says=("出局原因 '毒'", "投票出局", "最接近的是 '毒药'")),
    Case("undeclared-cause-in-condition", _swap("            src: 2\n      - name: 丙技能", "            if: {cause: 投票出具}\n            src: 2\n      - name: 丙技能"),
         "            if: {cause: 投票出具}", says=("出局原因 '投票出具'", "最接近的是 '投票出局'")),
    Case("undeclared-tag", _swap("        tags: [指定]\n", "        tags: [指令]\n"), "        tags: [指令]",
         says=("标签 '指令'", "指定", "最接近的是 '指定'")),
    Case("undeclared-phase", _swap("        timing: [夜晚]\n", "        timing: [夜里]\n"), "        timing: [夜里]",
         says=("阶段 '夜里'", "夜晚", "最接近的是 '夜晚'")),
    Case("undeclared-phase-in-duration", _swap("              status: 护盾\n", "              status: 护盾\n              duration: until:夜完\n"),
         "              duration: until:夜完", says=("阶段 '夜完'", "最接近的是 '夜晚'")),
    Case("undeclared-dollar-word", _swap("          - grant_status:\n              who: self\n              status: 护盾\n",
                                          "          - set_faction: {who: self, to: $slef}\n"),
         "          - set_faction: {who: self, to: $slef}", says=("阵营 '$slef'", "最接近的是 '$self'")),
    Case("undeclared-who-in-trigger", _swap("on: self, cause: 毒药}", "on: slef, cause: 毒药}"),
         "        trigger: {event: went_out, on: slef, cause: 毒药}", says=("'slef'", "最接近的是 'self'")),
    Case("src-past-end-of-source", _swap("  - {name: 护盾, src: 2, blocks: []}", "  - {name: 护盾, src: 3, blocks: []}"),
         "  - {name: 护盾, src: 3, blocks: []}", says=("src 行号 3", "1–2")),
    Case("src-list-past-end-of-source", _swap("  - {name: 夜晚, src: 2}", "  - {name: 夜晚, src: [2, 40]}"),
         "  - {name: 夜晚, src: [2, 40]}", says=("src 行号 40", "1–2")),
]


def _write(tmp_path, case: Case) -> tuple[str, str | None]:
    if case.name == "nonexistent-folder":
        return str(tmp_path / "没有这个目录"), None
    folder = tmp_path / "ruleset"
    folder.mkdir()
    text = case.edit(BASE).replace("{tmp}", str(tmp_path))
    (folder / "ruleset.yaml").write_text(text, encoding="utf-8")
    (folder / "source.txt").write_text(SOURCE, encoding="utf-8")
    return str(folder), text


def _run(folder: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-m", "verifier", "check", folder], cwd=REPO, env=env,
                          capture_output=True, text=True, encoding="utf-8", timeout=120)


def _errors(stderr: str) -> list[re.Match]:
    lines = [line for line in stderr.splitlines() if line.strip()]
    matches = [ERROR_LINE.match(line) for line in lines]
    assert lines and all(matches), f"stderr is not only `file:line: 错误: …` lines:\n{stderr}"
    return matches  # type: ignore[return-value]


def _expected_line(case: Case, text: str | None, tmp_path) -> int:
    if case.offending is None:
        return 0
    wanted = case.offending.replace("{tmp}", str(tmp_path))
    numbers = [i for i, line in enumerate(text.splitlines(), start=1) if line == wanted]
    assert len(numbers) == 1, wanted
    return numbers[0]


def _params(field: str) -> list:
    out = []
    for c in CASES:
        reason = c.bug or (c.line_bug if field == "line" else None)
        marks = [pytest.mark.xfail(reason=reason, strict=True)] if reason else []
        out.append(pytest.param(c, id=c.name, marks=marks))
    return out


def test_base_ruleset_is_valid(tmp_path):
    folder, _ = _write(tmp_path, Case("base", lambda t: t, None))
    res = _run(folder)
    assert res.returncode in (0, 1), res.stderr
    assert "错误" not in res.stderr


@pytest.mark.parametrize("case", _params("clean"))
def test_bad_input_is_rejected_cleanly(tmp_path, case: Case):
    folder, _ = _write(tmp_path, case)
    res = _run(folder)
    assert "Traceback" not in res.stderr, res.stderr
    assert res.returncode == 2, f"exit {res.returncode}\nstdout:\n{res.stdout}\nstderr:\n{res.stderr}"
    assert res.stdout == "", res.stdout  # nothing ran, nothing was echoed
    for m in _errors(res.stderr):
        # a folder that does not exist is named itself; anything else is its ruleset.yaml
        wanted = folder if case.name == "nonexistent-folder" else os.path.join(folder, "ruleset.yaml")
        assert m["file"] == wanted, m.group(0)
    if case.executes:
        assert not (tmp_path / case.executes).exists(), "the YAML tag was executed"
    for words in case.says:
        assert words in res.stderr, f"the message should say {words!r}:\n{res.stderr}"


@pytest.mark.parametrize("case", _params("line"))
def test_error_points_at_the_offending_line(tmp_path, case: Case):
    folder, text = _write(tmp_path, case)
    res = _run(folder)
    assert res.returncode == 2, res.stderr
    reported = {int(m["line"]) for m in _errors(res.stderr)}
    expected = _expected_line(case, text, tmp_path)
    assert reported == {expected}, f"expected line {expected}, got {sorted(reported)}:\n{res.stderr}"


# ---- the schema editors read -------------------------------------------------------------------
DRAFT_07 = "http://json-schema.org/draft-07/schema#"
MODELINE = re.compile(r"^# yaml-language-server: \$schema=(?P<path>\S+)$")


def _schema():
    from models.schema import SCHEMA
    return SCHEMA


def _properties(node, path=()):
    """(path, key, schema) of every property anywhere in the schema."""
    if isinstance(node, dict):
        for key, sub in (node.get("properties") or {}).items():
            yield path + (key,), key, sub
        for key, sub in node.items():
            yield from _properties(sub, path + (key,))
    elif isinstance(node, list):
        for i, sub in enumerate(node):
            yield from _properties(sub, path + (i,))


def test_schema_is_draft_07_and_every_property_is_described():
    import jsonschema
    schema = _schema()
    assert schema["$schema"] == DRAFT_07
    jsonschema.Draft7Validator.check_schema(schema)
    props = list(_properties(schema))
    assert len(props) > 200
    undescribed = ["/".join(map(str, p)) for p, _, sub in props if not (sub.get("description") or "").strip()]
    assert not undescribed, undescribed
    from models.loader import _VALIDATOR
    assert isinstance(_VALIDATOR, jsonschema.Draft7Validator)


def test_schema_keys_and_language_md_agree():
    """No drift: every key the schema describes is documented in LANGUAGE.md (as `key` or key:),
    and every key LANGUAGE.md's examples use is one the schema knows."""
    with open(os.path.join(REPO, "models", "LANGUAGE.md"), encoding="utf-8") as fh:
        doc = fh.read()
    keys = {key for _, key, _ in _properties(_schema())}
    documented = {w for span in re.findall(r"`([^`]+)`", doc) for w in re.findall(r"[A-Za-z_]+", span)}
    documented |= set(re.findall(r"([a-z_]+):", doc))
    assert not sorted(keys - documented), "keys missing from models/LANGUAGE.md"
    examples = set()
    for block in re.findall(r"```yaml\n(.*?)```", doc, re.S):
        for line in block.splitlines():
            examples |= set(re.findall(r"([a-z_]+):", line.split("#")[0]))
    assert not sorted(examples - keys), "LANGUAGE.md uses keys the schema does not know"


def test_every_bundled_ruleset_points_editors_at_the_schema():
    import glob
    folders = sorted(glob.glob(os.path.join(REPO, "rulesets", "*", "ruleset.yaml")))
    assert folders
    for path in folders:
        with open(path, encoding="utf-8") as fh:
            first = fh.readline().rstrip("\n")
        m = MODELINE.match(first)
        assert m, f"{path}: first line should be `# yaml-language-server: $schema=…`, is {first!r}"
        target = os.path.normpath(os.path.join(os.path.dirname(path), m["path"]))
        assert os.path.isfile(target), f"{path}: {m['path']} does not exist"
        assert target == os.path.join(REPO, "schema", "ruleset.schema.json")
