"""SARIF 2.1.0 for CI code scanning: one run, one rule per finding kind present."""
from __future__ import annotations

import json
import os
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any
from urllib.parse import quote

from ..analyses import by_kind
from ..findings import KINDS, Finding, Location, Report, sort_key
from .markdown import message_of

TOOL = "bansha-verifier"
SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
LEVELS = {"error": "error", "warning": "warning", "info": "note"}


def _rules(kinds: list[str]) -> list[dict]:
    known = by_kind()
    rules = []
    for kind in kinds:
        cls = known.get(kind)
        rule: dict[str, Any] = {"id": kind, "shortDescription": {"text": cls.summary if cls else kind}}
        if cls is not None:
            rule["fullDescription"] = {"text": " ".join(cls.doc().split()) or cls.summary}
            rule["defaultConfiguration"] = {"level": LEVELS[cls.severity]}
            rule["properties"] = {"decidesBy": cls.decides_by}
        rules.append(rule)
    return rules


def _uri(path: str) -> dict:
    if os.path.isabs(path):
        return {"uri": Path(path).as_uri()}
    return {"uri": quote(path.replace(os.sep, "/"), safe="/"), "uriBaseId": "%SRCROOT%"}


def _location(loc: Location) -> dict:
    physical: dict[str, Any] = {"artifactLocation": _uri(loc.file)}
    if loc.line >= 1:
        physical["region"] = {"startLine": loc.line}
    return {"physicalLocation": physical}


def _result(f: Finding, rid: str, rule_index: int, lang: str) -> dict:
    out: dict[str, Any] = {
        "ruleId": f.kind, "ruleIndex": rule_index, "level": LEVELS[f.severity],
        "message": {"text": message_of(f, lang)},
        "locations": [_location(loc) for loc in f.locations],
        "partialFingerprints": {"findingId/v1": f.stable_id(rid)},
        "properties": {"verdict": f.verdict, "subjects": list(f.subjects), "suppressed": bool(f.suppressed)},
    }
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


def write_sarif(report: Report, lang: str = "zh") -> str:
    rid = report.ruleset["id"]
    findings = sorted(report.findings, key=sort_key)
    kinds = [k for k in KINDS if any(f.kind == k for f in findings)]
    index = {k: i for i, k in enumerate(kinds)}
    run = {
        "tool": {"driver": {**_driver(), "rules": _rules(kinds)}},
        "results": [_result(f, rid, index[f.kind], lang) for f in findings],
        "properties": {"ruleset": report.ruleset, "bounds": report.bounds, "summary": report.summary()},
    }
    doc = {"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]}
    return json.dumps(doc, ensure_ascii=False, indent=2) + "\n"
