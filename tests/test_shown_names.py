"""Reports show the text's names: an entry the encoding split off a skill is shown as that
skill (with its lines), and an outcome leaves out values of elements the post never names
when a value it names differs too."""
from __future__ import annotations

from inline_rulesets import load_inline
from verifier.narrate import clip, outcome_text

SOURCE = "# 来源: fixture | 作者: tests\n甲身份：夜晚可使用【强击】使目标获得[护盾]。\nPS：强击每晚限一次。\n"


def _raw(extra_skills: list[dict]) -> dict:
    return {
        "schema": "ruleset/v1", "id": "shown", "title": "名称", "author": "tests", "source": "source.txt",
        "phases": [{"name": "夜晚", "src": 2}],
        "factions": [{"name": "甲阵营", "src": 2, "lose": {"none": {"alive": True, "faction": "甲阵营"}}}],
        "statuses": [{"name": "护盾", "src": 2, "blocks": []}, {"name": "护盾计时", "src": 2, "blocks": []}],
        "counters": [{"name": "强击计数", "src": 2, "scope": "per_player", "initial": 0}],
        "roles": [{"name": "甲身份", "src": 2, "faction": "甲阵营", "skills": [
            {"name": "强击", "src": 2, "timing": ["夜晚"], "targets": {"min": 1, "max": 1},
             "effects": [{"grant_status": {"who": "target", "status": "护盾"}}]}] + extra_skills}],
    }


def _skill(name: str, **more) -> dict:
    return {"name": name, "src": [2, 3], "timing": [], "trigger": {"event": "phase_start", "phase": "夜晚"},
            "effects": [{"counter": {"name": "强击计数", "op": "add", "value": 1, "who": "self"}}], **more}


def test_split_off_entries_show_the_texts_name():
    rs = load_inline(_raw([_skill("强击(计数)"), _skill("强击·到期"), _skill("乙计数", part_of="PS"),
                           _skill("丙计数")]), SOURCE)
    shown = {s.name: s.shown for s in rs.skills}
    assert shown["强击"] == "【强击】"
    assert shown["强击(计数)"] == "【强击】（第2、3行的部分）"
    assert shown["强击·到期"] == "【强击】（第2、3行的部分）"
    assert shown["乙计数"] == "【PS】（第2、3行的部分）"
    # no text name to show: its own name stays (an undefined name is never made up)
    assert shown["丙计数"] == "【丙计数】"


def test_outcomes_leave_out_made_up_names_when_a_named_value_differs():
    rs = load_inline(_raw([]), SOURCE)
    both = [("counter", "强击计数", 0), ("status", 1, "护盾")]
    assert outcome_text(rs, both, {both[0]: 1, both[1]: True}) == "P2 持有[护盾]"
    # only a made-up value differs: it is still told (an outcome is never empty)
    alone = [("counter", "强击计数", 0)]
    assert outcome_text(rs, alone, {alone[0]: 1}) == "P1 的强击计数 = 1"


def test_a_clipped_quote_leaves_no_bracket_open():
    assert clip("可选择其中一个技能获得（若选中的是甲的技能，则改为获得乙的技能）", 30) == "可选择其中一个技能获得…"
    assert clip("短句", 30) == "短句"


def test_a_part_of_a_skill_not_gained_is_told_as_that_part():
    """"没有获得【强击】（第2、3行的部分）" reads as 强击 not gained at all; the part is named."""
    rs = load_inline(_raw([_skill("强击(计数)")]), SOURCE)
    part = next(s for s in rs.skills if s.name == "强击(计数)")
    key = [("gained", 1, part.uid)]
    assert outcome_text(rs, key, {key[0]: False}) == "P2 没有获得【强击】中第2、3行的部分"


def test_a_part_goes_without_saying_next_to_its_skill():
    from models.domain import without_parts
    assert without_parts(["【甲技】", "【甲技】（第55、143行的部分）", "【强击】（第2行的部分）", "【甲技】"]) == \
        ["【甲技】", "【强击】（第2行的部分）"]


def test_an_entry_the_encoding_named_is_told_in_the_texts_words():
    """An election the text describes without a skill name reads as the text says it."""
    from models.encoding.reach import Move, move_text
    from models.encoding.world import Binding
    rs = load_inline(_raw([{"name": "选举", "src": 2, "timing": ["夜晚"], "targets": {"min": 1, "max": 1},
                            "told": "{targets} 获得投票最多", "effects": []}]), SOURCE)
    told = next(s for s in rs.skills if s.name == "选举")
    assert move_text(Move(told, Binding(2, (0,)), "skill"), day=1) == "第 1 天夜晚，P1 获得投票最多"
    plain = next(s for s in rs.skills if s.name == "强击")
    assert move_text(Move(plain, Binding(2, (0,)), "skill"), day=1) == "第 1 天夜晚，P3 使用【强击】，目标 P1"


