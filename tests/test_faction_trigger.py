"""A trigger on a faction's elimination (全部出局时…) fires in a game right after the move that
leaves the faction with nobody alive, so a faction that has lost can be joined again: the
missing-rule that asks whether a loss can be undone sees it, and the interpreter's replay
refuses the trigger anywhere else."""
from __future__ import annotations

import json

from verifier.engine import check

from game_replay import replay_game
from inline_rulesets import load_inline


def _ruleset():
    roles = [{"name": "守望者", "src": 3, "faction": "甲阵营", "count": 1,
              "skills": [{"name": "接替", "src": 3, "trigger": {"event": "faction_eliminated", "faction": "乙阵营"},
                          "effects": [{"set_faction": {"who": "self", "to": "乙阵营"}}]}]},
             {"name": "乙身份", "src": 2, "faction": "乙阵营", "count": 1},
             {"name": "丙身份", "src": 2, "faction": "丙阵营", "count": 2}]
    factions = [{"name": "甲阵营", "src": 4, "win": {"none": {"alive": True, "not_faction": "甲阵营"}}},
                {"name": "乙阵营", "src": 4, "win": {"none": {"alive": True, "not_faction": "乙阵营"}},
                 "lose": {"none": {"alive": True, "faction": "乙阵营"}}},
                {"name": "丙阵营", "src": 4, "win": {"none": {"alive": True, "not_faction": "丙阵营"}}}]
    raw = {"schema": "ruleset/v1", "id": "case", "title": "用例", "source": "source.txt",
           "bounds": {"players": 4, "depth": 2}, "setup": {"src": 2, "players": {"min": 4, "max": 4, "src": 2}},
           "phases": [{"name": "白天", "src": 5}], "factions": factions, "roles": roles,
           "voting": {"src": 5, "weight_default": 1, "tie": "平票无人出局", "tie_out": "none"}}
    return load_inline(raw, "# 来源: 用例\n四人局：乙身份（乙阵营）一张，丙身份（丙阵营）两张，守望者（甲阵营）一张。\n"
                            "守望者【接替】：乙阵营全部出局时，守望者加入乙阵营。\n"
                            "各阵营在其他阵营的角色全部出局时获胜；乙阵营全部出局时判负。\n每天白天投票出局一人。\n")


def test_a_faction_elimination_trigger_fires_in_a_game():
    rs = _ruleset()
    found = [f for f in check(rs, kinds=["missing-rule"]).to_json()["findings"]
             if f["kind"] == "missing-rule" and f["subjects"] == ["乙阵营"]]
    assert found, "the elimination of 乙阵营 fires 接替, which ends its loss"
    w = found[0]["witness"]
    assert [mv["move"] for mv in w["game"]["moves"]] == ["vote", "skill"]
    assert replay_game(rs, w)[0]
    early = json.loads(json.dumps(w))
    early["game"]["moves"] = early["game"]["moves"][::-1]    # the trigger before the elimination
    assert not replay_game(rs, early)[0]


def test_it_fires_only_after_the_elimination():
    from models.encoding import reach
    from models.encoding.solver import Solver
    from models.encoding.world import World

    rs = _ruleset()
    world = World(rs, 4)
    solver = Solver(world.ctx, int(rs.bounds["rlimit"]))
    joined = lambda st: _joined(world, st)  # noqa: E731
    assert reach.bounded_trace(world, solver, joined, 1, "joined", list(rs.skills)).answer.unsat
    trace = reach.bounded_trace(world, solver, joined, 2, "joined", list(rs.skills))
    assert trace.answer.sat and "被投票出局" in trace.steps[0]


def _joined(world, st):
    """守望者 (the only 甲阵营 identity) belongs to 乙阵营."""
    import z3
    return z3.Or([z3.And(st[("role", i)] == world.sorts.roles["守望者"],
                         st[("faction", i)] == world.sorts.factions["乙阵营"]) for i in range(4)])
