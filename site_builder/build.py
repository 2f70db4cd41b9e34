"""``explorables build``: content/ -> a static site, atomically.

The build is one straight pipeline (``build_site``): read, parse, validate, render,
write into a temporary folder beside the output, swap. A failed build raises BuildError
with every error of the run and leaves the previous site byte for byte as it was.
"""
from __future__ import annotations

import io
import os
import re
import shutil
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

import jinja2

from . import pyodide
from .config import load_config
from .errors import BuildError, SourceError
from .markdown import create_parser, parse_page, render_page
from .notices import COMPONENTS

PACKAGE = Path(__file__).resolve().parent.parent  # explorables/ when installed; the checkout in development
STATIC = PACKAGE / "static"
ENGINE = PACKAGE / "engine"
TOP = Path(__import__("explorables").__file__).resolve().parent  # the package holding __init__.py and figures.py
TEMPLATES = Path(__file__).resolve().parent / "templates"
MARKER = ".explorables-site"  # written into every built site: the next build may replace it

# Classic scripts, loaded in this order with `defer` (module scripts fail from file://).
SCRIPTS = (
    "js/core.js",
    "js/marks/point.js", "js/marks/arrow.js", "js/marks/line.js", "js/marks/polygon.js",
    "js/marks/label.js", "js/marks/circle.js",
    "js/panels/plane.js", "js/panels/cells.js", "js/panels/bars.js", "js/panels/chart.js",
    "js/panels/steps.js", "js/panels/text.js", "js/panels/matrix.js",
    "js/controls.js", "js/figure.js", "js/client.js", "js/pages.js", "js/prose.js", "js/exercise.js", "js/boot.js",
)
# An offline bundle's pages also load every page's content and the bundle runtime.
BUNDLE_SCRIPTS = SCRIPTS[:-1] + ("bundle/pages.js", "js/bundle.js", SCRIPTS[-1])


@dataclass
class Lesson:
    slug: str
    title: str
    summary: str
    order: int
    url: str


@dataclass
class BuildResult:
    out_dir: Path
    pages: int
    figures: int


def slug_of(path: Path) -> str:
    """'01-one-query-row.md' -> 'one-query-row'."""
    return re.sub(r"^\d+[-_]", "", path.stem).lower().replace("_", "-")


def engine_archive() -> bytes:
    """The ``explorables`` package as the browser needs it (its ``__init__``, the public
    figure kit and the engine, no builder) as a zip that the worker unpacks into
    Pyodide's file system."""
    files = [(Path("explorables") / path.name, path) for path in sorted(TOP.glob("*.py"))]
    files += [(Path("explorables/engine") / path.relative_to(ENGINE), path) for path in sorted(ENGINE.rglob("*.py"))
              if "__pycache__" not in path.parts]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, path in files:
            info = zipfile.ZipInfo(name.as_posix(), date_time=(2020, 1, 1, 0, 0, 0))
            archive.writestr(info, path.read_bytes(), zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


def build_site(content: Path, out_dir: Path, *, pyodide_source: str | None = None, dev: bool = False,
               bundle: bool = False) -> BuildResult:
    """Build ``content`` into ``out_dir``. With ``bundle`` the pages load the offline
    bundle's scripts and Pyodide is not vendored as files (``explorables bundle`` adds
    it as data; see bundle.py)."""
    content = Path(content).resolve()
    out_dir = Path(out_dir).resolve()
    if not content.is_dir():
        raise BuildError(f"content folder {content} does not exist; run the build from the project folder "
                         f"or pass the folder: explorables build CONTENT")
    _check_output(content, out_dir)
    if not (STATIC / "js" / "core.js").is_file():
        raise BuildError(f"the browser runtime is missing ({STATIC}); install the project from its source "
                         f"folder with `pip install -e .`")

    # Read: the site config and every Markdown file.
    config, errors = load_config(content / "site.yml")
    sources = sorted(content.glob("*.md"))
    if not sources:
        raise BuildError(f"{content} holds no Markdown lessons (*.md); add one, e.g. 01-first-lesson.md")

    # Parse and validate: directives check their options against the figure specs.
    md = create_parser(raw_html=config.raw_html)
    pages = [parse_page(md, path, "index" if path.stem == "index" else slug_of(path)) for path in sources]
    errors.extend(_slug_clashes(pages))
    lessons_pages = sorted((p for p in pages if p.slug != "index"), key=lambda p: (p.meta.get("order", 10**6), p.slug))
    index_page = next((p for p in pages if p.slug == "index"), None)
    lessons = [Lesson(p.slug, p.title, p.meta.get("summary", ""), p.meta.get("order", 0), f"{p.slug}.html")
               for p in lessons_pages]

    # Render: Markdown bodies into the templates (math and first frames happen here).
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True,
                             undefined=jinja2.StrictUndefined, keep_trailing_newline=True)
    common = {"config": config, "lessons": lessons, "scripts": BUNDLE_SCRIPTS if bundle else SCRIPTS, "root": "",
              "dev": dev}
    outputs: dict[str, str] = {}
    figures = 0
    for position, page in enumerate(lessons_pages, start=1):
        body = render_page(md, page)
        figures += body.count('class="ex-figure"')
        errors.extend(_id_clashes(page, body))
        prev = lessons[position - 2] if position > 1 else None
        nxt = lessons[position] if position < len(lessons) else None
        outputs[f"{page.slug}.html"] = env.get_template("lesson.html").render(
            page=page, body=body, position=position, prev=prev, next=nxt, **common)
    index_body = render_page(md, index_page) if index_page else ""
    outputs["index.html"] = env.get_template("index.html").render(page=index_page, body=index_body, **common)
    pages_written = len(outputs)  # the author's pages; the two below are the tool's
    # Every site: a 404 page in its style (GitHub Pages serves it) and its notices.
    outputs["404.html"] = env.get_template("404.html").render(page=None, **common)
    outputs["notices.html"] = env.get_template("notices.html").render(page=None, components=COMPONENTS, **common)
    for page in pages:
        errors.extend(page.errors)
    if errors:
        errors.sort(key=lambda e: (str(e.path), e.line, e.col))
        raise BuildError(errors, root=content.parent)

    # Write: pages, static assets, the engine archive and Pyodide, into a fresh folder.
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}-build-", dir=out_dir.parent))
    try:
        for name, text in outputs.items():
            (staging / name).write_text(text, encoding="utf-8")
        assets = staging / "assets"
        shutil.copytree(STATIC, assets, ignore=shutil.ignore_patterns("__pycache__", "*.md"))
        (assets / "engine.zip").write_bytes(engine_archive())
        for extra in content.iterdir():
            if extra.is_dir() and not extra.name.startswith((".", "_")) and extra != out_dir:
                shutil.copytree(extra, staging / extra.name)  # images and other files of the lessons
        (staging / ".nojekyll").write_text("")  # GitHub Pages: serve the files as they are, no Jekyll
        (staging / MARKER).write_text("Made by `explorables build`; the next build replaces this folder.\n")
        if not bundle:
            pyodide.vendor(assets / "pyodide", pyodide_source)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise

    # Swap: the new site replaces the old one only now that it is complete.
    _swap(staging, out_dir)
    return BuildResult(out_dir=out_dir, pages=pages_written, figures=figures)