def test_a_cast_line_tells_an_identity_changed_at_setup():
    """A player dealt one card who holds another tells both, and the setup skill that changed it."""
    import os
    from models.loader import load_ruleset
    from verifier.narrate import describe_player
    rs = load_ruleset(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "rulesets", "s11"))
    st = {("dealt", 1): "盗贼", ("role", 1): "女巫", ("faction", 1): "村民阵营", ("alive", 1): True,
          ("label", 1, "特殊"): True}
    line = describe_player(rs, st, 1)
    assert line.startswith("P2：女巫（发牌为盗贼，开局时经【偷换】成为女巫）")
    assert "获得[特殊]" not in line     # the label came with the identity
    st[("dealt", 1)] = "女巫"
    assert describe_player(rs, st, 1).startswith("P2：女巫，")


def test_a_difference_only_in_a_record_names_the_rules_that_read_it():
    """An ambiguity whose use differs only in a counter the post never names says which rules
    read that counter (where the two readings part later)."""
    from verifier.analyses.ambiguity import _read_later
    rs = load_inline(_raw([{"name": "强击(到期)", "src": [2, 3], "timing": [],
                            "trigger": {"event": "phase_start", "phase": "夜晚"},
                            "condition": {"counter": "强击计数", "op": ">=", "value": 2, "who": "self"},
                            "effects": [{"remove_status": {"who": "self", "status": "护盾"}}]}]), SOURCE)
    assert _read_later(rs, [("counter", "强击计数", 0)]) == ["（这一差别只在编码为结算记下的中间记录上，是否改变此后的结算未作比较；读取它的规则：【强击】（第2、3行的部分））"]
    assert _read_later(rs, [("counter", "强击计数", 0), ("status", 0, "护盾")]) == []   # a named value differs


def test_a_rule_of_the_whole_table_is_not_told_as_a_players_skill():
    """A trigger held through a label every card carries (bookkeeping of the table) is told as
    the rule resolving for a player, not as that player's skill."""
    from models.encoding.reach import Move, move_text
    from models.encoding.world import Binding
    raw = _raw([])
    raw["labels"] = [{"name": "角色", "src": 2}]
    raw["roles"][0]["labels"] = ["角色"]
    raw["skills"] = [{**_skill("强击计数", part_of="强击"), "owner": {"label": "角色"}}]
    rs = load_inline(raw, SOURCE)
    rule = next(s for s in rs.skills if s.name == "强击计数")
    assert rule.table_wide
    assert move_text(Move(rule, Binding(0), "skill"), day=2) == "第 2 天夜晚开始时，【强击】（第2、3行的部分）结算（P1）"


def test_a_count_goes_without_saying_for_a_skill_not_gained():
    """"P2 没有获得【强击(计数)】" already says P2 has no such count: "P2 的强击计数 = 0" beside
    it is noise; the count is told where the skill was gained."""
    rs = load_inline(_raw([_skill("强击(计数)")]), SOURCE)
    part = next(s for s in rs.skills if s.name == "强击(计数)")
    keys = [("counter", "强击计数", 1), ("gained", 1, part.uid)]
    assert "强击计数" not in outcome_text(rs, keys, {keys[0]: 0, keys[1]: False})
    assert "P2 的强击计数 = 1" in outcome_text(rs, keys, {keys[0]: 1, keys[1]: True})
    # held by identity (the card's own skill): the count is told even at its initial value
    own = {keys[0]: 0, keys[1]: False, ("role", 1): "甲身份"}
    assert "P2 的强击计数 = 0" in outcome_text(rs, keys, own)


def test_a_made_up_status_nobody_holds_is_not_listed_as_lacking():
    from verifier.narrate import describe_player
    rs = load_inline(_raw([]), SOURCE)
    nobody = {("role", 0): "甲身份", ("faction", 0): "甲阵营", ("alive", 0): True,
              ("status", 0, "护盾"): False, ("status", 0, "护盾计时"): False}
    line = describe_player(rs, nobody, 0, relevant_statuses={"护盾", "护盾计时"})
    assert "未持有[护盾]" in line and "护盾计时" not in line, line
    # held by a player of the story: the others' lacking it is told
    held = {**nobody, ("status", 1, "护盾计时"): True}
    assert "[护盾计时]" in describe_player(rs, held, 0, relevant_statuses={"护盾", "护盾计时"})


