"""The md, sarif and html writers on a real check of rulesets/s11."""
from __future__ import annotations

import html
import json
import os
import re
import subprocess
from dataclasses import replace

import pytest

from models.loader import load_ruleset
from verifier.analyses import by_kind
from verifier.engine import check
from verifier.findings import Finding, Location, Report, sort_key
from verifier.reports import WRITERS
from verifier.reports.graph import graph_for_report, interaction_graph
from verifier.reports.html import write_html
from verifier.reports.markdown import inline, write_markdown
from verifier.reports.sarif import write_sarif

CHROMIUM = "/usr/bin/chromium"


@pytest.fixture(scope="module")
def rs():
    return load_ruleset("rulesets/s11")


@pytest.fixture(scope="module")
def report(rs) -> Report:
    return check(rs)


@pytest.fixture(scope="module")
def doc(report) -> dict:
    return report.to_json()


@pytest.fixture(scope="module")
def extended(report) -> Report:
    """s11 plus a loop, a skill-vs-status contradiction and a suppressed finding, which s11 lacks."""
    loc = (Location("rulesets/s11/source.txt", 60), Location("rulesets/s11/ruleset.yaml", 100))
    loop = Finding(kind="loop", severity="error", verdict="witnessed", subjects=("殉情", "流弹"),
                   message="触发链 【流弹】 → 【殉情】 → 【流弹】 可以无限循环。", locations=loc,
                   key=("情侣/殉情", "猎人/流弹"))
    contra = Finding(kind="contradiction", severity="error", verdict="witnessed", subjects=("流弹", "免疫杀人"),
                     message="【流弹】写明必定使目标出局，而[免疫杀人]写明持有者无法出局 * a|b <x>。",
                     locations=loc[:1], key=("猎人/流弹", "免疫杀人"))
    hidden = replace(report.findings[0], suppressed="作者确认：按官方解释处理")
    return Report(ruleset=report.ruleset, bounds=report.bounds,
                  findings=[*report.findings[1:], loop, contra, hidden], coverage=report.coverage)


def test_writers_registered() -> None:
    assert WRITERS["md"] is write_markdown and WRITERS["sarif"] is write_sarif and WRITERS["html"] is write_html


def test_markdown_has_every_finding(report, doc) -> None:
    md = write_markdown(report)
    assert md.startswith("# 验证报告：")
    assert "## 摘要" in md and "## 问题" in md
    problems = [f for f in doc["findings"] if f["kind"] != "assumption"]
    for f in problems:
        assert inline(f["message"]) in md   # a message may quote the post's <…> markup
        assert f"`{f['id']}`" in md
    # one entry per root cause (its first finding: every location); the others a line under it
    from verifier.reports.markdown import root_groups
    groups = root_groups([f for f in sorted(report.findings, key=sort_key) if f.kind != "assumption"])
    assert md.count("\n### ") == len(groups)
    for g in groups:
        for loc in g[0].locations:
            assert f"`{loc.file}:{loc.line}`" in md
    # assumptions: one short section naming each, complete in the JSON
    assumed = [f for f in doc["findings"] if f["kind"] == "assumption"]
    if assumed:
        section = md.split("## 编码采用的假设", 1)[1]
        assert all("、".join(f["subjects"]) in section for f in assumed)
        assert section.count("\n") < 10
    assert write_markdown(report) == md


def test_markdown_escapes_markup(extended) -> None:
    md = write_markdown(extended)
    assert r"\* a\|b \<x>" in md
    assert inline("a\nb") == "a b" and inline("# x") == r"\# x"
    assert "已抑制：作者确认：按官方解释处理" in md


