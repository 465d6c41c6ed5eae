"""A choice the text says its holder must make (需选择, 每晚必须, 须指定: `mandatory`) is made
whenever it can be, like a forced tag: at setup the holder picks, and a holder whose pick
reaches other players is not left uncounted outside the slots, where the pick would land on
players the game never tracks."""
from __future__ import annotations

import copy

import z3

from models.encoding.quiet import forced
from models.encoding.reach import unrolled
from models.encoding.solver import Solver
from models.encoding.world import Binding, World
from tests.inline_rulesets import one_each
from verifier.analyses.pending import trace_skills

SOURCE = ("# 来源: 用例\n甲、乙、丙、丁、戊五种身份，各一张，五人局。\n"
          "托付：开局时，甲需选择一名其他角色，其获得[信物]。\n（空行）\n（空行）\n每天先夜晚、后白天。\n")


def _ruleset(mandatory: bool, second: bool = False, void: str = "", team: bool = False):
    """second: 乙 too has a setup pick (托付 again, under another name). void: the pick gives
    only to a target who already holds the token (nobody, at setup); "marked": the picker
    is then marked (作废), as a voided pick's rule may say. team: the pick is a team's one
    choice (a shared use)."""
    skill = {"name": "托付", "src": 3, "timing": ["开局"], **({"uses": {"count": 1, "per": "game", "shared": True}} if team else {}),
             "targets": {"min": 1, "max": 1, "filter": {"other": True}},
             "effects": [{"grant_status": {"who": "target", "status": "信物", "duration": "permanent"},
                          **({"if": {"has_status": ["target", "信物"]}} if void else {})}] +
             ([{"grant_status": {"who": "self", "status": "作废", "duration": "permanent"}}] if void == "marked" else [])}
    if mandatory:
        skill["mandatory"] = {"src": 3, "text": "需选择"}
    skills = {"甲": [skill], "乙": [{**copy.deepcopy(skill), "name": "转托"}] if second else [], "丙": [], "丁": [], "戊": []}
    return one_each(skills, SOURCE, ["信物", "作废"], phases=({"name": "开局", "src": 3, "once": True}, "夜晚", "白天"), depth=1)


def _ask(rs, goal) -> str:
    """Is there a game after setup (one move deep) in which goal(world, u) holds?"""
    world = World(rs, 4)
    solver = Solver(world.ctx, int(rs.bounds["rlimit"]))
    u = unrolled(world, solver, 1, trace_skills(rs, world), symmetric=False)
    return solver.check(u.constraints + goal(world, u), "mandatory", rlimit=solver.rlimit * 20).status


def _holder_in_a_slot_and_nobody_picked(world, u):
    st, first = u.states[0], world.sorts.roles["甲"]
    return [z3.Or([st[("role", i)] == first for i in range(world.k)])] + \
        [z3.Not(st[("status", i, "信物")]) for i in range(world.k)]


def _holder_outside_the_slots(world, u):
    return [z3.Int("table|rest|甲", world.ctx) == 1]


def test_the_text_makes_the_choice_one_its_holder_cannot_decline():
    assert forced(_ruleset(True), next(s for s in _ruleset(True).skills if s.name == "托付"))
    assert not forced(_ruleset(False), next(s for s in _ruleset(False).skills if s.name == "托付"))


def test_a_holder_in_the_slots_makes_the_pick_at_setup():
    assert _ask(_ruleset(True), _holder_in_a_slot_and_nobody_picked) == "unsat"
    assert _ask(_ruleset(False), _holder_in_a_slot_and_nobody_picked) == "sat"


def test_a_holder_whose_pick_reaches_others_is_not_outside_the_slots():
    assert _ask(_ruleset(True), _holder_outside_the_slots) == "unsat"
    assert _ask(_ruleset(False), _holder_outside_the_slots) == "sat"


def _night_duty(lamp: bool):
    """乙 must use 守夜 every night while holding [灯]; 乙 holds it from the deal or not."""
    source = ("# 来源: 用例\n甲、乙、丙、丁、戊五种身份，各一张，五人局。\n"
              "守夜[夜晚]：持有[灯]时每晚必须发动，获得[光]。\n（空行）\n（空行）\n每天先夜晚、后白天。\n")
    duty = {"name": "守夜", "src": 3, "timing": ["夜晚"], "mandatory": {"src": 3, "if": {"has_status": ["self", "灯"]}},
            "effects": [{"grant_status": {"who": "self", "status": "光", "duration": "permanent"}}]}
    return one_each({"甲": [], "乙": [duty], "丙": [], "丁": [], "戊": []}, source, ["灯", "光"], depth=1,
                    dealt_with={"乙": ["灯"]} if lamp else None)


