"""An order story says why the second action no longer happened at its turn (the judge checks
it again then): a block that resolved first, an actor who went out, a target no longer in range."""
from __future__ import annotations

import os

from models.loader import load_ruleset
from verifier.engine import check

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "order-dependence")


def _outcomes(name: str) -> list[str]:
    rs = load_ruleset(os.path.join(HERE, name))
    [f] = [f for f in check(rs, kinds=["order-dependence"]).findings if f.kind == "order-dependence"]
    return f.scenario["outcomes"]


def test_a_blocked_action_and_an_actor_gone_out_are_told():
    first, second = _outcomes("bad_block_before_action")
    assert "技能已被封锁" in first and "按结算时重新检查不生效" in first
    assert "发动者已出局" in second


def test_an_order_where_both_happen_says_nothing_of_the_kind():
    assert not any("重新检查" in o for o in _outcomes("bad_protect_vs_attack"))
