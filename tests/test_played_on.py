"""A reading that changes only a record the encoding made up is played on: the same moves
under each option until the game differs (a witness the interpreter replays), or an open
question when the record changes nothing within the moves after it."""
from __future__ import annotations

from tests.game_replay import replay_game
from tests.inline_rulesets import one_each
from verifier.engine import check

SOURCE = ("# 来源: 用例\n甲、乙、丙、丁四种身份，各一张。\n"
          "记录[夜晚]：记下一名角色（是否记下原文未说明）。\n"
          "射击[白天]：令一名被记下的角色出局。\n（空行）\n每天先夜晚、后白天。\n")


def _ruleset(read: bool):
    amb = {"name": "是否记下", "src": 3, "text": "是否记下",
           "options": [{"name": "记下", "text": "记下"}, {"name": "不记", "text": "不记"}]}
    # read: the shot needs one record; else two, which one use a game never makes
    shoot = [{"name": "射击", "src": 4, "timing": ["白天"], "targets": {"min": 1, "max": 1, "filter": {"alive": True}},
              "condition": {"counter": "记下的人数", "op": ">=", "value": 1 if read else 2},
              "effects": [{"out": {"who": "target", "cause": "射击"}}]}]
    skills = {"甲": [{"name": "记录", "src": 3, "timing": ["夜晚"], "uses": {"count": 1, "per": "game"},
                     "targets": {"min": 1, "max": 1, "filter": {"alive": True}},
                     "effects": [{"counter": {"name": "记下的人数", "op": "add", "value": 1},
                                  "if": {"reading": ["是否记下", "记下"]}}]}],
              "乙": shoot, "丙": [], "丁": []}
    # the counter's name is the encoding's own: the post never says 记下的人数
    return one_each(skills, SOURCE, [], depth=2, ambiguities=[amb],
                    counters=[{"name": "记下的人数", "src": 3, "scope": "global", "initial": 0, "min": 0}])


def _about(rs):
    return [f for f in check(rs, kinds=["ambiguity"]).findings if "是否记下" in f.subjects]


def test_a_record_read_later_is_played_on_to_the_difference():
    rs = _ruleset(read=True)
    [f] = _about(rs)
    assert (f.kind, f.verdict) == ("ambiguity", "witnessed"), f.message
    assert any(s.startswith("此后（两种理解下尝试同样的行动）：") for s in f.scenario["steps"]), f.scenario
    # the outcome is the game's (a shot, who goes out), not the record
    assert not any("记下的人数" in o for o in f.scenario["outcomes"]), f.scenario["outcomes"]
    assert replay_game(rs, f.witness) == (True, "")


def test_a_record_no_later_move_reads_is_an_open_question_not_a_witness():
    rs = _ruleset(read=False)
    [f] = _about(rs)
    assert (f.kind, f.verdict) == ("unknown", "unknown"), f.message
    assert "只改变编码为结算记下的中间记录" in f.message and "3 步内结果没有不同" in f.message, f.message


def test_a_reading_game_can_ask_for_targets_who_stay_in_the_game():
    """living_targets: only uses on players alive and not about to go out. A skill that can
    only take a player on the night's out list has no such use; without it, it has one."""
    from models.encoding.ambiguity import confirm_reading
    from models.encoding.solver import Solver
    from models.encoding.world import World
    from verifier.analyses.pending import trace_skills
    amb = {"name": "是否留印", "src": 3, "text": "是否留印",
           "options": [{"name": "留印", "text": "留印"}, {"name": "不留", "text": "不留"}]}
    skills = {"甲": [{"name": "刺杀", "src": 3, "timing": ["夜晚"], "targets": {"min": 1, "max": 1, "filter": {"alive": True}},
                     "effects": [{"damage": {"who": "target", "kind": "刺杀"}}]}],
              "乙": [{"name": "留印", "src": 4, "timing": ["夜晚"], "targets": {"min": 1, "max": 1, "filter": {"dying": True}},
                     "effects": [{"grant_status": {"who": "target", "status": "印", "duration": "permanent"},
                                  "if": {"reading": ["是否留印", "留印"]}}]}],
              "丙": [], "丁": []}
    rs = one_each(skills, "# 来源: 用例\n甲、乙、丙、丁四种身份，各一张。\n刺杀[夜晚]：令一名角色出局。\n"
                          "留印[夜晚]：给即将出局的角色留下[印]（是否留印原文未说明）。\n（空行）\n每天先夜晚、后白天。\n", ["印"], depth=2, ambiguities=[amb])
    world = World(rs, 4)
    solver = Solver(world.ctx, int(rs.bounds["rlimit"]))
    mark = next(s for s in rs.skills if s.name == "留印")
    ask = lambda living: confirm_reading(world, solver, "是否留印", mark, 0, 1, None, 2, trace_skills(rs, world),  # noqa: E731
                                         living_targets=living)
    assert ask(False).answer.sat
    assert ask(True).answer.status == "unsat"


