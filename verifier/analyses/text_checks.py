"""Checks on the source text itself: undefined bracket terms, passages that disagree,
and the assumptions we had to make about external terms."""
from __future__ import annotations

import re
from dataclasses import replace
from typing import Iterator

from ..findings import SEVERITIES, Finding, Location
from .base import Analysis, Context

BRACKETS = re.compile(r"【([^【】]{1,30})】|\[([^\[\]]{1,30})\]|<([^<>]{1,30})>|〖([^〖〗]{1,30})〗|［([^［］]{1,30})］|＜([^＜＞]{1,30})＞")
SPLIT = re.compile(r"[，,、/／]")
HEADER_LINES = 1
FIELD_ZH = {"timing": "使用时间", "targets": "使用对象", "effects": "效果", "effect": "效果", "tie": "平票规则",
            "flip_to": "翻转身份", "name": "名称", "faction": "阵营", "count": "数量", "condition": "条件",
            "win": "胜利条件", "lose": "失败条件", "trigger": "触发条件", "uses": "使用次数"}  # line 1 of source.txt is our header, not the author's text


# the kinds of element a ruleset declares, with the Chinese word for each
ELEMENT_KINDS = {"factions": "阵营", "statuses": "状态", "tags": "标签", "labels": "标记", "roles": "身份",
                 "counters": "计数器", "items": "物品"}
BASIS_ZH = {"base_rules": "原帖写明来自基础规则", "vocabulary": "通用游戏用语"}


def external_elements(rs) -> list[dict]:
    """Everything the encoding leaves to rules we do not have: externals terms and elements
    marked external, each with its kind, assumption, basis and where it is declared."""
    out = []
    for i, e in enumerate(rs.raw.get("externals") or []):
        out.append({"name": e["term"], "kind": "术语", "assumption": e.get("assumption", ""), "basis": e.get("basis"),
                    "basis_src": e.get("basis_src"), "src": e.get("src"), "path": ("externals", i)})
    for group, zh in ELEMENT_KINDS.items():
        for i, el in enumerate(rs.raw.get(group) or []):
            if isinstance(el, dict) and el.get("external"):
                out.append({"name": el["name"], "kind": zh, "assumption": el.get("assumption", ""),
                            "basis": el.get("basis"), "basis_src": el.get("basis_src"), "src": el.get("src"),
                            "path": (group, i)})
    return out


def left_undefined(el: dict) -> bool:
    """An external element the post neither names base rules for nor uses as ordinary game
    vocabulary: undefined, not merely external."""
    return not (el["basis"] == "vocabulary" or (el["basis"] == "base_rules" and el["basis_src"]))


def undefined_behind(rs, faction: str) -> list[str]:
    """The words the encoding marks undefined (terms of kind undefined, external elements
    left undefined) that the faction's end conditions read."""
    names = [t["name"] for t in rs.terms if t.get("kind") == "undefined"] + \
        [el["name"] for el in external_elements(rs) if left_undefined(el)]
    return [n for n in dict.fromkeys(names) if f"{faction}的胜负条件" in dependents(rs, n)]


def never_given(rs, status: str) -> bool:
    """No role holds the status at the deal and no effect can be the first to give it: no
    grant of it, and every opaque effect that writes it also reads it (passes on what a
    player already holds, e.g. "受到的异常状态会额外传递给另一名角色")."""
    canon = rs.aliases.get(status, status)
    for role in rs.raw.get("roles") or []:
        if any(rs.aliases.get(str(x), str(x)) == canon for x in (role.get("statuses") or [])):
            return False
    for skill in rs.skills:
        for e in skill.all_effects():
            a = e.args if isinstance(e.args, dict) else {}
            if e.kind == "grant_status" and rs.aliases.get(str(a.get("status")), str(a.get("status"))) == canon:
                return False
            if e.is_opaque and f"status:{canon}" in (a.get("writes") or []) and \
                    f"status:{canon}" not in (a.get("reads") or []):
                return False
    return True


