"""A witness found before, asked for again: its game pinned on the current encoding.

Every change to the engine reshuffles the solver's models, so a search finds a new game for
the same finding each time, and a story a judge accepted comes back in another shape. A
finding's witness therefore records its trail (every move of the unrolled game, the quiet
days' vote-outs, the state once setup is over, the table), and a later check asks first for
that very game. The pinned question is the same question with the moves fixed: it is sat only
if the game is still legal and still shows the finding under the rules as they are now; else
the search runs as before. Nothing is trusted from the file but a guess of where to look.
"""
from __future__ import annotations

import json

import z3

from .connectives import Not, Or
from .decode import concrete, encode_concrete
from .reach import Unrolled, move_json

TRAIL_VERSION = 1


def canon(mv: dict | None) -> str:
    """A move as one comparable string."""
    return json.dumps(mv, ensure_ascii=False, sort_keys=True)


def trail_json(m, u: Unrolled, upto: int) -> dict:
    """The model's game up to step upto, as plain data: each move (a step that changed nothing
    is a move too: history_of leaves it out of the story, the pin must not), each quiet day's
    vote-out (None: nobody), the state once setup is over, the uses made while it resolved,
    the table, the ballots of each vote-out, and the option each ambiguity was read with."""
    value = lambda x: m.eval(x, model_completion=True).as_long()   # noqa: E731
    moves = [move_json(u.trans.moves[value(x)]) for x in u.sels[:upto]]
    quiet = [move_json(u.quiet.moves[n]) if n >= 0 else None for n in map(value, u.quiet_sels)]
    start = {"|".join(map(str, k)): v for k, v in sorted(concrete(m, u.states[0], u.trans.world.sorts).items(),
                                                         key=lambda kv: repr(kv[0]))}
    world = u.trans.world
    readings = {}
    for amb in world.rs.ambiguities:
        options = [o["name"] for o in amb["options"]]
        n = value(world.sem.reading_var(amb["name"]))
        if 0 <= n < len(options):
            readings[amb["name"]] = options[n]
    # the ballots of each vote-out (whom each slot voted for): a story tells them
    k = world.k
    ballots = {str(t): [value(u.states[t + 1][("ballot", v)]) for v in range(k)]
               for t, mv in enumerate(moves) if mv["move"] == "vote" and ("ballot", 0) in u.states[t + 1].terms}
    out = {"version": TRAIL_VERSION, "moves": moves, "quiet": quiet, "start": start, "readings": readings}
    if u.init is not None:   # the deal before setup resolved: a replay checks setup too
        out["deal"] = {"|".join(map(str, k)): v for k, v in sorted(concrete(m, u.init, world.sorts).items(),
                                                                  key=lambda kv: repr(kv[0]))}
    if ballots:
        out["ballots"] = ballots
    # the uses made while setup resolved: a pick that left no trace in the state (a witness
    # the rules void) is told too, and must come back as it was
    if u.setup_uses:
        out["setup"] = [move_json(use.move) for use in u.setup_uses
                        if z3.is_true(m.eval(use.made, model_completion=True))]
    if u.table is not None:
        out["table"] = {"players": value(u.table.n),
                        "rest": {r: value(t) for r, t in sorted(u.table.rest.items()) if value(t)}}
    return out


def usable(trail) -> bool:
    return isinstance(trail, dict) and trail.get("version") == TRAIL_VERSION and isinstance(trail.get("moves"), list)


def _key(text: str) -> tuple:
    return tuple(int(p) if p.lstrip("-").isdigit() else p for p in text.split("|"))


def moves_pinned(u: Unrolled, first: int, moves: list) -> list | None:
    """Constraints that make u's steps from `first` on these moves (move_json): None when one
    is no move of u or u is too short."""
    if not isinstance(moves, list) or not moves or first + len(moves) > len(u.sels):
        return None
    by_move: dict[str, list[int]] = {}
    for n, mv in enumerate(u.trans.moves):
        by_move.setdefault(canon(move_json(mv)), []).append(n)
    cs = []
    for sel, mv in zip(u.sels[first:], moves):
        idx = by_move.get(canon(mv))
        if not idx:
            return None
        cs.append(Or([sel == n for n in idx]))
    return cs


def pinned(u: Unrolled, trail: dict) -> list | None:
    """Constraints that make u play the trail's game: None when the trail does not fit u (a
    move the encoding no longer has, more steps or quiet days than u unrolls)."""
    world = u.trans.world
    moves, quiet = trail["moves"], trail.get("quiet") or []
    if len(moves) > len(u.sels) or len(quiet) != len(u.quiet_sels):
        return None
    cs = moves_pinned(u, 0, moves) if moves else []
    if cs is None:
        return None
    calm = {}
    for n, mv in enumerate(u.quiet.moves if u.quiet is not None else []):
        calm.setdefault(canon(move_json(mv)), []).append(n)
    for sel, mv in zip(u.quiet_sels, quiet):
        idx = [-1] if mv is None else calm.get(canon(mv))
        if not idx:
            return None
        cs.append(Or([sel == n for n in idx]))
    st = u.states[0]
    values = {}
    for text, v in (trail.get("start") or {}).items():
        key = _key(text)
        # a value of a kind the model prints as text (not a role or a faction) is not pinned
        if key in st.terms and (isinstance(v, (bool, int, float)) or key[0] in ("role", "dealt", "faction")):
            values[key] = v
    try:
        cs += encode_concrete(values, st, world.sorts)
    except (KeyError, z3.Z3Exception):
        return None   # a role or faction the rules no longer have
    for t, cast in (trail.get("ballots") or {}).items():
        # the same ballots at the same vote-out
        st = u.states[int(t) + 1] if str(t).isdigit() and int(t) + 1 < len(u.states) else None
        if st is None or not isinstance(cast, list):
            continue
        cs += [st[("ballot", v)] == b for v, b in enumerate(cast) if ("ballot", v) in st.terms and isinstance(b, int)]
    if isinstance(trail.get("setup"), list):
        # the same uses while setup resolved, no more
        made = {canon(mv) for mv in trail["setup"]}
        cs += [use.made if canon(move_json(use.move)) in made else Not(use.made) for use in u.setup_uses]
    for amb in world.rs.ambiguities:
        # how the game read the other ambiguities (a story says so): read so again
        options = [o["name"] for o in amb["options"]]
        chosen = (trail.get("readings") or {}).get(amb["name"])
        if chosen in options:
            cs.append(world.sem.reading_var(amb["name"]) == options.index(chosen))
    table = trail.get("table")
    if u.table is not None and table:
        rest = table.get("rest") or {}
        if set(rest) - set(u.table.rest):
            return None
        cs += [u.table.n == table["players"]] + [t == rest.get(r, 0) for r, t in u.table.rest.items()]
    return cs
