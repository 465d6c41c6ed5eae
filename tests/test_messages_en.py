"""With `--lang en` the loader's errors and the text of `diff` are English: the same
`file:line:` and exit 2 as in Chinese, and no Chinese outside the ruleset's own names."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

import pytest

from models.load_text import MESSAGES
from test_loader_errors import BASE, CASES, SOURCE, _expected_line, _write

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ERROR_LINE_EN = re.compile(r"^(?P<file>.+?):(?P<line>\d+): error: (?P<message>.+)$")
CJK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")
# names the fixture declares, and the built-in vote-out causes: they stay as written in English
NAMES = sorted(set(re.findall(r"[\u4e00-\u9fff]+", BASE + SOURCE)) | {"投票", "投票出局"}, key=len, reverse=True)

EN_CASES = {   # a representative error of each family -> words its English message must hold
    "unknown-effect-field": ("unknown field 'cuase'", "the nearest is 'cause'"),
    "enum-value-outside": ("value 'night' is not allowed (expected game | day | phase)",),
    "undeclared-cause-in-trigger": ("undeclared going-out cause '毒'", "the nearest is '毒药'"),
    "undeclared-phase": ("undeclared phase '夜里'", "declare it in phases or windows"),
    "src-past-end-of-source": ("src line 3 is outside", "expected 1-2"),
    "yaml-syntax-error": ("YAML syntax error",),
    "python-tag-echo": ("YAML tag", "is not allowed: a ruleset holds plain data only"),
    "role-missing-faction": ("missing required field 'faction'",),
    "duplicate-key": ("duplicate key 'title'",),
}


def _cli(*args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-m", "verifier", *args], cwd=REPO, env=env, capture_output=True,
                          text=True, encoding="utf-8", timeout=120)


def _without_names(text: str) -> str:
    """The message without quoted values and without the names the ruleset declares."""
    text = re.sub(r"'[^']*'", "", text)
    for name in NAMES:
        text = text.replace(name, "")
    return text


@pytest.mark.parametrize("name", sorted(EN_CASES))
def test_loader_error_in_english(tmp_path, name):
    case = next(c for c in CASES if c.name == name)
    folder, text = _write(tmp_path, case)
    zh, en = _cli("check", folder), _cli("check", folder, "--lang", "en")
    assert en.returncode == 2 and "Traceback" not in en.stderr, en.stderr
    assert en.stdout == ""
    lines = [line for line in en.stderr.splitlines() if line.strip()]
    matches = [ERROR_LINE_EN.match(line) for line in lines]
    assert lines and all(matches), en.stderr
    # the same places as the Chinese messages, in the same order
    where_zh = [line.split(": 错误: ")[0] for line in zh.stderr.splitlines() if line.strip()]
    assert [f"{m['file']}:{m['line']}" for m in matches] == where_zh
    assert {int(m["line"]) for m in matches} == {_expected_line(case, text, tmp_path)}
    for m in matches:
        assert not CJK.search(_without_names(m["message"])), m["message"]
    for words in EN_CASES[name]:
        assert words in en.stderr, f"{words!r} not in:\n{en.stderr}"


def test_every_message_has_both_languages():
    zh, en = MESSAGES["zh"], MESSAGES["en"]
    assert zh.keys() == en.keys()
    fields = re.compile(r"(?<!\{)\{(\w*)\}")
    for key in zh:
        # English may leave a part out ("expected one of: …" names no kind), never add one
        assert set(fields.findall(en[key])) <= set(fields.findall(zh[key])), key
        assert not CJK.search(en[key]), key


def test_diff_text_in_english(tmp_path):
    fixture = os.path.join(REPO, "tests", "fixtures", "order-dependence", "bad_two_convert_triggers")
    old, new = str(tmp_path / "old"), str(tmp_path / "new")
    shutil.copytree(fixture, old)
    shutil.copytree(fixture, new)
    with open(os.path.join(new, "ruleset.yaml"), "a", encoding="utf-8") as fh:
        fh.write("\nvoting: {src: 4, tie: null}\n")
    with open(os.path.join(new, "source.txt"), encoding="utf-8") as fh:
        source = fh.read()
    with open(os.path.join(new, "source.txt"), "w", encoding="utf-8") as fh:
        fh.write(source.replace("使发动者加入乙阵营", "使发动者改入乙阵营"))
    zh, en = _cli("diff", old, new), _cli("diff", old, new, "--lang", "en")
    assert zh.returncode == en.returncode == 1, en.stderr
    assert zh.stdout.startswith("新增 1，解决 0，改变 0") and "过期编码：" in zh.stdout
    head, *rest = en.stdout.splitlines()
    assert head.startswith("introduced 1, resolved 0, changed 0; skills changed 0; stale encodings ")
    assert any(line.startswith("+ ") and ": error missing-rule " in line for line in rest), en.stdout
    assert any(line.startswith("! stale encoding: ") for line in rest), en.stdout
    assert not CJK.search(head)


def test_a_group_of_pairs_no_game_reaches_is_not_called_undecided_in_english():
    """Unconfirmed order pairs within the bounds are decided (no game reaches them): their
    grouped English message says so, as the Chinese one does, and a budget group still says
    budget."""
    from verifier.findings import Finding, grouped
    def member(pair: str, group: tuple) -> Finding:
        return Finding(kind="unknown", severity="info", verdict="unknown", subjects=tuple(pair.split("/")),
                       message="…", locations=(), key=(pair,), group=group)
    within = ("within-bounds", "{n} 对技能……没有合法对局走到先后会改变结果的局面", "甲与乙", None,
              "{n} pairs may depend on their order, but no legal game within 3 steps reaches it")
    g = grouped([member("甲/乙", within), member("丙/丁", within[:2] + ("丙与丁",) + within[3:])])
    assert g.message_en.startswith("2 pairs may depend on their order") and "budget" not in g.message_en
    budget = ("order-undecided", "以下 {n} 对技能的结算顺序问题在求解预算内未能判定", "甲与乙")
    assert "budget" in grouped([member("甲/乙", budget), member("丙/丁", budget)]).message_en
