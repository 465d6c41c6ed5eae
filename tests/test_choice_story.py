"""A history tells the option a move chose, by what only that option names."""
from __future__ import annotations

import z3

from models.encoding import reach
from models.encoding.reach import option_label
from models.encoding.solver import Solver
from models.encoding.world import World

from inline_rulesets import load_inline
from cases import cases


def _ruleset():
    roles = [{"name": r, "src": 2, "faction": f"{r}阵营", "count": 1} for r in ("甲", "乙", "丙", "丁")]
    roles[0]["skills"] = [{"name": "择一", "src": 3, "timing": ["夜晚"], "targets": {"min": 1, "max": 1},
                           "effects": [{"choose": [[{"grant_status": {"who": "target", "status": "盾"}}],
                                                   [{"grant_status": {"who": "target", "status": "印"}}]]}]}]
    raw = {"schema": "ruleset/v1", "id": "case", "title": "用例", "source": "source.txt",
           "bounds": {"players": 4, "depth": 2}, "setup": {"src": 2, "players": {"min": 4, "max": 4, "src": 2}},
           "phases": [{"name": "夜晚", "src": 3}],
           "statuses": [{"name": "盾", "src": 3, "blocks": []}, {"name": "印", "src": 3, "blocks": []}],
           "factions": [{"name": f"{r}阵营", "src": 2} for r in ("甲", "乙", "丙", "丁")], "roles": roles}
    return load_inline(raw, "# 来源: 用例\n甲、乙、丙、丁四种身份，各一张。\n择一[夜晚]：令目标获得[盾]或[印]。\n")


def test_the_option_taken_is_told():
    rs = _ruleset()
    skill = rs.skills[0]
    assert [option_label(rs, skill.effects[0].options, j) for j in range(2)] == ["[盾]", "[印]"]
    world = World(rs, 4)
    marked = lambda st: z3.Or([st[("status", i, "印")] for i in range(4)])  # noqa: E731
    trace = reach.bounded_trace(world, Solver(world.ctx, int(rs.bounds["rlimit"])), marked, 2, "goal", list(rs.skills))
    assert trace.answer.sat
    assert any("所选：[印]" in step for step in trace.steps), trace.steps


def test_an_order_story_tells_what_the_pending_use_chose():
    """The order of 择一 and 清除 matters only when 择一 gives [印]: the pending use says so."""
    from verifier.engine import check
    base = _ruleset()
    raw = dict(base.raw)
    roles = [dict(r) for r in raw["roles"]]
    # a second choice that applies only once a faction is gone: never here, so never told
    first = dict(roles[0]["skills"][0])
    first["effects"] = first["effects"] + [{"choose": [[{"grant_status": {"who": "target", "status": "盾"}}], []],
                                            "if": {"none": {"faction": "丁阵营"}}}]
    roles[0]["skills"] = [first]
    roles[1]["skills"] = [{"name": "清除", "src": 4, "timing": ["夜晚"], "targets": {"min": 1, "max": 1},
                           "effects": [{"remove_status": {"who": "target", "status": "印"}}]}]
    # [印] matters: 丙 can act on a marked player
    roles[2]["skills"] = [{"name": "追击", "src": 5, "timing": ["白天"], "targets": {"min": 1, "max": 1, "filter": {"has_status": "印"}},
                           "effects": [{"out": {"who": "target", "cause": "追击"}}]}]
    raw["roles"] = roles
    raw["phases"] = raw["phases"] + [{"name": "白天", "src": 5}]
    rs = load_inline(raw, "# 来源: 用例\n甲、乙、丙、丁四种身份，各一张。\n择一[夜晚]：令目标获得[盾]或[印]。\n"
                          "清除[夜晚]：去除目标的[印]。\n追击[白天]：令一名有[印]的角色出局。\n")
    found = [f for f in cases(check(rs, kinds=["order-dependence"]).findings) if f.kind == "order-dependence"]
    assert found, "no order finding"
    steps = [s for f in found for s in f.scenario["steps"] if "【择一】" in s and "待结算" in s]
    assert steps and all("所选：[印]）" in s for s in steps), steps


def _choices(values: list, asked) -> tuple:
    """choices_text of 择一 for each binding in asked, in a model where the choice variable of
    each binding in values ((binding, option) pairs) is set."""
    from models.encoding.reach import Move, choices_text
    rs = _ruleset()
    skill, world = rs.skills[0], World(rs, 4)
    name = lambda b: f"choice|{skill.effects[0].uid}|{sorted(b.as_dict().items())}"  # noqa: E731
    s = z3.Solver(ctx=world.ctx)
    s.add(*[z3.Int(name(b), world.ctx) == v for b, v in values])
    assert s.check() == z3.sat
    return tuple(choices_text(s.model(), world, Move(skill, b, skill.name)) for b in asked)


def test_a_window_use_tells_its_own_choice_not_a_trace_move_of_the_same_player():
    """A game's trace has its own (unconstrained) choice for a move by the same player with the
    same targets; the window's use is told by the choice made in the window."""
    from models.encoding.world import Binding
    plain, in_window = Binding(0, (1,)), Binding(0, (1,), window=((2, "清除", (1,)),))
    assert _choices([(plain, 0), (in_window, 1)], [in_window, plain]) == (["所选：[印]"], ["所选：[盾]"])


