"""How much of the source the encoding covers: skill-like passages of source.txt mapped
to an element that cites their line, and skills fully semantic (no opaque part)."""
from __future__ import annotations

import re

from models.domain import Ruleset

# Lines that read like a rule element: a named skill or card, a role heading, a win or
# setup rule. Recognised by shape only, never by name.
PASSAGE_SHAPES = [
    re.compile(r"^\s*【[^】]{1,12}】"),                                # 【技能】… / 【卡】（3点）
    re.compile(r"^\s*[^\s\[【<]{1,12}(\[[^\]]{1,6}\]|<[^>]{1,6}>)+\s*[—-]{1,2}"),  # 技能[深夜][指定]——
    re.compile(r"^\s*[^\s：:]{1,10}\s*[：:]\s*<[^>]{1,8}>"),            # 技能：<普通>
    re.compile(r"^\s*[^\s：:<]{1,10}<[^>]{1,8}>\s*[：:]"),              # 技能<强制>：
    re.compile(r"^\s*\d{1,2}[、，.,]\s*[^\s（(]{1,10}[（(]\d{1,3}[）)]"),   # 1、某身份（20）
    re.compile(r"^\s*(胜|负|胜利条件)\s*[：:]"),                          # 胜：… / 胜利条件：…
]


def passages(rs: Ruleset) -> list[tuple[int, str]]:
    out = []
    for no, line in enumerate(rs.source_lines, start=1):
        if no == 1:
            continue  # our header
        if any(p.search(line) for p in PASSAGE_SHAPES):
            out.append((no, line.strip()))
    return out


def cited_lines(rs: Ruleset) -> set[int]:
    lines: set[int] = set()

    def add(src) -> None:
        if isinstance(src, int):
            lines.add(src)
        elif isinstance(src, list):
            lines.update(x for x in src if isinstance(x, int))

    def walk(x) -> None:
        if isinstance(x, dict):
            for key, v in x.items():
                if key.endswith("src"):
                    add(v)
                else:
                    walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
    walk(rs.raw)
    return lines


def coverage(rs: Ruleset) -> dict:
    skills = rs.skills
    semantic = [s for s in skills if not s.is_opaque]
    found = passages(rs)
    cited = cited_lines(rs)
    unmapped = [f"第{no}行：{text[:40]}" for no, text in found if no not in cited]
    return {
        "passages": len(found), "mapped": len(found) - len(unmapped), "skills": len(skills),
        "semantic": len(semantic),
        "semantic_percent": round(100.0 * len(semantic) / len(skills), 1) if skills else 100.0,
        "opaque_skills": sorted(f"{s.owner_text}/{s.name}" for s in skills if s.is_opaque),
        "unmapped_passages": unmapped,
    }
