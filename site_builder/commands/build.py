"""``explorables build``: content/ -> a static site, atomically.

The build is one straight pipeline (``build_site``): read, parse, validate, render,
write into a temporary folder beside the output (the assets under content-hashed names
first, then the pages that name them), swap. A failed build raises BuildError
with every error of the run and leaves the previous site byte for byte as it was.
"""
from __future__ import annotations

import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import jinja2

from ... import __version__
from ...engine.exercises import glyphs as exercise_glyphs
from ..output import assets as site_assets, fonts
from ..output.assets import ASSETS, STATIC, TEMPLATES
from ..pyodide import release as pyodide, snapshot, stdlib
from ..pyodide.archive import engine_archive, with_file
from ..structure.config import _line_of, config_path, load_config
from ..errors import BuildError, InternalError, PyodideError, SourceError, building, vanished
from ..output.folder import MARKER, check_output, swap
from ..output.printpage import PRINT_PAGE, print_body, print_prefix
from ..structure.links import missing_targets, resolve_links
from ..output.images import copy_images
from ..structure import metadata, sections
from ..output import offline, scripts, search  # offline: what a bundle carries as classic scripts
from ..output.scripts import BUNDLE_SCRIPTS, SCRIPTS, START_FILE, engine_needs
from ..structure.sections import slug_of
from ..markdown.directives.references import resolve_figure_refs
from ..markdown.parser import create_parser, parse_page, render_page
from ..structure.files import copy_tree, read_source
from ..structure.inputs import author_folders, id_clashes, own_figures
from ..output.notices import COMPONENTS
from ..structure.language import site_words
from ...engine import locale


@dataclass
class BuildResult:
    out_dir: Path
    pages: int
    figures: int
    warnings: list[str] = field(default_factory=list)  # formatted, path:line:col first


class _KeptTemplates(jinja2.BytecodeCache):
    """The templates compiled once per process, not once per build: `explorables serve`
    builds again on every edit. Jinja compares each with its source's checksum."""

    def __init__(self) -> None:
        self.kept: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if bucket.key in self.kept:
            bucket.bytecode_from_string(self.kept[bucket.key])

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.kept[bucket.key] = bucket.bytecode_to_string()


_KEPT_TEMPLATES = _KeptTemplates()


def megabytes(size: int) -> str:
    """13_652_045 -> '13.7 MB' (decimal megabytes, as download sizes are given)."""
    return f"{size / 1e6:.1f} MB"


def build_site(content: Path, out_dir: Path, *, pyodide_source: str | None = None, dev: bool = False,
               bundle: bool = False, url: str | None = None) -> BuildResult:
    """Build ``content`` into ``out_dir``. An author's mistakes raise BuildError (every
    one of the run); a bug of the builder raises InternalError naming the file it was
    building. Never a bare traceback; either way the previous site stays as it was.
    With ``bundle`` the pages load the offline bundle's scripts, and Pyodide, the engine,
    the worker and every page's content are written as classic scripts of data instead
    of Pyodide's files (see bundle.py). Every asset is named by its content (assets.py).
    ``url`` stands for site.yml's ``url`` (the address the site is published at)."""
    try:
        try:
            return _pipeline(Path(content), Path(out_dir), pyodide_source, dev, bundle, url)
        except (BuildError, PyodideError):
            raise
        except Exception as err:  # a bug met outside any one file's stage
            raise vanished(err, Path(content).resolve().parent) or InternalError(
                Path(content), err, Path(content).resolve().parent) from err
    except BuildError as err:
        if not (Path(out_dir) / MARKER).is_file() or not (Path(out_dir) / ASSETS).is_dir():
            raise err.first_build()  # no site of an earlier build there to keep
        raise
    finally:
        locale.own_words({})
        locale.use("en")  # the engine speaks English again outside a build


