"""A skill of the one-off setup phase ([开局]) is used once by each holder, as any skill of a
phase: the game as dealt never shows it used on two targets (a 冥婚-like pairing that made
three lovers)."""
from __future__ import annotations

import z3

from models.encoding import reach
from models.encoding.solver import Solver
from models.encoding.world import World

from inline_rulesets import load_inline


def _ruleset(uses=None):
    pair = {"name": "结缘", "src": 3, "timing": ["开局"], "targets": {"min": 1, "max": 1, "filter": {"other": True}},
            "effects": [{"grant_status": {"who": "target", "status": "缘", "duration": "permanent"}, "src": 3}]}
    if uses:
        pair["uses"] = uses
    roles = [{"name": "媒人", "src": 3, "faction": "甲阵营", "count": 1, "skills": [pair]},
             {"name": "凡人", "src": 2, "faction": "乙阵营", "count": 3}]
    raw = {"schema": "ruleset/v1", "id": "case", "title": "用例", "source": "source.txt",
           "bounds": {"players": 4, "depth": 1}, "setup": {"src": 2, "players": {"min": 4, "max": 4, "src": 2}},
           "phases": [{"name": "开局", "src": 3, "once": True}, {"name": "夜晚", "src": 4}],
           "statuses": [{"name": "缘", "src": 3, "blocks": []}],
           "factions": [{"name": "甲阵营", "src": 2}, {"name": "乙阵营", "src": 2}], "roles": roles}
    return load_inline(raw, "# 来源: 用例\n媒人一张，凡人三张。\n结缘[开局]：令另一名角色获得[缘]。\n夜晚。\n")


def _two_bound(rs) -> str:
    world = World(rs, 4)
    two = lambda st: z3.Sum([z3.If(st[("status", i, "缘")], 1, 0) for i in range(4)]) >= 2  # noqa: E731
    return reach.bounded_trace(world, Solver(world.ctx, int(rs.bounds["rlimit"])), two, 0, "goal", list(rs.skills)).answer.status


def test_a_setup_skill_is_used_once_by_its_holder():
    assert _two_bound(_ruleset()) == "unsat"


def test_a_setup_skill_with_a_stated_count_is_used_that_often():
    assert _two_bound(_ruleset({"per": "phase", "count": 2})) == "sat"
