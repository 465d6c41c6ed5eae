"""One self-contained HTML page: summary, the interaction picture, and a card per finding
quoting the source lines it is about. Clicking a node or a line of the picture shows the
findings about it. Inline style and script only, no external assets: it opens offline."""
from __future__ import annotations

import json
import os
from collections import Counter
from html import escape

from models.domain import Ruleset

from ..findings import SEVERITIES, Finding, Report, sort_key
from .graph import interaction_graph, ruleset_for_report
from .graph_svg import SEV_COLOUR, svg
from .markdown import SCENARIO_PARTS, kind_summary, labels, message_of, severity_text, verdict_text

MAX_QUOTED = 8          # source lines quoted on a card; the rest are named by number
QUOTE_CHARS = 260       # a longer line is cut (the full text is in its tooltip)
HIDDEN_BY_DEFAULT = ("info",)   # assumptions are many and rarely the point: one click shows them
EXTRA = {
    "zh": {"quote": "原文", "encoding": "编码", "more_lines": "另 {n} 行：{lines}", "about_nodes": "涉及",
           "show_all_edges": "显示全部交互（触发关系）", "filter_all": "全部问题", "filter_on": "与「{name}」有关的问题",
           "clear": "显示全部", "shown": "显示 {n} 条", "hidden_sev": "另有 {n} 条因严重度筛选未显示",
           "hint": "点击技能、角色、阵营或连线，下方只列出与之有关的问题；再点一次或点空白处取消。",
           "shared_group": "附加身份、状态与物品", "legend_line": "连线：问题涉及的两方（颜色为严重度，箭头为触发循环）",
           "legend_badge": "圆标：挂在该处的问题数", "legend_trigger": "灰色箭头：触发关系（勾选后显示）",
           "severity_filter": "严重度"},
    "en": {"quote": "Source", "encoding": "Encoding", "more_lines": "{n} more lines: {lines}", "about_nodes": "About",
           "show_all_edges": "show every interaction (triggers)", "filter_all": "All findings",
           "filter_on": "Findings about “{name}”", "clear": "show all", "shown": "{n} shown",
           "hidden_sev": "{n} more hidden by the severity filter",
           "hint": "Click a skill, role, faction or line to list only the findings about it; click again or on "
                   "the background to clear.",
           "shared_group": "Statuses, labels and items", "legend_line": "line: the two sides of a finding "
           "(colour = severity, arrow = trigger loop)", "legend_badge": "badge: findings attached there",
           "legend_trigger": "grey arrows: triggers (when shown)", "severity_filter": "Severity"},
}
STYLE = ":root{--err:%(error)s;--warn:%(warning)s;--info:%(info)s}" % SEV_COLOUR + """
*{box-sizing:border-box}
body{font-family:system-ui,"PingFang SC","Microsoft YaHei","Noto Sans CJK SC","WenQuanYi Micro Hei",sans-serif;
margin:0;color:#1f2933;background:#f5f6f8;line-height:1.55}
header.top{background:#263238;color:#fff;padding:1.1em 2em}header.top h1{margin:0;font-size:1.45em}
header.top .meta{color:#cfd8dc;font-size:.88em;margin:.3em 0 0;padding:0;list-style:none;display:flex;flex-wrap:wrap;gap:.3em 1.6em}
main{max-width:1420px;margin:0 auto;padding:1em 1.5em 3em}
h2{font-size:1.15em;margin:1.2em 0 .5em}
#summary .row{display:flex;flex-wrap:wrap;gap:1.5em;align-items:flex-start}
.counts{display:flex;flex-wrap:wrap;gap:.6em;margin:.4em 0}
.count{background:#fff;border-radius:8px;padding:.45em 1em;box-shadow:0 1px 2px #0002;border-top:4px solid #90a4ae;min-width:6.5em}
.count b{display:block;font-size:1.5em;line-height:1.1}.count.error{border-top-color:var(--err)}
.count.warning{border-top-color:var(--warn)}.count.info{border-top-color:var(--info)}
table.kinds{border-collapse:collapse;background:#fff;font-size:.9em;margin:.4em 0}
table.kinds td,table.kinds th{border:1px solid #e0e4e8;padding:.2em .7em;text-align:left}td.n{text-align:right}
code{background:#eef1f4;padding:0 .25em;border-radius:3px;font-size:.92em}
#graph{background:#fff;border-radius:10px;box-shadow:0 1px 3px #0002;padding:.6em 1em 1em}
#graph .tools{display:flex;flex-wrap:wrap;gap:.4em 1.5em;align-items:center;font-size:.9em;color:#455a64;margin:.2em 0 .6em}
.scroll{overflow-x:auto}#picture{display:block;max-width:100%;height:auto;font-family:inherit}
#picture .group{stroke-width:1.2}
#picture .group-title{font-size:14px;font-weight:600;fill:#455a64}
#picture .box rect{fill:#fff;stroke-width:1.4}#picture .box-label{font-size:13px;font-weight:600}
#picture .head-label{font-size:14px;font-weight:600;fill:#fff}
#picture .skill rect{fill:#eceff1;stroke:#b0bec5;stroke-width:1}
#picture .skill[data-opaque=true] rect{stroke-dasharray:4 3;fill:#f7f7f7}
#picture .skill[data-worst=error] rect{fill:#ffebee;stroke:var(--err)}
#picture .skill[data-worst=warning] rect{fill:#fff8e1;stroke:var(--warn)}
#picture .skill[data-worst=info] rect{stroke:#90caf9}
#picture .label{font-size:13px;fill:#263238}
#picture .badge-n{font-size:11px;font-weight:700;fill:#fff;text-anchor:middle}
#picture .node{cursor:pointer}#picture .node:hover rect{filter:brightness(.94)}
#picture .node.sel rect{stroke:#000;stroke-width:2.5}#picture .node.hl rect{stroke:#000;stroke-width:2}
#picture .edge{fill:none;stroke:#90a4ae;stroke-width:1;opacity:.75}
#picture .edges-all{display:none}#picture.all-edges .edges-all{display:inline}
#picture .link-line{fill:none;stroke-width:2.2;opacity:.75;stroke-linecap:round}
#picture .link[data-kinds~=simultaneous-win] .link-line{stroke-dasharray:7 4;stroke-width:3}
#picture .link-hit{fill:none;stroke:transparent;stroke-width:12;cursor:pointer}
#picture .link:hover .link-line,#picture .link.sel .link-line{stroke-width:5;opacity:1}
#picture.selecting .link:not(.sel):not(.hl) .link-line{opacity:.25}
.legend{font-size:.85em;color:#546e7a;display:flex;flex-wrap:wrap;gap:.2em 1.8em;margin-top:.5em}
#filters{position:sticky;top:0;z-index:2;background:#f5f6f8ee;padding:.5em 0;display:flex;flex-wrap:wrap;gap:.5em 1.2em;align-items:center;border-bottom:1px solid #dde2e6}
#filters label{cursor:pointer;user-select:none}#filter-status{font-weight:600}
button{font:inherit;border:1px solid #b0bec5;background:#fff;border-radius:5px;padding:.1em .7em;cursor:pointer}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(40em,1fr));gap:1em;margin-top:1em}
.finding{background:#fff;border-radius:8px;box-shadow:0 1px 3px #0002;border-left:6px solid #90a4ae;padding:.6em 1.1em .8em;min-width:0}
.finding[hidden]{display:none}
.finding[data-severity=error]{border-left-color:var(--err)}.finding[data-severity=warning]{border-left-color:var(--warn)}
.finding[data-severity=info]{border-left-color:var(--info)}.finding[data-suppressed=true]{opacity:.6}
.finding.hl{outline:2px solid #263238}
.finding h3{margin:.1em 0 .2em;font-size:1.05em}.sev{display:inline-block;color:#fff;border-radius:4px;padding:0 .45em;margin-right:.4em;font-size:.85em}
.base{display:inline-block;border:1px solid #888;border-radius:4px;padding:0 .35em;margin-right:.4em;font-size:.8em}.base.new{border-color:var(--err);color:var(--err)}
.sev.error{background:var(--err)}.sev.warning{background:var(--warn);color:#3e2700}.sev.info{background:var(--info)}
.finding h4{margin:.6em 0 .1em;font-size:.88em;color:#546e7a}
.finding .meta{color:#78909c;font-size:.82em;margin:0}.finding .message{margin:.35em 0}
.finding ul,.finding ol{margin:.1em 0;padding-left:1.4em}
blockquote.src{margin:.4em 0;padding:.3em .7em;background:#f9fbe7;border-left:3px solid #c0ca33;font-size:.92em;border-radius:0 4px 4px 0}
blockquote.src p{margin:.1em 0}.ln{display:inline-block;min-width:2.6em;color:#9e9e9e;font-variant-numeric:tabular-nums;user-select:none}
.about{margin:.3em 0 0;font-size:.85em}.about button{font-size:.92em;margin:0 .3em .2em 0}
.locations{font-size:.8em;color:#78909c}
"""
SCRIPT = r"""
(function(){
var pic=document.getElementById('picture'),cards=[].slice.call(document.querySelectorAll('.finding'));
var status=document.getElementById('filter-status'),extra=document.getElementById('filter-extra');
var T=JSON.parse(document.getElementById('labels').textContent),sel=null;
function nodeName(el){var t=el.querySelector('title');return t?t.textContent:'';}
function sevOn(){var on={};[].forEach.call(document.querySelectorAll('#filters input[name=sev]'),function(i){on[i.value]=i.checked;});return on;}
function apply(){
  var on=sevOn(),shown=0,hid=0;
  cards.forEach(function(c){var mine=!sel||sel.test(c),ok=mine&&on[c.dataset.severity];c.hidden=!ok;
    if(ok)shown++;else if(mine)hid++;});
  status.textContent=(sel?T.filter_on.replace('{name}',sel.name):T.filter_all)+' · '+T.shown.replace('{n}',shown);
  extra.textContent=hid&&sel?T.hidden_sev.replace('{n}',hid):'';
  document.getElementById('clear').hidden=!sel;
  if(pic){pic.classList.toggle('selecting',!!sel);
    [].forEach.call(pic.querySelectorAll('.sel'),function(e){e.classList.remove('sel');});
    if(sel)sel.els.forEach(function(e){e.classList.add('sel');});}
}
function pickNode(dom){
  var els=pic?[].slice.call(pic.querySelectorAll('[data-node="'+dom+'"]')):[];
  if(sel&&sel.key==='n:'+dom){sel=null;}
  else sel={key:'n:'+dom,els:els,name:els.length?nodeName(els[0]):dom,test:function(c){return (' '+c.dataset.nodes+' ').indexOf(' '+dom+' ')>=0;}};
  apply();
}
if(pic){
  pic.addEventListener('click',function(ev){
    var link=ev.target.closest('.link'),node=ev.target.closest('[data-node]');
    if(link){var ids=link.dataset.findings.split(' ');
      if(sel&&sel.els[0]===link)sel=null;
      else sel={key:'l',els:[link],name:nodeName(link).split('：')[0],test:function(c){return ids.indexOf(c.dataset.id)>=0;}};
      apply();}
    else if(node)pickNode(node.dataset.node);
    else{sel=null;apply();}
  });
  document.getElementById('all-edges').addEventListener('change',function(ev){pic.classList.toggle('all-edges',ev.target.checked);});
}
document.getElementById('clear').addEventListener('click',function(){sel=null;apply();});
[].forEach.call(document.querySelectorAll('#filters input[name=sev]'),function(i){i.addEventListener('change',apply);});
cards.forEach(function(c){
  function mark(on){if(!pic)return;c.dataset.nodes.split(' ').forEach(function(d){if(d)[].forEach.call(pic.querySelectorAll('[data-node="'+d+'"]'),function(e){e.classList.toggle('hl',on);});});
    [].forEach.call(pic.querySelectorAll('.link'),function(l){if(l.dataset.findings.split(' ').indexOf(c.dataset.id)>=0)l.classList.toggle('hl',on);});}
  c.addEventListener('mouseenter',function(){mark(true);});c.addEventListener('mouseleave',function(){mark(false);});
  [].forEach.call(c.querySelectorAll('[data-pick]'),function(b){b.addEventListener('click',function(){pickNode(b.dataset.pick);
    document.getElementById('graph').scrollIntoView({behavior:'smooth'});});});
});
// #select=n12 opens the page filtered to one node (links from elsewhere, and the test)
var m=/^#select=(n\d+)$/.exec(location.hash);if(m)pickNode(m[1]);else apply();
})();
"""


