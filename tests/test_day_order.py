"""The order of a day in every game a trace plays, and in the interpreter's replay of it:
voting.phase (a vote-out keeps its place among the day's phases: 第一天的投票只用于确定警长, so
the first vote-out comes after the first night), voting.first_out_day (第一天只选神眷), and a
phase's start or end happening once a day (its trigger fires once for each holder)."""
from __future__ import annotations

import json


from models.encoding import reach
from models.encoding.solver import Solver
from models.encoding.world import World
from verifier.narrate import game_json, table_json

from game_replay import replay_game, replays_only_with_its_new_days
from inline_rulesets import load_inline

ROLES = ["甲", "乙", "丙", "丁"]


def _ruleset(vote_phase: str | None):
    roles = [{"name": r, "src": 2, "faction": f"{r}阵营", "count": 1} for r in ROLES]
    # 甲 can mark a player only once 乙 is out
    roles[0]["skills"] = [{"name": "标记", "src": 3, "timing": ["夜晚"], "targets": {"min": 1, "max": 1, "filter": {"alive": True}},
                           "condition": {"none": {"role": "乙", "alive": True}},
                           "effects": [{"grant_status": {"who": "target", "status": "印记", "duration": "permanent"}}]}]
    factions = [{"name": f"{r}阵营", "src": 2} for r in ROLES]
    voting = {"src": 4, "weight_default": 1, "tie": None}
    if vote_phase:
        voting["phase"] = vote_phase
    raw = {"schema": "ruleset/v1", "id": "case", "title": "用例", "source": "source.txt",
           "bounds": {"players": 4, "depth": 2}, "setup": {"src": 2, "players": {"min": 4, "max": 4, "src": 2}},
           "phases": [{"name": "夜晚", "src": 4}, {"name": "白天", "src": 4}],
           "statuses": [{"name": "印记", "src": 3, "permanent": True}],
           "factions": factions, "roles": roles, "voting": voting}
    return load_inline(raw, "# 来源: 用例\n甲、乙、丙、丁四种身份，各一张。\n乙出局后，甲每晚可以给一名角色印记。\n"
                            "每天先夜晚、后白天，白天投票出局一人。\n")


def _marked(rs, depth: int):
    world = World(rs, 4)
    solver = Solver(world.ctx, int(rs.bounds["rlimit"]))
    goal = lambda st: z3_any(st[("status", i, "印记")] for i in range(4))   # noqa: E731
    return reach.bounded_trace(world, solver, goal, depth, "mark", list(rs.skills))


def z3_any(terms):
    import z3
    return z3.Or(list(terms))


def test_without_a_vote_phase_the_vote_may_come_before_the_night():
    trace = _marked(_ruleset(None), 2)
    assert trace.answer.sat and trace.steps[0].endswith("被投票出局")


def test_with_it_the_vote_waits_for_the_next_day_and_the_replay_agrees():
    rs = _ruleset("白天")
    assert _marked(rs, 2).answer.unsat        # vote, then 夜晚 on the same day: not a game
    trace = _marked(rs, 3)
    assert trace.answer.sat and trace.steps[0].endswith("被投票出局") and trace.steps[1] == "第 2 天开始"
    # the interpreter reads the vote's phase from the YAML: the same game without the new day is no game
    _replays_only_with_its_new_day(rs, trace, "earlier the same day")


def _replays_only_with_its_new_day(rs, trace, why_not: str) -> None:
    w = {"kind": "trace", "steps": trace.steps, "claim": {}, **table_json(trace.table), **game_json(trace)}
    replays_only_with_its_new_days(rs, w, why_not)


