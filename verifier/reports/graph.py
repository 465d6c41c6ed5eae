"""The skill interaction graph a report draws: trigger edges, conflict edges, loops.

Plain JSON-friendly data, sorted, so pictures built from it are deterministic."""
from __future__ import annotations

import os

import networkx as nx

from models.domain import Ruleset
from models.loader import InvalidRuleset, load_ruleset

from ..analyses.loops import trigger_graph
from ..findings import Finding, Report, sort_key

CONFLICT_KINDS = ("order-dependence", "contradiction")


def interaction_graph(rs: Ruleset, report: Report) -> dict:
    g = trigger_graph(rs)
    rid = report.ruleset["id"]
    nodes = {s.uid: {"id": s.uid, "name": s.name, "owner": s.owner_text, "kind": "skill",
                     "opaque": s.is_opaque, "triggered": bool(s.trigger)} for s in rs.skills}
    edges = [{"source": a, "target": b, "event": ":".join(str(x) for x in g.edges[a, b]["event"] if x is not None)}
             for a, b in sorted(g.edges)]
    conflicts, loops = [], []
    for f in sorted(report.findings, key=sort_key):
        tag = {"finding": f.stable_id(rid), "kind": f.kind, "suppressed": bool(f.suppressed)}
        if f.kind in CONFLICT_KINDS:
            ends = _conflict_ends(rs, g, f, nodes)
            if ends:
                conflicts.append({"source": ends[0], "target": ends[1], **tag})
        elif f.kind == "loop":
            cycle = _cycle(g, f)
            if cycle:
                loops.append({"cycle": cycle, **tag})
    return {"nodes": sorted(nodes.values(), key=lambda n: (n["kind"] != "skill", n["id"])),
            "edges": edges, "conflicts": conflicts, "loops": loops}


def _conflict_ends(rs: Ruleset, g: nx.DiGraph, f: Finding, nodes: dict) -> tuple[str, str] | None:
    """The two things in conflict: skill uids from the key, else by subject name; a status (or
    other non-skill subject, as in skill-vs-status contradictions) becomes an extra node."""
    refs = list(f.key[:2]) if len(f.key) >= 2 else list(f.subjects[:2])
    names = list(f.subjects[:2]) + [""] * 2
    if len(refs) < 2:
        return None
    ends = []
    for ref, name in zip(refs, names):
        uid = ref if ref in g else _unique_skill(rs, name or ref)
        if uid is None:
            uid = name or ref
            nodes.setdefault(uid, {"id": uid, "name": uid, "owner": "", "opaque": False, "triggered": False,
                                   "kind": "status" if uid in rs.statuses else "other"})
        ends.append(uid)
    return ends[0], ends[1]


def _unique_skill(rs: Ruleset, name: str) -> str | None:
    uids = [s.uid for s in rs.skill_named(name)]
    return uids[0] if len(uids) == 1 else None


def _cycle(g: nx.DiGraph, f: Finding) -> list[str]:
    """The loop in trigger order (the finding keeps only the sorted member set)."""
    members = sorted({k for k in f.key if k in g})
    if len(members) == 1:
        return members if g.has_edge(members[0], members[0]) else []
    found = [c for c in nx.simple_cycles(g.subgraph(members)) if len(c) == len(members)]
    if not found:
        return members
    rotated = [c[c.index(min(c)):] + c[:c.index(min(c))] for c in found]
    return min(rotated)


def graph_for_report(report: Report) -> dict | None:
    """Find and load the report's ruleset again; None when it is not where the report says."""
    rid = report.ruleset["id"]
    # Locations carry the path the engine really loaded; ruleset["source"] is always
    # rulesets/<id>/source.txt whatever folder was checked, so it is only the fallback.
    folders = [os.path.dirname(loc.file) for f in report.findings for loc in f.locations
               if os.path.basename(loc.file) == "ruleset.yaml"]
    folders.append(os.path.dirname(report.ruleset.get("source", "")))
    for folder in dict.fromkeys(folders):
        if not folder or not os.path.isfile(os.path.join(folder, "ruleset.yaml")):
            continue
        try:
            rs = load_ruleset(folder)
        except InvalidRuleset:
            continue
        if rs.id == rid:
            return interaction_graph(rs, report)
    return None
