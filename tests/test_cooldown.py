"""A skill with a cooldown (冷却N) is not used again within N days, in the engine's games and in
the interpreter's replay: a story of a 冷却1 skill used on two nights running is no game."""
from __future__ import annotations

import json

import z3

from models.encoding import reach
from models.encoding.solver import Solver
from models.encoding.world import World
from verifier.narrate import game_json, table_json

from game_replay import replay_game
from inline_rulesets import load_inline


def _ruleset():
    bite = {"name": "撕咬", "src": 3, "timing": ["夜晚"], "cooldown": 1, "targets": {"min": 1, "max": 1},
            "effects": [{"counter": {"name": "咬痕", "op": "add", "value": 1}, "src": 3}]}
    roles = [{"name": "狼", "src": 3, "faction": "甲阵营", "count": 1, "skills": [bite]},
             {"name": "民", "src": 2, "faction": "乙阵营", "count": 3}]
    raw = {"schema": "ruleset/v1", "id": "case", "title": "用例", "source": "source.txt",
           "bounds": {"players": 4, "depth": 4}, "setup": {"src": 2, "players": {"min": 4, "max": 4, "src": 2}},
           "phases": [{"name": "夜晚", "src": 4}], "counters": [{"name": "咬痕", "src": 3, "scope": "global", "initial": 0}],
           "factions": [{"name": "甲阵营", "src": 2}, {"name": "乙阵营", "src": 2}], "roles": roles}
    return load_inline(raw, "# 来源: 用例\n狼一张，民三张。\n撕咬[夜晚]<冷却1>：咬痕+1。\n每天一个夜晚。\n")


def _twice(rs, depth):
    world = World(rs, 4)
    goal = lambda st: st[("counter", "咬痕")] >= 2  # noqa: E731
    return reach.bounded_trace(world, Solver(world.ctx, int(rs.bounds["rlimit"])), goal, depth, "goal", list(rs.skills))


def test_a_cooldown_keeps_a_day_between_uses_and_the_replay_agrees():
    rs = _ruleset()
    assert _twice(rs, 3).answer.unsat, "use, new day, use: the cooldown of one day is not over"
    trace = _twice(rs, 4)
    assert trace.answer.sat and [mv["move"] for mv in trace.moves].count("day") >= 2
    w = {**table_json(trace.table), **game_json(trace), "claim": {}}
    assert replay_game(rs, w)[0]
    hurried = json.loads(json.dumps(w))
    moves = hurried["game"]["moves"]
    moves.remove(next(mv for mv in moves if mv["move"] == "day"))   # two nights running
    assert not replay_game(rs, hurried)[0]
