"""The change gate: compare two versions of a ruleset by their findings and by what each
changed skill does to its interactions; detect encodings whose cited passage changed."""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import tempfile
from dataclasses import dataclass, field, replace

from models.domain import Ruleset
from models.loader import load_ruleset

from .findings import Finding, Location, Report


@dataclass
class Diff:
    introduced: list[Finding] = field(default_factory=list)
    resolved: list[Finding] = field(default_factory=list)
    changed: list[tuple[Finding, Finding]] = field(default_factory=list)
    skills_changed: list[str] = field(default_factory=list)
    # (change, skill name, finding before, finding after): what each changed skill did to its
    # interactions; change is one of INTERACTION_TEXT's keys
    notes: list[tuple[str, str, Finding | None, Finding | None]] = field(default_factory=list)
    stale: list[str] = field(default_factory=list)

    @property
    def interactions(self) -> list[str]:
        """The notes in Chinese (the `diff --format json` field)."""
        return interaction_lines(self, "zh")


def materialize(spec: str, workdir: str) -> str:
    """A ruleset folder for SPEC: a path, or REV:path read from git."""
    if os.path.isdir(spec) or ":" not in spec:
        return spec
    rev, path = spec.split(":", 1)
    out = os.path.join(workdir, rev.replace("/", "_").replace("~", "_"))
    os.makedirs(out, exist_ok=True)
    for name in ("ruleset.yaml", "source.txt"):
        blob = subprocess.run(["git", "show", f"{rev}:{path.rstrip('/')}/{name}"], capture_output=True)
        if blob.returncode != 0:
            raise FileNotFoundError(f"{spec}: git 中找不到 {name}（{blob.stderr.decode(errors='replace').strip()}）")
        with open(os.path.join(out, name), "wb") as fh:
            fh.write(blob.stdout)
    return out


def passage_digests(rs: Ruleset) -> dict[str, str]:
    """element -> digest of the source lines it cites (for stale-encoding detection)."""
    out = {}
    for s in rs.skills:
        out[f"skill:{s.uid}"] = _digest(rs, s.where.src)
    for r in rs.roles.values():
        out[f"role:{r.name}"] = _digest(rs, r.where.src)
    for f in rs.factions.values():
        out[f"faction:{f.name}"] = _digest(rs, f.where.src)
    for st in rs.statuses.values():
        out[f"status:{st.name}"] = _digest(rs, st.where.src)
    return dict(sorted(out.items()))


def _digest(rs: Ruleset, lines: tuple[int, ...]) -> str:
    text = "\n".join(rs.source_lines[n - 1] if 0 < n <= len(rs.source_lines) else "" for n in lines)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def skill_encoding(rs: Ruleset) -> dict[str, str]:
    """skill uid -> canonical text of its encoding (what changed between versions)."""
    out = {}
    for path_key, raw in _raw_skills(rs):
        out[path_key] = json.dumps(raw, ensure_ascii=False, sort_keys=True)
    return out


def _raw_skills(rs: Ruleset):
    for r in rs.raw["roles"]:
        for s in r.get("skills") or []:
            yield f"{r['name']}/{s['name']}", {k: v for k, v in s.items() if k != "src"}
    for s in rs.raw.get("skills") or []:
        owner = "+".join(str(v) for _, v in sorted((s.get("owner") or {}).items()))
        yield f"{owner}/{s['name']}", {k: v for k, v in s.items() if k != "src"}


def fingerprints(rs: Ruleset) -> dict[str, dict[str, str]]:
    """element -> digests of its cited passage and of its encoding (kept in the baseline)."""
    enc = skill_encoding(rs)
    out = {}
    for key, digest in passage_digests(rs).items():
        uid = key.split(":", 1)[1]
        code = enc.get(uid, "") if key.startswith("skill:") else ""
        out[key] = {"text": digest, "encoding": hashlib.sha256(code.encode("utf-8")).hexdigest()[:12]}
    return out


def stale_against(baseline: dict, rs: Ruleset) -> list[str]:
    """Elements whose cited passage changed since the baseline while their encoding did not."""
    old = baseline.get("passages") or {}
    now = fingerprints(rs)
    return sorted(k for k, v in now.items() if k in old and old[k]["text"] != v["text"]
                  and old[k]["encoding"] == v["encoding"])


def stale_elements(old: Ruleset, new: Ruleset) -> list[str]:
    """Elements whose encoding is unchanged while the passage they cite changed."""
    old_d, new_d = passage_digests(old), passage_digests(new)
    old_enc, new_enc = skill_encoding(old), skill_encoding(new)
    out = []
    for key, digest in new_d.items():
        if key in old_d and old_d[key] != digest:
            uid = key.split(":", 1)[1]
            if key.startswith("skill:") and old_enc.get(uid) != new_enc.get(uid):
                continue  # the encoding was updated along with the text
            out.append(key)
    return out


