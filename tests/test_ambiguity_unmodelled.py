"""A reading that only decides who is told what (an info effect) is not proved harmless by the
same modelled outcome: it is an unknown, naming the skill."""
from __future__ import annotations

import os

import yaml

from tests.inline_rulesets import load_inline
from verifier.engine import check

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "ambiguity", "bad_self_guard")


def _finding(guarded_kind: str):
    with open(os.path.join(HERE, "ruleset.yaml"), encoding="utf-8") as fh:
        raw = yaml.safe_load(fh)
    with open(os.path.join(HERE, "source.txt"), encoding="utf-8") as fh:
        source = fh.read()
    guard = raw["roles"][1]["skills"][0]
    guard["targets"]["filter"] = {"alive": True}
    effect = {"info": {"to": "self", "what": "目标的身份"}} if guarded_kind == "info" else \
        {"grant_status": {"who": "target", "status": "被守护"}}
    guard["effects"].append({**effect, "if": {"reading": ["卫士能否守护自己", "可以"]}, "src": 4})
    [f] = [f for f in check(load_inline(raw, source), kinds=["ambiguity"]).findings if "卫士能否守护自己" in f.subjects]
    return f


def test_a_reading_of_an_info_effect_is_unknown_not_harmless():
    f = _finding("info")
    assert f.kind == "unknown" and "未建模" in f.message and "【守护】" in f.message
    # the same guard on an effect the engine models (granted anyway: no difference) is harmless
    g = _finding("status")
    assert g.kind == "ambiguity" and "无害" in g.message
