"""Figure checks run twice: in CPython by pytest and in Pyodide by serve_checks.mjs.

``main(inputs)`` draws a figure's first frame from the directive options in ``inputs``
and steps it through the events in ``inputs`` with the runtime the browser calls,
returning plain JSON-able data for a number-by-number comparison of the two runs.
"""
from __future__ import annotations

import sys

from explorables.engine import figures, runtime


def main(inputs: dict) -> dict:
    name = inputs["figure"]
    model = figures.load(name)  # imported now under Pyodide, where figures load on demand
    state = model.initial_state(model.parse_options(inputs["options"]))
    out = {"platform": sys.platform, "python": list(sys.version_info[:2]),
           "site_figures": runtime.load_site_figures(), "first": model.scene(state), "steps": []}
    for event in inputs["events"]:
        result = runtime.step(name, state, event)
        out["steps"].append(result)
        if result["ok"]:
            state = result["state"]
    return out
