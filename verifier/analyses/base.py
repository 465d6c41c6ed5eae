"""What every analysis shares: metadata, the check context, locations, names."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Iterator

from models.domain import Ruleset, Skill, Where
from models.encoding.solver import Solver
from models.encoding.world import World

from ..findings import Finding, Location
from ..narrate import labels_of_everyone


@dataclass
class Context:
    rs: Ruleset
    world: World
    solver: Solver
    lang: str = "zh"
    notes: list[str] = field(default_factory=list)
    cache: object | None = None   # verifier.cache.Cache, for incremental re-checks
    shard: tuple[int, int] | None = None   # (i, n): an analysis that splits its questions takes the i-th of n
    progress: object | None = None   # verifier.progress.Progress (or any callable): what the check is doing
    earlier: list = field(default_factory=list)   # (kind, witness) of the baseline: games asked for first

    def __post_init__(self) -> None:
        bind = getattr(self.progress, "bind", None)
        if bind is not None:
            bind(self)   # the display reads the solver's query count from here

    def mine(self, j: int) -> bool:
        """The j-th question of an analysis that splits its questions is asked in this process."""
        return not self.shard or j % self.shard[1] == self.shard[0]

    def earlier_trails(self, kinds: tuple, match) -> list[dict]:
        """The trails (models.encoding.pinned) of the baseline's witnesses of these kinds that
        match(witness) accepts, in the baseline's order."""
        from models.encoding.pinned import usable
        out = []
        for k, w in self.earlier:
            if k not in kinds or not match(w):
                continue
            trail = (w.get("game") or {}).get("trail")
            trail = trail if usable(trail) else legacy_trail(w)
            if trail is not None:
                out.append(trail)
        return out

    def tick(self, done: int, total: int) -> None:
        """An analysis has answered `done` of its `total` questions (for the progress display)."""
        tick = getattr(self.progress, "tick", None)
        if tick is not None:
            tick(done, total)

    def cached(self, purpose: str, skills: list, extra, compute, global_skills: bool = False) -> list[Finding]:
        """Findings of one question, from the cache when nothing it depends on changed."""
        from ..findings import finding_from_json, finding_to_cache
        if self.cache is None:
            return list(compute())
        key = self.cache.key(purpose, skills, [extra, [f.name for f in self.world.derived]], global_skills)
        hit = self.cache.get(key)
        if hit is not None:
            return [finding_from_json(d) for d in hit]
        found = list(compute())
        self.cache.put(key, [finding_to_cache(f) for f in found])
        return found

    def cached_global(self, purpose: str, extra, compute, revalidate=None, goal_reads: set | None = None) -> list[Finding]:
        """For questions that depend on every skill (traces, invariants). compute() returns
        (findings, depends) where depends names what the answer rests on: the skills a trace
        uses, or the facts of an invariant. After an edit that touches none of a trace's
        skills the answer stands; an invariant stands if revalidate(facts, changed) says so."""
        from ..cache import skill_digest
        from ..findings import finding_from_json, finding_to_cache
        if self.cache is None:
            return list(compute()[0])
        exact = self.cache.key(purpose, [], [extra, [f.name for f in self.world.derived]], global_skills=True)
        hit = self.cache.get(exact)
        if hit is not None:
            return [finding_from_json(d) for d in hit["findings"]]
        relaxed = self.cache.key(purpose + "~", [], [extra, [f.name for f in self.world.derived]])
        old = self.cache.old.get(relaxed)
        codes = {s.uid: skill_digest(s) for s in self.rs.skills}
        from .influence import cone, outside_cone, skill_writes
        writes = {s.uid: sorted(skill_writes(s)) for s in self.rs.skills}
        if old is not None:
            changed = sorted(set(codes.items()) ^ set(old["codes"].items()))
            changed_uids = {uid for uid, _ in changed}
            once = {p.name for p in self.rs.phases if p.once}
            setup_touched = any(s.uid in changed_uids and s.timing and set(s.timing) <= once for s in self.rs.skills)
            dep = old["depends"]
            the_cone = cone(self.rs, goal_reads or {"*"})
            irrelevant = all(outside_cone(set(writes.get(u, [])) | set(old.get("writes", {}).get(u, ["*"])), the_cone)
                             for u in changed_uids)
            ok = not setup_touched and (
                irrelevant or
                (dep.get("kind") == "trace" and not (set(dep["skills"]) & changed_uids)) or
                (dep.get("kind") == "invariant" and revalidate is not None and
                 revalidate(dep["facts"], [s for s in self.rs.skills if s.uid in changed_uids])))
            if ok:
                self.cache.hits += 1
                self.cache.put(exact, {"findings": old["findings"]})
                self.cache.put(relaxed, dict(old, codes=codes, writes=writes))
                return [finding_from_json(d) for d in old["findings"]]
        found, depends = compute()
        found = list(found)
        value = [finding_to_cache(f) for f in found]
        self.cache.put(exact, {"findings": value})
        self.cache.put(relaxed, {"findings": value, "depends": depends or {"kind": "none"}, "codes": codes,
                                 "writes": writes})
        return found

    def locs(self, *wheres: Where | None) -> tuple[Location, ...]:
        """Source lines first (what an author reads), then the encoding line."""
        out: list[Location] = []
        for w in wheres:
            if w is None:
                continue
            for line in w.src:
                out.append(Location(self.rs.source_file, line))
        for w in wheres:
            if w is not None and w.yaml_line:
                out.append(Location(self.rs.yaml_file, w.yaml_line))
        seen: set = set()
        uniq = []
        for loc in out:
            if loc not in seen:
                seen.add(loc)
                uniq.append(loc)
        return tuple(uniq) or (Location(self.rs.yaml_file, 1),)

    def src_where(self, src, yaml_line: int = 0) -> Where:
        if src is None:
            return Where((), yaml_line)
        return Where((src,) if isinstance(src, int) else tuple(src), yaml_line)

    def yaml_line(self, path: tuple) -> int:
        from models.yaml_lines import line_of
        return line_of(getattr(self.rs, "lines", {}), path)

    def owner_name(self, skill: Skill) -> str:
        if skill.owner_role:
            return skill.owner_role
        owner = skill.owner or {}
        if set(owner) == {"label"} and owner["label"] in labels_of_everyone(self.rs):
            return "每名角色"   # a label every card carries: the skill is everyone's
        parts = [f"[{v}]" if k in ("label", "status") else str(v) for k, v in sorted(owner.items())]
        return "持有" + "".join(parts) + "者"

    def skill_text(self, skill: Skill) -> str:
        return f"{self.owner_name(skill)}的{skill.shown}"

    def external_assumptions(self) -> tuple[str, ...]:
        return tuple(sorted(f"{e['term']}：{e['assumption']}" for e in self.rs.externals))


