"""Every message the loader gives about a bad ruleset, in Chinese and in English.

A message is built once as a `Bi` (both texts side by side): parts such as the nearest name
or a kind of element are Bi themselves and are filled into each language's template, so the
two texts never drift apart. Names from the ruleset stay as written inside both.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable


@dataclass(frozen=True)
class Bi:
    zh: str
    en: str

    def __add__(self, other: "Bi") -> "Bi":
        return Bi(self.zh + other.zh, self.en + other.en)

    def text(self, lang: str) -> str:
        return self.en if lang == "en" else self.zh


MESSAGES: dict[str, dict[str, str]] = {
    "zh": {
        # YAML reading (yaml_lines.py)
        "yaml_syntax": "YAML 语法错误: {problem}",
        "yaml_tag": "不允许的 YAML 标签 {tag}：规则文件只能包含普通数据",
        "key_not_string": "映射的键必须是字符串", "duplicate_key": "重复的键 '{key}'",
        "unknown_node": "无法识别的 YAML 节点", "empty_file": "文件为空：需要一个 ruleset 映射",
        # the file itself (loader.py)
        "no_yaml": "找不到 ruleset.yaml：需要一个规则目录 rulesets/<id>/",
        "not_utf8": "文件不是 UTF-8 编码（{reason}）", "top_not_mapping": "顶层应为映射（schema, id, title, …）",
        "no_source": "找不到原帖文件 {name}",
        # the schema (loader.py)
        "root": "(根)", "required": "{where}: 缺少必填字段 {field}",
        "unknown_field": "{where}: 不认识的字段 '{field}'（{listed}{near}）；请查看 models/LANGUAGE.md",
        "fields_listed": "允许的字段：{names}", "fields_counted": "允许的字段共 {n} 个",
        "enum": "{where}: 取值 {value} 不在允许范围（应为 {allowed}）{near}",
        "const": "{where}: 取值应为 {want}，实际是 {value}",
        "type": "{where}: 类型应为 {wanted}，实际是 {value}", "type_see_docs": "见 models/LANGUAGE.md",
        "other": "{where}: {message}",
        "range": "{where}: 取值 {value} 超出范围（{bound}为 {limit}）", "minimum": "最小值", "maximum": "最大值",
        "length": "{where}: 列表长度不对（{rule}: {limit}），实际是 {value}",
        "type_string": "字符串", "type_object": "映射", "type_array": "列表", "type_integer": "整数",
        "type_number": "数字", "type_boolean": "true/false", "type_null": "null", "type_or": "、", "list_sep": "、",
        # names and values (resolve.py)
        "nearest": "；最接近的是 '{near}'",
        "none_declared": "本规则没有声明任何{what}", "one_of": "应为{what}之一：{names}",
        "declared_count": "应为已声明的{what}（共 {n} 个）",
        "undeclared": "未声明的{kind} '{name}'（{expected}；{declared_in}）",
        "bad_who": "who 应为 self/target/caster/source/victim、holder:<物品> 或过滤器，实际是 '{value}'{near}",
        "filter_counter": "过滤器 counter 应为 [计数器, 比较符, 数值]",
        "comparison": "比较符 '{op}' 不在允许范围（应为 {allowed}）",
        "distinct": "distinct 需要 by: faction / initial_faction / role",
        "day": "day 应为整数（第几天）或 {{op, value}}",
        "opaque_word": "opaque 的读写对象 '{word}' 不在允许范围（应为 {allowed}）{near}",
        "duration": "duration 取值 '{value}' 不在允许范围（应为 {allowed} | until:<阶段>）{near}",
        "external_role": "外部身份 '{name}' 需要 assumption（写明我们的假设）",
        "skill_owner": "顶层技能 '{name}' 需要 owner（持有者：label/faction/status/item/role）",
        "undeclared_any": "{what}引用了未声明的名称 '{name}'{near}",
        "precedence_rule": "优先规则", "readings": "readings",
        "switch": "readings 的 switch '{name}' 应为 ambiguities 中声明的歧义，且选项数与说法数相同（{n} 个）",
        "part_of_text": "part_of「{name}」在 {source} 中找不到：应为原文中出现的名称（技能名或“PS”等）",
        "src_range": "src 行号 {n} 超出 {source} 的范围（应为 1–{count}，该文件共 {count} 行）",
        "kind_faction": "阵营", "kind_status": "状态", "kind_tag": "标签", "kind_label": "标记", "kind_role": "身份",
        "kind_phase": "阶段", "kind_counter": "计数器", "kind_item": "物品", "kind_skill": "技能",
        "kind_cause": "出局原因", "kind_group": "配置分组", "kind_reading": "歧义选项（歧义名/选项）",
        "in_faction": "在 factions 中声明", "in_status": "在 statuses 中声明", "in_tag": "在 tags 中声明",
        "in_label": "在 labels 中声明", "in_role": "在 roles 中声明", "in_phase": "在 phases 或 windows 中声明",
        "in_counter": "在 counters 中声明", "in_item": "在 items 中声明",
        "in_skill": "在某个身份的 skills 或顶层 skills 中声明",
        "in_cause": "出局原因来自 out 效果的 cause、damage 效果的 kind、externals 的术语，或内置的 {builtin}",
        "in_group": "在 setup.groups 中声明",
        "in_reading": "在 ambiguities 中声明该歧义及其 options",
    },
    "en": {
        "yaml_syntax": "YAML syntax error: {problem}",
        "yaml_tag": "YAML tag {tag} is not allowed: a ruleset holds plain data only",
        "key_not_string": "a mapping key must be a string", "duplicate_key": "duplicate key '{key}'",
        "unknown_node": "unrecognised YAML node", "empty_file": "the file is empty: a ruleset mapping is needed",
        "no_yaml": "no ruleset.yaml: a ruleset folder rulesets/<id>/ is needed",
        "not_utf8": "the file is not UTF-8 ({reason})", "top_not_mapping": "the top level should be a mapping "
                                                                            "(schema, id, title, ...)",
        "no_source": "no source file {name}",
        "root": "(root)", "required": "{where}: missing required field {field}",
        "unknown_field": "{where}: unknown field '{field}' ({listed}{near}); see models/LANGUAGE.md",
        "fields_listed": "allowed fields: {names}", "fields_counted": "{n} fields are allowed",
        "enum": "{where}: value {value} is not allowed (expected {allowed}){near}",
        "const": "{where}: the value should be {want}, not {value}",
        "type": "{where}: expected {wanted}, got {value}", "type_see_docs": "see models/LANGUAGE.md",
        "other": "{where}: {message}",
        "range": "{where}: value {value} is out of range (the {bound} is {limit})",
        "minimum": "minimum", "maximum": "maximum",
        "length": "{where}: wrong list length ({rule}: {limit}), got {value}",
        "type_string": "a string", "type_object": "a mapping", "type_array": "a list", "type_integer": "an integer",
        "type_number": "a number", "type_boolean": "true/false", "type_null": "null", "type_or": " or ", "list_sep": ", ",
        "nearest": "; the nearest is '{near}'",
        "none_declared": "this ruleset declares no {what}", "one_of": "expected one of: {names}",
        "declared_count": "expected a declared {what} ({n} are declared)",
        "undeclared": "undeclared {kind} '{name}' ({expected}; {declared_in})",
        "bad_who": "who should be self/target/caster/source/victim, holder:<item> or a filter, not '{value}'{near}",
        "filter_counter": "the filter counter should be [counter, comparison, number]",
        "comparison": "comparison '{op}' is not allowed (expected {allowed})",
        "distinct": "distinct needs by: faction / initial_faction / role",
        "day": "day should be a whole number (which day) or {{op, value}}",
        "opaque_word": "opaque reads/writes '{word}' is not allowed (expected {allowed}){near}",
        "duration": "duration '{value}' is not allowed (expected {allowed} | until:<phase>){near}",
        "external_role": "external role '{name}' needs an assumption (state what we assume)",
        "skill_owner": "top-level skill '{name}' needs an owner (who holds it: label/faction/status/item/role)",
        "undeclared_any": "{what} refers to the undeclared name '{name}'{near}",
        "precedence_rule": "a precedence rule", "readings": "readings",
        "switch": "the readings' switch '{name}' must be an ambiguity declared in ambiguities with as many options as readings ({n})",
        "part_of_text": "part_of '{name}' is not in {source}: expected words of the text (a skill's name, or e.g. PS)",
        "src_range": "src line {n} is outside {source} (expected 1-{count}; the file has {count} lines)",
        "kind_faction": "faction", "kind_status": "status", "kind_tag": "tag", "kind_label": "label",
        "kind_role": "role", "kind_phase": "phase", "kind_counter": "counter", "kind_item": "item",
        "kind_skill": "skill", "kind_cause": "going-out cause", "kind_group": "setup group",
        "kind_reading": "ambiguity option (ambiguity/option)",
        "in_faction": "declare it in factions", "in_status": "declare it in statuses", "in_tag": "declare it in tags",
        "in_label": "declare it in labels", "in_role": "declare it in roles",
        "in_phase": "declare it in phases or windows", "in_counter": "declare it in counters",
        "in_item": "declare it in items", "in_skill": "declare it in a role's skills or the top-level skills",
        "in_cause": "going-out causes come from the cause of out effects, the kind of damage effects, the terms "
                    "of externals, or the built-in {builtin}",
        "in_group": "declare it in setup.groups",
        "in_reading": "declare the ambiguity and its options in ambiguities",
    },
}

NONE = Bi("", "")


def msg(key: str, /, **kw: Any) -> Bi:
    """Message KEY in both languages; a Bi parameter gives each language its own part."""
    def one(lang: str) -> str:
        return MESSAGES[lang][key].format(**{k: v.text(lang) if isinstance(v, Bi) else v for k, v in kw.items()})
    return Bi(one("zh"), one("en"))


def listed(names: Iterable[str | Bi], sep: str = "list_sep") -> Bi:
    """Names (or parts in both languages) joined as each language lists them."""
    parts = [n if isinstance(n, Bi) else Bi(n, n) for n in names]
    return Bi(MESSAGES["zh"][sep].join(p.zh for p in parts), MESSAGES["en"][sep].join(p.en for p in parts))


def near_text(near: str | None) -> Bi:
    """`；最接近的是 'x'` when a name is close, else nothing."""
    return msg("nearest", near=near) if near else NONE
