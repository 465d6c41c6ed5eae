"""A forced trigger answering a going out (强制) fires before play goes on: a game where a
player goes out and the next thing that happens is a new day, with the watcher's forced
trigger never fired, is not a game these rules allow."""
from __future__ import annotations

import z3

from models.encoding.reach import day_moves, unrolled
from models.encoding.solver import Solver
from models.encoding.world import World
from tests.inline_rulesets import one_each
from verifier.analyses.pending import trace_skills

SOURCE = ("# 来源: 用例\n甲、乙、丙、丁四种身份，各一张。\n刺杀[夜晚]：令一名其他角色出局。\n"
          "守望[强制]：其他角色出局时，乙获得[灯]。\n（空行）\n每天夜晚。\n")


def _ruleset(forced: bool):
    skills = {"甲": [{"name": "刺杀", "src": 3, "timing": ["夜晚"],
                     "targets": {"min": 1, "max": 1, "filter": {"alive": True, "other": True}},
                     "effects": [{"out": {"who": "target", "cause": "刺杀"}}]}],
              "乙": [{"name": "守望", "src": 4, "tags": ["强制"] if forced else [],
                     "trigger": {"event": "went_out", "on": {"other": True}, "cause": "any"},
                     "effects": [{"grant_status": {"who": "self", "status": "灯", "duration": "permanent"}}]}],
              "丙": [], "丁": []}
    tags = [{"name": "强制", "src": 4, "meaning": "forced"}]
    return one_each(skills, SOURCE, ["灯"], phases=("夜晚",), depth=2, tags=tags)


def _knife_then_next_day(rs) -> str:
    """丙 is knifed (乙 alive in a slot), and the next move starts a new day."""
    world = World(rs, 4)
    solver = Solver(world.ctx, int(rs.bounds["rlimit"]))
    u = unrolled(world, solver, 2, trace_skills(rs, world), symmetric=False)
    roles = world.sorts.roles
    st = u.states[0]
    cast = [st[("role", 0)] == roles["甲"], st[("role", 1)] == roles["乙"], st[("role", 2)] == roles["丙"]]
    knife = [n for n, mv in enumerate(u.trans.moves) if mv.skill is not None and mv.skill.name == "刺杀"
             and mv.binding.targets == (2,)]
    query = cast + [z3.Or([u.sels[0] == n for n in knife]), z3.Or([u.sels[1] == n for n in day_moves(u.trans)])]
    return solver.check(u.constraints + query, "owed", rlimit=solver.rlimit * 20).status


def _after_knife(rs, depth: int, victim: int):
    """(world, solver, unrolled game of depth moves, the query that 甲 in slot 0 and 乙 in
    slot 1 are dealt and the first move is 甲's 刺杀 on victim)."""
    world = World(rs, 4)
    solver = Solver(world.ctx, int(rs.bounds["rlimit"]))
    u = unrolled(world, solver, depth, trace_skills(rs, world), symmetric=False)
    st = u.states[0]
    cast = [st[("role", 0)] == world.sorts.roles["甲"], st[("role", 1)] == world.sorts.roles["乙"]]
    knife = [n for n, mv in enumerate(u.trans.moves) if mv.skill is not None and mv.skill.name == "刺杀"
             and mv.binding.targets == (victim,)]
    return world, solver, u, cast + [z3.Or([u.sels[0] == n for n in knife])]


def test_a_forced_trigger_on_a_going_out_is_not_skipped():
    assert _knife_then_next_day(_ruleset(forced=True)) == "unsat"
    assert _knife_then_next_day(_ruleset(forced=False)) == "sat"


