"""The semantics of the language's seat, ballot, strength, target-set and per-window
constructs, checked on concrete states against their plain definitions."""
from __future__ import annotations

from itertools import product

import pytest
import z3

from models.encoding.reach import Transitions
from models.encoding.world import World
from inline_rulesets import load_inline

K = 4


def _load(raw: dict):
    return load_inline(raw, "# 来源: 用例\n甲、乙两种身份。\n")


def ruleset(extra_skill: dict | None = None, roles_strength=(10, None)):
    roles = [{"name": "甲", "src": 2, "faction": "甲阵营", "strength": roles_strength[0]},
             {"name": "乙", "src": 2, "faction": "乙阵营", "strength": roles_strength[1]}]
    if extra_skill:
        roles[0]["skills"] = [extra_skill]
    # a rule that reads ballots, so the world has them
    roles[1]["skills"] = [{"name": "看票", "src": 2, "timing": ["白天"],
                           "condition": {"count": {"top_voted": True}, "op": ">=", "value": 1},
                           "effects": [{"info": {"to": "self", "what": "票型"}}]}]
    raw = {"schema": "ruleset/v1", "id": "case", "title": "用例", "source": "source.txt",
           "bounds": {"players": K, "depth": 2},
           "phases": [{"name": "夜晚", "src": 2}, {"name": "白天", "src": 2}],
           "factions": [{"name": "甲阵营", "src": 2}, {"name": "乙阵营", "src": 2}],
           "counters": [{"name": "票", "src": 2, "scope": "per_player", "initial": 0}],
           "terms": [{"name": "幻影", "kind": "undefined", "src": 2}],
           "roles": roles}
    return _load(raw)


def holds(world: World, fixed: list, term) -> bool | None:
    """True / False when fixed decides term, None when both are possible."""
    s = z3.Solver(ctx=world.ctx)
    s.add(*fixed)
    can_true = s.check(term) == z3.sat
    can_false = s.check(z3.Not(term)) == z3.sat
    return None if can_true and can_false else can_true


def test_living_neighbours_skip_players_who_are_out():
    world = World(ruleset(), K)
    sem = world.sem
    for alive in product([True, False], repeat=K):
        st = world.state()
        fixed = [st[("alive", i)] == a for i, a in enumerate(alive)]
        for i in range(K):
            got = holds(world, fixed, sem.filter({"neighbour_of": {"of": "self", "living": True}}, i, {"self": 0}, st))
            # the first living seat clockwise and counter-clockwise from seat 0
            right = next((j for j in range(1, K) if alive[j]), None)
            left = next((j for j in range(K - 1, 0, -1) if alive[j]), None)
            assert got == (i in (right, left)), (alive, i)
            plain = holds(world, fixed, sem.filter({"neighbour_of": "self"}, i, {"self": 0}, st))
            assert plain == (i in (1, K - 1))


@pytest.mark.parametrize("rest_alive", [0, 2])
def test_at_a_larger_table_the_rest_sit_between_the_last_slot_and_the_first(rest_alive):
    from models.encoding.table import Table, at_table
    world = World(ruleset(), K)
    sem, ctx = world.sem, world.ctx
    table = Table(z3.IntVal(K + 3, ctx), {"乙": z3.IntVal(3, ctx)})
    for alive in product([True, False], repeat=K):
        st = world.state()
        fixed = [st[("alive", i)] == a for i, a in enumerate(alive)] + [st[("rest", "乙")] == rest_alive]
        with at_table(world, table):
            for i in range(K):
                got = holds(world, fixed, sem.filter({"neighbour_of": {"of": "self", "living": True}}, i, {"self": 0}, st))
                right = next((j for j in range(1, K) if alive[j]), None)
                # leftwards from seat 0 lie the rest's seats: passed only when all of them are out
                left = next((j for j in range(K - 1, 0, -1) if alive[j]), None) if rest_alive == 0 else None
                assert got == (i in (right, left)), (alive, i)
                plain = holds(world, fixed, sem.filter({"neighbour_of": "self"}, i, {"self": 0}, st))
                assert plain == (i == 1)   # slot 0 and the last slot have the rest between them


