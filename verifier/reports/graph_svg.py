"""The interaction picture as inline SVG: a deterministic box layout (no force layout, so the
same ruleset always looks the same). Groups (factions, then holders that are not roles) are
packed in rows across the canvas; inside a group, boxes (roles, holders) are packed in rows;
inside a box, its skills are stacked. Lines join the nodes a finding sets against each other;
every trigger edge is drawn too, hidden until asked for."""
from __future__ import annotations

from dataclasses import dataclass
from html import escape

WIDTH = 1360.0
FONT, HEAD_FONT = 13.0, 14.0
PILL_H, PILL_PAD, BADGE = 24.0, 9.0, 20.0
BOX_PAD, BOX_HEAD, ROW_GAP = 7.0, 24.0, 5.0
GROUP_PAD, GROUP_HEAD, GAP = 10.0, 30.0, 12.0
# faction colours: distinct hues under white type, none of them the red, amber or blue of severities
PALETTE = ("#3949ab", "#2e7d32", "#6a1b9a", "#00838f", "#5d4037", "#ad1457", "#827717", "#4527a0",
           "#00695c", "#37474f", "#8e24aa", "#33691e", "#283593", "#6d4c41")
NEUTRAL = "#546e7a"
SEV_COLOUR = {"error": "#d32f2f", "warning": "#f9a825", "info": "#1e88e5"}
SEV_ORDER = ("error", "warning", "info")
Counter_t = dict  # severity -> count of the findings anchored at a node


def text_width(text: str, size: float = FONT) -> float:
    """Wide (CJK) characters take a full em, others a little over half."""
    return sum(size if ord(c) > 0x2E7F else size * 0.58 for c in text)


@dataclass
class Rect:
    x: float
    y: float
    w: float
    h: float


def _pack(sizes: list[tuple[float, float]], width: float, gap: float) -> tuple[list[tuple[float, float]], float, float]:
    """Shelf packing in the given order: offsets of each item, the used width and height."""
    out, x, y, row_h, used = [], 0.0, 0.0, 0.0, 0.0
    for w, h in sizes:
        if x > 0 and x + w > width:
            x, y, row_h = 0.0, y + row_h + gap, 0.0
        out.append((x, y))
        x += w + gap
        row_h = max(row_h, h)
        used = max(used, x - gap)
    return out, used, (y + row_h if sizes else 0.0)


def layout(graph: dict, counts: dict[str, Counter_t]) -> tuple[dict[str, Rect], dict[str, Rect], float]:
    """Node rectangles, group rectangles and the canvas height."""
    nodes = {n["id"]: n for n in graph["nodes"]}
    node_rect: dict[str, Rect] = {}
    group_rect: dict[str, Rect] = {}
    blocks = []   # per group: (size, place(x, y))
    for g in graph["groups"]:
        head_id = g["id"] if g["id"] in nodes else None
        head_w = text_width(nodes[head_id]["name"] if head_id else _shared_title(), HEAD_FONT) + 2 * PILL_PAD \
            + (BADGE if head_id and counts.get(head_id) else 0)
        boxes = []
        for b in g["boxes"]:
            pills = [(s, text_width(nodes[s]["name"]) + 2 * PILL_PAD + (BADGE if counts.get(s) else 0))
                     for s in b["skills"]]
            title_w = text_width(nodes[b["id"]]["name"]) + (BADGE if counts.get(b["id"]) else 0)
            w = max([title_w] + [pw for _, pw in pills] + [60.0]) + 2 * BOX_PAD
            h = BOX_HEAD + len(pills) * (PILL_H + ROW_GAP) + BOX_PAD
            boxes.append((b, pills, w, h))
        inner = WIDTH - 2 * GROUP_PAD
        offsets, used, height = _pack([(w, h) for _, _, w, h in boxes], inner, GAP)
        gw = max(head_w, used) + 2 * GROUP_PAD
        gh = GROUP_HEAD + (height + GROUP_PAD if boxes else 0) + GROUP_PAD * (0 if boxes else 0.6)
        blocks.append((g, head_id, head_w, boxes, offsets, gw, gh))
    places, _, total_h = _pack([(gw, gh) for *_, gw, gh in blocks], WIDTH, GAP)
    for (g, head_id, head_w, boxes, offsets, gw, gh), (gx, gy) in zip(blocks, places):
        group_rect[g["id"]] = Rect(gx, gy, gw, gh)
        if head_id:
            node_rect[head_id] = Rect(gx + GROUP_PAD, gy + 5, head_w, GROUP_HEAD - 10)
        for (b, pills, w, h), (bx, by) in zip(boxes, offsets):
            x0, y0 = gx + GROUP_PAD + bx, gy + GROUP_HEAD + by
            node_rect[b["id"]] = Rect(x0, y0, w, h)
            for i, (s, pw) in enumerate(pills):
                node_rect[s] = Rect(x0 + BOX_PAD, y0 + BOX_HEAD + i * (PILL_H + ROW_GAP), w - 2 * BOX_PAD, PILL_H)
    return node_rect, group_rect, total_h