def test_the_interpreter_refuses_play_past_an_unfired_forced_trigger():
    """The interpreter reads the same from the YAML: after the knife, going on with 守望
    unfired is refused when 守望 is forced."""
    import brute_force as bf
    import pytest
    from models.encoding.decode import concrete
    from models.encoding.reach import move_json
    from tests.game_replay import Illegal, _owed_after, _owed_fired
    loose = _ruleset(forced=False)
    world = World(loose, 4)
    solver = Solver(world.ctx, int(loose.bounds["rlimit"]))
    u = unrolled(world, solver, 2, trace_skills(loose, world), symmetric=False)
    roles = world.sorts.roles
    cast = [u.states[0][("role", 0)] == roles["甲"], u.states[0][("role", 1)] == roles["乙"]]
    knife = [n for n, mv in enumerate(u.trans.moves) if mv.skill is not None and mv.skill.name == "刺杀"
             and mv.binding.targets == (2,)]
    ans = solver.check(u.constraints + cast + [z3.Or([u.sels[0] == n for n in knife])], "owed-i",
                       rlimit=solver.rlimit * 20)
    assert ans.sat
    before, after = (concrete(ans.model, u.states[t], world.sorts) for t in (0, 1))
    move = move_json(u.trans.moves[ans.model.eval(u.sels[0]).as_long()])
    for forced in (True, False):
        rs = _ruleset(forced)
        it = bf.Interp(rs, 4)
        owed = _owed_after(rs, it, [], bf.View(before), bf.View(after), move)
        assert bool(owed) == forced
        if forced:
            with pytest.raises(Illegal):
                _owed_fired(it, owed, bf.View(after))


def test_a_forced_replacement_answers_before_the_outs_happen():
    """乙 knifed is about to go out; its forced 不屈 (免于出局) must answer before dawn makes
    the outs happen: a game where the next day comes with 不屈 unfired is refused."""
    source = ("# 来源: 用例\n甲、乙、丙、丁四种身份，各一张。\n刺杀[夜晚]：对一名其他角色造成伤害。\n"
              "不屈[强制]：乙即将出局时，免于出局。\n（空行）\n每天夜晚。\n")

    def ruleset(forced: bool):
        skills = {"甲": [{"name": "刺杀", "src": 3, "timing": ["夜晚"],
                         "targets": {"min": 1, "max": 1, "filter": {"alive": True, "other": True}},
                         "effects": [{"damage": {"who": "target", "kind": "刺杀"}}]}],
                  "乙": [{"name": "不屈", "src": 4, "tags": ["强制"] if forced else [],
                         "trigger": {"event": "about_to_go_out", "on": "self", "cause": "any"},
                         "effects": [{"prevent_out": {"who": "self"}}]}],
                  "丙": [], "丁": []}
        return one_each(skills, source, [], phases=("夜晚",), depth=2, tags=[{"name": "强制", "src": 4, "meaning": "forced"}])

    def knifed_then_dawn(rs) -> str:
        world = World(rs, 4)
        solver = Solver(world.ctx, int(rs.bounds["rlimit"]))
        u = unrolled(world, solver, 2, trace_skills(rs, world), symmetric=False)
        roles = world.sorts.roles
        st = u.states[0]
        cast = [st[("role", 0)] == roles["甲"], st[("role", 1)] == roles["乙"]]
        knife = [n for n, mv in enumerate(u.trans.moves) if mv.skill is not None and mv.skill.name == "刺杀"
                 and mv.binding.targets == (1,)]
        dawn = [n for n, mv in enumerate(u.trans.moves) if mv.label in ("day", "settle")]
        query = cast + [z3.Or([u.sels[0] == n for n in knife]), z3.Or([u.sels[1] == n for n in dawn])]
        return solver.check(u.constraints + query, "owed-replacement", rlimit=solver.rlimit * 20).status
    assert knifed_then_dawn(ruleset(forced=True)) == "unsat"
    assert knifed_then_dawn(ruleset(forced=False)) == "sat"
    # the interpreter reads the same: dawn with 乙 about to go out and 不屈 unfired is refused
    import brute_force as bf
    import pytest
    from models.encoding.decode import concrete
    from tests.game_replay import Illegal, _replaced_before_outs
    loose = ruleset(forced=False)
    world = World(loose, 4)
    solver = Solver(world.ctx, int(loose.bounds["rlimit"]))
    u = unrolled(world, solver, 2, trace_skills(loose, world), symmetric=False)
    knife = [n for n, mv in enumerate(u.trans.moves) if mv.skill is not None and mv.skill.name == "刺杀"
             and mv.binding.targets == (1,)]
    ans = solver.check(u.constraints + [u.states[0][("role", 1)] == world.sorts.roles["乙"],
                                        z3.Or([u.sels[0] == n for n in knife])], "owed-r-i", rlimit=solver.rlimit * 20)
    assert ans.sat
    after = bf.View(concrete(ans.model, u.states[1], world.sorts))
    assert after[("dying", 1)]
    _replaced_before_outs(loose, bf.Interp(loose, 4), after, set())
    with pytest.raises(Illegal):
        _replaced_before_outs(ruleset(forced=True), bf.Interp(ruleset(forced=True), 4), after, set())