def test_sarif_shape(report, doc) -> None:
    log = json.loads(write_sarif(report))
    assert log["version"] == "2.1.0" and len(log["runs"]) == 1
    run = log["runs"][0]
    assert run["automationDetails"] == {"id": "bansha-verifier/s11/"}
    driver = run["tool"]["driver"]
    assert driver["name"] == "bansha-verifier"
    kinds = by_kind()
    rule_ids = [r["id"] for r in driver["rules"]]
    assert len(set(rule_ids)) == len(rule_ids)
    assert set(rule_ids) == {f["kind"] for f in doc["findings"]}
    for rule in driver["rules"]:
        assert rule["shortDescription"]["text"] == kinds[rule["id"]].summary
        assert kinds[rule["id"]].summary in rule["help"]["text"] and rule["help"]["markdown"]
    levels = {"error": "error", "warning": "warning", "info": "note"}
    assert len(run["results"]) == len(doc["findings"])
    for res, f in zip(run["results"], doc["findings"]):
        assert res["ruleId"] in kinds and res["ruleId"] == f["kind"]
        assert driver["rules"][res["ruleIndex"]]["id"] == res["ruleId"]
        assert res["level"] == levels[f["severity"]]
        assert res["message"]["text"] == f["message"]
        assert res["partialFingerprints"] == {"findingId/v1": f["id"]}
        assert res["properties"]["verdict"] == f["verdict"] and res["properties"]["subjects"] == f["subjects"]
        assert len(res["locations"]) == 1
        assert _uris(res) == [(loc["file"], loc["line"]) for loc in f["locations"]]
        assert [r["id"] for r in res.get("relatedLocations", [])] == list(range(1, len(f["locations"])))
        assert "suppressions" not in res
    assert {u for res in run["results"] for u, _ in _uris(res)} == {"rulesets/s11/source.txt", "rulesets/s11/ruleset.yaml"}


def _uris(res: dict) -> list[tuple[str, int]]:
    return [(loc["physicalLocation"]["artifactLocation"]["uri"], loc["physicalLocation"]["region"]["startLine"])
            for loc in res["locations"] + res.get("relatedLocations", [])]


# What GitHub code scanning requires of an upload, as a subset of the SARIF 2.1.0 schema
# (the full schema is not available offline): per run a tool driver with rules, a category,
# results with a rule, a message, one primary physical location and well-formed related ones.
_PHYSICAL = {"type": "object", "required": ["physicalLocation"], "properties": {
    "id": {"type": "integer", "minimum": -1},
    "physicalLocation": {"type": "object", "required": ["artifactLocation"], "properties": {
        "artifactLocation": {"type": "object", "required": ["uri"], "properties": {"uri": {"type": "string"}}},
        "region": {"type": "object", "required": ["startLine"],
                   "properties": {"startLine": {"type": "integer", "minimum": 1}}}}}}}
_TEXT = {"type": "object", "required": ["text"], "properties": {"text": {"type": "string", "minLength": 1}}}
GITHUB_SARIF = {
    "type": "object", "required": ["version", "runs"],
    "properties": {"version": {"const": "2.1.0"}, "$schema": {"type": "string"}, "runs": {"type": "array", "items": {
        "type": "object", "required": ["tool", "results", "automationDetails"],
        "properties": {
            "automationDetails": {"type": "object", "required": ["id"], "properties": {"id": {"type": "string", "minLength": 1}}},
            "tool": {"type": "object", "required": ["driver"], "properties": {"driver": {
                "type": "object", "required": ["name", "rules"], "properties": {
                    "name": {"type": "string"}, "semanticVersion": {"type": "string"},
                    "rules": {"type": "array", "items": {
                        "type": "object", "required": ["id", "shortDescription", "help"], "properties": {
                            "id": {"type": "string"}, "shortDescription": _TEXT, "fullDescription": _TEXT,
                            "help": {"type": "object", "required": ["text"],
                                     "properties": {"text": {"type": "string"}, "markdown": {"type": "string"}}},
                            "defaultConfiguration": {"type": "object", "properties": {
                                "level": {"enum": ["none", "note", "warning", "error"]}}}}}}}}}},
            "results": {"type": "array", "items": {
                "type": "object", "required": ["ruleId", "message", "locations"], "properties": {
                    "ruleId": {"type": "string"}, "ruleIndex": {"type": "integer", "minimum": 0},
                    "level": {"enum": ["none", "note", "warning", "error"]}, "message": _TEXT,
                    "locations": {"type": "array", "minItems": 1, "maxItems": 1, "items": _PHYSICAL},
                    "relatedLocations": {"type": "array", "items": {**_PHYSICAL, "required": ["id", "physicalLocation"]}},
                    "partialFingerprints": {"type": "object", "additionalProperties": {"type": "string"}},
                    "baselineState": {"enum": ["new", "unchanged", "updated", "absent"]},
                    "suppressions": {"type": "array", "items": {
                        "type": "object", "required": ["kind"],
                        "properties": {"kind": {"enum": ["inSource", "external"]}}}}}}}}}}}}


