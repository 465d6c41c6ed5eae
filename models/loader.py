"""Read `rulesets/<id>/ruleset.yaml` into a Ruleset, validating everything first.

Errors are collected (file, line, what was expected) and raised together as
InvalidRuleset; the CLI prints them and exits 2. Nothing in the file is executed.
"""
from __future__ import annotations

import os
from typing import Any

import jsonschema

from .domain import (Counter, Effect, Faction, Item, Label, Phase, Role, Ruleset, Skill, Status, Tag,
                     Where, Window)
from .resolve import nearest, resolve_names
from .schema import EFFECT_KINDS, SCHEMA
from .yaml_lines import LoadError, line_of, load_with_lines


class InvalidRuleset(Exception):
    def __init__(self, errors: list[LoadError]):
        self.errors = sorted(set(errors), key=lambda e: (e.file, e.line, e.message))
        super().__init__("\n".join(str(e) for e in self.errors))


_VALIDATOR = jsonschema.Draft7Validator(SCHEMA)


_TYPE_ZH = {"string": "字符串", "object": "映射", "array": "列表", "integer": "整数", "number": "数字",
            "boolean": "true/false", "null": "null"}


def _specific(error: jsonschema.ValidationError) -> jsonschema.ValidationError:
    """For a value no branch of anyOf/oneOf accepts, the error of the branch of its own type
    (a mapping with a misspelt key is reported as that key, not as `not valid under any`)."""
    while error.validator in ("anyOf", "oneOf") and error.context:
        fitting = [e for e in error.context if e.validator not in ("type", "const")]
        if not fitting:
            break
        error = jsonschema.exceptions.best_match(fitting)
    return error


def _types(error: jsonschema.ValidationError) -> list[str]:
    """The types a value may have, from a type error or the branches of anyOf/oneOf."""
    if error.validator == "type":
        return error.validator_value if isinstance(error.validator_value, list) else [error.validator_value]
    if error.validator == "const":
        return [repr(error.validator_value)]
    found: list[str] = []
    for e in error.context or []:
        found += _types(e)
    return list(dict.fromkeys(found))


def _describe(error: jsonschema.ValidationError) -> str:
    where = "/".join(str(p) for p in error.absolute_path) or "(根)"
    if error.validator == "required":
        return f"{where}: 缺少必填字段 {error.message.split(' ')[0]}"
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        allowed = sorted(error.schema.get("properties") or {})
        extra = sorted(k for k in error.instance if k not in allowed)
        near = nearest(extra[0], allowed) if extra else None
        listed = f"允许的字段：{'、'.join(allowed)}" if len(allowed) <= 12 else f"允许的字段共 {len(allowed)} 个"
        return (f"{where}: 不认识的字段 '{extra[0] if extra else '?'}'（{listed}"
                + (f"；最接近的是 '{near}'" if near else "") + "）；请查看 models/LANGUAGE.md")
    if error.validator == "enum":
        allowed = [str(v) for v in error.validator_value]
        near = nearest(str(error.instance), allowed)
        return (f"{where}: 取值 {error.instance!r} 不在允许范围（应为 {' | '.join(allowed)}）"
                + (f"；最接近的是 '{near}'" if near else ""))
    if error.validator == "const":
        return f"{where}: 取值应为 {error.validator_value!r}，实际是 {error.instance!r}"
    if error.validator in ("anyOf", "oneOf", "type"):
        wanted = "、".join(_TYPE_ZH.get(t, t) for t in _types(error)) or "见 models/LANGUAGE.md"
        return f"{where}: 类型应为 {wanted}，实际是 {error.instance!r}"
    if error.validator in ("minimum", "maximum"):
        bound = "最小值" if error.validator == "minimum" else "最大值"
        return f"{where}: 取值 {error.instance!r} 超出范围（{bound}为 {error.validator_value}）"
    if error.validator in ("minItems", "maxItems"):
        return f"{where}: 列表长度不对（{error.validator}: {error.validator_value}），实际是 {error.instance!r}"
    return f"{where}: {error.message}"