def _night_passes_unused(world, u):
    """The first move starts a new day (the night passes) with 乙 alive in a slot."""
    from models.encoding.reach import day_moves
    st, second = u.states[0], world.sorts.roles["乙"]
    return [z3.Or([u.sels[0] == n for n in day_moves(u.trans)]),
            z3.Or([z3.And(st[("role", i)] == second, st[("alive", i)]) for i in range(world.k)])]


def test_a_duty_under_a_condition_binds_only_while_it_holds():
    assert _ask(_night_duty(lamp=True), _night_passes_unused) == "unsat"
    assert _ask(_night_duty(lamp=False), _night_passes_unused) == "sat"


def _dealt_and_started(rs):
    """A game's slots as dealt and once setup resolved (the engine's), with 甲 in a slot."""
    from models.encoding.reach import bounded_trace
    world = World(rs, 4)
    solver = Solver(world.ctx, int(rs.bounds["rlimit"]))
    first = world.sorts.roles["甲"]
    trace = bounded_trace(world, solver, lambda st: z3.Or([st[("role", i)] == first for i in range(world.k)]), 1,
                          "mandatory-trace", trace_skills(rs, world))
    assert trace.answer.sat and trace.deal
    return trace.deal, trace.states[0]


def test_the_interpreter_replays_setup_from_the_deal():
    """The interpreter plays setup from the deal itself: the engine's start is reached; the
    same start with the pick undone is not, when the pick cannot be declined."""
    import brute_force as bf
    from tests.game_replay import setup_reaches
    for mandatory in (True, False):
        rs = _ruleset(mandatory)
        deal, start = _dealt_and_started(rs)
        it = bf.Interp(rs, 4)
        assert setup_reaches(rs, it, deal, start)
        undone = {k: (False if k[0] == "status" and k[2] == "信物" else v) for k, v in start.items()}
        assert setup_reaches(rs, it, deal, undone) == (not mandatory)


def test_a_nightly_duty_on_others_keeps_its_holder_in_the_slots():
    """乙 must take a mark off someone every night: outside the slots it would act on players
    the game never tracks, so 乙 is dealt into a slot or not at all. A duty under a condition
    (only while holding [灯]) is about a player the game does not track: not read there."""
    source = ("# 来源: 用例\n甲、乙、丙、丁、戊五种身份，各一张，五人局。\n"
              "除灯[夜晚]：乙每晚必须选择一名角色，其失去[灯]。\n（空行）\n（空行）\n每天先夜晚、后白天。\n")

    def ruleset(duty: dict | None):
        skill = {"name": "除灯", "src": 3, "timing": ["夜晚"], "targets": {"min": 1, "max": 1, "filter": {"other": True}},
                 "effects": [{"remove_status": {"who": "target", "status": "灯"}}], **({"mandatory": duty} if duty else {})}
        return one_each({"甲": [], "乙": [skill], "丙": [], "丁": [], "戊": []}, source, ["灯"], depth=1)

    def outside(world, u):
        return [z3.Int("table|rest|乙", world.ctx) == 1]
    assert _ask(ruleset({"src": 3}), outside) == "unsat"
    assert _ask(ruleset(None), outside) == "sat"
    assert _ask(ruleset({"src": 3, "if": {"has_status": ["self", "灯"]}}), outside) == "sat"


