"""Replay a witnessed game (a finding's witness "game") through the independent interpreter
(tests/brute_force.py), as a whole game from the slots once setup is over: the table, the
quiet days, every move checked for legality at its turn, and the finding's claim at the end.

Legality here is written from models/LANGUAGE.md and the issue, not from the engine: a move
happens only while nobody has won (unless the text lets going-out triggers fire after a win),
its actor holds the skill and may use it (interpreter's `enabled`: alive, timing-free, filter,
condition, not blocked, per-game limit), a skill that may not repeat a target (no_repeat_target)
takes none it took that day or the day before, a skill limited per day/phase is used at most its
count between two new days (all holders together when shared), a skill with a timing and no stated
limit once in each of its phases a day, one vote-out a day, skill uses
(and vote-outs, when the text gives the vote its phase; and triggers on a phase's start or end,
which fire once a day for each holder, before or after that phase's actions) of a day follow the order of their phases,
no vote-out comes before the first day whose vote puts anyone out (voting.first_out_day), a trigger answering a going out comes right
after it, and a trigger on a faction's elimination right after the move that left it with nobody alive. Free values the engine leaves open (opaque conditions, chances) are tried every way.
A skill used in a phase was held before that day's earlier moves of the phase (a judge collects
a phase's actions when it begins). A witness whose game leads to a window (order-dependence, an empty pick) also names the window's
uses: they must be able to follow the moves (_window_follows), and the moves must lead to the
state the window begins in.
"""
from __future__ import annotations

import brute_force as bf
from verifier.narrate import key_from_json

ON_GOING_OUT = ("went_out", "killed")


def temporary_statuses(rs) -> set[str]:
    """Statuses only ever granted for a phase, a day or until a phase, and never dealt."""
    spans: dict[str, set] = {}
    for e in rs.effects():
        a = e.args if isinstance(e.args, dict) else {}
        if e.kind == "grant_status" and isinstance(a.get("status"), str):
            d = str(a.get("duration") or "permanent")
            spans.setdefault(a["status"], set()).add(d in ("phase", "day") or d.startswith("until:"))
    dealt = {s for r in rs.roles.values() for s in (r.statuses or ())}
    dealt |= {s for lab in rs.labels.values() for s in lab.implies_statuses}
    return {s for s, kinds in spans.items() if kinds == {True} and s not in dealt}


def _phase_event(skill) -> str | None:
    """The phase whose start or end the skill answers (a phase happens once a day)."""
    trig = skill.trigger or {}
    return trig.get("phase") if trig.get("event") in ("phase_start", "phase_end") else None


def _day_rank(rs, skill) -> int | None:
    """The place in the day: a phase's start triggers, then its actions, then its end triggers."""
    if _phase_event(skill):
        r = _phases_rank(rs, [_phase_event(skill)])
        return None if r is None else 3 * r + (0 if skill.trigger["event"] == "phase_start" else 2)
    if not skill.timing or skill.trigger:
        return None
    r = _phases_rank(rs, skill.timing)
    return None if r is None else 3 * r + 1


def _vote_rank(rs) -> int | None:
    """A vote-out's place in the day, when the YAML gives the vote a phase (voting.phase)."""
    phase = (rs.raw.get("voting") or {}).get("phase")
    r = _phases_rank(rs, [phase]) if phase else None
    return None if r is None else 3 * r + 1


def _forced_tags(rs) -> set:
    """The tags whose holder cannot decline the skill: meaning forced ([强制]) or locked (锁定技,
    which the encodings' own assumptions define so), read from the YAML."""
    return {t["name"] for t in rs.raw.get("tags") or [] if t.get("meaning") in ("forced", "locked")}


def _loud_outside(rs, it) -> dict:
    """identity outside the slots -> the events on others its forced triggers answer, as
    (event, faction of an elimination, cause of a going out, filter on who goes out) (read from
    the YAML: a tag whose meaning is forced; a trigger that only tells is silent)."""
    forced = _forced_tags(rs)
    out: dict = {}
    for role in rs.raw.get("roles") or []:
        if not it.table or role["name"] not in it.table.get("rest", {}):
            continue
        for sk in role.get("skills") or []:
            trig = sk.get("trigger") or {}
            event, on = trig.get("event"), trig.get("on", "self")
            if not trig or not (set(sk.get("tags") or []) & forced or sk.get("mandatory")):
                continue
            if all("info" in e for e in sk.get("effects") or []):
                continue
            if on == "self" and event in ("went_out", "about_to_go_out", "targeted") and "by" not in trig:
                continue
            if event in ("phase_start", "phase_end", "setup"):
                continue
            cause = trig.get("cause") if trig.get("cause") not in (None, "any") else None
            flt = on if isinstance(on, dict) and event in GOING else {}
            out.setdefault(role["name"], []).append((event, trig.get("faction") if event == "faction_eliminated" else None,
                                                     cause, flt))
    return out


GOING = ("about_to_go_out", "went_out", "killed")


def _outside_stays_silent(it, loud: dict, before, after, k: int, rests: list) -> None:
    """A move shows an event a forced trigger of a living player outside the slots answers."""
    for role, events in loud.items():
        if before[("rest", role)] <= 0:
            continue
        for event in events:
            if _shows(it, event, before, after, k, rests):
                raise Illegal(f"a living {role} outside the slots would answer {event[0]}")


