"""Scene builders: a mark is data plus channels, and one call draws N of them.

After Observable Plot's marks. A *channel* is what a mark says about each element
(its label, role, shape, whether it is muted) and may be given three ways:

- a constant, the same for every element: ``role="key"``;
- a list or tuple, one entry an element: ``label=tokens``;
- a function of the element's index: ``shape=lambda j: "ring" if j == i else "circle"``.

A channel whose value is None or False for an element is left out of that element's
JSON (the renderer reads a missing flag as off). Builders return plain dicts in the
format of SCENE.md, so a figure can mix them with dicts of its own.

    plane("keys", points("key", K, label=tokens, role="key", draggable=True),
          arrows("query", [(0, 0)], [q], role="query"), x=[-3, 3], y=[-3, 3], square=True)
"""

from __future__ import annotations

import builtins
import contextlib
import math
from collections.abc import Iterable, Iterator, Sequence
from contextvars import ContextVar
from typing import Any

from .text import spoken

# Whether a scene being drawn may leave its cells' arithmetic for later (see ``lean``).
_LEAN: ContextVar[bool] = ContextVar("lean", default=False)


@contextlib.contextmanager
def lean(on: bool = True) -> Iterator[None]:
    """Draw scenes without the cells' arithmetic while inside (engine/runtime.py ``step``
    asks for it while the reader is not looking at any arithmetic): a ``cells`` panel whose
    ``detail`` channel is a function leaves it uncalled, gives every cell an empty
    ``detail`` and says ``"detail_later": true``, as a page's first frame does. The page
    asks for the whole scene once it is idle, or at once for a reader pointing at a cell.
    A table's arithmetic is about half of its scene: the reader's drag is answered
    sooner."""
    token = _LEAN.set(on)
    try:
        yield
    finally:
        _LEAN.reset(token)


def channel(value: Any, *index: int) -> Any:
    """The value of a channel for the element at ``index`` (one index, or row and column)."""
    if callable(value):
        return value(*index)
    if isinstance(value, (list, tuple)):
        for i in index:
            value = value[i]
        return value
    return value


_CONSTANT, _CALL, _LOOK_UP = 0, 1, 2


def _sorted(channels: dict[str, Any]) -> list[tuple[str, int, Any]]:
    """The channels as (key, how its value is found, value), sorted out once a mark
    rather than once an element: a table draws hundreds of cells an answer."""
    return [
        (key, _CALL if callable(value) else _LOOK_UP if isinstance(value, (list, tuple)) else _CONSTANT, value)
        for key, value in channels.items()
    ]


def _element(base: dict[str, Any], channels: list[tuple[str, int, Any]], *index: int) -> dict[str, Any]:
    """One element: ``base`` and its channels' values at ``index`` (``channels`` as
    ``_sorted`` gives them; their values as ``channel`` finds them), those that are None
    or False left out."""
    out = dict(base)
    for key, how, value in channels:
        if how == _CALL:
            value = value(*index)
        elif how == _LOOK_UP:
            for i in index:
                value = value[i]
        if value is not None and value is not False:
            out[key] = value
    return out


def _ids(prefix: str | None, index: Iterable[int]) -> list[str | None]:
    return [f"{prefix}-{i}" if prefix else None for i in index]


def element_id(mark: str, index: Any) -> str:
    """An element's id as the builders write it, for messages: ("key", 3) -> "key-3",
    ("cell", (1, 2)) -> "cell-1-2", ("probe", None) -> "probe"."""
    if index is None:
        return mark
    return "-".join([mark, *map(str, index if isinstance(index, (list, tuple)) else [index])])


def _flat(items: Iterable[Any]) -> list[dict[str, Any]]:
    """Marks and lists of marks, flattened; None (a mark left out) skipped."""
    out: list[dict[str, Any]] = []
    for item in items:
        if item is None:
            continue
        if isinstance(item, dict):
            out.append(item)
        else:
            out.extend(_flat(item))
    return out


DRAGGABLE = ("point", "arrow")  # the marks the renderer drags (static/js/panels/plane.js)


