"""Detours in a story: moves a judge reads as beside the point.

A witness is a legal game, but a game where the seer checks himself or a wolf knifes a
teammate drags a second rule into the story (出刀对本阵营无效 and the like) and reads as a
trick. A finding's game is asked for again without them (a plain story); the first one is
kept when there is none.
"""
from __future__ import annotations

import hashlib
import os

import z3

from ..domain import Skill

# what counts as a detour, as written here: a baseline's "no plain game" found under other
# rules is asked for again (plain_none / in_vain)
with open(os.path.abspath(__file__), "rb") as _fh:
    RULES = hashlib.sha256(_fh.read()).hexdigest()[:12]


def in_vain() -> dict:
    """The trail's mark that a plain game was asked for in vain, under these rules."""
    return {"plain": "none", "detours": RULES}


def plain_none(trail: dict | None) -> bool:
    """A baseline trail says no plain game exists, under the detour rules as they are now."""
    return bool(trail) and trail.get("plain") == "none" and trail.get("detours") == RULES


def harms_targets(skill: Skill, rs=None) -> bool:
    """The skill damages its targets, puts them out or (given rs) gives them a status the post
    calls negative (负面状态: 濒死…). A use on one's own camp is then a second rule a story
    drags in (出刀对本阵营无效 and the like)."""
    def harms(e) -> bool:
        a = e.args if isinstance(e.args, dict) else {}
        if a.get("who") != "target":
            return False
        if e.kind in ("damage", "out"):
            return True
        status = rs.statuses.get(a.get("status")) if rs is not None and e.kind == "grant_status" else None
        return status is not None and status.negative
    return any(harms(e) for e in skill.all_effects())


def bond_statuses(rs) -> set[str]:
    """Statuses one use gives for good to its user and its one target together (a bride and
    her partner): a bond between the two."""
    out = set()
    for skill in rs.skills:
        if int((skill.targets or {}).get("max", 0) or 0) != 1:
            continue
        given: dict[str, set] = {}
        for e in skill.all_effects():
            a = e.args if isinstance(e.args, dict) else {}
            if e.kind == "grant_status" and isinstance(a.get("who"), str) and a.get("duration") == "permanent":
                given.setdefault(a.get("status"), set()).add(a["who"])
        out |= {s for s, who in given.items() if s and {"self", "target"} <= who}
    return out


def _mentions(x, name: str) -> bool:
    if isinstance(x, dict):
        return any(_mentions(v, name) for v in x.values())
    if isinstance(x, (list, tuple)):
        return any(_mentions(v, name) for v in x)
    return x == name


def skill_reads(skill: Skill, name: str) -> bool:
    """The skill's condition, targets or effects name `name` (a status…): it is the skill's subject."""
    return _mentions([skill.condition, skill.targets, [[e.args, e.guard] for e in skill.all_effects()]], name)


def on_a_partner(rs, skill: Skill, self_slot: int, targets, held) -> list:
    """The ways the use lands on the user's own partner (both hold a bond status the skill does
    not read: a witness made of one's own lover). held(x, status): a term, or a value."""
    bonds = [b for b in sorted(bond_statuses(rs)) if not skill_reads(skill, b)]
    return [z3.And(held(self_slot, b), held(x, b)) if isinstance(held(x, b), z3.BoolRef) else bool(held(self_slot, b) and held(x, b))
            for b in bonds for x in targets if x != self_slot]


def odd_use(skill: Skill, self_slot: int, targets, camp, rs=None, held=None) -> z3.BoolRef | bool:
    """A use a judge reads as a detour (the seer checks himself, a wolf knifes himself or a
    teammate, a bride makes her own partner the witness): a skill used on its own user, a
    harmful one on the user's camp, or one on the user's partner (on_a_partner, given rs and
    held). camp(x): player x's faction (a term, or a value)."""
    if self_slot in targets:
        return True
    ways = [camp(x) == camp(self_slot) for x in targets] if harms_targets(skill, rs) else []
    ways += on_a_partner(rs, skill, self_slot, targets, held) if rs is not None and held is not None else []
    if any(w is True for w in ways):
        return True
    terms = [w for w in ways if isinstance(w, z3.BoolRef)]
    return z3.Or(terms) if terms else False


