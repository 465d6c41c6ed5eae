"""A finding: a frozen value with a versioned JSON form (findings/v1)."""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

KINDS = ("contradiction", "order-dependence", "loop", "impossible-win", "simultaneous-win", "dead-rule",
         "missing-rule", "undefined-reference", "inconsistent-text", "setup", "faq-mismatch", "assumption", "unknown",
         "ambiguity")
SEVERITIES = ("error", "warning", "info")
VERDICTS = ("proved", "witnessed", "unknown")
SCHEMA = "findings/v1"


@dataclass(frozen=True)
class Location:
    file: str
    line: int

    def to_json(self) -> dict:
        return {"file": self.file, "line": self.line}


@dataclass(frozen=True)
class Finding:
    kind: str
    severity: str
    verdict: str
    subjects: tuple[str, ...]
    message: str
    locations: tuple[Location, ...]
    scenario: dict | None = None
    key: tuple[str, ...] = ()          # canonical ids the stable id is computed from
    witness: dict | None = None        # machine-readable witness the tests replay
    question: str | None = None        # for FAQ generation
    rulings: tuple[dict, ...] = ()     # possible rulings and their outcomes
    assumptions: tuple[str, ...] = ()  # assumptions the finding depends on
    suppressed: str | None = None      # the reason, when a suppression matches
    message_en: str | None = None
    # an undecided question of a kind asked many times: (kind of question, the sentence for
    # n of them with {n}, this one's item[, the FAQ question for all[, the English sentence
    # with {n}]]); the engine reports such findings as one
    group: tuple[str, ...] | None = None
    # witnessed findings of one cause told as one (the same window with no stated order): the
    # others, each whole (findings/v1 addition "examples"); this one's own story is the first
    examples: tuple[dict, ...] = ()

    def __post_init__(self) -> None:
        assert self.kind in KINDS, self.kind
        assert self.severity in SEVERITIES, self.severity
        assert self.verdict in VERDICTS, self.verdict

    def stable_id(self, ruleset_id: str) -> str:
        basis = "\x1f".join([self.kind, ruleset_id, *sorted(self.key or self.subjects)])
        return hashlib.sha256(basis.encode("utf-8")).hexdigest()[:16]

    def to_json(self, ruleset_id: str) -> dict:
        out: dict[str, Any] = {
            "id": self.stable_id(ruleset_id), "kind": self.kind, "severity": self.severity, "verdict": self.verdict,
            "subjects": list(self.subjects), "message": self.message, "scenario": self.scenario,
            "locations": [loc.to_json() for loc in self.locations],
        }
        if self.witness is not None:
            out["witness"] = self.witness
        if self.question:
            out["question"] = self.question
        if self.rulings:
            out["rulings"] = list(self.rulings)
        if self.assumptions:
            out["assumptions"] = list(self.assumptions)
        if self.suppressed:
            out["suppressed"] = self.suppressed
        if self.message_en:
            out["message_en"] = self.message_en
        if self.examples:
            out["examples"] = list(self.examples)
        return out


def finding_from_json(d: dict) -> Finding:
    """Inverse of Finding.to_json (the id is recomputed, so it is not stored)."""
    return Finding(
        kind=d["kind"], severity=d["severity"], verdict=d["verdict"], subjects=tuple(d["subjects"]),
        message=d["message"], locations=tuple(Location(x["file"], x["line"]) for x in d["locations"]),
        scenario=d.get("scenario"), key=tuple(d.get("key") or ()), witness=d.get("witness"),
        question=d.get("question"), rulings=tuple(d.get("rulings") or ()), assumptions=tuple(d.get("assumptions") or ()),
        suppressed=d.get("suppressed"), message_en=d.get("message_en"),
        group=tuple(d["group"]) if d.get("group") else None, examples=tuple(d.get("examples") or ()),
    )


def finding_to_cache(f: Finding) -> dict:
    d = f.to_json("")
    d["key"] = list(f.key)
    if f.group:
        d["group"] = list(f.group)
    return d


MESSAGE_MAX = 200   # one sentence a judge reads; the details are in the scenario


