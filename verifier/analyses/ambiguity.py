"""Ambiguities the encoding declares as switches: do the readings lead to different games?"""
from __future__ import annotations

from dataclasses import replace
from itertools import combinations, permutations
from typing import Iterator

from models.domain import without_parts
from models.encoding.ambiguity import (CONTINUE_STEPS, confirm_reading, continue_reading, foreign_statuses,
                                      reading_question, win_differs, wins_only_under)
from models.encoding.detours import held_in_values, in_vain, odd_moves, odd_use, plain_none
from models.encoding.decode import player_of
from models.encoding.anywhere import possible_at_table
from models.encoding.readings import reads_reading
from models.encoding.reach import Move, bounded_trace, day_text, first_called, move_text, setup_skills, use_text
from models.encoding.semantics import UNMODELLED_KINDS

from ..findings import Finding
from ..narrate import (describe_player, named_in_text, now_line, opening, outcome_text, reason_zh, steps_zh, table_json, table_text,
                       window_game_json, witness_json)
from .base import Analysis, Context
from .influence import read_somewhere, readers_of
from .text_checks import passages
from .told_order import unstated_orders
from .pending import trace_skills


DEEPER = 2   # moves added to the depth when the bounded game shows no difference


def _asked(amb: dict) -> str:
    """The ambiguity as a judge reads it in a note that claims nothing: its name and its question."""
    return f"「{amb['name']}」（{amb['text']}）" if amb.get("text") else f"「{amb['name']}」"


def _unreached(amb: dict, options: list[str], what: str, what_en: str, steps: int, where) -> Finding:
    """The readings differ in some state, but no legal game within the bounds reaches one: an
    open question a judge should still see, not a harmless one."""
    name = amb["name"]
    return Finding(kind="unknown", severity="info", verdict="unknown", subjects=(name,),
                   message=f"歧义{_asked(amb)}的{'、'.join(options)}几种理解下{what}在某些局面中不同，"
                           f"但开局后 {steps_zh(steps)}内没有合法对局走到这样的局面（更长的对局未检查）。",
                   message_en=f"The readings of '{name}' {what_en} in some state, but no legal game within "
                              f"{steps} moves reaches one (longer games were not checked).",
                   locations=where, key=("ambiguity", name))


def _as_passages(cx: Context, f: Finding, r: dict) -> Finding:
    """A switch that encodes two passages which disagree (a `readings` entry names it): the
    finding is about the text's inconsistency, with the outcome under each passage."""
    said, where = passages(cx, r)
    locations = tuple(dict.fromkeys(cx.locs(*where) + tuple(f.locations)))
    question = f"「{r['element']}」以哪一处原文为准？"
    if f.kind == "ambiguity" and f.verdict == "witnessed":
        return replace(f, kind="inconsistent-text", message=f"{said}：{f.message.split('有多种理解：', 1)[-1]}",
                       locations=locations, question=question)
    if f.kind == "ambiguity" and f.verdict == "proved":
        return replace(f, kind="inconsistent-text", message=f"{said}，但{f.message.split('无害：', 1)[-1]}",
                       locations=locations)
    # the passages disagree, but what each leads to was not compared: an open question
    # (with the undecided ones), never told as if a game showed it
    return replace(f, kind="inconsistent-text", severity="warning", verdict="unknown",
                   message=f"{said}；两种说法的结果未能比较。", locations=locations, question=question,
                   scenario={"roles": [], "steps": [f"查阅「{r['element']}」"], "outcomes": [f.message]})


def _unmodelled(cx: Context, amb: dict) -> Finding:
    """A switch the encoding declares without reading it, saying why the engine cannot tell
    the readings apart: the question goes to the judge with its options, never called harmless."""
    name = amb["name"]
    where = cx.locs(cx.src_where(amb.get("src"), cx.yaml_line(("ambiguities", cx.rs.ambiguities.index(amb)))))
    return Finding(kind="ambiguity", severity="warning", verdict="unknown", subjects=(name,),
                   message=f"歧义{_asked(amb)}：{amb['unmodelled']}，各种理解的结果未经比较，需要导演裁定。",
                   message_en=f"The ambiguity '{name}' is declared but the engine cannot tell its readings apart.",
                   locations=where, key=("ambiguity", name), question=f"{amb['text']}？",
                   rulings=tuple({"ruling": o["name"] + (f"（{o['text']}）" if o.get("text") else ""), "outcome": ""}
                                 for o in amb["options"]))


