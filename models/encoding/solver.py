"""The one place that calls z3's check(): deterministic seeds, a per-query rlimit,
verdicts, and an optional .smt2 dump of every query."""
from __future__ import annotations

import os
import time
from dataclasses import dataclass, field

import z3


# the second start of an undecided search gets this many times its budget (a baigei3 order
# confirmation: out of budget at 5x with either start, found at 10x and 15x; a zemu reading at
# 10x: found at 30x, not at 15x), but at most RETRY_CAP times the rlimit (measured on zemu: its
# win-check traces, 20x each, decided 2 of 12 at 60x, both "no", for 250 s of 700 s of solving)
RETRY_SCALE, RETRY_CAP = 3, 30


@dataclass
class Answer:
    status: str                 # "sat" | "unsat" | "unknown"
    model: z3.ModelRef | None = None
    reason: str = ""
    core: list[str] = field(default_factory=list)

    @property
    def sat(self) -> bool:
        return self.status == "sat"

    @property
    def unsat(self) -> bool:
        return self.status == "unsat"


@dataclass
class SolverStats:
    queries: int = 0
    unknown: int = 0
    by_purpose: dict = field(default_factory=dict)
    seconds: dict = field(default_factory=dict)    # solver wall time per purpose (benchmark only)


class Solver:
    def __init__(self, ctx: z3.Context, rlimit: int, dump_dir: str | None = None):
        self.ctx = ctx
        self.rlimit = rlimit
        self.dump_dir = dump_dir or os.environ.get("VERIFIER_DUMP_SMT2")
        self.stats = SolverStats()

    def check_retrying(self, constraints: list, purpose: str, rlimit: int, cap: int = 0) -> Answer:
        """check(), and an undecided answer gets one more start (seed 1, RETRY_SCALE times the
        budget, at most RETRY_CAP times the rlimit): a search this size is sensitive to where it
        starts (measured: conan096's order confirmations and an s11 win-check trace, each decided
        in seconds alone, ran out of budget once other questions had built their terms). Still
        deterministic. cap: times the rlimit, in the place of RETRY_CAP."""
        ans = self.check(constraints, purpose, rlimit=rlimit)
        return self.second_start(constraints, purpose, rlimit, cap) if ans.status == "unknown" else ans

    def second_start(self, constraints: list, purpose: str, rlimit: int, cap: int = 0) -> Answer:
        """check_retrying's second start alone (for a question whose parts each had a first)."""
        again = min(rlimit * RETRY_SCALE, max(rlimit, (cap or RETRY_CAP) * self.rlimit))
        return self.check(constraints, f"{purpose}-retry", rlimit=again, seed=1)

    def check(self, constraints: list, purpose: str, tracked: dict[str, z3.BoolRef] | None = None,
              rlimit: int | None = None, seed: int = 0) -> Answer:
        s = z3.Solver(ctx=self.ctx)
        s.set("random_seed", seed)
        s.set("rlimit", int(rlimit or self.rlimit))
        s.set("timeout", 120_000)  # wall-clock safety net only; the budget is the rlimit
        s.add(*constraints)
        for name, lit in sorted((tracked or {}).items()):
            s.assert_and_track(lit, z3.Bool(f"track::{name}", self.ctx))
        self.stats.queries += 1
        self.stats.by_purpose[purpose] = self.stats.by_purpose.get(purpose, 0) + 1
        if self.dump_dir:
            os.makedirs(self.dump_dir, exist_ok=True)
            with open(os.path.join(self.dump_dir, f"{self.stats.queries:05d}_{purpose}.smt2"), "w") as fh:
                fh.write(s.to_smt2())
        t0 = time.perf_counter()
        result = s.check()
        self.stats.seconds[purpose] = self.stats.seconds.get(purpose, 0.0) + time.perf_counter() - t0
        if os.environ.get("VERIFIER_RLIMIT_LOG"):
            self._log_use(s, purpose, str(result), int(rlimit or self.rlimit), seed)
        if result == z3.sat:
            return Answer("sat", s.model())
        if result == z3.unsat:
            core = sorted(str(c).removeprefix("track::") for c in s.unsat_core()) if tracked else []
            return Answer("unsat", core=core)
        self.stats.unknown += 1
        return Answer("unknown", reason=s.reason_unknown())


    def _log_use(self, s: z3.Solver, purpose: str, result: str, budget: int, seed: int) -> None:
        """Measurement only: how much of its budget a query used (z3's resource counter is
        per context, so the use is the growth since the last query of this solver)."""
        try:
            count = s.statistics().get_key_value("rlimit count")
        except z3.Z3Exception:
            count = getattr(self, "_count", 0)
        used, self._count = count - getattr(self, "_count", 0), count
        with open(os.environ["VERIFIER_RLIMIT_LOG"], "a") as fh:
            fh.write(f"{purpose}\t{result}\t{used}\t{budget}\t{seed}\t{self.rlimit}\n")


class Session:
    """One z3 solver holding shared base constraints; each query is push/extra/check/pop
    (cheaper than a fresh solver when many queries share a large base)."""

    def __init__(self, owner: Solver, base: list, rlimit: int | None = None):
        self.owner = owner
        self.s = z3.Solver(ctx=owner.ctx)
        self.s.set("random_seed", 0)
        self.s.set("timeout", 120_000)
        self.rlimit = int(rlimit or owner.rlimit)
        self.s.add(*base)

    def check(self, extra: list, purpose: str) -> Answer:
        st = self.owner.stats
        st.queries += 1
        st.by_purpose[purpose] = st.by_purpose.get(purpose, 0) + 1
        self.s.push()
        try:
            # z3 applies the rlimit relative to the resources already used: each query gets the budget
            self.s.set("rlimit", self.rlimit)
            self.s.add(*extra)
            t0 = time.perf_counter()
            result = self.s.check()
            st.seconds[purpose] = st.seconds.get(purpose, 0.0) + time.perf_counter() - t0
            if result == z3.sat:
                return Answer("sat", self.s.model())
            if result == z3.unsat:
                return Answer("unsat")
            st.unknown += 1
            return Answer("unknown", reason=self.s.reason_unknown())
        finally:
            self.s.pop()
