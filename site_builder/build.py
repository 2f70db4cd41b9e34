"""``explorables build``: content/ -> a static site, atomically.

The build is one straight pipeline (``build_site``): read, parse, validate, render,
write into a temporary folder beside the output (the assets under content-hashed names
first, then the pages that name them), swap. A failed build raises BuildError
with every error of the run and leaves the previous site byte for byte as it was.
"""
from __future__ import annotations

import io
import os
import re
import shutil
import tempfile
import zipfile
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import jinja2
import rcssmin
import rjsmin

from .. import __version__
from ..engine.exercises import glyphs as exercise_glyphs
from . import assets as site_assets, authors, fonts, pyodide
from .config import config_path, load_config
from .errors import BuildError, InternalError, PyodideError, SourceError
from .links import resolve_links
from .images import copy_images
from . import metadata, search
from .directives.references import resolve_figure_refs
from .markdown import create_parser, parse_page, render_page
from .safety import copy_tree, outside, read_source
from .notices import COMPONENTS
from .language import site_words
from ..engine import locale

PACKAGE = Path(__file__).resolve().parent.parent  # explorables/ when installed; the checkout in development
STATIC = PACKAGE / "static"
ENGINE = PACKAGE / "engine"
TOP = Path(__import__("explorables").__file__).resolve().parent  # the package holding __init__.py and figures.py
TEMPLATES = Path(__file__).resolve().parent / "templates"
ASSETS = "_explorables"  # the site's own files; an author's folder of any other name can sit beside it
PRINT_PAGE = "print.html"  # every lesson on one page, for print and PDF
TOC = re.compile(r'<nav class="ex-toc".*?</nav>\n?', re.S)
MARKER = ".explorables-site"  # written into every built site: the next build may replace it

# The browser runtime: classic scripts (module scripts fail from file://), joined in this
# order into one file, js/explorables.js, that pages load with `defer` (minified except in
# a preview, where a stack trace should point at readable code).
RUNTIME = (
    "js/core.js",
    "js/marks/point.js", "js/marks/arrow.js", "js/marks/line.js", "js/marks/polygon.js",
    "js/marks/label.js", "js/marks/circle.js",
    "js/panels/plane.js", "js/panels/cells.js", "js/panels/bars.js", "js/panels/chart.js",
    "js/panels/steps.js", "js/panels/text.js",
    "js/controls.js", "js/figure.js", "js/client.js", "js/pages.js", "js/toc.js", "js/scrollers.js",
    "js/prose.js", "js/boot.js",
)
# What a reader needs only after the first frame (copy buttons, search, exercises): joined
# into js/later.js, which the runtime loads once the figures are drawn.
LATER = ("js/code.js", "js/search.js", "js/exercise.js")
LATER_FILE = "js/later.js"
# An offline bundle's runtime also swaps pages from the content it carries.
BUNDLE_RUNTIME = RUNTIME[:-1] + ("js/bundle.js", RUNTIME[-1])
RUNTIME_FILE = "js/explorables.js"
SCRIPTS = (RUNTIME_FILE,)
# An offline bundle's pages first load every page's content (data, read by js/bundle.js).
BUNDLE_SCRIPTS = ("bundle/pages.js", RUNTIME_FILE)


LAST = 10**6  # the order of a lesson or section that gives none: after the others, by name


@dataclass(eq=False)
class Lesson:
    slug: str
    title: str
    summary: str
    order: int
    url: str  # relative to the site's root: 'softmax.html', 'basics/softmax.html'
    page: object = None
    section: "Section | None" = None  # the section (folder) it belongs to
    position: int = 0  # its place among its section's lessons, from 1