def _unmodelled_readers(skills: list, name: str) -> list[str]:
    """The skills (shown names) where the reading decides an effect the engine does not model:
    the reading is in the guard of such an effect, or in the condition or trigger of a skill
    whose every effect is such."""
    out = []
    for s in skills:
        effects = s.all_effects()
        inert = [e for e in effects if e.kind in UNMODELLED_KINDS or e.kind == "opaque"]
        whole = _mentions([s.condition, s.trigger, (s.targets or {}).get("filter")], name) and effects and len(inert) == len(effects)
        if whole or any(_mentions(e.guard, name) for e in inert):
            out.append(s.shown)
    return without_parts(out)


def _timed_readers(skills: list, name: str) -> list[str]:
    """The skills (shown names) where the reading chooses between grants of one status for
    different durations: the readings may differ only in when it expires, after the use the
    check compares."""
    out = []
    for s in skills:
        spans: dict[str, set] = {}   # status -> the durations the skill grants it for
        read: set = set()            # statuses granted under a guard that reads the ambiguity
        for e in s.all_effects():
            if e.kind == "grant_status" and isinstance(e.args, dict) and isinstance(e.args.get("status"), str):
                spans.setdefault(e.args["status"], set()).add(str(e.args.get("duration") or "permanent"))
                if _mentions(e.guard, name):
                    read.add(e.args["status"])
        if any(len(spans[st]) > 1 for st in read):
            out.append(s.shown)
    return without_parts(out)


def _mentions(x, name: str) -> bool:
    return reads_reading(x, name)


def readers(rs, name: str) -> list:
    """The skills whose trigger, condition, targets or effects read the ambiguity."""
    return [s for s in rs.skills if _mentions([s.trigger, s.condition, s.targets] +
                                              [[e.args, e.guard] for e in s.all_effects()], name)]


def _target_going(game) -> bool:
    """A target of the found use is out or about to go out when it is used."""
    return any(not game.start.get(("alive", x), True) or game.start.get(("dying", x), False)
               for x in game.binding.targets)


def _plain(rs, skill, game) -> bool:
    """No player of the found game holds a status the post leaves to base rules when the use
    is made, neither the use nor a move before it is a detour (odd_use: the seer checking
    himself, a wolf knifing a teammate; a vote-out on one's own ballot), and the difference is about a player still in the
    game (or about none)."""
    foreign = foreign_statuses(rs, skill)
    if any(v and k[0] == "status" and k[2] in foreign for k, v in game.start.items()):
        return False
    b = game.binding
    if b.targets and odd_use(skill, b.self_slot, b.targets, lambda x: game.start.get(("faction", x)), rs,
                             held_in_values(game.start)):
        return False
    if game.detoured or odd_moves(rs, game.moves, game.dealt or game.start):
        return False
    players = [p for p in map(player_of, game.differing) if p is not None]
    return not players or any(game.start.get(("alive", p), True) for p in players)


def _only_records(rs, differing) -> bool:
    """The difference is only in values the post never names: the encoding's records, or
    whether a player gained or lost a part the encoding split off a skill (told as 第n行的部分)."""
    return not any(named_in_text(rs, k) for k in differing)


def _records_word(differing) -> str:
    """What such a difference is in, in words."""
    return "编码拆分出的技能部分" if any(k[0] in ("gained", "lost") for k in differing) else "编码为结算记下的中间记录"


def _read_later(rs, differing) -> list[str]:
    """When the difference is only in the encoding's records and the game could not be played
    on to compare (continue_reading): said so, and which rules read the record."""
    if not _only_records(rs, differing):
        return []
    skills = without_parts([s.shown for k in differing for s in readers_of(rs, k)])
    return [f"（这一差别只在{_records_word(differing)}上，是否改变此后的结算未作比较；读取它的规则：{'、'.join(skills)}）"] \
        if skills else []


