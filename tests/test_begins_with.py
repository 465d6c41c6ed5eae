"""A game that the text starts with a later phase of the day (游戏从第零夜开始: begins_with)
has no earlier phases on its first day: no day-time skill and no vote before the first night."""
from __future__ import annotations

import z3

from models.encoding.reach import unrolled
from models.encoding.solver import Solver
from models.encoding.world import World
from tests.inline_rulesets import one_each
from verifier.analyses.pending import trace_skills

SOURCE = ("# 来源: 用例\n甲、乙、丙、丁四种身份，各一张。游戏从第零夜开始。\n晨祷[白天]：获得[光]。\n"
          "夜祷[夜晚]：获得[灯]。\n（空行）\n每天先白天、后夜晚，白天投票。\n")
SKILLS = {"甲": [{"name": "晨祷", "src": 3, "timing": ["白天"],
                 "effects": [{"grant_status": {"who": "self", "status": "光", "duration": "permanent"}}]}],
          "乙": [{"name": "夜祷", "src": 4, "timing": ["夜晚"],
                 "effects": [{"grant_status": {"who": "self", "status": "灯", "duration": "permanent"}}]}],
          "丙": [], "丁": []}


def _ruleset(begins: bool, **more):
    extra = {"begins_with": {"phase": "夜晚", "src": 2}} if begins else {}
    return one_each(SKILLS, SOURCE, ["光", "灯"], phases=("白天", "夜晚"), depth=2,
                    voting={"src": 6, "weight_default": 1, "phase": "白天"}, **extra, **more)


def _first(rs, what: str) -> str:
    """Can the game's first move be `what` (a skill's name, or "vote")?"""
    world = World(rs, 4)
    solver = Solver(world.ctx, int(rs.bounds["rlimit"]))
    u = unrolled(world, solver, 2, trace_skills(rs, world), symmetric=False)
    idx = [n for n, mv in enumerate(u.trans.moves)
           if (mv.skill is not None and mv.skill.name == what) or (what == "vote" and mv.label == "vote")]
    return solver.check(u.constraints + [z3.Or([u.sels[0] == n for n in idx])], "begins-with",
                        rlimit=solver.rlimit * 20).status


def test_the_first_day_has_no_phase_before_the_one_the_game_begins_with():
    assert _first(_ruleset(begins=True), "晨祷") == "unsat"
    assert _first(_ruleset(begins=False), "晨祷") == "sat"
    assert _first(_ruleset(begins=True), "夜祷") == "sat"


def test_no_vote_before_the_first_night():
    assert _first(_ruleset(begins=True), "vote") == "unsat"
    assert _first(_ruleset(begins=False), "vote") == "sat"


def _reading_found(**begins):
    """The reading of the day-time skill, witnessed in a game that begins with the night."""
    from verifier.engine import check
    amb = {"name": "晨祷是否发光", "src": 3, "text": "获得[光]",
           "options": [{"name": "发光", "text": "获得"}, {"name": "不发光", "text": "不获得"}]}
    skills = {**SKILLS, "甲": [{**SKILLS["甲"][0], "effects": [
        {"grant_status": {"who": "self", "status": "光", "duration": "permanent"}, "if": {"reading": ["晨祷是否发光", "发光"]}}]}]}
    extra = {"begins_with": {"phase": "夜晚", "src": 2, **begins}}
    # [光] keeps damage off: a difference a judge rules on
    light = {"name": "光", "src": 3, "blocks": ["damage"]}
    rs = one_each(skills, SOURCE, [light, "灯"], phases=("白天", "夜晚"), depth=2,
                  voting={"src": 6, "weight_default": 1, "phase": "白天"}, ambiguities=[amb], **extra)
    [f] = [f for f in check(rs, kinds=["ambiguity"]).findings if "晨祷是否发光" in f.subjects]
    return rs, f


def test_a_story_begins_with_the_night_and_the_interpreter_agrees():
    """A reading of the day-time skill is witnessed after the first night, and the same game
    with the night's moves dropped (the day-time skill first) does not replay."""
    from tests.game_replay import replay_game
    rs, f = _reading_found()
    assert f.verdict == "witnessed", f.message
    assert any(mv["move"] == "day" for mv in f.witness["game"]["moves"]), f.witness["game"]["moves"]
    assert replay_game(rs, f.witness) == (True, "")
    first = {**f.witness, "game": {**f.witness["game"], "moves": []}}
    first["game"].pop("trail", None)
    assert not replay_game(rs, first)[0]


def test_a_story_names_the_first_day_as_the_text_does():
    """begins_with.called (第零夜): the partial first day is told by the text's name and the
    day after it is the text's 第一天; without it the story counts from the partial day."""
    _, named = _reading_found(called="第零夜")
    _, counted = _reading_found()
    text = lambda f: "\n".join(f.scenario["steps"] + f.scenario["outcomes"])   # noqa: E731
    assert "第 1 天开始" in text(named) and "第 1 天白天，P1 使用" in text(named), text(named)
    assert "第 2 天" not in text(named), text(named)
    assert "第 2 天开始" in text(counted) and "第 2 天白天，P1 使用" in text(counted), text(counted)
    assert "第零夜" not in text(counted), text(counted)
