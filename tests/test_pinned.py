"""A witness of the baseline is asked for first: a story stays as it was while its game is
still legal and still shows the finding; a game that no longer does is searched for afresh."""
from __future__ import annotations

import copy
import json

from models.encoding.pinned import pinned, usable
from models.encoding.reach import unrolled
from models.encoding.solver import Solver
from models.encoding.world import World
from tests.game_replay import replay_game
from tests.inline_rulesets import one_each
from verifier.analyses.pending import trace_skills
from verifier.engine import check, earlier_witnesses

SOURCE = ("# 来源: 用例\n甲、乙、丙、丁四种身份，各一张。\n"
          "刺杀[夜晚]：令一名角色出局（被刺杀者是否出局原文未说明）。\n"
          "（空行）\n（空行）\n每天先夜晚、后白天。\n")


def _ruleset():
    amb = {"name": "刺杀是否有效", "src": 3, "text": "被刺杀者是否出局",
           "options": [{"name": "出局", "text": "出局"}, {"name": "无效", "text": "无效"}]}
    skills = {"甲": [{"name": "刺杀", "src": 3, "timing": ["夜晚"],
                     "targets": {"min": 1, "max": 1, "filter": {"alive": True, "other": True}},
                     "effects": [{"out": {"who": "target", "cause": "刺杀"}, "if": {"reading": ["刺杀是否有效", "出局"]}}]}],
              "乙": [], "丙": [], "丁": []}
    return one_each(skills, SOURCE, [], depth=2, ambiguities=[amb])


def _doc(report) -> dict:
    """The report as the baseline file holds it (JSON: lists, string keys)."""
    return json.loads(json.dumps(report.to_json(), ensure_ascii=False))


def _finding(doc: dict) -> dict:
    [f] = [f for f in doc["findings"] if f["kind"] == "ambiguity"]
    return f


def test_a_witness_records_the_game_to_ask_for_next_time():
    f = _finding(_doc(check(_ruleset(), kinds=["ambiguity"])))
    assert f["verdict"] == "witnessed", f["message"]
    trail = f["witness"]["game"]["trail"]
    assert usable(trail) and trail["options"] == ["出局", "无效"], trail
    assert trail["use"]["targets"] == f["witness"]["claim"]["reading"]["use"]["targets"]
    assert trail["readings"] == {"刺杀是否有效": "出局"}   # the game is played under the first option


def test_a_trail_fixes_how_the_game_reads_each_ambiguity():
    rs = _ruleset()
    world = World(rs, 4)
    solver = Solver(world.ctx, int(rs.bounds["rlimit"]))
    u = unrolled(world, solver, 2, trace_skills(rs, world), symmetric=False)
    var = world.sem.reading_var("刺杀是否有效")
    cs = pinned(u, {"version": 1, "moves": [], "quiet": [], "start": {}, "readings": {"刺杀是否有效": "无效"}})
    assert solver.check(u.constraints + cs + [var == 0], "pinned-reading").status == "unsat"
    assert solver.check(u.constraints + cs + [var == 1], "pinned-reading").sat


def _another_target(rs):
    """The found baseline, its use, and a player the use could take instead (another legal
    game the search would not pick), with a copy of the baseline to edit."""
    first = _doc(check(rs, kinds=["ambiguity"]))
    found = _finding(first)["witness"]["claim"]["reading"]["use"]
    other = next(t for t in range(4) if t not in (found["self"], *found["targets"]))
    return found, other, copy.deepcopy(first)


def test_the_baseline_game_is_kept_while_it_still_holds():
    rs = _ruleset()
    found, other, edited = _another_target(rs)
    _finding(edited)["witness"]["game"]["trail"]["use"]["targets"] = [other]
    again = _finding(_doc(check(rs, kinds=["ambiguity"], earlier=edited)))
    assert again["witness"]["claim"]["reading"]["use"]["targets"] == [other], again["scenario"]
    assert f"目标 P{other + 1}" in "".join(again["scenario"]["steps"]), again["scenario"]
    assert replay_game(rs, again["witness"]) == (True, "")
    # and without the baseline the search finds its own game again
    assert _finding(_doc(check(rs, kinds=["ambiguity"])))["witness"]["claim"]["reading"]["use"] == found


