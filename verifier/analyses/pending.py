"""Which skill uses can be pending in one window together, and how a player reaches that:
the cheap, graph-like half of order-dependence and contradiction (no solver here)."""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Iterator

from models.domain import Ruleset, Skill
from models.encoding.quiet import answers_going_out
from models.encoding.scenarios import Pin, Use
from models.encoding.world import Binding, World


@dataclass(frozen=True)
class Candidate:
    """Two uses that may resolve in one window, the scene that makes them pending, and
    the participants (slot -> description) for the story."""
    a: Use
    b: Use
    scene: tuple[Use, ...]
    pin: Pin
    window: str
    cast: tuple[tuple[int, str], ...]
    how: str


def windows_of(rs: Ruleset, skill: Skill) -> set[str]:
    return {rs.window_of(p) for p in skill.timing}


def is_active(skill: Skill) -> bool:
    return bool(skill.timing) and not skill.trigger and not skill.static


def trace_skills(rs: Ruleset, world: World) -> list[Skill]:
    """The moves of a game trace: skills a player uses, phase triggers, triggers that
    answer a going out (a shot on going out: reach.going_out_timing) and triggers on a
    faction's elimination (reach.faction_out_timing); a skill that writes nothing modelled
    (feedback, disguise, extra uses) would only stutter a trace."""
    events = ("phase_start", "phase_end", "faction_eliminated")
    return [s for s in rs.skills
            if (is_active(s) or (s.trigger or {}).get("event") in events or answers_going_out(s))
            and not s.is_opaque and world.writes(s)]


def targeted_tag(rs: Ruleset) -> set[str]:
    return {t.name for t in rs.tags.values() if t.meaning == "targeted"}


EVERYONE = "$all"   # precedence `then`: every other skill of the window


def ordered(rs: Ruleset, a: Skill, b: Skill) -> bool:
    """The ruleset states an order between a and b (precedence or a recorded ruling)."""
    names_a = {a.name, a.owner_role or ""}
    names_b = {b.name, b.owner_role or ""}
    for p in list(rs.precedence) + [r for r in rs.rulings if "first" in r]:
        first, then = p.get("first"), p.get("then")
        if first and then and ((first in names_a and then in names_b) or (first in names_b and then in names_a)):
            return True
        if first and then == EVERYONE and (first in names_a or first in names_b):
            return True   # "acts before everyone" orders it against every other skill
        order = p.get("order") or []
        if any(x in order for x in names_a) and any(x in order for x in names_b) and \
                not (names_a & names_b & set(order)):
            return True
    return False


def share_state(world: World, a: Skill, b: Skill) -> bool:
    """The two can interfere: both write one kind of value, or one writes what the other's
    conditions read (a shield granted before or after the attack it stops)."""
    from .influence import outside_cone, skill_reads
    wa, wb = world.writes(a), world.writes(b)
    ra, rb = skill_reads(a, world.rs) - {"lost"}, skill_reads(b, world.rs) - {"lost"}
    if (wa and not outside_cone(wa, rb)) or (wb and not outside_cone(wb, ra)):
        return True
    if not wa or not wb:
        return False
    heads_a = {w.split(":")[0] for w in wa}
    heads_b = {w.split(":")[0] for w in wb}
    return bool(wa & wb) or bool({"faction", "alive", "dying", "role", "lost"} & heads_a & heads_b) or \
        ("dying" in heads_a and "alive" in heads_b) or ("alive" in heads_a and "dying" in heads_b)


def _targets(skill: Skill, slots: list[int]) -> tuple[int, ...]:
    return tuple(slots[: max(1, min(skill.max_targets, 2))]) if skill.targets else ()


def active_pairs(rs: Ruleset, world: World) -> Iterator[Candidate]:
    """Two active skills of one window, their effects touching a shared player."""
    active = [s for s in rs.skills if is_active(s)]
    for a, b in combinations(active, 2):
        common = sorted(windows_of(rs, a) & windows_of(rs, b))
        if not common or ordered(rs, a, b) or not share_state(world, a, b):
            continue
        # slot 0 uses a, slot 1 uses b; their targets meet on slot 2 (or on the other user)
        shapes = [((0, (2,)), (1, (2,)), "两人对同一名角色使用技能"),
                  ((0, (1,)), (1, (0,)), "两人互相以对方为目标"),
                  ((0, (1,)), (1, (2,)), "一人以另一人为目标，后者同时对第三人使用技能")]
        for (sa, ta), (sb, tb), how in shapes:
            if (bool(ta) != bool(a.targets)) or (bool(tb) != bool(b.targets)):
                ta = ta if a.targets else ()
                tb = tb if b.targets else ()
            involved = {sa, sb, *ta, *tb}
            ta, tb = _filled(a, sa, ta, world.k, involved), _filled(b, sb, tb, world.k, involved)
            ua, ub = Use(a, Binding(sa, ta if a.targets else ())), Use(b, Binding(sb, tb if b.targets else ()))
            cast = {sa: f"{a.name}的使用者", sb: f"{b.name}的使用者"}
            for t in ua.binding.targets + ub.binding.targets:
                cast.setdefault(t, "目标")
            yield Candidate(ua, ub, (), Pin(), common[0], tuple(sorted(cast.items())), _how(ua.binding, ub.binding))


