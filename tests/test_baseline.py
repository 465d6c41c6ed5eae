"""The committed findings/ must be what the engine produces now (a snapshot test): a change
to a ruleset or to the engine that changes any finding fails until `python -m verifier
baseline` is run and the diff reviewed."""
from __future__ import annotations

import os

import pytest

from verifier.baseline import bundled, render

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _cases() -> list:
    # the largest encodings take most of the suite's time: slow (skipped by -m "not slow")
    out = []
    for rid in bundled(os.path.join(ROOT, "rulesets")):
        big = os.path.getsize(os.path.join(ROOT, "rulesets", rid, "ruleset.yaml")) > 50_000
        out.append(pytest.param(rid, id=rid, marks=[pytest.mark.slow] if big else []))
    return out


@pytest.mark.parametrize("rid", _cases())
def test_committed_findings_are_current(rid: str, monkeypatch):
    monkeypatch.chdir(ROOT)
    # as `baseline` regenerates: the committed witnesses' games are asked for first
    for suffix, text in render(os.path.join("rulesets", rid), earlier=os.path.join("findings", rid + ".json")).items():
        path = os.path.join("findings", rid + suffix)
        assert os.path.exists(path), f"{path} missing: run python -m verifier baseline"
        with open(path, encoding="utf-8") as fh:
            assert fh.read() == text, f"{path} is stale: run python -m verifier baseline and review the diff"


def test_required_findings_are_in_the_baselines():
    """What the issue requires the engine to find on the bundled rulesets."""
    import json
    with open(os.path.join(ROOT, "findings", "zemu.json"), encoding="utf-8") as fh:
        zemu = json.load(fh)
    from cases import cases
    order = [f for f in cases(zemu["findings"]) if f["kind"] in ("order-dependence", "unknown")
             and {"老祖威压", "不可名状"} <= set(f["subjects"])]
    assert order, "老祖威压 × 不可名状 is neither witnessed nor reported as unconfirmed"
    f = order[0]
    if f["kind"] == "order-dependence":
        assert f["verdict"] == "witnessed" and f["scenario"]["outcomes"] and len(f["scenario"]["outcomes"]) == 2
        caster = f["scenario"]["roles"][0]
        assert "未持有" in caster and "[忠诚]" in caster.split("未持有", 1)[1].split("，", 1)[0]
    else:
        # found over the reachable-state over-approximation, but no game within the bounds
        # reproduces it: reported, never as a witness
        assert f["verdict"] == "unknown" and ("未能在对局中确认" in f["message"] or "没有合法对局走到" in f["message"])
    with open(os.path.join(ROOT, "findings", "s11.json"), encoding="utf-8") as fh:
        s11 = json.load(fh)
    # 吹笛 can never be charmed himself (line 89: 其他角色), so the piper faction can never win: proved
    piper = [f for f in s11["findings"] if f["kind"] == "impossible-win" and f["subjects"][0] == "吹笛阵营"]
    assert piper and piper[0]["verdict"] == "proved"
