"""The drawings' geometry (paddings, radii, px), declared once in static/js/geometry.js:
the runtime runs it as a script, and the stills (svg.py) read its object literal, which
is JSON."""

from __future__ import annotations

import json
from pathlib import Path

from .assets import STATIC


def read_geometry(path: Path = STATIC / "js" / "geometry.js") -> dict:
    """The object literal that geometry.js gives ``explorables.geometry``."""
    text = path.read_text(encoding="utf-8")
    start = text.index("{", text.index("explorables.geometry ="))
    return json.loads(text[start : text.index("};", start) + 1])


GEOMETRY = read_geometry()


def radius(mark: dict) -> float:
    """The radius (px) a point is drawn with, as static/js/marks/point.js draws it."""
    return mark.get("size") or GEOMETRY["point_drag" if mark.get("draggable") else "point"]
