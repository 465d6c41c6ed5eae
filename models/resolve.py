"""Name resolution: every name an element uses must be declared in the ruleset.

An unresolved name in the encoding is an encoding error (exit 2), not a finding: the
finding `undefined-reference` is about the *source text*, which is checked elsewhere.
Each error says what was expected and, when one is close, the nearest declared name:
a typo must never quietly turn a rule into one that never (or always) applies.
"""
from __future__ import annotations

import difflib
from typing import Any, Iterable

from .domain import Ruleset
from .load_text import Bi, listed, msg, near_text
from .schema import COMPARISONS, OPAQUE_WORDS, VOTE_OUT_CAUSES
from .yaml_lines import LoadError, line_of

WHO_WORDS = {"self", "target", "target1", "target2", "target3", "caster", "source", "victim", "all", "killer", "owner"}

# `$word` values each kind of name accepts (LANGUAGE.md); any other `$…` is a typo
DOLLAR_WORDS: dict[str, set[str]] = {
    "faction": {f"${w}" for w in WHO_WORDS} | {"$initial", "$any"},   # $who: that player's faction
    "status": {"$negative", "$all"},
    "skill": {"$all", "$chosen"},
    "role": {"$flip"},
}
LIST_ALL_UP_TO = 12  # an expected set this small is printed whole; a larger one by its size


def nearest(name: Any, allowed: Iterable[str]) -> str | None:
    """The declared name closest to a misspelt one, if any is reasonably close."""
    if not isinstance(name, str):
        return None
    found = difflib.get_close_matches(name, sorted(set(allowed)), n=1, cutoff=0.4)
    return found[0] if found else None


def expected_text(what: Bi, allowed: Iterable[str], name: Any = None) -> Bi:
    """`应为：a、b、c` (or the size of a large set), plus the nearest name to `name`."""
    names = sorted(set(allowed))
    if not names:
        text = msg("none_declared", what=what)
    elif len(names) <= LIST_ALL_UP_TO:
        text = msg("one_of", what=what, names=listed(names))
    else:
        text = msg("declared_count", what=what, n=len(names))
    return text + near_text(nearest(name, names))


def causes_of(rs: Ruleset) -> set[str]:
    """Going-out causes the ruleset declares: the causes of its `out` effects, the kinds of
    its `damage` effects, its `externals` terms (base-rule mechanisms with an assumption),
    and the built-in vote-out causes."""
    made = {e.args.get(key) for e in rs.effects() if isinstance(e.args, dict)
            for key in (("cause",) if e.kind == "out" else ("kind",) if e.kind == "damage" else ())}
    return {c for c in made if isinstance(c, str)} | {x["term"] for x in rs.externals} | set(VOTE_OUT_CAUSES)


