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

PANEL = {"kind": "text", "id": "text", "title?": "text", "caption?": "text", "wide?": "bool",
         "description?": "text"}
PLANE = {"x": "range", "y": "range", "square?": "bool", "ratio?": "number", "ticks?": "dict", "grid?": "number",
         "axes?": "list", "keyboard?": "dict", "legend?": "[legend]", "selected?": "text", "marks?": "[mark]"}
PANELS = {
    "plane": PLANE,
    "chart": {**PLANE, "x_label?": "text", "y_label?": "text", "series?": "[series]"},
    "cells": {"rows": "[[cell]]", "col_labels?": "[heading]", "row_labels?": "[heading]",
              "active_row?": "int|null", "key?": "[key]", "detail_later?": "bool"},
    "bars": {"bars": "[bar]", "max": "number", "footer?": "text"},
    "steps": {"steps": "[step]", "formula?": "text", "active": "int|null"},
    "text": {"paragraphs?": "list", "items?": "list", "collapsible?": "text", "mono?": "bool"},
}

MARK = {"kind": "text", "id?": "text", "role?": "text", "link?": "text", "muted?": "bool", "name?": "text",
        "label?": "text"}
MARKS = {
    "point": {"x": "number", "y": "number", "anchor?": "text", "shape?": "text", "size?": "number",
              "draggable?": "bool", "ref?": "dict", "select?": "bool"},
    "arrow": {"x1": "number", "y1": "number", "x2": "number", "y2": "number", "dashed?": "bool",
              "width?": "number", "gap?": "number", "draggable?": "bool", "ref?": "dict"},
    "line": {"points": "points", "dashed?": "bool", "dotted?": "bool", "width?": "number"},
    "polygon": {"points": "points"},
    "label": {"x": "number", "y": "number", "text": "text", "align?": "text", "size?": "number"},
    "circle": {"x": "number", "y": "number", "r": "number", "dashed?": "bool", "width?": "number"},
}

CONTROL = {"kind": "text", "name": "text", "label": "text", "help?": "text", "near?": "text"}
CONTROLS = {
    "slider": {"min": "number", "max": "number", "step": "number", "value": "number", "digits?": "int",
               "log?": "bool", "log_steps?": "int"},
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
    "cell": {"text?": "text", "tone?": "number", "link?": "text", "id?": "text", "select?": "bool",
             "active?": "bool", "muted?": "bool", "title?": "text", "detail?": "list"},
    "heading": {"text": "text", "link?": "text", "active?": "bool", "select?": "bool", "id?": "text",
                "title?": "text"},
    "key": {"tone": "number", "label": "text"},
    "bar": {"label": "text", "value": "number", "text": "text", "link?": "text", "role?": "text", "muted?": "bool",
            "active?": "bool", "select?": "bool", "id?": "text"},
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


def _typed(value: Any, kind: str, where: str) -> None:
    if kind.endswith("|null"):
        if value is None:
            return
        kind = kind[:-5]
    ok = {"text": lambda v: isinstance(v, str), "number": _number, "bool": lambda v: isinstance(v, bool),
          "int": lambda v: isinstance(v, int) and not isinstance(v, bool), "list": lambda v: isinstance(v, (list, tuple)),
          "dict": lambda v: isinstance(v, dict), "any": lambda v: True,
          "range": lambda v: isinstance(v, (list, tuple)) and len(v) == 2 and all(map(_number, v)),
          "points": lambda v: isinstance(v, (list, tuple)) and all(
              isinstance(p, (list, tuple)) and len(p) == 2 and all(map(_number, p)) for p in v)}.get(kind)
    if ok is not None:
        if not ok(value):
            raise SceneError(f"{where} is {value!r}, not {kind}")
        return
    inner = kind[1:-1]  # "[mark]" or "[[cell]]"
    if not isinstance(value, (list, tuple)):
        raise SceneError(f"{where} is {value!r}, not a list")
    for i, element in enumerate(value):
        if inner.startswith("["):
            _typed(element, inner, f"{where}[{i}]")
        else:
            _element(element, inner, f"{where}[{i}]")


def _element(value: Any, name: str, where: str) -> None:
    if not isinstance(value, dict):
        raise SceneError(f"{where} is {value!r}, not a dict")
    if name in ("panel", "mark", "control"):
        kinds = {"panel": PANELS, "mark": MARKS, "control": CONTROLS}[name]
        if value.get("kind") not in kinds:
            raise SceneError(f"{where}: no {name} kind {value.get('kind')!r}; the kinds: {', '.join(kinds)}")
        fields = fields_of(name, value["kind"])
        where = f"{where} ({value['kind']}{' ' + repr(value['id']) if isinstance(value.get('id'), str) else ''})"
    else:
        fields = ELEMENTS[name]
    check_fields(value, fields, where)


def check_fields(value: dict, fields: dict[str, str], where: str) -> None:
    """``value`` has every field of ``fields`` it must, of its type, and no other."""
    declared = {f.rstrip("?"): (kind, f.endswith("?")) for f, kind in fields.items()}
    for key, item in value.items():
        if key not in declared:
            raise SceneError(f"{where}: no field {key!r} is read; its fields: {', '.join(declared)}")
        _typed(item, declared[key][0], f"{where}.{key}")
    missing = [f for f, (_, optional) in declared.items() if not optional and f not in value]
    if missing:
        raise SceneError(f"{where}: {', '.join(missing)} missing")


def check_scene(scene: Any) -> None:
    """Raise SceneError at the first field of ``scene`` the renderer would misread."""
    if not isinstance(scene, dict):
        raise SceneError(f"the scene is {scene!r}, not a dict")
    check_fields(scene, SCENE, "scene")


def reference() -> str:
    """The tables of engine/figures/SCENE.md's "Fields" section, written from the declarations."""
    out = []
    for title, common, kinds in (("Panels", PANEL, PANELS), ("Marks", MARK, MARKS), ("Controls", CONTROL, CONTROLS),
                                 ("Elements of lists", None, ELEMENTS)):
        out.append(f"### {title}\n")
        if common:
            out.append(f"Every one: {_fields(common)}.\n")
        out.extend(f"- `{kind}`: {_fields(fields)}" for kind, fields in kinds.items())
        out.append("")
    return "\n".join(out)


def _fields(fields: dict[str, str]) -> str:
    return ", ".join(f"`{name}` {kind}" for name, kind in fields.items())
