"""A figure's first frame as static SVG, for print, PDF and pages without JavaScript.

The build turns the same scene the browser's renderer draws (engine/figures/SCENE.md)
into markup: a plane or a chart becomes an ``<svg>`` with one element a mark, a cells
or bars panel an ``<svg>`` with one element a cell or a bar, steps and text panels plain
HTML. Colours are never written: every element carries classes (``c-query``, ``c-key``,
...) that explorables.css maps to the same custom properties the canvas reads, so the
still follows the light and dark palettes, and the strict Content-Security-Policy (no
style attributes) holds. The geometry is static/js/geometry.js (geometry.py reads it), drawn
as static/js/panels/plane.js draws it, at a nominal width.

``still(scene)`` is the whole figure: title, panels, status sentence, and one sentence
on what the live figure lets the reader do.

On a right-to-left page the drawings keep their left-to-right geometry (explorables.css
sets the SVGs' direction), an SVG text with right-to-left letters is a right-to-left
isolate (so "chased החדשה" keeps its word order), and an HTML text with none (a formula,
a vector) is a ``<bdi dir="ltr">``, as the browser's renderer writes them.
"""
from __future__ import annotations

import math
import re
from html import escape

from ...engine.locale import direction, language, localized, t
from .geometry import GEOMETRY, radius

# The words this module writes for readers, in one place.

WIDTH = 400  # the nominal width of a plane, in px (the canvas is 300-500 px on most screens)

PAD = GEOMETRY["pad"]  # the margin round the data domain
CELL_H = 24  # a row of a cells panel
BAR_H = 22   # a bar


def _n(x: float) -> str:
    """A coordinate with one decimal, as short as it gets: 12.0 -> '12', -0.04 -> '0'."""
    text = f"{x:.1f}"
    if text.endswith(".0"):
        text = text[:-2]
    return "0" if text == "-0" else text


RTL_LETTER = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]")  # as static/js/core.js


def _words(text) -> str:
    """Escaped text for the HTML of a still; on a right-to-left page a text with no
    right-to-left letter is one left-to-right run."""
    text = str(text)
    if text and direction(language()) == "rtl" and not RTL_LETTER.search(text):
        return f'<bdi dir="ltr">{escape(text)}</bdi>'
    return escape(text)


def _svg_words(text) -> str:
    """Escaped text for an SVG <text>; on a right-to-left page a text with
    right-to-left letters is a right-to-left isolate (RLI ... PDI) in the SVG's
    left-to-right text, so its words keep their order and its anchor its meaning."""
    text = str(text)
    if direction(language()) == "rtl" and RTL_LETTER.search(text):
        return "\u2067" + escape(text) + "\u2069"
    return escape(text)


def _attr(text) -> str:
    return escape(str(text), quote=True)


def _cls(*names) -> str:
    return " ".join(n for n in names if n)


class _View:
    """Data -> px for a plane of ``width`` px, exactly as plane.js's view()."""

    def __init__(self, spec: dict, width: int = WIDTH):
        xs = spec.get("x") or [-1, 1]
        ys = spec.get("y") or [-1, 1]
        if spec.get("square"):
            height = min(width, 2 * PAD + (width - 2 * PAD) * (ys[1] - ys[0]) / (xs[1] - xs[0]))
        else:
            height = min(width * (spec.get("ratio") or GEOMETRY["ratio"]), GEOMETRY["tall"])
        self.w, self.h = width, round(height)
        kx = (self.w - 2 * PAD) / (xs[1] - xs[0])
        ky = (self.h - 2 * PAD) / (ys[1] - ys[0])
        if spec.get("square"):
            kx = ky = min(kx, ky)
        self.kx, self.ky, self.xs, self.ys = kx, ky, xs, ys
        self.ox = (self.w - kx * (xs[1] - xs[0])) / 2
        self.oy = (self.h - ky * (ys[1] - ys[0])) / 2
        self.placed: list[tuple] = []  # names placed so far (x0, y0, x1, y1)
        self.discs: list[tuple] = []   # every point (x, y, r) a name must not cover

    def x(self, x: float) -> float:
        return self.ox + (x - self.xs[0]) * self.kx

    def y(self, y: float) -> float:
        return self.h - self.oy - (y - self.ys[0]) * self.ky

    def path(self, points) -> str:
        return " ".join(f"{_n(self.x(p[0]))},{_n(self.y(p[1]))}" for p in points)