def _first_out_ruleset(first_out_day: int | None):
    roles = [{"name": r, "src": 2, "faction": f"{r}阵营", "count": 1} for r in ROLES]
    factions = [{"name": f"{r}阵营", "src": 2} for r in ROLES]
    factions[0]["win"] = {"none": {"role": "乙", "alive": True}}   # 乙 voted out: 甲 wins
    voting = {"src": 3, "weight_default": 1, "tie": None}
    if first_out_day:
        voting |= {"first_out_day": first_out_day, "first_out_src": 3}
    raw = {"schema": "ruleset/v1", "id": "case", "title": "用例", "source": "source.txt",
           "bounds": {"players": 4, "depth": 2}, "setup": {"src": 2, "players": {"min": 4, "max": 4, "src": 2}},
           "phases": [{"name": "白天", "src": 3}, {"name": "夜晚", "src": 3}],
           "factions": factions, "roles": roles, "voting": voting}
    return load_inline(raw, "# 来源: 用例\n甲、乙、丙、丁四种身份，各一张。\n第一天白天的投票只选出神眷，第二天起得票最多者出局。\n")


def _win_trace(rs, depth: int):
    world = World(rs, 4)
    solver = Solver(world.ctx, int(rs.bounds["rlimit"]))
    return reach.bounded_trace(world, solver, lambda st: reach.faction_goal(world, st, "甲阵营"), depth, "win", [])


def test_without_a_first_out_day_day_one_votes_put_a_player_out():
    trace = _win_trace(_first_out_ruleset(None), 1)
    assert trace.answer.sat and trace.steps[-1].endswith("被投票出局")


def test_with_it_the_first_vote_out_is_on_day_two_and_the_replay_agrees():
    rs = _first_out_ruleset(2)
    assert _win_trace(rs, 1).answer.unsat      # one move: still day 1
    trace = _win_trace(rs, 2)
    assert trace.answer.sat and trace.steps[0] == "第 2 天开始" and trace.steps[1].endswith("被投票出局")
    w = {"kind": "trace", "steps": trace.steps, "claim": {"win": ["甲阵营"]}, **table_json(trace.table),
         **game_json(trace)}
    # the interpreter reads the rule from the YAML: the same vote on day 1 is no game
    replays_only_with_its_new_days(rs, w, "before day 2")


def _tally_ruleset():
    roles = [{"name": r, "src": 2, "faction": f"{r}阵营", "count": 1} for r in ROLES]
    roles[0]["skills"] = [{"name": "计夜", "src": 3, "trigger": {"event": "phase_end", "phase": "夜晚"},
                           "effects": [{"counter": {"name": "夜数", "op": "add", "value": 1, "who": "self"}}]}]
    raw = {"schema": "ruleset/v1", "id": "case", "title": "用例", "source": "source.txt",
           "bounds": {"players": 4, "depth": 3}, "setup": {"src": 2, "players": {"min": 4, "max": 4, "src": 2}},
           "phases": [{"name": "夜晚", "src": 3}, {"name": "白天", "src": 3}],
           "counters": [{"name": "夜数", "src": 3, "scope": "per_player", "initial": 0, "min": 0}],
           "factions": [{"name": f"{r}阵营", "src": 2} for r in ROLES], "roles": roles}
    return load_inline(raw, "# 来源: 用例\n甲、乙、丙、丁四种身份，各一张。\n每个夜晚结束时，甲的夜数加一。\n")


def test_a_phase_ends_once_a_day():
    rs = _tally_ruleset()
    world = World(rs, 4)
    solver = Solver(world.ctx, int(rs.bounds["rlimit"]))
    goal = lambda st: z3_any(st[("counter", "夜数", i)] >= 2 for i in range(4))   # noqa: E731
    assert reach.bounded_trace(world, solver, goal, 2, "tally", list(rs.skills)).answer.unsat
    trace = reach.bounded_trace(world, solver, goal, 3, "tally", list(rs.skills))
    assert trace.answer.sat and trace.steps[1] == "第 2 天开始"
    _replays_only_with_its_new_day(rs, trace, "twice in one day")