def compare(old_dir: str, new_dir: str) -> tuple[Diff, Report, Report]:
    with tempfile.TemporaryDirectory() as tmp:
        old_path, new_path = materialize(old_dir, os.path.join(tmp, "old")), materialize(new_dir, os.path.join(tmp, "new"))
        old_rs, new_rs = load_ruleset(old_path), load_ruleset(new_path)
        from .engine import check
        old_rep, new_rep = check(old_rs), check(new_rs)
    # a version read from git lives in a temporary folder: name its files as REV:path instead
    for rep, path, spec in ((old_rep, old_path, old_dir), (new_rep, new_path, new_dir)):
        if path != spec:
            rep.findings = [_relocated(f, path, spec.rstrip("/")) for f in rep.findings]
    d = Diff()
    rid = new_rs.id
    old_by = {f.stable_id(old_rs.id): f for f in old_rep.findings}
    new_by = {f.stable_id(rid): f for f in new_rep.findings}
    d.introduced = [new_by[k] for k in sorted(new_by) if k not in old_by]
    d.resolved = [old_by[k] for k in sorted(old_by) if k not in new_by]
    for k in sorted(set(old_by) & set(new_by)):
        a, b = old_by[k], new_by[k]
        if (a.severity, a.verdict, a.scenario) != (b.severity, b.verdict, b.scenario):
            d.changed.append((a, b))
    old_enc, new_enc = skill_encoding(old_rs), skill_encoding(new_rs)
    d.skills_changed = sorted(k for k in set(old_enc) | set(new_enc) if old_enc.get(k) != new_enc.get(k))
    for uid in d.skills_changed:
        name = uid.split("/", 1)[1]
        before = [f for f in old_rep.findings if name in f.subjects]
        after = [f for f in new_rep.findings if name in f.subjects]
        if not before and not after:
            d.notes.append(("none", name, None, None))
        d.notes += [("new", name, None, f) for f in after if f.stable_id(rid) not in old_by]
        d.notes += [("gone", name, f, None) for f in before if f.stable_id(old_rs.id) not in new_by]
        d.notes += [("changed", name, a, b) for a, b in d.changed if name in b.subjects]
    d.stale = stale_elements(old_rs, new_rs)
    return d, old_rep, new_rep


def _relocated(f: Finding, folder: str, spec: str) -> Finding:
    locs = tuple(Location(spec + loc.file[len(folder):], loc.line) if loc.file.startswith(folder) else loc
                 for loc in f.locations)
    return replace(f, locations=locs)


RENDER_TEXT = {
    "zh": {"summary": "新增 {introduced}，解决 {resolved}，改变 {changed}；修改的技能 {skills}；过期编码 {stale}",
           "interaction": "  交互 ", "none": "【{name}】：修改未改变任何交互的结果", "new": "【{name}】新增：{message}{after}",
           "gone": "【{name}】消失：{message}", "changed": "【{name}】结果改变：{before} → {after}",
           "outcomes": "（{list}）", "outcome_sep": "；"},
    "en": {"summary": "introduced {introduced}, resolved {resolved}, changed {changed}; skills changed {skills}; "
                      "stale encodings {stale}",
           "interaction": "  interaction ", "none": "[{name}]: the change alters no interaction",
           "new": "[{name}] new: {message}{after}", "gone": "[{name}] gone: {message}",
           "changed": "[{name}] outcome changed: {before} -> {after}", "outcomes": " ({list})", "outcome_sep": "; "},
}


def _outcomes(f: Finding | None, lang: str) -> str:
    text = RENDER_TEXT["en" if lang == "en" else "zh"]
    if f and f.scenario and f.scenario.get("outcomes"):
        return text["outcomes"].format(list=text["outcome_sep"].join(f.scenario["outcomes"]))
    return ""


def interaction_lines(d: Diff, lang: str) -> list[str]:
    from .reports.text_report import message_of
    text = RENDER_TEXT["en" if lang == "en" else "zh"]
    return [text[change].format(name=name, message=message_of(a or b, lang) if a or b else "",
                                before=_outcomes(a, lang), after=_outcomes(b, lang))
            for change, name, a, b in d.notes]


def render(d: Diff, lang: str = "zh") -> str:
    """One line per finding in the shape of `check`: file:line: 严重度 kind message."""
    from .cli_text import t
    text = RENDER_TEXT["en" if lang == "en" else "zh"]
    out = [text["summary"].format(introduced=len(d.introduced), resolved=len(d.resolved), changed=len(d.changed),
                                  skills=len(d.skills_changed), stale=len(d.stale))]
    for mark, found in (("+", d.introduced), ("-", d.resolved), ("~", [b for _, b in d.changed])):
        out += [f"{mark} {_line(f, lang)}" for f in found]
    out += [text["interaction"] + line for line in interaction_lines(d, lang)]
    out += ["! " + t(lang, "stale_encoding", key=key) for key in d.stale]
    return "\n".join(out) + "\n"


def _line(f: Finding, lang: str) -> str:
    from .reports.text_report import message_of, severity_text
    where = f"{f.locations[0].file}:{f.locations[0].line}: " if f.locations else ""
    return f"{where}{severity_text(f.severity, lang)} {f.kind} {message_of(f, lang)}"
