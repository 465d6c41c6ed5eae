"""Nobody outside the slots acts; so none of them may hold a forced trigger that would fire.
A game where a player goes out while a watcher whose forced trigger answers every going out
sits uncounted outside the slots is not a game the rules allow."""
from __future__ import annotations

import z3

from models.encoding.ambiguity import confirm_reading
from models.encoding.rest_triggers import loud_identities
from models.encoding.solver import Solver
from models.encoding.world import World
from tests.inline_rulesets import one_each
from verifier.analyses.pending import trace_skills

SOURCE = ("# 来源: 用例\n甲、乙、丙、丁、戊五种身份，各一张，五人局。\n刺杀[夜晚]：令一名角色出局（是否有效原文未说明）。\n"
          "守望[强制]：任何角色出局时，戊获得[灯]。\n（空行）\n每天先夜晚、后白天。\n")


def _ruleset(forced: bool = True, on: dict | None = None):
    amb = {"name": "刺杀是否有效", "src": 3, "text": "是否有效",
           "options": [{"name": "有效", "text": "有效"}, {"name": "无效", "text": "无效"}]}
    skills = {"甲": [{"name": "刺杀", "src": 3, "timing": ["夜晚"],
                     "targets": {"min": 1, "max": 1, "filter": {"alive": True, "other": True}},
                     "effects": [{"out": {"who": "target", "cause": "刺杀"}, "if": {"reading": ["刺杀是否有效", "有效"]}}]}],
              "乙": [], "丙": [], "丁": [],
              "戊": [{"name": "守望", "src": 4, "timing": [], "tags": ["强制"] if forced else [],
                     "trigger": {"event": "went_out", "on": on or {}, "cause": "any"},
                     "effects": [{"grant_status": {"who": "self", "status": "灯", "duration": "permanent"}}]}]}
    tags = [{"name": "强制", "src": 4, "meaning": "forced"}]
    return one_each(skills, SOURCE, ["灯"], depth=2, ambiguities=[amb], tags=tags)


def _with_watcher_outside(rs) -> str:
    """The reading's game, asked with the watcher as the player outside the slots."""
    world = World(rs, 4)
    solver = Solver(world.ctx, int(rs.bounds["rlimit"]))
    stab = next(s for s in rs.skills if s.name == "刺杀")
    outside = z3.Int("table|rest|戊", world.ctx) == 1
    solver_check = solver.check

    def check(query, purpose, rlimit=None):   # every question of this game, with the watcher outside
        return solver_check(list(query) + [outside], purpose, rlimit=rlimit)
    solver.check = check
    solver.check_retrying = lambda query, purpose, budget: check(query, purpose, budget)
    return confirm_reading(world, solver, "刺杀是否有效", stab, 0, 1, None, 2, trace_skills(rs, world)).answer.status


def test_a_forced_trigger_on_others_makes_its_identity_loud():
    assert loud_identities(_ruleset(), {"戊"}) == {"戊": {("went_out", None, None, "{}")}}
    assert loud_identities(_ruleset(forced=False), {"戊"}) == {}


def test_a_going_out_never_happens_with_a_forced_watcher_outside_the_slots():
    assert _with_watcher_outside(_ruleset()) == "unsat"
    # a trigger its holder may decline: the watcher outside the slots just does not use it
    assert _with_watcher_outside(_ruleset(forced=False)) == "sat"


def test_a_trigger_whose_filter_the_victim_fails_lets_the_watcher_sit_outside():
    """守望 answers only 乙's going out: a knife on another player needs no watcher in a slot."""
    rs = _ruleset(on={"role": "乙"})
    assert _with_watcher_outside(rs) == "sat"
