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
from .load_text import MESSAGES, Bi, listed, msg, near_text
from .resolve import nearest, resolve_names
from .schema import EFFECT_KINDS, SCHEMA
from .yaml_lines import LoadError, line_of, load_with_lines


class InvalidRuleset(Exception):
    def __init__(self, errors: list[LoadError]):
        self.errors = sorted(set(errors), key=lambda e: (e.file, e.line, e.message))
        super().__init__("\n".join(str(e) for e in self.errors))


_VALIDATOR = jsonschema.Draft7Validator(SCHEMA)


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


def _type_name(t: str) -> Bi:
    return msg("type_" + t) if "type_" + t in MESSAGES["en"] else Bi(t, t)


def _describe(error: jsonschema.ValidationError) -> Bi:
    path = "/".join(str(p) for p in error.absolute_path)
    where = Bi(path, path) if path else msg("root")
    if error.validator == "required":
        return msg("required", where=where, field=error.message.split(" ")[0])
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        allowed = sorted(error.schema.get("properties") or {})
        extra = sorted(k for k in error.instance if k not in allowed)
        near = nearest(extra[0], allowed) if extra else None
        fields = msg("fields_listed", names=listed(allowed)) if len(allowed) <= 12 else \
            msg("fields_counted", n=len(allowed))
        return msg("unknown_field", where=where, field=extra[0] if extra else "?", listed=fields, near=near_text(near))
    if error.validator == "enum":
        allowed = [str(v) for v in error.validator_value]
        near = nearest(str(error.instance), allowed)
        return msg("enum", where=where, value=repr(error.instance), allowed=" | ".join(allowed), near=near_text(near))
    if error.validator == "const":
        return msg("const", where=where, want=repr(error.validator_value), value=repr(error.instance))
    if error.validator in ("anyOf", "oneOf", "type"):
        names = [_type_name(t) for t in _types(error)]
        wanted = listed(names, "type_or") if names else msg("type_see_docs")
        return msg("type", where=where, wanted=wanted, value=repr(error.instance))
    if error.validator in ("minimum", "maximum"):
        return msg("range", where=where, value=repr(error.instance), bound=msg(error.validator),
                   limit=error.validator_value)
    if error.validator in ("minItems", "maxItems"):
        return msg("length", where=where, rule=error.validator, limit=error.validator_value, value=repr(error.instance))
    return msg("other", where=where, message=error.message)   # jsonschema's own (English) words


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


def _mandatory(raw) -> tuple[int, ...]:
    """`mandatory: {src: L}`: the lines of the text's words that the holder cannot decline."""
    if not raw:
        return ()
    src = raw.get("src")
    return (src,) if isinstance(src, int) else tuple(src)


def _skill(raw: dict, lines: dict, path: tuple, role: str | None) -> Skill:
    s = Skill(name=raw["name"], owner_role=role, owner=raw.get("owner"), timing=tuple(raw.get("timing") or ()),
              tags=tuple(raw.get("tags") or ()), uses=raw.get("uses"), charges=raw.get("charges"),
              cooldown=raw.get("cooldown"), targets=raw.get("targets"), trigger=raw.get("trigger"),
              static=bool(raw.get("static")), condition=raw.get("condition"), effects=[],
              where=_where(raw, lines, path), yaml_path=path, no_repeat_target=bool(raw.get("no_repeat_target")),
              part_of=raw.get("part_of"), told=raw.get("told"), mandatory=_mandatory(raw.get("mandatory")),
              mandatory_if=(raw.get("mandatory") or {}).get("if"))
    s.effects = _effects(raw.get("effects") or [], lines, path + ("effects",), s)
    for index, e in enumerate(s.all_effects()):
        e.index = index
    return s


def load_ruleset(folder: str) -> Ruleset:
    yaml_path = os.path.join(folder, "ruleset.yaml")
    shown = os.path.relpath(yaml_path) if not os.path.isabs(folder) else yaml_path
    if not os.path.isfile(yaml_path):
        raise InvalidRuleset([LoadError.of(shown, 0, msg("no_yaml"))])
    try:
        with open(yaml_path, encoding="utf-8") as fh:
            text = fh.read()
    except UnicodeDecodeError as exc:
        raise InvalidRuleset([LoadError.of(shown, 1, msg("not_utf8", reason=exc.reason))]) from None
    try:
        data, lines = load_with_lines(text, shown) if text.strip() else (None, {})
    except LoadError as exc:
        raise InvalidRuleset([exc]) from None
    if not isinstance(data, dict):
        raise InvalidRuleset([LoadError.of(shown, 1, msg("top_not_mapping"))])
    found = [_specific(err) for err in _VALIDATOR.iter_errors(data)]
    errors = [LoadError.of(shown, line_of(lines, _error_path(err)), _describe(err)) for err in found]
    if errors:
        raise InvalidRuleset(errors[:50])

    source_name = data["source"]
    source_path = os.path.join(folder, source_name)
    if not os.path.isfile(source_path):
        raise InvalidRuleset([LoadError.of(shown, line_of(lines, ("source",)), msg("no_source", name=source_name))])
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
        bounds={"players": 4, "depth": 3, "quiet": 10, "rlimit": 2_000_000} | (data.get("bounds") or {}),
        phases=phases,
        windows=[Window(x["name"], tuple(x.get("phases") or ()), w(x, ("windows", i)))
                 for i, x in enumerate(data.get("windows") or [])],
        factions={f["name"]: Faction(f["name"], f.get("win"), f.get("lose"), bool(f.get("shares_win")),
                                     w(f, ("factions", i)), bool(f.get("external")))
                  for i, f in enumerate(data["factions"])},
        win_priority=tuple(wp["order"]) if wp else None, win_priority_where=w(wp, ("win_priority",)) if wp else None,
        win_check=data.get("win_check"), begins_with=data.get("begins_with"), lose_over_win=data.get("lose_over_win"), ambiguities=list(data.get("ambiguities") or []),
        statuses={s["name"]: Status(s["name"], frozenset(s.get("blocks") or ()), frozenset(s.get("except") or ()),
                                    bool(s.get("permanent")), bool(s.get("negative")), bool(s.get("external")),
                                    w(s, ("statuses", i)), frozenset(s.get("blocks_tags") or ()),
                                    frozenset(s.get("except_tags") or ()), bool(s.get("keeps_vote")),
                                    frozenset(s.get("except_skills") or ()), bool(s.get("life_state")))
                  for i, s in enumerate(data.get("statuses") or [])},
        tags={t["name"]: Tag(t["name"], t.get("meaning", "other"), bool(t.get("external")), w(t, ("tags", i)))
              for i, t in enumerate(data.get("tags") or [])},
        labels={x["name"]: Label(x["name"], tuple(x.get("implies_labels") or ()), tuple(x.get("implies_statuses") or ()),
                                 x.get("removable", True), w(x, ("labels", i))) for i, x in enumerate(data.get("labels") or [])},
        counters={c["name"]: Counter(c["name"], c.get("scope", "global"), c.get("initial", 0), c.get("min"), c.get("max"),
                                     w(c, ("counters", i)), c.get("text")) for i, c in enumerate(data.get("counters") or [])},
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
    rs.name_skills()
    return rs