def test_sarif_github_shape(report, extended) -> None:
    import jsonschema
    from verifier.reports.sarif import sarif_log
    log = sarif_log([report, replace(extended, ruleset={**extended.ruleset, "id": "other"})])
    jsonschema.validate(log, GITHUB_SARIF)
    # GitHub rejects several runs of one tool that share a category
    ids = [run["automationDetails"]["id"] for run in log["runs"]]
    assert ids == ["bansha-verifier/s11/", "bansha-verifier/other/"]
    for run in log["runs"]:
        for res in run["results"]:
            related = [r["id"] for r in res.get("relatedLocations", [])]
            assert len(related) == len(set(related))


def test_sarif_baseline_state(report) -> None:
    class Known(Report):
        def baseline_state(self, f):
            return "unchanged" if f.kind == "assumption" else "new"
    known = Known(ruleset=report.ruleset, bounds=report.bounds, findings=report.findings)
    run = json.loads(write_sarif(known))["runs"][0]
    assert {r["baselineState"] for r in run["results"] if r["ruleId"] == "assumption"} == {"unchanged"}
    assert {r["baselineState"] for r in run["results"] if r["ruleId"] != "assumption"} == {"new"}
    assert all("baselineState" not in r for r in json.loads(write_sarif(report))["runs"][0]["results"])


def test_sarif_suppression(extended) -> None:
    run = json.loads(write_sarif(extended))["runs"][0]
    hidden = [r for r in run["results"] if r["properties"]["suppressed"]]
    assert len(hidden) == 1
    assert hidden[0]["suppressions"] == [{"kind": "inSource", "justification": "作者确认：按官方解释处理"}]
    assert {"loop", "contradiction"} <= {r["id"] for r in run["tool"]["driver"]["rules"]}


def test_interaction_graph(rs, extended) -> None:
    g = interaction_graph(rs, extended)
    nodes = {n["id"]: n for n in g["nodes"]}
    assert sorted(n for n, v in nodes.items() if v["kind"] == "skill") == sorted(s.uid for s in rs.skills)
    assert {"source": "猎人/流弹", "target": "情侣/殉情", "event": "went_out"} in g["edges"]
    assert [lp["cycle"] for lp in g["loops"]] == [["情侣/殉情", "猎人/流弹"]]
    pairs = [(ln["source"], ln["target"], ln["kind"]) for ln in g["links"]]
    assert ("猎人/流弹", "status:免疫杀人", "contradiction") in pairs
    assert {("情侣/殉情", "猎人/流弹", "loop"), ("猎人/流弹", "情侣/殉情", "loop")} <= set(pairs)
    assert nodes["status:免疫杀人"]["kind"] == "status"
    # every skill sits in exactly one box, every box in one group; every faction has its group
    boxed = [s for gr in g["groups"] for b in gr["boxes"] for s in b["skills"]]
    assert sorted(boxed) == sorted(s.uid for s in rs.skills)
    assert {f"faction:{f}" for f in rs.factions} <= {gr["id"] for gr in g["groups"]}
    role_box = {s.uid: f"role:{s.owner_role}" for s in rs.skills if s.owner_role}
    assert all(nodes[uid]["box"] == box for uid, box in role_box.items())
    # every finding has a place: win findings at their faction, setup arithmetic at the whole ruleset
    rid = extended.ruleset["id"]
    assert set(g["anchors"]) == {f.stable_id(rid) for f in extended.findings}
    assert all(g["anchors"][f.stable_id(rid)] for f in extended.findings)
    for f in extended.findings:
        where = g["anchors"][f.stable_id(rid)]
        assert set(where) <= set(nodes)
        if f.kind == "impossible-win":
            assert where == [f"faction:{f.subjects[0]}"]
        if f.kind == "setup":
            assert where == ["rules"]
        if f.kind == "dead-rule":
            assert where == list(f.key[:1])   # the skill (one effect's finding adds the effect to its key)
    assert interaction_graph(rs, extended) == g


