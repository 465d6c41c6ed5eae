"""The win check asks about triggers that answer a going out after it happened (出局时, 被杀时):
a trigger on "about to go out" resolves before the player is out, so before any win check
that going out could make, and no order is left open."""
from __future__ import annotations

from models.encoding.solver import Solver
from models.encoding.world import World
from verifier.analyses.base import Context
from verifier.analyses.win_check import WinCheckOrder

from inline_rulesets import load_inline


def test_only_triggers_after_the_going_out_are_asked_about():
    skill = lambda name, event: {"name": name, "src": 3, "trigger": {"event": event, "on": "self", "cause": "any"},  # noqa: E731
                                 "targets": {"min": 1, "max": 1, "filter": {"alive": True}},
                                 "effects": [{"out": {"who": "target"}, "src": 3}]}
    roles = [{"name": "猎人", "src": 3, "faction": "甲阵营", "count": 1,
              "skills": [skill("开枪", "went_out"), skill("临终一击", "about_to_go_out")]},
             {"name": "凡人", "src": 2, "faction": "乙阵营", "count": 3}]
    factions = [{"name": "甲阵营", "src": 4, "win": {"none": {"alive": True, "not_faction": "甲阵营"}}},
                {"name": "乙阵营", "src": 4, "win": {"none": {"alive": True, "not_faction": "乙阵营"}}}]
    raw = {"schema": "ruleset/v1", "id": "case", "title": "用例", "source": "source.txt",
           "bounds": {"players": 4, "depth": 2}, "setup": {"src": 2, "players": {"min": 4, "max": 4, "src": 2}},
           "phases": [{"name": "白天", "src": 5}], "factions": factions, "roles": roles,
           "voting": {"src": 5, "weight_default": 1, "tie": "平票无人出局", "tie_out": "none"}}
    rs = load_inline(raw, "# 来源: 用例\n四人局：猎人一张，凡人三张。\n猎人【开枪】：出局时带走一名角色；【临终一击】：即将出局时带走一名角色。\n"
                          "各阵营在其他阵营的角色全部出局时获胜。\n每天白天投票出局一人。\n")
    world = World(rs, 4)
    cx = Context(rs, world, Solver(world.ctx, int(rs.bounds["rlimit"])), lang="zh")
    asked = {s.name for s in rs.skills if s.uid in WinCheckOrder().questions(cx)}
    assert asked == {"开枪"}