class Analysis:
    """One kind of problem. Subclasses set the metadata and implement run()."""
    kind: str = ""
    summary: str = ""
    severity: str = "warning"
    decides_by: str = "smt"      # "graph", "smt", "both", "text"

    def run(self, cx: Context) -> Iterator[Finding]:
        raise NotImplementedError

    may_be_unknown: bool = False   # True when a query can run out of budget (then kind "unknown")
    also_yields: tuple[str, ...] = ()   # other kinds its findings may have

    @classmethod
    def yields(cls) -> tuple[str, ...]:
        return (cls.kind, *cls.also_yields, "unknown") if cls.may_be_unknown else (cls.kind, *cls.also_yields)

    @classmethod
    def doc(cls) -> str:
        return (cls.__doc__ or "").strip()


def first(items: Iterable, default=None):
    for x in items:
        return x
    return default


def legacy_trail(w: dict) -> dict | None:
    """The trail of a witness written before witnesses recorded one (its game's deal, moves
    and table; a reading's use and options): asked for the same way. None without a game, or
    with quiet days (their idle days were not written down)."""
    game = w.get("game")
    if not isinstance(game, dict) or game.get("quiet") or not isinstance(game.get("moves"), list):
        return None
    trail = {"version": 1, "moves": list(game["moves"]), "quiet": [], "start": game.get("start") or {}, "legacy": True}
    if "table_players" in w:
        trail["table"] = {"players": w["table_players"], "rest": dict(w.get("rest") or {})}
    reading = (w.get("claim") or {}).get("reading")
    if reading:
        pair = list(reading.get("options") or [])
        if "from" in reading:
            # played on after the use: the use is one of the moves
            n = int(reading["from"])
            trail.update(moves=game["moves"][:n], use=game["moves"][n],
                         after={"options": pair, "moves": game["moves"][n + 1:]})
        elif reading.get("use"):
            use = reading["use"]
            trail["use"] = {"move": "skill", "skill": use["skill"], "self": use["self"],
                            "targets": list(use["targets"]), "others": dict(use.get("others") or {})}
        trail["options"] = pair
    return trail
