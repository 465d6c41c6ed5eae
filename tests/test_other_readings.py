"""A reading's game that rests on how another ambiguity is read says so in its story."""
from __future__ import annotations

from tests.inline_rulesets import one_each
from verifier.engine import check

SOURCE = ("# 来源: 用例\n甲、乙、丙、丁四种身份，各一张。\n"
          "侦查[夜晚]：令一名角色获得[标记]（是否生效原文未说明）。\n"
          "射击[白天]：令一名角色出局（能否选择[标记]的角色原文未说明）。\n（空行）\n每天先夜晚、后白天。\n")


def _ruleset():
    amb = lambda name: {"name": name, "src": 3, "text": name,   # noqa: E731
                        "options": [{"name": "是", "text": "是"}, {"name": "否", "text": "否"}]}
    skills = {"甲": [{"name": "侦查", "src": 3, "timing": ["夜晚"], "targets": {"min": 1, "max": 1, "filter": {"alive": True}},
                     "effects": [{"grant_status": {"who": "target", "status": "标记", "duration": "permanent"},
                                  "if": {"reading": ["侦查是否生效", "是"]}}]}],
              "乙": [{"name": "射击", "src": 4, "timing": ["白天"], "targets": {"min": 1, "max": 1, "filter": {
                  "alive": True, "any": [{"lacks_status": "标记"}, {"has_status": "标记", "if": {"reading": ["射击标记者", "是"]}}]}},
                     "effects": [{"out": {"who": "target", "cause": "射击"}}]}],
              "丙": [], "丁": []}
    return one_each(skills, SOURCE, ["标记"], depth=3, ambiguities=[amb("侦查是否生效"), amb("射击标记者")])


def test_the_story_names_the_other_reading_it_rests_on():
    found = [f for f in check(_ruleset(), kinds=["ambiguity"]).findings
             if f.kind == "ambiguity" and f.verdict == "witnessed" and "射击标记者" in f.subjects]
    [f] = found
    assert any("「侦查是否生效」按「是」理解" in step for step in f.scenario["steps"]), f.scenario["steps"]
    # the use names its day and phase, like the moves before it
    assert f.scenario["steps"][-1].startswith("第 1 天白天，P"), f.scenario["steps"]