def test_a_cast_as_setup_left_it_names_the_setup_skills_behind_a_label():
    """A label a setup skill and a later skill both give: in the game as setup left it only the
    setup skill can have given it, and the cast line says so; in a later state it says nothing."""
    import os
    from models.loader import load_ruleset
    from verifier.narrate import describe_player
    rs = load_ruleset(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "rulesets", "zemu"))
    label = "证婚人"
    givers = {s.name: s for s in rs.skills for e in s.all_effects()
              if e.kind == "add_label" and isinstance(e.args, dict) and e.args.get("label") == label}
    from models.encoding.quiet import at_setup
    assert any(at_setup(rs, s) for s in givers.values()) and not all(at_setup(rs, s) for s in givers.values())
    st = {("role", 1): "基础狼人身份", ("faction", 1): "狼人阵营", ("alive", 1): True, ("label", 1, label): True}
    told = describe_player(rs, st, 1, dealt=True)
    assert f"获得[{label}]" in told and all(f"【{n}】" in told for n, s in givers.items() if at_setup(rs, s)), told
    assert not any(f"【{n}】" in told for n, s in givers.items() if not at_setup(rs, s)), told
    assert f"获得[{label}]" not in describe_player(rs, st, 1)


def test_a_state_the_text_sets_beside_alive_is_shown_in_its_place():
    """A status declared life_state (濒死 beside 存活) is the player's state of being: the
    cast says 濒死（未出局）, not 存活 holding it, and a player without it is simply 存活."""
    from verifier.narrate import describe_player
    raw = _raw([])
    raw["statuses"].append({"name": "护盾计时", "src": 2, "blocks": [], "life_state": True})
    raw["statuses"] = [raw["statuses"][0], raw["statuses"][2]]
    rs = load_inline(raw, SOURCE)
    st = {("role", 0): "甲身份", ("faction", 0): "甲阵营", ("alive", 0): True,
          ("status", 0, "护盾"): True, ("status", 0, "护盾计时"): True,
          ("role", 1): "甲身份", ("faction", 1): "甲阵营", ("alive", 1): True,
          ("status", 1, "护盾"): False, ("status", 1, "护盾计时"): False}
    dying = describe_player(rs, st, 0, relevant_statuses={"护盾", "护盾计时"})
    assert "护盾计时（未出局）" in dying and "存活" not in dying and "[护盾计时]" not in dying, dying
    assert "持有[护盾]" in dying, dying
    well = describe_player(rs, st, 1, relevant_statuses={"护盾", "护盾计时"})
    assert "存活" in well and "护盾计时" not in well, well
    # without the declaration it is a status like any other
    plain = describe_player(load_inline(_raw([]), SOURCE), st, 0, relevant_statuses={"护盾", "护盾计时"})
    assert "存活" in plain and "[护盾计时]" in plain, plain


def test_a_use_its_holder_could_not_decline_is_told_as_forced():
    """A skill with a forced tag, or whose text makes it a duty with no condition, is told as
    强制发动 (a judge reads 使用 as the holder's choice); a duty only under a condition is a
    use like any other."""
    from models.encoding.reach import Move, move_text
    from models.encoding.world import Binding
    told = {}
    for name, more in (("强制", {"tags": ["强制"]}), ("必须", {"mandatory": {"src": 3, "text": "每晚必须"}}),
                       ("有时", {"mandatory": {"src": 3, "text": "每晚必须", "if": {"has_status": ["self", "护盾"]}}}),
                       ("自愿", {})):
        raw = _raw([])
        raw["tags"] = [{"name": "强制", "src": 2, "meaning": "forced"}]
        raw["roles"][0]["skills"][0].update(more)
        skill = next(s for s in load_inline(raw, SOURCE).skills if s.name == "强击")
        told[name] = move_text(Move(skill, Binding(0, (1,)), skill.name))
    assert told["强制"] == told["必须"] == "P1 的【强击】强制发动，目标 P2", told
    assert told["有时"] == told["自愿"] == "P1 使用【强击】，目标 P2", told


def test_a_player_about_to_go_out_is_not_shown_as_alive():
    """A damage or a vote that dooms a player leaves them not yet out (待结算): the cast line
    says so rather than 存活, and a player out is 已出局 whatever else they hold."""
    from verifier.narrate import describe_player
    rs = load_inline(_raw([]), SOURCE)
    st = {("role", 0): "甲身份", ("faction", 0): "甲阵营", ("alive", 0): True, ("dying", 0): True,
          ("role", 1): "甲身份", ("faction", 1): "甲阵营", ("alive", 1): False, ("dying", 1): False,
          ("role", 2): "甲身份", ("faction", 2): "甲阵营", ("alive", 2): True, ("dying", 2): False}
    assert "即将出局（待结算）" in describe_player(rs, st, 0) and "存活" not in describe_player(rs, st, 0)
    assert "已出局" in describe_player(rs, st, 1)
    assert "存活" in describe_player(rs, st, 2) and "即将出局" not in describe_player(rs, st, 2)