def test_a_vote_out_does_not_skip_a_forced_replacement():
    """乙 voted out straight away (not left about to go out) would skip its forced 不屈: such a
    vote-out is refused while 不屈 would answer it."""
    source = ("# 来源: 用例\n甲、乙、丙、丁四种身份，各一张。\n（空行）\n"
              "不屈[强制]：乙即将出局时，免于出局。\n（空行）\n每天白天投票。\n")

    def ruleset(forced: bool):
        skills = {"甲": [], "乙": [{"name": "不屈", "src": 4, "tags": ["强制"] if forced else [],
                                   "trigger": {"event": "about_to_go_out", "on": "self", "cause": "any"},
                                   "effects": [{"prevent_out": {"who": "self"}}]}], "丙": [], "丁": []}
        return one_each(skills, source, [], phases=("白天",), depth=2, voting={"src": 6, "weight_default": 1},
                        tags=[{"name": "强制", "src": 4, "meaning": "forced"}])

    def voted_out_at_once(rs) -> str:
        world = World(rs, 4)
        solver = Solver(world.ctx, int(rs.bounds["rlimit"]))
        u = unrolled(world, solver, 1, trace_skills(rs, world), symmetric=False)
        at_once = [n for n, mv in enumerate(u.trans.moves) if mv.label == "vote" and not mv.pending
                   and mv.binding.self_slot == 1]
        query = [u.states[0][("role", 1)] == world.sorts.roles["乙"], z3.Or([u.sels[0] == n for n in at_once])]
        return solver.check(u.constraints + query, "owed-vote", rlimit=solver.rlimit * 20).status
    assert voted_out_at_once(ruleset(forced=True)) == "unsat"
    assert voted_out_at_once(ruleset(forced=False)) == "sat"


def test_a_story_is_not_stopped_while_a_forced_trigger_is_owed():
    """Right after the knife, 守望 is still owed when it is forced (owed_pending: a story that
    stops there leaves it out); not when it may be declined, nor before the move that fires it."""
    from models.encoding.reach import owed_pending

    def owed_after_knife(rs, use_watch: bool) -> str:
        world, solver, u, query = _after_knife(rs, 2, 2)
        watch = next((mv for mv in u.trans.moves if mv.skill is not None and mv.skill.name == "守望"
                      and mv.binding.self_slot == 1 and dict(mv.binding.others).get("victim") == 2), None)
        owed = owed_pending(u.trans, u.sels, u.states, 1, watch if use_watch else None)
        return solver.check(u.constraints + query + [owed], "owed-pending", rlimit=solver.rlimit * 20).status
    assert owed_after_knife(_ruleset(forced=True), use_watch=False) == "sat"
    assert owed_after_knife(_ruleset(forced=False), use_watch=False) == "unsat"
    assert owed_after_knife(_ruleset(forced=True), use_watch=True) == "unsat"