def held_in(st) -> object:
    """held(x, status) over a state: its term (False where the state has none)."""
    return lambda x, name: st[("status", x, name)] if ("status", x, name) in st.terms else False


def held_in_values(values: dict) -> object:
    """held(x, status) over a concrete state (key -> value)."""
    return lambda x, name: bool(values.get(("status", x, name), False))


def on_the_out(skill: Skill, targets, alive, rs=None) -> z3.BoolRef | bool:
    """A skill that does not harm its targets used on a player already out (the seer checks a
    dead player). alive(x): player x is alive (a term, or a value)."""
    if harms_targets(skill, rs):
        return False
    out = [alive(x) for x in targets]
    return z3.Or([z3.Not(a) for a in out]) if out and isinstance(out[0], z3.BoolRef) else not all(out)


def no_odd_moves(u, upto: int) -> list:
    """The first upto moves of an unrolled game are no odd uses (odd_use), none uses a skill
    that does not harm on a player already out (on_the_out), and no vote-out among them rests
    on a ballot cast for oneself."""
    out = [st[("ballot", v)] != v for st in u.states[1:upto + 1] for v in range(u.trans.world.k)
           if ("ballot", v) in st.terms]
    for s in range(upto):
        out += _plain_move(u, s)
    return out


def _plain_move(u, s: int) -> list:
    """The move after state s of u is no odd use and no harmless use on the out (no_odd_moves):
    the same terms for every goal that asks, built once per step."""
    memo = u.__dict__.setdefault("_plain_moves", {})
    if s in memo:
        return memo[s]
    out = []
    st = u.states[s]
    for n, mv in enumerate(u.trans.moves):
        if mv.skill is None or mv.binding is None or not mv.binding.targets:
            continue
        dead = on_the_out(mv.skill, mv.binding.targets, lambda x, st=st: st[("alive", x)], u.trans.world.rs)
        if dead is not False:
            out.append(z3.Implies(u.sels[s] == n, z3.Not(dead)))
        odd = odd_use(mv.skill, mv.binding.self_slot, mv.binding.targets, lambda x, st=st: st[("faction", x)],
                      u.trans.world.rs, held_in(st))
        if odd is True:
            out.append(u.sels[s] != n)
        elif odd is not False:
            out.append(z3.Implies(u.sels[s] == n, z3.Not(odd)))
    memo[s] = out
    return out


def odd_moves(rs, moves: list[dict], camp: dict) -> bool:
    """Some move (move_json) of a found game is an odd use; camp: the factions the game's
    state gives (("faction", x) -> name)."""
    skills = {x.uid: x for x in rs.skills}
    return any(mv.get("move") == "skill" and mv.get("targets") and mv.get("skill") in skills and
               odd_use(skills[mv["skill"]], mv["self"], mv["targets"], lambda x: camp.get(("faction", x)),
                       rs, held_in_values(camp))
               for mv in moves)


def detoured_game(m, u, upto: int) -> bool:
    """In the model's game, someone cast a ballot for himself in the first upto moves, or used
    a skill that does not harm on a player already out (on_the_out): a story to ask again."""
    if any(z3.is_true(m.eval(st[("ballot", v)] == v, model_completion=True))
           for st in u.states[1:upto + 1] for v in range(u.trans.world.k) if ("ballot", v) in st.terms):
        return True
    for s in range(min(upto, len(u.sels))):
        mv = u.trans.moves[m.eval(u.sels[s], model_completion=True).as_long()] if \
            0 <= m.eval(u.sels[s], model_completion=True).as_long() < len(u.trans.moves) else None
        if mv is not None and mv.skill is not None and mv.binding is not None and mv.binding.targets:
            dead = on_the_out(mv.skill, mv.binding.targets, lambda x, st=u.states[s]: st[("alive", x)], u.trans.world.rs)
            if dead is not False and z3.is_true(m.eval(dead, model_completion=True)):
                return True
    return False