def test_top_voted_and_voters_follow_the_ballots():
    world = World(ruleset(), K)
    sem = world.sem
    ballots = (1, 1, 2, -1)
    st = world.state()
    fixed = [st[("alive", i)] for i in range(K)] + [st[("votes", i)] == 1 for i in range(K)]
    fixed += [st[("ballot", i)] == v for i, v in enumerate(ballots)] + [st[("received", i)] == 0 for i in range(K)]
    assert [holds(world, fixed, sem.filter({"top_voted": True}, i, {}, st)) for i in range(K)] == [False, True, False, False]
    assert [holds(world, fixed, sem.filter({"voted_for": "self"}, i, {"self": 1}, st)) for i in range(K)] == [True, True, False, False]
    # the one voted out voted for himself: his ballot still names him, living or not
    out = [c for c in fixed if not c.eq(st[("alive", 1)])] + [z3.Not(st[("alive", 1)])]
    assert [holds(world, out, sem.filter({"voted_for": "self"}, i, {"self": 1}, st)) for i in range(K)] == [True, True, False, False]
    assert [holds(world, out, sem.filter({"voted_for": "self", "alive": True}, i, {"self": 1}, st))
            for i in range(K)] == [True, False, False, False]
    # two extra votes for P3 make it a tie for the top
    fixed2 = fixed[:-K] + [st[("received", i)] == (1 if i == 2 else 0) for i in range(K)]
    assert [holds(world, fixed2, sem.filter({"top_voted": True}, i, {}, st)) for i in range(K)] == [False, True, True, False]


def test_vote_out_needs_the_most_votes():
    """With every vote weight 0 nobody can be voted out: the ballots decide who goes."""
    world = World(ruleset(), K)
    trans = Transitions(world, []).build()
    st0 = world.state()
    sel = z3.Int("sel", world.ctx)
    st1, extra = trans.step(st0, sel)
    vote_moves = [idx for idx, mv in enumerate(trans.moves) if mv.label == "vote"]
    someone_out = z3.Or([z3.And(st0[("alive", i)], z3.Not(st1[("alive", i)])) for i in range(K)])
    base = world.realizable(st0) + extra + [z3.Or([sel == idx for idx in vote_moves])]
    assert holds(world, base + [st0[("votes", i)] == 0 for i in range(K)] +
                 [st0[("received", i)] == 0 for i in range(K)], someone_out) is False
    assert holds(world, base + [st0[("votes", i)] == 1 for i in range(K)], someone_out) is True


def test_distinct_targets_and_strength():
    world = World(ruleset(), K)
    sem, sorts = world.sem, world.sorts
    st = world.state()
    roles = ["甲", "乙", "甲", "乙"]
    fixed = [st[("role", i)] == sorts.roles[r] for i, r in enumerate(roles)]
    fixed += [st[("faction", i)] == sorts.factions[r + "阵营"] for i, r in enumerate(roles)]
    distinct = {"distinct": {"targeted": True}, "by": "faction"}
    assert holds(world, fixed, sem.cond(distinct, {"self": 0, "$targets": (0, 1)}, st)) is True
    assert holds(world, fixed, sem.cond(distinct, {"self": 0, "$targets": (0, 2)}, st)) is False
    strong = {"count": {"strength": {"op": ">=", "value": 5}}, "op": "==", "value": 2}
    # 甲 has 10; 乙's strength is not given: unknown, so both answers are possible
    assert holds(world, fixed, sem.cond(strong, {}, st)) is None
    assert holds(world, fixed, sem.cond({"count": {"strength": {"op": ">=", "value": 5}}, "op": ">=", "value": 2}, {}, st))