def test_a_use_whose_window_is_not_known_is_not_told_by_another_situations_choice():
    """Several situations of one pair asked in one game each have their own choice (the others
    unconstrained): without the window's exact record no choice is told, rather than a guess."""
    from models.encoding.world import Binding
    one, other = Binding(0, (1,), window=((2, "清除", (1,)),)), Binding(0, (1,), window=((3, "清除", (1,)),))
    assert _choices([(one, 1), (other, 0)], [one, Binding(0, (1,))]) == (["所选：[印]"], [])


def test_a_history_tells_no_choice_whose_guard_failed():
    """A second choose that applies only once a faction is gone (never here): the history's
    move tells the first choice and not the second."""
    base = _ruleset()
    raw = dict(base.raw)
    roles = [dict(r) for r in raw["roles"]]
    first = dict(roles[0]["skills"][0])
    first["effects"] = first["effects"] + [{"choose": [[{"grant_status": {"who": "target", "status": "盾"}}],
                                                       [{"grant_status": {"who": "self", "status": "记"}}]],
                                            "if": {"none": {"faction": "丁阵营"}}}]
    roles[0]["skills"] = [first]
    raw["roles"] = roles
    raw["statuses"] = raw["statuses"] + [{"name": "记", "src": 3, "blocks": []}]
    rs = load_inline(raw, "# 来源: 用例\n甲、乙、丙、丁四种身份，各一张。\n择一[夜晚]：令目标获得[盾]或[印]，或令自己获得[记]。\n")
    world = World(rs, 4)
    skill, guarded = rs.skills[0], rs.skills[0].effects[-1]
    # the choice that is never made still has a value in a model: pinned to an option here, so
    # only the failed guard keeps it out of the story
    unmade = [z3.Int(f"choice|{guarded.uid}|{sorted(b.as_dict().items())}", world.ctx) == 1
              for b in reach.bindings_for(world, skill, range(4))]
    marked = lambda st: z3.And([z3.Or([st[("status", i, "印")] for i in range(4)])] + unmade)  # noqa: E731
    trace = reach.bounded_trace(world, Solver(world.ctx, int(rs.bounds["rlimit"])), marked, 2, "goal", list(rs.skills))
    assert trace.answer.sat
    [step] = [s for s in trace.steps if "择一" in s]
    assert step.count("所选：") == 1, step


def test_a_reading_use_tells_what_it_chose():
    """The use an ambiguity's story turns on tells the option it took: the reading matters
    only for [印], so the story says 所选：[印]."""
    from verifier.engine import check
    base = _ruleset()
    raw = dict(base.raw)
    roles = [dict(r) for r in raw["roles"]]
    first = dict(roles[0]["skills"][0])
    first["effects"] = [{"choose": [[{"grant_status": {"who": "target", "status": "盾"}}],
                                    [{"grant_status": {"who": "target", "status": "印"},
                                      "if": {"reading": ["印是否生效", "生效"]}}]]}]
    roles[0]["skills"] = [first]
    # [印] matters: 丙 can act on a marked player
    roles[2]["skills"] = [{"name": "追击", "src": 4, "timing": ["白天"], "targets": {"min": 1, "max": 1, "filter": {"has_status": "印"}},
                           "effects": [{"out": {"who": "target", "cause": "追击"}}]}]
    raw["roles"] = roles
    raw["phases"] = raw["phases"] + [{"name": "白天", "src": 4}]
    raw["ambiguities"] = [{"name": "印是否生效", "src": 3, "text": "印是否生效",
                           "options": [{"name": "生效", "text": "生效"}, {"name": "不生效", "text": "不生效"}]}]
    rs = load_inline(raw, "# 来源: 用例\n甲、乙、丙、丁四种身份，各一张。\n择一[夜晚]：令目标获得[盾]或[印]（印是否生效原文未说明）。\n"
                          "追击[白天]：令一名有[印]的角色出局。\n")
    [f] = [f for f in check(rs, kinds=["ambiguity"]).findings if f.kind == "ambiguity" and f.verdict == "witnessed"]
    assert f.scenario["steps"][-1].endswith("（所选：[印]）"), f.scenario["steps"]


def test_an_option_told_only_by_its_line_is_quoted_from_it():
    """Options that name nothing of their own (two infos) are told by the start of their own
    line, with the post's numbering, not by a place in the encoding."""
    roles = [{"name": r, "src": 2, "faction": f"{r}阵营", "count": 1} for r in ("甲", "乙", "丙", "丁")]
    roles[0]["skills"] = [{"name": "许诺", "src": 3, "timing": ["夜晚"], "targets": {"min": 1, "max": 1},
                           "effects": [{"choose": [[{"info": {"to": "target", "what": "阵营"}, "src": 4}],
                                                   [{"info": {"to": "target", "what": "身份"}, "src": 5}]]}]}]
    raw = {"schema": "ruleset/v1", "id": "case", "title": "用例", "source": "source.txt",
           "bounds": {"players": 4, "depth": 2}, "setup": {"src": 2, "players": {"min": 4, "max": 4, "src": 2}},
           "phases": [{"name": "夜晚", "src": 3}],
           "factions": [{"name": f"{r}阵营", "src": 2} for r in ("甲", "乙", "丙", "丁")], "roles": roles}
    rs = load_inline(raw, "# 来源: 用例\n甲、乙、丙、丁四种身份，各一张。\n许诺[夜晚]：令目标从如下效果中选择一项：\n"
                          "1：获知一名玩家的阵营。\n2：获知一名玩家的身份，若其为狼人则立即告知全场。\n")
    options = rs.skills[0].effects[0].options
    assert option_label(rs, options, 0) == "“1：获知一名玩家的阵营”（第4行）"
    assert option_label(rs, options, 1) == "“2：获知一名玩家的身份…”（第5行）"
