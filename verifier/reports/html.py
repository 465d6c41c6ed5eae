"""One self-contained HTML page: summary, findings with scenarios, an inline SVG of the
skill interaction graph. No scripts, external styles or fonts: it opens offline."""
from __future__ import annotations

import math
from collections import Counter
from html import escape

from ..findings import KINDS, SEVERITIES, Finding, Report, sort_key
from .graph import graph_for_report
from .markdown import SCENARIO_PARTS, kind_summary, labels, message_of, severity_text, verdict_text

NODE_R = 7.0
LABEL_MAX = 16
STYLE = """
body{font-family:system-ui,"PingFang SC","Microsoft YaHei","Noto Sans CJK SC","WenQuanYi Micro Hei",sans-serif;margin:2em auto;max-width:72em;padding:0 1em;color:#222;line-height:1.5}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.2em .7em}
td.n{text-align:right}code{background:#f3f3f3;padding:0 .25em}
.finding{border:1px solid #ddd;border-left:6px solid #999;margin:1em 0;padding:.4em 1em}
.finding[data-severity=error]{border-left-color:#c62828}.finding[data-severity=warning]{border-left-color:#f9a825}
.finding[data-severity=info]{border-left-color:#1565c0}.finding[data-suppressed=true]{opacity:.6}
.finding h3{margin:.3em 0;font-size:1.05em}.finding h4{margin:.4em 0 0;font-size:.95em}
.meta{color:#666;font-size:.9em}
#graph svg{width:100%;height:auto;max-height:90vh;border:1px solid #eee}
.edge{fill:none}.trigger{stroke:#9e9e9e;stroke-width:1}
.loop{stroke:#ef6c00;stroke-width:3}.conflict{stroke:#d50000;stroke-width:3}
circle.node{fill:#1565c0;stroke:#fff}circle.node[data-opaque=true]{fill:#bdbdbd}
circle.node[data-flagged=true]{stroke:#d50000;stroke-width:2.5}circle.node.extra{fill:#7b1fa2}
text.label{font-size:12px;fill:#333}
.legend span{display:inline-block;margin-right:1.5em}
.legend i{display:inline-block;width:2em;height:.3em;vertical-align:middle;margin-right:.4em}
"""


def write_html(report: Report, lang: str = "zh", graph: dict | None = None) -> str:
    t = labels(lang)
    rid = report.ruleset["id"]
    if graph is None:
        graph = graph_for_report(report)
    title = t["heading"].format(title=report.ruleset.get("title", rid), id=rid)
    parts = [f"<h1>{escape(title)}</h1>", _meta(report, t), _summary(report, t, lang),
             _graph_section(graph, t), f'<section id="findings"><h2>{escape(t["findings"])}</h2>']
    findings = sorted(report.findings, key=sort_key)
    parts += [_finding(f, rid, t, lang) for f in findings] or [f"<p>{escape(t['none'])}</p>"]
    parts.append("</section>")
    return ("<!DOCTYPE html>\n"
            f'<html lang="{"en" if lang == "en" else "zh-CN"}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width,initial-scale=1">'
            f"<title>{escape(title)}</title><style>{STYLE}</style></head>\n<body>\n"
            + "\n".join(parts) + "\n</body></html>\n")


def _meta(report: Report, t: dict[str, str]) -> str:
    rows = [(t["ruleset"], report.ruleset["id"]), (t["source"], report.ruleset.get("source", "")),
            (t["bounds"], t["bounds_text"].format(**report.bounds))]
    if report.coverage:
        rows.append((t["coverage"], t["coverage_text"].format(**report.coverage)))
    return '<ul class="meta">' + "".join(f"<li>{escape(k + t['sep'] + str(v))}</li>" for k, v in rows) + "</ul>"