# what a use must be able to do to make each event (a kind of effect)
MAKES = {"about_to_go_out": {"out", "damage"}, "went_out": {"out", "damage"}, "killed": {"out", "damage"},
         "faction_changed": {"set_faction", "set_role"}, "faction_eliminated": {"out", "damage", "set_faction"}}


def _fits(it, flt: dict, i: int, st) -> bool:
    """The trigger's filter holds for slot i (one naming another participant: taken to hold)."""
    try:
        return not flt or it.filter(flt, i, {"victim": i}, st)
    except Exception:   # noqa: BLE001 - a filter this replay cannot bind is taken to hold
        return True


def _outside_silent_at(it, loud: dict, st, uses: list) -> None:
    """The uses after the moves (skill, use dict) can make an event a forced trigger of a
    living player outside the slots answers: a going out of its cause, of a target its filter
    matches; an elimination only when no living member is outside the slots."""
    kinds = {e.kind for sk, _ in uses for e in sk.all_effects()}
    for role, events in loud.items():
        if st[("rest", role)] <= 0:
            continue
        for event, faction, cause, flt in events:
            if event in MAKES and not MAKES[event] & kinds:
                continue
            if event in GOING:
                hit = False
                for sk, use in uses:
                    harm = [e.args for e in sk.all_effects() if e.kind in ("out", "damage") and isinstance(e.args, dict)]
                    named = {a.get("cause") or a.get("kind") for a in harm}
                    if not harm or (cause and None not in named and cause not in named):
                        continue
                    victims = use["targets"] if all(a.get("who") == "target" for a in harm) else range(it.k)
                    hit = hit or any(_fits(it, flt, v, st) for v in victims)
                if not hit:
                    continue
            if event == "faction_eliminated" and faction and \
                    any(n and view.alive and view[("faction", bf.REST)] == faction for n, view in it.rest_views(st)):
                continue   # a living member outside the slots, whom the uses cannot touch
            raise Illegal(f"a living {role} outside the slots would answer the uses")


def _shows(it, event: tuple, before, after, k: int, rests: list) -> bool:
    kind, faction, cause, flt = event
    why = (lambda i: after[("cause", i)] == it.cause_value(cause)) if cause and it.causes else (lambda i: True)
    died = any(before[("alive", i)] and not after[("alive", i)] and why(i) and _fits(it, flt, i, after)
               for i in range(k)) or \
        (cause in (None, "投票", "投票出局") and any(after[("rest", r)] < before[("rest", r)] for r in rests))
    if kind == "about_to_go_out":
        return any(not before[("dying", i)] and after[("dying", i)] and why(i) and _fits(it, flt, i, after)
                   for i in range(k))
    if kind in ("went_out", "killed"):
        return died
    if kind == "faction_changed":
        return any(before[("faction", i)] != after[("faction", i)] for i in range(k))
    if kind == "faction_eliminated" and faction:
        gone = lambda s: it.cond({"none": {"alive": True, "faction": faction}}, {}, s)  # noqa: E731
        return gone(after) and not gone(before)
    return True


def phase_is(rs, here: int) -> dict:
    """The values of "it is phase P" ({phase: P}) for the phases that come every day, at the
    place in the day `here` (-1: nothing with a phase has happened yet today); a phase of a
    window with several is told apart only by its window."""
    once = {p.name for p in rs.phases if p.once} | {rs.window_of(p.name) for p in rs.phases if p.once}
    names = ({p.name for p in rs.phases if not p.once} | {rs.window_of(p.name) for p in rs.phases if not p.once}) - once
    out = {}
    for name in names:
        r = _phases_rank(rs, [name])
        out[("phase_is", name)] = r is not None and here >= 0 and here // 3 == r
    return out


def _phases_rank(rs, phases) -> int | None:
    order = []
    for p in rs.phases:
        w = rs.window_of(p.name)
        if not p.once and w not in order:
            order.append(w)
    ranks = [order.index(rs.window_of(p)) for p in phases if rs.window_of(p) in order]
    return min(ranks) if ranks else None


def _raw(rs, skill) -> dict:
    """The skill as the YAML writes it (no_repeat_target read from the text of the encoding)."""
    node = rs.raw
    for p in skill.yaml_path:
        node = node[p]
    return node if isinstance(node, dict) else {}


class Illegal(Exception):
    pass


def _forced(rs) -> list:
    """(skill, its rank in the day) for each skill with a timing its holder cannot decline
    (one that only tells changes nothing: whether it was used is the same game), and each
    trigger on a phase's start or end (it fires whenever it would change something)."""
    out = []
    for s in rs.skills:
        if _phase_event(s):
            if _day_rank(rs, s) is not None:
                out.append((s, _day_rank(rs, s)))
            continue
        r = None if s.trigger else _day_rank(rs, s)
        if r is not None and (set(s.tags) & _forced_tags(rs) or _raw(rs, s).get("mandatory")) and \
                any(e.kind != "info" for e in s.all_effects()):
            out.append((s, r))
    return out


def _forced_on_going_out(rs, events=ON_GOING_OUT) -> list:
    """Triggers on a player's going out (or, events=("about_to_go_out",), being about to) their
    holder cannot decline (a forced or locked tag, or the text's `mandatory` without a
    condition), read from the YAML."""
    forced = _forced_tags(rs)
    out = []
    for s in rs.skills:
        raw = _raw(rs, s)
        duty = set(raw.get("tags") or []) & forced or (raw.get("mandatory") and not raw["mandatory"].get("if"))
        if (s.trigger or {}).get("event") in events and duty:
            out.append(s)
    return out