@dataclass(eq=False)
class Section:
    """A folder of content/ with an index.md: its page, its lessons and sections in
    reading order. The site itself is the section of folder ''."""

    folder: str  # '' for the site, 'basics', 'basics/more'
    page: object = None  # the parsed index.md
    parent: "Section | None" = None
    items: list = field(default_factory=list)  # Lesson and Section, ordered by order then name
    position: int = 0

    @property
    def title(self) -> str:
        if self.page is not None and self.page.meta.get("title"):
            return self.page.meta["title"]
        return slug_of(Path(self.folder.rsplit("/", 1)[-1] or "index")).replace("-", " ").capitalize()

    @property
    def summary(self) -> str:
        return self.page.meta.get("summary", "") if self.page is not None else ""

    @property
    def order(self) -> int:
        return self.page.meta.get("order", LAST) if self.page is not None else LAST

    @property
    def url(self) -> str:
        return f"{self.folder}/index.html" if self.folder else "index.html"

    @property
    def section(self) -> "Section | None":
        return self.parent

    @property
    def lesson_pages(self) -> list:
        return [item.page for item in self.items if isinstance(item, Lesson)]

    def lessons(self) -> list[Lesson]:
        return [item for item in self.items if isinstance(item, Lesson)]

    def sections(self) -> list["Section"]:
        return [item for item in self.items if isinstance(item, Section)]

    def all_sections(self) -> list["Section"]:
        found = [self]
        for child in self.sections():
            found += child.all_sections()
        return found

    def holds(self, folder: str | None) -> bool:
        """Whether a page of ``folder`` is in this section (or one inside it)."""
        return folder is not None and (folder == self.folder or folder.startswith(self.folder + "/"))

    def reading_order(self) -> list:
        """The pages prev/next walk: each lesson, and each section's page followed by
        what it holds. (The site's own index is the start, outside the walk.)"""
        walk = []
        for item in self.items:
            walk.append(item)
            if isinstance(item, Section):
                walk += item.reading_order()
        return [item for item in walk if item.page is not None]


@dataclass
class BuildResult:
    out_dir: Path
    pages: int
    figures: int
    warnings: list[str] = field(default_factory=list)  # formatted, path:line:col first


def slug_of(path: Path) -> str:
    """'01-one-query-row.md' -> 'one-query-row'."""
    return re.sub(r"^\d+[-_]", "", path.stem).lower().replace("_", "-")


def engine_archive(extra: list[tuple[str, bytes]] = ()) -> bytes:
    """The ``explorables`` package as the browser needs it (its ``__init__``, the public
    figure kit and the engine, no builder) as a zip that the worker unpacks into
    Pyodide's file system; ``extra`` adds (name, bytes) files: the site's own figures."""
    files = [(Path("explorables") / path.name, path) for path in sorted(TOP.glob("*.py"))]
    files += [(Path("explorables/engine") / path.relative_to(ENGINE), path) for path in sorted(ENGINE.rglob("*.py"))
              if "__pycache__" not in path.parts]
    files += [(Path("explorables/engine/locales") / path.name, path) for path in sorted((ENGINE / "locales").glob("*.json"))]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, path in files:
            info = zipfile.ZipInfo(name.as_posix(), date_time=(2020, 1, 1, 0, 0, 0))
            archive.writestr(info, path.read_bytes(), zipfile.ZIP_DEFLATED)
        for name, data in extra:
            archive.writestr(zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0)), data, zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


def megabytes(size: int) -> str:
    """13_652_045 -> '13.7 MB' (decimal megabytes, as download sizes are given)."""
    return f"{size / 1e6:.1f} MB"


def build_site(content: Path, out_dir: Path, *, pyodide_source: str | None = None, dev: bool = False,
               bundle: bool = False) -> BuildResult:
    """Build ``content`` into ``out_dir``. An author's mistakes raise BuildError (every
    one of the run); a bug of the builder raises InternalError naming the file it was
    building. Never a bare traceback; either way the previous site stays as it was.
    With ``bundle`` the pages load the offline bundle's scripts, and Pyodide, the engine,
    the worker and every page's content are written as classic scripts of data instead
    of Pyodide's files (see bundle.py). Every asset is named by its content (assets.py)."""
    try:
        return _pipeline(Path(content), Path(out_dir), pyodide_source, dev, bundle)
    except (BuildError, PyodideError):
        raise
    except Exception as err:  # a bug met outside any one file's stage
        raise InternalError(Path(content), err, Path(content).resolve().parent) from err
    finally:
        locale.use("en")  # the engine speaks English again outside a build


@contextmanager
def _building(where: Path, root: Path):
    """Turn a bug met while building ``where`` into an InternalError naming it."""
    try:
        yield
    except (BuildError, PyodideError):
        raise
    except Exception as err:
        raise InternalError(where, err, root) from err


