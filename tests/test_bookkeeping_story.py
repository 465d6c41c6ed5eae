"""A phase trigger that only moves a counter the post never names (the encoding's count of
nights, days held…) is a move of the game, kept in the witness and replayed, but not told:
a judge reading "P1 的【计时】触发" would take it for the skill taking effect."""
from __future__ import annotations

import yaml

from game_replay import replay_game
from tests.inline_rulesets import load_inline
from verifier.engine import check

SOURCE = ("# 来源: 用例\n甲、乙、丙、丁四种身份，各一张。\n甲【计时】：每个夜晚开始时记下已过的夜晚。\n"
          "乙【唤醒】[夜晚]：从第一个夜晚起，目标获得[醒]。\n丙【安抚】[夜晚]：目标失去[醒]。\n"
          "丁【惊吓】[白天]：若目标持有[醒]，目标出局。\n每天先夜晚、后白天。\n")


def _ruleset(counter: str):
    one = {"min": 1, "max": 1, "filter": {"alive": True}}
    roles = [
        {"name": "甲", "skills": [{"name": "计时", "src": 3, "timing": [], "trigger": {"event": "phase_start", "phase": "夜晚"},
                                   "effects": [{"counter": {"name": counter, "op": "add", "value": 1}}]}]},
        {"name": "乙", "skills": [{"name": "唤醒", "src": 4, "timing": ["夜晚"], "targets": one,
                                   "effects": [{"grant_status": {"who": "target", "status": "醒"},
                                                "if": {"counter": counter, "op": ">=", "value": 1}}]}]},
        {"name": "丙", "skills": [{"name": "安抚", "src": 5, "timing": ["夜晚"], "targets": one,
                                   "effects": [{"remove_status": {"who": "target", "status": "醒"}}]}]},
        {"name": "丁", "skills": [{"name": "惊吓", "src": 6, "timing": ["白天"], "targets": one,
                                   "effects": [{"out": {"who": "target", "cause": "惊吓"}, "if": {"has_status": ["target", "醒"]}}]}]}]
    raw = {"schema": "ruleset/v1", "id": "case", "title": "用例", "source": "source.txt",
           "bounds": {"players": 4, "depth": 2}, "setup": {"src": 2, "players": {"min": 4, "max": 4, "src": 2}},
           "phases": [{"name": "夜晚", "src": 7}, {"name": "白天", "src": 7}], "statuses": [{"name": "醒", "src": 4}],
           "counters": [{"name": counter, "src": 3, "scope": "global", "initial": 0, "min": 0}],
           "factions": [{"name": f"{r['name']}阵营", "src": 2} for r in roles],
           "roles": [{**r, "src": 2, "faction": f"{r['name']}阵营", "count": 1} for r in roles]}
    return load_inline(raw, SOURCE)


def _story(counter: str) -> tuple[str, dict, object]:
    rs = _ruleset(counter)
    found = [f for f in check(rs, kinds=["order-dependence"]).findings
             if f.kind == "order-dependence" and f.verdict == "witnessed"]
    assert found, "唤醒 and 安抚 differ once a night has begun"
    f = found[0].to_json(rs.id)
    return yaml.safe_dump(f["scenario"], allow_unicode=True), f["witness"], rs


def test_a_counter_the_post_never_names_is_not_told_but_kept_in_the_game():
    story, witness, rs = _story("夜晚数")   # the post never writes 夜晚数
    assert "计时" not in story, story
    assert any("计时" in mv.get("skill", "") for mv in witness["game"]["moves"])
    assert replay_game(rs, witness)[0]


def test_a_counter_the_post_names_is_told():
    story, witness, _ = _story("夜晚")   # 夜晚 is in the post
    assert "计时" in story, story