def _replaced_before_outs(rs, it, st, replaced: set) -> None:
    """The pending outs happen (天亮, a settling): each forced trigger answering a player about
    to go out (a replacement) has fired, or cannot be used, or would change nothing."""
    for skill in _forced_on_going_out(rs, ("about_to_go_out",)):
        for b in bf.bindings(it, skill):
            victim = dict(b.others).get("victim", b.self_slot)
            if not st[("dying", victim)] or (skill.uid, b.self_slot, victim) in replaced:
                continue
            if it.enabled(st, skill, b) and _changes(it, st, it.run(st, skill, b)):
                raise Illegal(f"{skill.name} is forced and did not answer a player about to go out")


def _owed_after(rs, it, owed: list, before, after, move) -> list:
    """The forced going-out triggers owed once a move is made: those of the players it put
    out are added, the one it fired is paid."""
    if before is None:
        return owed
    if move is not None and move["move"] == "skill":
        victim = move["others"].get("victim", move["self"])
        owed = [o for o in owed if (o[0].uid, o[1], o[2]) != (move["skill"], move["self"], victim)]
    gone = [v for v in range(it.k) if before[("alive", v)] and not after[("alive", v)]]
    return owed + [(s, h, v) for v in gone for s in _forced_on_going_out(rs) for h in range(it.k)]


def _owed_fired(it, owed: list, st) -> None:
    """Play goes on past a going out: each forced trigger on it has fired, or its holder can
    no longer use it there, or it would change nothing."""
    for skill, holder, victim in owed:
        for b in bf.bindings(it, skill):
            if b.self_slot != holder or dict(b.others).get("victim", b.self_slot) != victim:
                continue
            if it.enabled(st, skill, b) and _changes(it, st, it.run(st, skill, b)):
                raise Illegal(f"{skill.name} is forced and did not fire on a going out")


def _setup_skills(rs) -> list:
    """The skills of the one-off phases (before day 1), in the order a judge resolves them:
    triggers on setup, then phase by phase its start triggers, the skills used in it, its end
    triggers (read from the YAML's phases)."""
    phases = [p["name"] for p in rs.raw.get("phases") or []]
    once = {p["name"] for p in rs.raw.get("phases") or [] if p.get("once")}
    out = []
    for n, s in enumerate(rs.skills):
        trig = s.trigger or {}
        if s.timing and set(s.timing) <= once:
            out.append((min(phases.index(p) for p in s.timing), 1, n, s))
        elif trig.get("event") == "setup":
            out.append((-1, 0, n, s))
        elif trig.get("phase") in once:
            out.append((phases.index(trig["phase"]), 2 if trig.get("event") == "phase_end" else 0, n, s))
    return [s for *_, s in sorted(out, key=lambda x: x[:3])]


def _bound_at_setup(rs, it, skill, i: int, st) -> bool:
    """Holder i cannot decline the setup skill: a trigger, a forced tag, or the text's
    `mandatory` (with its `if`, only while that holds)."""
    raw = _raw(rs, skill)
    if skill.trigger or set(skill.tags) & _forced_tags(rs):
        return True
    duty = raw.get("mandatory")
    return bool(duty) and (duty.get("if") is None or it.cond(duty["if"], {"self": i}, st))


# not compared with the start: bookkeeping, and what the quiet days between setup and the
# start change (the table's counts, checked by _replay; the ballots of those vote-outs)
NOT_SETUP = ("spent", "cause", "redir", "by", "rest", "ballot")


def setup_reaches(rs, it: bf.Interp, deal: dict, start) -> bool:
    """The slots as dealt become the start once setup resolves: each holder of a setup skill
    uses it at most once, and must when they cannot decline it and can use it."""
    want = {k: start[k] for k in it.keys if k[0] not in NOT_SETUP}

    def walk(st: dict, todo: list) -> bool:
        if not todo:
            return all(st.get(k, v) == v for k, v in want.items())
        (skill, i), rest = todo[0], todo[1:]
        view = bf.View(st)
        if not it.holds(view, i, skill):
            return walk(st, rest)
        ways = [(en, after) for b in bf.bindings(it, skill) if b.self_slot == i
                for en, after, _ in bf.outcomes(it, st, skill, b) if en]
        if not ways or not _bound_at_setup(rs, it, skill, i, view):
            if walk(st, rest):
                return True
        return any(walk(after, rest) for _, after in ways)

    return walk(dict(deal), [(s, i) for s in _setup_skills(rs) for i in range(it.k)])


