"""The JSON Schema of `ruleset.yaml` (ruleset/v1), draft-07 so editors' YAML servers read it.

One source of truth: the loader validates against it, and `python -m verifier schema`
prints it for editors (schema/ruleset.schema.json). Every property carries the description
from schema_docs.py, which tests keep in step with LANGUAGE.md. Deeper rules (names that must
resolve, source lines) live in resolve.py.
"""
from __future__ import annotations

from typing import Any

from .schema_docs import DOCS

EFFECT_KINDS = (
    "set_faction", "grant_status", "remove_status", "damage", "out", "prevent_out", "revive",
    "set_role", "gain_skill", "lose_skill", "refresh_skill", "add_label", "remove_label",
    "counter", "vote_weight", "give_item", "redirect", "swap", "info", "win", "lose", "create", "opaque", "choose",
    "extra_use", "cooldown", "must_target", "disguise", "received_votes", "use_skill",
)
CONDITION_KINDS = (
    "all", "any", "not", "has_status", "faction", "alive", "role", "label", "holds", "phase", "is",
    "count", "every", "none", "counter", "opaque", "true", "false", "cause",
    "chance", "day", "used", "targeted_by", "distinct", "value_of", "reading", "lost",
)
TRIGGER_EVENTS = (
    "phase_start", "phase_end", "setup", "targeted", "about_to_go_out", "went_out", "killed",
    "status_gained", "faction_changed", "counter_reached", "faction_eliminated", "skill_used",
)
BLOCKABLE = ("faction_change", "out", "skills", "status_gain", "vote", "target", "damage", "speech")
TAG_MEANINGS = (
    "targeted", "forced", "limited", "normal", "team", "toggle", "cooldown", "awakening", "relic",
    "reveal", "locked", "passive", "setup", "other",
)
# causes every ruleset has without declaring them: going out by the day's vote (LANGUAGE.md)
VOTE_OUT_CAUSES = ("投票", "投票出局")
# what an opaque effect or condition may read or write; `status:<S>` etc. name the thing
OPAQUE_WORDS = ("faction", "alive", "role", "status", "label", "counter", "item", "skills", "votes", "win")
FILTER_KEYS = (
    "random", "alive", "other", "faction", "not_faction", "role", "not_role", "has_status", "lacks_status",
    "label", "not_label", "initial_faction", "holds", "dead",
    "dying", "neighbour_of", "voted_for", "voted_by", "top_voted", "targeted", "strength", "counter", "any_of", "used_tag_on",
    "any", "if",
)
COMPARISONS = ("==", "!=", "<", "<=", ">", ">=")
USE_PERIODS = ("game", "day", "phase")
# the limits a skill used through another's effect may break (突破[发动时间][次数]…的限制)
USE_SKILL_IGNORES = ("timing", "condition", "status", "limited", "uses", "lost", "targets")
COUNTER_OPS = ("add", "sub", "set", "halve")
TERM_KINDS = ("feedback", "title", "card", "heading", "other", "status_word", "undefined")


def ref(name: str) -> dict[str, Any]:
    return {"$ref": f"#/definitions/{name}"}


SRC = {"oneOf": [{"type": "integer", "minimum": 1},
                 {"type": "array", "items": {"type": "integer", "minimum": 1}, "minItems": 1}]}
NAME = {"type": "string", "minLength": 1}
NAMES = {"type": "array", "items": NAME}
NAME_OR_NAMES = {"oneOf": [NAME, NAMES]}
TEXT = {"type": "string"}
FLAG = {"type": "boolean"}
INT = {"type": "integer"}
COND, FILTER, NUM, WHO, EFFECT = ref("cond"), ref("filter"), ref("num"), ref("who"), ref("effect")
CONDS = {"type": "array", "items": COND}
EFFECTS = {"type": "array", "items": EFFECT}
COMPARE = {"enum": list(COMPARISONS)}
WHO_AND_NAME = {"type": "array", "items": [WHO, NAME], "minItems": 2, "maxItems": 2}


def obj(ctx: str, props: dict[str, Any], required: tuple[str, ...] = ()) -> dict[str, Any]:
    """A closed mapping whose every property is described by DOCS[ctx] (KeyError: undocumented)."""
    out: dict[str, Any] = {"type": "object", "properties": {k: described(ctx, k, v) for k, v in props.items()},
                           "additionalProperties": False}
    if required:
        out["required"] = list(required)
    return out