def write_html(report: Report, lang: str = "zh", rs: Ruleset | None = None, **_opts) -> str:
    lang = "en" if lang == "en" else "zh"
    t = {**labels(lang), **EXTRA[lang]}
    rid = report.ruleset["id"]
    rs = rs if rs is not None else ruleset_for_report(report)
    graph = interaction_graph(rs, report) if rs is not None else None
    findings = sorted(report.findings, key=sort_key)
    ids = {n["id"]: f"n{i}" for i, n in enumerate(graph["nodes"])} if graph else {}
    title = t["heading"].format(title=report.ruleset.get("title", rid), id=rid)
    quotes = _Quotes(rs)
    parts = [f'<header class="top"><h1>{escape(title)}</h1>{_meta(report, t)}</header><main>',
             _summary(report, t, lang), _graph_section(graph, ids, findings, rid, t),
             _filters(report, t, lang), '<section id="findings" class="cards">']
    parts += [_finding(f, rid, t, lang, graph, ids, quotes, report.baseline_state(f)) for f in findings] or [f"<p>{escape(t['none'])}</p>"]
    parts.append("</section></main>")
    js_labels = json.dumps({k: t[k] for k in ("filter_on", "filter_all", "shown", "hidden_sev")},
                           ensure_ascii=False).replace("</", "<\\/")
    return ("<!DOCTYPE html>\n"
            f'<html lang="{"en" if lang == "en" else "zh-CN"}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width,initial-scale=1">'
            f"<title>{escape(title)}</title><style>{STYLE}</style></head>\n<body>\n"
            + "\n".join(parts)
            + f'\n<script type="application/json" id="labels">{js_labels}</script>'
            + f"\n<script>{SCRIPT}</script>\n</body></html>\n")