def _duty_outside(rs, it) -> None:
    """An identity outside the slots holds a skill it cannot decline that lands on other
    players (a target it must take, or players it does not choose): of the one-off phases
    (before day 1: a trigger, a forced tag, the text's `mandatory`), or of the day's phases
    (not a trigger: a forced tag, `mandatory` without a condition). It would pick players the
    game never names. Read from the YAML."""
    if not it.table:
        return
    setup = {(s.owner_role, s.name) for s in _setup_skills(rs)}
    forced = _forced_tags(rs)
    for role in rs.raw.get("roles") or []:
        if it.table["rest"].get(role["name"], 0) <= 0:
            continue
        for sk in role.get("skills") or []:
            trig = sk.get("trigger") or {}
            at_setup = (role["name"], sk["name"]) in setup
            duty = set(sk.get("tags") or []) & forced or sk.get("mandatory")
            if at_setup and not (trig or duty):
                continue
            if not at_setup and (trig or not sk.get("timing") or not duty or (sk.get("mandatory") or {}).get("if")):
                continue
            targets = sk.get("targets")
            takes = bool(targets) and (targets.get("min", 1) or 0) >= 1
            others = False
            for e in sk.get("effects") or []:
                kind = next((key for key in e if key not in ("src", "if", "note", "force", "instead", "text")), "info")
                args = e.get(kind) if isinstance(e.get(kind), dict) else {}
                others = others or (kind != "info" and args.get("who", args.get("to")) not in ("self", "target"))
            if takes or others:
                raise Illegal(f"{role['name']} is outside the slots but must use {sk['name']} on other players")


def _not_declined(rs, it: bf.Interp, st, rank_before: int, passing: int, done: set) -> None:
    """A day passing the phase of a [强制] skill (to phase rank `passing`; a new day: any)
    for the first time: every holder who could use it that day has used it."""
    for skill, r in _forced(rs):
        if not (rank_before <= r < passing):
            continue
        duty = (_raw(rs, skill).get("mandatory") or {}).get("if")   # a duty only while this holds
        for b in bf.bindings(it, skill):
            if duty is not None and not it.cond(duty, {"self": b.self_slot}, st):
                continue
            if (skill.uid, b.self_slot) not in done and it.enabled(st, skill, b) and \
                    (not skill.trigger or _changes(it, st, it.run(st, skill, b))):
                raise Illegal(f"{skill.name} is forced and was not used in its phase")


def _changes(it: bf.Interp, before, after) -> bool:
    """Some value other than the use counts and bookkeeping differs."""
    return any(before[k] != after[k] for k in it.keys if k[0] not in ("spent", "cause", "redir", "by"))


def _daily_cap(rs, skill) -> int | None:
    """Uses a day a skill allows: its per-day/per-phase count, else, for a skill with a timing
    and no stated limit, once in each of its phases (one action per skill when a phase
    begins), unless some effect grants it extra uses (LANGUAGE.md: uses)."""
    u = skill.uses or {}
    if u.get("per") in ("day", "phase") and isinstance(u.get("count"), int):
        return u["count"]
    # extra uses the interpreter does not count (not per day, or of every skill): no default cap
    extra = {(e.args or {}).get("skill") for e in rs.effects() if e.kind == "extra_use" and isinstance(e.args, dict)
             and ((e.args or {}).get("per", "day") != "day" or (e.args or {}).get("skill") == "$all")}
    if not u and skill.timing and not skill.trigger and skill.name not in extra and "$all" not in extra:
        return len({rs.window_of(p) for p in skill.timing})
    return None


def _with_extra(it: bf.Interp, st, skill, user: int, cap: int | None) -> int | None:
    """The day's cap with the extra uses granted today (每天仅一次，可再次发动): the largest
    grant any holder has when the skill is a team's, else the user's."""
    if cap is None or skill.name not in it.extra:
        return cap
    shared = (skill.uses or {}).get("shared")
    return cap + max(st[("extra", i, skill.name)] for i in (range(it.k) if shared else [user]))


