"""Load YAML into plain Python data while remembering the line of every node.

PyYAML's safe composer builds nodes with marks; we walk them ourselves so that no
tag can construct an arbitrary object (nothing in a ruleset is ever executed).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import yaml

from .load_text import Bi, msg

Path = tuple  # a JSON-pointer-like tuple of keys / indexes


@dataclass(frozen=True)
class LoadError(Exception):
    file: str
    line: int
    message: str           # Chinese, the default
    message_en: str = ""   # the same in English (--lang en)

    @classmethod
    def of(cls, file: str, line: int, text: Bi) -> "LoadError":
        return cls(file, line, text.zh, text.en)

    def text(self, lang: str) -> str:
        return self.message_en if lang == "en" and self.message_en else self.message

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.message}"


_SAFE = yaml.constructor.SafeConstructor()
_PLAIN_TAGS = {f"tag:yaml.org,2002:{t}" for t in ("str", "int", "float", "bool", "null", "seq", "map", "timestamp")}


def _scalar(node: yaml.ScalarNode) -> Any:
    # The safe constructor only knows plain types (str, int, float, bool, null, dates).
    value = _SAFE.construct_object(node)
    return value.isoformat() if hasattr(value, "isoformat") else value


def load_with_lines(text: str, file: str) -> tuple[Any, dict[Path, int]]:
    """Return (data, lines) where lines maps each node's path to its 1-based line."""
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark else 1
        problem = getattr(exc, "problem", None) or str(exc)
        raise LoadError.of(file, line, msg("yaml_syntax", problem=problem)) from None
    lines: dict[Path, int] = {}

    def walk(node: yaml.Node, path: Path) -> Any:
        lines[path] = node.start_mark.line + 1
        if node.tag not in _PLAIN_TAGS:
            # explicit tags could ask a loader to build objects; a ruleset is plain data only
            raise LoadError.of(file, lines[path], msg("yaml_tag", tag=node.tag))
        if isinstance(node, yaml.ScalarNode):
            return _scalar(node)
        if isinstance(node, yaml.SequenceNode):
            return [walk(child, path + (i,)) for i, child in enumerate(node.value)]
        if isinstance(node, yaml.MappingNode):
            out: dict[str, Any] = {}
            for key_node, value_node in node.value:
                if not isinstance(key_node, yaml.ScalarNode):
                    raise LoadError.of(file, key_node.start_mark.line + 1, msg("key_not_string"))
                key = str(key_node.value)
                if key in out:
                    raise LoadError.of(file, key_node.start_mark.line + 1, msg("duplicate_key", key=key))
                out[key] = walk(value_node, path + (key,))
            return out
        raise LoadError.of(file, lines[path], msg("unknown_node"))

    if root is None:
        raise LoadError.of(file, 1, msg("empty_file"))
    return walk(root, ()), lines


def line_of(lines: dict[Path, int], path: Path) -> int:
    """The line of the deepest known ancestor of path."""
    path = tuple(path)
    while path not in lines and path:
        path = path[:-1]
    return lines.get(path, 1)
