"""Tell a witness as a game, in Chinese: who is who, who does what, and what happens
under each order. Only plain values decoded from a model reach this module."""
from __future__ import annotations

import re

from models.domain import Ruleset
from models.encoding.decode import player_of
from models.encoding.quiet import at_setup


def player(i: int) -> str:
    return f"P{i + 1}"


def steps_zh(n: int) -> str:
    """The bound of a game, with what one step is: the traces count moves, not days."""
    return f"{n} 步（发动或触发技能、投票出局、进入下一天各算一步）"


_PAIRS = {"（": "）", "(": ")", "“": "”", "「": "」", "【": "】", "[": "]", "《": "》"}


def clip(text: str, n: int) -> str:
    """At most n characters of a quote, cut where no bracket is left open, with … when cut."""
    if len(text) <= n:
        return text
    cut, stack = text[:n], []
    last_closed = 0
    for i, ch in enumerate(cut):
        if ch in _PAIRS:
            stack.append(ch)
        elif stack and ch == _PAIRS[stack[-1]]:
            stack.pop()
        if not stack:
            last_closed = i + 1
    return cut[:last_closed].rstrip("，、；：,") + "…"


def describe_player(rs: Ruleset, st: dict, i: int, relevant_statuses: set[str] | None = None,
                    relevant_labels: set[str] | None = None, dealt: bool = False) -> str:
    """A cast line. dealt: st is the game as setup left it, so an item held came from setup."""
    role = st.get(("role", i), "?")
    faction = st.get(("faction", i), "?")
    # a state the text sets beside 存活 (濒死) is the player's state of being, not a status held
    states = sorted(s for s, x in rs.statuses.items() if x.life_state and st.get(("status", i, s)))
    # a player a damage or a vote has doomed is not yet out: the judge settles it later
    alive = "已出局" if not st.get(("alive", i), True) else f"{states[0]}（未出局）" if states else \
        "即将出局（待结算）" if st.get(("dying", i)) else "存活"
    parts = [f"{player(i)}：{role}" + _role_origin(rs, st, i, dealt), f"当前阵营 {faction}", alive]
    held = sorted(s for s in rs.statuses if st.get(("status", i, s)) and (s not in states))
    if relevant_statuses is not None:
        # a status the post never names, held by nobody here, is the encoding's bookkeeping:
        # "未持有[X(…)]" would only make a judge look for a rule that is not in the post
        somebody = {k[2] for k, v in st.items() if isinstance(k, tuple) and k[0] == "status" and len(k) == 3 and v}
        lacking = sorted(s for s in relevant_statuses if not st.get(("status", i, s))
                         and (s in somebody or rs.in_text(s)) and not getattr(rs.statuses.get(s), "life_state", False))
        held = [s for s in held if s in relevant_statuses]
        if lacking:
            parts.append("未持有" + "".join(f"[{s}]" for s in lacking))
    if held:
        parts.append("持有" + "".join(f"[{s}]" for s in held))
    # an item is one of a kind and what it lets its holder do is in the rules: always shown
    items = sorted(it for it in rs.items if st.get(("item", it)) == i)
    if items:
        parts.append("持有" + "、".join(items) + (_item_origin(rs, items) if dealt else ""))
    every = labels_of_everyone(rs)
    labels = sorted(lab for lab in rs.labels if st.get(("label", i, lab)) and lab not in every
                    and (relevant_labels is None or lab in relevant_labels))
    if labels:
        parts.append("标签" + "".join(f"[{x}]" for x in labels))
        origin = _setup_origin(rs, st, i, labels, dealt)
        if origin:
            parts.append(origin)
    return "，".join(parts)


def now_line(rs: Ruleset, before: dict, after: dict, cast) -> list[str]:
    """["此时：…"]: the players of the cast whose line changed from before to after, as they
    are after; [] when none did."""
    changed = [describe_player(rs, after, i) for i in cast if describe_player(rs, after, i) != describe_player(rs, before, i)]
    return ["此时：" + "；".join(changed)] if changed else []


def labels_of_everyone(rs: Ruleset) -> set[str]:
    """Labels every identity's card carries (an encoding's holder of per-player bookkeeping,
    such as 角色): they tell a judge nothing about this player, so a cast line leaves them out."""
    return rs.labels_of_every_card()


