"""Entry point for pre-commit: check only the ruleset folders the commit touches (a changed
ruleset.yaml or source.txt), reusing the cache for what the change cannot affect, and print
one line per finding."""
from __future__ import annotations

import os
import sys

from .cli import main as cli_main

RULESET_FILES = ("ruleset.yaml", "source.txt")


def changed_folders(files: list[str]) -> list[str]:
    """Ruleset folders (holding a ruleset.yaml) of the changed files, in a stable order."""
    folders = {os.path.dirname(f) or "." for f in files if os.path.basename(f) in RULESET_FILES}
    return sorted(d for d in folders if os.path.isfile(os.path.join(d, "ruleset.yaml")))


def check_args(folder: str, passthrough: list[str]) -> list[str]:
    from .reports import WRITERS
    fmt = "short" if "short" in WRITERS else "text"
    return ["check", folder, "--format", fmt, "--quiet", *passthrough]


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    # pre-commit passes the hook's args first, then the file names; flags and their values
    # (--fail-on warning) go to `check`, other changed files are not ours
    files, passthrough = [], []
    for i, a in enumerate(args):
        if a.startswith("-") or (i and args[i - 1].startswith("--") and os.path.basename(a) not in RULESET_FILES):
            passthrough.append(a)
        elif os.path.basename(a) in RULESET_FILES:
            files.append(a)
    worst = 0
    for folder in changed_folders(files):
        sys.stdout.flush()
        worst = max(worst, cli_main(check_args(folder, passthrough)))
    return worst


if __name__ == "__main__":
    raise SystemExit(main())
