"""Every witnessed game (a finding whose witness carries a "game": simultaneous wins, a win
at setup, a shot against the win check, the game leading to an order question's window or to an
empty pick, a trigger cycle going round) is replayed by the independent interpreter as a
whole game (tests/game_replay.py): on the fixtures as checked now, and on every committed
baseline."""
from __future__ import annotations

import json
import os

import pytest

from game_replay import replay_game
from models.loader import load_ruleset
from verifier.engine import check

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = ["simultaneous-win/bad_same_moment", "simultaneous-win/bad_repeatable_brand",
            "simultaneous-win/bad_count_at_table", "order-dependence/bad_shot_vs_win_check",
            "setup/bad_win_at_setup", "order-dependence/bad_block_before_action",
            "order-dependence/bad_two_replacements", "missing-rule/bad_empty_pick", "contradiction/bad_win_and_lose",
            "missing-rule/bad_lost_faction_back", "loop/bad_prevented_going_out", "loop/bad_revive_pingpong",
            "loop/bad_status_pingpong", "loop/bad_energy_cycle", "loop/bad_use_skill_self",
            "ambiguity/bad_self_guard"]
BUNDLED = sorted(d for d in os.listdir(os.path.join(ROOT, "rulesets"))
                 if os.path.isfile(os.path.join(ROOT, "findings", f"{d}.json")))


def _games(doc: dict) -> list[dict]:
    """Every finding with a game, and every example of one cause that a finding carries."""
    every = [x for f in doc["findings"] for x in [f] + list(f.get("examples") or [])]
    return [f for f in every if (f.get("witness") or {}).get("game") is not None]


@pytest.mark.parametrize("name", FIXTURES)
def test_fixture_games_replay(name):
    rs = load_ruleset(os.path.join(ROOT, "tests", "fixtures", name))
    doc = check(rs).to_json()
    games = _games(doc)
    assert games, f"{name}: no witnessed game to replay"
    for f in games:
        ok, why = replay_game(rs, f["witness"])
        assert ok, f"{name}: {f['message']} does not replay: {why}"


@pytest.mark.parametrize("rid", BUNDLED)
def test_committed_games_replay(rid):
    rs = load_ruleset(os.path.join(ROOT, "rulesets", rid))
    with open(os.path.join(ROOT, "findings", f"{rid}.json"), encoding="utf-8") as fh:
        doc = json.load(fh)
    bad = []
    for f in _games(doc):
        ok, why = replay_game(rs, f["witness"])
        if not ok:
            bad.append(f"{f.get('id', 'example')} {f['message']}: {why}")
    assert not bad, "\n".join(bad)


def test_replay_rejects_an_illegal_game():
    """The replay is not a rubber stamp: the same witness with a move removed or repeated fails."""
    rs = load_ruleset(os.path.join(ROOT, "tests", "fixtures", "order-dependence/bad_shot_vs_win_check"))
    w = next(f["witness"] for f in _games(check(rs).to_json()))
    broken = json.loads(json.dumps(w))
    broken["game"]["moves"] = broken["game"]["moves"] * 2     # play on after the game ended
    assert not replay_game(rs, broken)[0]
    broken = json.loads(json.dumps(w))
    broken["game"]["quiet"] = broken["game"]["quiet"] + ["民"] * 5   # more players voted out than dealt
    assert not replay_game(rs, broken)[0]


def test_replay_refuses_a_cycle_that_does_not_go_round():
    """A loop's claim is checked: the same witness without the move that starts the round
    (nobody is about to go out) is refused."""
    import copy
    rs = load_ruleset(os.path.join(ROOT, "tests", "fixtures", "loop", "bad_prevented_going_out"))
    w = next(f["witness"] for f in _games(check(rs).to_json()) if "cycle" in f["witness"]["claim"])
    assert replay_game(rs, w)[0]
    early = copy.deepcopy(w)
    early["game"]["moves"] = []
    ok, why = replay_game(rs, early)
    assert not ok and "claim" in why, why


def test_replay_refuses_a_reading_that_changes_nothing():
    """An ambiguity's claim is checked: the same witness with the use aimed elsewhere (where
    the two readings agree) is refused."""
    import copy
    rs = load_ruleset(os.path.join(ROOT, "tests", "fixtures", "ambiguity", "bad_self_guard"))
    w = next(f["witness"] for f in _games(check(rs, kinds=["ambiguity"]).to_json()) if "reading" in f["witness"]["claim"])
    assert replay_game(rs, w)[0]
    elsewhere = copy.deepcopy(w)
    use = elsewhere["claim"]["reading"]["use"]
    use["targets"] = [next(i for i in range(4) if i != use["self"])]
    elsewhere["game"]["window"] = [use]
    ok, why = replay_game(rs, elsewhere)
    assert not ok and "claim" in why, why


def test_a_loops_cast_is_the_game_as_dealt_and_the_round_starts_from_now():
    """The cast of a loop is the game as setup left it; what the moves before the round
    changed (the spark a night skill lit) is told at the round's start (此时：…)."""
    from verifier.narrate import describe_player
    rs = load_ruleset(os.path.join(ROOT, "tests", "fixtures", "loop", "bad_status_pingpong"))
    f = next(f for f in check(rs, kinds=["loop"]).to_json()["findings"] if f["kind"] == "loop")
    start = {tuple(int(p) if p.isdigit() else p for p in k.split("|")): v
             for k, v in f["witness"]["game"]["start"].items()}
    roles = [r for r in f["scenario"]["roles"] if r.startswith("P")]
    assert roles == [describe_player(rs, start, i, dealt=True) for i in range(len(roles))]
    assert not any("火种" in r for r in roles), roles
    now = next(s for s in f["scenario"]["steps"] if s.startswith("此时："))
    assert "火种" in now, f["scenario"]["steps"]
