"""Run every analysis on one ruleset and collect a Report (sorted, suppressions applied)."""
from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from typing import Callable, Iterable

from models.domain import Ruleset
from models.encoding.solver import Solver
from models.encoding.world import World

from .analyses import ANALYSES, Analysis, Context
from .coverage import coverage
from .cache import Cache, skill_code
from .diff import fingerprints
from .findings import Finding, Report, grouped


# The bounded-trace analyses run in a world (and a process) of their own: they are most of
# the cost on large rulesets, and the machine has two cores. The split is fixed, so the
# answers do not depend on how many cores there are. missing-rule (its empty picks are
# confirmed in games) goes with them: on zemu the other process had about 75 s more work.
TRACE_KINDS = ("impossible-win", "simultaneous-win", "missing-rule")


SPLIT_KIND, SPLIT_SHARE = "simultaneous-win", 2   # every 2nd pair goes with the other analyses
SPLIT_REST = ("order-dependence", "ambiguity")    # shared by both processes, by a stable split


def _groups(kinds: Iterable[str] | None) -> list[list[str]]:
    """Names of the analyses per world; "kind@i/n" runs the i-th of n shares of its questions."""
    wanted = set(kinds) if kinds else None
    chosen = [a.kind for a in ANALYSES if not wanted or set(a.yields()) & wanted]
    traces = [k for k in chosen if k in TRACE_KINDS]
    rest = [k for k in chosen if k not in TRACE_KINDS]
    if not traces or not rest:
        return [g for g in (traces, rest) if g]
    if SPLIT_KIND in traces:
        n = SPLIT_SHARE
        traces = [k if k != SPLIT_KIND else f"{k}@0/{n}" for k in traces] + \
            [f"{SPLIT_KIND}@{i}/{n}" for i in range(1, n - 1)]
        rest = rest + [f"{SPLIT_KIND}@{n - 1}/{n}"]
    for kind in SPLIT_REST:
        # its questions are confirmed in a game (bounded traces): half of them in each process
        if kind in rest:
            rest = [k if k != kind else f"{k}@1/2" for k in rest]
            traces = traces + [f"{kind}@0/2"]
    return [traces, rest]


def earlier_witnesses(doc: dict | None) -> list[tuple[str, dict]]:
    """(kind, witness) of every witnessed finding of a findings/v1 document, examples too:
    the games a check asks for first (models.encoding.pinned)."""
    out = []
    for f in (doc or {}).get("findings") or []:
        for one in [f, *(f.get("examples") or [])]:
            if isinstance(one, dict) and isinstance(one.get("witness"), dict):
                out.append((f.get("kind"), one["witness"]))
    return out


def _run_group(rs: Ruleset, names: list[str], kinds, players, lang, cache=None, progress=None, earlier=()):
    import time
    t0 = time.time()
    world = World(rs, players)
    solver = Solver(world.ctx, int(rs.bounds["rlimit"]))
    _strengthen(world, solver, cache)
    if os.environ.get("VERIFIER_TIMING"):
        import sys
        print(f"  world and derived invariants: {time.time() - t0:.1f} s", file=sys.stderr)
    cx = Context(rs, world, solver, lang=lang, cache=cache, progress=progress, earlier=list(earlier))
    wanted = set(kinds) if kinds else None
    by_kind = {a.kind: a for a in ANALYSES}
    findings: list[Finding] = []
    for name in names:
        kind, _, share = name.partition("@")
        if progress:
            progress(kind)
        cx.shard = tuple(int(x) for x in share.split("/")) if share else None
        t1 = time.time()
        for f in by_kind[kind]().run(cx):
            # an undecided question is never silenced: unknown findings pass every filter
            if wanted and f.kind not in wanted and f.kind != "unknown":
                continue
            findings.append(f)
        if os.environ.get("VERIFIER_TIMING"):
            import sys
            print(f"  {name}: {time.time() - t1:.1f} s", file=sys.stderr)
    if getattr(progress, "group_done", None):
        progress.group_done()
    if os.environ.get("VERIFIER_TIMING"):
        import sys
        print(f"group {names[0]}…: {time.time() - t0:.1f} s", file=sys.stderr)
    return findings, solver.stats.queries, solver.stats.unknown, world.k, (cache.new if cache is not None else None), \
        dict(solver.stats.seconds)


FIXED_HASH_SEED = "0"