def _meta(report: Report, t: dict[str, str]) -> str:
    rows = [(t["source"], report.ruleset.get("source", "")), (t["bounds"], t["bounds_text"].format(**report.bounds))]
    if report.coverage:
        rows.append((t["coverage"], t["coverage_text"].format(**report.coverage)))
    return '<ul class="meta">' + "".join(f"<li>{escape(k + t['sep'] + str(v))}</li>" for k, v in rows) + "</ul>"


def _summary(report: Report, t: dict[str, str], lang: str) -> str:
    s = report.summary()
    cells = [(sev, severity_text(sev, lang), s[sev]) for sev in SEVERITIES]
    cells += [("unknown", t["unknown"], s["unknown"]), ("suppressed", t["suppressed"], s["suppressed"])]
    out = [f'<section id="summary"><h2>{escape(t["summary"])}</h2><div class="row"><div class="counts">']
    out += [f'<div class="count {cls}"><b>{v}</b>{escape(name)}</div>' for cls, name, v in cells]
    out.append("</div>")
    per_kind = Counter(f.kind for f in report.findings if not f.suppressed)
    if per_kind:
        out.append(f'<table class="kinds"><tr><th>{escape(t["kind"])}</th><th>{escape(t["about"])}</th>'
                   f'<th>{escape(t["count"])}</th></tr>')
        out += [f'<tr><td><code>{k}</code></td><td>{escape(kind_summary(k))}</td><td class="n">{n}</td></tr>'
                for k, n in sorted(per_kind.items(), key=lambda kv: -kv[1])]
        out.append("</table>")
    return "".join(out) + "</div></section>"


