"""What every analysis shares: metadata, the check context, locations, names."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Iterator

from models.domain import Ruleset, Skill, Where
from models.encoding.solver import Solver
from models.encoding.world import World

from ..findings import Finding, Location


@dataclass
class Context:
    rs: Ruleset
    world: World
    solver: Solver
    lang: str = "zh"
    notes: list[str] = field(default_factory=list)
    cache: object | None = None   # verifier.cache.Cache, for incremental re-checks

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
        parts = [f"[{v}]" if k in ("label", "status") else str(v) for k, v in sorted(owner.items())]
        return "持有" + "".join(parts) + "者"

    def skill_text(self, skill: Skill) -> str:
        return f"{self.owner_name(skill)}的【{skill.name}】"

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

    @classmethod
    def yields(cls) -> tuple[str, ...]:
        return (cls.kind, "unknown") if cls.may_be_unknown else (cls.kind,)

    @classmethod
    def doc(cls) -> str:
        return (cls.__doc__ or "").strip()


def first(items: Iterable, default=None):
    for x in items:
        return x
    return default
