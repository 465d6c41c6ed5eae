"""How much of the source the encoding covers: passages mapped, skills fully semantic."""
from __future__ import annotations

from models.domain import Ruleset


def coverage(rs: Ruleset) -> dict:
    skills = rs.skills
    semantic = [s for s in skills if not s.is_opaque]
    passages = _passages(rs)
    mapped = [p for p in passages if p[2]]
    return {
        "passages": len(passages), "mapped": len(mapped), "skills": len(skills), "semantic": len(semantic),
        "semantic_percent": round(100.0 * len(semantic) / len(skills), 1) if skills else 100.0,
        "opaque_skills": sorted(f"{s.owner_text}/{s.name}" for s in skills if s.is_opaque),
        "unmapped_passages": [p[1] for p in passages if not p[2]],
    }


def _passages(rs: Ruleset) -> list[tuple[str, str, bool]]:
    """Skill-like passages: a named skill, status, faction win rule, setup rule, FAQ entry.
    Each is mapped when its element cites a source line."""
    out = []
    for s in rs.skills:
        out.append(("skill", s.name, bool(s.where.src)))
    for st in rs.statuses.values():
        out.append(("status", st.name, bool(st.where.src) or st.external))
    for f in rs.factions.values():
        out.append(("faction", f.name, bool(f.where.src)))
    for r in rs.roles.values():
        out.append(("role", r.name, bool(r.where.src)))
    for g in (rs.setup.get("groups") or []):
        out.append(("setup", g["name"], bool(g.get("src"))))
    for q in rs.faq:
        out.append(("faq", q["question"], bool(q.get("src"))))
    return out