def _dealt_labels(rs: Ruleset, role: str) -> set[str]:
    todo, seen = list(rs.roles[role].labels) if role in rs.roles else [], set()
    while todo:
        lab = todo.pop()
        if lab not in seen and lab in rs.labels:
            seen.add(lab)
            todo.extend(rs.labels[lab].implies_labels)
    return seen


def _setup_givers(rs: Ruleset, kind: str, arg: str, value: str, as_set_up: bool = False) -> set[str]:
    """The skills that give this (an effect of that kind with arg == value), when all of them
    belong to the setup phases; empty otherwise (then how it was obtained is not known).
    as_set_up: the state is the game as setup left it, so only the setup ones could have."""
    givers = {s.name for s in rs.skills for e in s.all_effects()
              if e.kind == kind and isinstance(e.args, dict) and e.args.get(arg) == value}
    setup = {s.name for s in rs.skills if s.name in givers and at_setup(rs, s)}
    return setup if setup == givers or as_set_up else set()


def _role_origin(rs: Ruleset, st: dict, i: int, as_set_up: bool = False) -> str:
    """A player whose identity is not the card it was dealt: which card, and how it changed
    when only setup skills change it to this one (“（发牌为X，开局时经【Y】成为Z）”)."""
    dealt, role = st.get(("dealt", i)), st.get(("role", i))
    if dealt is None or role is None or dealt == role:
        return ""
    setup = _setup_givers(rs, "set_role", "to", role, as_set_up)
    how = f"，开局时经{'或'.join(f'【{x}】' for x in sorted(setup))}成为{role}" if setup else ""
    return f"（发牌为{dealt}{how}）"


def _setup_origin(rs: Ruleset, st: dict, i: int, labels: list[str], as_set_up: bool = False) -> str:
    """How the player came by a label the card it was dealt does not carry, when only a skill
    of the setup phases gives it (“开局时经【X】获得[Y]”)."""
    dealt = st.get(("dealt", i)) or st.get(("role", i))
    if dealt not in rs.roles:
        return ""
    # a label the identity now held carries came with it (its change is told with the identity)
    carried = _dealt_labels(rs, dealt) | (_dealt_labels(rs, st[("role", i)]) if st.get(("role", i)) in rs.roles else set())
    told = []
    for lab in labels:
        setup = set() if lab in carried else _setup_givers(rs, "add_label", "label", lab, as_set_up)
        if setup:
            told.append(f"开局时经{'或'.join(f'【{x}】' for x in sorted(setup))}获得[{lab}]")
    return "；".join(told)


def _setup_moment(rs: Ruleset, skills) -> str:
    """When setup skills act, in the text's words: a one-off phase's end or start for a
    trigger on it (竞选结束时), the phase of a timed one (第零日夜晚); 开局时 otherwise or when
    they differ."""
    said = set()
    for s in skills:
        trig = s.trigger or {}
        if trig.get("phase"):
            said.add(f"{trig['phase']}{'开始时' if trig.get('event') == 'phase_start' else '结束时'}")
        elif s.timing and len(s.timing) == 1 and s.timing[0] not in ("开局", "开局时"):
            said.add(s.timing[0])
        else:
            said.add("开局时")
    return said.pop() if len(said) == 1 else "开局时"


def _item_origin(rs: Ruleset, items: list[str]) -> str:
    """How an item held when setup ends came to its holder: the setup skills that give it."""
    skills = [s for s in rs.skills if at_setup(rs, s) and
              any(e.kind == "give_item" and isinstance(e.args, dict) and e.args.get("item") in items
                  for e in s.all_effects())]
    givers = sorted({f"{s.owner_text}的{s.shown}" for s in skills})
    return f"（{_setup_moment(rs, skills)}经{'或'.join(givers)}获得）" if givers else ""


# Per-player yes/no values: (word when true, word when false, how the name is bracketed).
_FLAGS = {
    "alive": ("未出局", "出局", None), "dying": ("即将出局", "不会出局", None),
    "status": ("持有", "不持有", "[{}]"), "label": ("拥有", "没有", "[{}]标签"),
    "lost": ("失去", "保有", "【{}】"), "gained": ("获得了", "没有获得", "【{}】"),
}
_FACTION_FLAGS = {"win": ("获胜", "未获胜"), "lose": ("判负", "未判负")}
_PLAYER_VALUES = {"faction": "阵营", "role": "身份", "votes": "票数", "dealt": "初始身份", "received": "额外得票"}


