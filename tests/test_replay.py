"""Replay the engine's order-dependence witnesses on the bundled rulesets through the
independent brute-force interpreter (tests/brute_force.py).

For every finding of kind order-dependence that carries a witness, the concrete start
state is rebuilt from the witness ("key|parts" -> value), the scene and both orders are
run by the interpreter, and the two final states must differ exactly on the keys the
engine reported. Opaque conditions, random picks, choices and the values opaque effects
write are free in the engine and absent from the witness, so every assignment of them is
tried (one must reproduce the report). The start state must also be one the
interpreter's mirror of World.realizable allows.

The default test takes s11, and only when s11 has no order-dependence finding baigei3, then
zemu (the engine's order check dominates: baigei3 about 2-4 min, zemu about 15); VERIFIER_SLOW=1
replays every witness of all three.
"""
from __future__ import annotations

import os
from functools import lru_cache

import pytest

import brute_force as bf
from models.loader import load_ruleset
from verifier.engine import check
from verifier.narrate import key_from_json
from cases import cases

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RULESETS = ["s11", "baigei3", "zemu"]   # cheapest order check first


@lru_cache(maxsize=None)
def _checked(name: str):
    folder = os.path.join(REPO, "rulesets", name)
    if not os.path.isdir(folder):
        return None
    rs = load_ruleset(folder)
    report = check(rs, kinds=["order-dependence"])
    found = [f for f in cases(report.findings) if f.kind == "order-dependence" and f.witness]
    return rs, found


def _uses(rs, w: dict) -> tuple[list, tuple, tuple]:
    by_uid = {}
    for s in rs.skills:
        assert s.uid not in by_uid, f"two skills share the uid {s.uid}; a witness cannot name one"
        by_uid[s.uid] = s
    binds = [bf.Bind(b["self"], tuple(b["targets"]), tuple(sorted((b.get("others") or {}).items())))
             for b in w["bindings"]]
    skills = [by_uid[u] for u in w["scene"]] + [by_uid[w["a"]], by_uid[w["b"]]]
    pairs = list(zip(skills, binds))
    return pairs[:-2], pairs[-2], pairs[-1]


def replay(rs, w: dict) -> tuple[bool, list]:
    """(reproduced, what the brute force found under each assignment of the free values)."""
    it = bf.Interp(rs, len({k[1] for k in map(key_from_json, w["start"]) if k[0] == "alive"}))
    if "table_players" in w:
        # the game's table: counts take in the players outside the slots, living and voted out
        it.table = {"players": w["table_players"], "rest": dict(w.get("rest") or {})}
    start = {key_from_json(k): v for k, v in w["start"].items()}
    scene, a, b = _uses(rs, w)
    pin = {"dying": tuple(w["pin"].get("dying", ())), "dead": tuple(w["pin"].get("dead", ()))}
    reported = [key_from_json(k) for k in w["differing"]]
    # the engine's start state is one its realizable() allows; the mirror must allow it too
    assert it.realizable(bf.View(start)), "the witness start state is not realizable for the brute force"
    seen = []
    for assigned, got in bf.explore(lambda st: bf.both_orders(it, st, scene, a, b, pin), it.domain, fixed=start):
        free = {k: v for k, v in assigned.items() if k not in start}
        if got is None:
            seen.append((free, "a use is not enabled"))
            continue
        ab, ba, diff = got
        seen.append((free, diff))
        # the engine leaves out values nothing in the rules reads (statuses, labels, counters)
        extra = set(diff) - set(reported)
        if set(reported) <= set(diff) and all(k[0] in ("status", "label", "counter") for k in extra) and \
                all(ab[k] != ba[k] for k in reported):
            return True, seen
    return False, seen


def _cases():
    return [pytest.param(name, id=name) for name in RULESETS if os.path.isdir(os.path.join(REPO, "rulesets", name))]


def _assert_replays(name, rs, found) -> None:
    for f in found:
        ok, seen = replay(rs, f.witness)
        assert ok, (f"{name}: witness of {f.witness['a']} / {f.witness['b']} does not replay: engine reported "
                    f"{f.witness['differing']}, brute force found {seen}")


@pytest.mark.slow
def test_order_witnesses_replay():
    """s11 first; when it has no order-dependence finding, baigei3, then zemu (a missing
    folder is skipped). Every witness of the first ruleset that has some must replay, and
    at least one must exist."""
    tried = []
    for name in RULESETS:
        got = _checked(name)
        if got is None:
            continue
        rs, found = got
        tried.append(f"{name}: {len(found)}")
        if found:
            _assert_replays(name, rs, found)
            return
    pytest.fail(f"no order-dependence witness to replay ({', '.join(tried) or 'no ruleset folder found'})")


def _slow(test):
    skip = pytest.mark.skipif(os.environ.get("VERIFIER_SLOW") != "1", reason="slow variant: run with VERIFIER_SLOW=1")
    return pytest.mark.slow(skip(test))


@_slow
@pytest.mark.parametrize("name", _cases())
def test_every_bundled_witness_replays(name):
    rs, found = _checked(name)
    if not found:
        pytest.skip(f"{name} has no order-dependence finding with a witness")
    _assert_replays(name, rs, found)


BUNDLED = sorted(d for d in os.listdir(os.path.join(REPO, "rulesets"))
                 if os.path.isfile(os.path.join(REPO, "findings", f"{d}.json")))


@pytest.mark.parametrize("rid", BUNDLED)
def test_committed_order_witnesses_replay(rid):
    """Every order-dependence witness in the committed baseline replays through the
    interpreter at the witness's table (no engine run: the witness as committed)."""
    import json
    rs = load_ruleset(os.path.join(REPO, "rulesets", rid))
    with open(os.path.join(REPO, "findings", f"{rid}.json"), encoding="utf-8") as fh:
        doc = json.load(fh)
    # a finding of one cause carries its other cases as examples: each is replayed too
    witnesses = [x for f in doc["findings"] if f["kind"] == "order-dependence"
                 for x in [f] + list(f.get("examples") or []) if (x.get("witness") or {}).get("kind") == "order"]
    for f in witnesses:
        w = f["witness"]
        ok, seen = replay(rs, w)
        assert ok, f"{rid} {f.get('id', 'example')[:8]}: {w['a']} / {w['b']} does not replay: engine {w['differing']}, brute force {seen[:3]}"
