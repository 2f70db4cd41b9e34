"""The bridge the browser's worker calls: JSON in, JSON out.

The page keeps each figure's state; every reader action sends the figure's name, its
current state and one event (or a patch), and gets back the new state and scene. A
refused input comes back as an error naming the control, with no new state, so the
figure keeps its last valid state.

A site's own figures (its figures/ folder) come in the engine archive as the package
``explorables.site_figures``; importing this module imports them beside the built-ins.
An error inside a figure, built-in or an author's, comes back as a message on the
figure (with the author's file and line) and the figure keeps its last good state.

In the browser's worker the figures load on demand (engine/figures/__init__.py): the
worker calls ``prepare`` with the figures of the page before it says the engine is
ready, and ``warm`` and ``rehearse`` while it is idle after that, so the next lesson's
figures are imported, and drawn once, before the reader goes there; a step for a figure
not imported yet imports it.

Exercises ask here too (``{"exercise": type, "seed": ..., "language": ...}``): without
an ``answer`` the reply is the problem for that seed (statement and expected form), with
one it is the verdict (right, the recognised mistake's hint, or what form is expected).
"""

from __future__ import annotations

import importlib
import json
import sys
import traceback
from typing import Any

from . import figures, locale
from .exercises import EXERCISES, SEED_LIMIT, SeedError, parse_seed, uses_decimal_comma
from .figures import FIGURES, FieldError
from .figures.base import not_plain
from .figures.kit.figure import described
from .figures.kit.marks import lean as lean_scenes
from .locale import t

SITE_FIGURES = "explorables.site_figures"  # written into the engine archive by the build
# The build id of the engine archive a memory snapshot was made of (site_builder/snapshot.py
# sets it before the snapshot; the worker restores a snapshot only for its own build).
SNAPSHOT_OF = ""


def load_site_figures() -> list[str]:
    """Import the site's own figures, if the archive carries any; their module names."""
    try:
        package = importlib.import_module(SITE_FIGURES)
    except ModuleNotFoundError as err:
        if err.name in (SITE_FIGURES, "explorables"):
            return []
        raise
    return sorted(package.SOURCES)


def _not_loaded(name: str) -> str | None:
    """Why the site's figure or exercise type ``name`` is missing: its module raised when
    imported here, in the browser, though it imported at build time (a module the browser
    does not have, named while it runs); None when that is not why."""
    package = sys.modules.get(SITE_FIGURES)
    if package is None:  # the site has no figures of its own
        return None
    for module, err in getattr(package, "FAILED", {}).items():
        if name in package.MADE.get(module, ()):
            return t("figure.module_failed", file=package.SOURCES[module], error=f"{described(err)}{_where(err)}")
    return None


def prepare(names: list[str]) -> None:
    """Import the modules of the figures ``names`` (the page's), if not imported yet."""
    for name in names:
        figures.load(name)


def warm(names: list[str] | None = None) -> bool:
    """Import one more figure module not imported yet: one of the figures ``names`` (the
    next page's), or any without names; whether some of those are left."""
    left = figures.unloaded()
    if names is not None:
        wanted = {figures.module_of(name) for name in names}
        left = [module for module in left if module in wanted]
    if left:
        importlib.import_module(f"{figures.__name__}.{left[0]}")
    return len(left) > 1


_rehearsed: set[str] = set()


def rehearse(names: list[str]) -> bool:
    """Answer one of the figures ``names`` (the next page's) not rehearsed yet once, from
    its default options, as a reader's first move there is answered, and throw the answer
    away; whether some are left.

    A figure's first answer in a fresh worker takes about twice as long as the next ones
    (the first calls of its code, in Python and in WebAssembly), and it would come with
    the reader's first move on the next page. The rehearsal takes the whole road of that
    move (``handle``: the JSON read, the patch, the scene without the cells' arithmetic,
    the JSON written): drawing the scene alone left the heatmap's first answer 25-30 ms
    slower than its next ones under Pyodide. A figure that fails here is left for its page
    to report, where its own options are."""
    todo = [name for name in names if name not in _rehearsed]
    if not todo:
        return False
    _rehearsed.add(todo[0])
    try:
        model = FIGURES.get(todo[0]) or figures.load(todo[0])
        if model is not None:
            first = {"figure": todo[0], "state": model.initial_state(model.parse_options({}))}
            handle(json.dumps({**first, "event": {"type": "patch", "patch": {}}, "lean": True}))
    except Exception:
        pass
    return len(todo) > 1


def _where(err: Exception) -> str:
    """' (softmax_bars.py:31)' for an error raised in an author's figure module, else ''."""
    folder = "/" + SITE_FIGURES.replace(".", "/") + "/"
    frames = [f for f in traceback.extract_tb(err.__traceback__) if folder in f.filename]
    if not frames:
        return ""
    return f" ({frames[-1].filename.rsplit('/', 1)[-1]}:{frames[-1].lineno})"


