"""Every message and help text of the command line, in Chinese and in English, and argparse's
own (English) messages put into the chosen language."""
from __future__ import annotations

import difflib
import re

MESSAGES: dict[str, dict[str, str]] = {
    "zh": {
        "description": "版杀规则冲突验证器：找出规则之间的矛盾、结算顺序歧义、无限循环、无法达成的胜利等问题。",
        "usage": "用法：", "positionals": "位置参数", "options": "选项", "commands": "命令",
        "help": "显示此帮助并退出", "version": "显示版本并退出",
        "usage_error": "用法错误：", "error": "错误", "note": "注意",
        "cmd_check": "检查一个规则目录", "cmd_coverage": "编码覆盖率报告", "cmd_explain": "说明一种检查",
        "cmd_schema": "打印 ruleset.yaml 的 JSON Schema",
        "cmd_baseline": "重新生成 findings/ 下所有内置规则的结果（--check 只检查是否过期）",
        "cmd_diff": "比较两个版本（目录，或 git 版本 REV:rulesets/<id>）", "cmd_faq": "生成疑问解答（FAQ）",
        "arg_ruleset": "规则目录 rulesets/<id>（也可以给出其中的 ruleset.yaml）",
        "arg_format": "输出格式", "arg_format_check": "输出格式（text：给人读的报告；short：每个问题一行 "
                                                   "path:line: 严重度 kind 说明，供脚本与编辑器）",
        "arg_fail_on": "达到此严重度的问题使退出码为 1（never：从不）",
        "arg_only": "只运行产生这些类型问题的检查（逗号分隔，可重复）",
        "arg_players": "符号玩家槽位数（默认取规则的 bounds）",
        "arg_baseline": "以此 findings JSON 为基线：标出新问题与已知问题，只对新问题失败；基线中的对局仍成立时沿用",
        "arg_lang": "输出语言", "arg_output": "写入此文件而不是标准输出",
        "arg_quiet": "不显示进度；文本报告只列问题与结尾一行结果",
        "arg_progress": "stderr 不是终端时也显示进度（逐行输出）",
        "arg_color": "文本报告的颜色（auto：仅在终端上且未设 NO_COLOR 时）",
        "arg_all": "逐条列出编码采用的假设（默认只列名称与数量）",
        "arg_details": "文本报告列出每条问题的完整场景（角色、步骤、结果）与编码位置（默认每条几行）",
        "arg_no_cache": "不使用增量缓存（默认复用未受修改影响的结论）",
        "arg_incremental": "兼容旧用法：增量缓存现已默认开启",
        "arg_kind": "检查类型（省略则全部说明）",
        "arg_baseline_check": "只检查 findings/ 是否过期，不写入", "arg_baseline_quiet": "不显示每个规则的进度",
        "arg_ids": "只处理这些内置规则（默认全部）",
        "arg_old": "旧版本：目录，或 REV:rulesets/<id>", "arg_new": "新版本：目录，或 REV:rulesets/<id>",
        "required": "缺少必需的参数：{args}", "unrecognized": "无法识别的参数：{args}",
        "expected_one": "需要一个值", "expected_at_most_one": "最多需要一个值", "expected_at_least_one": "至少需要一个值",
        "expected_n": "需要 {n} 个值", "ignored_explicit": "不接受值 {value}", "not_allowed_with": "不能与 {other} 同时使用",
        "ambiguous": "选项 {option} 有歧义，可能是：{matches}", "one_required": "需要以下之一：{args}",
        "invalid_value": "无效的值 {value}；可选：{allowed}", "unknown_command": "未知命令 {value}；可选：{allowed}",
        "players_range": "应为 {lo} 到 {hi} 之间的整数，而不是 {value}",
        "empty_list": "至少给出一个值；可选：{allowed}",
        "did_you_mean": "你是不是想用 {guess}？", "list_sep": "、", "sep": "：",
        "no_folder": "找不到规则目录", "not_a_ruleset": "不是规则目录：其中没有 ruleset.yaml",
        "not_ruleset_file": "不是规则目录，也不是 ruleset.yaml",
        "baseline_missing": "找不到基线文件", "baseline_unreadable": "无法读取基线（{reason}）",
        "baseline_not_findings": "不是 findings/v1 文档（基线应为 check --format json 的输出）",
        "baseline_foreign": "基线属于规则 {other}，而检查的是 {this}",
        "output_no_dir": "无法写入：目录 {dir} 不存在", "output_is_dir": "无法写入：这是一个目录",
        "cannot_write": "无法写入（{reason}）",
        "stale_encoding": "过期编码：{key} 所引用的原文已改变，但编码未更新",
        "baseline_stale": "过期：请运行 {prog} baseline", "wrote": "写入 {path}",
        "no_project": "这里没有内置规则（{root}/<id>/ruleset.yaml）：请在项目根目录运行 {prog} baseline",
        "unknown_id": "没有内置规则 {value}；可选：{allowed}",
        "interrupted": "已中断",
        "coverage": "{title}：段落 {mapped}/{passages} 已映射；技能 {semantic}/{skills} 完全语义化（{semantic_percent}%）",
        "coverage_opaque": "  不透明（opaque）：{name}", "coverage_unmapped": "  未映射：{name}",
    },
    "en": {
        "description": "Rule-conflict verifier for forum Werewolf variants (版杀): contradictions, undefined "
                       "resolution orders, endless loops, impossible wins and more.",
        "usage": "usage: ", "positionals": "positional arguments", "options": "options", "commands": "commands",
        "help": "show this help and exit", "version": "show the version and exit",
        "usage_error": "usage error: ", "error": "error", "note": "note",
        "cmd_check": "check a ruleset folder", "cmd_coverage": "how much of the ruleset is encoded",
        "cmd_explain": "explain a kind of check", "cmd_schema": "print the JSON Schema of ruleset.yaml",
        "cmd_baseline": "regenerate findings/ for every bundled ruleset (--check: only tell whether it is stale)",
        "cmd_diff": "compare two versions (folders, or git versions REV:rulesets/<id>)",
        "cmd_faq": "generate the FAQ",
        "arg_ruleset": "ruleset folder rulesets/<id> (or its ruleset.yaml)",
        "arg_format": "output format", "arg_format_check": "output format (text: a report to read; short: one "
                                                         "line per finding, path:line: severity kind message, "
                                                         "for scripts and editors)",
        "arg_fail_on": "findings of this severity or worse make the exit code 1 (never: never)",
        "arg_only": "run only the checks that report these kinds (comma-separated, repeatable)",
        "arg_players": "symbolic player slots (default: the ruleset's bounds)",
        "arg_baseline": "compare with this findings JSON: mark findings new or known, fail on new ones only; its games are kept while they still hold",
        "arg_lang": "output language", "arg_output": "write to this file instead of standard output",
        "arg_quiet": "no progress; the text report lists findings and one closing line only",
        "arg_progress": "show progress even when stderr is not a terminal (plain lines)",
        "arg_color": "colour of the text report (auto: only on a terminal without NO_COLOR)",
        "arg_all": "list every assumption of the encoding (default: names and count only)",
        "arg_details": "text report: each finding's whole scenario (cast, steps, results) and encoding locations "
                       "(default: a few rows each)",
        "arg_no_cache": "do not use the incremental cache (default: reuse answers an edit did not affect)",
        "arg_incremental": "kept for compatibility: the incremental cache is now on by default",
        "arg_kind": "kind of check (all when omitted)",
        "arg_baseline_check": "only check whether findings/ is stale; write nothing",
        "arg_baseline_quiet": "no progress per ruleset", "arg_ids": "only these bundled rulesets (default: all)",
        "arg_old": "old version: a folder, or REV:rulesets/<id>", "arg_new": "new version: a folder, or REV:rulesets/<id>",
        "required": "missing required arguments: {args}", "unrecognized": "unrecognized arguments: {args}",
        "expected_one": "expects one value", "expected_at_most_one": "expects at most one value",
        "expected_at_least_one": "expects at least one value", "expected_n": "expects {n} values",
        "ignored_explicit": "takes no value ({value})", "not_allowed_with": "not allowed with {other}",
        "ambiguous": "ambiguous option {option}: could be {matches}", "one_required": "one of these is required: {args}",
        "invalid_value": "invalid value {value}; allowed: {allowed}",
        "unknown_command": "unknown command {value}; allowed: {allowed}",
        "players_range": "expects a whole number from {lo} to {hi}, not {value}",
        "empty_list": "give at least one value; allowed: {allowed}",
        "did_you_mean": "did you mean {guess}?", "list_sep": ", ", "sep": ": ",
        "no_folder": "no such ruleset folder", "not_a_ruleset": "not a ruleset folder: it has no ruleset.yaml",
        "not_ruleset_file": "neither a ruleset folder nor a ruleset.yaml",
        "baseline_missing": "no such baseline file", "baseline_unreadable": "cannot read the baseline ({reason})",
        "baseline_not_findings": "not a findings/v1 document (a baseline is the output of check --format json)",
        "baseline_foreign": "the baseline is of ruleset {other}, the check is of {this}",
        "output_no_dir": "cannot write: the folder {dir} does not exist", "output_is_dir": "cannot write: it is a folder",
        "cannot_write": "cannot write ({reason})",
        "stale_encoding": "stale encoding: the passage {key} cites has changed, its encoding has not",
        "baseline_stale": "stale: run {prog} baseline", "wrote": "wrote {path}",
        "no_project": "no bundled rulesets here ({root}/<id>/ruleset.yaml): run {prog} baseline in the project's folder",
        "unknown_id": "no bundled ruleset {value}; allowed: {allowed}",
        "interrupted": "interrupted",
        "coverage": "{title}: passages {mapped}/{passages} mapped; skills {semantic}/{skills} fully semantic "
                    "({semantic_percent}%)",
        "coverage_opaque": "  opaque: {name}", "coverage_unmapped": "  unmapped: {name}",
    },
}