def _summary(report: Report, t: dict[str, str], lang: str) -> str:
    s = report.summary()
    cells = [(severity_text(sev, lang), s[sev]) for sev in SEVERITIES] + [(t["unknown"], s["unknown"]),
                                                                          (t["suppressed"], s["suppressed"])]
    head = "".join(f"<th>{escape(k)}</th>" for k, _ in cells)
    body = "".join(f'<td class="n">{v}</td>' for _, v in cells)
    out = [f'<section id="summary"><h2>{escape(t["summary"])}</h2>',
           f'<table class="counts"><tr>{head}</tr><tr>{body}</tr></table>']
    per_kind = Counter(f.kind for f in report.findings if not f.suppressed)
    if per_kind:
        out.append(f'<table class="kinds"><tr><th>{escape(t["kind"])}</th><th>{escape(t["about"])}</th>'
                   f'<th>{escape(t["count"])}</th></tr>')
        out += [f'<tr><td><code>{k}</code></td><td>{escape(kind_summary(k))}</td><td class="n">{per_kind[k]}</td></tr>'
                for k in KINDS if per_kind[k]]
        out.append("</table>")
    return "".join(out) + "</section>"


def _finding(f: Finding, rid: str, t: dict[str, str], lang: str) -> str:
    fid = f.stable_id(rid)
    attrs = (f'class="finding" id="f-{fid}" data-id="{fid}" data-kind="{f.kind}" data-severity="{f.severity}" '
             f'data-verdict="{f.verdict}" data-suppressed="{"true" if f.suppressed else "false"}"')
    subjects = "、".join(f.subjects)
    out = [f"<article {attrs}>",
           f"<h3>{escape(severity_text(f.severity, lang))} · <code>{f.kind}</code> · {escape(subjects)}</h3>",
           f'<p class="meta">{escape(t["verdict"] + t["sep"])}{escape(verdict_text(f.verdict, lang))} · '
           f'{escape(t["id"] + t["sep"])}<code>{fid}</code></p>']
    if f.suppressed:
        out.append(f'<p class="suppressed">{escape(t["suppressed"] + t["sep"])}{escape(f.suppressed)}</p>')
    out.append(f'<p class="message">{escape(message_of(f, lang))}</p>')
    for part, bullet in SCENARIO_PARTS:
        items = (f.scenario or {}).get(part) or []
        if items:
            tag = "ol" if bullet == "1." else "ul"
            out.append(f'<h4>{escape(t[part])}</h4><{tag} class="{part}">'
                       + "".join(f"<li>{escape(x)}</li>" for x in items) + f"</{tag}>")
    if f.assumptions:
        out.append(f'<h4>{escape(t["assumptions"])}</h4><ul class="assumptions">'
                   + "".join(f"<li>{escape(a)}</li>" for a in f.assumptions) + "</ul>")
    if f.locations:
        out.append(f'<h4>{escape(t["locations"])}</h4><ul class="locations">'
                   + "".join(f"<li><code>{escape(loc.file)}:{loc.line}</code></li>" for loc in f.locations) + "</ul>")
    out.append("</article>")
    return "\n".join(out)


def _graph_section(graph: dict | None, t: dict[str, str]) -> str:
    if graph is None:
        return f'<section id="graph-missing"><h2>{escape(t["graph"])}</h2><p>{escape(t["graph_missing"])}</p></section>'
    legend = "".join(f'<span><i style="background:{c}"></i>{escape(t[k])}</span>' for k, c in (
        ("legend_trigger", "#9e9e9e"), ("legend_conflict", "#d50000"), ("legend_loop", "#ef6c00"),
        ("legend_opaque", "#bdbdbd"), ("legend_extra", "#7b1fa2")))
    return (f'<section id="graph"><h2>{escape(t["graph"])}</h2>{svg(graph)}'
            f'<p class="legend">{legend}</p></section>')


def _layout(ids: list[str]) -> tuple[float, dict[str, tuple[float, float, float]]]:
    """Nodes on one circle in the given order: (x, y, angle) each, and the canvas size."""
    n = max(len(ids), 1)
    radius = max(120.0, n * 34.0 / (2 * math.pi))
    centre = radius + 190.0
    pos = {}
    for i, uid in enumerate(ids):
        a = -math.pi / 2 + 2 * math.pi * i / n
        pos[uid] = (centre + radius * math.cos(a), centre + radius * math.sin(a), a)
    return 2 * centre, pos


def _f(v: float) -> str:
    return f"{v:.1f}"


