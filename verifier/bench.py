"""Benchmark: full check of each bundled ruleset, median wall time of several runs and the
number of solver queries. Run: python -m verifier.bench [--runs 3] [ids…]"""
from __future__ import annotations

import argparse
import statistics
import time

from models.loader import load_ruleset

from .baseline import bundled
from .engine import check


def measure(rid: str, runs: int) -> dict:
    times, queries = [], 0
    for _ in range(runs):
        rs = load_ruleset(f"rulesets/{rid}")
        t0 = time.perf_counter()
        report = check(rs)
        times.append(time.perf_counter() - t0)
        queries = report.stats["queries"]
    return {"id": rid, "median_s": statistics.median(times), "min_s": min(times), "max_s": max(times),
            "queries": queries, "runs": runs}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m verifier.bench")
    p.add_argument("ids", nargs="*")
    p.add_argument("--runs", type=int, default=3)
    args = p.parse_args(argv)
    print(f"{'ruleset':10} {'median s':>9} {'min':>7} {'max':>7} {'queries':>8}")
    for rid in args.ids or bundled():
        m = measure(rid, args.runs)
        print(f"{m['id']:10} {m['median_s']:9.2f} {m['min_s']:7.2f} {m['max_s']:7.2f} {m['queries']:8d}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
