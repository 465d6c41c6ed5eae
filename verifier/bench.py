"""Benchmark: full check of each bundled ruleset, median wall time of several runs and the
number of solver queries. Run: python -m verifier.bench [--runs 3] [--baseline] [ids…]"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import tempfile
import time

from models.loader import load_ruleset

from .baseline import bundled
from .engine import check


def measure(rid: str, runs: int, earlier: dict | None = None) -> dict:
    """earlier: a findings document whose witness games are asked for first (check --baseline)."""
    times, confirm, queries = [], [], 0
    for _ in range(runs):
        rs = load_ruleset(f"rulesets/{rid}")
        t0 = time.perf_counter()
        report = check(rs, earlier=earlier)
        times.append(time.perf_counter() - t0)
        queries = report.stats["queries"]
        # solver time spent confirming witnesses in a game (both processes added up)
        confirm.append(sum(s for p, s in (report.seconds or {}).items() if p.startswith(CONFIRM_PURPOSES)))
    return {"id": rid, "median_s": statistics.median(times), "min_s": min(times), "max_s": max(times),
            "queries": queries, "runs": runs, "confirm_s": statistics.median(confirm)}


# the queries that confirm a candidate in a game (a legal deal, legal moves): order questions,
# empty picks and readings
CONFIRM_PURPOSES = ("order-game", "pick-game", "reading-game", "reading-pinned")


def one_skill_edit(folder: str) -> str:
    """Edit one skill of the ruleset in folder (the last role skill with targets gets an extra
    'alive' target filter); returns its name. Chosen by position, never by name."""
    import yaml

    from models.yaml_lines import load_with_lines
    path = os.path.join(folder, "ruleset.yaml")
    with open(path, encoding="utf-8") as fh:
        data, _ = load_with_lines(fh.read(), path)  # keeps keys such as 'on' as strings
    target = None
    for role in data["roles"]:
        for skill in role.get("skills") or []:
            if skill.get("targets") and skill.get("timing"):
                target = skill
    assert target is not None, "no skill with targets to edit"
    flt = dict(target["targets"].get("filter") or {})
    flt["alive"] = not flt.get("alive", False)
    target["targets"]["filter"] = flt
    with open(path, "w", encoding="utf-8") as fh:
        yaml.safe_dump(data, fh, allow_unicode=True, sort_keys=False)
    return target["name"]


def incremental(rid: str, runs: int) -> dict:
    """Full check vs re-check after a one-skill edit, with the cache of the unedited version."""
    full, again = [], []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as tmp:
            folder = os.path.join(tmp, rid)
            shutil.copytree(f"rulesets/{rid}", folder)
            os.environ["VERIFIER_CACHE"] = os.path.join(tmp, "cache")
            t0 = time.perf_counter()
            check(load_ruleset(folder), incremental=True)
            full.append(time.perf_counter() - t0)
            edited = one_skill_edit(folder)
            t0 = time.perf_counter()
            check(load_ruleset(folder), incremental=True)
            again.append(time.perf_counter() - t0)
            os.environ.pop("VERIFIER_CACHE", None)
    f, a = statistics.median(full), statistics.median(again)
    return {"id": rid, "edited": edited, "full_s": f, "recheck_s": a, "speedup": f / a if a else float("inf")}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m verifier.bench")
    p.add_argument("ids", nargs="*")
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--incremental", action="store_true", help="也测量单技能修改后的增量复查")
    p.add_argument("--baseline", action="store_true",
                   help="以 findings/<id>.json 为基线检查（check --baseline：先沿用基线中的对局）")
    args = p.parse_args(argv)
    print(f"{'ruleset':10} {'median s':>9} {'min':>7} {'max':>7} {'queries':>8} {'confirm s':>10}"
          + ("  (with its baseline)" if args.baseline else ""))
    for rid in args.ids or bundled():
        earlier = None
        if args.baseline:
            import json
            with open(f"findings/{rid}.json", encoding="utf-8") as fh:
                earlier = json.load(fh)
        m = measure(rid, args.runs, earlier)
        print(f"{m['id']:10} {m['median_s']:9.2f} {m['min_s']:7.2f} {m['max_s']:7.2f} {m['queries']:8d} "
              f"{m['confirm_s']:10.2f}")
    if args.incremental:
        print(f"\n{'ruleset':10} {'full s':>8} {'re-check s':>11} {'speed-up':>9}  edited skill")
        for rid in args.ids or bundled():
            m = incremental(rid, args.runs)
            print(f"{m['id']:10} {m['full_s']:8.2f} {m['recheck_s']:11.2f} {m['speedup']:8.1f}x  {m['edited']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
