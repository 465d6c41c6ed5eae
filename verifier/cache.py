"""Incremental re-checking: answers keyed by what they depend on.

A key combines the world signature (everything global a realizable state depends on) with
the canonical encoding of the skills a question involves. After a one-skill edit only the
questions that involve that skill (or everything, when the edit changes the world
signature) are asked again.

The cache is one JSON document per ruleset id (never pickle: nothing read back is executed)
in the user's cache directory ($VERIFIER_CACHE, else $XDG_CACHE_HOME/bansha-verifier or
~/.cache/bansha-verifier), so a check writes nothing next to the files it reads. It carries
its format version and a digest of the verifier's own code: answers of another version are
ignored with a note, as is a corrupt file. Cached findings name ruleset.yaml lines; an edit
that moves lines is mapped through the element paths of the old and the new file.
"""
from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import sys
import tempfile
from typing import Any, Callable

from models.domain import Ruleset, Skill

CACHE_VERSION = 4
FORMAT = "bansha-verifier-cache"

NOTES = {
    "zh": {"corrupt": "注意：缓存 {path} 已损坏，已忽略并重新计算",
           "version": "注意：缓存 {path} 来自另一版本的验证器，已忽略并重新计算",
           "unwritable": "注意：无法写入缓存 {path}（{reason}），下次检查将重新计算"},
    "en": {"corrupt": "note: the cache {path} is corrupt; ignored, recomputing",
           "version": "note: the cache {path} is from another version of the verifier; ignored, recomputing",
           "unwritable": "note: cannot write the cache {path} ({reason}); the next check recomputes"},
}


def _h(obj: Any) -> str:
    return hashlib.sha256(json.dumps(obj, ensure_ascii=False, sort_keys=True, default=str).encode("utf-8")).hexdigest()[:20]


def skill_code(skill: Skill) -> Any:
    """The skill's whole encoding, source lines included: a cached finding cites them."""
    return {"name": skill.name, "owner": skill.owner_role or skill.owner, "timing": skill.timing,
            "tags": skill.tags, "uses": skill.uses, "charges": skill.charges, "cooldown": skill.cooldown,
            "targets": skill.targets, "trigger": skill.trigger, "static": skill.static, "src": skill.where.src,
            "condition": skill.condition, "effects": [(e.kind, e.args, e.guard, e.force) for e in skill.effects]}


def skill_digest(skill: Skill) -> str:
    return _h(skill_code(skill))


# The code that computes the answers (not the reports or the command line, which may change freely)
ANSWERING_CODE = ("models", "verifier/analyses", "verifier/engine.py", "verifier/cache.py", "verifier/findings.py",
                  "verifier/narrate.py")


@functools.lru_cache(maxsize=None)
def code_version() -> str:
    """Digest of the code that computes the answers and of the solver's version."""
    # the solver's version from its package metadata: only models/encoding imports z3
    from importlib.metadata import PackageNotFoundError, version
    try:
        solver_version = version("z3-solver")
    except PackageNotFoundError:
        solver_version = "unknown"
    h = hashlib.sha256(solver_version.encode())
    base = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    paths = []
    for part in ANSWERING_CODE:
        top = os.path.join(base, part)
        if os.path.isfile(top):
            paths.append(top)
        for dirpath, _, files in os.walk(top):
            if "__pycache__" not in dirpath:
                paths += [os.path.join(dirpath, f) for f in files if f.endswith(".py")]
    for path in sorted(paths):
        h.update(os.path.relpath(path, base).encode("utf-8"))
        with open(path, "rb") as fh:
            h.update(fh.read())
    return h.hexdigest()[:20]


def cache_dir() -> str:
    if os.environ.get("VERIFIER_CACHE"):
        return os.environ["VERIFIER_CACHE"]
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "bansha-verifier")


def world_signature(rs: Ruleset, world) -> str:
    raw = {k: v for k, v in rs.raw.items() if k not in ("skills", "roles", "faq", "externals", "terms", "readings",
                                                        "assumptions", "suppressions")}
    roles = [{k: v for k, v in r.items() if k != "skills"} for r in rs.raw["roles"]]
    produced = {k: sorted(map(str, v)) for k, v in world.produced.items()}
    return _h({"v": CACHE_VERSION, "raw": raw, "roles": roles, "produced": produced, "k": world.k})


def yaml_lines(rs: Ruleset) -> dict[str, int]:
    """Element -> its line in ruleset.yaml, to move cached locations after an edit. An element
    is named by its path with list positions replaced by names where it has one, so that
    inserting a role does not make the next role's line stand for the one after it."""
    from models.yaml_lines import load_with_lines
    try:
        with open(os.path.join(rs.root, "ruleset.yaml"), encoding="utf-8") as fh:
            data, lines = load_with_lines(fh.read(), rs.yaml_file)
    except Exception:  # the loader read it a moment ago; without a map, cached locations are dropped
        return {}
    out: dict[str, int] = {}
    twice: set[str] = set()
    for path, line in lines.items():
        node, named = data, []
        for step in path:
            try:
                node = node[step]
            except (KeyError, IndexError, TypeError):
                node = None
            name = node.get("name") if isinstance(step, int) and isinstance(node, dict) else None
            named.append(f"@{name}" if isinstance(name, str) else step)
        key = json.dumps(named, ensure_ascii=False)
        if key in out:
            twice.add(key)
        out[key] = line
    return {k: v for k, v in out.items() if k not in twice}


