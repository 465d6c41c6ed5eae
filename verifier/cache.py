"""Incremental re-checking: answers keyed by what they depend on.

A key combines the world signature (everything global a realizable state depends on) with
the canonical encoding of the skills a question involves. After a one-skill edit only the
questions that involve that skill (or everything, when the edit changes the world
signature) are asked again. The cache lives outside the repository data (.cache/).
"""
from __future__ import annotations

import hashlib
import json
import os
from typing import Any

from models.domain import Ruleset, Skill

CACHE_VERSION = 3


def _h(obj: Any) -> str:
    return hashlib.sha256(json.dumps(obj, ensure_ascii=False, sort_keys=True, default=str).encode("utf-8")).hexdigest()[:20]


def skill_code(skill: Skill) -> Any:
    """The skill's encoding without source lines (editing a line number changes nothing)."""
    def strip(x):
        if isinstance(x, dict):
            return {k: strip(v) for k, v in x.items() if k not in ("src", "note", "text")}
        if isinstance(x, list):
            return [strip(v) for v in x]
        return x
    return strip({"name": skill.name, "owner": skill.owner_role or skill.owner, "timing": skill.timing,
                  "tags": skill.tags, "uses": skill.uses, "charges": skill.charges, "cooldown": skill.cooldown,
                  "targets": skill.targets, "trigger": skill.trigger, "static": skill.static,
                  "condition": skill.condition, "effects": [(e.kind, e.args, e.guard, e.force) for e in skill.effects]})


def skill_digest(skill: Skill) -> str:
    return _h(skill_code(skill))


def world_signature(rs: Ruleset, world) -> str:
    raw = {k: v for k, v in rs.raw.items() if k not in ("skills", "roles", "faq", "externals", "terms", "readings",
                                                        "assumptions", "suppressions")}
    roles = [{k: v for k, v in r.items() if k != "skills"} for r in rs.raw["roles"]]
    produced = {k: sorted(map(str, v)) for k, v in world.produced.items()}
    return _h({"v": CACHE_VERSION, "raw": raw, "roles": roles, "produced": produced, "k": world.k})


class Cache:
    def __init__(self, rs: Ruleset, world, root: str | None = None):
        self.rs = rs
        self.sig = world_signature(rs, world)
        self.path = os.path.join(root or os.environ.get("VERIFIER_CACHE", ".cache/verifier"), f"{rs.id}.json")
        self.old: dict[str, Any] = {}
        self.new: dict[str, Any] = {}
        self.hits = 0
        self.misses = 0
        if os.path.exists(self.path):
            try:
                with open(self.path, encoding="utf-8") as fh:
                    self.old = json.load(fh)
            except (OSError, ValueError):
                self.old = {}

    def key(self, purpose: str, skills: list[Skill], extra: Any = None, global_skills: bool = False) -> str:
        codes = [skill_code(s) for s in skills]
        if global_skills:
            codes = [skill_code(s) for s in self.rs.skills]
        return _h({"sig": self.sig, "p": purpose, "skills": codes, "extra": extra})

    def get(self, key: str) -> Any:
        if key in self.old:
            self.hits += 1
            self.new[key] = self.old[key]
            return self.old[key]
        self.misses += 1
        return None

    def put(self, key: str, value: Any) -> None:
        self.new[key] = value

    def save(self) -> None:
        os.makedirs(os.path.dirname(self.path), exist_ok=True)
        tmp = self.path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as fh:
            json.dump(self.new, fh, ensure_ascii=False)
        os.replace(tmp, self.path)