def test_a_baseline_game_that_no_longer_holds_is_searched_for_afresh():
    """The file is a guess of where to look, never trusted: a use on its own user (the filter
    forbids it) is asked for, found impossible, and the search runs as without a baseline."""
    rs = _ruleset()
    first = _doc(check(rs, kinds=["ambiguity"]))
    f = _finding(first)
    use = f["witness"]["claim"]["reading"]["use"]
    edited = copy.deepcopy(first)
    _finding(edited)["witness"]["game"]["trail"]["use"]["targets"] = [use["self"]]
    again = _finding(_doc(check(rs, kinds=["ambiguity"], earlier=edited)))
    assert again["witness"]["claim"]["reading"]["use"] == use
    assert replay_game(rs, again["witness"]) == (True, "")


def test_a_trail_with_a_move_the_encoding_lacks_does_not_fit():
    rs = _ruleset()
    world = World(rs, 4)
    u = unrolled(world, Solver(world.ctx, int(rs.bounds["rlimit"])), 2, trace_skills(rs, world), symmetric=False)
    assert pinned(u, {"version": 1, "moves": [{"move": "day"}], "quiet": [], "start": {}}) is not None
    assert pinned(u, {"version": 1, "moves": [{"move": "skill", "skill": "无/无", "self": 0, "targets": [],
                                               "others": {}}], "quiet": [], "start": {}}) is None
    assert pinned(u, {"version": 1, "moves": [{"move": "day"}] * 3, "quiet": [], "start": {}}) is None   # deeper than u


def test_examples_of_a_grouped_finding_are_asked_for_too():
    doc = {"findings": [{"kind": "order-dependence", "witness": {"a": 1},
                         "examples": [{"witness": {"a": 2}}, {"message": "无对局"}]}]}
    assert earlier_witnesses(doc) == [("order-dependence", {"a": 1}), ("order-dependence", {"a": 2})]


def test_the_moves_played_on_after_the_use_are_kept_too():
    """A reading that changes only a record is played on after the use; the baseline's moves
    after it are asked for first, like the moves before it."""
    from tests.test_played_on import _ruleset as recorded
    rs = recorded(read=True)
    first = _doc(check(rs, kinds=["ambiguity"]))
    f = _finding(first)
    after = f["witness"]["game"]["trail"]["after"]
    [shot] = [mv for mv in after["moves"] if mv.get("move") == "skill"]
    other = next(t for t in range(4) if t not in (shot["self"], *shot["targets"]))
    edited = copy.deepcopy(first)
    for mv in _finding(edited)["witness"]["game"]["trail"]["after"]["moves"]:
        if mv.get("move") == "skill":
            mv["targets"] = [other]
    again = _finding(_doc(check(rs, kinds=["ambiguity"], earlier=edited)))
    told = "".join(again["scenario"]["steps"])
    assert f"射击】，目标 P{other + 1}" in told, again["scenario"]
    assert replay_game(rs, again["witness"]) == (True, "")


def _order_ruleset():
    """Two night skills on one target whose order matters (test_choice_story's pair)."""
    from tests.test_choice_story import _ruleset as choice
    raw = dict(choice().raw)
    roles = [dict(r) for r in raw["roles"]]
    roles[1]["skills"] = [{"name": "清除", "src": 4, "timing": ["夜晚"], "targets": {"min": 1, "max": 1},
                           "effects": [{"remove_status": {"who": "target", "status": "印"}}]}]
    roles[2]["skills"] = [{"name": "追击", "src": 5, "timing": ["白天"], "targets": {"min": 1, "max": 1,
                                                                              "filter": {"has_status": "印"}},
                           "effects": [{"out": {"who": "target", "cause": "追击"}}]}]
    raw["roles"], raw["phases"] = roles, raw["phases"] + [{"name": "白天", "src": 5}]
    from tests.inline_rulesets import load_inline
    return load_inline(raw, "# 来源: 用例\n甲、乙、丙、丁四种身份，各一张。\n择一[夜晚]：令目标获得[盾]或[印]。\n"
                            "清除[夜晚]：去除目标的[印]。\n追击[白天]：令一名有[印]的角色出局。\n")