def _shared_title() -> str:
    return "附加身份、状态与物品"


def _f(v: float) -> str:
    return f"{v:.1f}"


def _ends(a: Rect, b: Rect) -> tuple[tuple[float, float], tuple[float, float], float]:
    """Where a line between two nodes leaves and meets them: the sides that face each other,
    or both right sides (bulging right) when one stands above the other."""
    ay, by = a.y + a.h / 2, b.y + b.h / 2
    if a.x + a.w < b.x:
        return (a.x + a.w, ay), (b.x, by), 0.12
    if b.x + b.w < a.x:
        return (a.x, ay), (b.x + b.w, by), 0.12
    return (a.x + a.w, ay), (b.x + b.w, by), 0.0


def _curve(p: tuple[float, float], q: tuple[float, float], bend: float = 0.12) -> str:
    if p == q:  # a self loop: a small ring to the right of the node
        x, y = p
        return f"M{_f(x)},{_f(y - 5)} C{_f(x + 34)},{_f(y - 30)} {_f(x + 34)},{_f(y + 30)} {_f(x)},{_f(y + 5)}"
    dx, dy = q[0] - p[0], q[1] - p[1]
    if bend == 0.0:   # one above the other, both ends on the right: bow out to the right
        mx, my = max(p[0], q[0]) + 24 + 0.18 * abs(dy), (p[1] + q[1]) / 2
    else:
        mx, my = (p[0] + q[0]) / 2 - bend * dy, (p[1] + q[1]) / 2 + bend * dx
    return f"M{_f(p[0])},{_f(p[1])} Q{_f(mx)},{_f(my)} {_f(q[0])},{_f(q[1])}"


def _worst(c: Counter_t) -> str | None:
    return next((s for s in SEV_ORDER if c.get(s)), None)


def _badge(r: Rect, c: Counter_t, y_mid: float) -> str:
    sev = _worst(c)
    if sev is None:
        return ""
    n = sum(c.values())
    cx = r.x + r.w - BADGE / 2 - 2
    return (f'<circle class="badge" cx="{_f(cx)}" cy="{_f(y_mid)}" r="8.5" fill="{SEV_COLOUR[sev]}"/>'
            f'<text class="badge-n" x="{_f(cx)}" y="{_f(y_mid)}" dy="0.35em">{n}</text>')


def svg(graph: dict, ids: dict[str, str], counts: dict[str, Counter_t], t: dict[str, str]) -> str:
    """ids: node id -> short DOM id (n0, n1, …), which the finding cards name. Layers, bottom
    up: group and box backgrounds, lines, then every label, so lines never hide a name."""
    nodes = {n["id"]: n for n in graph["nodes"]}
    rects, groups, height = layout(graph, counts)
    colour = {}
    for i, g in enumerate(x for x in graph["groups"] if x["kind"] == "faction"):
        colour[g["id"]] = PALETTE[i % len(PALETTE)]
    back, top = [], []
    for g in graph["groups"]:
        r, c = groups[g["id"]], colour.get(g["id"], NEUTRAL)
        back.append(f'<rect class="group" x="{_f(r.x)}" y="{_f(r.y)}" width="{_f(r.w)}" height="{_f(r.h)}" rx="10" '
                    f'style="fill:{c}0f;stroke:{c}55"/>')
        if g["id"] not in nodes:
            top.append(f'<text class="group-title" x="{_f(r.x + GROUP_PAD + PILL_PAD)}" y="{_f(r.y + GROUP_HEAD / 2 + 1)}" '
                       f'dy="0.35em">{escape(t["shared_group"])}</text>')
        for b in g["boxes"]:
            lower, upper = _box(nodes[b["id"]], rects[b["id"]], ids[b["id"]], counts.get(b["id"], {}), c)
            back.append(lower)
            top.append(upper)
        if g["id"] in nodes:
            top.append(_head(nodes[g["id"]], rects[g["id"]], ids[g["id"]], counts.get(g["id"], {}),
                             "#37474f" if g["kind"] == "rules" else c))
    top += [_pill(s, rects[s["id"]], ids[s["id"]], counts.get(s["id"], {})) for s in graph["nodes"] if s["kind"] == "skill"]
    # a box is joined at its title strip, a skill or a faction at its pill
    ends = {nid: Rect(r.x, r.y, r.w, BOX_HEAD) if nodes[nid]["kind"] not in ("skill", "faction", "rules") else r
            for nid, r in rects.items()}
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" id="picture" viewBox="0 0 {_f(WIDTH)} {_f(height + 4)}" '
           f'width="{_f(WIDTH)}" role="img" aria-label="{escape(t["graph"])}">',
           "<defs>" + "".join(
               f'<marker id="arrow-{k}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" '
               f'orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" fill="{c}"/></marker>'
               for k, c in (("trigger", "#90a4ae"), *SEV_COLOUR.items())) + "</defs>", *back,
           '<g class="edges-all">']
    for e in graph["edges"]:
        p, q, bend = _ends(ends[e["source"]], ends[e["target"]])
        out.append(f'<path class="edge trigger" d="{_curve(p, q, bend)}" '
                   f'marker-end="url(#arrow-trigger)"><title>{escape(nodes[e["source"]]["name"])} → '
                   f'{escape(nodes[e["target"]]["name"])}（{escape(e["event"])}）</title></path>')
    out.append('</g><g class="links">')
    out += _links(graph, ends, nodes)
    out += ["</g>", *top, "</svg>"]
    return "\n".join(out)