def _graph_section(graph: dict | None, ids: dict[str, str], findings: list[Finding], rid: str,
                   t: dict[str, str]) -> str:
    if graph is None:
        return f'<section id="graph-missing"><h2>{escape(t["graph"])}</h2><p>{escape(t["graph_missing"])}</p></section>'
    counts: dict[str, Counter] = {}
    for f in findings:
        if not f.suppressed:
            for nid in graph["anchors"][f.stable_id(rid)]:
                counts.setdefault(nid, Counter())[f.severity] += 1
    legend = "".join(f"<span>{escape(t[k])}</span>" for k in ("legend_line", "legend_badge", "legend_trigger"))
    return (f'<section id="graph"><h2>{escape(t["graph"])}</h2>'
            f'<div class="tools"><label><input type="checkbox" id="all-edges"> {escape(t["show_all_edges"])}</label>'
            f'<span>{escape(t["hint"])}</span></div>'
            f'<div class="scroll">{svg(graph, ids, counts, t)}</div><p class="legend">{legend}</p></section>')


def _filters(report: Report, t: dict[str, str], lang: str) -> str:
    n = Counter(f.severity for f in report.findings)
    boxes = "".join(f'<label><input type="checkbox" name="sev" value="{sev}"'
                    f'{"" if sev in HIDDEN_BY_DEFAULT else " checked"}> '
                    f'<span class="sev {sev}">{escape(severity_text(sev, lang))}</span> {n[sev]}</label>'
                    for sev in SEVERITIES)
    return (f'<div id="filters"><span id="filter-status">{escape(t["filter_all"])}</span>'
            f'<button id="clear" type="button" hidden>{escape(t["clear"])}</button>'
            f'<span>{escape(t["severity_filter"])}{escape(t["sep"])}{boxes}</span><span id="filter-extra"></span></div>')