def _replay(rs, it: bf.Interp, w: dict, st, switch: tuple | None = None, where: dict | None = None):
    """The moves of w's game from st, each checked legal (Illegal otherwise). switch: (n, values)
    set before the n-th move (a reading read differently from there on); where["at"] is the
    move being played."""
    by_uid = {s.uid: s for s in rs.skills}
    game = w["game"]
    after_triggers = (rs.win_check or {}).get("when") == "after_triggers"
    k = it.k
    if it.table:
        if it.table["players"] != k + sum(it.table["rest"].values()):
            raise Illegal("the table's size is not the slots plus the rest")
        st = st.set({("rest", r): c for r, c in it.table["rest"].items()})
    first_out = int((rs.raw.get("voting") or {}).get("first_out_day", 1))   # read from the YAML, not the engine
    # the game begins with a later phase of the first day (begins_with): the earlier ones,
    # and a vote among them or of no stated phase, do not happen that day
    begins = (rs.raw.get("begins_with") or {}).get("phase")
    begins = None if begins is None else 3 * _phases_rank(rs, [begins])
    if begins is not None and (_vote_rank(rs) is None or _vote_rank(rs) < begins):
        first_out = max(first_out, 2)
    quiet_days = game.get("quiet_days") or list(range(1, len(game["quiet"]) + 1))
    if quiet_days != sorted(set(quiet_days)) or len(quiet_days) != len(game["quiet"]):
        raise Illegal("the quiet days are not one vote-out a day")
    for role, qday in zip(game["quiet"], quiet_days):
        if qday < first_out:
            raise Illegal(f"a vote-out on day {qday}, before day {first_out}")
        if it.game_over(st):
            raise Illegal("a quiet day after the game ended")
        if st[("rest", role)] <= 0:
            raise Illegal(f"no living {role} outside the slots to vote out")
        st = st.set({("rest", role): st[("rest", role)] - 1})
    temporary = temporary_statuses(rs)
    used: dict[tuple, int] = {}
    votes, rank, prev = 0, -1 if begins is None or game["quiet"] else begins, None
    before_prev, fired = None, set()   # the state before the previous move; elimination triggers fired
    day, targeted = 0, {}   # no_repeat_target: (skill, user, target) -> the day it was last taken
    cooled: dict[tuple, int] = {}   # cooldown: (skill, user) -> the day it was last used
    began: dict[int, object] = {}   # phase rank -> the state before that phase's first move today
    today = int(game.get("first_day", len(quiet_days) + 1))
    if quiet_days and today <= quiet_days[-1]:
        raise Illegal("the moves begin before the last quiet day")
    done: set = set()   # (skill, user) used today
    # a move comes after setup: "it is phase P" never holds for the phases that happen once at setup
    setup_over = {("phase_is", p.name): False for p in rs.phases if p.once}
    loud = _loud_outside(rs, it)
    _duty_outside(rs, it)
    owed: list = []   # (skill, holder, victim): forced triggers on a going out not yet fired
    replaced: set = set()   # (skill uid, holder, victim): triggers that answered one about to go out
    last, last_move = None, None
    for n, mv in enumerate(game["moves"]):
        at_start = st
        if where is not None:
            where["at"] = n
        owed = _owed_after(rs, it, owed, last, st, last_move)
        if mv["move"] in ("settle", "day"):
            _replaced_before_outs(rs, it, st, replaced)
        elif mv["move"] == "skill" and (by_uid[mv["skill"]].trigger or {}).get("event") == "about_to_go_out":
            replaced.add((mv["skill"], mv["self"], mv["others"].get("victim", mv["self"])))
        if not (mv["move"] == "skill" and (by_uid[mv["skill"]].trigger or {}).get("event") in ON_GOING_OUT):
            _owed_fired(it, owed, st)   # the run of going-out triggers is over
            owed = []
        last, last_move = st, mv
        if switch is not None and n == switch[0]:
            st = st.set(switch[1])
        st = st.set({("game_day",): today} | setup_over)   # what a condition on the day (第一天…) reads
        skill = by_uid.get(mv.get("skill")) if mv["move"] == "skill" else None
        moving_to = 10 ** 6 if mv["move"] == "day" else \
            (_day_rank(rs, skill) if skill is not None else _vote_rank(rs) if mv["move"] in ("vote", "vote-rest") else None)
        # "it is phase P": the phase of this move, else of the day's last move that has one
        st = st.set(phase_is(rs, rank if moving_to in (None, 10 ** 6) else moving_to))
        if moving_to is not None:
            _not_declined(rs, it, st, rank, moving_to, done)
        if skill is not None:
            done.add((skill.uid, mv["self"]))
        late = skill is not None and (skill.trigger or {}).get("event") in ("went_out", "about_to_go_out", "killed")
        if it.game_over(st) and not (after_triggers and late):
            raise Illegal("a move after the game ended")
        if mv["move"] == "skill":
            b = bf.Bind(mv["self"], tuple(mv["targets"]), tuple(sorted(mv["others"].items())))
            if not it.enabled(st, skill, b):
                raise Illegal(f"{skill.name} cannot be used here")
            u = skill.uses or {}
            if _phase_event(skill):
                key = ("phase-event", skill.uid, mv["self"])
                used[key] = used.get(key, 0) + 1
                if used[key] > 1:
                    raise Illegal(f"{skill.name} answers its phase twice in one day")
            cap = _with_extra(it, st, skill, mv["self"], _daily_cap(rs, skill))
            if cap is not None:
                key = (skill.uid, None if u.get("shared") else mv["self"])
                used[key] = used.get(key, 0) + 1
                if used[key] > cap:
                    raise Illegal(f"{skill.name} used more often in a day than it may")
            if _raw(rs, skill).get("no_repeat_target"):
                for t in mv["targets"]:
                    if day - targeted.get((skill.uid, mv["self"], t), -2) < 2:
                        raise Illegal(f"{skill.name} on the same player two nights running")
                    targeted[(skill.uid, mv["self"], t)] = day
            if _cooling(rs, skill, mv["self"], day, cooled):
                raise Illegal(f"{skill.name} used again within its cooldown")
            cooled[(skill.uid, mv["self"])] = day
            r = _day_rank(rs, skill)
            if r is not None:
                if r < rank:
                    raise Illegal(f"{skill.name} before a phase that comes earlier the same day")
                rank = r
                began.setdefault(r, st)
                # a phase's actions are collected when it begins: the skill was held then
                if not skill.trigger and not it.holds(began[r], mv["self"], skill):
                    raise Illegal(f"{skill.name} was gained during the phase it is used in")
            if (skill.trigger or {}).get("event") in ON_GOING_OUT:
                victim = mv["others"].get("victim", mv["self"])
                if prev is None or (not prev_alive.get(victim, False) and not prev_trigger):
                    raise Illegal(f"{skill.name} does not follow the going out it answers")
            trig = skill.trigger or {}
            if trig.get("event") == "faction_eliminated":
                # right after the move that left the faction with nobody alive (or a chain of these)
                f = it.canon(trig["faction"])
                gone = lambda s, f=f: it.cond({"none": {"alive": True, "faction": f}}, {}, s)  # noqa: E731
                before = (by_uid[prev["skill"]].trigger or {}) if prev is not None and prev.get("move") == "skill" else {}
                chained = before.get("event") == "faction_eliminated" and it.canon(before.get("faction", "")) == f
                if before_prev is None or not gone(st) or (gone(before_prev) and not chained):
                    raise Illegal(f"{skill.name} does not follow the elimination it answers")
                if (skill.uid, mv["self"]) in fired:
                    raise Illegal(f"{skill.name} fires twice")
                fired.add((skill.uid, mv["self"]))
            prev_trigger = (skill.trigger or {}).get("event") in ON_GOING_OUT
            prev_alive = {i: st[("alive", i)] for i in range(k)}
            before_prev = st
            st = it.run(st, skill, b)
        else:
            prev_trigger = False
            prev_alive = {i: st[("alive", i)] for i in range(k)}
            before_prev = st
            if mv["move"] in ("vote", "vote-rest"):
                votes += 1
                if votes > 1:
                    raise Illegal("two vote-outs in one day")
                if today < first_out:
                    raise Illegal(f"a vote-out on day {today}, before day {first_out}")
                r = _vote_rank(rs)
                if r is not None:
                    if r < rank:
                        raise Illegal("a vote-out before a phase that comes earlier the same day")
                    rank = r
                    began.setdefault(r, st)
            if mv["move"] == "vote":
                i = mv["self"]
                if not st[("alive", i)]:
                    raise Illegal("voting out a player who is out")
                if any(st[("dying", x)] for x in range(k)):
                    raise Illegal("a vote-out while the night's outs are not settled")
                if bf.vote_immune(it, st, i):
                    raise Illegal("voting out a player whose status stops going out")
                pending = bool(mv.get("pending"))
                if pending and not bf.votes_can_pend(it, list(rs.skills)):
                    raise Illegal("a vote-out left pending with no trigger that could answer it, "
                                  "or where the answer would change the count after it")
                upd = {("alive", i): pending, ("dying", i): pending}
                if it.causes:
                    upd[("cause", i)] = it.cause_value("投票")
                if it.killers:
                    upd[("by", i)] = -1   # a vote-out has no killer
                if not pending and bf.votes_can_pend(it, list(rs.skills)):
                    # out at once: no forced answer to one about to go out would have answered
                    _replaced_before_outs(rs, it, st.set({**upd, ("alive", i): True, ("dying", i): True}), replaced)
                st = st.set(upd)
            elif mv["move"] == "vote-rest":
                if st[("rest", mv["role"])] <= 0:
                    raise Illegal(f"no living {mv['role']} outside the slots")
                if any(st[("dying", x)] for x in range(k)):
                    raise Illegal("a vote-out while the night's outs are not settled")
                st = st.set({("rest", mv["role"]): st[("rest", mv["role"])] - 1})
            elif mv["move"] == "settle":
                if not any(st[("dying", x)] for x in range(k)):
                    raise Illegal("a settle with nobody about to go out")
                st = st.set({key: v for i in range(k) for key, v in
                             ((("alive", i), st[("alive", i)] and not st[("dying", i)]), (("dying", i), False))})
            elif mv["move"] == "day":
                # the night's pending outs happen at dawn, before the new day
                used, votes, rank, day, today, began, done = {}, 0, -1, day + 1, today + 1, {}, set()
                st = st.set({key: v for i in range(k) for key, v in
                             ((("alive", i), st[("alive", i)] and not st[("dying", i)]), (("dying", i), False))})
                st = st.set({("status", i, s): False for i in range(k) for s in temporary} |
                            ({("redir", i): i for i in range(k)} if it.redirects else {}) |
                            {("extra", i, sk): 0 for i in range(k) for sk in it.extra})
        _outside_stays_silent(it, loud, at_start, st, k, list((it.table or {}).get("rest", {})))
        prev = mv
    st = st.set({("game_day",): today})   # a window after the moves is on their last day
    return st, {"rank": rank, "used": used, "day": day, "targeted": targeted, "began": began, "done": done,
                "before_last": before_prev, "cooled": cooled,
                "last_chained": bool(game["moves"]) and prev_trigger}