def test_day_chance_used_counter_and_undefined_names():
    world = World(ruleset(), K)
    sem, sorts = world.sem, world.sorts
    st = world.state()
    assert holds(world, [], sem.cond({"day": 1}, {"$day": 1}, st)) is True
    assert holds(world, [], sem.cond({"day": {"op": ">=", "value": 2}}, {"$day": 1}, st)) is False
    assert holds(world, [], sem.cond({"day": 1}, {}, st)) is None
    assert holds(world, [], sem.cond({"chance": "被捕捉"}, {}, st)) is None
    # one chance is one fact: the same text is the same answer everywhere
    assert holds(world, [], z3.Xor(sem.cond({"chance": "被捕捉"}, {}, st), sem.cond({"chance": "被捕捉"}, {}, st))) is False
    assert holds(world, [], sem.cond({"used": ["self", "幻影"]}, {"self": 0}, st)) is False
    assert holds(world, [], sem.cond({"role": ["self", "幻影"]}, {"self": 0}, st)) is False
    fixed = [st[("counter", "票", i)] == i for i in range(K)]
    more = {"every": {"other": True}, "satisfies": {"counter": ["票", "<", {"counter": "票", "who": "self"}]}}
    assert holds(world, fixed, sem.cond(more, {"self": 3}, st)) is True
    assert holds(world, fixed, sem.cond(more, {"self": 2}, st)) is False


def test_chosen_subset_is_the_players_decision():
    world = World(ruleset(), K)
    sem = world.sem
    st = world.state()
    picks = sem.slots({"any_of": {"alive": True}}, {"self": 0}, st)
    fixed = [st[("alive", i)] for i in range(K)]
    assert all(holds(world, fixed, g) is None for _, g in picks)
    fixed_dead = [z3.Not(st[("alive", 1)])]
    assert holds(world, fixed_dead, dict(picks)[1]) is False


@pytest.mark.parametrize("kind", ["extra_use", "cooldown", "must_target", "disguise"])
def test_unmodelled_kinds_load_and_change_nothing_modelled(kind):
    args = {"extra_use": {"who": "self", "skill": "试", "count": 1},
            "cooldown": {"who": "self", "skill": "试", "add": 1},
            "must_target": {"who": "target", "target": "self"},
            "disguise": {"who": "self", "faction": "any", "role": "any"}}[kind]
    skill = {"name": "试", "src": 2, "timing": ["夜晚"], "targets": {"min": 1, "max": 1, "filter": {}},
             "effects": [{kind: args}]}
    rs = ruleset(skill)
    world = World(rs, K)
    st = world.state()
    sk = next(s for s in rs.skills if s.name == "试")
    from models.encoding.world import Binding
    new = world.run(st, sk, Binding(0, (1,)))
    # an extra use a day is kept only as the record of uses granted today (no outcome)
    assert all(new[key].eq(st[key]) for key in st.terms if key[0] != "extra")
    assert any(not new[key].eq(st[key]) for key in st.terms if key[0] == "extra") == (kind == "extra_use")


def test_status_blocks_only_skills_with_the_tags():
    raw_skills = [{"name": "普攻", "src": 2, "timing": ["夜晚"], "tags": ["普通"], "effects": [{"info": {"to": "self", "what": "a"}}]},
                  {"name": "团攻", "src": 2, "timing": ["夜晚"], "tags": ["普通", "团队"], "effects": [{"info": {"to": "self", "what": "b"}}]}]
    rs = ruleset()
    raw = dict(rs.raw)
    raw["tags"] = [{"name": "普通", "src": 2, "meaning": "normal"}, {"name": "团队", "src": 2, "meaning": "team"}]
    raw["statuses"] = [{"name": "牵制", "src": 2, "blocks_tags": ["普通"], "except_tags": ["团队"]}]
    raw["roles"] = [dict(raw["roles"][0], skills=raw_skills), raw["roles"][1]]
    rs = _load(raw)
    world = World(rs, K)
    from models.encoding.world import Binding
    st = world.state()
    fixed = [st[("role", 0)] == world.sorts.roles["甲"], st[("alive", 0)], st[("status", 0, "牵制")],
             z3.Not(st[("lost", 0, "普攻")]), z3.Not(st[("lost", 0, "团攻")])]
    plain, team = (next(s for s in rs.skills if s.name == n) for n in ("普攻", "团攻"))
    assert holds(world, fixed, world.enabled(st, plain, Binding(0))) is False
    assert holds(world, fixed, world.enabled(st, team, Binding(0))) is True