def _pipeline(content: Path, out_dir: Path, pyodide_source: str | None, dev: bool, bundle: bool) -> BuildResult:
    content = content.resolve()
    out_dir = out_dir.resolve()
    root = content.parent
    if not content.is_dir():
        raise BuildError(f"content folder {content} does not exist; run the build from the project folder "
                         f"or pass the folder: explorables build CONTENT")
    _check_output(content, out_dir)
    if not (STATIC / "js" / "core.js").is_file():
        raise BuildError(f"the browser runtime is missing ({STATIC}); install the project from its source "
                         f"folder with `pip install -e .`")

    # Read: the site config, the site's own figures and every Markdown file, as UTF-8
    # text from inside content/.
    with _building(config_path(content), root):
        config, errors = load_config(config_path(content))
    with _building(content.parent / config.figures, root):
        own = _own_figures(content.parent / config.figures, root, errors)  # beside the built-ins
    errors.extend(own.errors)
    words = site_words(config.language, config_path(content))  # the tool's words in the site's language
    errors.extend(words.errors)
    locale.use(config.language, words.messages)  # first frames and prose speak it too (build_site resets it)
    sources, section_warnings = _sources(content, out_dir, errors)
    if not sources:
        raise BuildError(f"{content} holds no Markdown lessons (*.md); add one, e.g. 01-first-lesson.md")
    texts: dict[Path, str] = {}
    for path in sources:
        text, problems = read_source(path, content)
        errors.extend(problems)
        if text is not None:
            texts[path] = text

    # Parse and validate: directives check their options against the figure specs.
    md = create_parser(raw_html=config.raw_html)
    pages = []
    for path, text in texts.items():
        with _building(path, root):
            page = parse_page(md, path, "index" if path.stem == "index" else slug_of(path), text,
                              content_root=content, language=config.language)
            page.folder = path.parent.relative_to(content).as_posix().removeprefix(".")
            page.url = (f"{page.folder}/" if page.folder else "") + f"{page.slug}.html"
            pages.append(page)
    errors.extend(_slug_clashes(pages))
    with _building(content, root):
        errors.extend(resolve_links(pages, content, tuple(p.relative_to(content).as_posix()
                                                          for p in sources if p not in texts)))
    site = _sections(pages)
    reading = site.reading_order()  # every lesson and section page, in the order prev/next walk
    warnings = words.warnings + [w for page in pages for w in page.warnings] + section_warnings
    for section in site.all_sections():
        warnings += _order_ties([p for p in section.lesson_pages])
    index_page = site.page
    if config.numbering == "site":  # Figure 3 on lesson 2 goes on from lesson 1's two, in reading order
        offset = 0
        for entry in reading:
            entry.page.env["figure_offset"] = offset
            offset += int(entry.page.env.get("figure_total", 0))
    with _building(content, root):
        errors.extend(resolve_figure_refs(pages))  # {numref}`02-lesson.md#figure`
    lessons = site.lessons()  # the top folder's lessons (the whole track of a flat site)
    # Render: Markdown bodies into the templates (math and first frames happen here).
    # The templates are filled in once the assets have their hashed names (see Write).
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True,
                             undefined=jinja2.StrictUndefined, keep_trailing_newline=True)
    env.globals["meta_tags"] = metadata.meta_tags  # description, Open Graph, favicon
    env.globals["t"] = words.t
    errors.extend(metadata.check(config, content, pages))
    engine_size = megabytes(sum(pyodide.CORE_BYTES.values()) + len(engine_archive(own.archive_files())))
    common = {"engine_size": engine_size,  # on the Start button of readers who save data
              "config": config, "lessons": lessons, "site": site, "scripts": BUNDLE_SCRIPTS if bundle else SCRIPTS,
              "assets": f"{ASSETS}/", "csp": _page_policy(config.csp, bundle),
              "dev": dev, "version": __version__, "dir": words.direction, "words": words.page_data()}
    renders: dict[str, tuple[str, dict]] = {}  # page file -> (template, its variables)
    bodies: list[str] = []  # every page's Markdown body: what the math font must draw
    printed: list[tuple[str, str, str]] = []  # (title, summary, body) of every page in order, for print.html
    figures = 0
    searched = []  # (url, title, summary, body, label) of every page, for the search index
    for at, entry in enumerate(reading):
        page = entry.page
        with _building(page.path, root):
            body = render_page(md, page)
            bodies.append(body)
            label = f"{entry.section.title} › {page.title}" if entry.section and entry.section.folder else page.title
            searched.append((page.url, page.title, page.meta.get("summary", ""), body, label))
            figures += body.count('class="ex-figure"')
            errors.extend(_id_clashes(page))
            prev = reading[at - 1] if at > 0 else None
            nxt = reading[at + 1] if at + 1 < len(reading) else None
            template = "section.html" if isinstance(entry, Section) else "lesson.html"
            renders[page.url] = (template, dict(page=page, body=body, position=entry.position, prev=prev, next=nxt,
                                                section=entry.section, entry=entry, root=_root_of(page),
                                                here=page.folder))
            printed.append((page.title, page.meta.get("summary", ""), _print_body(body, page.url)))
    with _building(index_page.path if index_page else content, root):
        index_body = render_page(md, index_page) if index_page else ""
        bodies.append(index_body)
        if index_page:
            searched.insert(0, ("index.html", index_page.title, config.description, index_body, index_page.title))
        renders["index.html"] = ("index.html", dict(page=index_page, body=index_body, root="", here="", section=site))
    pages_written = len(renders)  # the author's pages; the ones below are the tool's
    # Every site: a 404 page in its style (GitHub Pages serves it) and its notices.
    renders["404.html"] = ("404.html", dict(page=None, root="", here=None))
    renders["notices.html"] = ("notices.html", dict(page=None, components=COMPONENTS, root="", here=None))
    # The whole track on one page, figures as their stills, for print and "Save as PDF".
    renders[PRINT_PAGE] = ("print.html", dict(page=None, printed=printed, root="", here=None))
    outputs: dict[str, str] = {}
    if metadata.sitemap(config, pages):
        outputs["sitemap.xml"] = metadata.sitemap(config, pages)
    for page in pages:
        errors.extend(page.errors)
    extras = _author_folders(content, out_dir, {**renders, **outputs}, errors,
                             tuple(sec.folder for sec in site.all_sections()))
    if errors:
        errors.sort(key=lambda e: (str(e.path), e.line, e.col))
        raise BuildError(errors, root=root)

    # Write: the assets under their hashed names first (the pages name them), then the
    # pages, the author's files and Pyodide, into a fresh folder.
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}-build-", dir=out_dir.parent))
    try:
        with _building(out_dir, root):
            assets = staging / ASSETS
            shutil.copytree(STATIC, assets, ignore=shutil.ignore_patterns("__pycache__", "*.md"))
            runtime = join_scripts(assets, BUNDLE_RUNTIME if bundle else RUNTIME, minify=not dev)
            later = join_scripts(assets, LATER, minify=not dev)
            worker = join_scripts(assets, ("js/worker.js",), minify=not dev)
            # the print page runs no figure, only this: a Tab stop for boxes that scroll sideways
            scrollers = join_scripts(assets, ("js/scrollers.js",), minify=not dev)
            kept = {"js/livereload.js"} if dev else set()
            for script in sorted((assets / "js").rglob("*.js")):  # joined, or not this site's
                if script.relative_to(assets).as_posix() not in kept:
                    script.unlink()
            (assets / RUNTIME_FILE).write_text(runtime, encoding="utf-8")
            (assets / LATER_FILE).write_text(later, encoding="utf-8")
            (assets / "js" / "worker.js").write_text(worker, encoding="utf-8")
            (assets / "js" / "scrollers.js").write_text(scrollers, encoding="utf-8")
            if not dev:  # a preview keeps the stylesheet readable too
                style = assets / "explorables.css"
                style.write_text(rcssmin.cssmin(style.read_text(encoding="utf-8")), encoding="utf-8")
            build = site_assets.build_id({**_runtime_files(assets), "engine.zip": engine_archive(own.archive_files())})
            engine = engine_archive([*own.archive_files(), (site_assets.BUILD_FILE, build.encode("ascii"))])
            (assets / "engine.zip").write_bytes(engine)
            # only the glyphs the math uses, and those of the problems exercises make in the browser
            fonts.subset_math_font(assets / fonts.MATH_FONT, [*bodies, exercise_glyphs()])
            (assets / "search-index.js").write_text(search.index_script(search.build_index(searched)),
                                                    encoding="utf-8")
            if bundle:
                from .bundle import write_data  # what an offline bundle carries as classic scripts
                write_data(assets, engine, pyodide_source)
            names = site_assets.hash_folder(assets)
            render = _renderer(env, common, renders, build, names)
            if bundle:  # every page's content, carried for the bundle's page swaps
                from .bundle import pages_script
                drafts = {name: render(name, "bundle/pages.js") for name in renders
                          if name != PRINT_PAGE}  # no scripts: it opens as a file of its own
                names["bundle/pages.js"] = site_assets.add(assets, "bundle/pages.js", pages_script(drafts))
            outputs.update({name: render(name) for name in renders})
            for name, text in outputs.items():
                (staging / name).parent.mkdir(parents=True, exist_ok=True)
                (staging / name).write_text(text, encoding="utf-8")
            for extra in extras:  # images and other files of the lessons
                copy_tree(extra, staging / extra.relative_to(content), content, errors)
            copy_images(pages, content, staging)  # images beside the lessons, referenced from Markdown
            metadata.copy_files(config, content, pages, staging)  # favicon, link preview images
            if errors:
                raise BuildError(errors, root=root)
            (staging / ".nojekyll").write_text("")  # GitHub Pages: serve _explorables/ as it is
            (staging / MARKER).write_text("Made by `explorables build`; the next build replaces this folder.\n")
            if not bundle:
                pyodide.vendor(assets / site_assets.PYODIDE, pyodide_source)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise

    # Swap: the new site replaces the old one only now that it is complete.
    _swap(staging, out_dir)
    return BuildResult(out_dir=out_dir, pages=pages_written, figures=figures,
                       warnings=[w.format(root) for w in warnings])