def _held(kind: str, elements: Iterable[dict[str, Any]]) -> None:
    """Refuse ``draggable`` on elements the renderer cannot drag: the flag would be sent
    and silently ignored, and the figure's on_drag never called."""
    if any(isinstance(e, dict) and e.get("draggable") for e in elements):
        raise ValueError(
            f"{'an' if kind[0] in 'aeiou' else 'a'} {kind} cannot be dragged (draggable=True): only points and "
            f"arrows can, an arrow by its head; put points(..., draggable=True) where the reader should take hold"
        )


def _panel(kind: str, id: str, options: dict[str, Any]) -> dict[str, Any]:
    _held(f"{kind} panel", [options])
    for mark in options.get("marks") or ():
        if isinstance(mark, dict) and mark.get("kind") not in DRAGGABLE:
            _held(str(mark.get("kind") or "mark"), [mark])  # a mark written as a dict of its own
    out: dict[str, Any] = {"kind": kind, "id": id}
    out.update({k: spoken(v) if k in _WORDED else v for k, v in options.items() if v is not None})
    if out.get("legend"):
        out["legend"] = [_legend_entry(*e) if isinstance(e, (tuple, list)) else e for e in out["legend"]]
    return out


_WORDED = ("title", "caption", "footer", "collapsible")  # a panel's words: text, or a Say read when drawn


def _legend_entry(role: str, label: Any, shape: str | None = None) -> dict[str, Any]:
    """A legend entry written (role, label) or (role, label, shape), the label a Say or text."""
    return {"role": role, "label": spoken(label), **({"shape": shape} if shape else {})}


# --- marks on a plane or a chart -------------------------------------------------------


def points(
    prefix: str | None, P: Sequence[Sequence[float]], *, index: Sequence[int] | None = None, **channels: Any
) -> list[dict[str, Any]]:
    """One point a row of P (x, y). Ids are ``prefix-i`` unless an ``id`` channel is given;
    ``index`` gives each point the index it stands for where P is a part of a whole
    (``points("value", [V[j] for j in js], index=js)``): its id and what a click or a drag
    reports. Channels: role, label, shape, size, draggable, select, muted, name, link, anchor."""
    channels.setdefault("id", _ids(prefix, index if index is not None else range(len(P))))
    found = _sorted(channels)
    return _referred(
        prefix,
        [_element({"kind": "point", "x": float(p[0]), "y": float(p[1])}, found, i) for i, p in enumerate(P)],
        index,
    )


def arrows(prefix: str | None, tails: Any, heads: Sequence[Sequence[float]], **channels: Any) -> list[dict[str, Any]]:
    """One arrow from ``tails[i]`` (or one shared tail, e.g. (0, 0)) to ``heads[i]``. Ids are
    ``prefix-i`` unless an ``id`` channel is given. Channels: role, dashed, label, link,
    muted, width, gap, draggable (the reader drags its head: on_drag gets the head's x, y)."""
    shared = len(tails) == 2 and not isinstance(tails[0], (list, tuple))
    channels.setdefault("id", _ids(prefix, range(len(heads))))
    found = _sorted(channels)
    out = []
    for i, head in enumerate(heads):
        tail = tails if shared else tails[i]
        base = {"kind": "arrow", "x1": float(tail[0]), "y1": float(tail[1]), "x2": float(head[0]), "y2": float(head[1])}
        out.append(_element(base, found, i))
    return _referred(prefix, out)


def _referred(
    prefix: str | None, elements: list[dict[str, Any]], index: Sequence[int] | None = None
) -> list[dict[str, Any]]:
    """Each draggable or selectable element given its ``ref``, ``{"mark": prefix, "index":
    i}``, which the browser sends back with a drag or a click: the figure's ``on_drag`` and
    ``on_select`` get the mark and the index, and never read them back out of an id."""
    for i, element in enumerate(elements):
        if element.get("draggable") or element.get("select"):
            element["ref"] = {"mark": prefix or element.get("id") or "", "index": index[i] if index is not None else i}
    return elements


def lines(paths: Sequence[Sequence[Sequence[float]]], **channels: Any) -> list[dict[str, Any]]:
    """One polyline a path of (x, y) points. Channels: role, dashed, dotted, link, width, muted."""
    found = _sorted(channels)
    out = [
        _element({"kind": "line", "points": [[float(x), float(y)] for x, y in path]}, found, i)
        for i, path in enumerate(paths)
    ]
    _held("line", out)
    return out


