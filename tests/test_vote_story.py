"""Where a ruleset reads ballots (who voted for whom), a vote-out in a story says how the vote
went: a finding may turn on it (nobody voted for the one voted out, who went out on votes a
skill added). The ballots told are the model's, and they make the one voted out the top."""
from __future__ import annotations

import re

import z3

from models.encoding import reach
from models.encoding.solver import Solver
from models.encoding.world import World

from inline_rulesets import load_inline

ROLES = ["甲", "乙", "丙", "丁"]


def _ruleset():
    roles = [{"name": r, "src": 2, "faction": f"{r}阵营", "count": 1} for r in ROLES]
    # 甲 going out by the vote marks every player who voted for him
    roles[0]["skills"] = [{"name": "回敬", "src": 3, "trigger": {"event": "went_out", "on": "self", "cause": "投票出局"},
                           "effects": [{"grant_status": {"who": {"voted_for": "self"}, "status": "印记",
                                                         "duration": "permanent"}}]}]
    raw = {"schema": "ruleset/v1", "id": "case", "title": "用例", "source": "source.txt",
           "bounds": {"players": 4, "depth": 2}, "setup": {"src": 2, "players": {"min": 4, "max": 4, "src": 2}},
           "phases": [{"name": "白天", "src": 4}],
           "statuses": [{"name": "印记", "src": 3, "permanent": True}],
           "factions": [{"name": f"{r}阵营", "src": 2} for r in ROLES], "roles": roles,
           "voting": {"src": 4, "weight_default": 1, "tie": None}}
    return load_inline(raw, "# 来源: 用例\n甲、乙、丙、丁四种身份，各一张。\n甲被投票出局时，投票给甲的角色获得印记。\n"
                            "白天投票出局一人。\n")


def test_a_vote_out_says_who_voted_for_whom():
    rs = _ruleset()
    world = World(rs, 4)
    solver = Solver(world.ctx, int(rs.bounds["rlimit"]))
    # two players marked: at least two ballots named the one voted out
    goal = lambda st: z3.Sum([z3.If(st[("status", i, "印记")], 1, 0) for i in range(4)]) >= 2   # noqa: E731
    trace = reach.bounded_trace(world, solver, goal, 2, "vote-story", list(rs.skills))
    assert trace.answer.sat
    vote = next(s for s in trace.steps if "被投票出局" in s)
    out = int(re.search(r"P(\d) 被投票出局", vote).group(1))
    said = re.search(r"（(.*)）", vote).group(1)
    for_him = next(part for part in said.split("；") if part.endswith(f"投 P{out}"))
    assert len(for_him.split(" 投 ")[0].split("、")) >= 2, vote


def _lamp_game(phases: list[str], lamp_phase: str, voting: dict | None):
    """Two days of 点灯 (once a day, in lamp_phase) with all four alive, nobody voted out on
    the first day: (world, solver, goal)."""
    roles = [{"name": r, "src": 2, "faction": f"{r}阵营", "count": 1} for r in ROLES]
    roles[0]["skills"] = [{"name": "点灯", "src": 3, "timing": [lamp_phase],
                           "targets": {"min": 1, "max": 1, "filter": {"alive": True, "other": True}},
                           "uses": {"count": 1, "per": "day"},
                           "effects": [{"grant_status": {"who": "target", "status": "印记", "duration": "permanent"}}]}]
    raw = {"schema": "ruleset/v1", "id": "case", "title": "用例", "source": "source.txt",
           "bounds": {"players": 4, "depth": 3}, "setup": {"src": 2, "players": {"min": 4, "max": 4, "src": 2}},
           "phases": [{"name": p, "src": 4} for p in phases],
           "statuses": [{"name": "印记", "src": 3, "permanent": True}],
           "factions": [{"name": f"{r}阵营", "src": 2} for r in ROLES], "roles": roles,
           **({"voting": {"src": 4, "weight_default": 1, "tie": None, **voting}} if voting is not None else {})}
    rs = load_inline(raw, f"# 来源: 用例\n甲、乙、丙、丁四种身份，各一张。\n点灯[{lamp_phase}]：一名其他角色获得印记，每天一次。\n"
                          f"每天依次为{'、'.join(phases)}，投票出局一人。\n")
    world = World(rs, 4)
    solver = Solver(world.ctx, int(rs.bounds["rlimit"]))
    goal = lambda st: z3.And(z3.Sum([z3.If(st[("status", i, "印记")], 1, 0) for i in range(4)]) >= 2,   # noqa: E731
                             *[st[("alive", i)] for i in range(4)])
    return world, solver, goal


def _lamp_steps(phases: list[str], lamp_phase: str, voting: dict | None) -> list[str]:
    world, solver, goal = _lamp_game(phases, lamp_phase, voting)
    trace = reach.bounded_trace(world, solver, goal, 3, "quiet-vote", list(world.rs.skills))
    assert trace.answer.sat
    return trace.steps


def test_a_day_that_passes_without_a_vote_out_says_so():
    """A story whose second day begins with nobody voted out on the first says how that day
    ended (the ballots are not shown for a vote that put nobody out); with no vote in the
    rules there is nothing to say."""
    def day_two(voting: dict | None):
        return next(s for s in _lamp_steps(["白天"], "白天", voting) if "天开始" in s)
    assert day_two({}).endswith("（第 1 天投票无人出局）")
    assert "投票" not in day_two(None)