def described(ctx: str, key: str, schema: dict[str, Any]) -> dict[str, Any]:
    text = DOCS[ctx][key] if key in DOCS.get(ctx, {}) else DOCS["element"][key]
    # draft-07 ignores keywords beside $ref, so a described reference is wrapped
    return ({"allOf": [schema]} if "$ref" in schema else dict(schema)) | {"description": text}


def list_of(ctx: str, props: dict[str, Any], required: tuple[str, ...] = ("name", "src")) -> dict[str, Any]:
    return {"type": "array", "items": obj(ctx, props, required)}


BASIS = {"enum": ["base_rules", "vocabulary"]}
ELEMENT = {"name": NAME, "src": SRC, "note": TEXT, "external": FLAG, "assumption": TEXT, "text": TEXT,
           "basis": BASIS, "basis_src": SRC}
OPTIONAL_COND = {"oneOf": [COND, {"type": "null"}]}

EFFECT_ARGS: dict[str, tuple[dict[str, Any], tuple[str, ...]]] = {
    "set_faction": ({"who": WHO, "to": NAME}, ("to",)),
    "grant_status": ({"who": WHO, "status": NAME, "duration": TEXT}, ("status",)),
    "remove_status": ({"who": WHO, "status": NAME}, ("status",)),
    "damage": ({"who": WHO, "kind": NAME}, ()),
    "out": ({"who": WHO, "cause": NAME}, ()),
    "prevent_out": ({"who": WHO}, ()),
    "revive": ({"who": WHO}, ()),
    "set_role": ({"who": WHO, "to": NAME, "deck": FLAG}, ("to",)),
    "gain_skill": ({"who": WHO, "skill": NAME}, ("skill",)),
    "lose_skill": ({"who": WHO, "skill": NAME}, ("skill",)),
    "refresh_skill": ({"who": WHO, "skill": NAME}, ("skill",)),
    "add_label": ({"who": WHO, "label": NAME}, ("label",)),
    "remove_label": ({"who": WHO, "label": NAME}, ("label",)),
    "counter": ({"name": NAME, "op": {"enum": list(COUNTER_OPS)}, "value": NUM, "who": WHO}, ("name",)),
    "vote_weight": ({"who": WHO, "op": {"enum": list(COUNTER_OPS)}, "value": NUM}, ()),
    "received_votes": ({"who": WHO, "op": {"enum": list(COUNTER_OPS)}, "value": NUM}, ()),
    "give_item": ({"item": NAME, "to": WHO}, ("item",)),
    "redirect": ({"from": WHO, "to": WHO}, ("from", "to")),
    "swap": ({"a": WHO, "b": WHO}, ()),
    "info": ({"to": WHO, "what": TEXT}, ()),
    "create": ({"role": NAME, "faction": NAME,
                "seat": {"oneOf": [{"const": "chosen"}, obj("seat", {"next_to": WHO}, ("next_to",))]}}, ("role",)),
    "opaque": ({"text": TEXT, "who": WHO, "reads": NAMES, "writes": NAMES}, ("text",)),
    "extra_use": ({"who": WHO, "skill": NAME, "count": INT, "per": {"enum": list(USE_PERIODS)}}, ("skill",)),
    "cooldown": ({"who": WHO, "skill": NAME, "add": INT}, ("skill",)),
    "must_target": ({"who": WHO, "target": WHO}, ("target",)),
    "disguise": ({"who": WHO, "faction": NAME, "role": NAME}, ()),
    "use_skill": ({"who": WHO, "skill": NAME, "except_tags": NAMES,
                   "ignores": {"type": "array", "items": {"enum": list(USE_SKILL_IGNORES)}}, "caster": WHO}, ("skill",)),
}


def _effect_value(kind: str) -> dict[str, Any]:
    if kind in ("win", "lose"):
        return NAME
    if kind == "choose":
        option = {"oneOf": [EFFECTS, EFFECT]}
        return {"oneOf": [{"type": "array", "items": option},
                          obj("choose", {"options": {"type": "array", "items": option}}, ("options",))]}
    props, required = EFFECT_ARGS[kind]
    return obj(f"effect.{kind}", props, required)


