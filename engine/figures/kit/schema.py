"""The scene format, declared once: every panel, mark and control kind with its fields,
their types and which may be left out.

A figure's ``scene(state)`` is checked against it when Python makes the scene in the
build and in tests (``check_scene``; in the browser's worker it is not, so no reader's
change pays for it); tests/test_scene_schema.py checks that every field the renderer's
scripts (static/js/panels, marks, controls.js) read is declared here; and
engine/figures/SCENE.md's reference tables are written from it (``reference``).

A field is ``name: type``; a name ending in "?" may be left out. Types: ``text``,
``number`` (a finite int or float), ``int``, ``bool``, ``range`` ([lo, hi]), ``points``
([[x, y], ...]), ``list``, ``dict``, ``any``, ``T|null`` (None allowed), and
``[NAME]``: a list of the elements declared as ELEMENTS[NAME] (``[[NAME]]``: rows of them).
"""

from __future__ import annotations

import math
import sys
from typing import Any

# Scenes are checked where Python makes them for the build and the tests; in the browser's
# worker (Pyodide) they are not, so that no reader's change pays for it.
CHECKED = sys.platform != "emscripten"

SCENE = {"title?": "text|null", "status?": "text|null", "panels": "[panel]", "controls": "[control]", "values": "dict"}

PANEL = {"kind": "text", "id": "text", "title?": "text", "caption?": "text", "wide?": "bool", "description?": "text"}
PLANE = {
    "x": "range",
    "y": "range",
    "square?": "bool",
    "ratio?": "number",
    "ticks?": "dict",
    "grid?": "number",
    "axes?": "list",
    "keyboard?": "dict",
    "legend?": "[legend]",
    "selected?": "text",
    "marks?": "[mark]",
}
PANELS = {
    "plane": PLANE,
    "chart": {**PLANE, "x_label?": "text", "y_label?": "text", "series?": "[series]"},
    "cells": {
        "rows": "[[cell]]",
        "col_labels?": "[heading]",
        "row_labels?": "[heading]",
        "active_row?": "int|null",
        "key?": "[key]",
        "detail_later?": "bool",
        "mark?": "text",
    },
    "bars": {"bars": "[bar]", "max": "number", "footer?": "text", "mark?": "text"},
    "steps": {"steps": "[step]", "formula?": "text", "active": "int|null"},
    "text": {"paragraphs?": "list", "items?": "list", "collapsible?": "text", "mono?": "bool"},
}

MARK = {
    "kind": "text",
    "id?": "text",
    "role?": "text",
    "link?": "text",
    "muted?": "bool",
    "name?": "text",
    "label?": "text",
}
MARKS = {
    "point": {
        "x": "number",
        "y": "number",
        "anchor?": "text",
        "shape?": "text",
        "size?": "number",
        "draggable?": "bool",
        "ref?": "dict",
        "select?": "bool",
    },
    "arrow": {
        "x1": "number",
        "y1": "number",
        "x2": "number",
        "y2": "number",
        "dashed?": "bool",
        "width?": "number",
        "gap?": "number",
        "draggable?": "bool",
        "ref?": "dict",
    },
    "line": {"points": "points", "dashed?": "bool", "dotted?": "bool", "width?": "number"},
    "polygon": {"points": "points"},
    "label": {"x": "number", "y": "number", "text": "text", "align?": "text", "size?": "number"},
    "circle": {"x": "number", "y": "number", "r": "number", "dashed?": "bool", "width?": "number"},
}

CONTROL = {"kind": "text", "name": "text", "label": "text", "help?": "text", "near?": "text"}
CONTROLS = {
    "slider": {
        "min": "number",
        "max": "number",
        "step": "number",
        "value": "number",
        "digits?": "int",
        "log?": "bool",
        "log_steps?": "int",
    },
    "toggle": {"value": "bool"},
    "select": {"value": "any", "options": "[option]"},
    "buttons": {"name?": "text", "label?": "text", "items": "[item]", "message?": "text", "reveal?": "text"},
    "number": {"value": "text"},
    "grid": {"col_labels": "list", "rows": "[row]", "corner?": "text"},
    "matrix": {"rows": "[[field]]", "presets?": "[preset]"},
    "play": {"playing": "bool", "interval": "number", "event": "dict"},
}

