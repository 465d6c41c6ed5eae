"""Order-dependence: simultaneous effects whose result depends on which resolves first."""
from __future__ import annotations

import os
import sys
import time
from dataclasses import replace
from typing import Iterator

from models.encoding.reach import Move, choices_text, day_text, first_called, move_json, readings_text, use_text
from models.encoding.detours import held_in_values, in_vain, odd_moves, odd_use, plain_none
from models.encoding.scenarios import confirm_orders, in_one_window, order_question
from models.encoding.sorts import reads_seats

from ..findings import MESSAGE_MAX, Finding
from ..narrate import (describe_player, opening_line, outcome_text, steps_zh, named_in, player, players_in, reason_zh, relevant, table_json,
                       table_text, window_game_json, witness_json)
from .base import Analysis, Context
from .influence import read_somewhere, skill_reads, skill_writes
from .pending import (Candidate, active_pairs, event_trigger_pairs, standing_pairs, targeted_trigger_pairs,
                      trace_skills)
from .win_check import WinCheckOrder


class OrderDependence(Analysis):
    """Two effects can be pending in one window, the ruleset gives no order between them,
    and some reachable state ends differently under the two orders. In a game the judge
    must pick an order, and players will dispute it. Example: two triggers that both
    convert the caster of a [指定] skill, when one caster targets both owners in one night.
    Fix: state which resolves first (a precedence rule), or make the effects commute.
    Also the win check against a going-out trigger (win_check.py): a going out meets a
    win condition while the shot it triggers would change who wins, and the text says
    neither that the game ends at once nor that the shot comes first (`win_check`).
    The two orders are compared once the window has settled (night_end.py): the pending outs
    happen and the going-out triggers that pick no target fire, so a difference such a trigger
    undoes is no question. Three or more pending actions: any two orders that end differently
    differ in one swap of neighbours after a common first part, and a game reaches the pair
    after that first part as earlier moves of the same phase that day (their users held the
    skills when the phase began), so asking pairs covers every order. Limits: up to the player
    slots in the bounds, one window."""
    kind = "order-dependence"
    summary = "同一时段内的两个效果结算顺序未定义，且顺序不同结果不同"
    severity = "warning"
    decides_by = "both"
    may_be_unknown = True

    def run(self, cx: Context) -> Iterator[Finding]:
        seen: set[tuple] = set()
        blocks: dict[tuple, list[Finding]] = {}   # (blocker, window) -> its findings, one root cause
        unconfirmed: dict[tuple, Finding] = {}
        cands = [cand for gen in (targeted_trigger_pairs, event_trigger_pairs, active_pairs, standing_pairs)
                 for cand in gen(cx.rs, cx.world)]
        wincheck = WinCheckOrder()
        pairs: dict[tuple, set] = {}
        for cand in cands:
            pairs.setdefault(_share_key(cx, cand), set()).add((cand.a.skill.uid, cand.b.skill.uid))
        # a unit costs about one game question per pair, and a window stops after a few pairs
        units = {k: min(len(v), 2 * WINDOW_EXAMPLES) for k, v in pairs.items()}
        for uid in wincheck.questions(cx):
            units[("wincheck", uid)] = WINCHECK_WEIGHT
        mine = _my_share(cx, units)
        confirmed: dict[str, int] = {}        # window -> its pairs confirmed so far
        skipped: dict[str, set] = {}          # window -> its pairs not asked once it had enough
        windows: list[Finding] = []           # the confirmed pairs of windows without a blocker
        for (pair, _, window), group in _pair_groups(cx, cands, mine).items():
            if pair in seen:
                continue
            blocker = _blocker(cx, group[0])
            if blocker is None and confirmed.get(window, 0) >= WINDOW_EXAMPLES:
                # the window's order is shown unstated: more pairs are more examples of one cause
                skipped.setdefault(window, set()).add(pair)
                continue
            skills = list({s.uid: s for c in group for s in [c.a.skill, c.b.skill] + [u.skill for u in c.scene]}.values())
            extra = [[_bindings(c), c.pin.dying, c.pin.dead, c.window, c.how] for c in group]
            t0 = time.time()
            found = cx.cached("order", skills, extra, lambda group=group: self._decide(cx, group))
            if os.environ.get("VERIFIER_TIMING") and time.time() - t0 > 5:
                print(f"    {pair[0]} / {pair[1]} ({len(group)} situations): {time.time() - t0:.0f} s", file=sys.stderr)
            # a pair the game does not confirm is kept only if no other way of reaching it (another
            # window, another blocker) is confirmed
            later = [f for f in found if f.key and f.key[0] == UNCONFIRMED]
            unconfirmed.setdefault(pair, later[0]) if later else None
            found = [f for f in found if f not in later]
            if found:
                seen.add(pair)
            for f in found:
                if blocker is not None and f.kind == self.kind:
                    blocks.setdefault((blocker.uid, window), []).append(f)
                elif f.kind == self.kind and f.verdict == "witnessed":
                    confirmed[window] = confirmed.get(window, 0) + 1
                    windows.append(f)
                else:
                    yield f
        for f in windows:
            window = f.group[0].split("|", 1)[1]
            unasked = len(skipped.get(window, set()) - seen)
            yield replace(f, group=(f.group[0], _capped_head(f.group[1], unasked)) + f.group[2:]) if unasked else f
        for (_, window), group in sorted(blocks.items()):
            yield _one_block_question(cx, group, window)
        # each process's leftovers; the engine makes one line of each kind (Finding.group)
        yield from (f for pair, f in sorted(unconfirmed.items()) if pair not in seen)
        yield from wincheck.run(cx, {k[1] for k in mine if k[0] == "wincheck"})

    def _decide(self, cx: Context, group: list[Candidate]) -> Iterator[Finding]:
        """The situations of one pair: each asked over the reachable states (a quick question),
        those found there asked together in a game; a witness only from a game."""
        outcome = cx.__dict__.setdefault("_order_outcome", read_somewhere(cx.rs))
        found, undecided = [], None
        for cand in group:
            alive = tuple(i for i, _ in cand.cast if i not in cand.pin.dead)
            res = order_question(cx.world, cx.solver, list(cand.scene), cand.a, cand.b, cand.pin, alive, outcome=outcome,
                                 answer_only=True)
            if res.answer.status == "unknown" and not res.answer.reason.startswith("unbound"):
                undecided = (cand, res.answer.reason)
                break   # the pair is undecided, unless a situation found before it is confirmed
            if res.answer.sat:
                found.append(cand)
        if found:
            # found over the reachable-state over-approximation: confirm in a game (a legal deal,
            # legal moves up to the window); all together, then one by one if that is undecided
            depth, skills = int(cx.rs.bounds["depth"]), trace_skills(cx.rs, cx.world)
            sits = [(list(c.scene), c.a, c.b, c.pin) for c in found]
            earlier = self._earlier(cx, found, outcome, depth, skills)
            if earlier is not None:
                # the game of the baseline still shows it: the story stays as it was
                yield self._finding(cx, *self._plainer(cx, *earlier, outcome, depth, skills))
                return
            i, game = confirm_orders(cx.world, cx.solver, sits, outcome, depth, skills)
            answers = [game.answer]
            if game.answer.status == "unknown" and len(found) > 1:
                answers = []
                for i, sit in enumerate(sits):
                    game = confirm_orders(cx.world, cx.solver, [sit], outcome, depth, skills)[1]
                    answers.append(game.answer)
                    if game.answer.sat:
                        break
            if game.answer.sat:
                yield self._finding(cx, *self._plainer(cx, found[i], game, False, outcome, depth, skills))
                return
            if undecided is None:
                left = next((a for a in answers if a.status == "unknown"), None)
                why = reason_zh(left.reason) if left else f"开局后 {steps_zh(depth)}内没有合法对局走到先后会改变结果的局面"
                yield self._unconfirmed(cx, found[0], why, bounded=left is None)
                return
        if undecided is not None:
            yield self._unknown(cx, *undecided)

    def _earlier(self, cx: Context, found: list[Candidate], outcome, depth: int, skills: list):
        """The baseline's game for one of these situations, if it still reaches it and the
        orders still differ: (candidate, result), else None."""
        for cand in found:
            same = lambda w, c=cand: (w.get("a"), w.get("b"), w.get("scene"), w.get("bindings")) == \
                (c.a.skill.uid, c.b.skill.uid, [u.skill.uid for u in c.scene], _bindings(c))   # noqa: E731
            for trail in cx.earlier_trails((self.kind,), same):
                res = confirm_orders(cx.world, cx.solver, [(list(cand.scene), cand.a, cand.b, cand.pin)], outcome,
                                     depth, skills, pin=trail)[1]
                if res.answer.sat:
                    return cand, res, plain_none(trail)
        return None

    def _plainer(self, cx: Context, cand: Candidate, res, tried: bool, outcome, depth: int, skills: list) -> tuple:
        """A game whose window or history holds a detour (a wolf biting his own camp, a seer
        checking himself) is asked for again without one; the first is kept if there is none
        (tried: the baseline's game is this one, and it was asked for again in vain)."""
        if not _detour(cx, cand, res):
            return cand, res
        better = None if tried else confirm_orders(cx.world, cx.solver, [(list(cand.scene), cand.a, cand.b, cand.pin)],
                                                   outcome, depth, skills, plain=True)[1]
        if better is not None and better.answer.sat:
            return cand, better
        res.trail.update(in_vain())   # asked for again without detours, in vain
        return cand, res

    def _finding(self, cx: Context, cand: Candidate, res) -> Finding:
        a, b = cand.a.skill, cand.b.skill
        # the cast shows only the statuses and labels these skills and this outcome involve,
        # and every player the outcome names
        words: set[str] = set()
        for sk in [a, b] + [u.skill for u in cand.scene]:
            words |= skill_reads(sk, cx.rs) | skill_writes(sk)
            words |= {f"{k}:{v}" for k, v in (sk.owner or {}).items() if k in ("status", "label")}   # who holds it
        in_outcome = {k[2] for k in res.differing if k[0] == "status"}
        rel = (named_in(words, "status") & relevant(cx.rs)) | in_outcome
        rel_labels = named_in(words, "label") | {k[2] for k in res.differing if k[0] == "label"}
        cast = dict(cand.cast)
        for i in sorted(players_in(res.differing, [res.ab, res.ba]) - set(cast)):
            cast[i] = "结果涉及的其他玩家"
        # what the window does to a player the same way in both orders (a conversion, a going
        # out): told, so the judge does not read that player as untouched
        same = _same_both_orders(res)
        for i in sorted({k[1] for k in same} - set(cast)):
            cast[i] = "结果涉及的其他玩家"
        for text, mv in res.history:   # who acted, or was acted on, on the way to the window (as told)
            if text and mv.binding is not None:
                if mv.skill is None or not mv.skill.told or "{self}" in mv.skill.told:   # a told use may not name its user
                    cast.setdefault(mv.binding.self_slot, "此前行动者")
                for t in mv.binding.targets:
                    cast.setdefault(t, "此前的目标")
        # the cast as dealt when a history leads to the window (the steps tell what happened)
        shown = res.dealt if res.history and res.dealt else res.start
        roles = [f"{describe_player(cx.rs, shown, i, rel, rel_labels, dealt=True)}（{cast[i]}）" for i in sorted(cast)]
        seated = any(reads_seats(sk) for sk in [a, b] + [u.skill for u in cand.scene] + [mv.skill for _, mv in res.history if mv.skill])
        size, rest = table_text(cx.world.k, res.table, res.start, seated=seated)
        if rest:
            # the rest line counts every seat outside the slots: the slots the story does not
            # use are players too, shown so the table adds up
            roles += [f"{describe_player(cx.rs, shown, i, rel, rel_labels, dealt=True)}（未参与的玩家）"
                      for i in range(cx.world.k) if i not in cast]
            roles.append(rest)
        history = [text for text, _ in res.history if text]
        steps = opening_line(size, res.setup, history, "开局后（第一个可行动的时段）")
        if shown is not res.start:
            now = [describe_player(cx.rs, res.start, i, rel, rel_labels) for i in sorted(cast)]
            was = [describe_player(cx.rs, shown, i, rel, rel_labels) for i in sorted(cast)]
            changed = [n for n, w in zip(now, was) if n != w]
            if changed:
                steps.append("此时：" + "；".join(changed))
        day = 1 + sum(mv.label == "day" for _, mv in res.history)   # the game begins on day 1
        steps.append(f"时段：{day_text(day, first_called(cx.rs))}，{cand.window}{_resolved_first(cx, res.history, cand.window)}；{cand.how}")
        for u in cand.scene:
            targets = "、".join(player(t) for t in u.binding.targets)
            steps.append(use_text(player(u.binding.self_slot), u.skill, cx.skill_text(u.skill), targets))
        for u in (cand.a, cand.b):
            # a skill that is off until its holder turns it on (<开关>): the story has it on
            toggle = [t for t in u.skill.tags if getattr(cx.rs.tags.get(t), "meaning", None) == "toggle"]
            if toggle:
                steps.append(f"{player(u.binding.self_slot)} 已向导演开启{cx.skill_text(u.skill)}（<{toggle[0]}>技能默认关闭）")
        m = res.answer.model
        # the uses as the question built them (each knowing who else acted in the window): a
        # choice is read under that exact name, never under one of another situation of the pair
        windowed = in_one_window(list(cand.scene) + [cand.a, cand.b])[-2:]
        for n, (u, w) in enumerate(zip((cand.a, cand.b), windowed)):
            tgt = "、".join(player(t) for t in u.binding.targets)
            # what the use chose, where its effects offer a choice (and the choice applied)
            idle = {uid for x, uid in res.idle_choices if x == n}
            chosen = choices_text(m, cx.world, Move(w.skill, w.binding, u.skill.name), idle) if m is not None else []
            chosen = ["所选：" + "、".join(c.removeprefix("所选：") for c in chosen)] if chosen else []
            steps.append(f"{cx.skill_text(u.skill)}（{'，'.join([player(u.binding.self_slot)] + (['目标 ' + tgt] if tgt else []) + chosen)}）待结算")
        if m is not None:
            # the readings of the text this window was resolved under, where its skills read one
            told = readings_text(m, cx.world, [u.skill for u in list(cand.scene) + [cand.a, cand.b]])
            if told:
                steps.append("（以上按" + "、".join(t.removeprefix("按") for t in told) + "）")
        diff_ab = outcome_text(cx.rs, res.differing, res.ab, cx.world.vocab.causes)
        diff_ba = outcome_text(cx.rs, res.differing, res.ba, cx.world.vocab.causes)
        # an action that no longer happens at its turn: why (the judge re-checks it then)
        void = [f"（{second.shown}结算时{'、'.join(why)}，按结算时重新检查不生效）" if why else ""
                for second, why in ((b, res.turn_failed[0]), (a, res.turn_failed[1]))]
        outcomes = [f"先结算{a.shown}再结算{b.shown}：{diff_ab}{void[0]}",
                    f"先结算{b.shown}再结算{a.shown}：{diff_ba}{void[1]}"]
        if same:
            outcomes.append(f"两种顺序下相同：{outcome_text(cx.rs, same, res.ab, cx.world.vocab.causes)}")
        subjects = tuple(dict.fromkeys([a.name, b.name] + [s.name for s in (u.skill for u in cand.scene)]))
        question = (f"当{cand.how}，{cx.skill_text(a)}与{cx.skill_text(b)}同时待结算时，先结算哪一个？")
        return Finding(
            kind=self.kind, severity=self.severity, verdict="witnessed", subjects=subjects,
            message=_short(f"{cx.skill_text(a)}与{cx.skill_text(b)}可在同一时段（{cand.window}）同时结算，规则未规定先后，"
                           f"而两种顺序结果不同", f"（{diff_ab} ↔ {diff_ba}）"),
            message_en=f"'{a.name}' and '{b.name}' can resolve in the same window with no stated order, and the orders differ.",
            locations=cx.locs(a.where, b.where, *(u.skill.where for u in cand.scene)),
            scenario={"roles": roles, "steps": steps, "outcomes": outcomes},
            key=(a.uid, b.uid),
            witness={"kind": "order", "a": a.uid, "b": b.uid, "scene": [u.skill.uid for u in cand.scene],
                     "bindings": _bindings(cand), "pin": {"dying": list(cand.pin.dying), "dead": list(cand.pin.dead)},
                     "start": witness_json(res.start),
                     "differing": ["|".join(map(str, k)) for k in res.differing],
                     "history": [text for text, _ in res.history if text], "players": cx.world.k,
                     **table_json(res.table),
                     **(window_game_json(res.dealt, [move_json(mv) for _, mv in res.history],
                                         [{"skill": u.skill.uid, **bd} for u, bd in
                                          zip(list(cand.scene) + [cand.a, cand.b], _bindings(cand))], trail=res.trail)
                        if res.dealt else {})},
            question=question,
            rulings=({"ruling": f"先结算{a.shown}", "first": a.name, "then": b.name, "outcome": diff_ab},
                     {"ruling": f"先结算{b.shown}", "first": b.name, "then": a.name, "outcome": diff_ba}),
            assumptions=_assumptions(cx, res.start, cand),
            # one window whose order the text never gives is one cause: its pairs are one finding
            group=(f"order-window|{cand.window}", f"{cand.window}内同时结算的技能没有规定先后，以下 {{n}} 对的先后会改变结果",
                   f"{cx.skill_text(a)}与{cx.skill_text(b)}", f"{cand.window}内同时待结算的技能，按什么顺序结算？"),
        )

    def _unconfirmed(self, cx: Context, cand: Candidate, why: str, bounded: bool = False) -> Finding:
        """A candidate of the abstract search the game did not confirm: within the budget
        (bounded: no legal game within the depth reaches it), or not (the budget ran out)."""
        a, b = cand.a.skill, cand.b.skill
        # two parts of one skill read alike: their holders tell them apart
        pair = f"{a.shown}与{b.shown}" if a.shown != b.shown else f"{cx.skill_text(a)}与{cx.skill_text(b)}"
        depth = int(cx.rs.bounds["depth"])
        return Finding(kind="unknown", severity="info" if bounded else "warning", verdict="unknown",
                       subjects=(a.name, b.name),
                       message=f"{cx.skill_text(a)}与{cx.skill_text(b)}的结算顺序可能影响结果，但未能在对局中确认（{why}）。",
                       message_en=f"'{a.name}' and '{b.name}' may depend on their order, not confirmed in a game.",
                       locations=cx.locs(a.where, b.where),
                       key=(UNCONFIRMED, WITHIN_BOUNDS if bounded else "budget", a.uid, b.uid),
                       # within the bounds each is clean, and a longer game might still reach it
                       scenario={"roles": [], "steps": [f"{pair}：界限内没有对局走到二者同时待结算且先后改变结果的局面"],
                                 "outcomes": ["界限内无结算顺序问题；更长的对局未检查"]} if bounded else None,
                       group=(WITHIN_BOUNDS, f"{{n}} 对技能在抽象分析中可能因结算顺序而结果不同，但开局后 "
                              f"{steps_zh(depth)}内没有合法对局走到先后会改变结果的局面", pair, None,
                              f"{{n}} pairs may depend on their order in the abstract search, but no legal game within "
                              f"{depth} steps reaches a situation where the order changes the result") if bounded else
                       ("order-unconfirmed", "以下 {n} 对技能的结算顺序可能影响结果，但未能在对局中确认",
                        f"{cx.skill_text(a)}与{cx.skill_text(b)}（{why}）"))

    def _unknown(self, cx: Context, cand: Candidate, reason: str) -> Finding:
        a, b = cand.a.skill, cand.b.skill
        return Finding(kind="unknown", severity="warning", verdict="unknown", subjects=(a.name, b.name),
                       message=f"{cx.skill_text(a)}与{cx.skill_text(b)}的结算顺序问题在求解预算内未能判定（{reason_zh(reason)}）。",
                       locations=cx.locs(a.where, b.where), key=("order", a.uid, b.uid),
                       group=("order-undecided", "以下 {n} 对技能的结算顺序问题在求解预算内未能判定",
                              f"{cx.skill_text(a)}与{cx.skill_text(b)}（{reason_zh(reason)}）"))


