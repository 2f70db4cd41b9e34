"""Checks of the engine archive's compiled modules, run twice: in CPython by pytest
(from the package's sources) and in Pyodide by run_archive.mjs (from the archive, whose
modules are the ``.pyc`` files of site_builder/bytecode.py).

``main(inputs)`` draws every built-in figure's first frame and steps each through one
event with the runtime the browser calls, and notes where the engine's modules came from
and what a traceback through them says, and how many dataclasses' methods came compiled; and of the standard library (a zip in Pyodide,
site_builder/stdlib.py), which modules came from sources and what a traceback through a
compiled one says.
"""
from __future__ import annotations

import json
import sys
import traceback
import zipimport

from explorables.engine import ahead, figures, linalg, runtime


def main(inputs: dict) -> dict:
    out = {"figures": {}}
    for name in inputs["figures"]:
        model = figures.load(name)
        state = model.initial_state(model.parse_options({}))
        out["figures"][name] = {"first": model.scene(state),
                                "step": runtime.step(name, state, inputs["event"])}
    out["dataclasses"] = dict(ahead.COUNTS)  # whose methods came compiled ahead (engine/ahead.py)
    out["origins"] = sorted({module.__spec__.origin.rsplit(".", 1)[-1] for name, module in sys.modules.items()
                             if name.startswith("explorables.") and name != "explorables.site_figures"
                             and getattr(module, "__spec__", None) and module.__spec__.origin})
    try:
        linalg.as_number("x", "not a number")
    except ValueError as err:
        frame = traceback.extract_tb(err.__traceback__)[-1]
        out["traceback"] = {"file": frame.filename.rsplit("/", 3)[-3:], "line": frame.lineno, "name": frame.name}
    zipped = [(name, module.__spec__.origin) for name, module in sys.modules.items()
              if isinstance(getattr(getattr(module, "__spec__", None), "loader", None), zipimport.zipimporter)]
    out["stdlib"] = {"sources": sorted(name for name, origin in zipped if origin.endswith(".py")),
                     "compiled": len([name for name, origin in zipped if origin.endswith(".pyc")])}
    try:
        json.loads('{"unclosed": ')
    except ValueError as err:
        frame = traceback.extract_tb(err.__traceback__)[-1]
        out["stdlib"]["traceback"] = {"file": frame.filename.rsplit("/", 2)[-2:], "line": frame.lineno}
    return out