class _Resolver:
    def __init__(self, rs: Ruleset, lines: dict, file: str):
        self.rs, self.lines, self.file = rs, lines, file
        self.errors: list[LoadError] = []
        a = rs.aliases
        self.kinds: dict[str, set[str]] = {
            "faction": set(rs.factions) | {k for k, v in a.items() if v in rs.factions},
            "status": set(rs.statuses) | {k for k, v in a.items() if v in rs.statuses},
            "tag": set(rs.tags) | {k for k, v in a.items() if v in rs.tags},
            "label": set(rs.labels) | {k for k, v in a.items() if v in rs.labels},
            "role": set(rs.roles) | {k for k, v in a.items() if v in rs.roles},
            "phase": {p.name for p in rs.phases} | {w.name for w in rs.windows},
            "counter": set(rs.counters),
            "item": set(rs.items),
            "skill": {s.name for s in rs.skills},
            "cause": causes_of(rs),
            "group": {g.get("name") for g in (rs.setup.get("groups") or []) if isinstance(g, dict)},
            "reading": {f"{a['name']}/{o['name']}" for a in rs.ambiguities for o in a.get("options") or []},
        }
        # a term the encoding declares undefined may be named where a skill or role is
        # expected: it is held by nobody (and stays reported as undefined-reference)
        self.undefined = {t["name"] for t in rs.terms if t.get("kind") == "undefined"}

    def error(self, path: tuple, message: Bi) -> None:
        self.errors.append(LoadError.of(self.file, line_of(self.lines, path), message))

    def need(self, kind: str, name: Any, path: tuple, extra: Iterable[str] = ()) -> None:
        extra = set(extra) | DOLLAR_WORDS.get(kind, set())
        if name is None or (isinstance(name, str) and name in extra):
            return
        if not isinstance(name, str) or name not in self.kinds[kind]:
            allowed = self.kinds[kind] | {x for x in extra if x.startswith("$")}
            what = msg("kind_" + kind)
            self.error(path, msg("undeclared", kind=what, name=name, expected=expected_text(what, allowed, name),
                                 declared_in=msg("in_" + kind, builtin="/".join(VOTE_OUT_CAUSES))))

    def who(self, value: Any, path: tuple) -> None:
        if isinstance(value, dict) and ("random" in value or "any_of" in value):
            key = "random" if "random" in value else "any_of"
            self.filter(value[key] or {}, path + (key,))
        elif isinstance(value, dict):
            self.filter(value, path)
        elif isinstance(value, str) and value.startswith("holder:"):
            self.need("item", value[len("holder:"):], path)
        elif isinstance(value, str) and value not in WHO_WORDS:
            self.error(path, msg("bad_who", value=value, near=near_text(nearest(value, WHO_WORDS))))

    def filter(self, f: Any, path: tuple) -> None:
        if not isinstance(f, dict):
            return
        for key, kind in (("faction", "faction"), ("not_faction", "faction"), ("initial_faction", "faction"),
                          ("role", "role"), ("not_role", "role"), ("has_status", "status"),
                          ("lacks_status", "status"), ("label", "label"), ("not_label", "label"), ("holds", "item")):
            if key in f:
                for v in (f[key] if isinstance(f[key], list) else [f[key]]):
                    self.need(kind, v, path + (key,))
        for key in ("neighbour_of", "voted_for"):
            if key in f:
                of = f[key].get("of") if isinstance(f[key], dict) else f[key]
                self.who(of, path + (key,))
        for i, sub in enumerate(f.get("any") or []):
            self.filter(sub, path + ("any", i))
        for key in ("random", "any_of", "voted_by"):
            if isinstance(f.get(key), dict):
                self.filter(f[key], path + (key,))
        if "if" in f:
            self.cond(f["if"], path + ("if",))
        if isinstance(f.get("used_tag_on"), dict):
            self.who(f["used_tag_on"].get("on"), path + ("used_tag_on", "on"))
            self.need("tag", f["used_tag_on"].get("tag"), path + ("used_tag_on", "tag"))
        if isinstance(f.get("strength"), dict):
            self.num(f["strength"].get("value"), path + ("strength", "value"))
        if "counter" in f:
            spec = f["counter"]
            if not (isinstance(spec, list) and len(spec) == 3):
                self.error(path + ("counter",), msg("filter_counter"))
            else:
                self.need("counter", spec[0], path + ("counter", 0))
                if spec[1] not in COMPARISONS:
                    self.error(path + ("counter", 1), msg("comparison", op=spec[1], allowed=" ".join(COMPARISONS)))
                self.num(spec[2], path + ("counter", 2))

    def num(self, n: Any, path: tuple) -> None:
        if isinstance(n, dict):
            for key in ("count", "vote_weights"):
                if key in n:
                    self.filter(n[key], path + (key,))
            if "counter" in n:
                self.need("counter", n["counter"], path + ("counter",))
            for key in ("votes_for", "strength", "who"):
                if key in n:
                    self.who(n[key], path + (key,))
            for key in ("add", "sub", "mul", "div", "min", "max"):
                for i, sub in enumerate(n.get(key) or []):
                    self.num(sub, path + (key, i))

    def cond(self, c: Any, path: tuple) -> None:
        if not isinstance(c, dict):
            return
        for key in ("all", "any"):
            for i, sub in enumerate(c.get(key) or []):
                self.cond(sub, path + (key, i))
        if "not" in c:
            self.cond(c["not"], path + ("not",))
        pairs = {"has_status": "status", "faction": "faction", "role": "role", "label": "label", "holds": "item"}
        for key, kind in pairs.items():
            if key in c and isinstance(c[key], list) and len(c[key]) == 2:
                self.who(c[key][0], path + (key, 0))
                self.need(kind, c[key][1], path + (key, 1), extra=self.undefined if kind == "role" else ())
        if "alive" in c:
            self.who(c["alive"], path + ("alive",))
        if isinstance(c.get("is"), list):
            for j, x in enumerate(c["is"]):
                self.who(x, path + ("is", j))
        if "phase" in c:
            self.need("phase", c["phase"], path + ("phase",))
        if "lost" in c:
            self.need("faction", c["lost"], path + ("lost",))
        if "cause" in c:
            self.need("cause", c["cause"], path + ("cause",))
        if isinstance(c.get("reading"), list) and len(c["reading"]) == 2:
            self.need("reading", "/".join(map(str, c["reading"])), path + ("reading",))
        for key in ("used", "targeted_by"):
            if key in c and isinstance(c[key], list) and len(c[key]) == 2:
                self.who(c[key][0], path + (key, 0))
                self.need("skill", c[key][1], path + (key, 1), extra=self.undefined)
        if "distinct" in c and c.get("by") not in ("faction", "initial_faction", "role"):
            self.error(path + ("distinct",), msg("distinct"))
        if "day" in c and not isinstance(c["day"], (int, dict)):
            self.error(path + ("day",), msg("day"))
        for key in ("count", "every", "none", "satisfies", "distinct"):
            if key in c:
                self.filter(c[key], path + (key,))
        if "counter" in c:
            self.need("counter", c["counter"], path + ("counter",))
        if "value" in c:
            self.num(c["value"], path + ("value",))
        if "value_of" in c:
            self.num(c["value_of"], path + ("value_of",))
        if "reads" in c:
            self.opaque_words(c["reads"], path + ("reads",))

    def opaque_words(self, words: Any, path: tuple) -> None:
        """`reads`/`writes` of an opaque part: a word, or `word:<name>` naming the thing."""
        for j, w in enumerate(words if isinstance(words, list) else []):
            head, _, name = str(w).partition(":")
            if head not in OPAQUE_WORDS:
                self.error(path + (j,), msg("opaque_word", word=w, allowed=listed(OPAQUE_WORDS),
                                            near=near_text(nearest(head, OPAQUE_WORDS))))
            elif name and head in self.kinds:
                self.need(head, name, path + (j,))

    def effect(self, e: dict, path: tuple) -> None:
        if "choose" in e:
            options = e["choose"] if isinstance(e["choose"], list) else (e["choose"] or {}).get("options", [])
            for j, option in enumerate(options):
                for k, sub in enumerate(option if isinstance(option, list) else [option]):
                    if isinstance(sub, dict):
                        self.effect(sub, path + ("choose", j, k))
        if "if" in e:
            self.cond(e["if"], path + ("if",))
        for i, sub in enumerate(e.get("instead") or []):
            self.effect(sub, path + ("instead", i))
        for kind, args in e.items():
            if not isinstance(args, dict):
                continue
            p = path + (kind,)
            if "who" in args:
                self.who(args["who"], p + ("who",))
            if kind == "set_faction":
                self.need("faction", args.get("to"), p + ("to",))
            if kind in ("grant_status", "remove_status"):
                self.need("status", args.get("status"), p + ("status",))
            if kind == "grant_status":
                self.duration(args.get("duration"), p + ("duration",))
            if kind in ("gain_skill", "lose_skill", "refresh_skill", "extra_use", "cooldown"):
                self.need("skill", args.get("skill"), p + ("skill",))
            if kind in ("add_label", "remove_label"):
                self.need("label", args.get("label"), p + ("label",))
            if kind == "counter":
                self.need("counter", args.get("name"), p + ("name",))
            if kind in ("counter", "vote_weight", "received_votes"):
                self.num(args.get("value"), p + ("value",))
            if kind == "must_target":
                self.who(args.get("target"), p + ("target",))
            if kind == "use_skill":
                self.need("skill", args.get("skill"), p + ("skill",), extra=("$any",))
                for j, t in enumerate(args.get("except_tags") or []):
                    self.need("tag", t, p + ("except_tags", j))
                if "caster" in args:
                    self.who(args["caster"], p + ("caster",))
            if kind == "disguise":
                self.need("faction", args.get("faction"), p + ("faction",), extra=("any",))
                self.need("role", args.get("role"), p + ("role",), extra=("any",))
            if kind == "give_item":
                self.need("item", args.get("item"), p + ("item",))
                self.who(args.get("to"), p + ("to",))
            if kind == "info":
                self.who(args.get("to"), p + ("to",))
            if kind == "redirect":
                for key in ("from", "to"):
                    self.who(args.get(key), p + (key,))
            if kind == "swap":
                for key in ("a", "b"):
                    self.who(args.get(key), p + (key,))
            if kind == "set_role":
                self.need("role", args.get("to"), p + ("to",))
            if kind == "create":
                self.need("role", args.get("role"), p + ("role",))
                self.need("faction", args.get("faction"), p + ("faction",))
                seat = args.get("seat")
                if isinstance(seat, dict):
                    self.who(seat.get("next_to"), p + ("seat", "next_to"))
            if kind == "opaque":
                for key in ("reads", "writes"):
                    self.opaque_words(args.get(key), p + (key,))
        for kind in ("win", "lose"):
            if kind in e and isinstance(e[kind], str):
                self.need("faction", e[kind], path + (kind,))

    def duration(self, d: Any, path: tuple) -> None:
        if isinstance(d, str) and d.startswith("until:"):
            self.need("phase", d[len("until:"):], path)
        elif d is not None and d not in DURATIONS:
            self.error(path, msg("duration", value=d, allowed=" | ".join(DURATIONS),
                                 near=near_text(nearest(d, DURATIONS + ("until:<阶段>",)))))

    def run(self) -> list[LoadError]:
        data = self.rs.raw
        for i, w in enumerate(data.get("windows") or []):
            for j, p in enumerate(w.get("phases") or []):
                self.need("phase", p, ("windows", i, "phases", j))
        if (data.get("voting") or {}).get("phase") is not None:
            self.need("phase", data["voting"]["phase"], ("voting", "phase"))
        if (data.get("begins_with") or {}).get("phase") is not None:
            self.need("phase", data["begins_with"]["phase"], ("begins_with", "phase"))
        for i, f in enumerate(data["factions"]):
            for key in ("win", "lose"):
                self.cond(f.get(key), ("factions", i, key))
        if data.get("win_priority"):
            for j, f in enumerate(data["win_priority"]["order"]):
                self.need("faction", f, ("win_priority", "order", j))
        for i, st in enumerate(data.get("statuses") or []):
            for key in ("blocks_tags", "except_tags"):
                for j, x in enumerate(st.get(key) or []):
                    self.need("tag", x, ("statuses", i, key, j))
            for j, x in enumerate(st.get("except") or []):
                self.need("cause", x, ("statuses", i, "except", j))
            for j, x in enumerate(st.get("except_skills") or []):
                self.need("skill", x, ("statuses", i, "except_skills", j))
        for i, lab in enumerate(data.get("labels") or []):
            for j, x in enumerate(lab.get("implies_labels") or []):
                self.need("label", x, ("labels", i, "implies_labels", j))
            for j, x in enumerate(lab.get("implies_statuses") or []):
                self.need("status", x, ("labels", i, "implies_statuses", j))
        for i, c in enumerate(data.get("counters") or []):
            self.need("faction", c.get("faction"), ("counters", i, "faction"))
        for i, r in enumerate(data["roles"]):
            base = ("roles", i)
            self.need("faction", r["faction"], base + ("faction",))
            self.num(r.get("count"), base + ("count",))
            for j, x in enumerate(r.get("labels") or []):
                self.need("label", x, base + ("labels", j))
            for j, x in enumerate(r.get("statuses") or []):
                self.need("status", x, base + ("statuses", j))
            if r.get("flip_to"):
                self.need("role", r["flip_to"], base + ("flip_to",), extra=("——",))
            if r.get("external") and not r.get("assumption"):
                self.error(base, msg("external_role", name=r["name"]))
            for j, s in enumerate(r.get("skills") or []):
                self.skill(s, base + ("skills", j))
        for j, s in enumerate(data.get("skills") or []):
            self.skill(s, ("skills", j))
            owner = s.get("owner") or {}
            for key, kind in (("label", "label"), ("faction", "faction"), ("status", "status"),
                              ("item", "item"), ("role", "role")):
                if key in owner:
                    self.need(kind, owner[key], ("skills", j, "owner", key))
            if not owner:
                self.error(("skills", j), msg("skill_owner", name=s["name"]))
        for group in ("precedence", "rulings"):
            for i, p in enumerate(data.get(group) or []):
                for key in ("first", "then"):
                    if key in p and not (key == "then" and p[key] == "$all"):   # $all: before everyone
                        self.need_any(p[key], (group, i, key), msg("precedence_rule"))
        for i, r in enumerate(data.get("rulings") or []):
            if "ambiguity" in r:
                self.need("reading", f"{r['ambiguity']}/{r.get('option')}", ("rulings", i, "option"))
        for i, r in enumerate(data.get("readings") or []):
            self.need_any(r.get("element"), ("readings", i, "element"), msg("readings"))
            if "switch" in r:
                n = len(r.get("readings") or [])
                if not any(a.get("name") == r["switch"] and len(a.get("options") or []) == n
                           for a in data.get("ambiguities") or []):
                    self.error(("readings", i, "switch"), msg("switch", name=r["switch"], n=n))
        self.setup(data.get("setup") or {})
        for i, q in enumerate(data.get("faq") or []):
            self.claim(q.get("claim") or {}, ("faq", i, "claim"))
        return self.errors

    def setup(self, setup: dict) -> None:
        for i, g in enumerate(setup.get("groups") or []):
            self.num(g.get("count"), ("setup", "groups", i, "count"))
            for j, r in enumerate(g.get("roles") or []):
                self.need("role", r, ("setup", "groups", i, "roles", j))
        for i, t in enumerate(setup.get("totals") or []):
            self.num(t.get("value"), ("setup", "totals", i, "value"))
            for j, g in enumerate(t.get("groups") or []):
                self.need("group", g, ("setup", "totals", i, "groups", j))

    def claim(self, claim: dict, path: tuple) -> None:
        c = claim.get("only_skills_in_phase")
        if isinstance(c, dict):
            self.need("phase", c.get("phase"), path + ("only_skills_in_phase", "phase"))
            for j, s in enumerate(c.get("skills") or []):
                self.need("skill", s, path + ("only_skills_in_phase", "skills", j), extra=self.undefined)
        c = claim.get("skill_timing")
        if isinstance(c, dict):
            self.need("skill", c.get("skill"), path + ("skill_timing", "skill"))
            for j, p in enumerate(c.get("phases") or []):
                self.need("phase", p, path + ("skill_timing", "phases", j))
        for mode in ("always", "possible", "never"):
            self.cond(claim.get(mode), path + (mode,))

    def need_any(self, name: str, path: tuple, what: Bi) -> None:
        known = set().union(*self.kinds.values()) | {e["term"] for e in self.rs.externals} | \
            {t["name"] for t in self.rs.terms}
        if name not in known:
            self.error(path, msg("undeclared_any", what=what, name=name, near=near_text(nearest(name, known))))

    def skill(self, s: dict, path: tuple) -> None:
        for j, t in enumerate(s.get("timing") or []):
            self.need("phase", t, path + ("timing", j))
        for j, t in enumerate(s.get("tags") or []):
            self.need("tag", t, path + ("tags", j))
        if s.get("targets"):
            self.filter(s["targets"].get("filter"), path + ("targets", "filter"))
        trig = s.get("trigger") or {}
        for key, kind in (("tag", "tag"), ("phase", "phase"), ("status", "status"), ("counter", "counter"),
                          ("faction", "faction"), ("skill", "skill")):
            if key in trig:
                self.need(kind, trig[key], path + ("trigger", key))
        if "cause" in trig:
            self.need("cause", trig["cause"], path + ("trigger", "cause"), extra=("any",))
        for key in ("on", "by"):
            if key in trig:
                self.who(trig[key], path + ("trigger", key))
        self.cond(s.get("condition"), path + ("condition",))
        for j, e in enumerate(s.get("effects") or []):
            self.effect(e, path + ("effects", j))


