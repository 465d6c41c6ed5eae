"""Entry point for pre-commit: check each ruleset folder that a changed file belongs to."""
from __future__ import annotations

import os
import sys

from .cli import main as cli_main


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    files = [a for a in args if not a.startswith("-")]
    flags = [a for a in args if a.startswith("-")]
    # flags with a value (--fail-on error) are passed through as pairs
    passthrough: list[str] = []
    rest = list(args)
    while rest:
        a = rest.pop(0)
        if a.startswith("--") and rest and not rest[0].startswith("-") and not os.path.exists(rest[0]):
            passthrough += [a, rest.pop(0)]
        elif a.startswith("-"):
            passthrough.append(a)
    folders = sorted({os.path.dirname(f) or "." for f in files if f not in passthrough})
    worst = 0
    for folder in folders:
        if not os.path.isfile(os.path.join(folder, "ruleset.yaml")):
            continue
        code = cli_main(["check", folder, "--quiet", *passthrough])
        worst = max(worst, code)
    del flags
    return worst


if __name__ == "__main__":
    raise SystemExit(main())