def _pipeline(content: Path, out_dir: Path, pyodide_source: str | None, dev: bool, bundle: bool,
              url: str | None = None) -> BuildResult:
    content = content.resolve()
    out_dir = out_dir.resolve()
    root = content.parent
    if not content.is_dir():
        raise BuildError(f"content folder {content} does not exist; run the build from the project folder "
                         f"or pass the folder: explorables {'bundle' if bundle else 'build'} CONTENT")
    check_output(content, out_dir)
    if not (STATIC / "js" / "core.js").is_file():
        raise BuildError(f"the browser runtime is missing ({STATIC}); install the project from its source "
                         f"folder with `pip install -e .`")

    # Read: the site config, the site's own figures and every Markdown file, as UTF-8
    # text from inside content/.
    with building(config_path(content), root):
        config, errors = load_config(config_path(content))
        if url is not None:
            if not re.match(r"^https?://[^/\s]+(/\S*)?$", url):
                raise BuildError(f"--url must be the site's web address, got '{url}'; "
                                 f"e.g. --url https://example.org/attention/")
            config.url = url
    words = site_words(config.language, config_path(content))  # the tool's words in the site's language
    errors.extend(words.errors)
    locale.own_words(words.own)  # and the site's own figures' words (keys own.*)
    locale.use(config.language, words.messages)  # first frames and prose speak it too (build_site resets it)
    with building(content.parent / config.figures, root):
        own = own_figures(content.parent / config.figures, root, errors, words)  # beside the built-ins
    errors.extend(own.errors)
    sources, section_warnings = sections.sources(content, out_dir, errors)
    if config_path(content) != content / "site.yml" and (content / "site.yml").is_file():
        section_warnings.append(SourceError(content / "site.yml", 1, 1, "this site.yml is not read: the one "
                                            "beside the content folder is", "move what it says into that one, "
                                            "and delete this one"))
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
        with building(path, root):
            page = parse_page(md, path, "index" if path.stem == "index" else slug_of(path), text,
                              content_root=content, language=config.language)
            page.folder = path.parent.relative_to(content).as_posix().removeprefix(".")
            page.url = (f"{page.folder}/" if page.folder else "") + f"{page.slug}.html"
            pages.append(page)
    errors.extend(sections.slug_clashes(pages))
    with building(content, root):
        errors.extend(resolve_links(pages, content, tuple(p.relative_to(content).as_posix()
                                                          for p in sources if p not in texts)))
    site = sections.tree(pages)
    reading = site.reading_order()  # every lesson and section page, in the order prev/next walk
    warnings = words.warnings + [w for page in pages for w in page.warnings] + section_warnings
    for section in site.all_sections():
        warnings += sections.order_ties([p for p in section.lesson_pages])
    index_page = site.page
    if config.numbering == "site":  # Figure 3 on lesson 2 goes on from lesson 1's two, in reading order
        offset = 0
        for entry in reading:
            entry.page.env["figure_offset"] = offset
            offset += int(entry.page.env.get("figure_total", 0))
    with building(content, root):
        errors.extend(resolve_figure_refs(pages))  # {numref}`02-lesson.md#figure`
    lessons = site.lessons()  # the top folder's lessons (the whole track of a flat site)
    # Render: Markdown bodies into the templates (math and first frames happen here).
    # The templates are filled in once the assets have their hashed names (see Write).
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True,
                             undefined=jinja2.StrictUndefined, keep_trailing_newline=True,
                             bytecode_cache=_KEPT_TEMPLATES)
    env.globals["meta_tags"] = metadata.meta_tags  # description, Open Graph, favicon
    env.globals["t"] = words.t
    errors.extend(metadata.check(config, content, pages))
    own_files = own.archive_files(words.own)  # the site's modules and words, for the engine archive
    plain_engine = engine_archive(own_files, config.language)  # before the build id is known
    common = {"engine_size": "",  # on the Start button of readers who save data: set once Pyodide is at hand
              "config": config, "lessons": lessons, "site": site, "scripts": BUNDLE_SCRIPTS if bundle else SCRIPTS,
              "start": None if bundle else START_FILE,  # the engine's early start (js/start.js)
              "assets": f"{ASSETS}/", "csp": _page_policy(config.csp, bundle),
              "dev": dev, "version": __version__, "dir": words.direction,
              "words": words.page_data(dev=dev, bundle=bundle)}
    renders: dict[str, tuple[str, dict]] = {}  # page file -> (template, its variables)
    bodies: list[str] = []  # every page's Markdown body: what the math font must draw
    printed: list[tuple[str, str, str, str]] = []  # (url, title, summary, body) of every page in order, for print.html
    figures = 0
    searched = []  # (url, title, summary, body, label) of every page, for the search index
    for at, entry in enumerate(reading):
        page = entry.page
        with building(page.path, root):
            body = render_page(md, page)
            bodies.append(body)
            label = f"{entry.section.title} › {page.title}" if entry.section and entry.section.folder else page.title
            searched.append((page.url, page.title, page.meta.get("summary", ""), body, label))
            figures += body.count('class="ex-figure"')
            errors.extend(id_clashes(page))
            prev = reading[at - 1] if at > 0 else None
            nxt = reading[at + 1] if at + 1 < len(reading) else None
            template = "section.html" if isinstance(entry, sections.Section) else "lesson.html"
            renders[page.url] = (template, dict(page=page, body=body, position=entry.position, prev=prev, next=nxt,
                                                section=entry.section, entry=entry, root=sections.root_of(page),
                                                here=page.folder))
            printed.append((page.url, page.title, page.meta.get("summary", ""), body))
    with building(index_page.path if index_page else content, root):
        index_body = render_page(md, index_page) if index_page else ""
        bodies.append(index_body)
        if index_page:
            searched.insert(0, ("index.html", index_page.title, config.description, index_body, index_page.title))
        renders["index.html"] = ("index.html", dict(page=index_page, body=index_body, root="", here="", section=site))
    pages_written = len(renders)  # the author's pages; the ones below are the tool's
    # Every site: a 404 page in its style (GitHub Pages serves it) and its notices.
    # A host serves it for a missing address in any folder: with the site's address known,
    # its links and assets start at the site's path, so they work from every folder.
    # (`explorables serve` serves the site at the server's root, whatever its address.)
    renders["404.html"] = ("404.html", dict(page=None, root="/" if dev else "" if bundle else _site_path(config.url),
                                            here=None))
    renders["notices.html"] = ("notices.html", dict(page=None, components=COMPONENTS, root="", here=None))
    # The whole track on one page, figures as their stills, for print and "Save as PDF".
    on_print = {url for url, *_ in printed}
    printed_pages = [(print_prefix(url), title, summary, print_body(body, url, on_print))
                     for url, title, summary, body in printed]
    renders[PRINT_PAGE] = ("print.html", dict(page=None, printed=printed_pages, root="", here=None))
    outputs: dict[str, str] = {}
    if metadata.sitemap(config, pages):
        outputs["sitemap.xml"] = metadata.sitemap(config, pages)
    for page in pages:
        errors.extend(page.errors)
    extras = author_folders(content, out_dir, {**renders, **outputs}, errors,
                             tuple(sec.folder for sec in site.all_sections()))
    if errors:
        # the site's own files first (site.yml, figure modules, word files): a mistake there
        # is often the cause of what the lessons then report
        errors.sort(key=lambda e: (Path(e.path).is_relative_to(content), str(e.path), e.line, e.col))
        raise BuildError(errors, root=root)

    # Write: the assets under their hashed names first (the pages name them), then the
    # pages, the author's files and Pyodide, into a fresh folder.
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}-build-", dir=out_dir.parent))
    try:
        with building(out_dir, root):
            assets = staging / ASSETS
            shutil.copytree(STATIC, assets, ignore=shutil.ignore_patterns("__pycache__", "*.md"))
            scripts.write_runtime(assets, bundle=bundle, dev=dev)
            build = site_assets.build_id({**_runtime_files(assets),
                                          "engine.zip": plain_engine})
            engine = with_file(plain_engine, site_assets.BUILD_FILE, build.encode("ascii"))
            (assets / "engine.zip").write_bytes(engine)
            python_lib = stdlib.site_stdlib(pyodide.ensure_pyodide(pyodide_source))
            if not bundle:  # a bundle carries it in its Pyodide data
                (assets / "stdlib.zip").write_bytes(python_lib)
            common["engine_size"] = megabytes(pyodide.SITE_BYTES + len(python_lib) + len(engine))
            if config.snapshot and not dev and not bundle:  # serve rebuilds stay quick; a bundle carries files
                made = _snapshot(engine, python_lib, pyodide_source, config_path(content))
                if isinstance(made, SourceError):
                    warnings.append(made)
                else:
                    (assets / "snapshot.bin").write_bytes(made)  # readers who save data start cold (client.js)
            # only the glyphs the math uses, and those of the problems exercises make in the browser
            fonts.subset_math_font(assets / fonts.MATH_FONT, [*bodies, exercise_glyphs()])
            (assets / "search-index.js").write_text(search.index_script(search.build_index(searched)),
                                                    encoding="utf-8")
            if bundle:
                offline.write_data(assets, engine, python_lib, pyodide_source)
            names = site_assets.hash_folder(assets)
            render = _renderer(env, common, renders, build, names)
            if bundle:  # every page's content, carried for the bundle's page swaps
                drafts = {name: render(name, "bundle/pages.js") for name in renders
                          if name != PRINT_PAGE}  # no scripts: it opens as a file of its own
                names["bundle/pages.js"] = site_assets.add(assets, "bundle/pages.js", offline.pages_script(drafts))
            outputs.update({name: render(name) for name in renders})
            for name, text in outputs.items():
                (staging / name).parent.mkdir(parents=True, exist_ok=True)
                (staging / name).write_text(text, encoding="utf-8")
            for extra in extras:  # images and other files of the lessons
                copy_tree(extra, staging / extra.relative_to(content), content, errors)
            copy_images(pages, content, staging)  # images beside the lessons, referenced from Markdown
            metadata.copy_files(config, content, pages, staging)  # favicon, link preview images
            errors.extend(missing_targets(pages, staging))
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
    swap(staging, out_dir)
    return BuildResult(out_dir=out_dir, pages=pages_written, figures=figures,
                       warnings=[w.format(root) for w in warnings])