def _finding(f: Finding, rid: str, t: dict[str, str], lang: str, graph: dict | None, ids: dict[str, str],
             quotes: "_Quotes", state: str | None = None) -> str:
    fid = f.stable_id(rid)
    anchors = graph["anchors"][fid] if graph else []
    nodes = {n["id"]: n for n in graph["nodes"]} if graph else {}
    # a card about a skill is also about the box (role) holding it, so clicking the role lists it
    boxes = [nodes[a]["box"] for a in anchors if nodes[a].get("box")]
    dom = " ".join(dict.fromkeys(ids[a] for a in anchors + boxes))
    attrs = (f'class="finding" id="f-{fid}" data-id="{fid}" data-kind="{f.kind}" data-severity="{f.severity}" '
             f'data-verdict="{f.verdict}" data-suppressed="{"true" if f.suppressed else "false"}" data-nodes="{dom}"'
             + (" hidden" if f.severity in HIDDEN_BY_DEFAULT else ""))
    subjects = "、".join(f.subjects)
    mark = ""
    if state is not None:   # compared with a baseline: new or known
        word = {"new": ("新", "new"), "unchanged": ("已知", "known")}[state][lang == "en"]
        mark = f'<span class="base {state}">{escape(word)}</span>'
        attrs += f' data-baseline="{state}"'
    out = [f"<article {attrs}>",
           f'<h3><span class="sev {f.severity}">{escape(severity_text(f.severity, lang))}</span>{mark}{escape(subjects)}</h3>',
           f'<p class="meta"><code>{f.kind}</code> {escape(kind_summary(f.kind))} · '
           f'{escape(t["verdict"] + t["sep"])}{escape(verdict_text(f.verdict, lang))} · '
           f'{escape(t["id"] + t["sep"])}<code>{fid}</code></p>']
    if f.suppressed:
        out.append(f'<p class="suppressed">{escape(t["suppressed"] + t["sep"])}{escape(f.suppressed)}</p>')
    out.append(f'<p class="message">{escape(message_of(f, lang))}</p>')
    out.append(quotes.block(f, t))
    for part, bullet in SCENARIO_PARTS:
        items = (f.scenario or {}).get(part) or []
        if items:
            tag = "ol" if bullet == "1." else "ul"
            out.append(f'<h4>{escape(t[part])}</h4><{tag} class="{part}">'
                       + "".join(f"<li>{escape(x)}</li>" for x in items) + f"</{tag}>")
    for ex in f.examples:
        # another case of the same cause, whole
        out.append(f'<details class="example"><summary>{escape(t["example"] + t["sep"] + ex["message"])}</summary>')
        for part, bullet in SCENARIO_PARTS:
            items = (ex.get("scenario") or {}).get(part) or []
            if items:
                tag = "ol" if bullet == "1." else "ul"
                out.append(f'<h4>{escape(t[part])}</h4><{tag} class="{part}">'
                           + "".join(f"<li>{escape(x)}</li>" for x in items) + f"</{tag}>")
        out.append("</details>")
    if f.assumptions and f.kind != "assumption":
        out.append(f'<h4>{escape(t["assumptions"])}</h4><ul class="assumptions">'
                   + "".join(f"<li>{escape(a)}</li>" for a in f.assumptions) + "</ul>")
    if anchors:
        out.append(f'<p class="about">{escape(t["about_nodes"] + t["sep"])}'
                   + "".join(f'<button type="button" data-pick="{ids[a]}">{escape(nodes[a]["name"])}</button>'
                             for a in anchors) + "</p>")
    if f.locations:
        out.append(f'<p class="locations">{escape(t["locations"] + t["sep"])}'
                   + " ".join(f"<code>{escape(loc.file)}:{loc.line}</code>" for loc in f.locations) + "</p>")
    out.append("</article>")
    return "\n".join(x for x in out if x)