UNCONFIRMED = "order-unconfirmed"
WITHIN_BOUNDS = "within-bounds"


def _detour(cx: Context, cand: Candidate, res) -> bool:
    """A use of the window or a move before it is a detour (detours.odd_use), or a vote-out
    before it rests on a ballot cast for oneself."""
    camp = lambda x: res.start.get(("faction", x))   # noqa: E731
    return res.detoured or any(u.binding.targets and odd_use(u.skill, u.binding.self_slot, u.binding.targets, camp,
                                                              cx.rs, held_in_values(res.start)) is True
               for u in list(cand.scene) + [cand.a, cand.b]) or \
        odd_moves(cx.rs, [move_json(mv) for _, mv in res.history], res.dealt or res.start)


def _short(sentence: str, detail: str) -> str:
    whole = sentence + detail + "。"
    return whole if len(whole) <= MESSAGE_MAX else sentence + "（见结果）。"


def _resolved_first(cx: Context, history: list, window: str) -> str:
    """The moves of that day in the window's own phase: actions of the same window that
    resolved before the pair (the window resolves one action at a time)."""
    today = []
    for text, mv in history:
        today = [] if mv.label == "day" else today + [(text, mv)]
    same = [text.split("，", 1)[-1] for text, mv in today if mv.skill is not None and not mv.skill.trigger
            and {cx.rs.window_of(p) for p in mv.skill.timing} == {window}]
    return f"（本时段中已先结算：{'；'.join(same)}）" if same else ""