def describe_value(key: tuple, value, causes: list | None = None) -> str:
    """One value of a player or of the game, in words; causes: the tracked going-out causes
    (their values are 1 + the index, 0 none)."""
    kind = key[0]
    if kind == "cause":
        named = causes[value - 1] if causes and 0 < value <= len(causes) else None
        return f"{player(key[1])} 的出局原因为{named}" if named else f"{player(key[1])} 没有出局原因"
    if kind in _FLAGS:
        yes, no, fmt = _FLAGS[kind]
        name = fmt.format(key[2].split("/", 1)[-1]) if fmt else ""  # gained skills are keyed owner/name
        return f"{player(key[1])} {yes if value else no}{name}"
    if kind in _PLAYER_VALUES:
        return f"{player(key[1])} 的{_PLAYER_VALUES[kind]}为 {value}"
    if kind in _FACTION_FLAGS:
        yes, no = _FACTION_FLAGS[kind]
        return f"{key[1]} {yes if value else no}"
    if kind == "counter":
        who = f"{player(key[2])} 的" if len(key) > 2 else ""
        return f"{who}{key[1]} = {value}"
    if kind == "item":
        return f"{key[1]} 由 {player(value) if value >= 0 else '无人'} 持有"
    if kind == "redir":
        return f"以 {player(key[1])} 为目标的技能改为作用于 {player(value)}"
    if kind == "ballot":
        return f"{player(key[1])} 投票给 {player(value) if value >= 0 else '无人'}"
    return f"{key} = {value}"


def _named(rs: Ruleset, key: tuple) -> tuple[str | None, bool]:
    """The element a value is about and whether the post uses its name (a counter or a label
    the encoding made up does not)."""
    kind = key[0]
    if kind == "counter":
        counter = rs.counters.get(key[1])
        return key[1], rs.in_text(counter.text if counter is not None and counter.text else key[1])
    if kind in ("status", "label"):
        return key[2], rs.in_text(key[2])
    if kind in ("gained", "lost"):
        skill = next((x for x in rs.skills if x.uid == key[2]), None)
        return key[2], skill is None or skill.shown == f"【{skill.name}】" or rs.in_text(skill.name)
    return None, True


def named_in_text(rs: Ruleset, key: tuple) -> bool:
    """The value is of an element the post names (not a record the encoding made up)."""
    return _named(rs, key)[1]


def _reads_counter(x, name: str) -> bool:
    """The encoded text x (a condition, an effect's arguments…) reads or changes the counter."""
    if isinstance(x, dict):
        c = x.get("counter")
        if c == name or (isinstance(c, dict) and c.get("name") == name):
            return True
        return any(_reads_counter(v, name) for v in x.values())
    return isinstance(x, (list, tuple)) and any(_reads_counter(v, name) for v in x)


def _count_of_skill_not_held(rs: Ruleset, key: tuple, values: dict) -> bool:
    """A player's count for a skill the same outcome says they did not gain, still at its
    initial value: "X 没有获得【S】" already says it (a judge read "= 0" beside it as noise)."""
    counter = rs.counters.get(key[1]) if key[0] == "counter" and len(key) > 2 else None
    if counter is None or values.get(key) != counter.initial:
        return False
    skills = {s.uid: s for s in rs.skills}

    def counts(skill) -> bool:
        return _reads_counter(skill.condition, key[1]) or any(
            (e.kind == "counter" and isinstance(e.args, dict) and e.args.get("name") == key[1])
            or _reads_counter([e.args, e.guard], key[1]) for e in skill.all_effects())
    def not_held(k) -> bool:
        # not gained, and not held by identity either
        return not values[k] and values.get(("role", k[1])) != skills[k[2]].owner_role
    return any(k[0] == "gained" and k[1] == key[2] and k[2] in skills and not_held(k) and counts(skills[k[2]])
               for k in values if isinstance(k, tuple))


def _doomed_statuses(rs: Ruleset) -> list[str]:
    """Statuses whose holder a rule puts out (a skill held through the status that puts its
    holder out: 濒死-like states the post settles at a later step)."""
    return sorted({s.owner["status"] for s in rs.skills if isinstance(s.owner, dict) and s.owner.get("status")
                   and any(e.kind == "out" and isinstance(e.args, dict) and e.args.get("who", "self") == "self"
                           for e in s.all_effects())})


