"""Meta tests over the registry of analyses and over the code layout.

* every analysis is documented (docstring, kind, summary, severity, decides_by);
* every kind has a bad and a good fixture folder;
* only models/encoding/ imports z3;
* the engine (verifier/, models/) never names a role or skill of the bundled rulesets.
"""
from __future__ import annotations

import ast
import functools
import glob
import os
import re

import pytest

from models import schema
from models.loader import load_ruleset
from models.resolve import WHO_WORDS
from verifier.analyses import ANALYSES
from verifier.findings import KINDS, SEVERITIES

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
FIXTURES = os.path.join(HERE, "fixtures")


def _py_files(*tops: str) -> list[str]:
    out = []
    for top in tops:
        out.extend(sorted(glob.glob(os.path.join(REPO, top, "**", "*.py"), recursive=True)))
    return out


def _read(path: str) -> str:
    with open(path, encoding="utf-8") as fh:
        return fh.read()


def _rel(path: str) -> str:
    return os.path.relpath(path, REPO)


# ---- the registry -----------------------------------------------------------------------------
@pytest.mark.parametrize("analysis", ANALYSES, ids=lambda a: a.kind or a.__name__)
def test_analysis_is_documented(analysis):
    assert analysis.__doc__ and analysis.__doc__.strip(), f"{analysis.__name__} has no docstring"
    assert analysis.doc() == analysis.__doc__.strip()
    assert isinstance(analysis.kind, str) and analysis.kind, f"{analysis.__name__} has no kind"
    assert analysis.kind in KINDS, f"{analysis.__name__}.kind {analysis.kind!r} is not a finding kind"
    assert isinstance(analysis.summary, str) and analysis.summary.strip(), f"{analysis.__name__} has no summary"
    assert analysis.severity in ("error", "warning", "info"), f"{analysis.__name__}.severity {analysis.severity!r}"
    assert analysis.decides_by in ("graph", "smt", "both", "text"), f"{analysis.__name__}.decides_by {analysis.decides_by!r}"


def test_one_analysis_per_kind():
    kinds = [a.kind for a in ANALYSES]
    assert len(kinds) == len(set(kinds)), f"duplicate kinds in the registry: {kinds}"
    assert set(kinds) == set(KINDS), f"kinds without an analysis: {set(KINDS) - set(kinds)}; " \
                                     f"analyses without a kind: {set(kinds) - set(KINDS)}"
    assert set(SEVERITIES) == {"error", "warning", "info"}


@pytest.mark.parametrize("kind", [a.kind for a in ANALYSES])
def test_every_kind_has_bad_and_good_fixtures(kind):
    folder = os.path.join(FIXTURES, kind)
    assert os.path.isdir(folder), f"tests/fixtures/{kind}/ is missing"
    for prefix in ("bad", "good"):
        found = [d for d in sorted(glob.glob(os.path.join(folder, f"{prefix}_*"))) if os.path.isdir(d)]
        assert found, f"tests/fixtures/{kind}/ has no {prefix}_* fixture"
        for d in found:
            for name in ("ruleset.yaml", "source.txt"):
                assert os.path.isfile(os.path.join(d, name)), f"{_rel(d)} has no {name}"


def test_no_fixture_folder_for_an_unknown_kind():
    folders = {os.path.basename(d.rstrip(os.sep)) for d in glob.glob(os.path.join(FIXTURES, "*", ""))}
    assert folders <= {a.kind for a in ANALYSES}, f"fixture folders for no analysis: {folders - {a.kind for a in ANALYSES}}"


# ---- only models/encoding/ talks to z3 --------------------------------------------------------
Z3_TEXT = re.compile(r"^\s*(?:import\s+z3\b|from\s+z3\b)", re.MULTILINE)


def _imports_z3(text: str) -> list[int]:
    lines = [text.count("\n", 0, m.start()) + 1 for m in Z3_TEXT.finditer(text)]
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import) and any(a.name == "z3" or a.name.startswith("z3.") for a in node.names):
            lines.append(node.lineno)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").split(".")[0] == "z3":
            lines.append(node.lineno)
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant) \
                and node.args[0].value == "z3" and getattr(node.func, "attr", getattr(node.func, "id", "")) \
                in ("import_module", "__import__"):
            lines.append(node.lineno)
    return sorted(set(lines))


def _outside_encoding() -> list[str]:
    enc = os.path.join(REPO, "models", "encoding") + os.sep
    return [p for p in _py_files("verifier", "models") if not p.startswith(enc)]


@pytest.mark.parametrize("path", _outside_encoding(), ids=_rel)
def test_only_models_encoding_imports_z3(path):
    lines = _imports_z3(_read(path))
    assert not lines, f"{_rel(path)} imports z3 (line {', '.join(map(str, lines))}); only models/encoding/ may"


def test_models_encoding_is_the_z3_package():
    users = [p for p in _py_files("models/encoding") if _imports_z3(_read(p))]
    assert users, "models/encoding/ should be where z3 is used"


# ---- the engine is generic: no role or skill of the bundled rulesets in the code --------------
# Words of the language itself (keys, effect kinds, events, who-words ...) and the generic game
# words the engine's own messages use for language concepts. A role or skill that happens to be
# spelled like one of these is not a sign of special-casing.
LANGUAGE_WORDS = (
    set(schema.EFFECT_KINDS) | set(schema.CONDITION_KINDS) | set(schema.TRIGGER_EVENTS) | set(schema.BLOCKABLE)
    | set(schema.TAG_MEANINGS) | set(schema.FILTER_KEYS) | set(WHO_WORDS) | set(schema.SCHEMA["properties"])
    | {"投票", "平票", "出局", "阵营", "身份", "技能", "状态", "标签", "获胜", "胜利", "失败", "目标", "发动者", "存活"}
)


@functools.lru_cache(maxsize=None)
def _bundled_names() -> dict[str, str]:
    names: dict[str, str] = {}
    for folder in sorted(glob.glob(os.path.join(REPO, "rulesets", "*", ""))):
        if not os.path.isfile(os.path.join(folder, "ruleset.yaml")):
            continue
        rs = load_ruleset(folder)
        for role in rs.roles:
            names.setdefault(role, f"{rs.id} 身份")
        for skill in rs.skills:
            names.setdefault(skill.name, f"{rs.id} 技能")
    return {n: where for n, where in names.items() if len(n) >= 2 and n not in LANGUAGE_WORDS}


def test_bundled_rulesets_were_read():
    assert len(_bundled_names()) > 20


@pytest.mark.parametrize("path", _py_files("verifier", "models"), ids=_rel)
def test_engine_never_names_a_bundled_role_or_skill(path):
    text = _read(path)
    hits = sorted(f"{n}（{where}）" for n, where in _bundled_names().items() if n in text)
    assert not hits, f"{_rel(path)} names roles/skills of the bundled rulesets: {'、'.join(hits)}"


@pytest.mark.parametrize("text, found", [
    ("import z3\n", [1]),
    ("from z3 import And\n", [1]),
    ("x = 1\nif True:\n    import os, z3\n", [3]),
    ("import importlib\nz = importlib.import_module('z3')\n", [2]),
    ('"""Proved with z3 over the range; see from z3 docs."""\n', []),
    ("from .solver import Solver  # wraps z3\n", []),
])
def test_z3_import_detector(text, found):
    assert _imports_z3(text) == found