def _bindings(cand: Candidate) -> list:
    out = []
    for u in list(cand.scene) + [cand.a, cand.b]:
        out.append({"self": u.binding.self_slot, "targets": list(u.binding.targets),
                    "others": {k: v for k, v in u.binding.others}})
    return out


def _assumptions(cx: Context, start: dict, cand: Candidate) -> tuple[str, ...]:
    out = []
    for i, _ in cand.cast:
        role = cx.rs.roles.get(start.get(("role", i), ""))
        if role is not None and role.external and role.assumption:
            out.append(f"{role.name}：{role.assumption}")
    return tuple(out)


# a window whose order the text never gives is shown by this many confirmed pairs (one finding
# and its examples); its other candidates are not asked. Measured on zemu: its night window had
# 261 candidates over 37 pairs, and confirming each in a game was a third of the whole check
WINDOW_EXAMPLES = 3


def _capped_head(head: str, unasked: int) -> str:
    """The window finding's head once its other pairs were not asked."""
    return head.replace("以下 {n} 对", "例如以下 {n} 对") + f"（同一时段另有 {unasked} 对技能在初步筛选中也可能因先后不同而结果不同，未逐一确认；为该时段规定统一的结算顺序即可一并解决）"


def _pair_groups(cx: Context, cands: list[Candidate], mine: set[tuple]) -> dict[tuple, list[Candidate]]:
    """(pair, blocker uid or "", window) -> its situations, in the order first found: the
    situations of one pair are one game question. Only this process's share; opaque skills
    are left to the unknown analysis."""
    groups: dict[tuple, list[Candidate]] = {}
    for cand in cands:
        if _share_key(cx, cand) not in mine or cand.a.skill.is_opaque or cand.b.skill.is_opaque:
            continue
        blocker = _blocker(cx, cand)
        pair = tuple(sorted((cand.a.skill.uid, cand.b.skill.uid)))
        groups.setdefault((pair, blocker.uid if blocker else "", cand.window), []).append(cand)
    return groups