def grouped(members: list[Finding]) -> Finding:
    """One finding for several undecided questions of one kind (Finding.group): each is
    named in the message, every line they cite is kept. Witnessed findings of one cause keep
    each story: the first as the finding's own, the others as examples."""
    first = members[0]
    if first.verdict == "witnessed":
        return _with_examples(members)
    head = first.group[1]
    locs = tuple(dict.fromkeys(loc for f in members for loc in f.locations))
    subjects = tuple(dict.fromkeys(s for f in members for s in f.subjects))
    items = [f.group[2] for f in members]
    head = head.format(n=len(members))
    tail = items[0][items[0].rfind("（"):] if items[0].endswith("）") and "（" in items[0] else ""
    if tail and all(x.endswith(tail) for x in items):
        # the same reason for every one: said once
        head, items = head + tail, [x[:-len(tail)] for x in items]
    message, scenario = f"{head}：{'；'.join(items)}。", None
    if all(f.scenario for f in members):
        # each member's story is kept as steps; a long list is read there, not in the message
        scenario = {"roles": [], "steps": list(dict.fromkeys(s for f in members for s in f.scenario["steps"])),
                    "outcomes": list(dict.fromkeys(o for f in members for o in f.scenario["outcomes"]))}
        if len(message) > MESSAGE_MAX:
            message = f"{head}（见步骤）。"
    return Finding(kind=first.kind, severity=first.severity, verdict=first.verdict, subjects=subjects,
                   message=message, locations=locs, scenario=scenario,
                   key=(first.group[0],) + tuple(sorted("\x1f".join(f.key or f.subjects) for f in members)),
                   message_en=(first.group[4] if len(first.group) > 4 and first.group[4] else
                               f"{len(members)} questions of one kind ({first.group[0]}) were not decided within the solver budget")
                   .format(n=len(members)) + ": " + "; ".join("/".join(f.subjects) for f in members) + ".")


def _with_examples(members: list[Finding]) -> Finding:
    """Witnessed findings of one cause (one window whose order the text never gives): one
    finding naming each, with the first one's game, witness and FAQ question, the others as
    examples a judge can read whole (and the tests replay)."""
    from dataclasses import replace
    first = members[0]
    head = first.group[1]
    items = [f.group[2] for f in members]
    message = f"{head.format(n=len(members))}：{'；'.join(items)}。"
    if len(message) > MESSAGE_MAX:
        message = f"{head.format(n=len(members))}（见各例）。"
    examples = tuple({k: v for k, v in f.to_json("").items() if k not in ("id", "kind", "severity", "verdict")}
                     for f in members[1:])
    return replace(first, subjects=tuple(dict.fromkeys(s for f in members for s in f.subjects)), message=message,
                   locations=tuple(dict.fromkeys(loc for f in members for loc in f.locations)),
                   key=(first.group[0],) + tuple(sorted("\x1f".join(f.key or f.subjects) for f in members)),
                   message_en=f"{len(members)} pairs resolve in one window with no stated order, and their orders differ: "
                              + "; ".join("/".join(f.subjects) for f in members) + ".",
                   assumptions=tuple(dict.fromkeys(a for f in members for a in f.assumptions)),
                   question=first.group[3] if len(first.group) > 3 and first.group[3] else first.question,
                   group=None, examples=examples)


def sort_key(f: Finding) -> tuple:
    """Problems first (proved or witnessed), by severity; then what stayed undecided (a bound
    or a budget, not a proof of a problem); assumptions are kind-last among them."""
    sev = SEVERITIES.index(f.severity)
    first = f.locations[0] if f.locations else Location("", 0)
    return (f.verdict == "unknown", sev, KINDS.index(f.kind), first.file, first.line, f.subjects, f.message)


def dumps(doc: dict) -> str:
    return json.dumps(doc, ensure_ascii=False, indent=2, sort_keys=False) + "\n"


@dataclass
class Report:
    ruleset: dict
    bounds: dict
    findings: list[Finding] = field(default_factory=list)
    coverage: dict | None = None
    stats: dict | None = None
    passages: dict | None = None      # element -> digests, for the stale-encoding gate
    known: frozenset[str] | None = None   # stable ids of a baseline; None: no baseline given
    seconds: dict | None = None       # solver time per kind of question (benchmark only; never written)

    def baseline_state(self, f: Finding) -> str | None:
        """"new", "unchanged" (in the baseline), or None without a baseline (SARIF's names)."""
        if self.known is None:
            return None
        return "unchanged" if f.stable_id(self.ruleset["id"]) in self.known else "new"

    def summary(self) -> dict:
        active = [f for f in self.findings if not f.suppressed]
        s: dict[str, Any] = {sev: sum(1 for f in active if f.severity == sev) for sev in SEVERITIES}
        s["unknown"] = sum(1 for f in active if f.verdict == "unknown")
        s["suppressed"] = sum(1 for f in self.findings if f.suppressed)
        if self.known is not None:   # only with a baseline, so committed documents stay as they are
            s["new"] = sum(1 for f in active if self.baseline_state(f) == "new")
        if self.coverage is not None:
            s["coverage"] = self.coverage
        return s

    def to_json(self) -> dict:
        rid = self.ruleset["id"]
        findings = []
        for f in sorted(self.findings, key=sort_key):
            d = f.to_json(rid)
            if self.known is not None:
                d["baseline"] = self.baseline_state(f)
            findings.append(d)
        doc = {"schema": SCHEMA, "ruleset": self.ruleset, "bounds": self.bounds, "summary": self.summary(),
               "findings": findings}
        if self.passages is not None:
            doc["passages"] = self.passages
        return doc
