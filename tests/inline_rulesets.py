"""Load a ruleset written inline in a test (a dict), through the real loader."""
from __future__ import annotations

import os
import tempfile

import yaml

from models.loader import load_ruleset


def load_inline(raw: dict, source: str):
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "ruleset.yaml"), "w", encoding="utf-8") as fh:
            fh.write(yaml.safe_dump(raw, allow_unicode=True, sort_keys=False))
        with open(os.path.join(d, "source.txt"), "w", encoding="utf-8") as fh:
            fh.write(source)
        return load_ruleset(d)