def _mentions(x, name: str) -> bool:
    if isinstance(x, str):
        return x == name
    if isinstance(x, dict):
        return any(_mentions(v, name) for v in x.values()) or name in x
    return isinstance(x, list) and any(_mentions(v, name) for v in x)


def dependents(rs, name: str) -> list[str]:
    """The rules that read or write the element: skills and factions' end conditions."""
    out = [s.name for s in rs.skills if _mentions([s.trigger, s.condition, s.targets, s.owner] +
                                                 [[e.args, e.guard] for e in s.all_effects()], name)]
    out += [f"{f.name}的胜负条件" for f in rs.factions.values() if _mentions([f.win, f.lose], name)]
    return list(dict.fromkeys(out))


def source_lines_of(rs, name: str) -> list[int]:
    """The lines of the source text that use the name (after our header line)."""
    return [no for no, line in enumerate(rs.source_lines, start=1) if no > HEADER_LINES and name in line]


def bracket_terms(lines: list[str]) -> dict[str, list[int]]:
    """Every bracketed term of the source and the lines it appears on."""
    found: dict[str, list[int]] = {}
    for no, line in enumerate(lines, start=1):
        if no <= HEADER_LINES:
            continue
        for m in BRACKETS.finditer(line):
            raw = next(g for g in m.groups() if g is not None).strip()
            for part in SPLIT.split(raw):
                part = part.strip()
                if part:
                    found.setdefault(part, [])
                    if no not in found[part]:
                        found[part].append(no)
    return found


class UndefinedReference(Analysis):
    """A term the source writes in brackets (【】 [] <> 〖〗) that the ruleset neither defines
    nor declares as an external term. In a game, players argue about what it means.
    Example: a skill says "若该角色不为【X】目标" but nothing is called X.
    Fix: rename to the defined term, or define it. Limits: terms of 1–30 characters."""
    kind = "undefined-reference"
    summary = "括号中的术语既未定义也未声明为外部术语"
    severity = "warning"
    decides_by = "text"

    def run(self, cx: Context) -> Iterator[Finding]:
        yield from one_per_word(list(self._each(cx)))

    def _each(self, cx: Context) -> Iterator[Finding]:
        declared = cx.rs.declared_names()
        charge_lines = {line for s in cx.rs.skills if s.charges for line in s.where.src}
        tag_names = set(cx.rs.tags)
        bracketed = bracket_terms(cx.rs.source_lines)
        for term, lines in sorted(bracketed.items(), key=lambda kv: (kv[1][0], kv[0])):
            if term in declared:
                continue
            if term.isdigit() and any(line in charge_lines for line in lines):
                continue
            stem = term.rstrip("0123456789")
            if stem != term and stem in tag_names:
                continue
            yield self._term(cx, term, lines, "在原文中以括号标出")
        # a word the encoding declares undefined though the text does not bracket it
        for t in cx.rs.terms:
            if t.get("kind") == "undefined" and t["name"] not in bracketed:
                yield self._term(cx, t["name"], source_lines_of(cx.rs, t["name"]) or list(_lines(t.get("src"))),
                                 "在原文中使用")
        for el in external_elements(cx.rs):
            if not left_undefined(el):
                continue
            lines = source_lines_of(cx.rs, el["name"])
            deps = dependents(cx.rs, el["name"])
            # a status no one holds at the deal and no effect can first give is never in a game
            # here: its meaning is left open, but no ruling in this ruleset turns on it
            idle = el["kind"] == ELEMENT_KINDS["statuses"] and never_given(cx.rs, el["name"])
            yield Finding(
                kind=self.kind, severity="info" if idle else self.severity, verdict="proved", subjects=(el["name"],),
                message=f"{el['kind']}「{el['name']}」在原文中使用{'（第' + '、'.join(map(str, lines[:8])) + '行）' if lines else ''}"
                        f"但从未定义，原文也没有说明它来自哪套基础规则"
                        + (f"；依赖它的规则：{'、'.join(deps[:6])}" if deps else "")
                        + ("；但本规则中没有角色开局持有它，也没有效果能首先使角色获得它（至多传递已有的），对局中不会出现" if idle else "")
                        + "。",
                message_en=f"'{el['name']}' is used but never defined, and the post names no base rules it comes from.",
                locations=cx.locs(cx.src_where(el["src"], cx.yaml_line(el["path"]))) +
                tuple(Location(cx.rs.source_file, ln) for ln in lines[:8]),
                scenario={"roles": [], "steps": [f"编码的假设：{el['assumption']}"],
                          "outcomes": [f"依赖它的规则：{'、'.join(deps)}" if deps else "编码中没有规则直接读取它：它的作用只在原文使用它的句子里（见位置）"]},
                key=("external-undefined", el["name"]), assumptions=(el["assumption"],) if el["assumption"] else (),
            )


    def _term(self, cx: Context, term: str, lines: list[int], how: str) -> Finding:
        # the rules that read an undefined word never see it hold: their consequence is told
        # here, with its cause, not as separate dead rules
        deps = dependents(cx.rs, term)
        near = [n for n in near_names(term, cx.rs.declared_names()) if n not in deps]   # not the rule using it
        return Finding(
            kind=self.kind, severity=self.severity, verdict="proved", subjects=(term,),
            message=f"术语「{term}」{how}（第{'、'.join(map(str, lines[:5]))}行），但规则中没有任何地方定义它"
                    + (f"；依赖它的规则：{'、'.join(deps[:6])}（按原文无法判定何时成立）" if deps else "")
                    + (f"；已定义的{'、'.join(f'「{n}」' for n in near[:3])}与它只差一个字，可能是笔误" if near else "") + "。",
            message_en=f"The term '{term}' is used but never defined.",
            locations=tuple(Location(cx.rs.source_file, ln) for ln in lines[:5]),
            scenario={"roles": [], "steps": [f"查找「{term}」的定义"],
                      "outcomes": [f"依赖它的规则：{'、'.join(deps)}" if deps else "编码中没有规则直接读取它：它的作用只在原文使用它的句子里（见位置）"]}
            if deps else None,
            key=(term,),
        )


