"""The site's own scripts and stylesheet as a build writes them: the browser runtime
joined into one file the pages load, what loads after the first frame joined into
another, the worker and the print page's scroller script each on their own, all
minified except in a preview (``explorables serve``), where a stack trace should point
at readable code; and what a page's head tells them of the engine it needs (its figures,
and the next page's)."""

from __future__ import annotations

import shutil
from pathlib import Path

import rcssmin

from . import panels
from .assets import STATIC
from .minify import minified

# The browser runtime: classic scripts (module scripts fail from file://), joined in this
# order into one file, js/explorables.js, that pages load with `defer` (minified except in
# a preview, where a stack trace should point at readable code).
RUNTIME = (
    "js/core.js",
    "js/numbers.js",
    "js/geometry.js",
    # the panel and mark scripts (panels.SCRIPTS) come as each page needs them: panels.py
    "js/controls.js",
    "js/figure.js",
    "js/figure-engine.js",
    "js/client.js",
    "js/pages.js",
    "js/parts.js",
    "js/toc.js",
    "js/boot.js",
)
# What a reader needs only after the first frame (what figures say of a change, live
# prose, copy buttons, search, exercises): joined into js/later.js, which the runtime
# loads once the figures are drawn, and which runs them one per task (join_later).
LATER = (
    "js/figure-speech.js",
    "js/prose.js",
    "js/code.js",
    "js/search.js",
    "js/search-box.js",
    "js/statement-markup.js",
    "js/statement.js",
    # before exercise.js, which grades answers: a verdict comes no sooner than exercise.js
    # runs (one typed before js/later.js came is graded then), and is heard by progress.js
    "js/progress.js",
    "js/exercise.js",
    "js/progress-marks.js",
    "js/offline.js",
    # a Tab stop for boxes that scroll sideways, checked once the page is laid out
    "js/scrollers.js",
    # the section being read, marked in the contents (js/toc.js opens or folds them)
    "js/toc-mark.js",
)
LATER_FILE = "js/later.js"
# A SCORM package (explorables bundle --scorm) also reports the reader's progress to the
# learning management system it plays in: at the end of its js/later.js, after progress.js.
SCORM_LATER = ("js/scorm-data.js", "js/scorm.js")
# The stylesheet, in parts a concern each (static/css/), joined in this order into
# explorables.css, the one stylesheet pages link: the focus ring comes last, so that no
# rule before it hides it.
STYLES = ("css/page.css", "css/figures.css", "css/text.css", "css/progress.css", "css/offline.css", "css/finish.css")
STYLE_FILE = "explorables.css"
# An offline bundle's runtime carries every panel kind, and swaps pages from the content it carries.
BUNDLE_RUNTIME = (*RUNTIME[:3], *panels.PANEL_SCRIPTS, *panels.with_controls(RUNTIME[3:-1], panels.CONTROLS))
BUNDLE_RUNTIME += ("js/bundle.js", RUNTIME[-1])
RUNTIME_FILE = "js/explorables.js"
LIVERELOAD_FILE = "js/livereload.js"  # a preview's (explorables serve) own script
RUNTIME_FOLDERS = ("js", "css")  # STATIC's sources of the runtime's files
SCRIPTS = (RUNTIME_FILE,)
# The engine's early start (js/start.js): a small script in the head of a served site's
# pages, which makes the engine's worker before the body is parsed (offline bundles start
# theirs from the runtime, with the files they carry).
START_FILE = "js/start.js"
# An offline bundle's pages first load every page's content (data, read by js/bundle.js).
BUNDLE_SCRIPTS = ("bundle/pages.js", RUNTIME_FILE)


def join_scripts(assets: Path, names: tuple[str, ...], minify: bool) -> str:
    """The runtime's scripts as one classic script, in order. Each is a self-contained
    IIFE, so joining them changes nothing but the number of requests; minified (each as
    minify.py made it ahead, or by rjsmin), the whole runtime is less than half the bytes
    compressed (45 KB gzipped as 23 files, 22 KB joined and minified)."""
    parts = []
    for name in names:
        text = (assets / name).read_text(encoding="utf-8")
        parts.append(minified(name, text) if minify else f"/* {name} */\n{text}")
    return ";\n".join(parts) + "\n"