def _on_the_way(rs: Ruleset, x: int, values: dict) -> str:
    """A player not out yet but on the way (about to go out, or holding a status a later step
    puts out): said, since "未出局" alone reads as a lasting difference."""
    if values.get(("dying", x)):
        return "（即将出局，待结算）"
    held = [f"[{n}]" for n in _doomed_statuses(rs) if values.get(("status", x, n))]
    return f"（仍持有{''.join(held)}，待结算）" if held else ""


def outcome_text(rs: Ruleset, keys, values: dict, causes: list | None = None) -> str:
    """The values that differ, in words, as a judge reads them: a value of an element the post
    never names is left out when one it names differs too; a skill is shown by the text's name."""
    keys = list(keys)
    told = [k for k in keys if _named(rs, k)[1]] or keys
    told = [k for k in told if not _count_of_skill_not_held(rs, k, values)] or told
    out: list[str] = []
    for k in told:
        text = describe_value(k, values[k], causes)
        if k[0] == "alive" and values[k]:
            text += _on_the_way(rs, k[1], values)
        if k[0] in ("gained", "lost"):
            skill = next((x for x in rs.skills if x.uid == k[2]), None)
            if skill is not None:
                # a part of a skill: "没有获得【X】（第n行的部分）" reads as "X not gained at all"
                shown = re.sub(r"^(【[^】]+】)（(第[^）]+行的部分)）$", r"\1中\2", skill.shown)
                text = text.replace(f"【{skill.name}】", shown)
        if text not in out:
            out.append(text)
    return "；".join(out)


def relevant(rs: Ruleset) -> set[str]:
    """Statuses worth naming in a cast list: those that block something."""
    return {s.name for s in rs.statuses.values() if s.blocks}


def witness_json(start: dict) -> dict:
    """The start state as JSON-friendly rows (keys joined with '|')."""
    return {"|".join(str(p) for p in key): value for key, value in sorted(start.items(), key=lambda kv: repr(kv[0]))}


def game_json(trace) -> dict:
    """Witness fields (findings/v1 addition) to replay a trace as a game: the slots once setup
    is over, the identities voted out on the quiet days, then the moves."""
    return {"game": {"start": witness_json(trace.states[0]) if trace.states else {},
                     "quiet": list(trace.quiet), "quiet_days": list(trace.quiet_days), "first_day": trace.first_day,
                     "moves": list(trace.moves)} | ({"deal": witness_json(trace.deal)} if trace.deal else {})}


def window_game_json(dealt: dict, moves: list[dict], window: list[dict], quiet: list = (),
                     quiet_days: list = (), first_day: int = 1, trail: dict | None = None) -> dict:
    """Witness fields (findings/v1 addition) to replay the game that leads to a window: the
    slots once setup is over, the identities voted out on the quiet days, the moves
    (move_json), and the window's own uses ({skill, self, targets, others}); the witness's
    "start" is the state the window begins in. trail: the game as the next check asks for it
    first (models.encoding.pinned)."""
    game = {"start": witness_json(dealt), "quiet": list(quiet), "quiet_days": list(quiet_days),
            "first_day": first_day, "moves": list(moves), "window": list(window)}
    return {"game": game | ({"trail": trail} if trail else {})}


def key_from_json(text: str) -> tuple:
    parts = text.split("|")
    out = []
    for p in parts:
        out.append(int(p) if p.lstrip("-").isdigit() else p)
    return tuple(out)


def players_in(keys, values: list[dict]) -> set[int]:
    """Players an outcome names: the player of a per-player value, the holder of an item."""
    out: set[int] = set()
    for k in keys:
        if player_of(k) is not None:
            out.add(player_of(k))
        for v in values:
            if k[0] in ("item", "ballot") and isinstance(v.get(k), int) and v[k] >= 0:
                out.add(v[k])
    return out


def named_in(words: set[str], head: str) -> set[str]:
    """The names of one kind ("status", "label") among state words like status:忠诚."""
    return {w.split(":", 1)[1] for w in words if w.startswith(head + ":") and ":" in w}


SETUP_TOLD = "开局时："   # the first step of a story whose slots made choices while setup resolved


def opening(size: str, steps: list[str], empty: str | None = None) -> list[str]:
    """A story's steps after its table size ("20 人局"): the choices made at setup, when the
    steps begin with them, else "开局后", then the rest (empty: said when there is no step)."""
    steps = list(steps) or ([empty] if empty else [])
    if steps and steps[0].startswith(SETUP_TOLD):
        return [(size + "，" if size else "") + steps[0]] + steps[1:]
    return [size + "，开局后"] * bool(size) + steps