DEFINITIONS: dict[str, Any] = {
    "who": {"description": DOCS["definitions"]["who"], "anyOf": [NAME, FILTER]},
    "filter": obj("filter", {
        "random": FILTER, "any_of": FILTER, "alive": FLAG, "other": FLAG, "dead": FLAG,
        "faction": NAME_OR_NAMES, "not_faction": NAME_OR_NAMES, "initial_faction": NAME_OR_NAMES,
        "role": NAME_OR_NAMES, "not_role": NAME_OR_NAMES, "has_status": NAME_OR_NAMES, "lacks_status": NAME_OR_NAMES,
        "label": NAME_OR_NAMES, "not_label": NAME_OR_NAMES, "holds": NAME_OR_NAMES,
        "dying": FLAG, "top_voted": FLAG, "targeted": FLAG,
        "neighbour_of": {"anyOf": [NAME, obj("neighbour_of", {"of": WHO, "living": FLAG}, ("of",))]},
        "voted_for": WHO,
        "voted_by": FILTER,
        "strength": obj("compare", {"op": COMPARE, "value": NUM}),
        "counter": {"type": "array", "items": [NAME, COMPARE, NUM], "minItems": 3, "maxItems": 3},
        "used_tag_on": obj("used_tag_on", {"on": WHO, "tag": NAME}, ("on", "tag")),
        "any": {"type": "array", "items": FILTER}, "if": COND,
    }),
    "num": {"description": DOCS["definitions"]["num"], "anyOf": [{"type": "number"}, obj("num", {
        "count": FILTER, "counter": NAME, "who": WHO, "players": {"const": True},
        "add": {"type": "array", "items": NUM}, "sub": {"type": "array", "items": NUM},
        "mul": {"type": "array", "items": NUM}, "div": {"type": "array", "items": NUM},
        "min": {"type": "array", "items": NUM}, "max": {"type": "array", "items": NUM},
        "round": {"enum": ["floor", "ceil", "nearest"]},
        "votes_for": WHO, "strength": WHO, "vote_weights": FILTER,
    })]},
    "cond": {"minProperties": 1} | obj("cond", {
        "all": CONDS, "any": CONDS, "not": COND,
        "has_status": WHO_AND_NAME, "faction": WHO_AND_NAME, "role": WHO_AND_NAME, "label": WHO_AND_NAME,
        "holds": WHO_AND_NAME, "used": WHO_AND_NAME, "targeted_by": WHO_AND_NAME,
        "alive": WHO, "phase": NAME, "is": {"type": "array", "items": WHO, "minItems": 2, "maxItems": 2},
        "count": FILTER, "every": FILTER, "none": FILTER, "satisfies": FILTER, "distinct": FILTER,
        "by": {"enum": ["faction", "initial_faction", "role"]},
        "counter": NAME, "value_of": NUM, "op": COMPARE, "value": NUM, "who": WHO,
        "opaque": TEXT, "reads": NAMES, "chance": TEXT, "cause": NAME,
        "reading": {"type": "array", "items": NAME, "minItems": 2, "maxItems": 2},
        "lost": NAME,
        "day": {"anyOf": [INT, obj("compare", {"op": COMPARE, "value": NUM})]},
        "true": {}, "false": {}, "src": SRC,
    }),
    "effect": {**obj("effect", {k: _effect_value(k) for k in EFFECT_KINDS}
                     | {"if": COND, "src": SRC, "force": FLAG, "note": TEXT, "instead": EFFECTS}),
               "minProperties": 1},
}

DEFINITIONS["skill"] = obj("skill", {
    "name": NAME, "src": SRC, "timing": NAMES, "tags": NAMES,
    "uses": obj("uses", {"count": {"type": "integer", "minimum": 0}, "per": {"enum": list(USE_PERIODS)},
                         "shared": FLAG}, ("count",)),
    "charges": obj("charges", {"initial": INT, "max": INT}),
    "cooldown": {"type": "integer", "minimum": 0},
    "targets": obj("targets", {"min": {"type": "integer", "minimum": 0},
                               "max": {"type": ["integer", "null"], "minimum": 0}, "filter": FILTER, "src": SRC}),
    "trigger": obj("trigger", {"event": {"enum": list(TRIGGER_EVENTS)}, "tag": NAME, "on": WHO, "by": WHO,
                               "phase": NAME, "cause": NAME, "status": NAME, "counter": NAME, "value": NUM,
                               "faction": NAME, "skill": NAME, "holder_out": FLAG, "src": SRC}, ("event",)),
    "static": FLAG, "no_repeat_target": FLAG, "part_of": NAME, "told": TEXT,
    "mandatory": obj("mandatory", {"src": SRC, "text": TEXT, "if": COND}, ("src",)),
    "condition": COND,
    "owner": obj("owner", {"label": NAME, "faction": NAME, "status": NAME, "item": NAME, "role": NAME}),
    "effects": EFFECTS,
    "text": TEXT, "note": TEXT,
}, ("name", "src"))
SKILL = ref("skill")

