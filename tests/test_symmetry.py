"""Bounded traces start only from deals in slot order (symmetry breaking). That is sound only
if renaming slots maps traces to traces: with seats, only mirroring the row of slots does."""
from __future__ import annotations

import pytest

from models.encoding import reach
from models.encoding.solver import Solver
from models.encoding.world import World

from inline_rulesets import load_inline

K = 4
ROLES = ["甲", "乙", "丙", "丁"]


def _ruleset(win: dict):
    roles = [{"name": r, "src": 2, "faction": f"{r}阵营", "count": 1} for r in ROLES]
    factions = [{"name": f"{r}阵营", "src": 2} for r in ROLES]
    factions[0]["win"] = win
    raw = {"schema": "ruleset/v1", "id": "case", "title": "用例", "source": "source.txt",
           "bounds": {"players": K, "depth": 2},
           "phases": [{"name": "夜晚", "src": 2}, {"name": "白天", "src": 2}],
           "factions": factions, "roles": roles}
    return load_inline(raw, "# 来源: 用例\n甲、乙、丙、丁四种身份，各一张。\n")


def _reachable(rs, breaking: bool, monkeypatch) -> tuple[bool, list[str]]:
    if not breaking:
        monkeypatch.setattr(reach, "symmetry_breaking", lambda world, init: [])
    world = World(rs, K)
    solver = Solver(world.ctx, int(rs.bounds["rlimit"]))
    skills = [s for s in rs.skills if s.timing]
    trace = reach.bounded_trace(world, solver, lambda st: reach.faction_goal(world, st, "甲阵营"),
                                int(rs.bounds["depth"]), "win", skills)
    assert trace.answer.status in ("sat", "unsat")
    roles = [trace.states[0][("role", i)] for i in range(K)] if trace.answer.sat else []
    return trace.answer.sat, roles


def _next_to(a: str, b: str) -> dict:
    return {"count": {"role": b, "neighbour_of": {"of": {"role": a}}}, "op": ">=", "value": 1}


def test_a_seating_only_some_deals_allow_is_still_found(monkeypatch):
    # 甲 must sit between 丙 and 丁 (乙 opposite): the deal in plain slot order
    # (丁 丙 乙 甲 by name) seats 甲 between 乙 and 丁, so sorting every slot would miss it
    rs = _ruleset({"all": [_next_to("甲", "丙"), _next_to("甲", "丁")]})
    assert World(rs, K).vocab.seats
    found, roles = _reachable(rs, True, monkeypatch)
    assert found
    i = roles.index("甲")
    assert {roles[(i + 1) % K], roles[(i - 1) % K]} == {"丙", "丁"}


def test_without_seats_the_deal_is_in_slot_order(monkeypatch):
    rs = _ruleset({"count": {"role": "甲", "alive": True}, "op": ">=", "value": 1})
    assert not World(rs, K).vocab.seats
    found, roles = _reachable(rs, True, monkeypatch)
    assert found and roles == sorted(roles)


@pytest.mark.parametrize("win", [
    {"all": [_next_to("甲", "丙"), _next_to("甲", "丁")]},
    {"all": [_next_to("甲", "乙"), {"not": _next_to("甲", "丁")}]},
    {"all": [{"count": {"alive": True}, "op": "<=", "value": 2}, {"count": {"role": "甲", "alive": True}, "op": ">=", "value": 1}]},
    {"none": {"role": "乙", "alive": True}},
], ids=["between", "next-to-one-not-other", "two-left", "nobody-of-a-role"])
def test_breaking_symmetry_keeps_every_answer(win, monkeypatch):
    rs = _ruleset(win)
    with_breaking, _ = _reachable(rs, True, monkeypatch)
    without, _ = _reachable(rs, False, monkeypatch)
    assert with_breaking == without