def _links(graph: dict, ends: dict[str, Rect], nodes: dict) -> list[str]:
    """One line per pair of nodes (however many findings it stands for), coloured by the worst;
    loops keep their direction."""
    merged: dict[tuple, dict] = {}
    for ln in graph["links"]:
        directed = ln["kind"] == "loop"
        pair = (ln["source"], ln["target"]) if directed else tuple(sorted((ln["source"], ln["target"])))
        m = merged.setdefault((directed, pair), {"findings": [], "sev": [], "kinds": []})
        if ln["finding"] not in m["findings"]:
            m["findings"].append(ln["finding"])
            m["sev"].append(ln["severity"])
            m["kinds"].append(ln["kind"])
    out = []
    for (directed, (a, b)), m in sorted(merged.items()):
        sev = min(m["sev"], key=SEV_ORDER.index)
        p, q, bend = _ends(ends[a], ends[b])
        if nodes[a]["kind"] == nodes[b]["kind"] == "faction" and bend:
            bend = -0.2 if p[0] < q[0] else 0.2   # between group titles: arc over the top
        d = _curve(p, q, bend * 2 if directed else bend)
        title = f'{nodes[a]["name"]} ↔ {nodes[b]["name"]}：' + "、".join(dict.fromkeys(m["kinds"]))
        arrow = f' marker-end="url(#arrow-{sev})"' if directed else ""
        out.append(f'<g class="link" data-findings="{" ".join(m["findings"])}" data-kinds="{" ".join(m["kinds"])}">'
                   f'<path class="link-line" d="{d}" style="stroke:{SEV_COLOUR[sev]}"{arrow}/>'
                   f'<path class="link-hit" d="{d}"/><title>{escape(title)}</title></g>')
    return out


def _head(n: dict, r: Rect, dom: str, c: Counter_t, colour: str) -> str:
    return (f'<g class="node head" data-node="{dom}" data-kind="{n["kind"]}"><title>{escape(n["name"])}</title>'
            f'<rect x="{_f(r.x)}" y="{_f(r.y)}" width="{_f(r.w)}" height="{_f(r.h)}" rx="{_f(r.h / 2)}" '
            f'style="fill:{colour}"/>'
            f'<text class="head-label" x="{_f(r.x + PILL_PAD)}" y="{_f(r.y + r.h / 2)}" dy="0.35em">{escape(n["name"])}</text>'
            f'{_badge(r, c, r.y + r.h / 2)}</g>')


def _box(n: dict, r: Rect, dom: str, c: Counter_t, colour: str) -> tuple[str, str]:
    """The box's background (under the lines) and its title (over them), one node for clicks."""
    lower = (f'<g class="node box" data-node="{dom}" data-kind="{n["kind"]}"><title>{escape(n["name"])}</title>'
             f'<rect x="{_f(r.x)}" y="{_f(r.y)}" width="{_f(r.w)}" height="{_f(r.h)}" rx="6" style="stroke:{colour}"/></g>')
    upper = (f'<g class="node box-title" data-node="{dom}"><title>{escape(n["name"])}</title>'
             f'<text class="box-label" x="{_f(r.x + BOX_PAD)}" y="{_f(r.y + BOX_HEAD / 2 + 1)}" dy="0.35em" '
             f'style="fill:{colour}">{escape(n["name"])}</text>{_badge(r, c, r.y + BOX_HEAD / 2 + 1)}</g>')
    return lower, upper


def _pill(n: dict, r: Rect, dom: str, c: Counter_t) -> str:
    sev = _worst(c)
    worst = f' data-worst="{sev}"' if sev else ""
    return (f'<g class="node skill" data-node="{dom}" data-kind="skill" data-opaque="{str(n["opaque"]).lower()}"'
            f'{worst}><title>{escape(n["id"])}</title>'
            f'<rect x="{_f(r.x)}" y="{_f(r.y)}" width="{_f(r.w)}" height="{_f(r.h)}" rx="5"/>'
            f'<text class="label" x="{_f(r.x + PILL_PAD)}" y="{_f(r.y + r.h / 2)}" dy="0.35em">{escape(n["name"])}</text>'
            f'{_badge(r, c, r.y + r.h / 2)}</g>')
