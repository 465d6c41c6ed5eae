"""The registry of analyses: one module per kind of problem."""
from __future__ import annotations

from .base import Analysis, Context
from .order import OrderDependence
from .wins import ImpossibleWin, SimultaneousWin
from .text_checks import Assumption, InconsistentText, UndefinedReference

ANALYSES: list[type[Analysis]] = [UndefinedReference, InconsistentText, Assumption, OrderDependence,
                                   ImpossibleWin, SimultaneousWin]


def register(cls: type[Analysis]) -> type[Analysis]:
    ANALYSES.append(cls)
    return cls


def by_kind() -> dict[str, type[Analysis]]:
    return {a.kind: a for a in ANALYSES}


__all__ = ["ANALYSES", "Analysis", "Context", "by_kind", "register"]