class Cache:
    def __init__(self, rs: Ruleset, world, root: str | None = None, lang: str = "zh",
                 note: Callable[[str], None] | None = None):
        self.rs = rs
        self.sig = world_signature(rs, world)
        name = re.sub(r"[^\w.-]", "_", rs.id) or "_"
        self.path = os.path.join(root or cache_dir(), f"{name}.json")
        self.notes = NOTES["en" if lang == "en" else "zh"]
        self.note = note or (lambda text: print(text, file=sys.stderr))
        self.lines = yaml_lines(rs)
        self.old: dict[str, Any] = self._read()
        self.new: dict[str, Any] = {}
        self.hits = 0
        self.misses = 0

    def __getstate__(self) -> dict:
        # sent to the second process before this one adds answers; it returns its own
        return dict(self.__dict__, new={}, note=None, hits=0, misses=0)

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self.note = lambda text: print(text, file=sys.stderr)

    def _read(self) -> dict[str, Any]:
        if not os.path.exists(self.path):
            return {}
        try:
            with open(self.path, encoding="utf-8") as fh:
                doc = json.load(fh)
        except (OSError, ValueError):
            self.note(self.notes["corrupt"].format(path=self.path))
            return {}
        if isinstance(doc, dict) and (doc.get("format") != FORMAT or doc.get("version") != CACHE_VERSION
                                      or doc.get("code") != code_version()):
            self.note(self.notes["version"].format(path=self.path))
            return {}
        if not (isinstance(doc, dict) and isinstance(doc.get("entries"), dict) and isinstance(doc.get("lines"), dict)
                and isinstance(doc.get("files"), dict)):
            self.note(self.notes["corrupt"].format(path=self.path))
            return {}
        return self._moved(doc)

    def _moved(self, doc: dict) -> dict[str, Any]:
        """The entries with their locations in this version of the files; entries citing a
        ruleset.yaml line that no longer belongs to the same element are dropped."""
        targets: dict[int, set[int]] = {}
        for path, line in doc["lines"].items():
            if path in self.lines:
                targets.setdefault(line, set()).add(self.lines[path])
        # a line whose elements went apart, or all went, stands for nothing now
        moved = {line: next(iter(now)) for line, now in targets.items() if len(now) == 1}
        files = {doc["files"].get("yaml"): (self.rs.yaml_file, moved), doc["files"].get("source"): (self.rs.source_file, None)}

        class Gone(Exception):
            pass

        def walk(x):
            if isinstance(x, list):
                return [walk(v) for v in x]
            if not isinstance(x, dict):
                return x
            out = {k: walk(v) for k, v in x.items()}
            locs = out.get("locations")
            if isinstance(locs, list) and all(isinstance(loc, dict) and "file" in loc for loc in locs):
                new_locs = []
                for loc in locs:
                    file, lines = files.get(loc["file"], (loc["file"], None))
                    line = loc.get("line")
                    if lines is not None:
                        line = lines.get(line)
                        if line is None:
                            raise Gone
                    new_locs.append(dict(loc, file=file, line=line))
                out["locations"] = new_locs
            return out

        entries = {}
        for key, value in doc["entries"].items():
            try:
                entries[key] = walk(value)
            except Gone:
                continue
        return entries

    def key(self, purpose: str, skills: list[Skill], extra: Any = None, global_skills: bool = False) -> str:
        codes = [skill_code(s) for s in skills]
        if global_skills:
            codes = [skill_code(s) for s in self.rs.skills]
        return _h({"sig": self.sig, "p": purpose, "skills": codes, "extra": extra})

    def get(self, key: str) -> Any:
        if key in self.old:
            self.hits += 1
            self.new[key] = self.old[key]
            return self.old[key]
        self.misses += 1
        return None

    def put(self, key: str, value: Any) -> None:
        self.new[key] = value

    def absorb(self, entries: dict[str, Any] | None) -> None:
        """The answers the other process cached."""
        self.new.update(entries or {})

    def save(self) -> None:
        doc = {"format": FORMAT, "version": CACHE_VERSION, "code": code_version(),
               "files": {"yaml": self.rs.yaml_file, "source": self.rs.source_file},
               "lines": self.lines, "entries": self.new}
        folder = os.path.dirname(self.path)
        try:
            os.makedirs(folder, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-", suffix=".json")
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as fh:
                    json.dump(doc, fh, ensure_ascii=False)
                os.replace(tmp, self.path)   # atomic: a concurrent check reads the old or the new file
            except BaseException:
                os.unlink(tmp)
                raise
        except OSError as exc:
            self.note(self.notes["unwritable"].format(path=self.path, reason=exc.strerror or exc))
