"""The questions an analysis splits between the two processes: each asked in exactly one share,
and the two shares in different processes."""
from __future__ import annotations

import os

import yaml

from models.encoding.solver import Solver
from models.encoding.world import World
from tests.inline_rulesets import load_inline
from verifier.analyses.ambiguity import Ambiguity
from verifier.analyses.base import Context
from verifier.engine import _groups

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "ambiguity", "bad_self_guard")


def _ruleset():
    """The fixture with a second, unmodelled ambiguity: two questions to split."""
    with open(os.path.join(HERE, "ruleset.yaml"), encoding="utf-8") as fh:
        raw = yaml.safe_load(fh)
    with open(os.path.join(HERE, "source.txt"), encoding="utf-8") as fh:
        source = fh.read()
    first = raw["ambiguities"][0]
    raw["ambiguities"].append({**first, "name": "第二个问题", "unmodelled": "编码不能区分"})
    return load_inline(raw, source)


def _asked(rs, shard) -> set[tuple]:
    world = World(rs, None)
    cx = Context(rs, world, Solver(world.ctx, int(rs.bounds["rlimit"])))
    cx.shard = shard
    return {f.subjects for f in Ambiguity().run(cx)}


def test_each_ambiguity_is_asked_in_one_share():
    rs = _ruleset()
    whole, first, second = _asked(rs, None), _asked(rs, (0, 2)), _asked(rs, (1, 2))
    assert len(whole) == 2
    assert first and second and not first & second
    assert first | second == whole


def test_the_shares_run_in_different_processes():
    traces, rest = _groups(None)
    assert "ambiguity@0/2" in traces and "ambiguity@1/2" in rest
    assert "order-dependence@0/2" in traces and "order-dependence@1/2" in rest