def test_vote_weights_sum_a_groups_votes():
    world = World(ruleset(), K)
    st = world.state()
    fixed = [st[("votes", i)] == v for i, v in enumerate((2, 1, 0, 1))]
    fixed += [st[("alive", i)] == a for i, a in enumerate((True, True, True, False))]
    term = world.sem.num({"vote_weights": {"alive": True}}, {}, st)
    assert holds(world, fixed, term == 3) is True


def test_initial_faction_is_the_dealt_identitys_after_a_flip():
    raw = dict(ruleset().raw)
    flip = {"name": "翻转", "src": 2, "timing": ["夜晚"], "effects": [{"set_role": {"who": "self", "to": "乙"}}]}
    raw["roles"] = [dict(raw["roles"][0], skills=[flip]), raw["roles"][1]]
    rs = _load(raw)
    world = World(rs, K)
    from models.encoding.world import Binding
    st = world.state()
    sk = next(s for s in rs.skills if s.name == "翻转")
    after = world.run(st, sk, Binding(0))
    fixed = world.initial(st) + [st[("role", 0)] == world.sorts.roles["甲"]]
    is_jia = world.sem.filter({"initial_faction": "甲阵营"}, 0, {}, after)
    assert holds(world, fixed, z3.And(after[("role", 0)] == world.sorts.roles["乙"], is_jia)) is True


def test_a_player_out_with_keeps_vote_still_votes():
    """At a vote-out, a player who is out casts a ballot only with a keeps_vote status; a ballot
    cast still counts for that tally after its voter goes out (the one voted out voted too)."""
    raw = dict(ruleset().raw)
    raw["statuses"] = [{"name": "虚体", "src": 2, "keeps_vote": True}]
    rs = _load(raw)
    world = World(rs, K)
    st = world.state()
    before = [st[("votes", i)] == 1 for i in range(K)] + [st[("received", i)] == 0 for i in range(K)]
    before += [z3.Not(st[("alive", 0)]), st[("alive", 1)], st[("alive", 2)], st[("alive", 3)]]
    trans = Transitions(world, []).build()
    guard, after = trans.ballots(st, st.set({("alive", 2): z3.BoolVal(False, world.ctx)}), 2, z3.BoolVal(True, world.ctx))
    cast = [after[("ballot", 0)] == 2, after[("ballot", 1)] == 2, after[("ballot", 2)] == 3, after[("ballot", 3)] == 1]
    # P1 (out) votes P3 only while holding 虚体; P3's own ballot for P4 still counts once P3 is out
    assert holds(world, before + [st[("status", 0, "虚体")], guard] + cast, world.sem.received(after, 2) == 2) is True
    s = z3.Solver(ctx=world.ctx)
    s.add(*(before + [z3.Not(st[("status", 0, "虚体")]), guard] + cast))
    assert s.check() == z3.unsat   # without 虚体 P1 casts no ballot
    assert holds(world, before + [st[("status", 0, "虚体")], guard] + cast, world.sem.received(after, 3) == 1) is True


def _tied_vote(voting: dict | None, sheriff_votes_p3: bool) -> bool:
    """Can P3 be voted out when P3 and P4 tie at the top (P1 votes P3, P2 votes P4)?"""
    raw = dict(ruleset().raw)
    raw["statuses"] = [{"name": "警长", "src": 2}]
    if voting:
        raw["voting"] = {"src": 2, **voting}
    world = World(_load(raw), K)
    st = world.state()
    before = [st[("votes", i)] == 1 for i in range(K)] + [st[("received", i)] == 0 for i in range(K)]
    before += [st[("alive", i)] for i in range(K)]
    before += [st[("status", 0, "警长")] == sheriff_votes_p3, st[("status", 1, "警长")] == (not sheriff_votes_p3)]
    before += [z3.Not(st[("status", i, "警长")]) for i in (2, 3)]
    trans = Transitions(world, []).build()
    guard, after = trans.ballots(st, st, 2, z3.BoolVal(True, world.ctx))
    cast = [after[("ballot", 0)] == 2, after[("ballot", 1)] == 3, after[("ballot", 2)] == -1, after[("ballot", 3)] == -1]
    s = z3.Solver(ctx=world.ctx)
    s.add(*(before + [guard] + cast))
    return s.check() == z3.sat


