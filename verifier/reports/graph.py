"""The picture a report draws, as plain sorted data: skills in boxes by the role (or other
holder) that has them, boxes in groups by faction; where each finding belongs (its anchors:
skills, roles, factions, statuses, or the ruleset as a whole); the interactions behind
findings (order, contradiction, simultaneous wins, loops) and, on demand, every trigger edge."""
from __future__ import annotations

import os

import networkx as nx

from models.domain import Ruleset, Skill
from models.loader import InvalidRuleset, load_ruleset

from ..analyses.loops import trigger_graph
from ..findings import Finding, Report, sort_key

RULES = "rules"            # the node of findings about the ruleset as a whole
SHARED = "group:shared"    # the group of boxes held by a status, label or item
HOLDERS = ("status", "label", "item")


def interaction_graph(rs: Ruleset, report: Report) -> dict:
    g = trigger_graph(rs)
    rid = report.ruleset["id"]
    pic = _Picture(rs)
    edges = [{"source": a, "target": b, "event": ":".join(str(x) for x in g.edges[a, b]["event"] if x is not None)}
             for a, b in sorted(g.edges)]
    links, loops, anchors = [], [], {}
    for f in sorted(report.findings, key=sort_key):
        fid = f.stable_id(rid)
        named = [pic.resolve([k]) for k in f.key]
        keyed = list(dict.fromkeys(n for hits in named for n in hits))
        anchors[fid] = pic.anchors(f, keyed)
        # two key parts naming one node each: what the finding sets against each other
        pair = list(dict.fromkeys(hits[0] for hits in named if len(hits) == 1))
        tag = {"finding": fid, "kind": f.kind, "severity": f.severity, "suppressed": bool(f.suppressed)}
        if f.kind == "loop":
            cycle = _cycle(g, f)
            if cycle:
                loops.append({"cycle": cycle, **tag})
                links += [{"source": a, "target": b, **tag} for a, b in zip(cycle, cycle[1:] + cycle[:1])]
        elif len(pair) >= 2:   # skills, a skill and a status, two factions
            links.append({"source": pair[0], "target": pair[1], **tag})
    return {"nodes": pic.node_list(), "groups": pic.groups, "edges": edges, "links": links, "loops": loops,
            "anchors": anchors}


class _Picture:
    """Nodes, and the boxes and groups they sit in, built in the ruleset's own order."""

    def __init__(self, rs: Ruleset):
        self.rs = rs
        self.nodes: dict[str, dict] = {}
        self.groups: list[dict] = []
        self._group: dict[str, dict] = {}
        self._box: dict[str, dict] = {}
        self._node(RULES, "规则整体", "rules")
        self._add_group(RULES, "rules", None)
        for f in rs.factions.values():
            self._faction_group(f.name)
        for role in rs.roles.values():
            self._box_for(f"role:{role.name}", role.name, "role", self._faction_group(role.faction))
        for s in rs.skills:
            box = self._holder_box(s)
            self._node(s.uid, s.name, "skill", opaque=s.is_opaque, triggered=bool(s.trigger), box=box["id"])
            box["skills"].append(s.uid)

    def _node(self, nid: str, name: str, kind: str, **extra) -> dict:
        return self.nodes.setdefault(nid, {"id": nid, "name": name, "kind": kind, **extra})

    def _add_group(self, gid: str, kind: str, name: str | None) -> dict:
        if gid not in self._group:
            self._group[gid] = {"id": gid, "kind": kind, "name": name, "boxes": []}
            self.groups.append(self._group[gid])
        return self._group[gid]

    def _faction_group(self, name: str) -> dict:
        if f"faction:{name}" not in self._group:
            self._node(f"faction:{name}", name, "faction")
        return self._add_group(f"faction:{name}", "faction", name)

    def _box_for(self, nid: str, name: str, kind: str, group: dict) -> dict:
        if nid not in self._box:
            self._node(nid, name, kind, group=group["id"])
            self._box[nid] = {"id": nid, "skills": []}
            group["boxes"].append(self._box[nid])
        return self._box[nid]

    def _holder_box(self, s: Skill) -> dict:
        """The role's box; else the box of what the holder has ([label] of a faction, a status, an item)."""
        owner = dict(s.owner or {})
        role = s.owner_role or (owner.get("role") if set(owner) == {"role"} else None)
        if role in self.rs.roles:
            return self._box[f"role:{role}"]
        if role:  # a holder the ruleset does not declare as a role
            return self._box_for(f"role:{role}", role, "role", self._shared())
        if set(owner) == {"faction"}:
            return self._box_for(f"owner:{s.owner_text}", f"全体{owner['faction']}", "owner",
                                 self._faction_group(owner["faction"]))
        if len(owner) == 1 and next(iter(owner)) in HOLDERS:
            kind, name = next(iter(owner.items()))
            return self._holder(kind, name)
        group = self._faction_group(owner["faction"]) if "faction" in owner else self._shared()
        title = "".join(f"[{v}]" for k, v in sorted(owner.items()) if k != "faction")
        return self._box_for(f"owner:{s.owner_text}", f"持有{title}者", "owner", group)

    def _holder(self, kind: str, name: str) -> dict:
        title = f"〈{name}〉" if kind == "item" else f"[{name}]"
        return self._box_for(f"{kind}:{name}", title, kind, self._shared())

    def _shared(self) -> dict:
        return self._add_group(SHARED, "shared", None)

    def resolve(self, tokens) -> list[str]:
        """Node ids named by the tokens: a skill uid, a faction, a role, a status, label or
        item (a node is made for it), or a skill name (every skill of that name)."""
        out: list[str] = []
        for t in tokens:
            if not isinstance(t, str):
                continue
            if t in self.nodes and self.nodes[t]["kind"] == "skill":
                hits = [t]
            elif f"faction:{t}" in self.nodes or t in self.rs.factions:
                hits = [self._faction_group(t)["id"]]
            elif t in self.rs.roles:
                hits = [f"role:{t}"]
            elif any(f"{k}:{t}" in self.nodes for k in HOLDERS):
                hits = [next(f"{k}:{t}" for k in HOLDERS if f"{k}:{t}" in self.nodes)]
            elif t in self.rs.statuses or t in self.rs.labels or t in self.rs.items:
                kind = "status" if t in self.rs.statuses else "label" if t in self.rs.labels else "item"
                hits = [self._holder(kind, t)["id"]]
            else:
                hits = [s.uid for s in self.rs.skill_named(t)]
            out += [h for h in hits if h not in out]
        return out

    def anchors(self, f: Finding, keyed: list[str]) -> list[str]:
        """Where the finding belongs: what its key names, then subjects the key did not cover
        (a display name already covered is not re-resolved, so a shared skill name does not
        pull in namesakes); the ruleset as a whole when nothing is named."""
        covered = {self.nodes[n]["name"] for n in keyed}
        out = list(keyed)
        out += [n for n in self.resolve([s for s in f.subjects if s not in covered]) if n not in out]
        return out or [RULES]

    def node_list(self) -> list[dict]:
        return sorted(self.nodes.values(), key=lambda n: (n["kind"] != "skill", n["id"]))


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


def ruleset_for_report(report: Report) -> Ruleset | None:
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
            return rs
    return None


def graph_for_report(report: Report) -> dict | None:
    rs = ruleset_for_report(report)
    return interaction_graph(rs, report) if rs is not None else None