def test_a_reading_game_can_ask_for_a_plain_cast():
    """plain: no player of the story holds a status the post leaves to base rules that the
    skill in question does not read. Every card carries such a status: no plain story when
    the skill ignores it; one when the skill reads it (it is then what the question is about)."""
    amb = {"name": "是否留印", "src": 3, "text": "是否留印",
           "options": [{"name": "留印", "text": "留印"}, {"name": "不留", "text": "不留"}]}
    for reads, plain_exists in ((False, False), (True, True)):
        mark = {"name": "留印", "src": 4, "timing": ["夜晚"], "targets": {"min": 1, "max": 1},
                "effects": [{"grant_status": {"who": "target", "status": "印", "duration": "permanent"},
                             "if": {"reading": ["是否留印", "留印"]}}] +
                ([{"info": {"to": "self", "what": "目标是否有情缘"}, "if": {"has_status": ["target", "情缘"]}}] if reads else [])}
        roles = [{"name": r, "src": 2, "faction": f"{r}阵营", "count": 1, "statuses": ["情缘"]} for r in ("甲", "乙", "丙", "丁")]
        roles[1]["skills"] = [mark]
        statuses = [{"name": "印", "src": 4},
                    {"name": "情缘", "src": 3, "external": True, "basis": "base_rules", "basis_src": 3,
                     "assumption": "参考基础规则的情侣（殉情）"}]
        rs = _four_cards(roles, [f"{r}阵营" for r in ("甲", "乙", "丙", "丁")], amb,
                         "# 来源: 用例\n甲、乙、丙、丁四种身份，各一张。\n部分身份带有[情缘]（参考基础规则）。\n"
                         "留印[夜晚]：给一名角色留下[印]（是否留印原文未说明）。\n（空行）\n每天先夜晚、后白天。\n",
                         statuses=statuses)
        ask = _plain_asker(rs, "是否留印", "留印")
        assert ask(False).answer.sat
        assert ask(True).answer.sat == plain_exists


def test_a_plain_cast_has_no_harm_on_ones_own_camp():
    """A use that harms its target is asked for on another camp: a stab that may only hit
    the stabber's own camp has no plain use; one that may hit anybody has."""
    amb = {"name": "是否致命", "src": 3, "text": "是否致命",
           "options": [{"name": "致命", "text": "致命"}, {"name": "不致命", "text": "不致命"}]}
    for only_own, plain_exists in ((True, False), (False, True)):
        stab = {"name": "刺杀", "src": 3, "timing": ["夜晚"],
                "targets": {"min": 1, "max": 1, "filter": {"alive": True, "other": True, **({"faction": "红阵营"} if only_own else {})}},
                "effects": [{"damage": {"who": "target", "kind": "刺杀"}, "if": {"reading": ["是否致命", "致命"]}}]}
        roles = [{"name": r, "src": 2, "faction": f, "count": 1} for r, f in
                 (("甲", "红阵营"), ("乙", "红阵营"), ("丙", "蓝阵营"), ("丁", "蓝阵营"))]
        roles[0]["skills"] = [stab]
        rs = _four_cards(roles, ["红阵营", "蓝阵营"], amb,
                         "# 来源: 用例\n甲乙为红阵营，丙丁为蓝阵营，各一张。\n刺杀[夜晚]：刺一名角色（是否致命原文未说明）。\n"
                         "（空行）\n（空行）\n每天先夜晚、后白天。\n")
        ask = _plain_asker(rs, "是否致命", "刺杀")
        assert ask(False).answer.sat
        assert ask(True).answer.sat == plain_exists


def _plain_asker(rs, ambiguity: str, skill_name: str, depth: int = 2):
    """ask(plain): the reading game for the named skill's use, with or without a plain cast."""
    from models.encoding.ambiguity import confirm_reading
    from models.encoding.solver import Solver
    from models.encoding.world import World
    from verifier.analyses.pending import trace_skills
    world = World(rs, 4)
    solver = Solver(world.ctx, int(rs.bounds["rlimit"]))
    skill = next(s for s in rs.skills if s.name == skill_name)
    return lambda plain: confirm_reading(world, solver, ambiguity, skill, 0, 1, None, depth, trace_skills(rs, world),
                                         plain=plain)