def test_a_condition_on_the_day_reads_the_day_of_the_move():
    """{day: 2}: each step of a trace is on its own day (第 2 天 after one new day), and the
    interpreter's replay puts the same day in the condition."""
    roles = [{"name": r, "src": 2, "faction": f"{r}阵营", "count": 1} for r in ROLES]
    roles[0]["skills"] = [{"name": "标记", "src": 3, "timing": ["夜晚"], "targets": {"min": 1, "max": 1, "filter": {"alive": True}},
                           "condition": {"day": 2},
                           "effects": [{"grant_status": {"who": "target", "status": "印记", "duration": "permanent"}}]}]
    raw = {"schema": "ruleset/v1", "id": "case", "title": "用例", "source": "source.txt",
           "bounds": {"players": 4, "depth": 2}, "setup": {"src": 2, "players": {"min": 4, "max": 4, "src": 2}},
           "phases": [{"name": "夜晚", "src": 3}, {"name": "白天", "src": 3}],
           "statuses": [{"name": "印记", "src": 3, "permanent": True}],
           "factions": [{"name": f"{r}阵营", "src": 2} for r in ROLES], "roles": roles}
    rs = load_inline(raw, "# 来源: 用例\n甲、乙、丙、丁四种身份，各一张。\n第二天夜晚，甲可以给一名角色印记。\n")
    assert _marked(rs, 1).answer.unsat        # one move: still day 1
    trace = _marked(rs, 2)
    assert trace.answer.sat and trace.steps[0] == "第 2 天开始"
    _replays_only_with_its_new_day(rs, trace, "cannot be used here")


def test_a_forced_skill_is_not_passed_over():
    """[强制] 标记 at night: a day cannot reach its 白天 while 甲 could still have marked someone."""
    import z3
    roles = [{"name": r, "src": 2, "faction": f"{r}阵营", "count": 1} for r in ROLES]
    roles[0]["skills"] = [{"name": "标记", "src": 3, "timing": ["夜晚"], "tags": ["强制"],
                           "targets": {"min": 1, "max": 1, "filter": {"alive": True}},
                           "effects": [{"grant_status": {"who": "target", "status": "印记", "duration": "permanent"}}]}]
    roles[1]["skills"] = [{"name": "宣告", "src": 4, "timing": ["白天"],
                           "effects": [{"grant_status": {"who": "self", "status": "宣", "duration": "permanent"}}]}]
    raw = {"schema": "ruleset/v1", "id": "case", "title": "用例", "source": "source.txt",
           "bounds": {"players": 4, "depth": 2}, "setup": {"src": 2, "players": {"min": 4, "max": 4, "src": 2}},
           "phases": [{"name": "夜晚", "src": 3}, {"name": "白天", "src": 4}],
           "tags": [{"name": "强制", "src": 3, "meaning": "forced"}],
           "statuses": [{"name": "印记", "src": 3, "permanent": True}, {"name": "宣", "src": 4, "permanent": True}],
           "factions": [{"name": f"{r}阵营", "src": 2} for r in ROLES], "roles": roles,
           "voting": {"src": 5, "weight_default": 1, "tie": None, "phase": "白天"}}
    rs = load_inline(raw, "# 来源: 用例\n甲、乙、丙、丁四种身份，各一张。\n甲每晚必须[强制]给一名角色印记。\n"
                          "乙白天可以宣告。\n每天先夜晚、后白天，白天投票出局一人。\n")
    world = World(rs, 4)
    solver = Solver(world.ctx, int(rs.bounds["rlimit"]))
    unmarked = lambda st: z3.And(z3.Or([st[("status", i, "宣")] for i in range(4)]),  # noqa: E731
                                 z3.Not(z3.Or([st[("status", i, "印记")] for i in range(4)])))
    assert reach.bounded_trace(world, solver, unmarked, 2, "unmarked", list(rs.skills)).answer.unsat
    marked = lambda st: z3.Or([st[("status", i, "宣")] for i in range(4)])  # noqa: E731
    trace = reach.bounded_trace(world, solver, marked, 2, "marked", list(rs.skills))
    assert trace.answer.sat and "【标记】" in trace.steps[0]
    w = {"kind": "trace", "steps": trace.steps, "claim": {}, **table_json(trace.table), **game_json(trace)}
    assert replay_game(rs, w)[0]
    skipped = json.loads(json.dumps(w))
    skipped["game"]["moves"] = [mv for mv in skipped["game"]["moves"] if "标记" not in str(mv.get("skill"))]
    ok, why = replay_game(rs, skipped)
    assert not ok and "forced" in why