def test_a_tie_puts_nobody_out_only_when_the_text_says_so():
    assert not _tied_vote(None, False)   # silent text: a game never rests on a tie
    assert _tied_vote({"tie": "平票者中由导演决定"}, False)   # the text says what a tie does
    assert not _tied_vote({"tie_out": "none"}, True)
    brk = {"tie_out": "none", "tie_break": {"voted_by": {"has_status": "警长"}}}
    assert _tied_vote(brk, True)      # 警长投票对象出局
    assert not _tied_vote(brk, False)


def _with_targeted_skill() -> World:
    """The case ruleset where 甲 has 指, a [指定] skill."""
    raw = dict(ruleset().raw)
    raw["tags"] = [{"name": "指定", "src": 2, "meaning": "targeted"}]
    hit = {"name": "指", "src": 2, "timing": ["夜晚"], "tags": ["指定"], "targets": {"min": 1, "max": 1, "filter": {}},
           "effects": [{"info": {"to": "target", "what": "x"}}]}
    raw["roles"] = [dict(raw["roles"][0], skills=[hit]), raw["roles"][1]]
    return World(_load(raw), K)


def test_used_tag_on_reads_the_scenarios_window():
    world = _with_targeted_skill()
    st = world.state()
    window = {"$window": ((1, "指", (0,)), (2, "看票", ()))}
    f = {"used_tag_on": {"on": "self", "tag": "指定"}}
    assert holds(world, [], world.sem.filter(f, 1, {"self": 0, **window}, st)) is True
    # P3 used an untagged skill: unknown only outside the window's record (others may have acted)
    assert holds(world, [], world.sem.filter(f, 2, {"self": 0, **window}, st)) is None


def test_any_and_if_filters_choose_by_the_situation():
    # 若投票出局选投票者，否则选对自己使用过[指定]技能者 (one filter, two situations)
    world = _with_targeted_skill()
    st = world.state()
    f = {"any": [{"voted_for": "self", "if": {"cause": "投票出局"}},
                 {"used_tag_on": {"on": "self", "tag": "指定"}, "if": {"not": {"cause": "投票出局"}}}]}
    ballots = [st[("ballot", 1)] == 0, st[("ballot", 2)] == 3, st[("alive", 1)], st[("alive", 2)]]
    window = {"$window": ((2, "指", (0,)),)}
    voted_out = {"self": 0, "$cause": "投票出局", **window}
    other_out = {"self": 0, "$cause": "毒药", **window}
    assert holds(world, ballots, world.sem.filter(f, 1, voted_out, st)) is True    # voted for P1
    assert holds(world, ballots, world.sem.filter(f, 2, voted_out, st)) is False   # voted elsewhere
    assert holds(world, ballots, world.sem.filter(f, 2, other_out, st)) is True    # used 指 on P1
    assert holds(world, ballots, world.sem.filter(f, 1, other_out, st)) is None    # not in the record
    assert holds(world, [], world.sem.filter({"any": []}, 1, voted_out, st)) is False


