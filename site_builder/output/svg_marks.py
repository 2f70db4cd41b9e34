"""The marks of a plane or chart still (site_builder/output/svg.py), drawn as the canvas
draws them (static/js/marks/, static/js/panels/plane.js), with the geometry both read
(static/js/geometry.js): a view from data to px, the names placed beside points and
arrows, the grid and the axes. Text is escaped here and, on a right-to-left page,
isolated as the browser's renderer isolates it."""

from __future__ import annotations

import math
import re
from html import escape

from ...engine.locale import direction, language, localized
from .geometry import GEOMETRY, radius

WIDTH = 400  # the nominal width of a plane, in px (the canvas is 300-500 px on most screens)
PAD = GEOMETRY["pad"]  # the margin round the data domain


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
        self.discs: list[tuple] = []  # every point (x, y, r) a name must not cover

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
    else:  # no spot is free: the first one tried (SIDES is never empty)
        if first is not None:
            side, box = first
    view.placed.append(box)
    mid = (box[0] + box[2]) / 2
    return (
        f'<text class="nm" x="{_n(mid)}" y="{_n((box[1] + box[3]) / 2)}" text-anchor="middle">{_svg_words(text)}</text>'
    )


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
        body = (
            f'<polygon{own} points="{_n(x)},{_n(y - d)} {_n(x + d)},{_n(y)} {_n(x)},{_n(y + d)} {_n(x - d)},{_n(y)}"/>'
        )
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
        parts.append(
            f'<path d="M{_n(x1)} {_n(y1)}L{_n(x2 - ux * head * 0.8)} {_n(y2 - uy * head * 0.8)}"{_stroke(m, 2.5)}/>'
        )
        parts.append(
            f'<polygon points="{_n(x2)},{_n(y2)} {_n(x2 - ux * head - uy * head * 0.45)},'
            f"{_n(y2 - uy * head + ux * head * 0.45)} {_n(x2 - ux * head + uy * head * 0.45)},"
            f'{_n(y2 - uy * head - ux * head * 0.45)}"/>'
        )
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
    align = {"center": ' text-anchor="middle"', "right": ' text-anchor="end"'}.get(m.get("align") or "", "")
    size = f' font-size="{_n(m["size"])}"' if m.get("size") and m["size"] != 12 else ""
    return (
        f'<text class="mk lb {_role(m, "text")}" x="{_n(v.x(m["x"]))}" y="{_n(v.y(m["y"]))}"'
        f"{align}{size}>{_svg_words(m.get('text', ''))}</text>"
    )


def _circle(m: dict, v: _View) -> str:
    rx, ry = abs(v.x(m["r"]) - v.x(0)), abs(v.y(m["r"]) - v.y(0))
    cls = _cls("mk ci", _role(m, "grid"), "dash" if m.get("dashed") else "")
    return (
        f'<ellipse class="{cls}" cx="{_n(v.x(m["x"]))}" cy="{_n(v.y(m["y"]))}" rx="{_n(rx)}" ry="{_n(ry)}"'
        f"{_stroke(m, 1.2)}/>"
    )


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
            x_end = _n(v.x(v.xs[1]) - 2)
            out.append(f'<text class="tk" x="{x_end}" y="{_n(y0)}" text-anchor="end">{_svg_words(names[0])}</text>')
        if len(names) > 1 and names[1]:
            x0 = v.x(max(v.xs[0], min(0, v.xs[1]))) + 4
            out.append(f'<text class="tk" x="{_n(x0)}" y="{_n(v.y(v.ys[1]) + 10)}">{_svg_words(names[1])}</text>')
    ticks = spec.get("ticks") or {}
    for at in ticks.get("x") or []:  # a tick's number as the page writes numbers (a minus sign)
        out.append(
            f'<text class="tk" x="{_n(v.x(at))}" y="{_n(v.y(v.ys[0]) + 12)}" text-anchor="middle">'
            f"{localized(_n(at))}</text>"
        )
    for at in ticks.get("y") or []:  # the lowest above its tick, clear of the x axis's first number
        out.append(
            f'<text class="tk" x="{_n(v.x(v.xs[0]) - 3)}" y="{_n(v.y(at) + (-2 if at <= v.ys[0] else 3))}" '
            f'text-anchor="end">{localized(_n(at))}</text>'
        )
    return "".join(out)