def test_a_shared_once_per_game_skill_is_used_once_by_the_team():
    """uses {count: 1, per: game, shared: true}: the team's one use (所有狼人选择一名角色)."""
    import z3
    roles = [{"name": "甲", "src": 2, "faction": "狼阵营", "count": 2},
             {"name": "乙", "src": 2, "faction": "民阵营", "count": 2}]
    raw = {"schema": "ruleset/v1", "id": "case", "title": "用例", "source": "source.txt",
           "bounds": {"players": 4, "depth": 3}, "setup": {"src": 2, "players": {"min": 4, "max": 4, "src": 2}},
           "phases": [{"name": "夜晚", "src": 3}, {"name": "白天", "src": 3}],
           "statuses": [{"name": "印记", "src": 3, "permanent": True}],
           "factions": [{"name": "狼阵营", "src": 2}, {"name": "民阵营", "src": 2}], "roles": roles,
           "skills": [{"name": "藏", "src": 3, "owner": {"faction": "狼阵营"}, "timing": ["夜晚"],
                       "uses": {"count": 1, "per": "game", "shared": True},
                       "targets": {"min": 1, "max": 1, "filter": {"alive": True}},
                       "effects": [{"grant_status": {"who": "target", "status": "印记", "duration": "permanent"}}]}]}
    rs = load_inline(raw, "# 来源: 用例\n甲两张（狼阵营），乙两张（民阵营）。\n所有狼人共同选择一名角色给予印记，一局一次。\n")
    world = World(rs, 4)
    solver = Solver(world.ctx, int(rs.bounds["rlimit"]))
    two = lambda st: z3.Sum([z3.If(st[("status", i, "印记")], 1, 0) for i in range(4)]) >= 2  # noqa: E731
    assert reach.bounded_trace(world, solver, two, 3, "two", list(rs.skills)).answer.unsat
    one = lambda st: z3.Or([st[("status", i, "印记")] for i in range(4)])  # noqa: E731
    assert reach.bounded_trace(world, solver, one, 1, "one", list(rs.skills)).answer.sat


def test_a_setup_phase_is_over_in_a_game():
    import z3

    """{phase: P} for a phase that happens once at setup never holds for a move of the game:
    a skill usable 游戏开始前 or on day 1 cannot be used on day 2."""
    import z3
    roles = [{"name": r, "src": 2, "faction": f"{r}阵营", "count": 1} for r in ROLES]
    roles[0]["skills"] = [{"name": "标记", "src": 3, "timing": ["游戏开始前", "白天"],
                           "targets": {"min": 1, "max": 1, "filter": {"alive": True}},
                           "condition": {"any": [{"phase": "游戏开始前"}, {"day": 1}]},
                           "effects": [{"grant_status": {"who": "target", "status": "印记", "duration": "permanent"}}]}]
    raw = {"schema": "ruleset/v1", "id": "case", "title": "用例", "source": "source.txt",
           "bounds": {"players": 4, "depth": 2}, "setup": {"src": 2, "players": {"min": 4, "max": 4, "src": 2}},
           "phases": [{"name": "游戏开始前", "src": 3, "once": True}, {"name": "白天", "src": 3}],
           "statuses": [{"name": "印记", "src": 3, "permanent": True}],
           "factions": [{"name": f"{r}阵营", "src": 2} for r in ROLES], "roles": roles}
    rs = load_inline(raw, "# 来源: 用例\n甲、乙、丙、丁四种身份，各一张。\n甲在第一天白天之前可以给一名角色印记。\n")
    world = World(rs, 4)
    solver = Solver(world.ctx, int(rs.bounds["rlimit"]))
    marks = lambda st: z3.Sum([z3.If(st[("status", i, "印记")], 1, 0) for i in range(4)])  # noqa: E731
    # on day 1 only (once a phase): a second mark (day 2) is no game
    assert reach.bounded_trace(world, solver, lambda st: marks(st) >= 2, 3, "two", list(rs.skills)).answer.unsat
    trace = reach.bounded_trace(world, solver, lambda st: marks(st) >= 1, 1, "one", list(rs.skills))
    assert trace.answer.sat
    late = {"kind": "trace", "steps": [], "claim": {}, **table_json(trace.table), **game_json(trace)}
    late["game"]["moves"] = [{"move": "day"}] + late["game"]["moves"]
    if late["game"]["moves"][1:]:
        assert not replay_game(rs, late)[0]