def test_a_trigger_at_a_later_phase_comes_after_the_nights_duty():
    """A trigger on the day's end (a reading's use) cannot be the first thing of the game
    while a holder of a night duty who could act has not: the night has passed."""
    from models.encoding.reach import bindings_for, trigger_follows
    source = ("# 来源: 用例\n甲、乙、丙、丁、戊五种身份，各一张，五人局。\n"
              "守夜[夜晚]：乙每晚必须发动，获得[光]。\n日落：白天结束时，甲获得[灯]。\n（空行）\n每天先夜晚、后白天。\n")
    duty = {"name": "守夜", "src": 3, "timing": ["夜晚"], "mandatory": {"src": 3},
            "effects": [{"grant_status": {"who": "self", "status": "光", "duration": "permanent"}}]}
    dusk = {"name": "日落", "src": 4, "trigger": {"event": "phase_end", "phase": "白天"},
            "effects": [{"grant_status": {"who": "self", "status": "灯", "duration": "permanent"}}]}
    rs = one_each({"甲": [dusk], "乙": [duty], "丙": [], "丁": [], "戊": []}, source, ["灯", "光"], depth=1)
    world = World(rs, 4)
    solver = Solver(world.ctx, int(rs.bounds["rlimit"]))
    u = unrolled(world, solver, 1, trace_skills(rs, world), symmetric=False)
    st, roles = u.states[0], world.sorts.roles
    skill = next(s for s in rs.skills if s.name == "日落")
    [b] = [b for b in bindings_for(world, skill, [0])]
    cast = [st[("role", 0)] == roles["甲"], st[("role", 1)] == roles["乙"], st[("alive", 1)]]

    def first(states):
        return solver.check(u.constraints + cast + [trigger_follows(u.trans, u.sels, 0, skill, b, states)],
                            "mandatory-trigger", rlimit=solver.rlimit * 20).status
    assert first(u.states) == "unsat"
    assert first(None) == "sat"   # without the states the duty is not read: the engine's own check


def test_a_story_tells_the_choices_made_at_setup():
    """A game whose slot holder made the setup pick tells it (开局时：P… 使用【托付】，目标 P…)
    before the moves; a game where nobody did tells nothing of setup."""
    from models.encoding.reach import bounded_trace, setup_told
    from verifier.narrate import opening
    rs = _ruleset(True, second=True)
    world = World(rs, 4)
    solver = Solver(world.ctx, int(rs.bounds["rlimit"]))
    held = lambda st: z3.Or([st[("status", i, "信物")] for i in range(world.k)])   # noqa: E731
    trace = bounded_trace(world, solver, held, 1, "setup-told", trace_skills(rs, world))
    assert trace.answer.sat
    [told] = [s for s in trace.steps if s.startswith("开局时：")]
    # the text makes the pick a duty (需选择): told as forced, not as the holder's choice
    assert "的【托付】强制发动，目标 P" in told and "的【转托】强制发动，目标 P" in told
    assert opening("5 人局", trace.steps)[0].startswith("5 人局，开局时：")
    # a pick declined (where it may be): said of a holder in the slots, nothing of one outside
    rs = _ruleset(False)
    world = World(rs, 4)
    solver = Solver(world.ctx, int(rs.bounds["rlimit"]))
    u = unrolled(world, solver, 1, trace_skills(rs, world), symmetric=False)
    first = world.sorts.roles["甲"]
    for i in range(world.k):
        ans = solver.check(u.constraints + [u.states[0][("role", i)] == first, z3.Not(held(u.states[0]))],
                           "setup-none", rlimit=solver.rlimit * 20)
        assert ans.sat and setup_told(ans.model, u) == [f"开局时：P{i + 1} 未使用【托付】"]
    ans = solver.check(u.constraints + _holder_outside_the_slots(world, u), "setup-none", rlimit=solver.rlimit * 20)
    assert ans.sat and setup_told(ans.model, u) == []
    # a team's choice left to the team: not this player's to decline, nothing said
    rs = _ruleset(False, team=True)
    world = World(rs, 4)
    solver = Solver(world.ctx, int(rs.bounds["rlimit"]))
    u = unrolled(world, solver, 1, trace_skills(rs, world), symmetric=False)
    ans = solver.check(u.constraints + [u.states[0][("role", 0)] == world.sorts.roles["甲"], z3.Not(held(u.states[0]))],
                       "setup-none", rlimit=solver.rlimit * 20)
    assert ans.sat and setup_told(ans.model, u) == []