def test_an_order_window_reached_by_the_baseline_game_is_reached_so_again():
    rs = _order_ruleset()
    first = _doc(check(rs, kinds=["order-dependence"]))
    [f] = [f for f in first["findings"] if f["kind"] == "order-dependence"]
    assert f["witness"]["game"]["trail"]["moves"] == []   # the search finds the first night
    # a game where a day goes by first: legal too, and the one the baseline holds
    edited = copy.deepcopy(first)
    [g] = [g for g in edited["findings"] if g["kind"] == "order-dependence"]
    g["witness"]["game"]["trail"]["moves"] = [{"move": "day"}]
    [again] = [f for f in _doc(check(rs, kinds=["order-dependence"], earlier=edited))["findings"]
               if f["kind"] == "order-dependence"]
    assert "第 2 天" in "".join(again["scenario"]["steps"]), again["scenario"]
    assert replay_game(rs, again["witness"]) == (True, "")


def _camps_ruleset():
    """Two camps of two; a kill and a shield on one target, whose order matters."""
    from tests.inline_rulesets import load_inline
    roles = [{"name": "甲", "src": 2, "faction": "狼阵营", "count": 1,
              "skills": [{"name": "刺杀", "src": 3, "timing": ["夜晚"],
                          "targets": {"min": 1, "max": 1, "filter": {"alive": True, "other": True}},
                          "effects": [{"out": {"who": "target", "cause": "刺杀"},
                                       "if": {"not": {"has_status": ["target", "盾"]}}}]}]},
             {"name": "乙", "src": 2, "faction": "狼阵营", "count": 1},
             {"name": "丙", "src": 2, "faction": "村阵营", "count": 1,
              "skills": [{"name": "守护", "src": 4, "timing": ["夜晚"],
                          "targets": {"min": 1, "max": 1, "filter": {"alive": True, "other": True}},
                          "effects": [{"grant_status": {"who": "target", "status": "盾", "duration": "permanent"}}]}]},
             {"name": "丁", "src": 2, "faction": "村阵营", "count": 1}]
    raw = {"schema": "ruleset/v1", "id": "case", "title": "用例", "source": "source.txt",
           "bounds": {"players": 4, "depth": 2}, "setup": {"src": 2, "players": {"min": 4, "max": 4, "src": 2}},
           "phases": [{"name": "夜晚", "src": 5}, {"name": "白天", "src": 5}], "statuses": [{"name": "盾", "src": 4}],
           "factions": [{"name": "狼阵营", "src": 2}, {"name": "村阵营", "src": 2}], "roles": roles}
    return load_inline(raw, "# 来源: 用例\n甲、乙同属狼阵营，丙、丁同属村阵营，各一张。\n刺杀[夜晚]：令一名没有[盾]的其他角色出局。\n"
                            "守护[夜晚]：令一名其他角色获得[盾]。\n每天先夜晚、后白天。\n")


