"""A figure's first frame as static SVG, for print, PDF and pages without JavaScript.

The build turns the same scene the browser's renderer draws (engine/figures/SCENE.md)
into markup: a plane or a chart becomes an ``<svg>`` with one element a mark, a cells
or bars panel an ``<svg>`` with one element a cell or a bar, steps and text panels plain
HTML. Colours are never written: every element carries classes (``c-query``, ``c-key``,
...) that explorables.css maps to the same custom properties the canvas reads, so the
still follows the light and dark palettes, and the strict Content-Security-Policy (no
style attributes) holds. The geometry is static/js/geometry.js (geometry.py reads it), drawn
as static/js/panels/plane.js draws it, at a nominal width; a plane's marks, grid and names
are drawn by svg_marks.py.

``still(scene)`` is the whole figure: title, panels, status sentence, and one sentence
on what the live figure lets the reader do.

On a right-to-left page the drawings keep their left-to-right geometry (explorables.css
sets the SVGs' direction), an SVG text with right-to-left letters is a right-to-left
isolate (so "chased החדשה" keeps its word order), and an HTML text with none (a formula,
a vector) is a ``<bdi dir="ltr">``, as the browser's renderer writes them.
"""

from __future__ import annotations

from html import escape

from ...engine.locale import language, t
from .geometry import radius
from .svg_marks import MARKS, PAD, _attr, _cls, _grid, _line, _n, _role, _svg_words, _View, _words  # noqa: F401

# The words this module writes for readers, in one place.

CELL_H = 24  # a row of a cells panel
BAR_H = 22  # a bar


def _svg(width: float, height: float, label: str, body: str, sized: bool = False) -> str:
    """An <svg>; ``sized`` ones keep their natural size (a table of numbers), the
    others take the panel's width."""
    size = f' width="{_n(width)}" height="{_n(height)}"' if sized else ""
    return (
        f'<svg class="ex-svg" viewBox="0 0 {_n(width)} {_n(height)}"{size} role="img" aria-label="{_attr(label)}">'
        f"{body}</svg>"
    )


def plane_svg(spec: dict) -> str:
    """A plane or a chart: grid and axes under one element a mark (a chart's series
    first, as lines, as chart.js draws them)."""
    if spec.get("kind") == "chart":
        spec = dict(
            spec,
            square=False,
            grid=spec.get("grid", 0),
            axes=spec.get("axes") or [spec.get("x_label") or "", spec.get("y_label") or ""],
        )
    v = _View(spec)
    v.discs = [(v.x(m["x"]), v.y(m["y"]), radius(m) + 2) for m in spec.get("marks") or [] if m.get("kind") == "point"]
    marks = [
        _line(dict(s, role=s.get("role") or "accent"), v, "accent", 2.0).replace("mk ln", "mk ln se", 1)
        for s in spec.get("series") or []
    ]
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
    cell_w = (
        7
        * max(
            [_chars(c.get("text", "")) for r in rows for c in r] + [_chars(c.get("text", "")) for c in col_labels] + [4]
        )
        + 14
    )
    left = 8 * max([_chars(c.get("text", "")) for c in row_labels] + [0]) + (14 if row_labels else 0)
    top = CELL_H if col_labels else 0
    out = []
    for j, label in enumerate(col_labels):
        out.append(
            f'<text class="hd" x="{_n(left + (j + 0.5) * cell_w)}" y="{_n(top / 2)}" text-anchor="middle"'
            f">{_svg_words(label.get('text', ''))}</text>"
        )
    for i, row in enumerate(rows):
        y = top + i * CELL_H
        if i < len(row_labels):
            active = " on" if row_labels[i].get("active") or spec.get("active_row") == i else ""
            out.append(
                f'<text class="hd{active}" x="{_n(left - 8)}" y="{_n(y + CELL_H / 2)}" text-anchor="end"'
                f">{_svg_words(row_labels[i].get('text', ''))}</text>"
            )
        # a row is moved down to its place, and in it a cell to the right, as a whole: its
        # square and its text are written at the same offsets in every cell, and a cell at
        # the same offset in every row, which gzip finds again (a table of 144 cells is
        # 1.2 KB smaller in the page's first frame than with each placed on the drawing)
        inner = f'<rect width="{_n(cell_w - 2)}" height="{CELL_H - 2}" fill-opacity="'
        centre = f'<text x="{_n(cell_w / 2 - 1)}" y="{_n(CELL_H / 2 - 1)}">'
        cells = []
        for j, cell in enumerate(row):
            tone = max(-1.0, min(1.0, float(cell.get("tone") or 0)))
            sign = "c-positive" if tone >= 0 else "c-negative"
            cls = _cls("mk ce", "on" if cell.get("active") else "", "faded" if cell.get("muted") else "")
            alpha = f"{abs(tone) * 0.55:.2f}".lstrip("0")
            cells.append(
                f'<g class="{cls} {sign}" transform="translate({_n(left + j * cell_w + 1)})">{inner}{alpha}"/>'
                f"{centre}{_svg_words(cell.get('text', ''))}</text></g>"
            )
        if cells:
            out.append(f'<g transform="translate(0 {_n(y + 1)})">{"".join(cells)}</g>')
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
        out.append(
            f'<g class="{cls}"><text class="hd" x="{_n(left - 8)}" y="{_n(y + BAR_H / 2)}" text-anchor="end"'
            f">{_svg_words(b.get('label', ''))}</text>"
            f'<rect x="{left}" y="{_n(y + 4)}" width="{_n(length)}" height="{BAR_H - 8}"/>'
            f'<text class="hd" x="{_n(left + length + 6)}" y="{_n(y + BAR_H / 2)}"'
            f">{_svg_words(b.get('text', ''))}</text></g>"
        )
    return _svg(
        left + track + 60, max(1, len(bars) * BAR_H), spec.get("title") or spec.get("id", ""), "".join(out), True
    )


def _steps_html(spec: dict) -> str:
    items = []
    for i, step in enumerate(spec.get("steps") or []):
        on = ' class="on"' if spec.get("active") == i else ""
        detail = f' <span class="ex-still-detail">{_words(step["detail"])}</span>' if step.get("detail") else ""
        items.append(f"<li{on}><b>{_words(step.get('label', ''))}</b> {_words(step.get('note', ''))}{detail}</li>")
    formula = f'<p class="ex-still-formula">{escape(spec["formula"])}</p>' if spec.get("formula") else ""
    return f'{formula}<ol class="ex-still-steps">{"".join(items)}</ol>'


def _text_html(spec: dict) -> str:
    out = []
    if spec.get("items"):
        out.append(
            '<dl class="ex-still-items">'
            + "".join(f"<dt>{_words(k)}</dt><dd>{_words(val)}</dd>" for k, val in spec["items"])
            + "</dl>"
        )
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
        m.get("select") for p in panels for m in p.get("marks") or []
    ):
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