def _cooling(rs, skill, user: int, day: int, cooled: dict) -> bool:
    """The skill's cooldown (冷却N, read from the YAML): used on a day less than N + 1 days ago."""
    n = _raw(rs, skill).get("cooldown")
    return bool(n) and (skill.uid, user) in cooled and day - cooled[(skill.uid, user)] <= int(n)


def _answers_last(skill, use: dict, st, today: dict) -> None:
    """A trigger answering a going out resolves right after the move that made it."""
    event = (skill.trigger or {}).get("event")
    if event in ("went_out", "killed", "about_to_go_out"):
        victim, before = use["others"].get("victim", use["self"]), today["before_last"]
        key = "dying" if event == "about_to_go_out" else "alive"
        # a going out is answered by the run of triggers after it (a chain), as in the game
        fresh = before is not None and (not before[(key, victim)] and st[(key, victim)] if key == "dying"
                                        else (before[(key, victim)] or today.get("last_chained")) and not st[(key, victim)])
        if not fresh:
            raise Illegal(f"{skill.name} does not answer the going out of the last move")


def _window_follows(rs, it: bf.Interp, w: dict, st, today: dict) -> None:
    """The window's own uses (game["window"]) may come after the moves: not in a phase earlier
    than that day's moves, within their daily limits counted with the day's uses, no repeated
    target from that day or the day before, and each user held the skill before the day's
    earlier moves of the same phase (a judge collects a phase's actions when it begins). The
    state after the moves is the witness's window start."""
    by_uid = {s.uid: s for s in rs.skills}
    for use in w["game"]["window"]:
        _answers_last(by_uid[use["skill"]], use, st, today)
    start = {key_from_json(k): v for k, v in w["start"].items()}
    known = set(it.keys)
    # the ballots of a vote are the voters' free choice (the replay's vote-out does not cast
    # them): after a vote the window's start gives them, and the window is checked from there
    voted = any(mv["move"] in ("vote", "vote-rest") for mv in w["game"]["moves"])
    for key, v in start.items():
        if key in known and st[key] != v and not (voted and key[0] == "ballot"):
            raise Illegal(f"the moves do not lead to the window's start ({key}: {st[key]} != {v})")
    ranks = [r for use in w["game"]["window"] if (r := _day_rank(rs, by_uid[use["skill"]])) is not None]
    if ranks:   # the phases before the window have passed that day
        _not_declined(rs, it, st, today["rank"], min(ranks), today["done"])
    counts: dict[tuple, int] = {}
    for use in w["game"]["window"]:
        skill = by_uid[use["skill"]]
        r = _day_rank(rs, skill)
        if r is not None:
            if r < today["rank"]:
                raise Illegal(f"{skill.name} in a phase earlier than that day's moves")
            if r in today["began"] and not it.holds(today["began"][r], use["self"], skill):
                raise Illegal(f"{skill.name} was gained during the phase it is used in")
        u, cap = skill.uses or {}, _with_extra(it, st, skill, use["self"], _daily_cap(rs, skill))
        if cap is not None:
            key = (skill.uid, None if u.get("shared") else use["self"])
            counts[key] = counts.get(key, today["used"].get(key, 0)) + 1
            if counts[key] > cap:
                raise Illegal(f"{skill.name} used more often in a day than it may")
        if _raw(rs, skill).get("no_repeat_target"):
            for t in use["targets"]:
                if today["day"] - today["targeted"].get((skill.uid, use["self"], t), -2) < 2:
                    raise Illegal(f"{skill.name} on the same player two nights running")
        if _cooling(rs, skill, use["self"], today["day"], today["cooled"]):
            raise Illegal(f"{skill.name} used again within its cooldown")