def _sources(content: Path, out_dir: Path, errors: list[SourceError]) -> tuple[list[Path], list[SourceError]]:
    """The Markdown files of the site: those at the top of content/ and those of every
    section, a folder with an index.md (sections nest). A folder of Markdown files with
    no index.md is copied as files, with a warning."""
    found = sorted(content.glob("*.md"))
    warnings: list[SourceError] = []

    def walk(folder: Path) -> None:
        for sub in sorted(folder.iterdir()):
            if not sub.is_dir() or sub.name.startswith((".", "_")) or sub.resolve() == out_dir:
                continue
            rel = sub.relative_to(content).as_posix()
            if (sub / "index.md").is_file():
                problem = outside(sub, content)
                if problem:
                    errors.append(problem)
                    continue
                found.extend(sorted(sub.glob("*.md")))
                walk(sub)
            elif any(sub.glob("*.md")):
                warnings.append(SourceError(sub, 0, 0, f"the folder {rel}/ holds Markdown files but no index.md, "
                                            f"so it is published as files, not read as a section",
                                            f"add {rel}/index.md (title, order, summary) to make it a section"))
    walk(content)
    return found, warnings


def _sections(pages) -> Section:
    """The tree of sections, each holding its lessons and sections by order, then name."""
    folders = sorted({page.folder for page in pages} | {""}, key=lambda f: (f.count("/"), f))
    tree: dict[str, Section] = {}
    for folder in folders:
        parent = tree.get(folder.rsplit("/", 1)[0] if "/" in folder else "") if folder else None
        tree[folder] = Section(folder, parent=parent)
        if parent is not None:
            parent.items.append(tree[folder])
    for page in pages:
        section = tree[page.folder]
        if page.slug == "index":
            section.page = page
        else:
            section.items.append(Lesson(page.slug, page.title, page.meta.get("summary", ""),
                                        page.meta.get("order", 0), page.url, page, section))

    def key(item):
        if isinstance(item, Lesson):
            return (item.page.meta.get("order", LAST), item.slug)
        return (item.order, item.folder.rsplit("/", 1)[-1])
    for section in tree.values():
        section.items.sort(key=key)
        for position, lesson in enumerate(section.lessons(), start=1):
            lesson.position = position
        for position, child in enumerate(section.sections(), start=1):
            child.position = position
    return tree[""]