def _arc(p: tuple, q: tuple, cls: str, marker: str, title: str) -> str:
    """A slightly curved edge, so that a→b and b→a stay apart; a self edge is a small ring."""
    if p == q:
        cx, cy = p[0] - 14 * math.cos(p[2]), p[1] - 14 * math.sin(p[2])  # inward: labels sit outside
        return f'<circle class="{cls}" cx="{_f(cx)}" cy="{_f(cy)}" r="8"><title>{escape(title)}</title></circle>'
    dx, dy = q[0] - p[0], q[1] - p[1]
    mx, my = (p[0] + q[0]) / 2 - 0.12 * dy, (p[1] + q[1]) / 2 + 0.12 * dx
    (sx, sy), (ex, ey) = _toward(p, (mx, my), NODE_R), _toward(q, (mx, my), NODE_R + 1)
    return (f'<path class="{cls}" d="M{_f(sx)},{_f(sy)} Q{_f(mx)},{_f(my)} {_f(ex)},{_f(ey)}" '
            f'marker-end="url(#{marker})"><title>{escape(title)}</title></path>')


def _toward(p: tuple, c: tuple, by: float) -> tuple[float, float]:
    dx, dy = c[0] - p[0], c[1] - p[1]
    d = math.hypot(dx, dy) or 1.0
    return p[0] + dx / d * by, p[1] + dy / d * by


def svg(graph: dict) -> str:
    nodes = graph["nodes"]
    size, pos = _layout([n["id"] for n in nodes])
    flagged = {c[k] for c in graph["conflicts"] for k in ("source", "target")}
    flagged |= {u for lp in graph["loops"] for u in lp["cycle"]}
    markers = "".join(f'<marker id="{m}" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" '
                      f'markerUnits="userSpaceOnUse" orient="auto"><path d="M0,0L10,5L0,10z" fill="{c}"/></marker>'
                      for m, c in (("arrow-trigger", "#9e9e9e"), ("arrow-loop", "#ef6c00")))
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_f(size)} {_f(size)}" role="img">',
           f"<defs>{markers}</defs>"]
    for e in graph["edges"]:
        out.append(_arc(pos[e["source"]], pos[e["target"]], "edge trigger", "arrow-trigger",
                        f'{e["source"]} → {e["target"]}（{e["event"]}）'))
    for lp in graph["loops"]:
        cyc = lp["cycle"]
        out.append(f'<a href="#f-{lp["finding"]}">')
        out += [_arc(pos[a], pos[b], "edge loop", "arrow-loop", " → ".join(cyc + cyc[:1]))
                for a, b in zip(cyc, cyc[1:] + cyc[:1])]
        out.append("</a>")
    for c in graph["conflicts"]:
        p, q = pos[c["source"]], pos[c["target"]]
        title = escape(f'{c["kind"]}：{c["source"]} ↔ {c["target"]}')
        out.append(f'<a href="#f-{c["finding"]}"><line class="edge conflict" data-finding="{c["finding"]}" '
                   f'x1="{_f(p[0])}" y1="{_f(p[1])}" x2="{_f(q[0])}" y2="{_f(q[1])}"><title>{title}</title></line></a>')
    for n in nodes:
        out.append(_node(n, pos[n["id"]], n["id"] in flagged))
    out.append("</svg>")
    return "\n".join(out)


def _node(n: dict, p: tuple, flagged: bool) -> str:
    x, y, a = p
    cls = "node" if n["kind"] == "skill" else "node extra"
    left = math.cos(a) < -1e-9
    deg = math.degrees(a) + (180 if left else 0)
    lx, ly = x + (NODE_R + 5) * math.cos(a), y + (NODE_R + 5) * math.sin(a)
    text = n["id"] if len(n["id"]) <= LABEL_MAX else n["id"][:LABEL_MAX - 1] + "…"
    return (f'<g data-uid="{escape(n["id"])}"><title>{escape(n["id"])}</title>'
            f'<circle class="{cls}" cx="{_f(x)}" cy="{_f(y)}" r="{NODE_R}" data-kind="{n["kind"]}" '
            f'data-opaque="{str(n["opaque"]).lower()}" data-flagged="{str(flagged).lower()}"/>'
            f'<text class="label" x="{_f(lx)}" y="{_f(ly)}" dy="0.35em" text-anchor="{"end" if left else "start"}" '
            f'transform="rotate({_f(deg)} {_f(lx)} {_f(ly)})">{escape(text)}</text></g>')