# the elements that panels and controls hold in lists
ELEMENTS = {
    "legend": {"role": "text", "label": "text", "shape?": "text"},
    "series": {"points": "points", "role?": "text", "width?": "number", "dashed?": "bool", "link?": "text"},
    "cell": {
        "text?": "text",
        "tone?": "number",
        "link?": "text",
        "id?": "text",
        "select?": "bool",
        "active?": "bool",
        "muted?": "bool",
        "title?": "text",
        "detail?": "list",
    },
    "heading": {
        "text": "text",
        "link?": "text",
        "active?": "bool",
        "select?": "bool",
        "id?": "text",
        "title?": "text",
        "ref?": "dict",
    },
    "key": {"tone": "number", "label": "text"},
    "bar": {
        "label": "text",
        "value": "number",
        "text": "text",
        "link?": "text",
        "role?": "text",
        "muted?": "bool",
        "active?": "bool",
        "select?": "bool",
        "id?": "text",
    },
    "step": {"label": "text", "note": "text", "detail?": "text"},
    "option": {"value": "any", "label": "text"},
    "item": {"name": "text", "label": "text", "active?": "bool", "title?": "text"},
    "row": {"label": "text", "link?": "text", "cells": "[field]"},
    "field": {"name": "text", "value": "text", "label?": "text"},
    "preset": {"name": "text", "label": "text", "active?": "bool"},
}


class SceneError(ValueError):
    """A scene the renderer would misread: where (scene.panels[0].marks[3]) and what."""


def fields_of(group: str, kind: str) -> dict[str, str]:
    """Every field of a panel, mark or control ``kind`` (group "panel", "mark", "control")."""
    common, kinds = {"panel": (PANEL, PANELS), "mark": (MARK, MARKS), "control": (CONTROL, CONTROLS)}[group]
    return {**common, **kinds[kind]}


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _points(v: Any) -> bool:
    return isinstance(v, (list, tuple)) and all(
        isinstance(p, (list, tuple)) and len(p) == 2 and _number(p[0]) and _number(p[1]) for p in v
    )


_SIMPLE = {
    "text": lambda v: isinstance(v, str),
    "number": _number,
    "bool": lambda v: isinstance(v, bool),
    "int": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "list": lambda v: isinstance(v, (list, tuple)),
    "dict": lambda v: isinstance(v, dict),
    "any": lambda v: True,
    "range": lambda v: isinstance(v, (list, tuple)) and len(v) == 2 and _number(v[0]) and _number(v[1]),
    "points": _points,
}


class _Wrong(Exception):
    """What is wrong (" is 'a', not number"); the path to it is added as it is raised
    through each level, so that a scene with nothing wrong pays for no path."""

    def __init__(self, problem: str):
        super().__init__(problem)
        self.problem = problem
        self.path: list[str] = []


def _typed(value: Any, kind: str) -> None:
    if kind.endswith("|null"):
        if value is None:
            return
        kind = kind[:-5]
    ok = _SIMPLE.get(kind)
    if ok is not None:
        if not ok(value):
            raise _Wrong(f" is {value!r}, not {kind}")
        return
    inner = kind[1:-1]  # "[mark]" or "[[cell]]"
    if not isinstance(value, (list, tuple)):
        raise _Wrong(f" is {value!r}, not a list")
    check = _typed if inner.startswith("[") else _element
    for i, element in enumerate(value):
        try:
            check(element, inner)
        except _Wrong as err:
            err.path.append(f"[{i}]")
            raise


def _element(value: Any, name: str) -> None:
    if not isinstance(value, dict):
        raise _Wrong(f" is {value!r}, not a dict")
    if name not in _GROUPS:
        _check(value, _declared("element", name))
        return
    kind = value.get("kind")
    if kind not in _GROUPS[name][1]:
        raise _Wrong(f": no {name} kind {kind!r}; the kinds: {', '.join(_GROUPS[name][1])}")
    try:
        _check(value, _declared(name, kind))
    except _Wrong as err:
        err.path.append(f" ({kind}{' ' + repr(value['id']) if isinstance(value.get('id'), str) else ''})")
        raise