def _root_of(page) -> str:
    """The way from a page back to the site's root: '' at the top, '../' one folder down."""
    return "../" * (page.folder.count("/") + 1) if page.folder else ""


_ID_REFS = re.compile(r'\b(id|for|headers|aria-labelledby|aria-describedby|aria-controls)="([^"]*)"')
_OWN_ANCHOR = re.compile(r'href="#([^"]*)"')


def _print_body(body: str, url: str) -> str:
    """A lesson's body as print.html holds it: without "On this page", and with its ids
    (and what names them: anchors, labels, ARIA references) prefixed by the lesson, so
    that lessons side by side on one page keep theirs apart."""
    prefix = re.sub(r"[^A-Za-z0-9-]", "-", url.removesuffix(".html"))
    body = TOC.sub("", body, count=1)
    body = _ID_REFS.sub(lambda m: f'{m[1]}="' + " ".join(f"{prefix}--{i}" for i in m[2].split()) + '"', body)
    return _OWN_ANCHOR.sub(lambda m: f'href="#{prefix}--{m[1]}"', body)


def join_scripts(assets: Path, names: tuple[str, ...], minify: bool) -> str:
    """The runtime's scripts as one classic script, in order. Each is a self-contained
    IIFE, so joining them changes nothing but the number of requests; minified, the
    whole runtime is about half the bytes compressed (45 KB gzipped as 23 files, 24 KB
    joined and minified)."""
    parts = []
    for name in names:
        text = (assets / name).read_text(encoding="utf-8")
        parts.append(rjsmin.jsmin(text) if minify else f"/* {name} */\n{text}")
    return ";\n".join(parts) + "\n"


