"""A vote weight the text gives as a fraction (神眷者的投票计为1.5票) is counted exactly: the
order of two standing weights reads 1.5 against 3, never a rounded 1, and the game replays."""
from __future__ import annotations

import os

import yaml

from game_replay import replay_game
from tests.inline_rulesets import load_inline
from verifier.engine import check

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "order-dependence",
                    "bad_standing_vote_weights")


def _ruleset(value):
    with open(os.path.join(HERE, "ruleset.yaml"), encoding="utf-8") as fh:
        raw = yaml.safe_load(fh)
    with open(os.path.join(HERE, "source.txt"), encoding="utf-8") as fh:
        source = fh.read().replace("[神眷]：持有者的票数+1。", f"[神眷]：持有者的票数为{value}。")
    raw["skills"][0]["effects"][0]["vote_weight"] = {"who": "self", "op": "set", "value": value}
    return load_inline(raw, source)


def test_a_fractional_weight_is_not_rounded():
    rs = _ruleset(1.5)
    [f] = [f for f in check(rs, kinds=["order-dependence"]).to_json()["findings"] if f["kind"] == "order-dependence"]
    outcomes = "；".join(f["scenario"]["outcomes"])
    assert "票数为 1.5" in outcomes and "票数为 3" in outcomes, outcomes
    ok, why = replay_game(rs, f["witness"])
    assert ok, why


def test_whole_weights_stay_whole():
    rs = _ruleset(2)
    [f] = [f for f in check(rs, kinds=["order-dependence"]).findings if f.kind == "order-dependence"]
    assert "票数为 2；" in "；".join(f.scenario["outcomes"]) + "；"