def _share_key(cx: Context, cand: Candidate) -> tuple:
    """What goes to one process together: a blocker's pairs (one question), else one window's
    candidates (after the first witness of a pair its other candidates are skipped, after
    WINDOW_EXAMPLES witnessed pairs the window's other pairs)."""
    blocker = _blocker(cx, cand)
    return (blocker.uid,) if blocker is not None else ("window", cand.window)


# a win-check question (a whole game to a win, then the trigger) costs about as much as this
# many pairs of order candidates (zemu: about 10 s when undecided, with its second start; a
# pair's situations are one game question of 2-5 s); it only balances the split, no answer
WINCHECK_WEIGHT = 3


def _same_both_orders(res) -> list[tuple]:
    """A player's faction or going out that the window changes, to the same value in both orders."""
    return [k for k in sorted(res.ab, key=repr) if k[0] in ("faction", "alive") and k not in res.differing
            and k in res.ba and k in res.before and res.ab[k] == res.ba[k] != res.before[k]]


def _my_share(cx: Context, sizes: dict[tuple, int]) -> set[tuple]:
    """The units this process asks: the heaviest first, each to the share with the least
    weight so far (the same split in every process: it depends only on the units). A hash
    split left one process with three times the other's work on zemu."""
    if not cx.shard:
        return set(sizes)
    me, n = cx.shard
    load = [0] * n
    out: set[tuple] = set()
    for k in sorted(sizes, key=lambda k: (-sizes[k], k)):
        share = min(range(n), key=lambda i: (load[i], i))
        load[share] += sizes[k]
        if share == me:
            out.add(k)
    return out