class _Quotes:
    """The lines of the post a finding is about: its source.txt locations, and for a location
    in ruleset.yaml the `src` lines of the element encoded there."""

    def __init__(self, rs: Ruleset | None):
        self.rs = rs
        self.by_yaml: dict[int, tuple[int, ...]] = {}
        if rs is None:
            return
        wheres = [x.where for x in (*rs.phases, *rs.windows, *rs.factions.values(), *rs.statuses.values(),
                                    *rs.tags.values(), *rs.labels.values(), *rs.counters.values(),
                                    *rs.items.values(), *rs.roles.values(), *rs.skills)]
        wheres += [e.where for e in rs.effects()]
        for w in wheres:
            if w.yaml_line and w.src:
                self.by_yaml.setdefault(w.yaml_line, w.src)

    def lines(self, f: Finding) -> list[int]:
        if self.rs is None:
            return []
        src, yml = os.path.normpath(self.rs.source_file), os.path.normpath(self.rs.yaml_file)
        out: list[int] = []
        for loc in f.locations:
            path = os.path.normpath(loc.file)
            found = (loc.line,) if path == src else self.by_yaml.get(loc.line, ()) if path == yml else ()
            out += [n for n in found if n not in out and 0 < n <= len(self.rs.source_lines)]
        return out

    def block(self, f: Finding, t: dict[str, str]) -> str:
        lines = self.lines(f)
        if not lines:
            return ""
        shown, rest = lines[:MAX_QUOTED], lines[MAX_QUOTED:]
        out = [f'<blockquote class="src" title="{escape(t["quote"])}">']
        for n in shown:
            text = self.rs.source_lines[n - 1].strip()
            cut = text if len(text) <= QUOTE_CHARS else text[:QUOTE_CHARS - 1] + "…"
            tip = f' title="{escape(text)}"' if cut != text else ""
            out.append(f'<p{tip}><span class="ln">{n}</span>{escape(cut)}</p>')
        if rest:
            out.append(f'<p class="more">{escape(t["more_lines"].format(n=len(rest), lines=", ".join(map(str, rest))))}</p>')
        out.append("</blockquote>")
        return "".join(out)
