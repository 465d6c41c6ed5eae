"""An order question compares the window once it has settled: the pending outs happen and
the going-out triggers they fire run, so a difference such a trigger undoes at once is no
outcome (a cult returning its converts when its leader goes out), while one it leaves stays."""
from __future__ import annotations

from models.encoding.scenarios import Pin, Use, order_question
from models.encoding.solver import Solver
from models.encoding.world import Binding, World
from inline_rulesets import load_inline

SOURCE = "# 来源: 用例\n教主、驱魔人、村民。\n"


def ruleset(leader_returns_converts: bool):
    leader_skills = [{"name": "蛊惑", "src": 2, "timing": ["夜晚"],
                      "targets": {"min": 1, "max": 1, "filter": {"alive": True, "other": True}},
                      "effects": [{"set_faction": {"who": "target", "to": "邪教阵营"}}]}]
    if leader_returns_converts:
        leader_skills.append({"name": "身份属性", "src": 2, "timing": [],
                              "trigger": {"event": "went_out", "on": "self", "cause": "any"},
                              "effects": [{"set_faction": {"who": {"faction": "邪教阵营"}, "to": "$initial"}}]})
    raw = {"schema": "ruleset/v1", "id": "settle", "title": "用例", "source": "source.txt",
           "bounds": {"players": 3, "depth": 1},
           "phases": [{"name": "夜晚", "src": 2}],
           "factions": [{"name": "好人阵营", "src": 2}, {"name": "邪教阵营", "src": 2}],
           "roles": [
               {"name": "教主", "src": 2, "faction": "邪教阵营", "count": 1, "skills": leader_skills},
               {"name": "驱魔人", "src": 2, "faction": "好人阵营", "count": 1, "skills": [
                   {"name": "驱邪", "src": 2, "timing": ["夜晚"],
                    "targets": {"min": 2, "max": 2, "filter": {"alive": True}},
                    "effects": [
                        {"set_faction": {"who": "target", "to": "好人阵营"}, "if": {"not": {"role": ["target", "教主"]}}},
                        {"damage": {"who": "target", "kind": "致死伤害"}, "if": {"role": ["target", "教主"]}}]}]},
               {"name": "村民", "src": 2, "faction": "好人阵营", "count": 1}],
           "terms": [{"name": "致死伤害", "kind": "other", "src": 2}]}
    return load_inline(raw, SOURCE)


def _ask(leader_returns_converts: bool, exorcist_targets: tuple[int, int]):
    world = World(ruleset(leader_returns_converts), 3)
    solver = Solver(world.ctx, 2_000_000)
    # P1 驱魔人 on P3 (and a second target), P2 教主 converts P3, in one night
    a = Use(_skill(world, "驱邪"),
            Binding(0, exorcist_targets))
    b = Use(_skill(world, "蛊惑"), Binding(1, (2,)))
    return order_question(world, solver, [], a, b, Pin())


def _skill(world, name):
    return next(s for s in world.rs.skills if s.name == name)


def test_a_difference_the_leaders_going_out_undoes_is_no_outcome():
    # the exorcist's second target is the leader: the leader goes out at the end of the night
    # and returns the convert, so either order ends with P3 in 好人阵营
    res = _ask(True, (2, 1))
    assert res.answer.status == "unsat", res.differing


def test_the_same_race_without_the_trigger_is_order_dependent():
    res = _ask(False, (2, 1))
    assert res.answer.sat and ("faction", 2) in res.differing


def test_the_race_stays_when_the_leader_does_not_go_out():
    # the second target is a villager: nobody goes out, the convert keeps the order's result
    world_res = _ask(True, (2, 0))
    assert world_res.answer.sat and ("faction", 2) in world_res.differing
