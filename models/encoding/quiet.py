"""Quiet days: the part of a game before a witness where the only thing that happens is
that players outside the slots are voted out, one a day, and every night passes with
nobody going out (nobody uses a skill: the wolves' kill is declined, the guard's
protection lands, …). Such days reach the endgame at the real table cheaply. They are a
legal history only where declining every skill is allowed and a vote-out fires nothing:
no skill is forced, nothing answers another player's going out or a phase with a change
of state, and the identities voted out hold no trigger of their own."""
from __future__ import annotations

from ..domain import Ruleset, Skill

# events that a vote-out of someone else, or a night where nobody acts, cannot fire
_SILENT = {"setup", "faction_changed", "status_gained", "targeted", "counter_reached"}
ON_GOING_OUT = ("went_out", "about_to_go_out", "killed")


def answers_going_out(skill: Skill) -> bool:
    """A trigger that answers a player's going out (a shot on going out)."""
    return (skill.trigger or {}).get("event") in ON_GOING_OUT


def forced(rs: Ruleset, skill: Skill) -> bool:
    """Its holder cannot decline it: a tag of the skill means forced ([强制], 锁定技), or the
    text's own words say so (`mandatory`: 需选择, 每晚必须; perhaps only while duty_if holds)."""
    return bool(skill.mandatory) or rs.forced_tag(skill)


def duty_if(rs: Ruleset, skill: Skill) -> dict | None:
    """The condition under which a forced skill binds its holder (None: always): a duty the
    text states only under a condition, unless a tag or being a trigger forces it anyway."""
    if skill.trigger or rs.forced_tag(skill):
        return None
    return skill.mandatory_if


def at_setup(rs: Ruleset, skill: Skill) -> bool:
    """The skill belongs to the one-off phases before day 1: its timing has only those, or it
    is a trigger on setup or on one of those phases' start or end."""
    once = {p.name for p in rs.phases if p.once}
    trig = skill.trigger or {}
    return bool(skill.timing) and set(skill.timing) <= once or trig.get("event") == "setup" or trig.get("phase") in once


def setup_forced(rs: Ruleset, skill: Skill) -> bool:
    """A skill of the one-off phases its holder cannot decline: a trigger (on setup, or on a
    one-off phase's start or end: the phase begins and ends once) or a forced skill."""
    return bool(skill.trigger) or forced(rs, skill)


def changes_state(skill: Skill) -> bool:
    return any(e.kind != "info" for e in skill.all_effects())


def on_own_going_out(trig: dict) -> bool:
    """The trigger answers its holder's own going out ("on: self", the default)."""
    return trig.get("event") in ("went_out", "about_to_go_out") and trig.get("on", "self") == "self" \
        and "by" not in trig


def needs_living_holder(trig: dict, victim: int | None, holder: int) -> bool:
    """The holder must be alive for the skill to fire: a judge checks the actor at its turn. A
    trigger answering the holder's own going out, one whose text lets the out holder act
    (`holder_out`), and a targeted trigger are the exceptions."""
    if trig.get("event") == "targeted" or trig.get("holder_out"):
        return False
    if trig.get("event") in ("went_out", "about_to_go_out"):
        return not on_own_going_out(trig) and victim != holder
    return True


def quiet_identities(rs: Ruleset, identities) -> tuple[str, ...]:
    """The identities outside the slots that a quiet day may vote out; () when quiet days
    are not a legal history under these rules."""
    loud: set[str] = set()
    for s in rs.skills:
        trig = s.trigger or {}
        if forced(rs, s):
            return ()
        if not trig or trig.get("event") in _SILENT:
            continue
        if on_own_going_out(trig) and s.owner_role:
            loud.add(s.owner_role)
            continue
        if trig.get("event") in ("phase_start", "phase_end") and not changes_state(s):
            continue
        return ()   # fires on someone else's vote-out, a faction's end or every night
    return tuple(r for r in identities if r not in loud)