def _claim(rs, it: bf.Interp, w: dict, st) -> bool:
    claim = w.get("claim") or {}
    if "win" in claim and not all(it.faction_goal(st, f) for f in claim["win"]):
        return False
    if "win_and_lose" in claim:
        # both conditions hold for a faction with a player, and nobody has won
        name = claim["win_and_lose"]
        f = rs.factions[name]
        member = any(st[("faction", i)] == name for i in range(it.k)) or \
            any(v[("faction", bf.REST)] == name for _, v in it.rest_views(st))
        if not (member and it.cond(f.win, {}, st) and it.cond(f.lose, {}, st) and not it.game_over(st)):
            return False
    if "cycle" in claim:
        # a trigger cycle: nobody has won, each member resolves in the state the one before
        # left (unless a use_skill made its holder use it), and the first fires again
        if it.game_over(st):
            return False
        uses = [(next(s for s in rs.skills if s.uid == u["skill"]),
                 bf.Bind(u["self"], tuple(u["targets"]), tuple(sorted(u["others"].items())))) for u in claim["cycle"]]
        passed, cur = claim["passed"], st
        for i, (skill, b) in enumerate(uses):
            if (i == 0 or not passed[i]) and not it.enabled(cur, skill, b):
                return False
            cur = it.run(cur, skill, b)
        if not passed[0] and not it.enabled(cur, *uses[0]):
            return False
    if "reading" in claim:
        # the use, from the state the moves lead to, resolves differently under the two
        # options in a value the engine named (a use not enabled under one leaves it as it was)
        r = claim["reading"]
        options = it._options(r["name"])
        use = r["use"]
        skill = next(s for s in rs.skills if s.uid == use["skill"])
        b = bf.Bind(use["self"], tuple(use["targets"]), tuple(sorted(use["others"].items())))
        posts = []
        for o in r["options"]:
            under = st.set({("reading", r["name"]): options.index(o)})
            posts.append(it.run(under, skill, b) if it.enabled(under, skill, b) else under)
        known = set(it.keys)
        keys = [key for key in map(key_from_json, r["differing"]) if key in known]
        if not any(posts[0][key] != posts[1][key] for key in keys):
            return False
    if claim.get("game_over"):
        if not it.game_over(st):
            return False
        mv = claim["then"]
        skill = next(s for s in rs.skills if s.uid == mv["skill"])
        b = bf.Bind(mv["self"], tuple(mv["targets"]), tuple(sorted(mv["others"].items())))
        if not it.enabled(st, skill, b):
            return False
        after = it.run(st, skill, b)
        after = after.set({key: v for i in range(it.k) for key, v in
                           ((("alive", i), after[("alive", i)] and not after[("dying", i)]), (("dying", i), False))})
        won = sorted(f for f in it.factions if it.faction_goal(after, f))
        if won != sorted(claim["win_after"]):
            return False
    return True


