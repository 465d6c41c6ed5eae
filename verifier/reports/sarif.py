"""SARIF 2.1.0 in the shape GitHub code scanning accepts: one run per ruleset, told apart by
`automationDetails.id` (its category), the first location primary and the rest related,
one rule per finding kind present with help text from the analysis docs."""
from __future__ import annotations

import json
import os
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any, Iterable
from urllib.parse import quote

from ..analyses import by_kind
from ..findings import KINDS, Finding, Location, Report, sort_key
from .markdown import message_of

TOOL = "bansha-verifier"
SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
LEVELS = {"error": "error", "warning": "warning", "info": "note"}
BASELINE_STATES = {"new": "new", "unchanged": "unchanged"}


def category(ruleset_id: str) -> str:
    """The run's automationDetails.id; GitHub takes everything up to the last '/' as the
    category, so uploads of different rulesets do not replace each other's alerts."""
    return f"{TOOL}/{ruleset_id}/"


def _help(cls) -> dict:
    paragraphs = [" ".join(p.split()) for p in cls.doc().split("\n\n") if p.strip()]
    text = "\n\n".join([cls.summary, *paragraphs, f"Decided by: {cls.decides_by}."])
    md = "\n\n".join([f"**{cls.summary}**", *paragraphs, f"Decided by: `{cls.decides_by}`. "
                      f"Run `bansha-verify explain {cls.kind}` for the same text."])
    return {"text": text, "markdown": md}


def _rules(kinds: list[str]) -> list[dict]:
    known = by_kind()
    rules = []
    for kind in kinds:
        cls = known.get(kind)
        rule: dict[str, Any] = {"id": kind, "name": kind, "shortDescription": {"text": cls.summary if cls else kind}}
        if cls is not None:
            rule["fullDescription"] = {"text": " ".join(cls.doc().split()) or cls.summary}
            rule["help"] = _help(cls)
            rule["defaultConfiguration"] = {"level": LEVELS[cls.severity]}
            rule["properties"] = {"decidesBy": cls.decides_by, "tags": ["bansha", cls.decides_by]}
        rules.append(rule)
    return rules


def _uri(path: str) -> dict:
    if os.path.isabs(path):
        return {"uri": Path(path).as_uri()}
    return {"uri": quote(path.replace(os.sep, "/"), safe="/"), "uriBaseId": "%SRCROOT%"}


def _location(loc: Location, ident: int | None = None) -> dict:
    physical: dict[str, Any] = {"artifactLocation": _uri(loc.file)}
    if loc.line >= 1:
        physical["region"] = {"startLine": loc.line}
    out: dict[str, Any] = {"physicalLocation": physical}
    if ident is not None:
        out["id"] = ident
    return out


def _result(f: Finding, report: Report, rule_index: int, lang: str) -> dict:
    rid = report.ruleset["id"]
    primary, related = f.locations[:1], f.locations[1:]
    out: dict[str, Any] = {
        "ruleId": f.kind, "ruleIndex": rule_index, "level": LEVELS[f.severity],
        "message": {"text": message_of(f, lang)},
        "locations": [_location(loc) for loc in primary],
        "partialFingerprints": {"findingId/v1": f.stable_id(rid)},
        "properties": {"verdict": f.verdict, "subjects": list(f.subjects), "suppressed": bool(f.suppressed)},
    }
    if related:
        out["relatedLocations"] = [_location(loc, i) for i, loc in enumerate(related, 1)]
    # Report.baseline_state arrives with --baseline support; older reports simply omit it
    state_of = getattr(report, "baseline_state", None)
    state = BASELINE_STATES.get(state_of(f)) if callable(state_of) else None
    if state:
        out["baselineState"] = state
    if f.suppressed:
        out["suppressions"] = [{"kind": "inSource", "justification": f.suppressed}]
    return out


def _driver() -> dict:
    driver: dict[str, Any] = {"name": TOOL}
    try:
        driver["semanticVersion"] = version(TOOL)
    except PackageNotFoundError:
        pass  # running from a checkout without `pip install`
    return driver


def sarif_run(report: Report, lang: str = "zh") -> dict:
    rid = report.ruleset["id"]
    findings = sorted(report.findings, key=sort_key)
    kinds = [k for k in KINDS if any(f.kind == k for f in findings)]
    index = {k: i for i, k in enumerate(kinds)}
    return {
        "tool": {"driver": {**_driver(), "rules": _rules(kinds)}},
        "automationDetails": {"id": category(rid)},
        "columnKind": "unicodeCodePoints",
        "results": [_result(f, report, index[f.kind], lang) for f in findings],
        "properties": {"ruleset": report.ruleset, "bounds": report.bounds, "summary": report.summary()},
    }


def sarif_log(reports: Iterable[Report], lang: str = "zh") -> dict:
    """One log with a run per ruleset (each with its own category)."""
    return {"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [sarif_run(r, lang) for r in reports]}


def write_sarif(report: Report, lang: str = "zh") -> str:
    return json.dumps(sarif_log([report], lang), ensure_ascii=False, indent=2) + "\n"
