"""The order a story's simultaneous moves were resolved in, said where the text leaves it
open: a story that plays two interfering moves of one time slot one after the other rests
on that order, and says so (“设【甲】先于【乙】结算”)."""
from __future__ import annotations

import re

from models.encoding.reach import Move, first_called

from .base import Context
from .pending import ordered, share_state

# "第 1 天夜晚，P1 使用…": the time slot a told move is in (or "第零夜（夜晚），…" where the
# text names its first day: reach.day_text)
_SLOT = r"^(第 \d+ 天[^，]+)，"


def _slot_pattern(rs) -> re.Pattern:
    called = first_called(rs)
    return re.compile(_SLOT if not called else rf"^(第 \d+ 天[^，]+|{re.escape(called)}（[^，]+）)，")


def unstated_orders(cx: Context, told: list[tuple[str, Move]]) -> list[str]:
    """One line per time slot in which the story resolves skills one after the other that
    interfere (one writes what the other reads or writes) while the ruleset states no order
    between them (precedence, a ruling): “（第 1 天夜晚：【甲】先于【乙】结算，原文没有规定先后）”."""
    slots: dict[str, list[Move]] = {}
    slot = _slot_pattern(cx.rs)
    for text, mv in told:
        hit = slot.match(text or "")
        if hit and mv.skill is not None and mv.skill.timing and not mv.skill.trigger:
            slots.setdefault(hit.group(1), []).append(mv)
    out = []
    for slot, moves in slots.items():
        open_pair = [(a, b) for n, a in enumerate(moves) for b in moves[n + 1:]
                     if a.skill.name != b.skill.name and not ordered(cx.rs, a.skill, b.skill)
                     and share_state(cx.world, a.skill, b.skill)]
        if not open_pair:
            continue
        involved = {id(mv) for pair in open_pair for mv in pair}
        named = []
        for mv in moves:
            shown = cx.skill_text(mv.skill)
            if id(mv) in involved and shown not in named:
                named.append(shown)
        out.append(f"（{slot}：{'先于'.join(named)}结算，原文没有规定它们的先后）")
    return out