def test_an_order_game_with_a_detour_is_asked_for_again_without_it():
    """The baseline's game has the killer's own teammate as the target (a deal that makes the
    target a wolf): it still holds, but a judge reads it as a detour; the plain game is told."""
    rs = _camps_ruleset()
    first = _doc(check(rs, kinds=["order-dependence"]))
    [f] = [f for f in first["findings"] if f["kind"] == "order-dependence"]
    target = f["witness"]["bindings"][-1]["targets"][0]
    start = f["witness"]["game"]["trail"]["start"]
    mate = next(int(k.split("|")[1]) for k, v in start.items() if k.startswith("role|") and v == "乙")
    swapped = {}
    for key, v in start.items():
        parts = key.split("|")
        if len(parts) > 1 and parts[1] in (str(target), str(mate)):
            parts[1] = str(mate) if parts[1] == str(target) else str(target)
        swapped["|".join(parts)] = v
    edited = copy.deepcopy(first)
    [g] = [g for g in edited["findings"] if g["kind"] == "order-dependence"]
    g["witness"]["game"]["trail"]["start"] = swapped   # the target is now the killer's teammate
    [again] = [f for f in _doc(check(rs, kinds=["order-dependence"], earlier=edited))["findings"]
               if f["kind"] == "order-dependence"]
    shown = again["scenario"]["roles"][again["witness"]["bindings"][-1]["targets"][0]]
    assert "狼阵营" not in shown, again["scenario"]["roles"]
    # a baseline that says the plain game was asked for in vain is believed: not asked again
    from models.encoding.detours import in_vain
    g["witness"]["game"]["trail"].update(in_vain())
    [kept] = [f for f in _doc(check(rs, kinds=["order-dependence"], earlier=edited))["findings"]
              if f["kind"] == "order-dependence"]
    assert "狼阵营" in kept["scenario"]["roles"][kept["witness"]["bindings"][-1]["targets"][0]], kept["scenario"]
    assert kept["witness"]["game"]["trail"]["plain"] == "none"
    # unless it was found in vain under other detour rules: then it is asked again
    g["witness"]["game"]["trail"]["detours"] = "older"
    [again] = [f for f in _doc(check(rs, kinds=["order-dependence"], earlier=edited))["findings"]
               if f["kind"] == "order-dependence"]
    assert "狼阵营" not in again["scenario"]["roles"][again["witness"]["bindings"][-1]["targets"][0]]


def test_a_plain_game_casts_no_ballot_for_oneself():
    """A vote-out that rests on the one voted out voting for himself reads as a trick: the
    plain game (detours.no_odd_moves) has none, and detoured_game tells a found game that does."""
    import z3
    from models.encoding.detours import detoured_game, no_odd_moves
    from tests.test_vote_out import _ruleset as voting
    rs = voting(weights=True)
    world = World(rs, 4)
    solver = Solver(world.ctx, int(rs.bounds["rlimit"]))
    u = unrolled(world, solver, 2, trace_skills(rs, world), symmetric=False)
    assert world.vocab.ballots
    own = z3.Or([st[("ballot", v)] == v for st in u.states[1:] for v in range(4)])
    budget = solver.rlimit * 20
    found = solver.check(u.constraints + [own], "self-vote", rlimit=budget)
    assert found.sat and detoured_game(found.model, u, 2)
    assert solver.check(u.constraints + [own] + no_odd_moves(u, 2), "self-vote", rlimit=budget).status == "unsat"


def test_a_witness_written_before_trails_is_asked_for_too():
    """A baseline from before witnesses recorded their trail: its game (deal, moves, use) is
    asked for the same way (verifier.analyses.base.legacy_trail)."""
    rs = _ruleset()
    _, other, edited = _another_target(rs)
    w = _finding(edited)["witness"]
    del w["game"]["trail"]
    w["claim"]["reading"]["use"]["targets"] = [other]
    again = _finding(_doc(check(rs, kinds=["ambiguity"], earlier=edited)))
    assert again["witness"]["claim"]["reading"]["use"]["targets"] == [other], again["scenario"]


