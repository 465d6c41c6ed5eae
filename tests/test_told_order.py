"""A story that resolves two interfering moves of one time slot one after the other says
the order it took, unless the ruleset states it."""
from __future__ import annotations

from models.encoding.reach import Move
from models.encoding.solver import Solver
from models.encoding.world import Binding, World
from verifier.analyses.base import Context
from verifier.analyses.told_order import unstated_orders

from inline_rulesets import load_inline

SOURCE = "# 来源: 用例\n甲、乙、丙、丁四种身份，各一张。\n护盾[夜晚]：令目标获得[盾]。刺杀[夜晚]：持有[盾]者不受影响，否则目标出局。查看[夜晚]：得知目标身份。\n"


def _cx(precedence=()):
    roles = [{"name": r, "src": 2, "faction": f"{r}阵营", "count": 1} for r in ("甲", "乙", "丙", "丁")]
    roles[0]["skills"] = [{"name": "护盾", "src": 3, "timing": ["夜晚"], "targets": {"min": 1, "max": 1},
                           "effects": [{"grant_status": {"who": "target", "status": "盾"}}]}]
    roles[1]["skills"] = [{"name": "刺杀", "src": 3, "timing": ["夜晚"], "targets": {"min": 1, "max": 1},
                           "effects": [{"damage": {"who": "target", "kind": "刺杀"}, "if": {"not": {"has_status": ["target", "盾"]}}}]}]
    roles[2]["skills"] = [{"name": "查看", "src": 3, "timing": ["夜晚"], "targets": {"min": 1, "max": 1},
                           "effects": [{"info": {"to": "self", "what": "目标身份"}}]}]
    raw = {"schema": "ruleset/v1", "id": "case", "title": "用例", "source": "source.txt",
           "bounds": {"players": 4, "depth": 2}, "setup": {"src": 2, "players": {"min": 4, "max": 4, "src": 2}},
           "phases": [{"name": "夜晚", "src": 3}], "statuses": [{"name": "盾", "src": 3, "blocks": []}],
           "factions": [{"name": f"{r}阵营", "src": 2} for r in ("甲", "乙", "丙", "丁")], "roles": roles,
           "precedence": list(precedence)}
    rs = load_inline(raw, SOURCE)
    world = World(rs, 4)
    return Context(rs, world, Solver(world.ctx, int(rs.bounds["rlimit"])))


def _story(cx):
    skill = {s.name: s for s in cx.rs.skills}
    use = lambda name, who: Move(skill[name], Binding(who, (3,), (), ()), name)  # noqa: E731
    return [("第 1 天夜晚，P1 使用【护盾】，目标 P4", use("护盾", 0)),
            ("第 1 天夜晚，P3 使用【查看】，目标 P4", use("查看", 2)),
            ("第 1 天夜晚，P2 使用【刺杀】，目标 P4", use("刺杀", 1)),
            ("第 2 天夜晚，P1 使用【护盾】，目标 P4", use("护盾", 0))]


def test_an_unstated_order_in_one_slot_is_said():
    cx = _cx()
    notes = unstated_orders(cx, _story(cx))
    # the shield and the kill interfere; the look does not; the second night is another slot
    assert notes == ["（第 1 天夜晚：甲的【护盾】先于乙的【刺杀】结算，原文没有规定它们的先后）"], notes


def test_an_order_the_ruleset_states_goes_without_saying():
    cx = _cx([{"first": "护盾", "then": "刺杀", "src": 3}])
    assert unstated_orders(cx, _story(cx)) == []
