"""A phase trigger that only moves a counter (a count of nights, of days held, of charges) is
told with the change it made: "P1 的【计时】触发" alone reads as the skill taking effect. One
that changes nothing a judge rules on (losing a skill never held: an expiry with nothing to
expire) is a move of the game, kept in the witness and replayed, but not told."""
from __future__ import annotations

import yaml

from game_replay import replay_game
from tests.inline_rulesets import load_inline
from verifier.engine import check

SOURCE = ("# 来源: 用例\n甲、乙、丙、丁四种身份，各一张。\n甲【计时】：每个夜晚开始时记下已过的夜晚数。\n"
          "乙【唤醒】[夜晚]：从第一个夜晚起，目标获得[醒]。\n丙【安抚】[夜晚]：目标失去[醒]。\n"
          "丁【惊吓】[白天]：若目标持有[醒]，目标出局。\n每天先夜晚、后白天。\n")


def _ruleset(clock: list):
    one = {"min": 1, "max": 1, "filter": {"alive": True}}
    roles = [
        {"name": "甲", "skills": [{"name": "计时", "src": 3, "timing": [], "trigger": {"event": "phase_start", "phase": "夜晚"},
                                   "effects": clock}]},
        {"name": "乙", "skills": [{"name": "唤醒", "src": 4, "timing": ["夜晚"], "targets": one,
                                   "effects": [{"grant_status": {"who": "target", "status": "醒"},
                                                "if": {"counter": "夜晚数", "op": ">=", "value": 1}}]}]},
        {"name": "丙", "skills": [{"name": "安抚", "src": 5, "timing": ["夜晚"], "targets": one,
                                   "effects": [{"remove_status": {"who": "target", "status": "醒"}}]}]},
        {"name": "丁", "skills": [{"name": "惊吓", "src": 6, "timing": ["白天"], "targets": one,
                                   "effects": [{"out": {"who": "target", "cause": "惊吓"}, "if": {"has_status": ["target", "醒"]}}]}]}]
    raw = {"schema": "ruleset/v1", "id": "case", "title": "用例", "source": "source.txt",
           "bounds": {"players": 4, "depth": 2}, "setup": {"src": 2, "players": {"min": 4, "max": 4, "src": 2}},
           "phases": [{"name": "夜晚", "src": 7}, {"name": "白天", "src": 7}], "statuses": [{"name": "醒", "src": 4}],
           "counters": [{"name": "夜晚数", "src": 3, "scope": "global", "initial": 0, "min": 0}],
           "factions": [{"name": f"{r['name']}阵营", "src": 2} for r in roles],
           "roles": [{**r, "src": 2, "faction": f"{r['name']}阵营", "count": 1} for r in roles]}
    return load_inline(raw, SOURCE)


def _story(clock: list) -> tuple[str, dict, object]:
    rs = _ruleset(clock)
    found = [f for f in check(rs, kinds=["order-dependence"]).findings
             if f.kind == "order-dependence" and f.verdict == "witnessed"]
    assert found, "唤醒 and 安抚 differ once a night has begun"
    f = found[0].to_json(rs.id)
    return yaml.safe_dump(f["scenario"], allow_unicode=True), f["witness"], rs


COUNT = {"counter": {"name": "夜晚数", "op": "add", "value": 1}}


def test_a_trigger_that_only_moves_a_counter_says_the_change():
    story, witness, rs = _story([COUNT])
    assert "【计时】触发（夜晚数 0→1）" in story, story
    assert replay_game(rs, witness)[0]


def test_losing_a_skill_never_held_is_no_change_to_tell():
    # 甲 never holds 安抚: the loss changes a flag of the encoding, nothing a judge rules on, so
    # the trigger is still told by its counter alone (a change told in full has no such suffix)
    story, witness, rs = _story([COUNT, {"lose_skill": {"who": "self", "skill": "安抚"}}])
    assert "【计时】触发（夜晚数 0→1）" in story, story
    assert replay_game(rs, witness)[0]
