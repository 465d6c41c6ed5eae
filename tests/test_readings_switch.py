"""Two passages that disagree, encoded as a switch (`readings: switch:`): the inconsistent-text
finding comes from the switch's check, with the game and the outcome under each passage."""
from __future__ import annotations

import os

import pytest
import yaml

from models.loader import InvalidRuleset
from tests.inline_rulesets import load_inline
from verifier.engine import check

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "ambiguity", "bad_self_guard")


def _with_readings(switch: str | None, options: int = 2):
    with open(os.path.join(HERE, "ruleset.yaml"), encoding="utf-8") as fh:
        raw = yaml.safe_load(fh)
    with open(os.path.join(HERE, "source.txt"), encoding="utf-8") as fh:
        # a second passage that says the guard may not protect himself
        source = fh.read() + "FAQ：卫士不能守护自己。\n"
    entry = {"element": "守护", "field": "targets",
             "readings": [{"value": "其他角色或自己", "src": 4}, {"value": "不能守护自己", "src": 6}][:options]}
    if options < 2:
        entry["readings"].append({"value": "其他角色", "src": 6})
        raw["ambiguities"][0]["options"].append({"name": "第三种", "text": "…"})
    if switch:
        entry["switch"] = switch
    raw["readings"] = [entry]
    return load_inline(raw, source)


def test_a_switch_gives_the_passages_their_outcomes():
    rs = _with_readings("卫士能否守护自己")
    found = [f for f in check(rs, kinds=["inconsistent-text"]).findings if f.kind == "inconsistent-text"]
    [f] = found
    # one finding: the passages, quoted, then what happens under each (a game the interpreter replays)
    assert f.verdict == "witnessed" and f.message.startswith("原文对「守护」的使用对象有2种不同说法（第4行")
    assert "game" in f.witness and any("按「可以」" in o for o in f.scenario["outcomes"])
    # the passage that forbids the guard's own protection says the use cannot happen there
    [forbids] = [o for o in f.scenario["outcomes"] if not o.startswith("按「可以」")]
    assert "不能发生" in forbids
    assert {loc.line for loc in f.locations if loc.file.endswith("source.txt")} >= {4, 6}
    # without the switch the same entry only quotes the passages
    rs = _with_readings(None)
    [g] = [g for g in check(rs, kinds=["inconsistent-text"]).findings if g.kind == "inconsistent-text"]
    assert not g.witness and g.scenario["steps"] == ["查阅「守护」的使用对象"]


def test_a_switch_must_have_one_option_per_passage():
    with pytest.raises(InvalidRuleset) as err:
        _with_readings("卫士能否守护自己", options=1)
    assert "switch" in str(err.value)