def _win_pair(report: Report) -> Report:
    """A simultaneous-win finding (s11 has none) to see that wins get a line between factions."""
    loc = (Location("rulesets/s11/source.txt", 117),)
    win = Finding(kind="simultaneous-win", severity="warning", verdict="witnessed", subjects=("吹笛阵营", "狼人阵营"),
                  message="吹笛阵营与狼人阵营的胜利条件可以同时成立。", locations=loc, key=("吹笛阵营", "狼人阵营"))
    return Report(ruleset=report.ruleset, bounds=report.bounds, findings=[*report.findings, win])


def test_win_findings_join_factions(rs, report) -> None:
    g = interaction_graph(rs, _win_pair(report))
    assert [(ln["source"], ln["target"]) for ln in g["links"] if ln["kind"] == "simultaneous-win"] == \
        [("faction:吹笛阵营", "faction:狼人阵营")]
    page = write_html(_win_pair(report), rs=rs)
    assert 'data-kinds="simultaneous-win"' in page


def test_html_findings_and_graph(rs, report, doc) -> None:
    page = write_html(report)
    assert page.startswith("<!DOCTYPE html>")
    assert page.count('class="finding"') == len(doc["findings"])
    for f in doc["findings"]:
        assert f'id="f-{f["id"]}"' in page and html.escape(f["message"], quote=False) in page
    assert 'id="graph"' in page and "<svg" in page
    assert page.count('class="node skill"') == len(rs.skills)
    graph = interaction_graph(rs, report)
    assert page.count('class="edge trigger"') == len(graph["edges"])
    assert 'id="all-edges"' in page and "显示全部交互" in page
    # no external assets: no remote URL, stylesheet link, import, or script file
    assert not re.search(r"""(src|href)=["']?(https?:)?//|<script[^>]*\ssrc=|<link|@import|url\((?!#)""", page)
    assert write_html(report) == page


def test_html_cards_quote_source_lines(rs, report) -> None:
    page = write_html(report)
    cards = dict(re.findall(r'<article class="finding" id="f-(\w+)".*?>(.*?)</article>', page, re.S))
    rid = report.ruleset["id"]
    for f in report.findings:
        card = cards[f.stable_id(rid)]
        cited = [loc.line for loc in f.locations if loc.file == rs.source_file]
        assert cited, f  # every s11 finding cites the post
        line = cited[0]
        assert f'<span class="ln">{line}</span>' in card
        assert html.escape(rs.source_lines[line - 1].strip()[:40], quote=False) in card


def test_html_yaml_locations_quote_their_element(rs, report) -> None:
    """A finding located only in ruleset.yaml quotes the source lines of the element there."""
    # any finding about one skill (s11 has no dead rule any more)
    about, skill = next((f, s) for f in report.findings if f.kind != "assumption" and f.subjects
                        for s in rs.skills if s.name == f.subjects[0] and s.where.src)
    only_yaml = replace(about, locations=(Location(rs.yaml_file, skill.where.yaml_line),))
    page = write_html(Report(ruleset=report.ruleset, bounds=report.bounds, findings=[only_yaml]), rs=rs)
    for line in skill.where.src:
        assert f'<span class="ln">{line}</span>' in page


def test_html_draws_conflicts_and_loops(rs, extended) -> None:
    page = write_html(extended, rs=rs)
    plain = write_html(replace(extended, findings=[f for f in extended.findings if f not in extended.findings[-3:-1]]), rs=rs)
    # the contradiction, and the loop's two directed edges, beside what s11's own findings draw
    assert page.count('<g class="link"') == plain.count('<g class="link"') + 3
    assert page.count('data-kinds="loop"') == 2 and page.count('data-kinds="contradiction"') == 1
    assert 'data-kind="status"' in page
    assert 'data-suppressed="true"' in page


def test_html_cards_name_their_nodes(rs, report) -> None:
    page = write_html(report, rs=rs)
    dom_ids = set(re.findall(r'data-node="(n\d+)"', page))
    for nodes in re.findall(r'data-nodes="([^"]*)"', page):
        assert nodes and set(nodes.split()) <= dom_ids