def test_a_vote_that_put_nobody_out_is_told_where_the_day_passes_it():
    """Where the vote comes before the night (白天, 投票, 夜晚), a night move follows that
    day's vote: "nobody was voted out" is told before the first move after the vote phase,
    not with the next day's start, and once a day."""
    steps = _lamp_steps(["白天", "投票", "夜晚"], "夜晚", {"phase": "投票"})
    lit = [s for s in steps if "【点灯】" in s]
    assert [s.split("；")[0] for s in lit] == ["第 1 天投票无人出局", "第 2 天投票无人出局"], steps
    assert all("投票" not in s for s in steps if "天开始" in s), steps


def test_a_story_told_from_a_later_move_tells_those_moves_as_the_whole_story_does():
    """A reading's continuation is told from a later move on (history_of's since): a note the
    first part already said (the first day's vote) is not said again."""
    world, solver, goal = _lamp_game(["白天", "投票", "夜晚"], "夜晚", {"phase": "投票"})
    u = reach.unrolled(world, solver, 3, list(world.rs.skills))
    ans = solver.check(u.constraints + [goal(u.states[3])], "since", rlimit=solver.rlimit * 20)
    assert ans.sat
    whole = reach.history_of(ans.model, u, 3)
    for since in range(1, 3):
        later = reach.history_of(ans.model, u, 3, since=since)
        assert [text for text, _ in later] == [text for text, _ in whole[since:]], (whole, later)
    assert sum("第 1 天投票无人出局" in text for text, _ in whole) == 1, whole


def test_a_use_told_apart_from_the_moves_carries_the_days_vote_note():
    """A reading's use is told apart from the history (history_and_note): after the day's vote
    phase it says that the vote put nobody out, unless a move before it already did."""
    world, solver, goal = _lamp_game(["白天", "投票", "夜晚"], "夜晚", {"phase": "投票"})
    u = reach.unrolled(world, solver, 3, list(world.rs.skills))
    ans = solver.check(u.constraints + [goal(u.states[3])], "use-note", rlimit=solver.rlimit * 20)
    assert ans.sat
    m = ans.model
    moves = [u.trans.moves[m.eval(x, model_completion=True).as_long()] for x in u.sels]
    lamp = next(mv for mv in moves if mv.skill is not None)
    def note(t):
        told, said = reach.history_and_note(m, u, t, lamp)
        assert told == reach.history_of(m, u, t)
        return said
    assert note(0) == "第 1 天投票无人出局"
    assert note(moves.index(lamp) + 1) == ""   # said by the move itself
    day = next(t for t, mv in enumerate(moves) if mv.label == "day")
    assert note(day + 1) == "第 2 天投票无人出局"


def test_the_tie_sketch_is_at_the_table_and_on_a_day_with_a_vote_out():
    """The missing tie rule is shown at the smallest table the setup allows, on the first day
    whose vote can put someone out."""
    import os
    import yaml
    from verifier.engine import check
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "missing-rule", "bad_vote_tie")
    with open(os.path.join(here, "ruleset.yaml"), encoding="utf-8") as fh:
        raw = yaml.safe_load(fh)
    with open(os.path.join(here, "source.txt"), encoding="utf-8") as fh:
        source = fh.read()
    raw["setup"] = {"src": 3, "players": {"min": 6, "max": 8, "src": 3}}
    raw["voting"]["first_out_day"] = 2
    [tie] = [f for f in check(load_inline(raw, source), kinds=["missing-rule"]).findings if f.subjects == ("投票",)]
    assert tie.scenario["steps"][0].startswith("6 人局，第 2 天投票")
    assert any(r.startswith("其余 2 名玩家") for r in tie.scenario["roles"])


def test_the_outs_that_happen_at_dawn_are_told():
    """A night's damage puts its target out when the pending outs happen (天亮, a settling):
    the story says who went out there, not only in a later snapshot."""
    from models.encoding.reach import outs_text
    from tests.inline_rulesets import one_each
    from verifier.analyses.pending import trace_skills
    one = {"min": 1, "max": 1, "filter": {"alive": True}}
    rs = one_each({"甲": [{"name": "刺杀", "src": 3, "timing": ["夜晚"], "targets": one,
                          "effects": [{"damage": {"who": "target", "kind": "刺杀"}},
                                      {"grant_status": {"who": "target", "status": "伤", "duration": "permanent"}}]}],
                   "乙": [], "丙": [], "丁": []},
                  "# 来源: 用例\n甲、乙、丙、丁四种身份，各一张。\n刺杀[夜晚]：目标受到伤害，天亮时出局。\n（空行）\n（空行）\n每天先夜晚、后白天。\n", ["伤"])
    world = World(rs, 4)
    solver = Solver(world.ctx, int(rs.bounds["rlimit"]))
    # out after the damage (no vote while a player is about to go out): its pending out happened
    goal = lambda st: z3.And(z3.Not(st[("alive", 1)]), st[("status", 1, "伤")])   # noqa: E731
    trace = reach.bounded_trace(world, solver, goal, 3, "dawn", trace_skills(rs, world))
    assert trace.answer.sat
    told = [s for s in trace.steps if "出局" in s]
    assert any(re.search(r"（天亮时 P2 出局）|结算：即将出局者出局（P2）", s) for s in told), trace.steps
    # a move that makes no pending out happen tells none
    u = reach.unrolled(world, solver, 1, trace_skills(rs, world))
    use = next(mv for mv in u.trans.moves if mv.skill is not None)
    assert outs_text(trace.answer.model, u, u.states[0], u.states[1], use) == ""