ROLE = obj("role", ELEMENT | {
    "meaning": TEXT, "faction": NAME, "strength": {"type": ["number", "null"]}, "count": NUM, "labels": NAMES,
    "statuses": NAMES, "skills": {"type": "array", "items": SKILL}, "flip_to": {"type": ["string", "null"]},
    "created": FLAG, "aliases": NAMES,
}, ("name", "src", "faction"))

SETUP = obj("setup", {
    "players": obj("players", {"min": INT, "max": {"type": ["integer", "null"]}, "src": SRC, "assumed": FLAG}),
    "stated_total": obj("stated_total", {"value": INT, "src": SRC, "of": TEXT}, ("value", "src")),
    "totals": {"type": "array", "items": obj("total", {"name": NAME, "value": NUM, "src": SRC, "groups": NAMES},
                                             ("value", "src", "groups"))},
    "groups": {"type": "array", "items": obj("group", {"name": NAME, "count": NUM, "src": SRC, "roles": NAMES,
                                                       "note": TEXT}, ("name", "count", "src"))},
    "distributions": {"type": "array", "items": obj("distribution", {
        "name": NAME, "src": SRC,
        "cases": {"type": "array", "items": obj("case", {"value": {}, "percent": NUM, "max": {"type": "number"},
                                                         "min": {"type": "number"}, "src": SRC},
                                                ("value", "percent"))},
        "of": NUM}, ("name", "src", "cases"))},
    "deal": {"type": "array", "items": obj("deal", {"cond": COND, "src": SRC, "note": TEXT}, ("cond", "src"))},
    "src": SRC, "note": TEXT,
})

CLAIM = obj("claim", {
    "only_skills_in_phase": obj("only_skills_in_phase", {"phase": NAME, "skills": NAMES}, ("phase",)),
    "skill_timing": obj("skill_timing", {"skill": NAME, "phases": NAMES}, ("skill",)),
    "always": COND, "possible": COND, "never": COND, "opaque": TEXT,
})