def test_a_replacement_answers_once_its_phase_is_played_out():
    """乙 knifed at night answers with 不屈 when the outs happen: by then its forced nightly
    守夜 was used if it could be (phase_duties_done); a story that shows 不屈 with 守夜 skipped
    is not one. Without the duty, it is."""
    from models.encoding.reach import phase_duties_done
    source = ("# 来源: 用例\n甲、乙、丙、丁四种身份，各一张。\n刺杀[夜晚]：对一名其他角色造成伤害。\n"
              "不屈：乙即将出局时，免于出局。\n守夜[夜晚][强制]：令一名其他角色获得[灯]。\n每天夜晚。\n")

    def ruleset(forced: bool):
        skills = {"甲": [{"name": "刺杀", "src": 3, "timing": ["夜晚"],
                         "targets": {"min": 1, "max": 1, "filter": {"alive": True, "other": True}},
                         "effects": [{"damage": {"who": "target", "kind": "刺杀"}}]}],
                  "乙": [{"name": "不屈", "src": 4, "trigger": {"event": "about_to_go_out", "on": "self", "cause": "any"},
                         "effects": [{"prevent_out": {"who": "self"}}]},
                        {"name": "守夜", "src": 5, "timing": ["夜晚"], "tags": ["强制"] if forced else [],
                         "targets": {"min": 1, "max": 1, "filter": {"alive": True, "other": True}},
                         "effects": [{"grant_status": {"who": "target", "status": "灯", "duration": "permanent"}}]}],
                  "丙": [], "丁": []}
        return one_each(skills, source, ["灯"], phases=("夜晚",), depth=2,
                        tags=[{"name": "强制", "src": 5, "meaning": "forced"}])

    def knifed_duty_undone(rs) -> str:
        world, solver, u, query = _after_knife(rs, 1, 1)
        query.append(phase_duties_done(u.trans, u.sels, u.states, 1))
        return solver.check(u.constraints + query, "duties-done", rlimit=solver.rlimit * 20).status
    assert knifed_duty_undone(ruleset(forced=True)) == "unsat"
    assert knifed_duty_undone(ruleset(forced=False)) == "sat"


def test_a_use_answering_a_going_out_may_follow_another_answer_to_it():
    """After the knife, 守望 answers first and 哀悼 second: a chain, as in a game. A reading's use
    of 哀悼 there follows the going out it answers (going_out_follows with the moves); read
    only against the last move, it would not."""
    from models.encoding.reach import going_out_follows
    skills = {"甲": [{"name": "刺杀", "src": 3, "timing": ["夜晚"],
                     "targets": {"min": 1, "max": 1, "filter": {"alive": True, "other": True}},
                     "effects": [{"out": {"who": "target", "cause": "刺杀"}}]}],
              "乙": [{"name": "守望", "src": 4, "trigger": {"event": "went_out", "on": {"other": True}, "cause": "any"},
                     "effects": [{"grant_status": {"who": "self", "status": "灯", "duration": "permanent"}}]}],
              "丙": [], "丁": [{"name": "哀悼", "src": 4, "trigger": {"event": "went_out", "on": {"other": True}, "cause": "any"},
                              "effects": [{"grant_status": {"who": "self", "status": "泪", "duration": "permanent"}}]}]}
    rs = one_each(skills, SOURCE, ["灯", "泪"], phases=("夜晚",), depth=2)
    world, solver, u, query = _after_knife(rs, 2, 2)
    watch = [n for n, mv in enumerate(u.trans.moves) if mv.skill is not None and mv.skill.name == "守望"
             and dict(mv.binding.others).get("victim") == 2]
    query += [u.states[0][("role", 3)] == world.sorts.roles["丁"], z3.Or([u.sels[1] == n for n in watch])]
    mourn = next(mv for mv in u.trans.moves if mv.skill is not None and mv.skill.name == "哀悼"
                 and mv.binding.self_slot == 3 and dict(mv.binding.others).get("victim") == 2)
    chained = going_out_follows(u.trans, u.states, 2, mourn.skill, mourn.binding, u.sels)
    last_only = going_out_follows(u.trans, u.states, 2, mourn.skill, mourn.binding)
    assert solver.check(u.constraints + query + [chained], "chain", rlimit=solver.rlimit * 20).status == "sat"
    assert solver.check(u.constraints + query + [last_only], "chain", rlimit=solver.rlimit * 20).status == "unsat"
