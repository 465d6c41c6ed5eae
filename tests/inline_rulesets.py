"""Load a ruleset written inline in a test (a dict), through the real loader."""
from __future__ import annotations

import os
import tempfile

import yaml

from models.loader import load_ruleset


def load_inline(raw: dict, source: str):
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "ruleset.yaml"), "w", encoding="utf-8") as fh:
            fh.write(yaml.safe_dump(raw, allow_unicode=True, sort_keys=False))
        with open(os.path.join(d, "source.txt"), "w", encoding="utf-8") as fh:
            fh.write(source)
        return load_ruleset(d)


def one_each(skills: dict[str, list], source: str, statuses: list[str], phases=("夜晚", "白天"), depth: int = 2,
             dealt_with: dict | None = None, shared: list | None = None, extra_roles: list | None = None, **more):
    """A table of one card per role, each role its own faction, with these skills (role ->
    skills), the phases in this order every day and these statuses (dealt_with: role ->
    the statuses its card starts with); shared: skills held through a label or status (the
    top-level skills); extra_roles: roles dealt to nobody (a created character); more: other
    top-level entries (counters, ambiguities…)."""
    roles = [{"name": r, "src": 2, "faction": f"{r}阵营", "count": 1, **({"skills": s} if s else {}),
              **({"statuses": (dealt_with or {})[r]} if r in (dealt_with or {}) else {})}
             for r, s in skills.items()]
    n = len(roles)
    raw = {"schema": "ruleset/v1", "id": "case", "title": "用例", "source": "source.txt",
           "bounds": {"players": 4, "depth": depth}, "setup": {"src": 2, "players": {"min": n, "max": n, "src": 2}},
           "phases": [p if isinstance(p, dict) else {"name": p, "src": 6} for p in phases], "statuses": [s if isinstance(s, dict) else {"name": s, "src": 3} for s in statuses],
           "factions": [{"name": f"{r}阵营", "src": 2} for r in skills], "roles": roles + list(extra_roles or []),
           **({"skills": shared} if shared else {}), **more}
    return load_inline(raw, source)