def t(lang: str, key: str, /, **kw) -> str:
    return MESSAGES["en" if lang == "en" else "zh"][key].format(**kw)


def choices_text(lang: str, allowed) -> str:
    return t(lang, "list_sep").join(allowed)


def did_you_mean(lang: str, value: str, allowed) -> str:
    """' 你是不是想用 X？' for the closest allowed value, or ''."""
    guess = difflib.get_close_matches(value, list(allowed), n=1, cutoff=0.6)
    if not guess:
        return ""
    return ("; " if lang == "en" else "；") + t(lang, "did_you_mean", guess=guess[0])


def invalid(lang: str, value: str, allowed, key: str = "invalid_value") -> str:
    return t(lang, key, value=value, allowed=choices_text(lang, allowed)) + did_you_mean(lang, value, allowed)


_ARGPARSE = [   # argparse's English messages (Python 3.10-3.13) -> our keys
    (r"the following arguments are required: (?P<args>.*)", "required"),
    (r"unrecognized arguments: (?P<args>.*)", "unrecognized"),
    (r"ambiguous option: (?P<option>\S+) could match (?P<matches>.*)", "ambiguous"),
    (r"one of the arguments (?P<args>.*) is required", "one_required"),
    (r"expected one argument", "expected_one"),
    (r"expected at most one argument", "expected_at_most_one"),
    (r"expected at least one argument", "expected_at_least_one"),
    (r"expected (?P<n>\d+) arguments?", "expected_n"),
    (r"ignored explicit argument (?P<value>.*)", "ignored_explicit"),
    (r"not allowed with argument (?P<other>.*)", "not_allowed_with"),
]