def _runtime_files(assets: Path) -> dict[str, bytes]:
    """The browser runtime as copied into ``assets``: what the build id is made of."""
    return {path.relative_to(assets).as_posix(): path.read_bytes() for path in sorted(assets.rglob("*"))
            if path.is_file()}


def _renderer(env: jinja2.Environment, common: dict, renders: dict[str, tuple[str, dict]], build: str,
              names: dict[str, str]):
    """render(page file) -> its HTML. The templates name assets with ``asset(name)``; the
    page's head carries the build id and the map of what its scripts load. ``pending``
    names an asset not written yet: its plain name stands in (a draft of the page)."""
    def render(name: str, pending: str | None = None) -> str:
        known = {**names, pending: pending} if pending else names

        def asset(plain: str) -> str:
            if plain not in known:
                raise KeyError(f"the templates name an asset the build did not write: {plain}")
            return f"{ASSETS}/{known[plain]}"

        template, variables = renders[name]
        manifest = {"build": build, "assets": site_assets.script_map(known)}
        return env.get_template(template).render(asset=asset, manifest=manifest, **variables, **common)

    return render


def _author_folders(content: Path, out_dir: Path, outputs: dict[str, str], errors: list[SourceError],
                    sections: tuple[str, ...] = ("",)) -> list[Path]:
    """The author's folders of images and files, at the top of content/ and in every
    section, copied into the site at the same place. Names that start with '.' or '_'
    are private (and _explorables/ is the site's own); a section is not copied (its
    pages are built); a folder named like a page of the site is an error."""
    folders = []
    for section in sections:
        for extra in sorted((content / section).iterdir()):
            if extra.name.startswith((".", "_")) or extra.suffix == ".md" or extra == out_dir:
                continue
            if not extra.is_dir():
                continue  # files beside the lessons are not published
            rel = extra.relative_to(content).as_posix()
            if rel in sections:
                continue
            problem = outside(extra, content)
            if problem:
                errors.append(problem)
                continue
            copy_tree(extra, None, content, errors)  # every link inside it checked before anything is written
            if rel in outputs or extra.name in (MARKER, ".nojekyll"):
                errors.append(SourceError(extra, 0, 0, f"the folder {rel} has the name of a page of the site",
                                          "rename the folder"))
                continue
            folders.append(extra)
    return folders


