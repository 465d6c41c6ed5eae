"""Game questions are asked for shorter games first, and the win-check triggers a first start
leaves undecided get their second start together, as one question."""
from __future__ import annotations

from models.encoding.reach import Trace
from models.encoding.solver import Answer, Solver
from models.encoding.win_check import WinCheck, triggers_after_win
from models.encoding.world import World
from models.loader import load_ruleset
from verifier.analyses import win_check
from verifier.analyses.base import Context
from verifier.analyses.win_check import WinCheckOrder

from test_win_check_questions import _hunter_ruleset, _trigger

SELF_GUARD = "tests/fixtures/ambiguity/bad_self_guard"


def test_a_reading_shown_on_the_first_night_needs_no_longer_game():
    """The guard protecting himself differs on the first night: the dealt game shows it, and
    no question about a longer game is asked."""
    from models.encoding.ambiguity import confirm_reading
    from verifier.analyses.influence import read_somewhere
    from verifier.analyses.pending import trace_skills
    rs = load_ruleset(SELF_GUARD)
    world = World(rs, int(rs.bounds["players"]))
    solver = Solver(world.ctx, int(rs.bounds["rlimit"]))
    [guard] = [s for s in rs.skills if s.name == "守护"]
    amb = rs.ambiguities[0]["name"]
    depth = int(rs.bounds["depth"])
    got = confirm_reading(world, solver, amb, guard, 0, 1, read_somewhere(rs), depth, trace_skills(rs, world))
    assert got.answer.sat and not got.moves
    assert set(solver.stats.by_purpose) == {"reading-game-0"}
    # asked for a game that is only a longer one, each shorter game is asked first
    solver.stats.by_purpose.clear()
    confirm_reading(world, solver, amb, guard, 0, 1, read_somewhere(rs), depth, trace_skills(rs, world),
                    living_targets=True, plain=True)
    assert list(solver.stats.by_purpose) == ["reading-game-0", "reading-game-1", "reading-game"][:depth + 1]


def _two_triggers():
    shot = _trigger("开枪", "went_out", {"out": {"who": "target"}})
    mark = _trigger("遗言", "went_out", {"grant_status": {"who": "target", "status": "标记"}})
    return _hunter_ruleset([mark, shot], 1)


def test_one_question_for_several_triggers_names_the_one_that_changes_the_winners():
    rs = _two_triggers()
    world = World(rs, 2)
    solver = Solver(world.ctx, int(rs.bounds["rlimit"]))
    by_name = {s.name: s for s in rs.skills}
    skills = [by_name["开枪"], by_name["遗言"]]
    depth, quiet = int(rs.bounds["depth"]), int(rs.bounds["quiet"])
    both = triggers_after_win(world, solver, [by_name["遗言"], by_name["开枪"]], skills, depth, quiet)
    assert both.trace.answer.sat and both.move.skill is by_name["开枪"]
    assert triggers_after_win(world, solver, [by_name["遗言"]], skills, depth, quiet).trace.answer.unsat


def test_the_undecided_triggers_get_one_second_start_together(monkeypatch):
    """Both first starts undecided (as zemu's are at its budget): one second start asks about
    both, finds the shot, and asks again about the mark alone."""
    rs = _two_triggers()
    world = World(rs, 2)
    cx = Context(rs, world, Solver(world.ctx, int(rs.bounds["rlimit"])), lang="zh")
    undecided = lambda *a, **k: WinCheck(Trace(Answer("unknown", reason="budget")))  # noqa: E731
    asked = []

    def spy(world, solver, triggers, *rest, **kw):
        asked.append(sorted(s.name for s in triggers))
        return triggers_after_win(world, solver, triggers, *rest, **kw)

    monkeypatch.setattr(win_check, "trigger_after_win", undecided)
    monkeypatch.setattr(win_check, "triggers_after_win", spy)
    found = list(WinCheckOrder().run(cx))
    assert asked == [["开枪", "遗言"], ["遗言"]]
    assert [f.subjects for f in found if f.verdict == "witnessed"] == [("开枪",)]
    assert not [f for f in found if f.kind == "unknown"]


def test_an_order_window_after_one_move_is_found_without_the_longest_game():
    """Two replacements on one death need the attack first: a game of one move shows it, so
    the game of `depth` moves is never asked for."""
    from verifier.engine import check
    report = check(load_ruleset("tests/fixtures/order-dependence/bad_two_replacements"), kinds=["order-dependence"])
    [f] = [f for f in report.findings if f.kind == "order-dependence" and f.verdict == "witnessed"]
    assert len(f.witness["game"]["moves"]) == 1
    assert sorted(p for p in report.seconds if p.startswith("order-game")) == ["order-game-0", "order-game-1"]


def test_a_win_two_moves_away_is_found_without_the_longest_game():
    """"Can it win at all?" asks one move, then two: a win two moves away needs no longer game."""
    from verifier.engine import check
    report = check(load_ruleset("tests/fixtures/impossible-win/good_all_must_be_charmed"), kinds=["impossible-win"])
    assert not report.findings
    asked = sorted(p for p in report.seconds if p.startswith("win-"))
    assert [p.rsplit("-", 1)[1] for p in asked] == ["1", "2"]


def test_no_game_longer_than_the_bound_is_asked():
    """At depth 1 the one-move game is the whole question (never a two-move one)."""
    import os

    import yaml

    from tests.inline_rulesets import load_inline
    from verifier.engine import check
    folder = "tests/fixtures/impossible-win/good_all_must_be_charmed"
    with open(os.path.join(folder, "ruleset.yaml"), encoding="utf-8") as fh:
        raw = yaml.safe_load(fh)
    with open(os.path.join(folder, "source.txt"), encoding="utf-8") as fh:
        source = fh.read()
    raw["bounds"]["depth"] = 1
    report = check(load_inline(raw, source), kinds=["impossible-win"])
    asked = sorted(p for p in report.seconds if p.startswith("win-"))
    assert asked and all(p.count("-") == 1 or p.endswith("-retry") for p in asked), asked