def _site_path(url: str) -> str:
    """The path of the site's address (``https://x.org/attention`` -> ``/attention/``),
    or "" (relative links) when the address is not known."""
    if not url:
        return ""
    path = urlsplit(url).path or "/"
    return path if path.endswith("/") else path + "/"


def _snapshot(engine: bytes, python_lib: bytes, pyodide_source: str | None, where: Path) -> bytes | SourceError:
    """The gzip-compressed memory snapshot of the engine (snapshot.py), or a warning
    at site.yml's `snapshot` line saying why there is none."""
    line = _line_of(where.read_text(encoding="utf-8"), "snapshot")
    try:
        return snapshot.make(pyodide.ensure_pyodide(pyodide_source), engine, python_lib)
    except snapshot.SnapshotError as err:
        return SourceError(where, line, 1, str(err), "install Node, or remove `snapshot: true` from site.yml")


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
        engine = engine_needs(variables.get("page"), getattr(variables.get("next"), "page", None))
        if engine is not None:
            manifest["engine"] = engine
        # a page with formulas has js/start.js fetch the math font at once, not at its first
        # layout: that layout then sets them in it, rather than asking the system for a
        # fallback font character by character and setting them again once it comes
        if common["start"] and "<math" in variables.get("body", ""):
            manifest["font"] = known[fonts.MATH_FONT.as_posix()]
        return env.get_template(template).render(asset=asset, manifest=manifest, **variables, **common)

    return render


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