def line(path: Sequence[Sequence[float]], **channels: Any) -> dict[str, Any]:
    """A single polyline (``lines`` of one path)."""
    return lines([path], **channels)[0]


def polygon(P: Sequence[Sequence[float]], role: str = "hull", **channels: Any) -> dict[str, Any]:
    """A shaded area through the points P, e.g. a convex hull."""
    out = _element(
        {"kind": "polygon", "points": [[float(x), float(y)] for x, y in P], "role": role}, _sorted(channels), 0
    )
    _held("polygon", [out])
    return out


def _placed(kind: str, P: Sequence[Sequence[float]], channels: dict[str, Any]) -> list[dict[str, Any]]:
    """One element of ``kind`` at each point of P, with its channels (none of them draggable)."""
    found = _sorted(channels)
    out = [_element({"kind": kind, "x": float(p[0]), "y": float(p[1])}, found, i) for i, p in enumerate(P)]
    _held(kind, out)
    return out


def labels(P: Sequence[Sequence[float]], text: Any, **channels: Any) -> list[dict[str, Any]]:
    """Text at the points P, centred on y. Channels: role, align (which end sits at x), size."""
    return _placed("label", P, {**channels, "text": text})


def circles(centres: Sequence[Sequence[float]], r: Any, **channels: Any) -> list[dict[str, Any]]:
    """Circles of radius ``r`` (data units) round the centres. Channels: role, dashed, width."""
    return _placed("circle", centres, {**channels, "r": r})


# --- panels ------------------------------------------------------------------------------


def plane(
    id: str,
    *marks: Any,
    x: Sequence[float] = (),
    y: Sequence[float] = (),
    half: float | None = None,
    **options: Any,
) -> dict[str, Any]:
    """A 2-D canvas holding ``marks`` (marks, lists of marks, None to leave one out), from
    ``x`` and ``y`` ([lo, hi] each), or with ``half`` a square one from -half to half on
    both axes. Options as in SCENE.md: title, caption, square, ratio, ticks, grid, axes,
    keyboard, legend, selected, wide; a legend entry may be written (role, label) or
    (role, label, shape). Only its points and arrows may be draggable."""
    if half is not None:
        x, y, options = (-half, half), (-half, half), {"square": True, **options}
    elif not x or not y:
        raise TypeError(f"plane {id!r} needs x=[lo, hi] and y=[lo, hi], or half=")
    return _panel("plane", id, {"x": list(x), "y": list(y), **options, "marks": _flat(marks)})


def chart(
    id: str, *marks: Any, x: Sequence[float], y: Sequence[float], series: Sequence[dict[str, Any]] = (), **options: Any
) -> dict[str, Any]:
    """A line chart: ``series`` (see ``series``) under ``marks``. Options: x_label, y_label,
    ratio, grid, ticks, keyboard, title, caption."""
    return _panel("chart", id, {"x": list(x), "y": list(y), **options, "series": list(series), "marks": _flat(marks)})


def series(P: Sequence[Sequence[float]], role: str, **channels: Any) -> dict[str, Any]:
    """One curve of a chart. Channels: width, dashed, link."""
    out = _element({"points": [[float(x), float(y)] for x, y in P], "role": role}, _sorted(channels), 0)
    _held("chart series", [out])
    return out


def _round_up(v: float) -> str:
    """A round number at least as large as |v|, to suggest as a bar's max (105 -> 200)."""
    if v == 0 or not math.isfinite(v):
        return "1"
    step = 10 ** math.floor(math.log10(abs(v)))
    return f"{math.ceil(abs(v) / step) * step:g}"