def _how(a: Binding, b: Binding) -> str:
    """How two uses meet, told from their targets (a skill without targets names nobody)."""
    ta, tb = set(a.targets), set(b.targets)
    if ta & tb:
        return "两人对同一名角色使用技能"
    if b.self_slot in ta and a.self_slot in tb:
        return "两人互相以对方为目标"
    if b.self_slot in ta or a.self_slot in tb:
        return "一人以另一人为目标，后者同时对第三人使用技能" if (ta and tb) else "一人以另一人为目标，后者同时使用技能"
    return "两人在同一时段使用技能"


def _filled(skill: Skill, user: int, targets: tuple[int, ...], k: int, involved: set[int]) -> tuple[int, ...]:
    """The shape's targets, and as many more as the skill must name (a swap names two):
    a player the shape does not involve first (the extra target of a two-target skill is no
    part of the question: made the other user, its effect on them muddles the story), then
    the other players, the user last."""
    out = list(targets)
    order = [s for s in range(k) if s not in involved] + [s for s in range(k) if s in involved and s != user]
    for s in [s for s in order if s != user] + [user]:
        if len(out) >= min(skill.min_targets, k) or s in out:
            continue
        out.append(s)
    return tuple(out)


# value effects whose ops do not commute when two standing effects change one value
VALUE_EFFECTS = ("vote_weight", "received_votes")


def _value_ops(skill: Skill) -> dict[str, set[str]]:
    """The values a standing skill changes on its holder, with the ops it uses."""
    out: dict[str, set[str]] = {}
    for e in skill.all_effects():
        a = e.args if isinstance(e.args, dict) else {}
        if e.kind in VALUE_EFFECTS and a.get("who", "self") == "self":
            out.setdefault(e.kind, set()).add(str(a.get("op", "add")))
    return out


def _commute(ops_a: set[str], ops_b: set[str]) -> bool:
    """Adding (or subtracting) twice gives the same in either order; a set or a halving does not."""
    return (ops_a | ops_b) <= {"add", "sub"}


def standing_pairs(rs: Ruleset, world: World) -> Iterator[Candidate]:
    """Two standing effects one player may hold at once that change the same value of theirs
    with operations that do not commute (票数=3 and 票数+1): the text must say how they compose."""
    standing = [s for s in rs.skills if s.static and _value_ops(s)]
    for a, b in combinations(standing, 2):
        va, vb = _value_ops(a), _value_ops(b)
        shared = sorted(set(va) & set(vb))
        if not shared or all(_commute(va[k], vb[k]) for k in shared) or ordered(rs, a, b):
            continue
        ua, ub = Use(a, Binding(0)), Use(b, Binding(0))
        yield Candidate(ua, ub, (), Pin(), "常驻效果", ((0, f"同时持有{a.name}与{b.name}的角色"),),
                        "同一名角色同时持有两个改变票数的常驻效果")


def _trigger(skill: Skill) -> dict:
    return skill.trigger or {}


def targeted_trigger_pairs(rs: Ruleset, world: World) -> Iterator[Candidate]:
    """Two triggers fired by being targeted, reached by one caster in one window."""
    tagged = targeted_tag(rs)
    triggers = [s for s in rs.skills if _trigger(s).get("event") == "targeted"]
    for t1, t2 in combinations(triggers, 2):
        if ordered(rs, t1, t2) or not share_state(world, t1, t2):
            continue
        tag1, tag2 = _trigger(t1).get("tag"), _trigger(t2).get("tag")
        for plan, window, how in caster_plans(rs, tag1, tag2, tagged):
            c, o1, o2 = 0, 1, 2
            if len(plan) == 1:
                scene = (Use(plan[0], Binding(c, (o1, o2))),)
            else:
                scene = (Use(plan[0], Binding(c, (o1,))), Use(plan[1], Binding(c, (o2,))))
            a = Use(t1, Binding(o1, (), (("caster", c),)))
            b = Use(t2, Binding(o2, (), (("caster", c),)))
            cast = ((c, "发动者"), (o1, f"{t1.name}的持有者"), (o2, f"{t2.name}的持有者"))
            yield Candidate(a, b, scene, Pin(), window, cast, how)