def _role(mark: dict, default: str) -> str:
    return "c-muted" if mark.get("muted") else f"c-{mark.get('role') or default}"


def _stroke(mark: dict, default: float) -> str:
    width = mark.get("width")
    return f' stroke-width="{_n(width)}"' if width and width != default else ""


SIDES = ("right", "left", "above", "below", "above-right", "above-left", "below-right", "below-left")


def _name(text: str, x: float, y: float, anchor: str | None, reach: float, view: _View) -> str:
    """A point's or an arrow's name beside it, on the first spot (its anchor first, then
    the order plane.js tries) that stays on the canvas and covers no point and no name
    placed before it; the first spot when none does. Text width is estimated (7 px a
    character at 13 px): the canvas measures, the build cannot."""
    w, h = 7 * len(text) + 2, 15
    first = None
    for side in ((anchor,) if anchor else ()) + SIDES:
        dx = {"right": 1, "left": -1}.get(side.split("-")[-1], 0)
        dy = -1 if side.startswith("above") else 1 if side.startswith("below") else 0
        out = reach * (0.71 if dx and dy else 1)  # a diagonal spot: its near corner on the diagonal
        cx = x + dx * (out + w / 2)
        cy = y + dy * (out + h / 2)
        box = (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
        first = first or (side, box)
        inside = box[0] >= 1 and box[1] >= 1 and box[2] <= view.w - 1 and box[3] <= view.h - 1
        clear = not any(box[0] < b[2] and b[0] < box[2] and box[1] < b[3] and b[1] < box[3] for b in view.placed)
        free = not any((px - x) ** 2 + (py - y) ** 2 > 1 and _hits(box, px, py, r) for px, py, r in view.discs)
        if inside and clear and free:
            break
    else:
        side, box = first
    view.placed.append(box)
    mid = (box[0] + box[2]) / 2
    return f'<text class="nm" x="{_n(mid)}" y="{_n((box[1] + box[3]) / 2)}" text-anchor="middle">{_svg_words(text)}</text>'


def _hits(box, x: float, y: float, r: float) -> bool:
    dx = x - max(box[0], min(box[2], x))
    dy = y - max(box[1], min(box[3], y))
    return dx * dx + dy * dy < r * r


def _point(m: dict, v: _View) -> str:
    x, y = v.x(m["x"]), v.y(m["y"])
    r = radius(m)
    shape = m.get("shape") or "circle"
    cls = _cls("mk pt", _role(m, "key"), "ring" if shape == "ring" else "", "faded" if m.get("muted") else "")
    own = "" if m.get("label") else f' class="{cls}"'  # a named point is a group: its shape and its name
    if shape == "diamond":
        d = r * 1.4
        body = f'<polygon{own} points="{_n(x)},{_n(y - d)} {_n(x + d)},{_n(y)} {_n(x)},{_n(y + d)} {_n(x - d)},{_n(y)}"/>'
    elif shape == "square":
        body = f'<rect{own} x="{_n(x - r)}" y="{_n(y - r)}" width="{_n(2 * r)}" height="{_n(2 * r)}"/>'
    else:
        body = f'<circle{own} cx="{_n(x)}" cy="{_n(y)}" r="{_n(r)}"/>'
    if not m.get("label"):
        return body
    return f'<g class="{cls}">{body}{_name(m["label"], x, y, m.get("anchor"), r + GEOMETRY["name_gap"], v)}</g>'


def _arrow(m: dict, v: _View) -> str:
    x1, y1, x2, y2 = v.x(m["x1"]), v.y(m["y1"]), v.x(m["x2"]), v.y(m["y2"])
    length = math.hypot(x2 - x1, y2 - y1)
    gap = m.get("gap") or 0
    if gap and length > gap + 1:  # its tip stops short of what it points at
        x2, y2, length = x2 - (x2 - x1) / length * gap, y2 - (y2 - y1) / length * gap, length - gap
    cls = _cls("mk ar", _role(m, "accent"), "dash" if m.get("dashed") else "")
    parts = []
    if length > 0.5:
        head = min(GEOMETRY["head"], length * GEOMETRY["head_share"])
        ux, uy = (x2 - x1) / length, (y2 - y1) / length
        parts.append(f'<path d="M{_n(x1)} {_n(y1)}L{_n(x2 - ux * head * .8)} {_n(y2 - uy * head * .8)}"'
                     f'{_stroke(m, 2.5)}/>')
        parts.append(f'<polygon points="{_n(x2)},{_n(y2)} {_n(x2 - ux * head - uy * head * .45)},'
                     f'{_n(y2 - uy * head + ux * head * .45)} {_n(x2 - ux * head + uy * head * .45)},'
                     f'{_n(y2 - uy * head - ux * head * .45)}"/>')
    if m.get("label"):
        anchor = "right" if x2 >= x1 else "left"
        parts.append(_name(m["label"], x2, y2, anchor, 6, v))
    return f'<g class="{cls}">{"".join(parts)}</g>'


def _line(m: dict, v: _View, default_role: str = "text", default_width: float = 1.5) -> str:
    cls = _cls("mk ln", _role(m, default_role), "dot" if m.get("dotted") else "dash" if m.get("dashed") else "")
    return f'<polyline class="{cls}" points="{v.path(m.get("points") or [])}"{_stroke(m, default_width)}/>'


def _polygon(m: dict, v: _View) -> str:
    return f'<polygon class="mk pg {_role(m, "hull")}" points="{v.path(m.get("points") or [])}"/>'


def _label(m: dict, v: _View) -> str:
    align = {"center": ' text-anchor="middle"', "right": ' text-anchor="end"'}.get(m.get("align"), "")
    size = f' font-size="{_n(m["size"])}"' if m.get("size") and m["size"] != 12 else ""
    return (f'<text class="mk lb {_role(m, "text")}" x="{_n(v.x(m["x"]))}" y="{_n(v.y(m["y"]))}"'
            f'{align}{size}>{_svg_words(m.get("text", ""))}</text>')


def _circle(m: dict, v: _View) -> str:
    rx, ry = abs(v.x(m["r"]) - v.x(0)), abs(v.y(m["r"]) - v.y(0))
    cls = _cls("mk ci", _role(m, "grid"), "dash" if m.get("dashed") else "")
    return (f'<ellipse class="{cls}" cx="{_n(v.x(m["x"]))}" cy="{_n(v.y(m["y"]))}" rx="{_n(rx)}" ry="{_n(ry)}"'
            f'{_stroke(m, 1.2)}/>')


MARKS = {"point": _point, "arrow": _arrow, "line": _line, "polygon": _polygon, "label": _label, "circle": _circle}


def _grid(spec: dict, v: _View) -> str:
    """Grid lines, the axes through 0, axis names and tick numbers, as plane.js draws them."""
    out = []
    step = spec.get("grid", 1)
    if step and step > 0:
        d = []
        x = math.ceil(v.xs[0] / step) * step
        while x <= v.xs[1] + 1e-9:
            d.append(f"M{_n(v.x(x))} {_n(v.y(v.ys[0]))}V{_n(v.y(v.ys[1]))}")
            x += step
        y = math.ceil(v.ys[0] / step) * step
        while y <= v.ys[1] + 1e-9:
            d.append(f"M{_n(v.x(v.xs[0]))} {_n(v.y(y))}H{_n(v.x(v.xs[1]))}")
            y += step
        out.append(f'<path class="gr" d="{"".join(d)}"/>')
    axes = []
    if v.ys[0] <= 0 <= v.ys[1]:
        axes.append(f"M{_n(v.x(v.xs[0]))} {_n(v.y(0))}H{_n(v.x(v.xs[1]))}")
    if v.xs[0] <= 0 <= v.xs[1]:
        axes.append(f"M{_n(v.x(0))} {_n(v.y(v.ys[0]))}V{_n(v.y(v.ys[1]))}")
    if axes:
        out.append(f'<path class="ax" d="{"".join(axes)}"/>')
    names = spec.get("axes")
    if names:
        if names[0]:
            y0 = v.y(max(v.ys[0], min(0, v.ys[1]))) - 4
            out.append(f'<text class="tk" x="{_n(v.x(v.xs[1]) - 2)}" y="{_n(y0)}" text-anchor="end">{_svg_words(names[0])}</text>')
        if len(names) > 1 and names[1]:
            x0 = v.x(max(v.xs[0], min(0, v.xs[1]))) + 4
            out.append(f'<text class="tk" x="{_n(x0)}" y="{_n(v.y(v.ys[1]) + 10)}">{_svg_words(names[1])}</text>')
    ticks = spec.get("ticks") or {}
    for at in ticks.get("x") or []:  # a tick's number as the page writes numbers (a minus sign)
        out.append(f'<text class="tk" x="{_n(v.x(at))}" y="{_n(v.y(v.ys[0]) + 12)}" text-anchor="middle">'
                   f'{localized(_n(at))}</text>')
    for at in ticks.get("y") or []:  # the lowest above its tick, clear of the x axis's first number
        out.append(f'<text class="tk" x="{_n(v.x(v.xs[0]) - 3)}" y="{_n(v.y(at) + (-2 if at <= v.ys[0] else 3))}" '
                   f'text-anchor="end">{localized(_n(at))}</text>')
    return "".join(out)


def _svg(width: float, height: float, label: str, body: str, sized: bool = False) -> str:
    """An <svg>; ``sized`` ones keep their natural size (a table of numbers), the
    others take the panel's width."""
    size = f' width="{_n(width)}" height="{_n(height)}"' if sized else ""
    return (f'<svg class="ex-svg" viewBox="0 0 {_n(width)} {_n(height)}"{size} role="img" aria-label="{_attr(label)}">'
            f"{body}</svg>")


def plane_svg(spec: dict) -> str:
    """A plane or a chart: grid and axes under one element a mark (a chart's series
    first, as lines, as chart.js draws them)."""
    if spec.get("kind") == "chart":
        spec = dict(spec, square=False, grid=spec.get("grid", 0),
                    axes=spec.get("axes") or [spec.get("x_label") or "", spec.get("y_label") or ""])
    v = _View(spec)
    v.discs = [(v.x(m["x"]), v.y(m["y"]), radius(m) + 2)
               for m in spec.get("marks") or [] if m.get("kind") == "point"]
    marks = [_line(dict(s, role=s.get("role") or "accent"), v, "accent", 2.0).replace("mk ln", "mk ln se", 1)
             for s in spec.get("series") or []]
    marks += [MARKS[m["kind"]](m, v) for m in spec.get("marks") or [] if m.get("kind") in MARKS]
    return _svg(v.w, v.h, spec.get("title") or spec.get("id", ""), _grid(spec, v) + "".join(marks))


def _chars(text: str) -> int:
    return max(1, len(str(text)))


def cells_svg(spec: dict) -> str:
    """A grid of numbers: one group (a tinted square and its text) a cell, row and
    column labels round it. A cell's tone in [-1, 1] is its opacity in the positive or
    negative role's colour."""
    rows = spec.get("rows") or []
    cols = max((len(r) for r in rows), default=0)
    row_labels = spec.get("row_labels") or []
    col_labels = spec.get("col_labels") or []
    cell_w = 7 * max([_chars(c.get("text", "")) for r in rows for c in r] + [_chars(c.get("text", "")) for c in col_labels]
                     + [4]) + 14
    left = 8 * max([_chars(c.get("text", "")) for c in row_labels] + [0]) + (14 if row_labels else 0)
    top = CELL_H if col_labels else 0
    out = []
    for j, label in enumerate(col_labels):
        out.append(f'<text class="hd" x="{_n(left + (j + .5) * cell_w)}" y="{_n(top / 2)}" text-anchor="middle"'
                   f'>{_svg_words(label.get("text", ""))}</text>')
    for i, row in enumerate(rows):
        y = top + i * CELL_H
        if i < len(row_labels):
            active = " on" if row_labels[i].get("active") or spec.get("active_row") == i else ""
            out.append(f'<text class="hd{active}" x="{_n(left - 8)}" y="{_n(y + CELL_H / 2)}" text-anchor="end"'
                       f'>{_svg_words(row_labels[i].get("text", ""))}</text>')
        for j, cell in enumerate(row):
            x = left + j * cell_w
            tone = max(-1.0, min(1.0, float(cell.get("tone") or 0)))
            sign = "c-positive" if tone >= 0 else "c-negative"
            cls = _cls("mk ce", "on" if cell.get("active") else "", "faded" if cell.get("muted") else "")
            alpha = f"{abs(tone) * .55:.2f}".lstrip("0")
            out.append(f'<g class="{cls} {sign}"><rect x="{_n(x + 1)}" y="{_n(y + 1)}" width="{_n(cell_w - 2)}" '
                       f'height="{CELL_H - 2}" fill-opacity="{alpha}"/>'
                       f'<text x="{_n(x + cell_w / 2)}" y="{_n(y + CELL_H / 2)}">{_svg_words(cell.get("text", ""))}</text></g>')
    width = left + cols * cell_w
    height = top + len(rows) * CELL_H
    return _svg(max(width, 1), max(height, 1), spec.get("title") or spec.get("id", ""), "".join(out), True)


def bars_svg(spec: dict) -> str:
    """Horizontal bars: one group (label, bar, number) a bar."""
    bars = spec.get("bars") or []
    top = float(spec.get("max") or 1.0) or 1.0
    left = 8 * max([_chars(b.get("label", "")) for b in bars] + [1]) + 12
    track = 220
    out = []
    for i, b in enumerate(bars):
        y = i * BAR_H
        length = max(0.0, min(1.0, float(b.get("value") or 0) / top)) * track
        cls = _cls("mk br", _role(b, "accent"), "on" if b.get("active") else "", "faded" if b.get("muted") else "")
        out.append(f'<g class="{cls}"><text class="hd" x="{_n(left - 8)}" y="{_n(y + BAR_H / 2)}" text-anchor="end"'
                   f'>{_svg_words(b.get("label", ""))}</text>'
                   f'<rect x="{left}" y="{_n(y + 4)}" width="{_n(length)}" height="{BAR_H - 8}"/>'
                   f'<text class="hd" x="{_n(left + length + 6)}" y="{_n(y + BAR_H / 2)}"'
                   f'>{_svg_words(b.get("text", ""))}</text></g>')
    return _svg(left + track + 60, max(1, len(bars) * BAR_H), spec.get("title") or spec.get("id", ""), "".join(out), True)


def _steps_html(spec: dict) -> str:
    items = []
    for i, step in enumerate(spec.get("steps") or []):
        on = ' class="on"' if spec.get("active") == i else ""
        detail = f' <span class="ex-still-detail">{_words(step["detail"])}</span>' if step.get("detail") else ""
        items.append(f'<li{on}><b>{_words(step.get("label", ""))}</b> {_words(step.get("note", ""))}{detail}</li>')
    formula = f'<p class="ex-still-formula">{escape(spec["formula"])}</p>' if spec.get("formula") else ""
    return f'{formula}<ol class="ex-still-steps">{"".join(items)}</ol>'


def _text_html(spec: dict) -> str:
    out = []
    if spec.get("items"):
        out.append('<dl class="ex-still-items">' + "".join(
            f"<dt>{_words(k)}</dt><dd>{_words(val)}</dd>" for k, val in spec["items"]) + "</dl>")
    mono = ' class="ex-still-mono"' if spec.get("mono") else ""
    out += [f"<p{mono}>{escape(str(p)) if mono else _words(p)}</p>" for p in spec.get("paragraphs") or []]
    return "".join(out)


def panel_html(spec: dict) -> str:
    """One panel of the still: its title, its drawing (SVG or plain HTML), its caption."""
    kind = spec.get("kind")
    if kind in ("plane", "chart"):
        body = plane_svg(spec)
    elif kind == "cells":
        body = cells_svg(spec)
    elif kind == "bars":
        body = bars_svg(spec)
        if spec.get("footer"):
            body += f'<p class="ex-still-caption">{_words(spec["footer"])}</p>'
    elif kind == "steps":
        body = _steps_html(spec)
    elif kind == "text":
        if spec.get("collapsible"):
            return ""  # folded away on screen too; paper keeps to what is shown
        body = _text_html(spec)
    else:
        return ""
    title = spec.get("title")
    head = f'<p class="ex-still-head">{_words(title)}</p>' if title else ""
    caption = f'<p class="ex-still-caption">{_words(spec["caption"])}</p>' if spec.get("caption") else ""
    wide = " ex-still-wide" if spec.get("wide") or kind in ("steps", "cells", "bars", "text") else ""
    return f'<div class="ex-still-panel ex-still-{kind}{wide}">{head}{body}{caption}</div>'


NOUNS_CAPITALISED = {"de", "lb"}  # languages whose nouns keep their capital inside a sentence


def _mid_sentence(label: str) -> str:
    """A control's label inside a sentence: "Temperature T" -> "temperature T"; a word
    in capitals ("W_Q"), or any word of a language that capitalises nouns, as it is."""
    first = label.split(" ", 1)[0]
    if language().split("-")[0] in NOUNS_CAPITALISED or not (first.isalpha() and first[1:].islower()):
        return label
    return label[:1].lower() + label[1:]


def actions(scene: dict) -> str:
    """One sentence on what the live figure lets the reader do, from its scene."""
    panels = scene.get("panels") or []
    controls = scene.get("controls") or []
    kinds = {c.get("kind") for c in controls}
    found = []
    if any(m.get("draggable") for p in panels for m in p.get("marks") or []):
        found.append(t("page.still_drag"))
    names = [c.get("label") or c.get("name") for c in controls if c.get("kind") in ("slider", "toggle", "select")]
    if names:
        found.append(t("page.still_set", names=", ".join(_mid_sentence(str(n).rstrip(":")) for n in names[:4])))
    if kinds & {"number", "grid", "matrix"}:
        found.append(t("page.still_type"))
    if "play" in kinds:
        found.append(t("page.still_play"))
    if any(c.get("select") for p in panels for r in p.get("rows") or [] for c in r) or any(
            m.get("select") for p in panels for m in p.get("marks") or []):
        found.append(t("page.still_pick"))
    if "buttons" in kinds:
        found.append(t("page.still_try"))
    if not found:
        return ""
    text = found[0] if len(found) == 1 else ", ".join(found[:-1]) + t("page.still_and") + found[-1]
    return t("page.still_can", actions=text)


def still(scene: dict) -> str:
    """The figure's first frame as static markup (hidden on screen while the live
    figure is drawn; shown in print, without JavaScript, and when the engine fails)."""
    panels = "".join(panel_html(p) for p in scene.get("panels") or [])
    title = f'<p class="ex-still-title">{_words(scene["title"])}</p>' if scene.get("title") else ""
    status = f'<p class="ex-still-status">{_words(scene["status"])}</p>' if scene.get("status") else ""
    can = actions(scene)
    note = f'<p class="ex-still-note">{escape(can)}</p>' if can else ""
    return f'<div class="ex-still">{title}<div class="ex-still-panels">{panels}</div>{status}{note}</div>'