# js/later.js: each of its scripts a function, queued, then run in order, one per task,
# so that the page answers a reader between them (run at once, they were one task of
# 100-150 ms on a phone's CPU). A script that throws does not keep the next from running.
LATER_PIECE = "(window.explorables._laterPieces = window.explorables._laterPieces || []).push(function () {\n%s\n});\n"
LATER_RUN = (
    "(function () { const pieces = window.explorables._laterPieces.splice(0); (function next() {"
    " const piece = pieces.shift(); if (!piece) return;"
    " try { piece(); } finally { if (pieces.length) setTimeout(next, 0); } })(); })();\n"
)


def join_later(assets: Path, names: tuple[str, ...], minify: bool) -> str:
    """js/later.js: the scripts of ``names`` as join_scripts gives them, each wrapped in a
    function of its own (LATER_PIECE), then run one per task (LATER_RUN)."""
    pieces = [join_scripts(assets, (name,), minify) for name in names]
    return "".join(LATER_PIECE % piece.rstrip() for piece in pieces) + LATER_RUN


def write_runtime(assets: Path, *, bundle: bool, dev: bool, scorm: bool = False) -> None:
    """Write into ``assets`` what pages load of the runtime, made from its sources in
    STATIC: js/explorables.js, js/later.js, js/worker.js, js/scrollers.js, js/start.js (not
    in a bundle) and js/livereload.js in a preview, and explorables.css joined from its
    parts, all minified unless ``dev``; with ``scorm``, js/later.js ends with the SCORM
    runtime (SCORM_LATER). (The build copies the rest of STATIC, its fonts, as it is.)"""
    files = {
        RUNTIME_FILE: join_scripts(STATIC, BUNDLE_RUNTIME, minify=not dev)
        if bundle
        else panels.runtime(STATIC, RUNTIME, (), join_scripts, minify=not dev),
        LATER_FILE: join_later(STATIC, LATER + SCORM_LATER if scorm else LATER, minify=not dev),
        "js/worker.js": join_scripts(STATIC, ("js/worker.js",), minify=not dev),
        # the print page runs no figure, only this: a Tab stop for boxes that scroll sideways
        "js/scrollers.js": join_scripts(STATIC, ("js/scrollers.js",), minify=not dev),
    }
    if not bundle:  # an offline bundle's runtime starts the engine with the files it carries
        files[START_FILE] = join_scripts(STATIC, (START_FILE,), minify=not dev)
        files[panels.LAZY_FILE] = panels.joined(STATIC, panels.KINDS, join_scripts, minify=not dev)
    if dev:  # a preview's own, as it is
        files[LIVERELOAD_FILE] = (STATIC / LIVERELOAD_FILE).read_text(encoding="utf-8")
    (assets / "js").mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (assets / name).write_text(text, encoding="utf-8")
    style = stylesheet(STATIC)
    (assets / STYLE_FILE).write_text(style if dev else rcssmin.cssmin(style), encoding="utf-8")


def copy_static(assets: Path) -> None:
    """Copy into ``assets`` what pages load of STATIC as it is (its fonts): the runtime's
    scripts and stylesheets are joined from STATIC by write_runtime."""

    def joined_or_not_shipped(folder: str, names: list[str]) -> set[str]:
        top = Path(folder) == STATIC
        return {
            name for name in names if name in ("__pycache__", *(RUNTIME_FOLDERS if top else ())) or name.endswith(".md")
        }

    shutil.copytree(STATIC, assets, ignore=joined_or_not_shipped)


def write_panels(assets: Path, renders: dict, *, bundle: bool, dev: bool) -> None:
    """Each page's runtime with its first-frame panel kinds, one file a set of them
    (panels.py), named in its variables; none in an offline bundle, whose runtime carries
    every kind."""
    if not bundle:
        panels.write_sets(assets, renders, RUNTIME, join_scripts, minify=not dev)


def stylesheet(static: Path) -> str:
    """explorables.css as pages get it before minifying: the parts in STYLES, in order."""
    return "".join((static / name).read_text(encoding="utf-8") for name in STYLES)


def figures_of(page) -> list[str]:
    """The names of a page's figures, in order, once each."""
    return list(dict.fromkeys(t.meta["figure"] for t in page.tokens if t.type == "figure")) if page else []


def engine_needs(page, next_page=None) -> dict | None:
    """What a page's head says the engine must start for (js/start.js, the worker's
    "init" message): the page's figures, imported before the engine is ready, and the
    next page's, imported first once it is (the reader may go there at once); None for
    a page with no figure nor exercise."""
    if page is None:
        return None
    figures = figures_of(page)
    if not figures and not any(t.type == "exercise_open" for t in page.tokens):
        return None
    return {"figures": figures, "next": [name for name in figures_of(next_page) if name not in figures]}
