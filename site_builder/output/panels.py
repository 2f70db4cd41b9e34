"""The panel and mark scripts, loaded as a page needs them.

A figure's panels are drawn by the kind's script (static/js/panels/*.js; a plane's marks
by static/js/marks/*.js), and a page's first frames draw the kinds of its figures'
build-time scenes only: one or two of the six, most often. So each page loads the
runtime joined with the kinds its own scenes draw, one file per set of kinds the site's
pages use (``js/explorables.cells-text.js``, named by its content like every asset); a
page with no figure loads js/explorables.js, which carries none. (Two files, the runtime
and the kinds, were larger by a third of a kilobyte on a page that draws most kinds.)

Every other kind is registered by the runtime as a stand-in (core.js ``ex.lazyPanels``):
the first figure that draws one (a scene of the engine, a page swapped in) loads
js/panels.js, every kind at once, and draws its scene again with it; the runtime also
loads it once the page is live, so that a swap rarely has to wait. Each kind in these
files is registered only where the page does not have it yet. An offline bundle (and so
a SCORM package) carries every kind in its runtime, and loads nothing more.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from .assets import STATIC

# Each panel kind and the scripts that draw it, in the runtime's order. A chart is a
# plane drawn wider than tall: a page with a chart gets the plane's scripts too (NEEDS).
GROUPS = {
    "plane": (
        "js/marks/point.js",
        "js/marks/arrow.js",
        "js/marks/line.js",
        "js/marks/polygon.js",
        "js/marks/label.js",
        "js/marks/circle.js",
        "js/panels/plane-grid.js",
        "js/panels/plane.js",
    ),
    "cells": ("js/panels/cells.js",),
    "bars": ("js/panels/bars.js",),
    "chart": ("js/panels/chart.js",),
    "steps": ("js/panels/steps.js",),
    "text": ("js/panels/text.js",),
}
NEEDS = {"chart": ("plane",)}
# The control kinds a few figures use, made with the kit of js/controls.js (in every runtime).
CONTROLS = {
    "number": ("js/controls/number.js",),
    "grid": ("js/controls/grid.js",),
    "play": ("js/controls/play.js",),
}
KINDS = {**GROUPS, **CONTROLS}
PANEL_SCRIPTS = tuple(name for names in GROUPS.values() for name in names)
CONTROL_SCRIPTS = tuple(name for names in CONTROLS.values() for name in names)
SCRIPTS = PANEL_SCRIPTS + CONTROL_SCRIPTS
LAZY_FILE = "js/panels.js"  # every kind, for what a page's first frames did not draw (asset key "panels")
_DATA = re.compile(r'<script type="application/json" class="ex-data">(.*?)</script>', re.S)


def kinds_of(body: str) -> list[str]:
    """The panel and control kinds the build-time scenes in a page's ``body`` draw, with the
    kinds they draw through (NEEDS), in KINDS' order (those every runtime has left out)."""
    found: set[str] = set()
    for data in _DATA.findall(body or ""):
        try:
            scene = json.loads(data).get("scene") or {}
        except (ValueError, AttributeError):
            continue
        for spec in [*(scene.get("panels") or []), *(scene.get("controls") or [])]:
            kind = spec.get("kind") if isinstance(spec, dict) else None
            if kind in KINDS:
                found.update((kind, *NEEDS.get(kind, ())))
    return [kind for kind in KINDS if kind in found]


def set_file(kinds: list[str]) -> str:
    """The runtime of a page whose first frames draw ``kinds``: ['cells', 'text'] ->
    'js/explorables.cells-text.js'."""
    return f"js/explorables.{'-'.join(kinds)}.js"


def joined(assets: Path, kinds, join_scripts, minify: bool) -> str:
    """The scripts of ``kinds`` as one classic script, each kind registered only where the
    page has none yet, or only its stand-in (``waiting``: core.js)."""
    parts = []
    for kind in kinds:
        have = f"window.explorables.{'panels' if kind in GROUPS else 'controls'}[{json.dumps(kind)}]"
        text = join_scripts(assets, KINDS[kind], minify)
        parts.append(f"if (!{have} || {have}.waiting) {{\n{text}}}\n")
    return "".join(parts)


def lazy_line() -> str:
    """Every kind the runtime does not carry, a stand-in until its script comes (core.js)."""
    return f"window.explorables.lazyPanels({json.dumps(list(GROUPS))}, {json.dumps(list(CONTROLS))});\n"


def runtime(folder: Path, names: tuple[str, ...], kinds, join_scripts, minify: bool) -> str:
    """The runtime (``names``, read from ``folder``) with the scripts of ``kinds``: the panel
    kinds' and the stand-ins of the others after its first three scripts (core, numbers,
    geometry), the control kinds' after js/controls.js; boot.js, the last, may draw the
    figures as it runs."""
    drawn = tuple(script for kind in kinds if kind in GROUPS for script in GROUPS[kind])
    head = join_scripts(folder, (*names[:3], *drawn), minify)
    return head + ";\n" + lazy_line() + join_scripts(folder, with_controls(names[3:], kinds), minify)


def with_controls(names: tuple[str, ...], kinds) -> tuple[str, ...]:
    """``names`` with the scripts of the control kinds of ``kinds`` after js/controls.js."""
    at = names.index("js/controls.js") + 1
    return (*names[:at], *(script for kind in kinds if kind in CONTROLS for script in CONTROLS[kind]), *names[at:])


def write_sets(assets: Path, renders: dict, names: tuple[str, ...], join_scripts, *, minify: bool) -> None:
    """For each page of ``renders`` (page file -> (template, variables)) whose figures draw
    panels: the runtime (the scripts ``names``) with the scripts of its set of kinds,
    written into ``assets`` once a set (read from STATIC: the runtime's copies are joined
    by then), and named in its variables (``runtime``: base.html loads it)."""
    written: set[str] = set()
    for template, variables in renders.values():
        if "print" in template:  # stills only: the print page runs no figure
            continue
        kinds = kinds_of(variables.get("body", ""))
        if not kinds:
            continue
        name = set_file(kinds)
        variables["runtime"] = name
        if name not in written:
            written.add(name)
            (assets / name).write_text(runtime(STATIC, names, kinds, join_scripts, minify), encoding="utf-8")