def _game(skill, game, name: str, pair: tuple, at_setup: bool) -> dict:
    """The game for the independent interpreter: the deal, the quiet days and moves, played
    under the first option, and the claim that the use then resolves differently under the
    two (in one of the values the engine found differing)."""
    b = game.binding
    use = {"skill": skill.uid, "self": b.self_slot, "targets": list(b.targets), "others": dict(b.others)}
    claim = {"reading": {"name": name, "options": list(pair), "use": use,
                         "differing": ["|".join(map(str, k)) for k in game.differing]}}
    # a use with a timing follows the moves as a window (its phase, limits, held before the phase)
    return {**window_game_json(game.dealt, game.moves, [use] if skill.timing and not at_setup else [], game.quiet,
                               game.quiet_days, game.first_day, trail=game.trail), "claim": claim}


def _continued(then, name: str, pair: tuple, game) -> dict:
    """The game for the independent interpreter when it is played on after the use: the use
    is one of its moves; from it on the second option is read; the claim is that the ends
    differ in the values named, or that the move at `blocked` cannot happen under the second."""
    claim = {"reading": {"name": name, "options": list(pair), "from": then.use_at,
                         "differing": ["|".join(map(str, k)) for k in then.differing], "blocked": then.blocked_at}}
    # the trail is the game up to the use, asked for first by the next check
    return {**window_game_json(game.dealt, then.moves, [], game.quiet, game.quiet_days, game.first_day,
                               trail=game.trail), "claim": claim}


def _told(history: list, moves: list) -> list:
    """The told lines of a history with their moves (quiet days come first, without moves)."""
    return list(zip(history[len(history) - len(moves):], moves)) if moves else []


def _now(rs, game, cast) -> list[str]:
    """The players whose state changed on the way to the use, as they are then."""
    return now_line(rs, game.dealt, game.start, cast) if game.dealt else []