def _expiry_ruleset():
    """甲 marks at night; 乙's trigger at the start of 白天 takes every mark away; 丙 can look
    at a marked player in 白天. A mark survives to 白天 only once 乙 is out."""
    roles = [{"name": r, "src": 2, "faction": f"{r}阵营", "count": 1} for r in ROLES]
    roles[0]["skills"] = [{"name": "标记", "src": 3, "timing": ["夜晚"], "targets": {"min": 1, "max": 1, "filter": {"alive": True}},
                           "effects": [{"grant_status": {"who": "target", "status": "印记", "duration": "permanent"}}]}]
    roles[1]["skills"] = [{"name": "驱散", "src": 4, "trigger": {"event": "phase_start", "phase": "白天"},
                           "effects": [{"remove_status": {"who": {"has_status": "印记"}, "status": "印记"}}]}]
    roles[2]["skills"] = [{"name": "检视", "src": 5, "timing": ["白天"],
                           "targets": {"min": 1, "max": 1, "filter": {"has_status": "印记"}},
                           "effects": [{"grant_status": {"who": "target", "status": "已检视", "duration": "permanent"}}]}]
    raw = {"schema": "ruleset/v1", "id": "case", "title": "用例", "source": "source.txt",
           "bounds": {"players": 4, "depth": 3}, "setup": {"src": 2, "players": {"min": 4, "max": 4, "src": 2}},
           "phases": [{"name": "夜晚", "src": 3}, {"name": "白天", "src": 4}],
           "statuses": [{"name": "印记", "src": 3}, {"name": "已检视", "src": 5, "permanent": True}],
           "factions": [{"name": f"{r}阵营", "src": 2} for r in ROLES], "roles": roles,
           "voting": {"src": 6, "weight_default": 1, "tie": None}}
    return load_inline(raw, "# 来源: 用例\n甲、乙、丙、丁四种身份，各一张。\n甲每晚可以给一名角色印记。\n"
                            "每个白天开始时，乙去除所有印记。\n丙白天可以检视一名有印记的角色。\n每天投票出局一人。\n")


def test_a_phase_trigger_is_not_skipped_and_the_replay_agrees():
    """A trigger on a phase's start fires whenever it would change something: 标记 then 检视
    on one day is no game while 乙 is in it, and the interpreter refuses it too."""
    rs = _expiry_ruleset()
    world = World(rs, 4)
    solver = Solver(world.ctx, int(rs.bounds["rlimit"]))
    goal = lambda st: z3_any(st[("status", i, "已检视")] for i in range(4))   # noqa: E731
    assert reach.bounded_trace(world, solver, goal, 2, "look", list(rs.skills)).answer.unsat
    trace = reach.bounded_trace(world, solver, goal, 3, "look", list(rs.skills))
    assert trace.answer.sat, trace.steps
    w = {"kind": "trace", "steps": trace.steps, "claim": {}, **table_json(trace.table), **game_json(trace)}
    assert replay_game(rs, w)[0]
    # 乙 is voted out before the look (the vote has no phase of its own: before the night's
    # mark or after it, but before 白天 begins)
    moves = w["game"]["moves"]
    vote = next(n for n, mv in enumerate(moves) if mv["move"] == "vote")
    assert vote < len(moves) - 1 and any(s.endswith("被投票出局") for s in trace.steps), trace.steps
    skipped = json.loads(json.dumps(w))
    skipped["game"]["moves"] = moves[:vote] + moves[vote + 1:]     # 乙 stays in the game
    ok, why = replay_game(rs, skipped)
    assert not ok and "驱散 is forced" in why, why
