"""Where the night comes before the day's vote (夜晚, then 白天投票), a night's going out happens
at that day's dawn, before its vote: the story says so, and says nothing more when that dawn
ends the game."""
from __future__ import annotations

import z3

from models.encoding import reach
from models.encoding.solver import Solver
from models.encoding.world import World

from inline_rulesets import load_inline

ROLES = ["刺客", "甲", "乙", "丙"]


def _ruleset(camps: dict[str, str]):
    """camps: role -> faction; a faction wins when every player of another faction is out."""
    roles = [{"name": r, "src": 2, "faction": camps[r], "count": 1} for r in ROLES]
    roles[0]["skills"] = [{"name": "刺杀", "src": 3, "timing": ["夜晚"], "targets": {"min": 1, "max": 1, "filter": {"alive": True}},
                           "effects": [{"damage": {"who": "target", "kind": "刺杀"}, "src": 3}]}]
    factions = sorted(set(camps.values()))
    raw = {"schema": "ruleset/v1", "id": "case", "title": "用例", "source": "source.txt",
           "bounds": {"players": 4, "depth": 3}, "setup": {"src": 2, "players": {"min": 4, "max": 4, "src": 2}},
           "phases": [{"name": "夜晚", "src": 3}, {"name": "白天", "src": 4}],
           "factions": [{"name": f, "src": 5, "win": {"none": {"alive": True, "not_faction": f}}} for f in factions],
           "roles": roles,
           "voting": {"src": 4, "weight_default": 1, "tie": None, "phase": "白天"}}
    return load_inline(raw, "# 来源: 用例\n刺客、甲、乙、丙四种身份，各一张。\n刺客每晚可刺杀一名角色。\n"
                            "夜晚之后是白天，白天投票出局一人。\n各阵营在其他阵营的角色全部出局时获胜。\n")


def _story(rs, killed: int) -> list[str]:
    """刺客 (slot 0) kills `killed` on the first night, then a new day begins: the story told."""
    world = World(rs, 4)
    solver = Solver(world.ctx, int(rs.bounds["rlimit"]))
    u = reach.unrolled(world, solver, 2, [s for s in rs.skills], symmetric=False)
    kill = next(i for i, mv in enumerate(u.trans.moves)
                if mv.skill is not None and mv.binding.self_slot == 0 and mv.binding.targets == (killed,))
    day = next(i for i, mv in enumerate(u.trans.moves) if mv.label == "day")
    deal = [u.states[0][("role", i)] == world.sorts.roles[r] for i, r in enumerate(ROLES)]
    ans = solver.check(u.constraints + deal + [u.sels[0] == kill, u.sels[1] == day], "story")
    assert ans.sat
    return [text for text, _ in reach.history_of(ans.model, u, 2) if text]


def test_a_night_out_is_told_at_that_days_dawn_before_its_vote():
    story = _story(_ruleset({"刺客": "暗阵营", "甲": "明阵营", "乙": "明阵营", "丙": "明阵营"}), 1)
    assert story[-1] == "第 1 天天亮，P2 出局；第 1 天投票无人出局；第 2 天开始", story


def test_a_dawn_that_ends_the_game_is_the_end_of_the_story():
    # 甲 is the only player of his faction: his going out at dawn ends the game there
    story = _story(_ruleset({"刺客": "暗阵营", "甲": "明阵营", "乙": "暗阵营", "丙": "暗阵营"}), 1)
    assert story[-1] == "第 1 天天亮，P2 出局", story