def _own_figures(folder: Path, site: Path, errors: list[SourceError]):
    """The site's own figures, unless the folder, or a module in it, leads out of the
    site folder: the build runs that Python, and it runs nothing from elsewhere."""
    problems = []
    if folder.exists() or folder.is_symlink():
        problem = outside(folder, site.resolve(), "site folder")
        if problem:
            problems.append(problem)
        elif folder.is_dir():
            problems += [p for p in (outside(path, site.resolve(), "site folder") for path in sorted(folder.glob("*.py")))
                         if p]
    if problems:
        errors.extend(problems)
        return authors.AuthorFigures(folder)
    return authors.load(folder)


def _page_policy(policy: str, bundle: bool) -> str:
    """The Content-Security-Policy of the pages. An offline bundle's worker is a Blob
    that inherits the page's policy and imports Pyodide's modules and standard library
    from Blob URLs, so there, and only there, scripts and fetches may come from blob:."""
    if not bundle or not policy:
        return policy
    parts = [part.strip() for part in policy.split(";") if part.strip()]
    for i, part in enumerate(parts):
        name = part.split()[0]
        if name in ("script-src", "connect-src") and "blob:" not in part.split():
            parts[i] = f"{part} blob:"
    return "; ".join(parts)


def _order_ties(lessons_pages) -> list[SourceError]:
    """Two lessons with the same ``order``: a warning that says which one comes first."""
    warnings = []
    for before, after in zip(lessons_pages, lessons_pages[1:]):
        order = after.meta.get("order")
        if order is not None and before.meta.get("order") == order:
            lines = after.env.get("lines") or []
            line = next((i + 1 for i, text in enumerate(lines[:100]) if re.match(r"order\s*:", text)), 1)
            warnings.append(SourceError(after.path, line, 1, f"order {order} is also the order of "
                                        f"{before.path.name}; {before.path.name} comes first (by page name)",
                                        "give each lesson its own order"))
    return warnings


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


def _id_clashes(page) -> list[SourceError]:
    """A figure, an image or an exercise whose id is also a heading's anchor, or an
    image's or exercise's that of a figure. (Two figures with one id are reported, once,
    by the figure directive.)"""
    headings = {t.attrGet("id") for t in page.tokens if t.type == "heading_open" and t.attrGet("id")}
    figures = {t.meta["id"] for t in page.tokens if t.type == "figure"}
    errors = []
    for token in page.tokens:
        if token.type == "figure" and token.meta["id"] in headings:
            errors.append(SourceError(page.path, token.meta["line"], 1,
                                      f"figure id '{token.meta['id']}' is also the id of a heading on this page",
                                      "give the figure another id (the word after the directive name)"))
        elif token.type == "image_figure_open" and token.attrGet("id") in headings | figures:
            fence = (token.map[0] if token.map else 0) + page.env.get("line_offset", 0)
            lines = page.env.get("lines") or []
            line = next((i + 1 for i in range(fence, min(fence + 20, len(lines)))
                         if lines[i].strip().startswith(":name:")), fence + 1)
            errors.append(SourceError(page.path, line, 1, f"image name '{token.attrGet('id')}' is also the id of a "
                                      f"heading or a figure on this page", "give the image another :name:"))
        elif token.type == "exercise_open" and token.meta["id"] in headings | figures:
            errors.append(SourceError(page.path, token.meta["line"], 1,
                                      f"exercise id '{token.meta['id']}' is also the id of a heading or figure "
                                      "on this page", "give the exercise another :name:"))
    return errors


def _slug_clashes(pages) -> list[SourceError]:
    """Two files that would write the same page, or a lesson that would be its folder's index."""
    errors: list[SourceError] = []
    seen: dict[str, Path] = {}
    for page in pages:
        where = "the track's front page" if not page.folder else f"the page of the section {page.folder}/"
        if page.slug == "index" and page.path.stem != "index":
            errors.append(SourceError(page.path, 1, 1, f"the file name {page.path.name} makes the page "
                                      f"{page.url}, which is {where}", "rename the file, e.g. 03-overview.md"))
        elif page.url in seen:
            errors.append(SourceError(page.path, 1, 1, f"{page.path.name} and {seen[page.url].name} would both "
                                      f"be written to {page.url}", "rename one of the two files"))
        else:
            seen[page.url] = page.path
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
