"""Every case a report tells: each finding, and each example a finding of one cause carries
(findings/v1 "examples": the other pairs of one window whose order the text never gives)."""
from __future__ import annotations

from dataclasses import replace

from verifier.findings import Finding, finding_from_json


def cases(findings) -> list:
    """Findings (objects or their JSON) and their examples, as the same type, in order."""
    out: list = []
    for f in findings:
        if isinstance(f, Finding):
            own = replace(f, subjects=_own(f.rulings)) if f.examples else f
            out += [own] + [finding_from_json({**ex, "kind": f.kind, "severity": f.severity, "verdict": f.verdict})
                            for ex in f.examples]
        else:
            own = {**f, "subjects": list(_own(f.get("rulings") or ()))} if f.get("examples") else f
            out += [own] + [{**ex, "kind": f["kind"], "severity": f["severity"], "verdict": f["verdict"]}
                            for ex in f.get("examples") or []]
    return out


def _own(rulings) -> tuple:
    """The pair a finding of one cause tells as its own story: the one its rulings order."""
    return tuple(dict.fromkeys(x for r in rulings[:1] for x in (r["first"], r["then"])))
