"""The JSON Schema of `ruleset.yaml` (ruleset/v1).

One source of truth: the loader validates against it, and `python -m verifier schema`
prints it for editors. Deeper rules (names that must resolve) live in resolve.py.
"""
from __future__ import annotations

from typing import Any

EFFECT_KINDS = (
    "set_faction", "grant_status", "remove_status", "damage", "out", "prevent_out", "revive",
    "set_role", "gain_skill", "lose_skill", "refresh_skill", "add_label", "remove_label",
    "counter", "vote_weight", "give_item", "redirect", "info", "win", "lose", "create", "opaque", "choose",
    "extra_use", "cooldown", "must_target", "disguise", "received_votes",
)
CONDITION_KINDS = (
    "all", "any", "not", "has_status", "faction", "alive", "role", "label", "holds", "phase", "is",
    "count", "every", "none", "counter", "opaque", "true", "false", "cause",
    "chance", "day", "used", "targeted_by", "distinct", "value_of",
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
FILTER_KEYS = (
    "random", "alive", "other", "faction", "not_faction", "role", "not_role", "has_status", "lacks_status",
    "label", "not_label", "initial_faction", "holds", "dead",
    "dying", "neighbour_of", "voted_for", "top_voted", "targeted", "strength", "counter", "any_of", "used_tag_on",
    "any", "if",
)

SRC = {"oneOf": [{"type": "integer", "minimum": 1},
                 {"type": "array", "items": {"type": "integer", "minimum": 1}, "minItems": 1}]}
NAME = {"type": "string", "minLength": 1}
NAMES = {"type": "array", "items": NAME}
NUM: dict[str, Any] = {}  # numbers: ints or arithmetic mappings, checked by resolve.py
FILTER = {"type": "object", "propertyNames": {"enum": list(FILTER_KEYS)}}
COND = {"type": "object", "minProperties": 1,
        "propertyNames": {"enum": list(CONDITION_KINDS) + ["op", "value", "satisfies", "reads", "src", "who", "by"]}}
EFFECT = {
    "type": "object",
    "properties": {k: {} for k in EFFECT_KINDS} | {"if": COND, "src": SRC, "force": {"type": "boolean"},
                                                 "note": {"type": "string"}, "instead": {"type": "array"}},
    "additionalProperties": False,
    "minProperties": 1,
}
TRIGGER = {
    "type": "object",
    "required": ["event"],
    "properties": {"event": {"enum": list(TRIGGER_EVENTS)}, "tag": NAME, "on": {}, "by": {},
                   "phase": NAME, "cause": {}, "status": NAME, "counter": NAME, "value": {},
                   "faction": NAME, "skill": NAME, "src": SRC},
    "additionalProperties": False,
}
SKILL = {
    "type": "object",
    "required": ["name", "src"],
    "properties": {
        "name": NAME, "src": SRC, "timing": NAMES, "tags": NAMES,
        "uses": {"type": "object", "properties": {"count": {"type": "integer", "minimum": 0},
                                                   "per": {"enum": ["game", "day", "phase", "night"]}},
                 "required": ["count"], "additionalProperties": False},
        "charges": {"type": "object", "properties": {"initial": {"type": "integer"}, "max": {"type": "integer"}},
                    "additionalProperties": False},
        "cooldown": {"type": "integer", "minimum": 0},
        "targets": {"type": "object", "properties": {"min": {"type": "integer", "minimum": 0},
                                                      "max": {"type": ["integer", "null"], "minimum": 0},
                                                      "filter": FILTER, "src": SRC},
                    "additionalProperties": False},
        "trigger": TRIGGER,
        "static": {"type": "boolean"},
        "no_repeat_target": {"type": "boolean"},
        "condition": COND,
        "owner": {"type": "object", "propertyNames": {"enum": ["label", "faction", "status", "item", "role"]}},
        "effects": {"type": "array", "items": EFFECT},
        "text": {"type": "string"}, "note": {"type": "string"},
    },
    "additionalProperties": False,
}
ELEMENT_BASE = {"name": NAME, "src": SRC, "meaning": {"type": "string"}, "note": {"type": "string"},
                "external": {"type": "boolean"}, "assumption": {"type": "string"}, "text": {"type": "string"}}
ROLE = {
    "type": "object",
    "required": ["name", "src", "faction"],
    "properties": ELEMENT_BASE | {
        "faction": NAME, "strength": {"type": ["number", "null"]}, "count": {}, "labels": NAMES,
        "statuses": NAMES, "skills": {"type": "array", "items": SKILL}, "flip_to": {"type": ["string", "null"]},
        "created": {"type": "boolean"}, "aliases": NAMES,
    },
    "additionalProperties": False,
}


def _list_of(props: dict[str, Any], required: tuple[str, ...] = ("name", "src")) -> dict[str, Any]:
    return {"type": "array", "items": {"type": "object", "required": list(required), "properties": props,
                                       "additionalProperties": False}}


SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "ruleset/v1",
    "title": "版杀规则编码 ruleset/v1",
    "type": "object",
    "required": ["schema", "id", "title", "source", "phases", "factions", "roles"],
    "properties": {
        "schema": {"const": "ruleset/v1"},
        "id": {"type": "string", "pattern": "^[a-z0-9_]+$"},
        "title": NAME, "author": {"type": "string"}, "source": NAME,
        "bounds": {"type": "object", "properties": {"players": {"type": "integer", "minimum": 2, "maximum": 8},
                                                     "depth": {"type": "integer", "minimum": 1, "maximum": 8},
                                                     "rlimit": {"type": "integer", "minimum": 1}},
                   "additionalProperties": False},
        "phases": _list_of(ELEMENT_BASE | {"once": {"type": "boolean"}, "day": {"type": "integer"}}),
        "windows": _list_of(ELEMENT_BASE | {"phases": NAMES}),
        "factions": _list_of(ELEMENT_BASE | {"win": {"oneOf": [COND, {"type": "null"}]},
                                             "lose": {"oneOf": [COND, {"type": "null"}]},
                                             "shares_win": {"type": "boolean"}, "aliases": NAMES,
                                             "win_src": SRC, "lose_src": SRC}),
        "win_priority": {"type": "object", "required": ["order", "src"],
                         "properties": {"order": NAMES, "src": SRC, "note": {"type": "string"}},
                         "additionalProperties": False},
        "statuses": _list_of(ELEMENT_BASE | {"blocks": {"type": "array", "items": {"enum": list(BLOCKABLE)}},
                                             "except": NAMES, "permanent": {"type": "boolean"},
                                             "blocks_tags": NAMES, "except_tags": NAMES,
                                             "keeps_vote": {"type": "boolean"},
                                             "negative": {"type": "boolean"}, "notify": {"type": "boolean"},
                                             "duration": {"type": ["string", "null"]}, "aliases": NAMES}),
        "tags": _list_of(ELEMENT_BASE | {"meaning": {"enum": list(TAG_MEANINGS)}, "aliases": NAMES}),
        "labels": _list_of(ELEMENT_BASE | {"implies_labels": NAMES, "implies_statuses": NAMES,
                                           "removable": {"type": "boolean"}, "aliases": NAMES}),
        "counters": _list_of(ELEMENT_BASE | {"scope": {"enum": ["global", "per_player", "faction"]},
                                             "initial": {"type": "integer"}, "min": {"type": "integer"},
                                             "max": {"type": "integer"}, "faction": NAME}),
        "items": _list_of(ELEMENT_BASE | {"count": {"type": "integer", "minimum": 1}}),
        "roles": {"type": "array", "items": ROLE},
        "skills": {"type": "array", "items": SKILL},
        "precedence": {"type": "array", "items": {"type": "object", "required": ["src"], "properties": {
            "first": NAME, "then": NAME, "order": NAMES, "of": {"type": "string"}, "src": SRC,
            "note": {"type": "string"}}, "additionalProperties": False}},
        "voting": {"type": "object", "properties": {"src": SRC, "weight_default": {"type": "number"},
                                                    "external": {"type": "boolean"}, "assumption": {"type": "string"},
                                                    "tie": {"type": ["string", "null"]}, "tie_src": SRC,
                                                    "note": {"type": "string"}},
                   "additionalProperties": False},
        "setup": {"type": "object", "properties": {
            "players": {"type": "object", "properties": {"min": {"type": "integer"}, "max": {"type": ["integer", "null"]},
                                                         "src": SRC, "assumed": {"type": "boolean"}},
                        "additionalProperties": False},
            "stated_total": {"type": "object", "properties": {"value": {"type": "integer"}, "src": SRC,
                                                              "of": {"type": "string"}},
                             "required": ["value", "src"], "additionalProperties": False},
            "totals": {"type": "array", "items": {"type": "object", "required": ["value", "src", "groups"],
                       "properties": {"name": NAME, "value": NUM, "src": SRC, "groups": NAMES}, "additionalProperties": False}},
            "groups": {"type": "array", "items": {"type": "object", "required": ["name", "count", "src"],
                       "properties": {"name": NAME, "count": NUM, "src": SRC, "roles": NAMES, "note": {"type": "string"}},
                       "additionalProperties": False}},
            "distributions": {"type": "array", "items": {"type": "object", "required": ["name", "src", "cases"],
                              "properties": {"name": NAME, "src": SRC, "cases": {"type": "array", "items": {
                                  "type": "object", "required": ["value", "percent"],
                                  "properties": {"value": {}, "percent": NUM, "max": {"type": "number"},
                                                 "min": {"type": "number"}, "src": SRC},
                                  "additionalProperties": False}}},
                              "additionalProperties": False}},
            "src": SRC, "note": {"type": "string"},
        }, "additionalProperties": False},
        "faq": {"type": "array", "items": {"type": "object", "required": ["question", "answer", "src"],
                "properties": {"question": NAME, "answer": {"type": "string"}, "src": SRC, "claim": {"type": "object"},
                               "id": {"type": "string"}},
                "additionalProperties": False}},
        "externals": {"type": "array", "items": {"type": "object", "required": ["term", "assumption"],
                      "properties": {"term": NAME, "src": SRC, "assumption": NAME, "kind": {"type": "string"}},
                      "additionalProperties": False}},
        "terms": {"type": "array", "items": {"type": "object", "required": ["name", "kind"],
                  "properties": {"name": NAME, "kind": {"enum": ["feedback", "title", "card", "heading", "other", "status_word",
                                                   "undefined"]},
                                 "src": SRC, "note": {"type": "string"}},
                  "additionalProperties": False}},
        "readings": {"type": "array", "items": {"type": "object", "required": ["element", "readings"],
                     "properties": {"element": NAME, "field": {"type": "string"}, "src": SRC, "note": {"type": "string"},
                                    "readings": {"type": "array", "minItems": 2, "items": {
                                        "type": "object", "required": ["value", "src"],
                                        "properties": {"value": {}, "src": SRC, "text": {"type": "string"}},
                                        "additionalProperties": False}}},
                     "additionalProperties": False}},
        "assumptions": {"type": "array", "items": {"type": "object", "required": ["text"],
                        "properties": {"about": {"type": "string"}, "src": SRC, "text": NAME},
                        "additionalProperties": False}},
        "rulings": {"type": "array", "items": {"type": "object", "required": ["question", "ruling"],
                    "properties": {"question": NAME, "ruling": NAME, "first": NAME, "then": NAME, "src": SRC,
                                   "note": {"type": "string"}}, "additionalProperties": False}},
        "suppressions": {"type": "array", "items": {"type": "object", "required": ["finding", "reason"],
                         "properties": {"finding": NAME, "reason": NAME}, "additionalProperties": False}},
    },
    "additionalProperties": False,
}