def one_per_word(found: list[Finding]) -> list[Finding]:
    """Undefined words where one contains the other and the text uses both on one line (a
    status and the judgement that gives it) are one question for the author: one finding
    naming both. So is an undefined word the encoding's assumption about another undefined
    element names as part of it (an item "其<X>技能、Y"): told with that element."""
    return _parts_into_wholes(_nested_words(found))


def _parts_into_wholes(found: list[Finding]) -> list[Finding]:
    parts: dict[int, list[Finding]] = {}
    for f in found:
        whole = next((j for j, g in enumerate(found) if g is not f and
                      any(_names_word(a, f.subjects[0]) for a in g.assumptions)), None)
        if whole is not None and id(f) not in {id(x) for x in parts.get(found.index(f), [])}:
            parts.setdefault(whole, []).append(f)
    taken = {id(f) for fs in parts.values() for f in fs}
    out = []
    for j, g in enumerate(found):
        if id(g) in taken and j not in parts:
            continue
        fs = [f for f in parts.get(j, []) if f is not g]
        if not fs:
            out.append(g)
            continue
        names = "".join(f"「{n}」" for f in fs for n in f.subjects)
        told = []
        for f in fs:
            lines = sorted({loc.line for loc in f.locations if g.locations and loc.file == g.locations[0].file})
            deps = re.search(r"依赖它的规则：([^；。（]+)", f.message)
            told.append("".join(f"「{n}」" for n in f.subjects) + f"（第{'、'.join(map(str, lines[:5]))}行）同样未定义" +
                        (f"，依赖它的规则：{deps.group(1)}" if deps else ""))
        scenario = dict(g.scenario or {"roles": [], "steps": [], "outcomes": []})
        scenario["outcomes"] = list(scenario.get("outcomes") or []) + [f"按编码的假设属于它的{t}" for t in told]
        out.append(replace(g, subjects=g.subjects + tuple(n for f in fs for n in f.subjects),
                           message=g.message.removesuffix("。") + f"；按编码的假设属于它的{names}同样未定义（见结果）。",
                           locations=tuple(dict.fromkeys(g.locations + tuple(loc for f in fs for loc in f.locations))),
                           severity=min([g.severity] + [f.severity for f in fs], key=SEVERITIES.index),
                           assumptions=tuple(dict.fromkeys(g.assumptions + tuple(a for f in fs for a in f.assumptions))),
                           scenario=scenario))
    return out


