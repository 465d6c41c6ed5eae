"""A vote-out is a going out like any other: a status that stops going out ([不死]) stops it
unless it excepts the vote-out, and a trigger on "about to go out" ("免于此次出局") can answer
it, the one voted out staying about to go out until the outs are settled. The engine's traces
and the interpreter's replay agree on both."""
from __future__ import annotations

import json

import z3

from models.encoding import reach
from models.encoding.solver import Solver
from models.encoding.world import World
from verifier.narrate import game_json, table_json

from game_replay import replay_game
from inline_rulesets import load_inline

SOURCE = ("# 来源: 用例\n四人局：圣女一张，凡人三张。\n圣女【庇护】：其他角色即将出局时，圣女可令其免于此次出局，并使其获得[圣光]。\n"
          "凡人持有[不死]：不会出局。\n各阵营在其他阵营的角色全部出局时获胜。\n每天白天投票出局一人。\n")


def _ruleset(except_vote: bool = False, shelter: bool = True, weights: bool = False):
    undying = {"name": "不死", "src": 4, "meaning": "不会出局", "blocks": ["out"]} | \
        ({"except": ["投票出局"]} if except_vote else {})
    saint = {"name": "圣女", "src": 3, "faction": "甲阵营", "count": 1, "skills": [
        {"name": "庇护", "src": 3, "trigger": {"event": "about_to_go_out", "on": {"other": True}, "cause": "any"},
         "effects": [{"prevent_out": {"who": "victim"}, "src": 3},
                     {"grant_status": {"who": "victim", "status": "圣光"}, "src": 3}]}] if shelter else []}
    roles = [saint, {"name": "凡人", "src": 4, "faction": "乙阵营", "count": 3, "statuses": ["不死"]}]
    if weights:
        # the count is read from the ballots, and the answer to a vote-out changes a vote's weight
        saint["skills"][0]["effects"].append({"vote_weight": {"who": "victim", "op": "set", "value": 0}, "src": 3})
        saint["skills"] = saint["skills"] + [
            {"name": "审视", "src": 3, "timing": ["白天"], "targets": {"min": 1, "max": 1, "filter": {"top_voted": True}},
             "effects": [{"grant_status": {"who": "target", "status": "圣光"}, "src": 3}]}]
    factions = [{"name": "甲阵营", "src": 5, "win": {"none": {"alive": True, "not_faction": "甲阵营"}}},
                {"name": "乙阵营", "src": 5, "win": {"none": {"alive": True, "not_faction": "乙阵营"}}}]
    raw = {"schema": "ruleset/v1", "id": "case", "title": "用例", "source": "source.txt",
           "bounds": {"players": 4, "depth": 2}, "setup": {"src": 2, "players": {"min": 4, "max": 4, "src": 2}},
           "phases": [{"name": "白天", "src": 6}], "factions": factions, "roles": roles,
           "statuses": [undying, {"name": "圣光", "src": 3, "meaning": "圣女给予的标记"}],
           "voting": {"src": 6, "weight_default": 1, "tie": "平票无人出局", "tie_out": "none"}}
    return load_inline(raw, SOURCE)


def _trace(rs, goal, depth=2):
    world = World(rs, 4)
    solver = Solver(world.ctx, int(rs.bounds["rlimit"]))
    return world, reach.bounded_trace(world, solver, lambda st: goal(world, st), depth, "vote", list(rs.skills))


def _mortal_out(world, st):
    return z3.Or([z3.And(st[("role", i)] == world.sorts.roles["凡人"], z3.Not(st[("alive", i)])) for i in range(4)])


def _sheltered(world, st):
    return z3.Or([st[("status", i, "圣光")] for i in range(4)])


def test_a_status_that_stops_going_out_stops_a_vote_out():
    _, trace = _trace(_ruleset(), _mortal_out)
    assert trace.answer.unsat, "a 凡人 holds [不死]: no vote puts one out"
    _, trace = _trace(_ruleset(except_vote=True), _mortal_out)
    assert trace.answer.sat and any("被投票出局" in x for x in trace.steps)


def test_a_trigger_on_about_to_go_out_answers_a_vote_out_and_the_replay_agrees():
    rs = _ruleset(except_vote=True)
    _, trace = _trace(rs, _sheltered)
    assert trace.answer.sat, "庇护 answers the vote-out of a 凡人"
    moves = [mv for mv in trace.moves if mv["move"] != "day"]
    assert [mv["move"] for mv in moves] == ["vote", "skill"] and moves[0].get("pending")
    assert any("即将出局" in x for x in trace.steps)
    w = {**table_json(trace.table), **game_json(trace), "claim": {}}
    assert replay_game(rs, w)[0]
    done = json.loads(json.dumps(w))
    next(mv for mv in done["game"]["moves"] if mv["move"] == "vote").pop("pending")     # voted out at once: nothing left to answer
    assert not replay_game(rs, done)[0]
    immune = json.loads(json.dumps(w))
    assert not replay_game(_ruleset(), immune)[0], "the same game where [不死] stops the vote-out"


def test_no_pending_vote_without_a_trigger_to_answer_it():
    world = World(_ruleset(except_vote=True, shelter=False), 4)
    trans = reach.Transitions(world, list(world.rs.skills)).build()
    assert not any(mv.pending for mv in trans.moves)


def test_no_pending_vote_where_the_count_could_change_after_it():
    """With ballots counted from the state and an effect that changes a vote's weight, a
    trigger answering a pending vote-out could rewrite the count after the fact (the count is
    not kept as counted): the vote-out is not left pending there."""
    world = World(_ruleset(except_vote=True, weights=True), 4)
    trans = reach.Transitions(world, list(world.rs.skills)).build()
    assert world.vocab.ballots and any(mv.label == "vote" for mv in trans.moves)
    assert not any(mv.pending for mv in trans.moves)