def _error_path(error: jsonschema.ValidationError) -> tuple:
    """Point at the offending key itself, not its parent mapping."""
    path = tuple(error.absolute_path)
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        allowed = set((error.schema.get("properties") or {}))
        extra = sorted(k for k in error.instance if k not in allowed)
        if extra:
            return path + (extra[0],)
    return path


def _where(data: dict, lines: dict, path: tuple) -> Where:
    src = data.get("src") if isinstance(data, dict) else None
    if src is None:
        src_t: tuple[int, ...] = ()
    elif isinstance(src, int):
        src_t = (src,)
    else:
        src_t = tuple(src)
    return Where(src_t, line_of(lines, path))


def _effects(raw: list, lines: dict, path: tuple, skill: Skill | None) -> list[Effect]:
    out = []
    for i, e in enumerate(raw or []):
        kinds = [k for k in e if k in EFFECT_KINDS]
        kind = kinds[0] if kinds else "opaque"
        p = path + (i,)
        eff = Effect(kind=kind, args=e.get(kind), guard=e.get("if"), force=bool(e.get("force")),
                     instead=_effects(e.get("instead") or [], lines, p + ("instead",), skill),
                     where=_where(e, lines, p), skill=skill)
        if kind == "choose":
            raw = e["choose"] if isinstance(e["choose"], list) else (e["choose"] or {}).get("options", [])
            eff.options = [_effects(opt if isinstance(opt, list) else [opt], lines, p + ("choose", j), skill)
                           for j, opt in enumerate(raw)]
        out.append(eff)
    return out


def _skill(raw: dict, lines: dict, path: tuple, role: str | None) -> Skill:
    s = Skill(name=raw["name"], owner_role=role, owner=raw.get("owner"), timing=tuple(raw.get("timing") or ()),
              tags=tuple(raw.get("tags") or ()), uses=raw.get("uses"), charges=raw.get("charges"),
              cooldown=raw.get("cooldown"), targets=raw.get("targets"), trigger=raw.get("trigger"),
              static=bool(raw.get("static")), condition=raw.get("condition"), effects=[],
              where=_where(raw, lines, path), yaml_path=path)
    s.effects = _effects(raw.get("effects") or [], lines, path + ("effects",), s)
    for index, e in enumerate(s.all_effects()):
        e.index = index
    return s