def test_a_voided_pick_is_told_and_kept_by_the_pin_and_a_use_that_changed_nothing_is_not():
    """A setup pick the rules void (its effect needs what the target lacks, the picker is
    marked) leaves nothing on its target; the story still names it, and a pinned story asks
    for that very pick again. A pick that changed nothing at all is a move, not told."""
    from models.encoding.pinned import pinned, trail_json
    from models.encoding.reach import setup_told
    for void, told in (("marked", ["开局时：P1 使用【托付】，目标 P3"]), ("silent", [])):
        rs = _ruleset(False, void=void)
        world = World(rs, 4)
        solver = Solver(world.ctx, int(rs.bounds["rlimit"]))
        u = unrolled(world, solver, 1, trace_skills(rs, world), symmetric=False)
        [g] = [use.made for use in u.setup_uses if use.binding.self_slot == 0 and use.binding.targets == (2,)]
        holder = u.states[0][("role", 0)] == world.sorts.roles["甲"]
        ans = solver.check(u.constraints + [holder, g], "setup-void", rlimit=solver.rlimit * 20)
        assert ans.sat and setup_told(ans.model, u) == told, void
        assert not any(z3.is_true(ans.model.eval(u.states[0][("status", i, "信物")])) for i in range(world.k))
        trail = trail_json(ans.model, u, 0)
        other = [holder, z3.Not(g)]
        assert solver.check(u.constraints + other, "setup-void", rlimit=solver.rlimit * 20).sat
        assert solver.check(u.constraints + pinned(u, trail) + other, "setup-void", rlimit=solver.rlimit * 20).unsat

def test_a_forced_setup_trigger_whose_result_the_model_does_not_show_is_told():
    """A setup trigger that registers a character (create: its result lives outside the
    modelled state) is told for a slot that holds it: the judge sees where the character
    came from. One that only tells its holder something changed nothing: not told."""
    from models.encoding.reach import setup_told
    source = "# 来源: 用例\n甲、乙、丙、丁、戊五种身份，各一张，五人局。\n注册：开局时甲注册一个小号。\n夜晚。\n白天。\n每天先夜晚后白天。\n"
    for effect, told in (({"create": {"role": "小号", "faction": "$self", "seat": "chosen"}}, ["开局时：P2 的【注册】触发（新增的角色 小号 不在 P1～P4 之中）"]),
                         ({"info": {"to": "self", "what": "小号的座位"}}, [])):
        trigger = {"name": "注册", "src": 3, "timing": [], "trigger": {"event": "setup"}, "effects": [effect]}
        rs = one_each({"甲": [trigger], "乙": [], "丙": [], "丁": [], "戊": []}, source, [],
                      phases=({"name": "开局", "src": 3, "once": True}, "夜晚", "白天"), depth=1,
                      extra_roles=[{"name": "小号", "src": 3, "faction": "甲阵营", "created": True, "count": 0}])
        world = World(rs, 4)
        solver = Solver(world.ctx, int(rs.bounds["rlimit"]))
        u = unrolled(world, solver, 1, trace_skills(rs, world), symmetric=False)
        ans = solver.check(u.constraints + [u.states[0][("role", 1)] == world.sorts.roles["甲"]], "setup-create",
                           rlimit=solver.rlimit * 20)
        assert ans.sat and setup_told(ans.model, u) == told


def _random_pick_game():
    """A table of five, four slots; 甲's setup trigger gives [信物] to 随机一名乙阵营角色 (the
    乙 card alone is of 乙阵营): (world, solver, unrolled game, 甲 in slot 1, some slot got it)."""
    source = "# 来源: 用例\n甲、乙、丙、丁、戊五种身份，各一张，五人局。\n结缘：开局时随机一名乙阵营角色获得[信物]。\n夜晚。\n白天。\n每天先夜晚后白天。\n"
    trigger = {"name": "结缘", "src": 3, "timing": [], "trigger": {"event": "setup"},
               "effects": [{"grant_status": {"who": {"random": {"faction": "乙阵营"}}, "status": "信物", "duration": "permanent"}}]}
    rs = one_each({"甲": [trigger], "乙": [], "丙": [], "丁": [], "戊": []}, source, ["信物"],
                  phases=({"name": "开局", "src": 3, "once": True}, "夜晚", "白天"), depth=1)
    world = World(rs, 4)
    solver = Solver(world.ctx, int(rs.bounds["rlimit"]))
    u = unrolled(world, solver, 1, trace_skills(rs, world), symmetric=False)
    st = u.states[0]
    holder = st[("role", 0)] == world.sorts.roles["甲"]
    picked = z3.Or([st[("status", i, "信物")] for i in range(world.k)])
    return world, solver, u, holder, picked