def test_a_plain_story_has_no_move_on_its_own_user():
    """A move before the use counts too: when the use needs a player a look has marked, and
    the look may only fall on the one who looks, no plain story exists; when it may fall on
    anybody, one does."""
    from models.encoding.detours import odd_use
    amb = {"name": "是否留印", "src": 3, "text": "是否留印",
           "options": [{"name": "留印", "text": "留印"}, {"name": "不留", "text": "不留"}]}
    for only_self, plain_exists in ((True, False), (False, True)):
        look = {"name": "查看", "src": 3, "timing": ["夜晚"],
                "targets": {"min": 1, "max": 1, "filter": {"role": "甲"} if only_self else {"alive": True}},
                "effects": [{"grant_status": {"who": "target", "status": "查过", "duration": "permanent"}}]}
        mark = {"name": "留印", "src": 4, "timing": ["白天"], "targets": {"min": 1, "max": 1, "filter": {"has_status": "查过"}},
                "effects": [{"grant_status": {"who": "target", "status": "印", "duration": "permanent"},
                             "if": {"reading": ["是否留印", "留印"]}}]}
        rs = one_each({"甲": [look], "乙": [mark], "丙": [], "丁": []},
                      "# 来源: 用例\n甲、乙、丙、丁四种身份，各一张。\n查看[夜晚]：查看一名角色。\n"
                      "留印[白天]：给查看过的角色留下[印]（是否留印原文未说明）。\n（空行）\n每天先夜晚、后白天。\n",
                      ["查过", "印"], depth=3, ambiguities=[amb])
        ask = _plain_asker(rs, "是否留印", "留印", depth=3)
        assert ask(False).answer.sat
        assert ask(True).answer.sat == plain_exists
    stab = next(s for s in one_each({"甲": [{"name": "刺", "src": 3, "timing": ["夜晚"], "targets": {"min": 1, "max": 1},
                                            "effects": [{"damage": {"who": "target", "kind": "刺"}}]}], "乙": []},
                                    "# 来源: 用例\n甲、乙。\n刺[夜晚]。\n（空行）\n（空行）\n每天先夜晚、后白天。\n", []).skills)
    camps = {0: "红", 1: "红", 2: "蓝"}.get
    assert odd_use(stab, 0, (0,), camps) and odd_use(stab, 0, (1,), camps) and not odd_use(stab, 0, (2,), camps)


def _four_cards(roles: list, factions: list, amb: dict, source: str, **more):
    """A four-card table (one card per role), night then day, with one ambiguity."""
    from inline_rulesets import load_inline
    raw = {"schema": "ruleset/v1", "id": "case", "title": "用例", "source": "source.txt",
           "bounds": {"players": 4, "depth": 2}, "setup": {"src": 2, "players": {"min": 4, "max": 4, "src": 2}},
           "phases": [{"name": "夜晚", "src": 6}, {"name": "白天", "src": 6}],
           "factions": [{"name": f, "src": 2} for f in factions], "roles": roles, "ambiguities": [amb], **more}
    return load_inline(raw, source)


def test_a_use_on_ones_own_partner_is_a_detour():
    """A bond one use gives its user and its target for good (结缘: both hold [缘]) makes a
    later skill of the user on that partner a detour, unless the skill reads the bond; a
    status given to one player only is no bond."""
    from models.encoding.detours import bond_statuses, held_in_values, odd_use

    def ruleset(both: bool):
        tie = {"name": "结缘", "src": 3, "timing": ["夜晚"], "targets": {"min": 1, "max": 1, "filter": {"other": True}},
               "effects": [{"grant_status": {"who": "target", "status": "缘", "duration": "permanent"}}] +
                          ([{"grant_status": {"who": "self", "status": "缘", "duration": "permanent"}}] if both else [])}
        bless = {"name": "祝福", "src": 4, "timing": ["白天"], "targets": {"min": 1, "max": 1},
                 "effects": [{"grant_status": {"who": "target", "status": "福", "duration": "permanent"}}]}
        return one_each({"甲": [tie, bless], "乙": []},
                        "# 来源: 用例\n甲、乙。\n结缘[夜晚]：与一名其他角色结缘。\n祝福[白天]：祝福一名角色。\n（空行）\n"
                        "每天先夜晚、后白天。\n", ["缘", "福"])
    camps = {0: "红", 1: "蓝", 2: "蓝"}.get
    bonded = held_in_values({("status", 0, "缘"): True, ("status", 1, "缘"): True})
    for both in (True, False):
        rs = ruleset(both)
        bless = next(s for s in rs.skills if s.name == "祝福")
        assert bond_statuses(rs) == ({"缘"} if both else set())
        assert bool(odd_use(bless, 0, (1,), camps, rs, bonded)) == both
        assert not odd_use(bless, 0, (2,), camps, rs, bonded)


def test_a_negative_status_on_ones_own_camp_is_harm():
    """Giving a teammate a status the post calls negative (负面状态) is harm on one's own camp,
    as a knife is; a status that is not negative is not."""
    from inline_rulesets import load_inline
    from models.encoding.detours import odd_use
    for negative in (True, False):
        raw = {"schema": "ruleset/v1", "id": "case", "title": "用例", "source": "source.txt",
               "bounds": {"players": 2, "depth": 2}, "setup": {"src": 2, "players": {"min": 2, "max": 2, "src": 2}},
               "phases": [{"name": "夜晚", "src": 4}],
               "statuses": [{"name": "诅咒", "src": 3, "negative": negative}],
               "factions": [{"name": "红", "src": 2}],
               "roles": [{"name": "甲", "src": 2, "faction": "红", "count": 2,
                          "skills": [{"name": "咒", "src": 3, "timing": ["夜晚"], "targets": {"min": 1, "max": 1},
                                      "effects": [{"grant_status": {"who": "target", "status": "诅咒"}}]}]}]}
        rs = load_inline(raw, "# 来源: 用例\n甲两张。\n咒[夜晚]：令一名角色获得[诅咒]（负面状态）。\n每天夜晚。\n")
        curse = next(s for s in rs.skills if s.name == "咒")
        assert bool(odd_use(curse, 0, (1,), {0: "红", 1: "红"}.get, rs)) == negative