def _played_on(rs, it: bf.Interp, w: dict, st, end, reasons: list) -> bool:
    """A reading's game played on after its use (claim.reading.from: the use's place in the
    moves): the same moves with the second option read from the use on either reach an end
    that differs in the values named, or cannot play the move at claim.reading.blocked."""
    r = w["claim"]["reading"]
    key = ("reading", r["name"])
    other, where = it._options(r["name"]).index(r["options"][1]), {}
    try:
        theirs, _ = _replay(rs, it, w, bf.View(st), switch=(r["from"], {key: other}), where=where)
    except Illegal as exc:
        if r.get("blocked") is not None and where.get("at") == r["blocked"]:
            return True
        reasons.append(f"under the second option: {exc}")
        return False
    if r.get("blocked") is not None:
        reasons.append("the move claimed impossible under the second option can be played")
        return False
    keys = [k for k in map(key_from_json, r["differing"]) if k in set(it.keys)]
    if not any(end[k] != theirs[k] for k in keys):
        reasons.append("the ends do not differ in the values named")
        return False
    return True


def replay_game(rs, w: dict) -> tuple[bool, str]:
    """(reproduced, why not) for a witness with a "game"."""
    start = {key_from_json(k): v for k, v in w["game"]["start"].items()}
    k = len({key[1] for key in start if key[0] == "alive"})
    it = bf.Interp(rs, k)
    if "table_players" in w:
        it.table = {"players": w["table_players"], "rest": dict(w.get("rest") or {})}
    fixed = {key: v for key, v in start.items() if key in set(it.keys)}
    reading = (w.get("claim") or {}).get("reading")
    if reading and ("reading", reading["name"]) in set(it.keys):
        # the game is played under the first option (an ambiguity witness says so)
        fixed[("reading", reading["name"])] = it._options(reading["name"]).index(reading["options"][0])
    reasons = []
    by_uid = {x.uid: x for x in rs.skills}
    known = set(it.keys)

    deal = w["game"].get("deal") or (w["game"].get("trail") or {}).get("deal")
    deal = {key_from_json(k): v for k, v in deal.items()} if deal else None

    def run(st) -> bool:
        if not it.realizable(st):
            reasons.append("the start is not a state the rules allow")
            return False
        if deal is not None and not setup_reaches(rs, it, {k: deal.get(k, st[k]) for k in it.keys}, st):
            reasons.append("setup as dealt does not lead to the start (a setup choice its holder cannot decline was skipped)")
            return False
        try:
            if "back_from_lost" in (w.get("claim") or {}):
                # the faction had lost before the last move, and the last move ends it
                name = w["claim"]["back_from_lost"]
                before = {**w, "game": {**w["game"], "moves": w["game"]["moves"][:-1]}}
                prev, _ = _replay(rs, it, before, bf.View(st))
                lose = rs.factions[name].lose
                if not it.cond(lose, {}, prev) or it.game_over(prev):
                    reasons.append("the faction had not lost before the last move")
                    return False
                end, _ = _replay(rs, it, w, bf.View(st))
                if it.cond(lose, {}, end):
                    reasons.append("the faction has still lost after the last move")
                    return False
            end, today = _replay(rs, it, w, bf.View(st))
            if "from" in (reading or {}):
                return _played_on(rs, it, w, st, end, reasons)
            # the uses after the moves: without a timing of their own they are in the phase
            # the game is in; a timed one reads "it is phase P" as the start left it
            uses = list(w["game"].get("window") or []) + ([reading["use"]] if (reading or {}).get("use") else [])
            timed = any((by_uid.get(u_["skill"]) is not None and by_uid[u_["skill"]].timing) for u_ in uses)
            _outside_silent_at(it, _loud_outside(rs, it), end, [(by_uid[u_["skill"]], u_) for u_ in uses if u_["skill"] in by_uid])
            flags = phase_is(rs, today["rank"])
            end = end.set({key: st[key] for key in flags if key in known} if timed or not uses else flags)
            if w["game"].get("window") is not None:
                _window_follows(rs, it, w, end, today)
            use = ((w.get("claim") or {}).get("reading") or {}).get("use")
            if use is not None:
                skill = next(s for s in rs.skills if s.uid == use["skill"])
                _answers_last(skill, use, end, today)
                if _phase_event(skill) and _day_rank(rs, skill) is not None:
                    # a phase's start or end: the phases before it have passed that day
                    _not_declined(rs, it, end, today["rank"], _day_rank(rs, skill), today["done"])
        except Illegal as exc:
            reasons.append(str(exc))
            return False
        if not _claim(rs, it, w, end):
            reasons.append("the claim does not hold at the end")
            return False
        return True

    for _, ok in bf.explore(run, it.domain, fixed=fixed):
        if ok:
            return True, ""
    return False, "; ".join(dict.fromkeys(reasons)) or "no assignment"


def replays_only_with_its_new_days(rs, w: dict, why_not: str) -> None:
    """The witness replays, and the same game with its "day" moves dropped is refused for
    the reason why_not (a test helper: the interpreter reads the day's rules itself)."""
    import json
    assert replay_game(rs, w)[0]
    same_day = json.loads(json.dumps(w))
    same_day["game"]["moves"] = [mv for mv in same_day["game"]["moves"] if mv["move"] != "day"]
    ok, why = replay_game(rs, same_day)
    assert not ok and why_not in why, why
