"""Per-analysis fixtures: tests/fixtures/<kind>/bad_*/ and good_*/.

Each fixture is a ruleset folder (ruleset.yaml + source.txt). It is checked with only the
analysis of its folder's kind switched on:

* bad_*  -- its ruleset.yaml starts with
  `# expect: <kind> subjects=<a>,<b> verdict=<proved|witnessed|unknown>`;
  at least one finding of that kind must name all those subjects with that verdict.
* good_* -- the repaired twin; it must produce no finding of that kind.
"""
from __future__ import annotations

import glob
import os
import re
from dataclasses import dataclass

import pytest

from models.loader import load_ruleset
from verifier.engine import check
from verifier.findings import KINDS, VERDICTS

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "fixtures")
EXPECT = re.compile(r"^# expect: (?P<kind>\S+) subjects=(?P<subjects>.+?) verdict=(?P<verdict>\S+)\s*$")

# Fixtures on which an analysis is known to be wrong. Each one stays in the suite as a strict
# xfail so that the fix is noticed (the test then XPASSes and fails until the mark is removed).
KNOWN_ENGINE_BUGS: dict[str, str] = {}  # fixture id -> reason, for engine bugs not yet fixed


@dataclass(frozen=True)
class Fixture:
    kind: str
    name: str
    path: str

    @property
    def id(self) -> str:
        return f"{self.kind}/{self.name}"

    @property
    def yaml_text(self) -> str:
        with open(os.path.join(self.path, "ruleset.yaml"), encoding="utf-8") as fh:
            return fh.read()

    def expectation(self) -> tuple[str, tuple[str, ...], str] | None:
        for line in self.yaml_text.splitlines():
            m = EXPECT.match(line)
            if m:
                subjects = tuple(s.strip() for s in m["subjects"].split(",") if s.strip())
                return m["kind"], subjects, m["verdict"]
        return None


def discover(prefix: str) -> list[Fixture]:
    out = []
    for path in sorted(glob.glob(os.path.join(FIXTURES, "*", f"{prefix}_*", ""))):
        path = path.rstrip(os.sep)
        out.append(Fixture(os.path.basename(os.path.dirname(path)), os.path.basename(path), path))
    return out


def _params(fixtures: list[Fixture]) -> list:
    params = []
    for fx in fixtures:
        marks = [pytest.mark.xfail(reason=KNOWN_ENGINE_BUGS[fx.id], strict=True)] if fx.id in KNOWN_ENGINE_BUGS else []
        params.append(pytest.param(fx, id=fx.id, marks=marks))
    return params


BAD = discover("bad")
GOOD = discover("good")
ALL = BAD + GOOD


def _describe(findings) -> str:
    return "\n".join(f"  {f.kind} {f.verdict} {list(f.subjects)}: {f.message}" for f in findings) or "  (none)"


@pytest.mark.parametrize("fx", _params(BAD))
def test_bad_fixture_reports_its_defect(fx: Fixture):
    expected = fx.expectation()
    assert expected is not None, f"{fx.id}: ruleset.yaml has no '# expect: <kind> subjects=… verdict=…' line"
    kind, subjects, verdict = expected
    assert kind == fx.kind, f"{fx.id}: the expect line names {kind}, the folder is {fx.kind}"
    report = check(load_ruleset(fx.path), kinds=[fx.kind])
    of_kind = [f for f in report.findings if f.kind == fx.kind]
    matching = [f for f in of_kind if set(subjects) <= set(f.subjects) and f.verdict == verdict]
    assert matching, (f"{fx.id}: expected a {kind} finding about {list(subjects)} with verdict {verdict}; got:\n"
                      + _describe(of_kind))


@pytest.mark.parametrize("fx", _params(GOOD))
def test_good_fixture_is_clean(fx: Fixture):
    report = check(load_ruleset(fx.path), kinds=[fx.kind])
    of_kind = [f for f in report.findings if f.kind == fx.kind]
    assert not of_kind, f"{fx.id}: the repaired twin still produces {fx.kind} findings:\n" + _describe(of_kind)


# ---- the fixtures themselves are well formed ------------------------------------------------
def _src_values(node, path=()):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "src" or key.endswith("_src"):
                for line in (value if isinstance(value, list) else [value]):
                    yield path + (key,), line
            else:
                yield from _src_values(value, path + (key,))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _src_values(value, path + (i,))


@pytest.mark.parametrize("fx", [pytest.param(fx, id=fx.id) for fx in ALL])
def test_fixture_is_well_formed(fx: Fixture):
    assert fx.kind in KINDS, f"{fx.id}: folder {fx.kind} is not a finding kind"
    with open(os.path.join(fx.path, "source.txt"), encoding="utf-8") as fh:
        source = fh.read().splitlines()
    assert source and source[0].startswith("# 来源:"), f"{fx.id}: source.txt line 1 must be the header line"
    rs = load_ruleset(fx.path)  # loads without errors
    for where, line in _src_values(rs.raw):
        assert 2 <= line <= len(source), f"{fx.id}: {'/'.join(map(str, where))} points at line {line} of a {len(source)}-line source"
    expected = fx.expectation()
    if fx.name.startswith("bad_"):
        assert expected is not None and expected[2] in VERDICTS
    else:
        assert expected is None, f"{fx.id}: a good fixture must not carry an expect line"


def test_fixtures_were_found():
    assert BAD and GOOD