def load_ruleset(folder: str) -> Ruleset:
    yaml_path = os.path.join(folder, "ruleset.yaml")
    shown = os.path.relpath(yaml_path) if not os.path.isabs(folder) else yaml_path
    if not os.path.isfile(yaml_path):
        raise InvalidRuleset([LoadError(shown, 0, "找不到 ruleset.yaml：需要一个规则目录 rulesets/<id>/")])
    try:
        with open(yaml_path, encoding="utf-8") as fh:
            text = fh.read()
    except UnicodeDecodeError as exc:
        raise InvalidRuleset([LoadError(shown, 1, f"文件不是 UTF-8 编码（{exc.reason}）")]) from None
    try:
        data, lines = load_with_lines(text, shown) if text.strip() else (None, {})
    except LoadError as exc:
        raise InvalidRuleset([exc]) from None
    if not isinstance(data, dict):
        raise InvalidRuleset([LoadError(shown, 1, "顶层应为映射（schema, id, title, …）")])
    found = [_specific(err) for err in _VALIDATOR.iter_errors(data)]
    errors = [LoadError(shown, line_of(lines, _error_path(err)), _describe(err)) for err in found]
    if errors:
        raise InvalidRuleset(errors[:50])

    source_name = data["source"]
    source_path = os.path.join(folder, source_name)
    if not os.path.isfile(source_path):
        raise InvalidRuleset([LoadError(shown, line_of(lines, ("source",)), f"找不到原帖文件 {source_name}")])
    with open(source_path, encoding="utf-8") as fh:
        source_lines = fh.read().splitlines()

    def w(node: Any, path: tuple) -> Where:
        return _where(node, lines, path)

    phases = [Phase(p["name"], i, bool(p.get("once")), w(p, ("phases", i))) for i, p in enumerate(data["phases"])]
    roles: dict[str, Role] = {}
    skills: list[Skill] = []
    for i, r in enumerate(data["roles"]):
        path = ("roles", i)
        role_skills = [_skill(s, lines, path + ("skills", j), r["name"]) for j, s in enumerate(r.get("skills") or [])]
        skills.extend(role_skills)
        roles[r["name"]] = Role(r["name"], r["faction"], r.get("strength"), r.get("count"), tuple(r.get("labels") or ()),
                                tuple(r.get("statuses") or ()), role_skills, bool(r.get("external")),
                                bool(r.get("created")), r.get("flip_to"), r.get("assumption"), w(r, path))
    for j, s in enumerate(data.get("skills") or []):
        skills.append(_skill(s, lines, ("skills", j), None))

    aliases: dict[str, str] = {}
    for group in ("factions", "statuses", "tags", "labels"):
        for el in data.get(group) or []:
            for a in el.get("aliases") or []:
                aliases[a] = el["name"]
    for r in data["roles"]:
        for a in r.get("aliases") or []:
            aliases[a] = r["name"]

    wp = data.get("win_priority")
    rs = Ruleset(
        id=data["id"], title=data["title"], author=data.get("author", ""), root=folder, yaml_file=shown,
        source_file=os.path.join(os.path.dirname(shown), source_name), source_lines=source_lines, raw=data,
        bounds={"players": 4, "depth": 3, "rlimit": 2_000_000} | (data.get("bounds") or {}),
        phases=phases,
        windows=[Window(x["name"], tuple(x.get("phases") or ()), w(x, ("windows", i)))
                 for i, x in enumerate(data.get("windows") or [])],
        factions={f["name"]: Faction(f["name"], f.get("win"), f.get("lose"), bool(f.get("shares_win")),
                                     w(f, ("factions", i)), bool(f.get("external")))
                  for i, f in enumerate(data["factions"])},
        win_priority=tuple(wp["order"]) if wp else None, win_priority_where=w(wp, ("win_priority",)) if wp else None,
        statuses={s["name"]: Status(s["name"], frozenset(s.get("blocks") or ()), frozenset(s.get("except") or ()),
                                    bool(s.get("permanent")), bool(s.get("negative")), bool(s.get("external")),
                                    w(s, ("statuses", i)), frozenset(s.get("blocks_tags") or ()),
                                    frozenset(s.get("except_tags") or ()), bool(s.get("keeps_vote")))
                  for i, s in enumerate(data.get("statuses") or [])},
        tags={t["name"]: Tag(t["name"], t.get("meaning", "other"), bool(t.get("external")), w(t, ("tags", i)))
              for i, t in enumerate(data.get("tags") or [])},
        labels={x["name"]: Label(x["name"], tuple(x.get("implies_labels") or ()), tuple(x.get("implies_statuses") or ()),
                                 x.get("removable", True), w(x, ("labels", i))) for i, x in enumerate(data.get("labels") or [])},
        counters={c["name"]: Counter(c["name"], c.get("scope", "global"), c.get("initial", 0), c.get("min"), c.get("max"),
                                     w(c, ("counters", i))) for i, c in enumerate(data.get("counters") or [])},
        items={x["name"]: Item(x["name"], x.get("count", 1), w(x, ("items", i))) for i, x in enumerate(data.get("items") or [])},
        roles=roles, skills=skills, precedence=list(data.get("precedence") or []), voting=data.get("voting"),
        setup=data.get("setup") or {}, faq=list(data.get("faq") or []), externals=list(data.get("externals") or []),
        terms=list(data.get("terms") or []), readings=list(data.get("readings") or []),
        assumptions=list(data.get("assumptions") or []), rulings=list(data.get("rulings") or []),
        suppressions=list(data.get("suppressions") or []), aliases=aliases,
    )
    rs.lines = lines  # type: ignore[attr-defined]  # yaml path -> line, for later messages
    problems = resolve_names(rs, lines, shown)
    if problems:
        raise InvalidRuleset(problems)
    return rs
