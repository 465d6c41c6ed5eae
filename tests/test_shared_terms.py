"""Terms a check asks about again and again are built once per world: the move relation of
an unrolled game (each depth and symmetry used to build it again, about 27 s each on zemu)
and what a forced trigger owes in a state (every goal at that step asks)."""
from __future__ import annotations

from models.encoding import reach
from models.encoding.solver import Solver
from models.encoding.world import World
from tests.inline_rulesets import one_each
from verifier.analyses.pending import trace_skills


def _world():
    out = [{"out": {"who": "target", "cause": "射杀"}}]
    skills = {"甲": [{"name": "射杀", "src": 3, "timing": ["夜晚"], "targets": {"min": 1, "max": 1, "filter": {"alive": True}},
                     "effects": out}],
              "乙": [{"name": "带走", "src": 4, "tags": ["强制"], "trigger": {"event": "went_out", "on": "self"},
                     "targets": {"min": 1, "max": 1, "filter": {"alive": True}}, "effects": out}],
              "丙": [], "丁": []}
    rs = one_each(skills, "# 来源: 用例\n甲、乙、丙、丁四种身份，各一张。\n射杀[夜晚]：目标出局。\n带走[强制]：乙出局时，目标出局。\n（空行）\n每天先夜晚、后白天。\n",
                  [], tags=[{"name": "强制", "src": 4, "meaning": "forced"}])
    world = World(rs, 4)
    return rs, world, Solver(world.ctx, int(rs.bounds["rlimit"]))


def test_the_move_relation_is_built_once_for_every_unrolling(monkeypatch):
    rs, world, solver = _world()
    built = []
    real = reach.Transitions.relation
    monkeypatch.setattr(reach.Transitions, "relation", lambda self, st, sel: built.append(1) or real(self, st, sel))
    skills = trace_skills(rs, world)
    a = reach.unrolled(world, solver, 2, skills, symmetric=False)
    b = reach.unrolled(world, solver, 3, skills, symmetric=True)
    assert a is not b and len(b.states) == 4
    assert len(built) == 1
    # a game of the slots alone (no table around them) is another relation
    reach.unrolled(world, solver, 2, skills, table=False)
    assert len(built) == 2


def test_what_a_forced_trigger_owes_in_a_state_is_one_term():
    rs, world, solver = _world()
    u = reach.unrolled(world, solver, 2, trace_skills(rs, world), symmetric=False)
    idxs = [n for n, mv in enumerate(u.trans.moves) if mv.skill is not None and mv.skill.name == "带走"]
    assert idxs
    first = reach._owed_at(u.trans, u.states[1], idxs)
    assert reach._owed_at(u.trans, u.states[1], idxs) is first
    assert not reach._owed_at(u.trans, u.states[2], idxs).eq(first)
