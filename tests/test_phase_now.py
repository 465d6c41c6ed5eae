"""A condition "it is phase P" ({phase: P}) on a skill without a timing of its own reads the
phase the game is in at that move: the phase of the last move of the day that has one (a
night kill, the day's vote), not a value chosen once for the whole game."""
from __future__ import annotations

import z3

from models.encoding.reach import unrolled
from models.encoding.solver import Solver
from models.encoding.world import World
from tests.inline_rulesets import one_each
from verifier.analyses.pending import trace_skills

SOURCE = ("# 来源: 用例\n甲、乙、丙、丁四种身份，各一张。\n刺杀[夜晚]：令一名角色出局。\n"
          "祈祷：夜晚可以发动，获得[光]。\n（空行）\n每天先夜晚、后白天，白天投票。\n")


def _game():
    skills = {"甲": [{"name": "刺杀", "src": 3, "timing": ["夜晚"], "targets": {"min": 1, "max": 1, "filter": {"alive": True}},
                     "effects": [{"out": {"who": "target", "cause": "刺杀"}}]}],
              "乙": [{"name": "祈祷", "src": 4, "timing": [], "condition": {"phase": "夜晚"},
                     "effects": [{"grant_status": {"who": "self", "status": "光", "duration": "permanent"}}]}],
              "丙": [], "丁": []}
    rs = one_each(skills, SOURCE, ["光"], depth=2, voting={"src": 6, "weight_default": 1, "phase": "白天"})
    world = World(rs, 4)
    solver = Solver(world.ctx, int(rs.bounds["rlimit"]))
    u = unrolled(world, solver, 2, trace_skills(rs, world), symmetric=False)
    return rs, solver, u


def _after(world, solver, u, first: str) -> str:
    """Can a use without a timing that needs "it is 夜晚" come right after a first move that
    is `first` ("kill" or "vote")?"""
    from models.encoding.reach import phase_after, phase_flags
    moves = u.trans.moves
    before = [n for n, mv in enumerate(moves) if mv.skill is not None and mv.skill.name == "刺杀"] if first == "kill" else \
        [n for n, mv in enumerate(moves) if mv.label == "vote" and not mv.pending]
    night = phase_flags(world)["夜晚"]
    return solver.check(u.constraints + [z3.Or([u.sels[0] == n for n in before]), night] + phase_after(world, u, 1),
                        "phase-now", rlimit=solver.rlimit * 20).status


def test_a_skill_of_the_night_follows_a_night_move():
    rs, solver, u = _game()
    assert _after(u.trans.world, solver, u, "kill") == "sat"


def test_a_skill_of_the_night_cannot_follow_the_days_vote():
    rs, solver, u = _game()
    assert _after(u.trans.world, solver, u, "vote") == "unsat"


def test_a_reading_of_a_skill_without_timing_is_shown_in_its_phase():
    """The use needs the night: a game shows it after a move of the night, never as the
    first thing of the game (before any phase has begun) or after the day's vote."""
    from verifier.engine import check
    amb = {"name": "是否发光", "src": 4, "text": "是否获得[光]",
           "options": [{"name": "发光", "text": "获得"}, {"name": "不发光", "text": "不获得"}]}
    # [光] keeps 刺杀 off its holder: a difference a judge rules on
    skills = {"甲": [{"name": "刺杀", "src": 3, "timing": ["夜晚"], "targets": {"min": 1, "max": 1, "filter": {"alive": True}},
                     "effects": [{"out": {"who": "target", "cause": "刺杀"}, "if": {"not": {"has_status": ["target", "光"]}}}]}],
              "乙": [{"name": "祈祷", "src": 4, "timing": [], "condition": {"phase": "夜晚"},
                     "effects": [{"grant_status": {"who": "self", "status": "光", "duration": "permanent"},
                                  "if": {"reading": ["是否发光", "发光"]}}]}],
              "丙": [], "丁": []}
    rs = one_each(skills, SOURCE, ["光"], depth=2, voting={"src": 6, "weight_default": 1, "phase": "白天"},
                  ambiguities=[amb])
    [f] = [f for f in check(rs, kinds=["ambiguity"]).findings if "是否发光" in f.subjects]
    assert f.verdict == "witnessed", f.message
    steps = f.scenario["steps"]
    use = next(n for n, s in enumerate(steps) if "【祈祷】" in s)
    assert any("夜晚" in s and "【刺杀】" in s for s in steps[:use]), steps
    assert "天夜晚，P" in steps[use], steps[use]   # the use says the phase it was made in
    # the interpreter reads the phase the same way: the use as the first thing of the game,
    # before any phase has begun, is refused
    from tests.game_replay import replay_game
    assert replay_game(rs, f.witness) == (True, "")
    first = {**f.witness, "game": {**f.witness["game"], "moves": []}}
    assert not replay_game(rs, first)[0]