def test_html_without_ruleset_folder() -> None:
    lost = Report(ruleset={"id": "nope", "title": "无", "source": "rulesets/nope/source.txt"},
                  bounds={"players": 4, "depth": 3, "rlimit": 1}, findings=[])
    assert graph_for_report(lost) is None
    page = write_html(lost)
    assert "<svg" not in page and 'id="graph-missing"' in page and 'class="finding"' not in page


@pytest.mark.parametrize("fmt", ["md", "sarif", "html"])
def test_cli_formats(fmt, report, tmp_path, monkeypatch) -> None:
    import verifier.engine
    from verifier.cli import main
    monkeypatch.setattr(verifier.engine, "check", lambda *a, **k: report)
    out = tmp_path / f"report.{fmt}"
    assert main(["check", "rulesets/s11", "--format", fmt, "-o", str(out)]) == 1
    assert out.read_text(encoding="utf-8") == WRITERS[fmt](report, lang="zh")


def _chromium(tmp_path, *args: str) -> subprocess.CompletedProcess:
    cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
           "--disable-background-networking", "--disable-component-update", "--disable-sync",
           f"--user-data-dir={tmp_path / 'profile'}", "--window-size=1400,1000", *args]
    return subprocess.run(cmd, capture_output=True, text=True, encoding="utf-8", timeout=90)


def test_html_in_headless_chromium(rs, report, doc, tmp_path) -> None:
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"{CHROMIUM} not installed")
    page = tmp_path / "report.html"
    page.write_text(write_html(report), encoding="utf-8")
    done = _chromium(tmp_path, "--dump-dom", page.as_uri())
    dom = done.stdout
    assert done.returncode == 0, done.stderr[-2000:]
    assert dom.count('class="finding') == len(doc["findings"])
    for f in doc["findings"]:
        assert f'id="f-{f["id"]}"' in dom and html.escape(f["message"], quote=False) in dom
    assert 'id="graph"' in dom and dom.count('class="node skill') == len(rs.skills)
    # the script ran: the filter line names how many cards it shows (info hidden at first)
    shown = sum(1 for f in doc["findings"] if f["severity"] != "info")
    assert re.search(rf'id="filter-status">[^<]*{shown}', dom), re.search(r'id="filter-status">[^<]*', dom)
    shot = tmp_path / "report.png"
    done = _chromium(tmp_path, f"--screenshot={shot}", page.as_uri())
    assert done.returncode == 0 and shot.exists(), done.stderr[-2000:]
    assert shot.stat().st_size > 30_000   # a blank page is a few kilobytes
    assert len(_colours(shot.read_bytes())) >= 8
    # selecting a node (as a click does; #select= does it on load) leaves only its cards
    win = next(f for f in report.findings if f.kind == "impossible-win")
    node = re.search(r'<g class="node head" data-node="(n\d+)" data-kind="faction"><title>' + win.subjects[0], dom)[1]
    picked = _chromium(tmp_path, "--dump-dom", page.as_uri() + "#select=" + node).stdout
    visible = [a for a in re.findall(r"<article [^>]*>", picked) if 'hidden=""' not in a]
    assert [re.search(r'data-id="(\w+)"', a)[1] for a in visible] == [win.stable_id(report.ruleset["id"])]
    assert 'class="node head sel"' in picked