def caster_plans(rs: Ruleset, tag1, tag2, tagged: set[str]) -> Iterator[tuple[tuple[Skill, ...], str, str]]:
    """Ways one player can target two different players with the needed tags in one window."""
    def carries(s: Skill, tag) -> bool:
        return bool(s.targets) and (tag in s.tags if tag else bool(tagged & set(s.tags)))
    usable = [s for s in rs.skills if is_active(s)]
    singles = [s for s in usable if carries(s, tag1) and carries(s, tag2) and s.max_targets >= 2]
    for s in sorted(singles, key=_plan_key):
        for w in sorted(windows_of(rs, s)):
            yield (s,), w, f"一个技能同时指定两名目标（{s.name}）"
    pairs = []
    for x in usable:
        for y in usable:
            if (x is y and not _twice_in_window(rs, x)) or not carries(x, tag1) or not carries(y, tag2):
                continue
            if x.owner_role and y.owner_role and x.owner_role != y.owner_role:
                continue
            common = windows_of(rs, x) & windows_of(rs, y)
            if common:
                pairs.append((x, y, sorted(common)[0]))
    for x, y, w in sorted(pairs, key=lambda p: (_plan_key(p[0]), _plan_key(p[1]))):
        yield (x, y), w, f"同一人在同一时段使用两个技能（{x.name}、{y.name}）"


def _twice_in_window(rs: Ruleset, skill: Skill) -> bool:
    """One player may use the skill twice in one window: an effect grants it an extra use
    (每天可以额外发动一次). A skill whose text states no limit is not taken as usable twice a
    night: the base rules give one use per phase (a witness resting on that was rejected)."""
    return any(e.kind == "extra_use" and isinstance(e.args, dict) and e.args.get("skill") == skill.name
               for e in rs.effects())


def _plan_key(s: Skill) -> tuple:
    return (s.owner_role is None, s.owner_role or "", s.name)


# the moment a death trigger resolves, in the words of the rule texts
EVENT_MOMENT = {"about_to_go_out": "即将出局时", "went_out": "出局时"}


def event_trigger_pairs(rs: Ruleset, world: World) -> Iterator[Candidate]:
    """Two triggers on one going-out event (replacements or on-death effects), or on one phase."""
    for event in ("about_to_go_out", "went_out"):
        triggers = [s for s in rs.skills if _trigger(s).get("event") == event]
        for t1, t2 in combinations(triggers, 2):
            if ordered(rs, t1, t2) or not share_state(world, t1, t2):
                continue
            c1, c2 = _trigger(t1).get("cause"), _trigger(t2).get("cause")
            if c1 not in (None, "any") and c2 not in (None, "any") and c1 != c2:
                continue
            on1, on2 = _trigger(t1).get("on", "self"), _trigger(t2).get("on", "self")
            if on1 == "self" and on2 == "self":
                continue  # two different holders cannot both be the one going out
            v = 0
            o1 = v if on1 == "self" else 1
            o2 = v if on2 == "self" else 2
            pin = Pin(dying=(v,)) if event == "about_to_go_out" else Pin(dead=(v,))
            cause = c1 if c1 not in (None, "any") else c2
            src = (("victim", v), ("source", 3 % world.k)) + ((("$cause", cause),) if cause not in (None, "any") else ())
            a = Use(t1, Binding(o1, ((o2 if o2 != o1 else 3 % world.k),) if t1.targets else (), src))
            b = Use(t2, Binding(o2, ((o1 if o1 != o2 else 3 % world.k),) if t2.targets else (), src))
            cast = tuple(sorted({v: "即将出局者" if event == "about_to_go_out" else "出局者",
                                 o1: f"{t1.name}的持有者", o2: f"{t2.name}的持有者"}.items()))
            yield Candidate(a, b, (), pin, EVENT_MOMENT[event], cast, "同一次出局同时触发两个效果")
    for event in ("phase_start", "phase_end"):
        triggers = [s for s in rs.skills if _trigger(s).get("event") == event]
        for t1, t2 in combinations(triggers, 2):
            p1, p2 = _trigger(t1).get("phase"), _trigger(t2).get("phase")
            if p1 != p2 or ordered(rs, t1, t2) or not share_state(world, t1, t2):
                continue
            a, b = Use(t1, Binding(0, (1,) if t1.targets else ())), Use(t2, Binding(1, (0,) if t2.targets else ()))
            yield Candidate(a, b, (), Pin(), p1 or event, ((0, f"{t1.name}的持有者"), (1, f"{t2.name}的持有者")),
                            "同一阶段开始/结束时同时触发")
