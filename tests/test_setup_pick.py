"""Random picks at setup are decided at the deal for every player count of the setup's range:
the card-count computation and the solver over the dealt table agree, and the counts checked
are said when the text does not state them."""
from __future__ import annotations

import os
import shutil

import yaml

from models.encoding.setup_pick import SmtPick, _direct, setup_pick
from models.encoding.solver import Solver
from models.encoding.world import World
from models.loader import load_ruleset
from verifier.analyses.missing import counts_text, random_picks

HERE = os.path.dirname(os.path.abspath(__file__))
BAD = os.path.join(HERE, "fixtures", "missing-rule", "bad_setup_random_pick")


def _pick(path: str):
    rs = load_ruleset(path)
    world = World(rs)
    solver = Solver(world.ctx, int(rs.bounds["rlimit"]))
    skill = next(s for s in rs.skills if random_picks(s.all_effects()))
    effect, flt = random_picks(skill.all_effects())[0]
    return world, solver, skill, effect, flt


def test_cards_and_solver_agree_at_every_count():
    world, solver, skill, effect, flt = _pick(BAD)
    direct = _direct(world, skill, effect, flt)
    assert direct is not None, "a pick by faction from a setup trigger is decided from the cards"
    smt = SmtPick(world, solver, skill, effect, flt)
    for n in (5, 6, 7):
        by_cards = direct(n)
        by_solver = smt.at(n)
        assert by_cards.answer == by_solver.answer, n
        assert by_cards.answer == ("empty" if n == 5 else "never"), n
        for got in (by_cards, by_solver):
            if got.answer == "empty":
                assert sum(got.deal.values()) == n and got.deal.get("长老") and not got.deal.get("村民")


def _variant(tmp_path, players):
    dst = tmp_path / "variant"
    shutil.copytree(BAD, dst)
    raw = yaml.safe_load((dst / "ruleset.yaml").read_text(encoding="utf-8"))
    if players is None:
        del raw["setup"]["players"]
    else:
        raw["setup"]["players"] = players
    (dst / "ruleset.yaml").write_text(yaml.safe_dump(raw, allow_unicode=True), encoding="utf-8")
    return str(dst)


def test_open_top_and_no_range_say_what_was_checked(tmp_path):
    got = setup_pick(*_pick(_variant(tmp_path, {"min": 5, "src": 2})))
    assert [c.n for c in got.counts] == list(range(5, 11)) and "5–10" in got.checked
    assert got.where("empty") == [5]
    got = setup_pick(*_pick(_variant(tmp_path / "none", None)))
    assert got.route == "smt" and "3 名玩家" in got.checked and got.where("empty") == [3]


def test_counts_text():
    assert counts_text([15, 16, 17, 18, 20]) == "15–18、20"
    assert counts_text([5, 6]) == "5、6"