def _defined(model: Any, part: str) -> str:
    """' (nanny.py:12)': where an author's figure defines its method ``part`` (compute,
    draw), else ''."""
    code = getattr(getattr(type(model), part, None), "__code__", None)
    if code is None or not type(model).__module__.startswith(SITE_FIGURES + "."):
        return ""
    return f" ({code.co_filename.replace(chr(92), '/').rsplit('/', 1)[-1]}:{code.co_firstlineno})"


def _not_shown(figure: str, answer: dict[str, Any]) -> str:
    """What an answer holds that JSON cannot carry (nan, a set), where the author's figure
    made it, and what it may give instead."""
    what = not_plain(answer.get("scene")) or not_plain(answer) or "a value"
    part = "draw" if what.startswith("panel") else "compute"
    return (
        f"internal error in {figure}: the figure gave what the page cannot show: {what}"
        f"{_defined(FIGURES.get(figure), part)}; a number that cannot be computed may be None "
        f"(the page shows a dash)"
    )


def step(figure: str, state: dict[str, Any], event: dict[str, Any], lean: bool = False) -> dict[str, Any]:
    """Apply one event (or ``{"type": "patch", "patch": {...}}``) and draw the result;
    ``lean``: without the cells' arithmetic (figures/kit/marks.py ``lean``), which the
    page asks for while the reader is not looking at any."""
    model = FIGURES.get(figure) or figures.load(figure)
    if model is None:
        why = _not_loaded(figure)
        return (
            {"ok": False, "error": why, "internal": True}
            if why
            else {"ok": False, "error": f"unknown figure {figure!r}"}
        )
    if not isinstance(event, dict) or (event.get("type") == "patch" and not isinstance(event.get("patch"), dict)):
        return {
            "ok": False,
            "error": f'an event is an object like {{"type": "set", ...}} and a patch '
            f"an object of control names and values, got {event!r}",
        }
    try:
        if event.get("type") == "patch":
            new_state = model.patch(state, event.get("patch") or {})
        else:
            new_state = model.apply(state, event)
        with lean_scenes(lean):
            scene = model.scene(new_state)
    except FieldError as err:
        return {"ok": False, "error": err.message, "field": err.name}
    except ValueError as err:
        return {"ok": False, "error": str(err), "field": event.get("name")}
    except Exception as err:  # a bug in a figure: report it, keep the last good state
        return {"ok": False, "error": f"internal error in {figure}: {described(err)}{_where(err)}", "internal": True}
    return {"ok": True, "state": new_state, "scene": scene}


def exercise(msg: dict[str, Any]) -> dict[str, Any]:
    """A fresh problem for a seed, or the verdict on an answer to it."""
    kind = EXERCISES.get(msg.get("exercise", ""))
    if kind is None:
        return {
            "ok": False,
            "error": _not_loaded(str(msg.get("exercise")))
            or t("exercise.worker.unknown_type", name=repr(msg.get("exercise"))),
        }
    try:
        seed = parse_seed(msg.get("seed"))
    except SeedError as err:  # in the page's words, as the reader reads it
        return {"ok": False, "error": t("exercise.worker.bad_seed", limit=SEED_LIMIT - 1, got=err.got), "field": "seed"}
    comma = uses_decimal_comma(msg.get("language", ""))
    if "answer" not in msg:
        return {"ok": True, **kind.problem(seed, comma)}
    verdict = kind.grade(seed, str(msg["answer"]), comma)
    return {"ok": True, "right": verdict.ok, "message": verdict.message, "mistake": verdict.mistake}


def handle(message: str) -> str:
    """Entry point for the worker: ``{"figure", "state", "event", "lean"?: true}`` (or an
    exercise's request, see ``exercise``, or ``{"words": the page's words block}``, which
    the engine speaks from then on) as JSON text."""
    msg = json.loads(message)
    if "words" in msg:  # the reader moved to a page in another language of the site (static/js/languages.js)
        words = msg["words"]
        locale.use(str(words["language"]), words.get("messages") or {})
        return json.dumps({"ok": True, "language": locale.language()})
    if "exercise" in msg:
        return json.dumps(exercise(msg), allow_nan=False)
    answer = step(msg["figure"], msg["state"], msg["event"], msg.get("lean") is True)
    try:
        return json.dumps(answer, allow_nan=False)
    except (TypeError, ValueError):  # a figure's bug (nan, a set): the page keeps its last good state
        return json.dumps({"ok": False, "internal": True, "error": _not_shown(msg["figure"], answer)})


load_site_figures()