def _blocker(cx: Context, cand: Candidate):
    """The use of the pair that stops the other's user from acting (a status that blocks
    skills, granted to that user), or None. Such pairs share one root cause: does the block
    resolve before what it blocks? One question per blocker and window, not one per skill."""
    for x, y in ((cand.a, cand.b), (cand.b, cand.a)):
        if y.skill.trigger or y.binding.self_slot not in x.binding.targets:
            continue
        for e in x.skill.all_effects():
            a = e.args if isinstance(e.args, dict) else {}
            st = cx.rs.statuses.get(cx.world.sem.canon(str(a.get("status", "")))) if e.kind == "grant_status" else None
            if st is not None and ("skills" in st.blocks or st.blocks_tags):
                return x.skill
    return None


def _one_block_question(cx: Context, group: list[Finding], window: str) -> Finding:
    """The first witnessed pair stands for the group; the other skills it can stop are listed."""
    from dataclasses import replace
    first = group[0]
    blocker = first.subjects[0] if any(f.subjects[0] == first.subjects[0] for f in group[1:]) or len(group) == 1 \
        else first.subjects[1]
    others = sorted({s for f in group for s in f.subjects[:2] if s != blocker})
    if len(others) == 1:
        return first
    shown = "、".join(f"【{n}】" for n in others[:6]) + (f"等 {len(others)} 个技能" if len(others) > 6 else "")
    return replace(first, subjects=(blocker, *others),
                   message=f"【{blocker}】能否在同一时段（{window}）先于它所封住的技能结算，规则未规定："
                           f"{shown}的结果取决于先后（实例见下）。",
                   message_en=f"Whether '{blocker}' resolves before the skills it blocks in one window is not stated "
                              f"({len(others)} skills depend on it).",
                   key=("block", blocker, window),
                   question=f"{window}中【{blocker}】与被它封住的技能（{shown}）谁先结算？")