def check_src_lines(raw: Any, lines: dict, file: str, source: str, count: int) -> list[LoadError]:
    """Every `src` (and `win_src`, `lose_src`, `tie_src`) line must be a line of source.txt."""
    errors: list[LoadError] = []

    def walk(node: Any, path: tuple) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "src" or str(key).endswith("_src"):
                    for j, n in enumerate(value if isinstance(value, list) else [value]):
                        if isinstance(n, int) and not 1 <= n <= count:
                            at = path + (key, j) if isinstance(value, list) else path + (key,)
                            errors.append(LoadError.of(file, line_of(lines, at),
                                                       msg("src_range", n=n, source=source, count=count)))
                else:
                    walk(value, path + (key,))
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(value, path + (i,))

    walk(raw, ())
    return errors


DURATIONS = ("permanent", "phase", "day")


def resolve_names(rs: Ruleset, lines: dict, file: str) -> list[LoadError]:
    return (_Resolver(rs, lines, file).run() + check_src_lines(rs.raw, lines, file, rs.source_file, len(rs.source_lines))
            + _check_part_of(rs, lines, file))


def _check_part_of(rs: Ruleset, lines: dict, file: str) -> list[LoadError]:
    """A skill's part_of names words of the text: reports show them in its place."""
    return [LoadError.of(file, line_of(lines, s.yaml_path + ("part_of",)),
                         msg("part_of_text", name=s.part_of, source=rs.source_file))
            for s in rs.skills if s.part_of is not None and not rs.in_text(s.part_of)]
