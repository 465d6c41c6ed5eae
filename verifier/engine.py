"""Run every analysis on one ruleset and collect a Report (sorted, suppressions applied)."""
from __future__ import annotations

from typing import Callable, Iterable

from models.domain import Ruleset
from models.encoding.solver import Solver
from models.encoding.world import World

from .analyses import ANALYSES, Analysis, Context
from .coverage import coverage
from .cache import Cache, skill_code
from .diff import fingerprints
from .findings import Finding, Report


def check(rs: Ruleset, kinds: Iterable[str] | None = None, progress: Callable[[str], None] | None = None,
          players: int | None = None, lang: str = "zh", incremental: bool = False) -> Report:
    world = World(rs, players)
    solver = Solver(world.ctx, int(rs.bounds["rlimit"]))
    cache = Cache(rs, world) if incremental else None
    _strengthen(world, solver, cache)
    cx = Context(rs, world, solver, lang=lang, cache=cache)
    wanted = set(kinds) if kinds else None
    findings: list[Finding] = []
    for analysis in ANALYSES:
        if wanted and not (set(analysis.yields()) & wanted):
            continue
        if progress:
            progress(analysis.kind)
        for f in analysis().run(cx):
            # an undecided question is never silenced: unknown findings pass every filter
            if wanted and f.kind not in wanted and f.kind != "unknown":
                continue
            findings.append(f)
    if cache is not None:
        cache.save()
    findings = _dedupe(findings, rs.id)
    findings = [_suppress(f, rs) for f in findings]
    bounds = {"players": world.k, "depth": int(rs.bounds["depth"]), "rlimit": int(rs.bounds["rlimit"])}
    return Report(ruleset={"id": rs.id, "title": rs.title, "source": rs.source_file},
                  bounds=bounds, findings=findings, coverage=coverage(rs),
                  stats={"queries": solver.stats.queries, "unknown_queries": solver.stats.unknown},
                  passages=fingerprints(rs))


def _strengthen(world: World, solver: Solver, cache: Cache | None) -> None:
    """Derived invariants; after an edit, re-check only the skills that changed."""
    import hashlib
    import json
    codes = {s.uid: hashlib.sha256(json.dumps(skill_code(s), ensure_ascii=False, sort_keys=True, default=str)
                                   .encode("utf-8")).hexdigest()[:16] for s in world.rs.skills}
    prev = cache.old.get(f"derive::{cache.sig}") if cache is not None else None
    if prev is not None:
        changed = [s for s in world.rs.skills if prev["skills"].get(s.uid) != codes[s.uid]]
        setup_changed = any(s.timing and all(p in {ph.name for ph in world.rs.phases if ph.once} for p in s.timing)
                            for s in changed)
        if setup_changed:
            world.strengthen(solver)
        else:
            world.strengthen(solver, known=prev["facts"], changed=changed)
    else:
        world.strengthen(solver)
    if cache is not None:
        cache.put(f"derive::{cache.sig}", {"facts": [f.name for f in world.derived], "skills": codes})


def _dedupe(findings: list[Finding], rid: str) -> list[Finding]:
    seen: dict[str, Finding] = {}
    for f in findings:
        seen.setdefault(f.stable_id(rid), f)
    return list(seen.values())


def _suppress(f: Finding, rs: Ruleset) -> Finding:
    from dataclasses import replace
    for s in rs.suppressions:
        if s["finding"] == f.stable_id(rs.id) or s["finding"] in f.subjects and len(f.subjects) == 1:
            return replace(f, suppressed=s["reason"])
    return f


def analysis_names() -> list[type[Analysis]]:
    return list(ANALYSES)