def bars(
    id: str,
    values: Sequence[float],
    /,
    *,
    label: Any,
    text: Any = None,
    max: float = 1.0,
    footer: str | None = None,
    **channels_and_options: Any,
) -> dict[str, Any]:
    """Horizontal bars, one a value from 0 to ``max`` (a full bar). Channels: label, text,
    link, role, muted, active, select, id. Panel options: title, caption, footer, wide,
    mark: the name a click on bar i reports to ``on_select`` with i (default: the id).
    A value outside 0 to ``max`` is an error: drawn, it would be cut off without a word."""
    for v in values:
        if v < 0:
            raise ValueError(
                f"bars '{id}': the value {v:g} is below 0, and a bar runs from 0; "
                f"draw values of both signs with chart() or cells()"
            )
        if v > max * (1 + 1e-9):
            raise ValueError(
                f"bars '{id}': the value {v:g} is above max={max:g}, the value a full bar stands "
                f"for; pass a larger max (e.g. max={_round_up(builtins.max(values))})"
            )
    panel_keys = {"title", "caption", "wide", "mark"}
    options = {k: v for k, v in channels_and_options.items() if k in panel_keys}
    channels = {k: v for k, v in channels_and_options.items() if k not in panel_keys}
    channels.update(label=label, text=text if text is not None else [f"{v:.2f}" for v in values])
    found = _sorted(channels)
    items = [_element({"value": float(v)}, found, i) for i, v in enumerate(values)]
    _held("bar", items)
    return _panel("bars", id, {**options, "max": max, "bars": items, "footer": footer})


def cells(id: str, R: int, C: int, /, **channels_and_options: Any) -> dict[str, Any]:
    """A grid of R rows and C columns of cells. Cell channels take (i, j): text, tone,
    link, id, select, active, muted, tip (the cell's tooltip, its "title"), detail.
    Panel options: title, caption, col_labels, row_labels (lists of label dicts, see
    ``heading``), active_row, wide, mark: the name a click on cell (i, j) reports to
    ``on_select`` with (i, j) (default: the id), and key: what the colours mean, as (tone, words)
    pairs, e.g. ``key=[(-1, "poor match"), (1, "good match")]``, each shown as a swatch
    of that tone's fill beside its words."""
    panel_keys = {"title", "caption", "col_labels", "row_labels", "active_row", "wide", "key", "mark"}
    options = {k: v for k, v in channels_and_options.items() if k in panel_keys}
    if "key" in options:
        options["key"] = [{"tone": float(tone), "label": str(label)} for tone, label in options["key"]]
    channels = {k: v for k, v in channels_and_options.items() if k not in panel_keys}
    if "tip" in channels:  # "title" names the panel's heading, so a cell's tooltip is "tip"
        channels["title"] = channels.pop("tip")
    later = _LEAN.get() and callable(channels.get("detail"))  # see ``lean``
    if later:
        del channels["detail"]
        options["detail_later"] = True
    found = _sorted(channels)
    rows = [[_element({}, found, i, j) for j in range(C)] for i in range(R)]
    _held("cell", [cell for row in rows for cell in row])
    for row in rows:
        for cell in row:
            if isinstance(cell.get("tone"), float):  # a fill: a thousandth is finer than any eye
                cell["tone"] = round(cell["tone"], 3)  # (and it keeps the page's first frame small)
            if later:
                cell["detail"] = []
    return _panel("cells", id, {**options, "rows": rows})


def heading(n: int, mark: str | None = None, **channels: Any) -> list[dict[str, Any]]:
    """Row or column labels of a cells panel, one a channel entry: text, link, active,
    select, id, title. A click on a selectable label i reports ``mark`` (default: its id)
    and i to ``on_select``."""
    found = _sorted(channels)
    out = [_element({}, found, i) for i in range(n)]
    _held("row or column label", out)
    return _referred(mark, out)


def steps(
    id: str, items: Sequence[Sequence[str]], *, active: int | None, details: Sequence[str] = (), **options: Any
) -> dict[str, Any]:
    """A formula as numbered steps: ``items`` holds (label, note) or (label, note, detail);
    ``details`` gives the steps their details in order, beside (label, note) items."""
    out = []
    for n, item in enumerate(items):
        step = {"label": item[0], "note": item[1]}
        detail = item[2] if len(item) > 2 else details[n] if n < len(details) else ""
        if detail:
            step["detail"] = detail
        out.append(step)
    return _panel("steps", id, {**options, "steps": out, "active": active})


def text(id: str, *paragraphs: str, **options: Any) -> dict[str, Any]:
    """Plain words: paragraphs (text, or a Say), and optional items ([[name, value], ...]),
    collapsible, mono. A paragraph that is no text is an error: None was written "None"."""
    written = [spoken(p) for p in paragraphs]
    for p in written:
        if not isinstance(p, str):
            raise TypeError(
                f"text '{id}': a paragraph is text, got {p!r}; write it as text (f\"{{x}}\") or leave it out"
            )
    return _panel("text", id, {**options, "paragraphs": written})