SCHEMA: dict[str, Any] = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "$id": "urn:bansha-verifier:ruleset/v1",
    "title": "版杀规则编码 ruleset/v1",
    "description": DOCS["top"]["(root)"],
    "definitions": DEFINITIONS,
    **obj("top", {
        "schema": {"const": "ruleset/v1"},
        "id": {"type": "string", "pattern": "^[a-z0-9_]+$"},
        "title": NAME, "author": TEXT, "source": NAME,
        "bounds": obj("bounds", {"players": {"type": "integer", "minimum": 2, "maximum": 8},
                                 "depth": {"type": "integer", "minimum": 1, "maximum": 8},
                                 "quiet": {"type": "integer", "minimum": 0, "maximum": 30},
                                 "rlimit": {"type": "integer", "minimum": 1}}),
        "phases": list_of("phase", ELEMENT | {"meaning": TEXT, "once": FLAG, "day": INT}),
        "windows": list_of("window", ELEMENT | {"meaning": TEXT, "phases": NAMES}),
        "factions": list_of("faction", ELEMENT | {"meaning": TEXT, "win": OPTIONAL_COND, "lose": OPTIONAL_COND,
                                                  "shares_win": FLAG, "aliases": NAMES,
                                                  "win_src": SRC, "lose_src": SRC}),
        "win_priority": obj("win_priority", {"order": NAMES, "src": SRC, "note": TEXT}, ("order", "src")),
        "win_check": obj("win_check", {"when": {"enum": ["immediately", "after_triggers"]}, "src": SRC, "note": TEXT},
                         ("when", "src")),
        "lose_over_win": obj("lose_over_win", {"src": SRC, "note": TEXT}, ("src",)),
        "begins_with": obj("begins_with", {"phase": NAME, "src": SRC, "called": TEXT, "note": TEXT}, ("phase", "src")),
        "statuses": list_of("status", ELEMENT | {
            "meaning": TEXT, "blocks": {"type": "array", "items": {"enum": list(BLOCKABLE)}},
            "except": NAMES, "permanent": FLAG, "blocks_tags": NAMES, "except_tags": NAMES, "except_skills": NAMES, "keeps_vote": FLAG, "life_state": FLAG,
            "negative": FLAG, "notify": FLAG, "duration": {"type": ["string", "null"]}, "aliases": NAMES}),
        "tags": list_of("tag", ELEMENT | {"meaning": {"enum": list(TAG_MEANINGS)}, "aliases": NAMES}),
        "labels": list_of("label", ELEMENT | {"meaning": TEXT, "implies_labels": NAMES, "implies_statuses": NAMES,
                                              "removable": FLAG, "aliases": NAMES}),
        "counters": list_of("counter", ELEMENT | {"meaning": TEXT,
                                                  "scope": {"enum": ["global", "per_player", "faction"]},
                                                  "initial": INT, "min": INT, "max": INT, "faction": NAME,
                                                  "text": TEXT}),
        "items": list_of("item", ELEMENT | {"meaning": TEXT, "count": {"type": "integer", "minimum": 1}}),
        "roles": {"type": "array", "items": ROLE},
        "skills": {"type": "array", "items": SKILL},
        "precedence": {"type": "array", "items": obj("precedence", {
            "first": NAME, "then": NAME, "order": NAMES, "of": TEXT, "src": SRC, "note": TEXT}, ("src",))},
        "voting": obj("voting", {"src": SRC, "weight_default": {"type": "number"}, "external": FLAG,
                                 "assumption": TEXT, "tie": {"type": ["string", "null"]}, "tie_src": SRC,
                                 "tie_out": {"enum": ["none", "any"]}, "tie_break": FILTER,
                                 "phase": NAME, "first_out_day": {"type": "integer", "minimum": 1}, "first_out_src": SRC,
                                 "note": TEXT}),
        "setup": SETUP,
        "faq": {"type": "array", "items": obj("faq", {"question": NAME, "answer": TEXT, "src": SRC, "claim": CLAIM,
                                                      "id": TEXT}, ("question", "answer", "src"))},
        "externals": {"type": "array", "items": obj("external", {"term": NAME, "src": SRC, "assumption": NAME,
                                                                 "kind": TEXT, "basis": BASIS, "basis_src": SRC},
                                                    ("term", "assumption"))},
        "terms": {"type": "array", "items": obj("term", {"name": NAME, "kind": {"enum": list(TERM_KINDS)},
                                                         "src": SRC, "note": TEXT}, ("name", "kind"))},
        "readings": {"type": "array", "items": obj("reading", {
            "element": NAME, "field": TEXT, "src": SRC, "note": TEXT, "switch": NAME,
            "readings": {"type": "array", "minItems": 2, "items": obj("reading_value", {
                "value": {}, "src": SRC, "text": TEXT}, ("value", "src"))}}, ("element", "readings"))},
        "assumptions": {"type": "array", "items": obj("assumption", {"about": TEXT, "src": SRC, "text": NAME},
                                                      ("text",))},
        "ambiguities": {"type": "array", "items": obj("ambiguity", {
            "name": NAME, "src": SRC, "text": NAME, "note": TEXT, "unmodelled": TEXT,
            "options": {"type": "array", "minItems": 2, "items": obj("option", {"name": NAME, "text": TEXT, "src": SRC},
                                                                     ("name",))}}, ("name", "src", "text", "options"))},
        "rulings": {"type": "array", "items": obj("ruling", {"question": NAME, "ruling": NAME, "first": NAME,
                                                             "then": NAME, "ambiguity": NAME, "option": NAME,
                                                             "src": SRC, "note": TEXT},
                                                  ("question", "ruling"))},
        "suppressions": {"type": "array", "items": obj("suppression", {"finding": NAME, "reason": NAME},
                                                       ("finding", "reason"))},
    }, ("schema", "id", "title", "source", "phases", "factions", "roles")),
}
