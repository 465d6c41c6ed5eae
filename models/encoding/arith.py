"""Setup arithmetic over the whole stated player range, with z3 Ints for the player count."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import z3

from .connectives import If, Or
from .solver import Answer, Solver


@dataclass
class Arith:
    ctx: z3.Context
    n: z3.ArithRef

    @staticmethod
    def make() -> "Arith":
        ctx = z3.Context()
        return Arith(ctx, z3.Int("players", ctx))

    def num(self, x: Any) -> z3.ArithRef:
        """Exact arithmetic in hundredths (percentages and 0.3-style factors stay integral)."""
        return self._num(x)

    def _num(self, x: Any):
        if isinstance(x, bool):
            return z3.RealVal(int(x), self.ctx)
        if isinstance(x, (int, float)):
            return z3.RealVal(x, self.ctx)
        if not isinstance(x, dict):
            raise ValueError(f"无法计算的数值 {x!r}")
        if "players" in x:
            return z3.ToReal(self.n)
        for op in ("add", "sub", "mul"):
            if op in x:
                terms = [self._num(t) for t in x[op]]
                out = terms[0]
                for t in terms[1:]:
                    out = out + t if op == "add" else out - t if op == "sub" else out * t
                return out
        if "div" in x:
            a, d = (self._num(t) for t in x["div"])
            q = a / d
            rnd = x.get("round")
            if rnd == "floor":
                return z3.ToReal(z3.ToInt(q))
            if rnd == "ceil":
                return -z3.ToReal(z3.ToInt(-q))
            if rnd == "nearest":
                return z3.ToReal(z3.ToInt(q + z3.RealVal("1/2", self.ctx)))
            return q
        if "round" in x:
            return z3.ToReal(z3.ToInt(self._num(x["round"]) + z3.RealVal("1/2", self.ctx)))
        if "min" in x:
            a, b = (self._num(t) for t in x["min"])
            return If(a < b, a, b)
        if "max" in x:
            a, b = (self._num(t) for t in x["max"])
            return If(a > b, a, b)
        raise ValueError(f"无法计算的数值 {x!r}")

    def range(self, lo: int | None, hi: int | None) -> list:
        cs = []
        if lo is not None:
            cs.append(self.n >= lo)
        if hi is not None:
            cs.append(self.n <= hi)
        return cs

    def counterexample(self, solver: Solver, constraints: list) -> tuple[Answer, int | None]:
        ans = solver.check(constraints, "setup")
        if ans.sat:
            return ans, ans.model.eval(self.n, model_completion=True).as_long()
        return ans, None

    def value_at(self, term, n: int):
        v = z3.simplify(z3.substitute(term, (self.n, z3.IntVal(n, self.ctx))))
        if z3.is_rational_value(v):
            f = v.as_fraction()
            return int(f) if f.denominator == 1 else float(f)
        return str(v)

    def clamp(self, term, lo=None, hi=None):
        if hi is not None:
            term = If(term > hi, z3.RealVal(hi, self.ctx), term)
        if lo is not None:
            term = If(term < lo, z3.RealVal(lo, self.ctx), term)
        return term

    def total(self, terms: list):
        return z3.Sum(terms) if terms else z3.RealVal(0, self.ctx)

    def differs(self, a, b):
        return a != b

    def outside(self, a, lo, hi):
        return Or(a < lo, a > hi)