def hash_seed_fixed() -> bool:
    """This interpreter hashes strings the same way on every run (started with the fixed seed)."""
    return os.environ.get("PYTHONHASHSEED") == FIXED_HASH_SEED and not _SEED_CHANGED


# PYTHONHASHSEED is read when the interpreter starts: set later, it does not apply here
_SEED_CHANGED = os.environ.get("PYTHONHASHSEED") != FIXED_HASH_SEED


def check(rs: Ruleset, kinds: Iterable[str] | None = None, progress: Callable[[str], None] | None = None,
          players: int | None = None, lang: str = "zh", incremental: bool = False,
          earlier: dict | None = None) -> Report:
    """earlier: a findings document (the baseline) whose witnesses are asked for first, so a
    story stays as it was while it still holds."""
    groups = _groups(kinds)
    before = earlier_witnesses(earlier)
    results = []
    # the second process gets the cache too and sends back the answers it added
    cache = Cache(rs, World(rs, players), lang=lang) if incremental else None
    if not hash_seed_fixed():
        # some terms are built in the order of a set of names, and answers at the budget edge
        # follow the terms: every group runs in an interpreter started with one hash seed
        os.environ["PYTHONHASHSEED"] = FIXED_HASH_SEED
        ctx = multiprocessing.get_context("spawn")
        jobs = 1 if os.environ.get("VERIFIER_JOBS") == "1" else 2
        with ProcessPoolExecutor(max_workers=jobs, mp_context=ctx) as pool:
            if getattr(progress, "elsewhere", None):
                progress.elsewhere([n for g in groups for n in g])
            futures = [pool.submit(_run_group, rs, names, kinds, players, lang, cache, None, before) for names in groups]
            results = [f.result() for f in futures]
    elif len(groups) < 2 or os.environ.get("VERIFIER_JOBS") == "1":
        for names in groups:
            results.append(_run_group(rs, names, kinds, players, lang, cache, progress, before))
    else:
        ctx = multiprocessing.get_context("spawn")  # a fresh interpreter: z3 state is not shared
        with ProcessPoolExecutor(max_workers=1, mp_context=ctx) as pool:
            first = pool.submit(_run_group, rs, groups[0], kinds, players, lang, cache, None, before)
            if getattr(progress, "elsewhere", None):
                progress.elsewhere(groups[0])   # shown as running; its progress stays in that process
            rest = _run_group(rs, groups[1], kinds, players, lang, cache, progress, before)
            results = [first.result(), rest]
    if cache is not None:
        for got in results:
            cache.absorb(got[4])
        cache.save()
    findings = [f for got in results for f in got[0]]
    k = results[0][3] if results else (players or int(rs.bounds["players"]))
    queries, unknown = sum(r[1] for r in results), sum(r[2] for r in results)
    findings = _grouped(_dedupe(findings, rs.id))
    findings = [_suppress(f, rs) for f in findings]
    bounds = {"players": k, "depth": int(rs.bounds["depth"]), "rlimit": int(rs.bounds["rlimit"])}
    return Report(ruleset={"id": rs.id, "title": rs.title, "source": rs.source_file},
                  bounds=bounds, findings=findings, coverage=coverage(rs),
                  stats={"queries": queries, "unknown_queries": unknown},
                  passages=fingerprints(rs), seconds=_seconds(results))


def _seconds(results) -> dict:
    out: dict = {}
    for got in results:
        for purpose, s in got[5].items():
            out[purpose] = out.get(purpose, 0.0) + s
    return out


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


def _grouped(findings: list[Finding]) -> list[Finding]:
    """Undecided questions of one kind (a budget that ran out on ten going-out triggers) are
    one finding naming each, in the place of the first: a judge reads one line, not ten."""
    by_group: dict[str, list[Finding]] = {}
    for f in findings:
        if f.group:
            by_group.setdefault(f.group[0], []).append(f)
    out = []
    for f in findings:
        members = by_group.get(f.group[0], []) if f.group else []
        if len(members) < 2:
            out.append(f)
        elif f is members[0]:
            out.append(grouped(members))
    return out


def _suppress(f: Finding, rs: Ruleset) -> Finding:
    from dataclasses import replace
    for s in rs.suppressions:
        if s["finding"] == f.stable_id(rs.id) or s["finding"] in f.subjects and len(f.subjects) == 1:
            return replace(f, suppressed=s["reason"])
    return f


def analysis_names() -> list[type[Analysis]]:
    return list(ANALYSES)