def _names_word(text: str, word: str) -> bool:
    """The text names the word on its own: not as part of a longer word (伤害 in 致死伤害)."""
    for m in re.finditer(re.escape(word), text):
        before = text[m.start() - 1] if m.start() else ""
        after = text[m.end()] if m.end() < len(text) else ""
        if not _word_char(before) and not _word_char(after):
            return True
    return False


def _word_char(c: str) -> bool:
    return bool(c) and (c.isalnum() or "\u4e00" <= c <= "\u9fff")


def _nested_words(found: list[Finding]) -> list[Finding]:
    out: list[Finding] = []
    for f in found:
        host = next((i for i, g in enumerate(out) if _nested(f, g)), None)
        if host is None:
            out.append(f)
            continue
        # the one the rules depend on, or cited more often, tells the story
        g, f = sorted((out[host], f), key=lambda x: ("依赖它的规则" not in x.message, -len(x.locations)))
        lines = sorted({loc.line for loc in f.locations if loc.file == g.locations[0].file} if g.locations else set())
        out[host] = replace(g, subjects=g.subjects + f.subjects,
                            message=g.message.removesuffix("。") + f"；同一处使用的「{f.subjects[0]}」"
                                    f"（第{'、'.join(map(str, lines[:5]))}行）同样未定义，是同一个问题。",
                            locations=tuple(dict.fromkeys(g.locations + f.locations)),
                            severity=min((g.severity, f.severity), key=SEVERITIES.index))
    return out


def _nested(a: Finding, b: Finding) -> bool:
    x, y = a.subjects[-1], b.subjects[0]
    if len(a.subjects) != 1 or x == y or not (x in y or y in x):
        return False
    return bool({(loc.file, loc.line) for loc in a.locations} & {(loc.file, loc.line) for loc in b.locations})


def near_names(term: str, declared) -> list[str]:
    """Declared names of the same length (two characters or more) that differ from the term
    in one character: the likely typo a judge would ask the author about."""
    if len(term) < 2:
        return []
    return sorted(n for n in declared if isinstance(n, str) and len(n) == len(term) and n != term
                  and sum(a != b for a, b in zip(n, term)) == 1)


def _lines(src) -> list[int]:
    return [src] if isinstance(src, int) else list(src or [])


def undefined_reads(rs, skill, guard=None) -> list[str]:
    """The undefined terms a skill's trigger, condition or targets read (guard: an effect's
    `if` instead)."""
    where = [guard] if guard is not None else [skill.trigger, skill.condition, skill.targets]
    return [t["name"] for t in rs.terms if t.get("kind") == "undefined" and _mentions(where, t["name"])]


def _norm(value) -> str:
    if isinstance(value, list):
        return "、".join(sorted(str(v) for v in value))
    return str(value)


def passages(cx: Context, r: dict) -> tuple[str, list]:
    """Two passages that disagree, as a judge reads them ("原文对「X」的使用对象有2种不同说法（第40行：…
    / 第70行：…）") and their locations."""
    values = [_norm(x["value"]) for x in r["readings"]]
    where = [cx.src_where(x["src"]) for x in r["readings"]]
    field_zh = FIELD_ZH.get(r.get("field", ""), r.get("field") or "内容")
    said = " / ".join(f"第{'、'.join(map(str, w.src))}行：{v}" for v, w in zip(values, where))
    return f"原文对「{r['element']}」的{field_zh}有{len(set(values))}种不同说法（{said}）", where