def translate_argparse(lang: str, message: str, commands=(), options=()) -> str:
    """argparse's message in our language; commands: the subcommand names (for 'did you mean');
    options: the option strings of the command being parsed."""
    m = re.fullmatch(r"argument (?P<name>.+?): (?P<inner>.*)", message, re.S)
    if m:
        name, inner = m.group("name"), m.group("inner")
        choice = re.fullmatch(r"invalid choice: '?(?P<value>.*?)'? \(choose from (?P<allowed>.*)\)", inner, re.S)
        if choice:
            allowed = re.findall(r"'([^']*)'", choice.group("allowed")) or \
                [x.strip() for x in choice.group("allowed").split(",")]
            if set(allowed) == set(commands):
                return invalid(lang, choice.group("value"), allowed, "unknown_command")
            return name + t(lang, "sep") + invalid(lang, choice.group("value"), allowed)
        return name + t(lang, "sep") + _simple(lang, inner)
    out = _simple(lang, message)
    if message.startswith("unrecognized arguments:"):
        for word in message.split(":", 1)[1].split():
            if word.startswith("-"):
                hint = did_you_mean(lang, word.split("=")[0], options)
                if hint:
                    return out + hint
    return out


def _simple(lang: str, message: str) -> str:
    for pattern, key in _ARGPARSE:
        m = re.fullmatch(pattern, message, re.S)
        if m:
            return t(lang, key, **m.groupdict())
    return message   # one of ours (already in the language), or a message we do not know
