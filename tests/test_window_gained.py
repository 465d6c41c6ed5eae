"""A judge collects a phase's actions when it begins: a skill gained while the phase resolves
is first used in a later phase. An order question whose user only gets the skill that night
is witnessed on a later night, and the interpreter's replay of the game refuses the same
story without the new day."""
from __future__ import annotations

import z3

from models.encoding import reach
from models.encoding.solver import Solver
from models.encoding.world import World
from verifier.engine import check
from verifier.narrate import game_json, table_json

from game_replay import replays_only_with_its_new_days
from inline_rulesets import load_inline
from cases import cases

ROLES = ["甲", "乙", "丙", "丁"]


def _ruleset(depth: int):
    roles = [{"name": r, "src": 2, "faction": f"{r}阵营", "count": 1} for r in ROLES]
    one = {"min": 1, "max": 1, "filter": {"alive": True}}
    # 甲 recruits a follower at night; a follower shields at night; 丙 strips shields at night
    roles[0]["skills"] = [{"name": "招募", "src": 3, "timing": ["夜晚"], "tags": ["指定"], "targets": one,
                           "effects": [{"add_label": {"who": "target", "label": "信徒"}}]}]
    roles[2]["skills"] = [{"name": "驱散", "src": 5, "timing": ["夜晚"], "tags": ["指定"], "targets": one,
                           "effects": [{"remove_status": {"who": "target", "status": "护"}}]}]
    raw = {"schema": "ruleset/v1", "id": "case", "title": "用例", "source": "source.txt",
           "bounds": {"players": 4, "depth": depth}, "setup": {"src": 2, "players": {"min": 4, "max": 4, "src": 2}},
           "phases": [{"name": "夜晚", "src": 6}, {"name": "白天", "src": 6}],
           "tags": [{"name": "指定", "src": 3}],
           "statuses": [{"name": "护", "src": 4, "blocks": ["out"]}],
           "labels": [{"name": "信徒", "src": 3}],
           "factions": [{"name": f"{r}阵营", "src": 2} for r in ROLES], "roles": roles,
           "skills": [{"name": "庇护", "src": 4, "owner": {"label": "信徒"}, "timing": ["夜晚"], "tags": ["指定"],
                       "targets": one, "effects": [{"grant_status": {"who": "target", "status": "护"}}]}]}
    return load_inline(raw, "# 来源: 用例\n甲、乙、丙、丁四种身份，各一张。\n招募[夜晚][指定]：目标成为信徒。\n"
                            "庇护[夜晚][指定]：信徒可以令目标获得[护]（不会出局）。\n驱散[夜晚][指定]：目标失去[护]。\n"
                            "每天先夜晚、后白天。\n")


def _order_findings(rs) -> list:
    return [f for f in cases(check(rs, kinds=["order-dependence"]).to_json()["findings"])
            if f["kind"] == "order-dependence" and {"庇护", "驱散"} <= set(f["subjects"])]


def test_a_follower_recruited_tonight_shields_from_the_next_night():
    assert not _order_findings(_ruleset(1))      # recruited and shielding the same night: no game
    found = _order_findings(_ruleset(2))
    assert found, "the order question needs the follower's second night"
    w = found[0]["witness"]
    moves = [mv["move"] for mv in w["game"]["moves"]]
    assert moves == ["skill", "day"] and "第 2 天" in " ".join(found[0]["scenario"]["steps"])
    # the interpreter reads the rule from the text, not the engine: the same night is no game
    replays_only_with_its_new_days(_ruleset(2), w, "gained during the phase")


def _trace_to(rs, goal, depth: int):
    world = World(rs, 4)
    return reach.bounded_trace(world, Solver(world.ctx, int(rs.bounds["rlimit"])), goal, depth, "goal", list(rs.skills))


def _as_witness(trace) -> dict:
    return {"kind": "trace", "steps": trace.steps, "claim": {}, **table_json(trace.table), **game_json(trace)}


def test_in_a_traced_game_too():
    rs = _ruleset(3)
    shielded = lambda st: z3.Or([st[("status", i, "护")] for i in range(4)])  # noqa: E731
    assert _trace_to(rs, shielded, 2).answer.unsat      # recruit, then shield the same night: no game
    trace = _trace_to(rs, shielded, 3)
    assert trace.answer.sat and trace.steps[1] == "第 2 天开始"
    replays_only_with_its_new_days(rs, _as_witness(trace), "gained during the phase")


def test_a_skill_without_a_stated_limit_is_used_once_a_phase():
    """LANGUAGE.md: uses omitted = once per phase of its timing; the replay agrees."""
    rs = _ruleset(3)
    two = lambda st: z3.Sum([z3.If(st[("label", i, "信徒")], 1, 0) for i in range(4)]) >= 2  # noqa: E731
    assert _trace_to(rs, two, 2).answer.unsat            # two recruits the same night: no game
    trace = _trace_to(rs, two, 3)
    assert trace.answer.sat and "第 2 天开始" in trace.steps
    replays_only_with_its_new_days(rs, _as_witness(trace), "more often in a day")