def _colours(png: bytes) -> set[tuple[int, ...]]:
    """The distinct colours of a PNG (8-bit RGB or RGBA, as Chromium writes), sampled every few pixels."""
    import struct
    import zlib
    pos, chunks, width = 8, [], 0
    channels = 3
    while pos < len(png):
        (n,), kind = struct.unpack(">I", png[pos:pos + 4]), png[pos + 4:pos + 8]
        data = png[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            width, _, depth, ctype = struct.unpack(">IIBB", data[:10])
            assert depth == 8 and ctype in (2, 6), (depth, ctype)
            channels = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            chunks.append(data)
        pos += 12 + n
    raw = zlib.decompress(b"".join(chunks))
    stride = width * channels
    seen: set[tuple[int, ...]] = set()
    prev = bytearray(stride)
    for row in range(len(raw) // (stride + 1)):
        line = raw[row * (stride + 1):(row + 1) * (stride + 1)]
        cur = _unfilter(line[0], bytearray(line[1:]), prev, channels)
        if row % 7 == 0:
            seen |= {tuple(cur[i:i + 3]) for i in range(0, stride, channels * 5)}
        prev = cur
    return seen


def _unfilter(ftype: int, cur: bytearray, prev: bytearray, bpp: int) -> bytearray:
    for i in range(len(cur)):
        a = cur[i - bpp] if i >= bpp else 0
        b = prev[i]
        c = prev[i - bpp] if i >= bpp else 0
        if ftype == 1:
            cur[i] = (cur[i] + a) & 255
        elif ftype == 2:
            cur[i] = (cur[i] + b) & 255
        elif ftype == 3:
            cur[i] = (cur[i] + (a + b) // 2) & 255
        elif ftype == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            cur[i] = (cur[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    return cur


def test_ci_example_uploads_sarif_per_ruleset() -> None:
    import yaml
    from verifier.reports.sarif import category
    steps = yaml.safe_load(open("examples/ruleset-ci.yml", encoding="utf-8"))["jobs"]["verify"]["steps"]
    check = next(s for s in steps if "--format sarif" in s.get("run", ""))
    upload = next(s for s in steps if s.get("uses", "").startswith("github/codeql-action/upload-sarif"))
    assert upload["with"]["sarif_file"] in check["run"]
    assert upload["with"]["category"] == category("${{ matrix.id }}")


def test_undecided_questions_of_one_kind_are_one_finding():
    """Budget unknowns of one kind of question (Finding.group) become one finding that names
    each and keeps every cited line; a lone one, and findings without a group, stay as they are."""
    from verifier.engine import _grouped
    from verifier.findings import Finding, Location

    def undecided(name: str, line: int, group: str = "g") -> Finding:
        return Finding(kind="unknown", severity="warning", verdict="unknown", subjects=(name,), message=name,
                       locations=(Location("s.txt", line),), key=(group, name),
                       group=(group, "以下 {n} 个触发未能判定", f"【{name}】（求解预算 rlimit 用尽）"))
    plain = Finding(kind="unknown", severity="warning", verdict="unknown", subjects=("丙",), message="丙",
                    locations=(Location("s.txt", 9),), key=("x",))
    out = _grouped([undecided("甲", 1), plain, undecided("乙", 2), undecided("丁", 3, group="h")])
    assert [f.subjects for f in out] == [("甲", "乙"), ("丙",), ("丁",)]
    assert out[0].message == "以下 2 个触发未能判定（求解预算 rlimit 用尽）：【甲】；【乙】。"
    assert [loc.line for loc in out[0].locations] == [1, 2]


def test_grouped_stories_are_kept_as_steps_and_a_long_list_is_read_there():
    """Members with a story (order candidates no game within the bounds reaches, asked by both
    processes) are one finding: every member's steps are kept, and the message names them
    only while it stays one short sentence."""
    from verifier.engine import _grouped
    from verifier.findings import MESSAGE_MAX, Finding, Location

    def bounded(name: str) -> Finding:
        return Finding(kind="unknown", severity="info", verdict="unknown", subjects=(name, "乙"), message=name,
                       locations=(Location("s.txt", 1),), key=("b", name),
                       scenario={"roles": [], "steps": [f"【{name}】与【乙】：走不到"], "outcomes": ["界限内无问题"]},
                       group=("within", "{n} 对技能界限内走不到", f"【{name}】与【乙】"))
    two = _grouped([bounded("甲"), bounded("丙")])
    assert len(two) == 1 and two[0].scenario["steps"] == ["【甲】与【乙】：走不到", "【丙】与【乙】：走不到"]
    assert two[0].message == "2 对技能界限内走不到：【甲】与【乙】；【丙】与【乙】。"
    many = _grouped([bounded(f"技能{i:02d}号很长的名字") for i in range(20)])
    assert len(many[0].message) <= MESSAGE_MAX and many[0].message.endswith("（见步骤）。")
    assert len(many[0].scenario["steps"]) == 20