def test_an_empty_pick_reached_by_the_baseline_game_is_reached_so_again():
    """missing-rule's empty random pick: the baseline's game is asked for first too."""
    import os
    from models.loader import load_ruleset
    rs = load_ruleset(os.path.join(os.path.dirname(__file__), "fixtures", "missing-rule", "bad_empty_pick"))
    first = _doc(check(rs, kinds=["missing-rule"]))
    [f] = [f for f in first["findings"] if f["kind"] == "missing-rule" and f["verdict"] == "witnessed"]
    assert usable(f["witness"]["game"]["trail"])
    # a game where a day goes by first: legal too, and the one the baseline holds
    edited = copy.deepcopy(first)
    [g] = [g for g in edited["findings"] if g["id"] == f["id"]]
    g["witness"]["game"]["trail"]["moves"] = [{"move": "day"}] + g["witness"]["game"]["trail"]["moves"]
    [again] = [x for x in _doc(check(rs, kinds=["missing-rule"], earlier=edited))["findings"] if x["id"] == f["id"]]
    assert again["witness"]["game"]["trail"]["moves"][0] == {"move": "day"}, again["scenario"]
    assert replay_game(rs, again["witness"]) == (True, "")


def test_a_trail_keeps_the_ballots_of_its_vote_outs():
    """Who voted for whom is part of a story: a pinned game casts the same ballots."""
    import z3
    from models.encoding.pinned import trail_json
    from tests.test_vote_out import _ruleset as voting
    rs = voting(weights=True)
    world = World(rs, 4)
    solver = Solver(world.ctx, int(rs.bounds["rlimit"]))
    u = unrolled(world, solver, 2, trace_skills(rs, world), symmetric=False)
    votes = [n for n, mv in enumerate(u.trans.moves) if mv.label == "vote" and not mv.pending]
    budget = solver.rlimit * 20
    found = solver.check(u.constraints + [z3.Or([u.sels[0] == n for n in votes])], "vote", rlimit=budget)
    assert found.sat
    trail = trail_json(found.model, u, 1)
    cast = trail["ballots"]["0"]
    # another ballot for the first voter who cast one: the pinned game refuses it
    v = next(i for i, b in enumerate(cast) if b >= 0)
    other = z3.Or([u.states[1][("ballot", v)] != cast[v]])
    assert solver.check(u.constraints + pinned(u, trail) + [other], "vote", rlimit=budget).status == "unsat"


def test_a_plain_game_uses_no_harmless_skill_on_a_player_already_out():
    """The seer checking a dead player reads as a detour: a plain game (no_odd_moves) has none,
    and detoured_game tells a found game that does. A knife on the out is no such detour."""
    import z3
    from models.encoding.detours import detoured_game, no_odd_moves
    from tests.inline_rulesets import one_each
    source = "# 来源: 用例\n甲、乙、丙、丁四种身份，各一张。\n刺杀[夜晚]：令一名角色出局。\n查验[夜晚]：查验一名角色。\n（空行）\n每天夜晚。\n"
    skills = {"甲": [{"name": "刺杀", "src": 3, "timing": ["夜晚"], "targets": {"min": 1, "max": 1, "filter": {"other": True}},
                     "effects": [{"out": {"who": "target", "cause": "刺杀"}}]}],
              "乙": [{"name": "查验", "src": 4, "timing": ["夜晚"], "targets": {"min": 1, "max": 1, "filter": {"other": True}},
                     "effects": [{"grant_status": {"who": "target", "status": "被查验", "duration": "permanent"}}]}],
              "丙": [], "丁": []}
    rs = one_each(skills, source, ["被查验"], phases=("夜晚",), depth=2)
    world = World(rs, 4)
    solver = Solver(world.ctx, int(rs.bounds["rlimit"]))
    u = unrolled(world, solver, 2, trace_skills(rs, world), symmetric=False)
    check_on_out = [n for n, mv in enumerate(u.trans.moves) if mv.skill is not None and mv.skill.name == "查验"]
    dead_check = z3.Or([z3.And(u.sels[1] == n, z3.Not(u.states[1][("alive", u.trans.moves[n].binding.targets[0])]))
                        for n in check_on_out])
    budget = solver.rlimit * 20
    found = solver.check(u.constraints + [dead_check], "dead-check", rlimit=budget)
    assert found.sat and detoured_game(found.model, u, 2)
    assert solver.check(u.constraints + [dead_check] + no_odd_moves(u, 2), "dead-check", rlimit=budget).status == "unsat"
