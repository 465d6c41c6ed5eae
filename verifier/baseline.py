"""Regenerate (or verify) the committed findings of every bundled ruleset."""
from __future__ import annotations

import json
import os
from contextlib import nullcontext
from typing import Callable, ContextManager

from models.loader import load_ruleset

from .engine import check
from .reports import WRITERS

OUTPUTS = (("json", ".json"), ("md", ".md"))


def bundled(root: str = "rulesets") -> list[str]:
    return sorted(d for d in os.listdir(root) if os.path.isfile(os.path.join(root, d, "ruleset.yaml")))


def render(ruleset_dir: str, progress=None, earlier: str | None = None) -> dict[str, str]:
    """Every committed artefact of one ruleset: suffix -> text. earlier: the committed
    findings JSON, whose games are asked for first (a story stays while it holds)."""
    rs = load_ruleset(ruleset_dir)
    before = None
    if earlier and os.path.exists(earlier):
        try:
            with open(earlier, encoding="utf-8") as fh:
                before = json.load(fh)
        except (OSError, ValueError):
            before = None   # unreadable: every game is searched for afresh
    report = check(rs, progress=progress, earlier=before)
    out = {}
    for fmt, suffix in OUTPUTS:
        writer = WRITERS.get(fmt)
        if writer is not None:
            out[suffix] = writer(report)
    from .faq import faq_documents
    for suffix, text in faq_documents(rs, report).items():
        out[suffix] = text
    return out


def regenerate(root: str = "rulesets", dest: str = "findings", verify: bool = False,
               say: Callable[[str], None] = print, only: list[str] | None = None,
               progress: Callable[[str], ContextManager] | None = None) -> list[str]:
    """Write findings/<id>.* (or, with verify, list the stale ones); only: these ids;
    progress(title): a progress display (verifier.progress.Progress) around each ruleset's check;
    say(path): told each path written."""
    stale = []
    ids = [rid for rid in bundled(root) if not only or rid in only]
    for n, rid in enumerate(ids, 1):
        with progress(f"{rid} ({n}/{len(ids)})") if progress else nullcontext() as shown:
            rendered = render(os.path.join(root, rid), shown, os.path.join(dest, rid + ".json"))
        for suffix, text in rendered.items():
            path = os.path.join(dest, rid + suffix)
            current = open(path, encoding="utf-8").read() if os.path.exists(path) else None
            if current != text:
                stale.append(path)
                if not verify:
                    os.makedirs(dest, exist_ok=True)   # --check writes nothing
                    with open(path, "w", encoding="utf-8") as fh:
                        fh.write(text)
                    say(path)
    return stale
