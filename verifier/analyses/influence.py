"""Cone of influence, by kinds of state: what a win condition reads, and every skill whose
writes can reach it through other skills' conditions. A skill outside the cone cannot
change whether the condition is reachable (used to keep cached answers after an edit)."""
from __future__ import annotations

from typing import Any

from models.domain import Ruleset, Skill
from models.encoding.semantics import writes_of
from models.encoding.sorts import REDIRECT_KINDS

FILTER_READS = {"alive": "alive", "dead": "alive", "faction": "faction", "not_faction": "faction",
                "initial_faction": "role", "role": "role", "not_role": "role", "dying": "dying",
                "neighbour_of": "alive", "strength": "role", "vote_weights": "votes"}
# ballots: who votes (alive, or a status that keeps the vote), their weights, extra votes
BALLOT_READS = {"ballot", "votes", "received", "alive", "status"}


def reads_of(x: Any) -> set[str]:
    """State words a condition, filter or number reads (coarse)."""
    out: set[str] = set()
    if isinstance(x, list):
        for v in x:
            out |= reads_of(v)
        return out
    if not isinstance(x, dict):
        return out
    for key, v in x.items():
        if key in FILTER_READS:
            out.add(FILTER_READS[key])
        if key in ("has_status", "lacks_status"):
            for name in (v if isinstance(v, list) else [v]):
                if isinstance(name, str) and name not in ("self", "target", "caster", "source", "victim"):
                    out.add(f"status:{name}")
        if key in ("label", "not_label"):
            for name in (v if isinstance(v, list) else [v]):
                if isinstance(name, str) and name not in ("self", "target", "caster", "source", "victim"):
                    out.add(f"label:{name}")
        if key == "counter" and isinstance(v, str):
            out.add(f"counter:{v}")
        if key == "counter" and isinstance(v, list) and v and isinstance(v[0], str):
            out.add(f"counter:{v[0]}")   # the per-player counter filter [name, op, value]
        if key in ("voted_for", "top_voted", "votes_for"):
            out |= BALLOT_READS
        if key == "distinct":
            out |= {"faction", "role"}
        if key == "holds":
            out.add("item")
        if key == "opaque":
            out |= set(x.get("reads") or []) | {"*"}
        out |= reads_of(v)
    return out


# what a status's `blocks` stops, by the effect kinds it stops
BLOCKED_BY = {"damage": ("damage", "out"), "out": ("out",), "set_faction": ("faction_change",),
              "grant_status": ("status_gain",)}


def skill_reads(skill: Skill, rs: Ruleset | None = None) -> set[str]:
    """What the skill's outcome depends on; with the ruleset, also the statuses that would
    stop it or one of its effects (a shield granted first stops the attack)."""
    out = reads_of(skill.condition) | reads_of(skill.targets) | reads_of(skill.trigger)
    for e in skill.all_effects():
        out |= reads_of(e.guard) | reads_of(e.args)
    out.add("lost")  # holding the skill
    if rs is not None:
        stopped = {what for e in skill.all_effects() for what in BLOCKED_BY.get(e.kind, ())}
        if skill.timing and not skill.trigger:
            stopped.add("skills")
        if skill.targets:
            stopped.add("target")
            if not skill.trigger and any(e.kind in REDIRECT_KINDS for e in rs.effects()):
                out.add("redir")   # where its targeting lands (a swap or redirect before it)
        tags = set(skill.tags)
        for st in rs.statuses.values():
            stops = stopped & set(st.blocks) - ({"skills"} if skill.name in st.except_skills else set())
            if stops or (tags & set(st.blocks_tags) and not tags & set(st.except_tags)):
                out.add(f"status:{st.name}")
    return out


def readers_of(rs: Ruleset, key: tuple) -> list[Skill]:
    """The skills whose outcome reads this value of a player (a counter, status or label, or
    holding the skill by it): what a difference in it changes later."""
    kind = key[0]
    if kind not in ("counter", "status", "label"):
        return []
    name = key[1] if kind == "counter" else key[2]
    return [s for s in rs.skills if f"{kind}:{name}" in skill_reads(s, rs) or (s.owner or {}).get(kind) == name]


def read_somewhere(rs: Ruleset):
    """outcome(key) for order questions: a status, label or counter that no condition, filter,
    win, block or skill holder anywhere in the rules reads is bookkeeping of the encoding, not
    an outcome a judge rules on; every other value is an outcome."""
    reads: set[str] = set()
    for s in rs.skills:
        reads |= skill_reads(s, rs)
        reads |= {f"{k}:{v}" for k, v in (s.owner or {}).items() if k in ("label", "status") and isinstance(v, str)}
    for f in rs.factions.values():
        reads |= reads_of(f.win) | reads_of(f.lose)
    for st in rs.statuses.values():
        if st.blocks or st.blocks_tags:
            reads.add(f"status:{st.name}")
    for lab in rs.labels.values():
        if f"label:{lab.name}" in reads or any(f"status:{x}" in reads for x in lab.implies_statuses):
            reads.add(f"label:{lab.name}")
    if "*" in reads:
        return None

    def outcome(key: tuple) -> bool:
        if key[0] in ("status", "label"):
            return f"{key[0]}:{key[2]}" in reads
        if key[0] == "counter":
            return f"counter:{key[1]}" in reads
        return True
    return outcome


def skill_writes(skill: Skill) -> set[str]:
    out: set[str] = set()
    for e in skill.effects:
        out |= writes_of(e)
    return out


def _touches(writes: set[str], cone: set[str]) -> bool:
    if "*" in cone:
        return bool(writes)
    for w in writes:
        head = w.split(":")[0]
        if w in cone or head in cone or any(c.split(":")[0] == head and ":" not in w for c in cone):
            return True
    return False


def cone(rs: Ruleset, goal_reads: set[str]) -> set[str]:
    """Words the goal depends on, closed under 'a skill writing one of them reads these'."""
    result = set(goal_reads) | {"win", "lose", "faction", "alive", "dying"}  # settling turns dying into out
    changed = True
    while changed:
        changed = False
        for s in rs.skills:
            if _touches(skill_writes(s), result):
                new = skill_reads(s, rs) - result
                if new:
                    result |= new
                    changed = True
    return result


def outside_cone(writes: set[str], the_cone: set[str]) -> bool:
    return not _touches(writes, the_cone)