class InconsistentText(Analysis):
    """Two passages of the source say different things about one element (the encoding
    records both readings). Example: a table says 夜晚3 while the FAQ says 夜晚2.
    Fix: make the passages agree. Limits: only the readings the encoding records."""
    kind = "inconsistent-text"
    summary = "原文两处对同一元素的说法不一致"
    severity = "warning"
    decides_by = "text"

    def run(self, cx: Context) -> Iterator[Finding]:
        for i, r in enumerate(cx.rs.readings):
            values = [_norm(x["value"]) for x in r["readings"]]
            if len(set(values)) < 2 or r.get("switch"):
                continue   # a switch encodes the passages: the ambiguity check reports them with outcomes
            where = [cx.src_where(x["src"]) for x in r["readings"]]
            field_zh = FIELD_ZH.get(r.get("field", ""), r.get("field") or "内容")
            outcomes = [f"读法{j + 1}（第{'、'.join(map(str, w.src))}行）：{v}" + (f"——{x['text']}" if x.get("text") else "")
                        for j, (v, w, x) in enumerate(zip(values, where, r["readings"]))]
            yield Finding(
                kind=self.kind, severity=self.severity, verdict="witnessed", subjects=(r["element"],),
                message=f"原文对「{r['element']}」的{field_zh}有{len(set(values))}种不同说法：{' / '.join(dict.fromkeys(values))}。",
                message_en=f"The source gives {len(set(values))} different readings of '{r['element']}' ({field_zh}).",
                locations=cx.locs(*where, cx.src_where(None, cx.yaml_line(("readings", i)))),
                scenario={"roles": [], "steps": [f"查阅「{r['element']}」的{field_zh}"], "outcomes": outcomes},
                key=(r["element"], field_zh),
                question=f"「{r['element']}」的{field_zh}以哪一处为准？",
                rulings=tuple({"ruling": f"以第{'、'.join(map(str, w.src))}行为准：{v}", "outcome": v}
                              for v, w in zip(values, where)),
            )


class Assumption(Analysis):
    """An interpretation we had to choose: an external term from rules we do not have, an
    external role, or an ambiguity resolved by the encoding. Every other finding that
    relies on it is only as good as the assumption. Fix: state the rule in the text."""
    kind = "assumption"
    summary = "编码所依赖的假设（外部术语、外部身份、歧义的取舍）"
    severity = "info"
    decides_by = "text"

    def run(self, cx: Context) -> Iterator[Finding]:
        # every external element, of every kind, with its assumption and why it may stay undefined
        for el in external_elements(cx.rs):
            why = BASIS_ZH.get(el["basis"] or "", "原文未说明其来源")
            head = "外部身份" if el["kind"] == "身份" else el["kind"] if el["kind"] != "术语" else ""
            key = ("external-role", el["name"]) if el["kind"] == "身份" else \
                ("external", el["name"]) if el["kind"] == "术语" else ("external", el["kind"], el["name"])
            yield Finding(
                kind=self.kind, severity="info", verdict="proved", subjects=(el["name"],),
                message=f"{head}「{el['name']}」未在本规则中定义（{why}），按假设处理：{el['assumption']}",
                message_en=f"'{el['name']}' is not defined in this ruleset; assumed: {el['assumption']}",
                locations=cx.locs(cx.src_where(el["src"], cx.yaml_line(el["path"]))),
                key=key, assumptions=(el["assumption"],) if el["assumption"] else (),
            )
        for i, a in enumerate(cx.rs.assumptions):
            about = a.get("about") or "规则"
            yield Finding(
                kind=self.kind, severity="info", verdict="proved", subjects=(about,),
                message=f"关于「{about}」，编码采用的解释：{a['text']}",
                message_en=f"On '{about}', the encoding assumes: {a['text']}",
                locations=cx.locs(cx.src_where(a.get("src"), cx.yaml_line(("assumptions", i)))),
                key=("assumption", about, a["text"]), assumptions=(a["text"],),
            )