def _check_output(content: Path, out_dir: Path) -> None:
    """Refuse an output folder whose replacement would lose an author's files."""
    fix = "choose another output folder with -o, e.g. -o _site"
    if out_dir == content or out_dir in content.parents:
        raise BuildError(f"the output folder {out_dir} holds the content folder {content}; "
                         f"building there would replace your lessons: {fix}")
    if content in out_dir.parents:
        top = out_dir.relative_to(content).parts[0]
        if not top.startswith(("_", ".")):
            raise BuildError(f"the output folder {out_dir} is inside the content folder, where it would be "
                             f"copied into the next build as lesson files; {fix}, or name it with a leading '_'")
    if out_dir.is_dir() and any(out_dir.iterdir()) and not (out_dir / MARKER).exists():
        raise BuildError(f"{out_dir} already holds files that no build made; the build replaces its output "
                         f"folder whole, so it will not touch this one: {fix}, or empty the folder first")
    if out_dir.exists() and not out_dir.is_dir():
        raise BuildError(f"{out_dir} is a file, not a folder: {fix}")


def _id_clashes(page, body: str) -> list[SourceError]:
    """A figure whose id is also a heading's anchor (or another element's id)."""
    ids = re.findall(r'\sid="([^"]+)"', body)
    twice = {i for i in ids if ids.count(i) > 1}
    errors = []
    for token in page.tokens:
        if token.type == "figure" and token.meta["id"] in twice:
            errors.append(SourceError(page.path, token.meta["line"], 1,
                                      f"figure id '{token.meta['id']}' is also the id of a heading on this page",
                                      "give the figure another id (the word after the directive name)"))
    return errors


def _slug_clashes(pages) -> list[SourceError]:
    """Two files that would write the same page, or a lesson that would be the index."""
    errors: list[SourceError] = []
    seen: dict[str, Path] = {}
    for page in pages:
        if page.slug == "index" and page.path.stem != "index":
            errors.append(SourceError(page.path, 1, 1, f"the file name {page.path.name} makes the page index.html, "
                                      f"which is the track's front page", "rename the file, e.g. 03-overview.md"))
        elif page.slug in seen:
            errors.append(SourceError(page.path, 1, 1, f"{page.path.name} and {seen[page.slug].name} would both "
                                      f"be written to {page.slug}.html", "rename one of the two files"))
        else:
            seen[page.slug] = page.path
    return errors


def _swap(staging: Path, out_dir: Path) -> None:
    os.chmod(staging, 0o755)
    for stale in out_dir.parent.glob(f".{out_dir.name}-old-*"):  # left by a build that was killed
        shutil.rmtree(stale, ignore_errors=True)
    if not out_dir.exists():
        os.replace(staging, out_dir)
        return
    old = out_dir.with_name(f".{out_dir.name}-old-{os.getpid()}")
    os.replace(out_dir, old)
    try:
        os.replace(staging, out_dir)
    except BaseException:
        os.replace(old, out_dir)  # put the previous site back
        shutil.rmtree(staging, ignore_errors=True)
        raise
    shutil.rmtree(old, ignore_errors=True)