def opening_line(size: str, setup: list[str], history: list[str], empty: str = "开局后") -> list[str]:
    """The first steps of a story told in one line ("20 人局，开局后：甲；乙"): the choices made
    at setup (setup: SETUP_TOLD lines) on a line of their own first."""
    head = size + "，" if size else ""
    return [head + x for x in setup] + \
        [("" if setup else head) + ("开局后：" + "；".join(history) if history else empty)]


def table_text(k: int, table: tuple | None, st: dict | None = None, seated: bool = False) -> tuple[str, str]:
    """(the table, the rest of it) for a witness dealt at a table: "12 人局" and the players
    outside the slots by identity; empty when the slots are the whole table. seated: the rules
    read seats, so where everyone sits is said too."""
    if not table:
        return "", (seats_text(k, False) if seated else "")
    n, rest = table
    if n <= k:
        return f"{n} 人局", (seats_text(k, False) if seated else "")
    alive = {r: st.get(("rest", r), c) for r, c in rest.items()} if st else dict(rest)
    parts = []
    for r, c in sorted(rest.items()):
        out = c - alive.get(r, c)
        parts.append(f"{r}×{c}" + (f"（其中 {out} 名已出局）" if out else ""))
    seats = "；" + seats_text(k, True) if seated else ""
    return f"{n} 人局", f"其余 {n - k} 名玩家：{'、'.join(parts)}（发牌时的身份与阵营，不行动）{seats}"


def seats_text(k: int, rest: bool) -> str:
    """Where the players sit (the slots in slot order; the rest of a larger table between the
    last slot and the first)."""
    row = "、".join(player(i) for i in range(k))
    if rest:
        return f"座位（电梯楼）：{row} 依次相邻，其余玩家坐在 {player(k - 1)} 与 {player(0)} 之间"
    return f"座位（电梯楼）：{row} 依次相邻围成一圈"


def table_json(table: tuple | None) -> dict:
    """Witness fields for the table (findings/v1 additions): its size and the identities
    outside the player slots."""
    if not table:
        return {}
    return {"table_players": table[0], "rest": dict(sorted(table[1].items()))}


def reason_zh(reason: str | None) -> str:
    """Why a question stayed open, in the words of the report (the solver's own reason is English)."""
    reason = reason or ""
    if "cancel" in reason or "resource" in reason or "rlimit" in reason or "timeout" in reason:
        return "求解预算 rlimit 用尽"
    return {"facts do not exclude the win": "找到的不变式不排除这一胜利",
            "no inductive facts": "没有找到成立的不变式",
            "invariant step unknown": "不变式的检查超出求解预算"}.get(reason, reason or "求解器未给出结论")


def pick_text(flt: dict) -> str:
    """The players a filter names, as the rule text would say them ("甲阵营角色")."""
    if set(flt) == {"faction"}:
        return "或".join(_names(flt["faction"])) + "角色"
    words = {
        "alive": lambda v: "存活" if v else "已出局", "dead": lambda v: "已出局" if v else "存活",
        "other": lambda v: "自己以外" if v else "",
        "faction": lambda v: "或".join(_names(v)), "not_faction": lambda v: "不属于" + "或".join(_names(v)),
        "initial_faction": lambda v: "初始为" + "或".join(_names(v)),
        "role": lambda v: "身份为" + "或".join(_names(v)), "not_role": lambda v: "不是" + "或".join(_names(v)),
        "has_status": lambda v: "持有" + "".join(f"[{x}]" for x in _names(v)),
        "lacks_status": lambda v: "不持有" + "".join(f"[{x}]" for x in _names(v)),
        "label": lambda v: "带有" + "".join(f"[{x}]" for x in _names(v)),
        "not_label": lambda v: "不带有" + "".join(f"[{x}]" for x in _names(v)),
    }
    order = ["alive", "dead", "other", "faction", "initial_faction", "not_faction", "role", "not_role",
             "has_status", "lacks_status", "label", "not_label"]
    if not flt:
        return "角色"
    if set(flt) - set(order):
        return "符合条件的角色"
    return "、".join(w for w in (words[k](flt[k]) for k in order if k in flt) if w) + "的角色"


def _names(v) -> list[str]:
    return [str(x) for x in (v if isinstance(v, list) else [v])]