class Ambiguity(Analysis):
    """A place the text can be read more than one way, declared by the encoding as a switch
    (`ambiguities`: a name, the lines, the options in the text's words). For each one: in a
    legal game, does a use of a skill that reads it happen or change things differently
    under two options? If yes, a warning with the situation under each option and a question
    whose rulings are the options; if no, it is proved harmless (info). A ruling that picks
    an option settles it, and the engine uses that option everywhere. A use that differs only
    in a record the post never names is played on (the same moves under each option, up to
    CONTINUE_STEPS) to the first difference a judge sees; none there leaves an open question,
    not a witness. Fix: say in the text which reading holds. Limits: one use of a reading
    skill is compared; the proof is over the reachable-state over-approximation of the slots,
    witnesses are bounded games."""
    kind = "ambiguity"
    summary = "原文可以有多种理解，且不同理解导致不同结果"
    severity = "warning"
    decides_by = "smt"
    may_be_unknown = True
    also_yields = ("inconsistent-text",)

    def run(self, cx: Context) -> Iterator[Finding]:
        rs = cx.rs
        linked = {r["switch"]: r for r in rs.readings if r.get("switch")}
        asked = [amb for amb in rs.ambiguities if rs.ruled_option(amb["name"]) is None]  # else settled
        for k, amb in enumerate(asked):
            cx.tick(k, len(asked))
            if not cx.mine(k):
                continue   # the other process asks it (each is a game question: the costly part)
            if amb.get("unmodelled"):
                found = [_unmodelled(cx, amb)]
            else:
                skills = readers(rs, amb["name"])
                found = cx.cached("ambiguity", skills, [amb["name"], [o["name"] for o in amb["options"]]],
                                  lambda amb=amb, skills=skills: self._decide(cx, amb, skills), global_skills=True)
            for f in found:
                yield _as_passages(cx, f, linked[amb["name"]]) if amb["name"] in linked else f

    def _decide(self, cx: Context, amb: dict, skills: list) -> Iterator[Finding]:
        rs = cx.rs
        name, options = amb["name"], [o["name"] for o in amb["options"]]
        where = cx.locs(cx.src_where(amb.get("src"), cx.yaml_line(("ambiguities", rs.ambiguities.index(amb)))),
                        *(s.where for s in skills[:3]))
        outcome = cx.__dict__.setdefault("_order_outcome", read_somewhere(rs))
        depth, quiet = int(rs.bounds["depth"]), int(rs.bounds["quiet"])
        undecided, bounded = "", False
        earlier = self._earlier(cx, amb, skills, outcome)
        if earlier is not None:
            # the game of the baseline still shows it: the story stays as it was
            yield from self._witnessed(cx, amb, *earlier, outcome, where)
            return
        # one game question per ambiguity (the first use that differs abstractly): each is a
        # bounded trace at the table, the costly part of this check
        for (i, a), (j, b) in combinations(enumerate(options), 2):
            for s in skills:
                res = reading_question(cx.world, cx.solver, name, s, i, j, outcome)
                if res.answer.status == "unknown":
                    undecided = reason_zh(res.answer.reason)
                    continue
                if not res.answer.sat:
                    continue
                game, bound = confirm_reading(cx.world, cx.solver, name, s, i, j, outcome, depth,
                                              trace_skills(rs, cx.world), 0), (depth, 0)
                if game.answer.status == "unsat" and quiet:
                    game, bound = confirm_reading(cx.world, cx.solver, name, s, i, j, outcome, depth,
                                                  trace_skills(rs, cx.world), quiet), (depth, quiet)
                if game.answer.status == "unsat":
                    # a night has several moves (guard, kill, save, the going out): a
                    # reading that only shows after one whole night needs a longer game
                    game, bound = confirm_reading(cx.world, cx.solver, name, s, i, j, outcome, depth + DEEPER,
                                                  trace_skills(rs, cx.world), 0), (depth + DEEPER, 0)
                if game.answer.sat:
                    yield from self._witnessed(cx, amb, s, (i, j), game, bound, None, outcome, where)
                    return
                if game.answer.status == "unknown":
                    undecided = reason_zh(game.answer.reason)
                else:
                    bounded = True   # differs abstractly; no legal game within the bounds shows it
                break
            if undecided:
                break
        if undecided:
            yield Finding(kind="unknown", severity="warning", verdict="unknown", subjects=(name,),
                          message=f"歧义{_asked(amb)}的各种理解是否导致不同结果，未能判定（{undecided}）。",
                          message_en=f"Whether the readings of '{name}' differ could not be decided.",
                          locations=where, key=("ambiguity", name))
            return
        if not skills and not bounded and not undecided:
            factions = [f for f in sorted(rs.factions) if _mentions([rs.factions[f].win, rs.factions[f].lose], name)]
            found = self._by_faction(cx, amb, factions, where) if factions else None
            if isinstance(found, Finding):
                yield found
                return
            if factions:
                yield self._faction_clean(cx, amb, factions, where, undecided=found == "unknown")
                return
        if not skills:
            yield Finding(kind="unknown", severity="warning", verdict="unknown", subjects=(name,),
                          message=f"歧义{_asked(amb)}已声明，但编码中没有任何技能的条件或效果读取它，无法判定各种理解是否导致不同结果。",
                          message_en=f"The ambiguity '{name}' is declared but no skill reads it.",
                          locations=where, key=("ambiguity", name))
            return
        users = "、".join(cx.skill_text(s) for s in skills)
        if bounded:
            yield _unreached(amb, options, f"{users}的结果", "differ", depth + DEEPER, where)
            return
        # one use is compared: a status granted either way looks the same until it expires; and
        # the same outcome in what the engine models proves nothing about who is told what
        for readers_of, what, what_en in (
                (_timed_readers, "状态的持续时间，一次使用看不出区别", "how long a status lasts; one use cannot show it"),
                (_unmodelled_readers, "未建模的效果（信息、通知等）", "effects the engine does not model (information)")):
            users_here = readers_of(skills, name)
            if users_here:
                yield Finding(kind="unknown", severity="warning", verdict="unknown", subjects=(name,),
                              message=f"歧义{_asked(amb)}的{'、'.join(options)}几种理解，在{'、'.join(users_here)}中改变的是"
                                      f"{what}，无法判定是否导致不同结果。",
                              message_en=f"The readings of '{name}' change {what_en}.",
                              locations=where, key=("ambiguity", name))
                return
        yield self._harmless(name, where, f"无害：{'、'.join(options)}几种理解下结果相同（{users}）。", False)

    def _earlier(self, cx: Context, amb: dict, skills: list, outcome):
        """The baseline's game for this ambiguity, if it still shows a difference under the
        rules as they are now: (skill, (i, j), game, bound), else None."""
        name, options = amb["name"], [o["name"] for o in amb["options"]]
        by_uid = {s.uid: s for s in skills}
        depth = int(cx.rs.bounds["depth"])
        # a reading told as two passages that disagree is reported as inconsistent-text
        for trail in cx.earlier_trails((self.kind,) + self.also_yields, lambda w: w.get("ambiguity") == name):
            pair, use = trail.get("options") or [], trail.get("use") or {}
            skill = by_uid.get(use.get("skill"))
            # a trail written before trails were: the bound its game needs, and either option
            # first (a game played on may name the compared option first)
            bound = trail.get("bound") or [depth if len(trail["moves"]) <= depth else depth + DEEPER, 0]
            if skill is None or len(pair) != 2 or not set(pair) <= set(options) or len(bound) != 2:
                continue
            for first, second in [pair, pair[::-1]] if trail.get("legacy") else [pair]:
                i, j = options.index(first), options.index(second)
                game = confirm_reading(cx.world, cx.solver, name, skill, i, j, outcome, int(bound[0]),
                                       trace_skills(cx.rs, cx.world), int(bound[1]), pin=trail)
                if game.answer.sat:
                    return skill, (i, j), game, tuple(bound), trail
        return None

    def _witnessed(self, cx: Context, amb: dict, s, ij: tuple, game, bound: tuple, earlier, outcome,
                   where) -> Iterator[Finding]:
        """A game where the use of s differs under options i and j: told plainly (asked again
        without detours), played on where only a record differs, then reported. earlier: the
        baseline's trail of this game (how it was played on, whether a plain one was asked for
        in vain), or None."""
        rs, (i, j) = cx.rs, ij
        name, options = amb["name"], [o["name"] for o in amb["options"]]
        a, b = options[i], options[j]
        after = (earlier or {}).get("after")
        records = _only_records(rs, game.differing)
        none_plain = False
        if not _plain(rs, s, game) or (_target_going(game) and not records):
            # a detour in the story (the seer checking himself), a lasting effect on a
            # player on the way out, a difference only for players already out, or a cast
            # holding a status the post leaves to base rules (lovers…) reads badly: asked
            # again within the same bounds without them (a record is still played on), unless
            # the baseline's game is this one and was asked for again in vain
            going = _target_going(game) and not records
            better = None if plain_none(earlier) else \
                self._asked_again(cx, name, s, (i, j), outcome, bound, living=not records, fallback=going)
            none_plain = better is None or not better.answer.sat
            game = game if none_plain else better
            # a game asked for again that is still not wholly plain (a base-rule status every
            # game deals, a target on the way out) is the plainest there is: marked, so the
            # next check keeps it rather than asking again and finding another
            none_plain = none_plain or not _plain(rs, s, game) or (_target_going(game) and not records)
        then, pair = None, (a, b)
        if _only_records(rs, game.differing):
            # a record the post never names differs: the found game played on (the
            # same moves under each option) shows what it changes, e.g. whether a
            # protected player goes out at dawn
            then, pair = self._played_on(cx, name, s, options, (i, j), game, after)
        if _only_records(rs, game.differing) and not then.answer.sat:
            # nothing within the moves played on: a use that differs in a value the
            # text names, on targets who stay in the game, within the same bounds
            told = lambda k: (outcome is None or outcome(k)) and not _only_records(rs, [k])  # noqa: E731
            better = self._asked_again(cx, name, s, (i, j), told, bound, living=True, fallback=True)
            if better.answer.sat:
                game, then = better, None
        # the next check asks for this game first (under option i, compared with j)
        game.trail["options"] = [a, b]
        if none_plain:
            game.trail.update(in_vain())   # asked for again without detours, in vain
        if then is not None and then.answer.sat:
            game.trail["after"] = {"options": list(pair), "moves": then.moves[then.use_at + 1:]}
        if then is not None and not then.answer.sat:
            if then.answer.status == "unsat" or then.compared:
                yield self._records_only(cx, amb, s, (a, b), game, then, where)
                return
        yield self._finding(cx, amb, s, pair, game, where, then if then and then.answer.sat else None)

    def _asked_again(self, cx: Context, name: str, skill, ij: tuple, outcome, bound: tuple, living: bool,
                     fallback: bool):
        """The reading game asked again within the same bounds for a plain story
        (confirm_reading's plain) and, if living, targets who stay in the game; fallback: if
        there is none, for targets who stay in the game alone."""
        def ask(plain: bool, alive: bool, foreign_ok: bool = False):
            return confirm_reading(cx.world, cx.solver, name, skill, *ij, outcome, bound[0],
                                   trace_skills(cx.rs, cx.world), bound[1], living_targets=alive, plain=plain,
                                   foreign_ok=foreign_ok)
        better = ask(True, living)
        if not better.answer.sat and foreign_statuses(cx.rs, skill):
            # every game may deal a base-rule status (lovers a forced setup choice makes): the
            # story is still asked for without detours
            better = ask(True, living, foreign_ok=True)
        return ask(False, True) if fallback and not better.answer.sat else better

    def _played_on(self, cx: Context, name: str, skill, options: list, ij: tuple, game, after=None):
        """The found game played on after the use, with the same moves under each option; then
        with the found game read the other way (a move one option forces and the other forbids
        shows only so). Returns the outcome and the options in the order it was found.
        after: the baseline's moves after the use ({options, moves}), asked for first."""
        rs, (i, j), then = cx.rs, ij, None
        pair = (after or {}).get("options") or []
        if len(pair) == 2 and set(pair) <= set(options) and set(pair) == {options[i], options[j]}:
            x, y = options.index(pair[0]), options.index(pair[1])
            then = continue_reading(cx.world, cx.solver, name, skill, x, y, game, trace_skills(rs, cx.world),
                                    lambda k: named_in_text(rs, k), after=after.get("moves"))
            if then.answer.sat:
                return then, (options[x], options[y])
        for x, y in ((i, j), (j, i)):
            then = continue_reading(cx.world, cx.solver, name, skill, x, y, game,
                                    trace_skills(rs, cx.world), lambda k: named_in_text(rs, k))
            if then.answer.sat:
                return then, (options[x], options[y])
        return then, (options[i], options[j])

    def _records_only(self, cx: Context, amb: dict, skill, pair: tuple, game, then, where) -> Finding:
        """The readings change only a record the post never names, and the found game played on
        shows no difference in the game (or that could not be decided): an open question, not
        a witnessed one; the game shows the record, and the rules that read it are named."""
        rs, name, (a, b) = cx.rs, amb["name"], pair
        why = f"此后 {CONTINUE_STEPS} 步内结果没有不同" if then.answer.status == "unsat" else \
            f"此后是否不同未能判定（{reason_zh(then.answer.reason)}）"
        readers = without_parts([s.shown for k in game.differing for s in readers_of(rs, k)])
        f = self._finding(cx, amb, skill, pair, game, where)
        outcomes = [o for o in f.scenario["outcomes"] if not o.startswith("（这一差别")] + \
            [f"（这一差别只在{_records_word(game.differing)}上；同样的行动继续下去，{why}" +
             (f"；读取它的规则：{'、'.join(readers)}" if readers else "") + "）"]
        # the reading matters in some state and no bound here shows it is harmless: a question
        # the judge should see among the problems
        return replace(f, kind="unknown", severity="warning", verdict="unknown", question=None, rulings=(),
                       message=f"歧义{_asked(amb)}：按「{a}」与按「{b}」，{cx.skill_text(skill)}此时只改变{_records_word(game.differing)}，"
                               f"区别要到读取它的规则作用时才显出；在找到的对局中{why}（更长的对局未检查）。",
                       message_en=f"The readings of '{name}' change only an encoding record in '{skill.name}'; the found "
                                  f"game played on {CONTINUE_STEPS} more moves shows no difference in the game.",
                       scenario={**f.scenario, "outcomes": outcomes})

    def _harmless(self, name: str, where, what: str, within_bounds: bool) -> Finding:
        """The readings give the same outcome (everywhere, or in every legal game within the bounds)."""
        return Finding(
            kind=self.kind, severity="info", verdict="proved", subjects=(name,),
            message=f"歧义「{name}」{what}",
            message_en=f"The ambiguity '{name}' is harmless in every legal game within the bounds." if within_bounds
            else f"The ambiguity '{name}' is harmless: every reading gives the same outcome.",
            locations=where, key=("ambiguity", name),
        )

    def _faction_clean(self, cx: Context, amb: dict, factions: list[str], where, undecided: bool) -> Finding:
        """No game within the bounds shows a win that depends on the reading: proved harmless
        when no reachable state does (the over-approximation), else an open question the bounds
        do not reach (a harmless verdict there would be empty: the situation never arises)."""
        rs, world = cx.rs, cx.world
        name, options = amb["name"], [o["name"] for o in amb["options"]]
        pairs = list(permutations(range(len(options)), 2))
        ans = possible_at_table(world, cx.solver, lambda st: win_differs(world, st, factions, name, pairs),
                                 "reading-win-abstract") if not undecided else None
        if ans is not None and ans.unsat:
            return self._harmless(name, where, f"无害：{'、'.join(options)}几种理解下{'、'.join(factions)}的胜负"
                                               f"在任何可达局面中都相同。", False)
        if ans is None or ans.status == "unknown":
            return Finding(kind="unknown", severity="warning", verdict="unknown", subjects=(name,),
                           message=f"歧义{_asked(amb)}的各种理解是否改变{'、'.join(factions)}的胜负，未能判定（求解预算用尽）。",
                           message_en=f"Whether the readings of '{name}' change who wins could not be decided.",
                           locations=where, key=("ambiguity", name))
        return _unreached(amb, options, f"{'、'.join(factions)}的胜负", "decide a win", int(rs.bounds["depth"]), where)

    def _by_faction(self, cx: Context, amb: dict, factions: list[str], where) -> Finding | str | None:
        """A reading a win or lose condition depends on: a legal game (at the table, within the
        depth) at whose end the faction has won under one option and not under the other.
        "unknown" when some game question ran out of budget and none found it."""
        rs, world = cx.rs, cx.world
        name, options = amb["name"], [o["name"] for o in amb["options"]]
        depth = int(rs.bounds["depth"])
        undecided = False
        for f in factions:
            for (i, a), (j, b) in permutations(enumerate(options), 2):
                def goal(st, f=f, i=i, j=j):
                    return wins_only_under(world, st, f, name, i, j)
                trace = bounded_trace(world, cx.solver, goal, depth, "reading-win", trace_skills(rs, world),
                                      quiet=int(rs.bounds["quiet"]))
                if not trace.answer.sat:
                    undecided |= trace.answer.status == "unknown"
                    continue
                last = trace.states[-1]
                size, rest = table_text(world.k, trace.table, last, seated=world.vocab.seats)
                return Finding(
                    kind=self.kind, severity=self.severity, verdict="witnessed", subjects=(name, f),
                    message=f"「{amb['text']}」有多种理解：按「{a}」{f}获胜，按「{b}」则没有。",
                    message_en=f"The ambiguity '{name}' matters: {f} wins under '{a}' and not under '{b}'.",
                    locations=where, key=("ambiguity", name),
                    scenario={"roles": [describe_player(rs, trace.states[0], k, dealt=True) for k in range(world.k)] + ([rest] if rest else []),
                              "steps": opening(size, trace.steps, "开局即如此"),
                              "outcomes": [f"按「{a}」：{f}获胜", f"按「{b}」：{f}未获胜"] +
                                          [describe_player(rs, last, k) for k in range(world.k)]},
                    witness={"kind": "trace", "steps": trace.steps, "ambiguity": name, "options": [a, b],
                             **table_json(trace.table)},
                    question=f"{amb['text']}？",
                    rulings=tuple({"ruling": o["name"] + (f"（{o['text']}）" if o.get("text") else ""),
                                   "outcome": f"{f}获胜" if o["name"] == a else f"{f}未获胜" if o["name"] == b else ""}
                                  for o in amb["options"]),
                )
        return "unknown" if undecided else None

    def _finding(self, cx: Context, amb: dict, skill, pair: tuple, game, where, then=None) -> Finding:
        """then: the game played on after a use that differs only in records (continue_reading):
        the story goes on to the first difference in the game, and the outcomes are those."""
        rs, world = cx.rs, cx.world
        name, (a, b) = amb["name"], pair
        ia, ib = then.under if then else game.under
        differing = then.differing if then else game.differing
        cast = range(world.k)
        size, rest = table_text(world.k, game.table, game.start, seated=world.vocab.seats)
        changed = [t for t in outcome_text(rs, differing, ia, world.vocab.causes).split("；") if t]
        other = [t for t in outcome_text(rs, differing, ib, world.vocab.causes).split("；") if t]
        tgt = "、".join(f"P{t + 1}" for t in game.binding.targets)
        at_setup = skill in setup_skills(world)
        # the use's day and phase (the moves before it say how many days went by)
        day = None if at_setup else game.first_day + sum(1 for mv in game.moves if mv.get("move") == "day")
        timing = list(skill.timing)
        phases = "/".join(timing) if len(timing) <= 2 else f"{timing[0]}至{timing[-1]}"
        # a use without a timing of its own: the phase the game was in
        phases = phases or (game.phase or "")
        called = first_called(rs)
        when = day_text(day, called, phases) + "，" if day and phases else ""
        use = move_text(Move(skill, game.binding, skill.name), day, called) if skill.trigger or skill.told else \
            when + use_text(f"P{game.binding.self_slot + 1}", skill, cx.skill_text(skill), tgt)
        use += f"（{'；'.join(game.chosen)}）" if game.chosen else ""
        told_use = f"{game.note}；{use}" if game.note else use
        if then and then.blocked:
            other.insert(0, f"{then.blocked}：不能发生")
        elif not then:
            # a reading may not allow the use itself (a target out of its range)
            for told, ok in zip((changed, other), game.allowed):
                if not ok:
                    told.insert(0, f"{use}：不能发生")
        # the same moves are tried under both readings; one may not be possible under the second
        tried = "尝试" if then and then.blocked else ""
        after = [f"此后（两种理解下{tried}同样的行动）：{'；'.join(then.history)}"] if then and then.history else []
        witness = _continued(then, name, (a, b), game) if then else _game(skill, game, name, (a, b), at_setup)
        # the readings and the orders in a time slot the whole story rests on, said after it
        told = _told(game.history, game.told_moves) + [(use, Move(skill, game.binding, skill.name))] + \
            (_told(then.history, then.told_moves) if then else [])
        later = [r for r in (then.others if then else []) if r not in game.others]
        rests = ([f"（此后的行动中{'，'.join(later)}）"] if later else []) + unstated_orders(cx, told)
        return Finding(
            kind=self.kind, severity=self.severity, verdict="witnessed", subjects=(amb["name"],),
            message=f"「{amb['text']}」有多种理解：按「{a}」与按「{b}」，{cx.skill_text(skill)}"
                    + ("之后的结算不同。" if then else "的结果不同。"),
            message_en=f"The ambiguity '{name}' matters: '{skill.name}' resolves differently under '{a}' and '{b}'.",
            locations=where, key=("ambiguity", name),
            # the cast as dealt when a history leads to the use (the steps tell what happened)
            scenario={"roles": [describe_player(rs, game.dealt or game.start, i, dealt=True) for i in cast] + ([rest] if rest else []),
                      # at setup: the uses made before it (开局时：…), then the use
                      "steps": (opening(size, game.history) + [f"其余开局技能结算之后：{use}"] if game.history else
                                [size + "，开局时（其余开局技能结算之后）"] * bool(size) + [use]) if at_setup else
                               opening(size, game.history) + [f"（以上对局按「{a}」理解进行" + "".join(f"，{r}" for r in game.others) + "）"] +
                               _now(rs, game, cast) + [told_use] + after + rests,
                      "outcomes": [f"按「{a}」：" + ("；".join(changed) or "无变化"),
                                   f"按「{b}」：" + ("；".join(other) or "无变化")] + ([] if then else _read_later(rs, differing))},
            witness={"kind": "trace", "steps": game.history + [told_use] + after, "ambiguity": name, "options": [a, b],
                     "start": witness_json(then.under[0] if then else game.start), **table_json(game.table),
                     **witness},
            question=f"{amb['text']}？",
            rulings=tuple({"ruling": o["name"] + (f"（{o['text']}）" if o.get("text") else ""),
                           "outcome": (f"按「{a}」：" + "；".join(changed)) if o["name"] == a else
                                      (f"按「{b}」：" + "；".join(other)) if o["name"] == b else ""}
                          for o in amb["options"]),
        )
