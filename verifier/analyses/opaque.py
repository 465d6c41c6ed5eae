"""What the encoding could not say: opaque effects that share state with other skills.
Checks skip them (they cannot be decided), so each is reported as unknown, never silence."""
from __future__ import annotations

from typing import Iterator

from ..findings import Finding
from ..narrate import clip
from .base import Analysis, Context
from .pending import share_state, windows_of


class OpaqueInteraction(Analysis):
    """A skill encoded (partly) as opaque text whose declared writes overlap what other
    skills of the same window read or write. Its interactions are not decided: the verdict is
    unknown. Fix: extend the encoding (or the language) so the skill becomes semantic."""
    kind = "unknown"
    summary = "含不透明效果的技能，其交互无法判定"
    severity = "info"
    decides_by = "graph"

    def run(self, cx: Context) -> Iterator[Finding]:
        for s in cx.rs.skills:
            if not s.is_opaque:
                continue
            partners = list(dict.fromkeys(o.shown for o in sorted(cx.rs.skills, key=lambda x: x.name)
                                          if o is not s and share_state(cx.world, s, o)
                                          and (windows_of(cx.rs, s) & windows_of(cx.rs, o) or not s.timing or not o.timing)))
            texts = [e.args.get("text", "") for e in s.all_effects() if e.kind == "opaque" and isinstance(e.args, dict)]
            yield Finding(
                kind=self.kind, severity="info", verdict="unknown", subjects=(s.name,),
                message=f"{cx.skill_text(s)}含无法形式化的部分（{clip('；'.join(t for t in texts if t), 60) or '条件'}），"
                        + (f"它与{len(partners)}个技能的交互未判定（如{'、'.join(partners[:4])}）。" if partners else
                           "这部分的效果未判定（同一时段内没有与它读写相同状态的技能）。"),
                message_en=f"'{s.name}' is partly opaque; its interactions with {len(partners)} skills are undecided.",
                locations=cx.locs(s.where), key=("opaque", s.uid),
            )
