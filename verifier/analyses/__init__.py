"""The registry of analyses: one module per kind of problem."""
from __future__ import annotations

from .ambiguity import Ambiguity
from .base import Analysis, Context
from .dead import DeadRule
from .faq import FaqMismatch
from .forced_target import ForcedTarget   # the contradiction kind: Contradiction plus forced targets
from .loops import Loop
from .missing import MissingRule
from .opaque import OpaqueInteraction
from .order import OrderDependence
from .setup import Setup
from .wins import ImpossibleWin, SimultaneousWin
from .text_checks import Assumption, InconsistentText, UndefinedReference

ANALYSES: list[type[Analysis]] = [
    UndefinedReference, InconsistentText, Assumption, Setup, FaqMismatch, ForcedTarget, OrderDependence, Loop,
    ImpossibleWin, SimultaneousWin, DeadRule, MissingRule, OpaqueInteraction, Ambiguity,
]


def register(cls: type[Analysis]) -> type[Analysis]:
    ANALYSES.append(cls)
    return cls


def by_kind() -> dict[str, type[Analysis]]:
    return {a.kind: a for a in ANALYSES}


__all__ = ["ANALYSES", "Analysis", "Context", "by_kind", "register"]
