"""Where the encoding reads an ambiguity: {reading: [name, option]} in a condition, filter or effect."""
from __future__ import annotations


def reads_reading(x, name: str) -> bool:
    """The encoded text x (a condition, filter, effect…) reads the ambiguity."""
    if isinstance(x, dict):
        r = x.get("reading")
        if isinstance(r, (list, tuple)) and r and r[0] == name:
            return True
        return any(reads_reading(v, name) for v in x.values())
    return isinstance(x, (list, tuple)) and any(reads_reading(v, name) for v in x)
