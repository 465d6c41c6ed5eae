"""Name resolution: every name an element uses must be declared in the ruleset.

An unresolved name in the encoding is an encoding error (exit 2), not a finding: the
finding `undefined-reference` is about the *source text*, which is checked elsewhere.
"""
from __future__ import annotations

from typing import Any, Iterable

from .domain import Ruleset
from .yaml_lines import LoadError, line_of

WHO_WORDS = {"self", "target", "caster", "source", "victim", "all", "killer", "owner"}


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
        }
        # a term the encoding declares undefined may be named where a skill or role is
        # expected: it is held by nobody (and stays reported as undefined-reference)
        self.undefined = {t["name"] for t in rs.terms if t.get("kind") == "undefined"}

    def need(self, kind: str, name: Any, path: tuple, extra: Iterable[str] = ()) -> None:
        if name is None or (isinstance(name, str) and (name.startswith("$") or name in extra)):
            return
        if not isinstance(name, str) or name not in self.kinds[kind]:
            self.errors.append(LoadError(self.file, line_of(self.lines, path),
                                         f"未声明的{_KIND_ZH[kind]} '{name}'（应先在 {kind} 列表中声明）"))

    def who(self, value: Any, path: tuple) -> None:
        if isinstance(value, dict) and ("random" in value or "any_of" in value):
            key = "random" if "random" in value else "any_of"
            self.filter(value[key] or {}, path + (key,))
        elif isinstance(value, dict):
            self.filter(value, path)
        elif isinstance(value, str) and not (value in WHO_WORDS or value.startswith("holder:")):
            self.errors.append(LoadError(self.file, line_of(self.lines, path),
                                         f"who 应为 self/target/caster/source/victim、holder:<物品> 或过滤器，实际是 '{value}'"))

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
                self.errors.append(LoadError(self.file, line_of(self.lines, path + ("counter",)),
                                             "过滤器 counter 应为 [计数器, 比较符, 数值]"))
            else:
                self.need("counter", spec[0], path + ("counter", 0))
                self.num(spec[2], path + ("counter", 2))

    def num(self, n: Any, path: tuple) -> None:
        if isinstance(n, dict):
            for key in ("count", "vote_weights"):
                if key in n:
                    self.filter(n[key], path + (key,))
            if "counter" in n:
                self.need("counter", n["counter"], path + ("counter",))
            for key in ("votes_for", "strength"):
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
        if "phase" in c:
            self.need("phase", c["phase"], path + ("phase",))
        for key in ("used", "targeted_by"):
            if key in c and isinstance(c[key], list) and len(c[key]) == 2:
                self.who(c[key][0], path + (key, 0))
                self.need("skill", c[key][1], path + (key, 1), extra=self.undefined)
        if "distinct" in c and c.get("by") not in ("faction", "initial_faction", "role"):
            self.errors.append(LoadError(self.file, line_of(self.lines, path + ("distinct",)),
                                         "distinct 需要 by: faction / initial_faction / role"))
        if "day" in c and not isinstance(c["day"], (int, dict)):
            self.errors.append(LoadError(self.file, line_of(self.lines, path + ("day",)),
                                         "day 应为整数（第几天）或 {op, value}"))
        for key in ("count", "every", "none", "satisfies", "distinct"):
            if key in c:
                self.filter(c[key], path + (key,))
        if "counter" in c:
            self.need("counter", c["counter"], path + ("counter",))
        if "value" in c:
            self.num(c["value"], path + ("value",))
        if "value_of" in c:
            self.num(c["value_of"], path + ("value_of",))

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
            if kind in ("gain_skill", "lose_skill", "refresh_skill", "extra_use", "cooldown"):
                self.need("skill", args.get("skill"), p + ("skill",))
            if kind in ("add_label", "remove_label"):
                self.need("label", args.get("label"), p + ("label",))
            if kind == "counter":
                self.need("counter", args.get("name"), p + ("name",))
                self.num(args.get("value"), p + ("value",))
            if kind == "received_votes":
                self.num(args.get("value"), p + ("value",))
            if kind == "must_target":
                self.who(args.get("target"), p + ("target",))
            if kind == "disguise":
                self.need("faction", args.get("faction"), p + ("faction",), extra=("any",))
                self.need("role", args.get("role"), p + ("role",), extra=("any",))
            if kind == "give_item":
                self.need("item", args.get("item"), p + ("item",))
            if kind == "set_role":
                self.need("role", args.get("to"), p + ("to",))
            if kind == "create":
                self.need("role", args.get("role"), p + ("role",))
        for kind in ("win", "lose"):
            if kind in e and isinstance(e[kind], str):
                self.need("faction", e[kind], path + (kind,))

    def run(self) -> list[LoadError]:
        data = self.rs.raw
        for i, w in enumerate(data.get("windows") or []):
            for j, p in enumerate(w.get("phases") or []):
                self.need("phase", p, ("windows", i, "phases", j))
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
        for i, lab in enumerate(data.get("labels") or []):
            for j, x in enumerate(lab.get("implies_labels") or []):
                self.need("label", x, ("labels", i, "implies_labels", j))
            for j, x in enumerate(lab.get("implies_statuses") or []):
                self.need("status", x, ("labels", i, "implies_statuses", j))
        for i, r in enumerate(data["roles"]):
            base = ("roles", i)
            self.need("faction", r["faction"], base + ("faction",))
            for j, x in enumerate(r.get("labels") or []):
                self.need("label", x, base + ("labels", j))
            for j, x in enumerate(r.get("statuses") or []):
                self.need("status", x, base + ("statuses", j))
            if r.get("flip_to"):
                self.need("role", r["flip_to"], base + ("flip_to",), extra=("——",))
            if r.get("external") and not r.get("assumption"):
                self.errors.append(LoadError(self.file, line_of(self.lines, base),
                                             f"外部身份 '{r['name']}' 需要 assumption（写明我们的假设）"))
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
                self.errors.append(LoadError(self.file, line_of(self.lines, ("skills", j)),
                                             f"顶层技能 '{s['name']}' 需要 owner（持有者：label/faction/status/item/role）"))
        for group in ("precedence", "rulings"):
            for i, p in enumerate(data.get(group) or []):
                for key in ("first", "then"):
                    if key in p:
                        self.need_any(p[key], (group, i, key))
        return self.errors

    def need_any(self, name: str, path: tuple) -> None:
        if not any(name in names for names in self.kinds.values()) and name not in \
                {e["term"] for e in self.rs.externals} | {t["name"] for t in self.rs.terms}:
            self.errors.append(LoadError(self.file, line_of(self.lines, path), f"优先规则引用了未声明的名称 '{name}'"))

    def skill(self, s: dict, path: tuple) -> None:
        for j, t in enumerate(s.get("timing") or []):
            self.need("phase", t, path + ("timing", j))
        for j, t in enumerate(s.get("tags") or []):
            self.need("tag", t, path + ("tags", j))
        if s.get("targets"):
            self.filter(s["targets"].get("filter"), path + ("targets", "filter"))
        trig = s.get("trigger") or {}
        if "tag" in trig:
            self.need("tag", trig["tag"], path + ("trigger", "tag"))
        if "phase" in trig:
            self.need("phase", trig["phase"], path + ("trigger", "phase"))
        if "status" in trig:
            self.need("status", trig["status"], path + ("trigger", "status"))
        if "counter" in trig:
            self.need("counter", trig["counter"], path + ("trigger", "counter"))
        if "faction" in trig:
            self.need("faction", trig["faction"], path + ("trigger", "faction"))
        if "skill" in trig:
            self.need("skill", trig["skill"], path + ("trigger", "skill"))
        self.cond(s.get("condition"), path + ("condition",))
        for j, e in enumerate(s.get("effects") or []):
            self.effect(e, path + ("effects", j))


_KIND_ZH = {"faction": "阵营", "status": "状态", "tag": "标签", "label": "标记", "role": "身份", "phase": "阶段",
            "counter": "计数器", "item": "物品", "skill": "技能"}


def resolve_names(rs: Ruleset, lines: dict, file: str) -> list[LoadError]:
    return _Resolver(rs, lines, file).run()
