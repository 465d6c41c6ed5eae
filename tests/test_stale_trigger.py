"""A trigger answering a going out is used right after it: a reading of a shot taken on going
out is witnessed only by a game where the shot answers the last move, never by the same shot
taken a night later (when the table has changed)."""
from __future__ import annotations

from tests.inline_rulesets import load_inline
from verifier.engine import check

SOURCE = ("# 来源: 用例\n本局共4人：刺客×1、猎人×1、平民×2。\n"
          "刺客【重创】：每晚令一名存活角色[重伤]（第二种写法：猎人出局后才可以发动）。\n"
          "猎人【流弹】：猎人出局时，可令一名存活角色出局（是否可以选择[重伤]的角色，原文未说明）。\n"
          "暗夜阵营：平民阵营全部出局时获胜。平民阵营：刺客出局时获胜。白天投票，得票最多者出局。\n")


def _ruleset(after_hunter: bool):
    shot = {"min": 1, "max": 1, "filter": {"alive": True, "any": [
        {"lacks_status": "重伤"}, {"has_status": "重伤", "if": {"reading": ["流弹能否选择重伤者", "可以"]}}]}}
    raw = {
        "schema": "ruleset/v1", "id": "case", "title": "用例", "source": "source.txt",
        "bounds": {"players": 4, "depth": 3},
        "phases": [{"name": "夜晚", "src": 3}, {"name": "白天", "src": 5}],
        "factions": [{"name": "暗夜阵营", "src": 5, "win": {"none": {"alive": True, "faction": "平民阵营"}}},
                     {"name": "平民阵营", "src": 5, "win": {"none": {"alive": True, "faction": "暗夜阵营"}}}],
        "statuses": [{"name": "重伤", "src": 3}],
        "ambiguities": [{"name": "流弹能否选择重伤者", "src": 4, "text": "是否可以选择[重伤]的角色",
                         "options": [{"name": "可以", "text": "可以"}, {"name": "不可以", "text": "不可以"}]}],
        "roles": [
            {"name": "刺客", "src": 3, "faction": "暗夜阵营", "count": 1, "skills": [
                {"name": "重创", "src": 3, "timing": ["夜晚"], "uses": {"count": 1, "per": "day"},
                 "targets": {"min": 1, "max": 1, "filter": {"alive": True}},
                 **({"condition": {"value_of": {"count": {"role": "猎人", "alive": True}}, "op": "==", "value": 0}}
                    if after_hunter else {}),
                 "effects": [{"grant_status": {"who": "target", "status": "重伤", "duration": "permanent"},
                              "src": 3}]}]},
            {"name": "猎人", "src": 4, "faction": "平民阵营", "count": 1, "skills": [
                {"name": "流弹", "src": 4, "trigger": {"event": "went_out", "on": "self", "cause": "any"},
                 "targets": shot, "effects": [{"out": {"who": "target", "cause": "流弹"}, "src": 4}]}]},
            {"name": "平民", "src": 2, "faction": "平民阵营", "count": 2}],
        "voting": {"src": 5, "weight_default": 1, "tie": "平票无人出局", "tie_src": 5, "phase": "白天"},
        "setup": {"src": 2, "players": {"min": 4, "max": 4, "src": 2},
                  "groups": [{"name": r, "count": n, "src": 2, "roles": [r]} for r, n in
                             (("刺客", 1), ("猎人", 1), ("平民", 2))]},
    }
    return load_inline(raw, SOURCE)


def _witnessed(rs) -> list:
    return [f for f in check(rs, kinds=["ambiguity"]).findings if f.kind == "ambiguity" and f.verdict == "witnessed"]


def test_a_wound_before_the_vote_makes_the_reading_matter():
    # the hunter is voted out while a wounded player is alive: the shot answers the vote
    [f] = _witnessed(_ruleset(after_hunter=False))
    assert "game" in f.witness


def test_a_shot_a_night_late_is_no_witness():
    # nobody is wounded before the hunter is out: no shot taken on going out ever sees a
    # wounded player (a shot answering a day-old vote-out would)
    assert not _witnessed(_ruleset(after_hunter=True))
