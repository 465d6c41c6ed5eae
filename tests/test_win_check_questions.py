"""The win check asks about triggers that answer a going out after it happened (出局时, 被杀时):
a trigger on "about to go out" resolves before the player is out, so before any win check
that going out could make, and no order is left open."""
from __future__ import annotations

from models.encoding.solver import Solver
from models.encoding.world import World
from verifier.analyses.base import Context
from verifier.analyses.win_check import WinCheckOrder

from inline_rulesets import load_inline


def _hunter_ruleset(skills: list, mortals: int = 3):
    """A hunter (甲阵营) and mortals (乙阵营); each faction wins once the other is out."""
    roles = [{"name": "猎人", "src": 3, "faction": "甲阵营", "count": 1, "skills": skills},
             {"name": "凡人", "src": 2, "faction": "乙阵营", "count": mortals}]
    factions = [{"name": "甲阵营", "src": 4, "win": {"none": {"alive": True, "not_faction": "甲阵营"}}},
                {"name": "乙阵营", "src": 4, "win": {"none": {"alive": True, "not_faction": "乙阵营"}}}]
    n = 1 + mortals
    raw = {"schema": "ruleset/v1", "id": "case", "title": "用例", "source": "source.txt",
           "bounds": {"players": min(n, 4), "depth": 2}, "setup": {"src": 2, "players": {"min": n, "max": n, "src": 2}},
           "phases": [{"name": "白天", "src": 5}], "factions": factions, "roles": roles,
           "statuses": [{"name": "标记", "src": 3}],
           "voting": {"src": 5, "weight_default": 1, "tie": "平票无人出局", "tie_out": "none"}}
    return load_inline(raw, f"# 来源: 用例\n{n}人局：猎人一张，凡人{mortals}张。\n猎人【开枪】等：出局时（或即将出局时）对一名角色生效。\n"
                            "各阵营在其他阵营的角色全部出局时获胜。\n每天白天投票出局一人。\n")


def _trigger(name: str, event: str, effect: dict) -> dict:
    return {"name": name, "src": 3, "trigger": {"event": event, "on": "self", "cause": "any"},
            "targets": {"min": 1, "max": 1, "filter": {"alive": True}}, "effects": [{**effect, "src": 3}]}


def test_only_triggers_after_the_going_out_are_asked_about():
    shot = {"out": {"who": "target"}}
    rs = _hunter_ruleset([_trigger("开枪", "went_out", shot), _trigger("临终一击", "about_to_go_out", shot)])
    world = World(rs, 4)
    cx = Context(rs, world, Solver(world.ctx, int(rs.bounds["rlimit"])), lang="zh")
    asked = {s.name for s in rs.skills if s.uid in WinCheckOrder().questions(cx)}
    assert asked == {"开枪"}


def test_a_trigger_that_cannot_change_the_winners_is_settled_without_a_game():
    """The one-step question over every state a game can be in answers "no" for a mark nothing
    reads, so no game is searched; a shot that puts a player out needs the game, and has one."""
    from verifier.engine import check
    mark = check(_hunter_ruleset([_trigger("开枪", "went_out", {"grant_status": {"who": "target", "status": "标记"}})], 1),
                 kinds=["order-dependence"])
    assert "wincheck-step" in mark.seconds and "wincheck" not in mark.seconds
    assert not [f for f in mark.findings if f.kind in ("order-dependence", "unknown")]
    shot = check(_hunter_ruleset([_trigger("开枪", "went_out", {"out": {"who": "target"}})], 1), kinds=["order-dependence"])
    assert "wincheck" in shot.seconds
    assert [f for f in shot.findings if f.kind == "order-dependence" and f.verdict == "witnessed"]
