"""The findings/v1 JSON document (the contract other tools read)."""
from __future__ import annotations

from ..findings import Report, dumps


def write_json(report: Report, lang: str = "zh") -> str:
    return dumps(report.to_json())