def test_a_forced_setup_pick_at_random_that_fell_outside_the_slots_is_told():
    """A setup trigger whose effect lands on a player picked at random (随机一名乙阵营角色):
    where it changed a slot it is told like any use; where no slot changed, the pick fell on
    the rest of the table, and the story says so rather than leaving the trigger out."""
    from models.encoding.reach import setup_told
    world, solver, u, holder, picked = _random_pick_game()
    for fell, told in ((picked, "开局时：P1 的【结缘】触发"), (z3.Not(picked), "开局时：P1 的【结缘】触发（随机选中的角色不在 P1～P4 之中）")):
        ans = solver.check(u.constraints + [holder, fell], "setup-random", rlimit=solver.rlimit * 20)
        assert ans.sat and setup_told(ans.model, u) == [told]


def test_a_random_pick_misses_the_slots_only_where_the_rest_of_the_table_has_a_candidate():
    """随机一名乙阵营角色 at a table of five with four slots: with the only 乙 card dealt to a
    slot, the pick lands on it (no game has it fall on the one player outside the slots, who
    does not match); outside a game the rest is unknown and a miss stays possible."""
    world, solver, u, holder, picked = _random_pick_game()
    st = u.states[0]
    dealt = z3.Or([st[("role", i)] == world.sorts.roles["乙"] for i in range(world.k)])
    for where, missed in ((dealt, "unsat"), (z3.Not(dealt), "sat")):
        ans = solver.check(u.constraints + [holder, where, z3.Not(picked)], "random-miss", rlimit=solver.rlimit * 20)
        assert ans.status == missed
    # one use over any state (no table): the miss is still a possibility
    s0 = world.state("free")
    skill = next(s for s in world.rs.skills if s.name == "结缘")
    after = world.run(s0, skill, Binding(0, ()))
    nobody = z3.And([z3.Not(after[("status", i, "信物")]) for i in range(world.k)] +
                    [z3.Not(s0[("status", i, "信物")]) for i in range(world.k)])
    slot_match = z3.Or([s0[("faction", i)] == world.sorts.factions["乙阵营"] for i in range(world.k)])
    assert solver.check([slot_match, nobody], "random-free").sat


def test_a_setup_pick_of_any_number_says_the_rest_of_the_table_is_not_listed():
    """A setup pick of any number of players (选择一半的角色) may reach the rest of the table,
    which the model does not follow: the story names the slots it chose and says the others
    are not listed; a pick of one names its target and nothing more."""
    from models.encoding.reach import setup_told
    for top, told in ((None, "开局时：P1 使用【托付】，目标 P3（其余玩家中的目标不在此列出）"), (1, "开局时：P1 使用【托付】，目标 P3")):
        rs = _ruleset(False)
        skill = next(s for s in rs.skills if s.name == "托付")
        skill.targets = {**skill.targets, "max": top}
        world = World(rs, 4)
        solver = Solver(world.ctx, int(rs.bounds["rlimit"]))
        u = unrolled(world, solver, 1, trace_skills(rs, world), symmetric=False)
        st = u.states[0]
        only = [st[("role", 0)] == world.sorts.roles["甲"], st[("status", 2, "信物")]] + \
            [z3.Not(st[("status", i, "信物")]) for i in (1, 3)]
        ans = solver.check(u.constraints + only, "setup-any", rlimit=solver.rlimit * 20)
        assert ans.sat and setup_told(ans.model, u) == [told], top


def test_a_setup_use_told_apart_is_not_said_to_be_left_unused():
    """A reading's use at setup is made once the rest of setup resolved: the setup told before
    it does not say its holder left that skill unused (P1 未使用【托付】), while another slot's
    unused pick is still said."""
    from models.encoding.reach import Move, setup_told
    from models.encoding.world import Binding
    rs = _ruleset(False)
    world = World(rs, 4)
    solver = Solver(world.ctx, int(rs.bounds["rlimit"]))
    u = unrolled(world, solver, 1, trace_skills(rs, world), symmetric=False)
    st = u.states[0]
    nobody = [z3.Not(st[("status", i, "信物")]) for i in range(world.k)]
    ans = solver.check(u.constraints + [st[("role", 0)] == world.sorts.roles["甲"]] + nobody, "setup-apart",
                       rlimit=solver.rlimit * 20)
    skill = next(s for s in rs.skills if s.name == "托付")
    assert ans.sat and setup_told(ans.model, u) == ["开局时：P1 未使用【托付】"]
    assert setup_told(ans.model, u, Move(skill, Binding(0, (2,)), skill.name)) == []
    assert setup_told(ans.model, u, Move(skill, Binding(1, (2,)), skill.name)) == ["开局时：P1 未使用【托付】"]