_GROUPS = {"panel": (PANEL, PANELS), "mark": (MARK, MARKS), "control": (CONTROL, CONTROLS)}
_DECLARED: dict[tuple[str, str], tuple[dict[str, str], tuple[str, ...]]] = {}


def _declared(group: str, kind: str) -> tuple[dict[str, str], tuple[str, ...]]:
    """(field -> type, the fields that must be there) of a kind, worked out once."""
    key = (group, kind)
    if key not in _DECLARED:
        fields = ELEMENTS[kind] if group == "element" else SCENE if group == "scene" else fields_of(group, kind)
        types = {f.rstrip("?"): t for f, t in fields.items()}
        optional = {f.rstrip("?") for f in fields if f.endswith("?")}
        _DECLARED[key] = types, tuple(f for f in types if f not in optional)
    return _DECLARED[key]


def _check(value: dict, declared: tuple[dict[str, str], tuple[str, ...]]) -> None:
    types, required = declared
    for key, item in value.items():
        kind = types.get(key)
        if kind is None:
            raise _Wrong(f": no field {key!r} is read; its fields: {', '.join(types)}")
        try:
            _typed(item, kind)
        except _Wrong as err:
            err.path.append(f".{key}")
            raise
    missing = [f for f in required if f not in value]
    if missing:
        raise _Wrong(f": {', '.join(missing)} missing")


def check_scene(scene: Any) -> None:
    """Raise SceneError at the first field of ``scene`` the renderer would misread, with
    its path: "scene.panels[0] (plane 'keys').marks[3] (point): no field 'colour' is read"."""
    if not isinstance(scene, dict):
        raise SceneError(f"the scene is {scene!r}, not a dict")
    try:
        _check(scene, _declared("scene", ""))
    except _Wrong as err:
        raise SceneError("scene" + "".join(reversed(err.path)) + err.problem) from None


# The colour roles a mark, series, bar or legend entry may take: the stylesheet
# (static/css/page.css, --ex-ROLE) gives each a light and a dark colour. Each with what it
# suits in any figure, and what the built-in attention figures use it for.
ROLES = {
    "query": ("amber", "the first kind of thing, or the one asked about", "a query"),
    "key": ("blue", "the second kind, compared with the first", "keys"),
    "value": ("grey", "a third kind, or what is carried along", "values"),
    "output": ("pink", "a result: what the figure computes from the rest", "an output"),
    "own": ("green", "a thing of its own, set apart from the others", "the query's own key"),
    "accent": ("violet", "one thing to look at now", "the picked row"),
    "head1": ("blue", "the first of two parallel parts", "head 1"),
    "head2": ("orange", "the second of two parallel parts", "head 2"),
    "positive": ("orange", "a number above zero (cells' tones too)", "positive entries"),
    "negative": ("teal", "a number below zero", "negative entries"),
    "muted": ("grey", "what is shown but not in play", "masked keys"),
    "hull": ("grey", "an area: the filled polygon's default", "the reach of the weights"),
    "axis": ("dark grey", "a guide the reader must see: axes, a unit circle", "a clock face"),
    "grid": ("light grey", "a guide the reader can do without (the one role under 3:1)", "the grid"),
    "text": ("the text's", "words on the canvas: label marks' default", "labels"),
}


def roles_table() -> str:
    """The colour roles as a Markdown table, for SCENE.md and docs/writing-a-figure.md."""
    rows = [f"| `{role}` | {colour} | {use} | {attention} |" for role, (colour, use, attention) in ROLES.items()]
    return "\n".join(["| role | colour | use it for | in the attention figures |", "|---|---|---|---|", *rows])


def reference() -> str:
    """The tables of engine/figures/SCENE.md's "Fields" section, written from the declarations."""
    out = []
    for title, common, kinds in (
        ("Panels", PANEL, PANELS),
        ("Marks", MARK, MARKS),
        ("Controls", CONTROL, CONTROLS),
        ("Elements of lists", None, ELEMENTS),
    ):
        out.append(f"### {title}\n")
        if common:
            out.append(f"Every one: {_fields(common)}.\n")
        out.extend(f"- `{kind}`: {_fields(fields)}" for kind, fields in kinds.items())
        out.append("")
    return "\n".join(out)


def _fields(fields: dict[str, str]) -> str:
    return ", ".join(f"`{name}` {kind}" for name, kind in fields.items())