@pytest.mark.parametrize("to, restricted", [("self", True), ("target", False)])
def test_an_item_only_its_takers_can_hold(to, restricted):
    # 兑换 (仅限甲): only 甲 takes the card for itself; handing it to a target lets anyone hold it
    raw = dict(ruleset().raw)
    raw["items"] = [{"name": "卡", "src": 2, "count": 1}]
    take = {"name": "兑换", "src": 2, "owner": {"role": "甲"}, "timing": ["夜晚"],
            "effects": [{"give_item": {"item": "卡", "to": to}}]}
    if to == "target":
        take["targets"] = {"min": 1, "max": 1, "filter": {}}
    raw["skills"] = [take]
    world = World(_load(raw), K)
    st = world.state()
    held_by_b = [st[("item", "卡")] == 1, st[("role", 1)] == world.sorts.roles["乙"]]
    assert holds(world, world.realizable(st) + held_by_b, z3.BoolVal(True, world.ctx)) is (not restricted)


def test_seats_at_a_larger_table_in_every_analysis():
    """The abstract search (a free rest of the table) and the game (a dealt rest) both read
    seats at a table larger than the slots."""
    from verifier.engine import check
    roles = [{"name": r, "src": 2, "faction": f"{r}阵营", "count": 2} for r in ("甲", "乙")]
    roles[0]["skills"] = [{"name": "邻击", "src": 2, "timing": ["夜晚"],
                           "targets": {"min": 1, "max": 1, "filter": {"neighbour_of": {"of": "self", "living": True}}},
                           "effects": [{"out": {"who": "target"}}]}]
    roles[1]["skills"] = [{"name": "邻护", "src": 2, "timing": ["夜晚"],
                           "targets": {"min": 1, "max": 1, "filter": {"neighbour_of": "self"}},
                           "effects": [{"prevent_out": {"who": "target"}}]}]
    raw = {"schema": "ruleset/v1", "id": "case", "title": "用例", "source": "source.txt",
           "bounds": {"players": K, "depth": 2}, "setup": {"src": 2, "players": {"min": 5, "max": 6, "src": 2}},
           "phases": [{"name": "夜晚", "src": 2}, {"name": "白天", "src": 2}],
           "factions": [{"name": "甲阵营", "src": 2}, {"name": "乙阵营", "src": 2}], "roles": roles}
    report = check(_load(raw)).to_json()
    for f in report["findings"]:
        for line in (f.get("scenario") or {}).get("roles") or []:
            if line.startswith("其余"):
                assert "其余玩家坐在" in line   # a story at the larger table says where everyone sits


def test_a_neighbour_read_in_a_confirmed_use_is_anchored_at_an_inner_slot():
    """At a table larger than the slots the first and the last slot sit beside players the
    engine does not name: a use reading neighbours is confirmed anchored at an inner slot."""
    from models.encoding.reach import inner_bindings, seat_anchors
    roles = [{"name": r, "src": 2, "faction": f"{r}阵营", "count": 2} for r in ("甲", "乙")]
    one = {"min": 1, "max": 1, "filter": {"alive": True}}
    roles[0]["skills"] = [
        {"name": "照邻", "src": 2, "timing": ["夜晚"], "targets": one,
         "effects": [{"grant_status": {"who": {"neighbour_of": "target"}, "status": "光"}}]},
        {"name": "护邻", "src": 2, "timing": ["夜晚"],
         "effects": [{"grant_status": {"who": {"neighbour_of": {"of": "self", "living": True}}, "status": "光"}}]}]
    raw = {"schema": "ruleset/v1", "id": "case", "title": "用例", "source": "source.txt",
           "bounds": {"players": K, "depth": 2}, "setup": {"src": 2, "players": {"min": 5, "max": 6, "src": 2}},
           "phases": [{"name": "夜晚", "src": 2}], "statuses": [{"name": "光", "src": 2, "blocks": []}],
           "factions": [{"name": "甲阵营", "src": 2}, {"name": "乙阵营", "src": 2}], "roles": roles}
    rs = _load(raw)
    world = World(rs, K)
    by_target, by_self = rs.skills[0], rs.skills[1]
    got = inner_bindings(world, by_target)
    assert got and all(b.self_slot == 0 and all(0 < t < K - 1 for t in b.targets) for b in got)
    assert seat_anchors(by_target, got[0]) == set(got[0].targets)
    got = inner_bindings(world, by_self)
    assert got and all(b.self_slot == 1 for b in got)
