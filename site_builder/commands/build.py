"""``explorables build``: content/ -> a static site, atomically.

The build is one straight pipeline (``build_site``), in five named stages: read, parse
(and validate), render, write into a temporary folder beside the output (the assets
under content-hashed names first, then the pages that name them: build_write.py), swap. A failed build
raises BuildError with every error of the run and leaves the previous site byte for byte
as it was.
"""

from __future__ import annotations

import gc
import re
from dataclasses import dataclass, field
from pathlib import Path

from ... import __version__
from ...engine import locale
from ..authors.loader import own_figures
from ..errors import BuildError, InternalError, PyodideError, SourceError, building, vanished
from ..markdown.directives.references import resolve_figure_refs
from ..markdown.ids import id_clashes
from ..markdown.parser import create_parser, parse_page, render_page
from ..output import scripts
from ..output.assets import ASSETS, STATIC
from ..output.folder import MARKER, author_folders, check_output, swap
from ..output.notices import COMPONENTS
from ..output.pages import Printed, environment, page_policy, site_path
from ..output.printpage import PRINT_PAGE
from ..pyodide.archive import engine_archive
from ..structure import metadata, sections
from ..structure.config import config_path, load_config
from ..structure.files import read_sources
from ..structure.language import site_words
from ..structure.links import resolve_links
from ..structure.sections import slug_of
from . import build_languages, cache, incremental, parallel
from .build_stages import Parsed, Read, Rendered, Run
from .build_write import write

# A build makes millions of small objects (tokens, their attributes, the pages' pieces) and
# few cycles: the collector of young objects, run every 700 by default, took 4% of a
# 200-page build's processor time (0.06 s); every GC_YOUNG, 1% (0.016 s), at the same peak memory.
GC_YOUNG = 10_000


@dataclass
class BuildResult:
    out_dir: Path
    pages: int
    figures: int
    warnings: list[str] = field(default_factory=list)  # formatted, path:line:col first


def build_site(
    content: Path,
    out_dir: Path,
    *,
    pyodide_source: str | None = None,
    dev: bool = False,
    bundle: bool = False,
    url: str | None = None,
    scorm: bool = False,
    strict: bool = False,
    languages: tuple[str, ...] | None = None,
) -> BuildResult:
    """Build ``content`` into ``out_dir``. An author's mistakes raise BuildError (every
    one of the run); a bug of the builder raises InternalError naming the file it was
    building. Never a bare traceback; either way the previous site stays as it was.
    With ``bundle`` the pages load the offline bundle's scripts, and Pyodide, the engine,
    the worker and every page's content are written as classic scripts of data instead
    of Pyodide's files (see bundle.py). Every asset is named by its content (assets.py).
    ``url`` stands for site.yml's ``url`` (the address the site is published at).
    ``scorm`` (with ``bundle``) adds the SCORM runtime to the pages' later scripts.
    In a site of several languages (build_languages.py) ``strict`` makes a missing
    translation an error, and ``languages`` names the ones built besides the default."""
    options = dict(locals())  # every argument: part of the key the build cache knows a site by
    store = cache.begin(Path(content), Path(out_dir), options)
    kept = store.kept() if store is not None else None
    if kept is not None:  # built from these very files into that folder, which holds it still
        return BuildResult(Path(out_dir).resolve(), kept["pages"], kept["figures"], kept["warnings"])
    thresholds = gc.get_threshold()
    gc.set_threshold(max(thresholds[0], GC_YOUNG), *thresholds[1:])
    try:
        try:
            return _pipeline(
                Path(content),
                Path(out_dir),
                pyodide_source,
                dev,
                bundle,
                url,
                scorm=scorm,
                strict=strict,
                only=languages,
            )
        except (BuildError, PyodideError):
            raise
        except Exception as err:  # a bug met outside any one file's stage
            raise vanished(err, Path(content).resolve().parent) or InternalError(
                Path(content), err, Path(content).resolve().parent
            ) from err
    except BuildError as err:
        if not (Path(out_dir) / MARKER).is_file() or not (Path(out_dir) / ASSETS).is_dir():
            err.first_build()  # no site of an earlier build there to keep: the message says so
        raise
    finally:
        gc.set_threshold(*thresholds)
        locale.own_words({})
        locale.use("en")  # the engine speaks English again outside a build


def _pipeline(
    content: Path,
    out_dir: Path,
    pyodide_source: str | None,
    dev: bool,
    bundle: bool,
    url: str | None = None,
    *,
    scorm: bool = False,
    strict: bool = False,
    only: tuple[str, ...] | None = None,
) -> BuildResult:
    run = Run(content.resolve(), out_dir.resolve(), pyodide_source, dev, bundle, scorm=scorm)
    _check_folders(run)
    # Read: the site config, the site's own figures and every Markdown file, as UTF-8
    # text from inside content/.
    read = _read(run, url)
    # Parse and validate: directives check their options against the figure specs; links,
    # sections and figure references are resolved across the pages.
    if build_languages.several(read.config):  # parse and render once a language, then joined
        parsed, rendered = build_languages.stages(run, read, _parse, _render, only, strict)
    else:
        parsed = _parse(run, read)
        # Render: Markdown bodies (math and first frames happen here) and what each template
        # is given; the templates are filled in once the assets have their hashed names (Write).
        rendered = _render(run, read, parsed)
    # Write: the assets under their hashed names first (the pages name them), then the
    # pages, the author's files and Pyodide, into a fresh folder beside the output.
    staging = write(run, read, parsed, rendered)
    # Swap: the new site replaces the old one only now that it is complete.
    swap(staging, run.out_dir)
    cache.built(rendered.pages_written, rendered.figures, [w.format(run.root) for w in parsed.warnings])
    incremental.remember(run, read, parsed, rendered)  # what `serve` rebuilds one lesson's page from
    return BuildResult(
        out_dir=run.out_dir,
        pages=rendered.pages_written,
        figures=rendered.figures,
        warnings=[w.format(run.root) for w in parsed.warnings],
    )


def _check_folders(run: Run) -> None:
    """Refuse a missing content folder, an output folder the build may not replace, and
    an installation without the browser runtime, before anything is read."""
    if not run.content.is_dir():
        raise BuildError(
            f"content folder {run.content} does not exist; run the build from the project folder "
            f"or pass the folder: explorables {'bundle' if run.bundle else 'build'} CONTENT"
        )
    check_output(run.content, run.out_dir)
    if not (STATIC / "js" / "core.js").is_file():
        raise BuildError(
            f"the browser runtime is missing ({STATIC}); install the project from its source "
            f"folder with `pip install -e .`"
        )


def _read(run: Run, url: str | None) -> Read:
    """Stage 1, read: site.yml (and ``--url``), the tool's and the site's words in its
    language (which the engine speaks from here on), the site's own figure modules and
    every lesson's text. Nothing is read from outside content/ and its site folder."""
    content, root, errors = run.content, run.root, run.errors
    with building(config_path(content), root):
        config, found = load_config(config_path(content))
        errors.extend(found)
        if url is not None:
            if not re.match(r"^https?://[^/\s]+(/\S*)?$", url):
                raise BuildError(
                    f"--url must be the site's web address, got '{url}'; e.g. --url https://example.org/attention/"
                )
            config.url = url
    words = site_words(config.language, config_path(content))  # the tool's words in the site's language
    errors.extend(words.errors)
    locale.own_words(words.own)  # and the site's own figures' words (keys own.*)
    locale.use(config.language, words.messages)  # first frames and prose speak it too (build_site resets it)
    with building(content.parent / config.figures, root):
        own = own_figures(content.parent / config.figures, root, errors, words)  # beside the built-ins
    errors.extend(own.errors)
    sources, warnings = sections.sources(content, run.out_dir, errors, tuple(config.languages[1:]))
    if config_path(content) != content / "site.yml" and (content / "site.yml").is_file():
        warnings.append(
            SourceError(
                content / "site.yml",
                1,
                1,
                "this site.yml is not read: the one beside the content folder is",
                "move what it says into that one, and delete this one",
            )
        )
    if not sources:
        raise BuildError(f"{content} holds no Markdown lessons (*.md); add one, e.g. 01-first-lesson.md")
    texts = read_sources(sources, content, errors)
    return Read(config, words, own, sources, texts, warnings)


def _parse(run: Run, read: Read, fallbacks: list | None = None) -> Parsed:
    """Stage 2, parse and validate: each page's Markdown into tokens (directives check
    their options against the figure specs), then what spans pages: clashing slugs,
    links, the sections' tree and reading order, figure numbers and references.
    ``fallbacks``: the default language's pages another language lacks (parsed already)."""
    content, root, errors, config = run.content, run.root, run.errors, read.config
    md = create_parser(raw_html=config.raw_html)
    pages = []
    jobs = [(path, "index" if path.stem == "index" else slug_of(path), text) for path, text in read.texts.items()]
    found = parallel.parse(md, jobs, content, config.language, parse_page, cache.current())
    for (path, _, _), parsed_page in zip(jobs, found, strict=True):
        with building(path, root):
            page = parsed_page()  # parse_page's: on every core for a large site (parallel.py)
            page.folder = path.parent.relative_to(content).as_posix().removeprefix(".")
            page.url = (f"{page.folder}/" if page.folder else "") + f"{page.slug}.html"
            pages.append(page)
    pages += fallbacks or []
    errors.extend(sections.slug_clashes(pages))
    with building(content, root):
        errors.extend(
            resolve_links(
                pages, content, tuple(p.relative_to(content).as_posix() for p in read.sources if p not in read.texts)
            )
        )
    site = sections.tree(pages)
    reading = site.reading_order()
    warnings = read.words.warnings + [w for page in pages for w in page.warnings] + read.warnings
    for section in site.all_sections():
        warnings += sections.order_ties(list(section.lesson_pages))
    if config.numbering == "site":  # Figure 3 on lesson 2 goes on from lesson 1's two, in reading order
        offset = 0
        for entry in reading:
            entry.page.env["figure_offset"] = offset
            offset += int(entry.page.env.get("figure_total", 0))
    with building(content, root):
        errors.extend(resolve_figure_refs(pages))  # {numref}`02-lesson.md#figure`
    return Parsed(md, pages, site, reading, warnings)


def _render(run: Run, read: Read, parsed: Parsed) -> Rendered:
    """Stage 3, render: every page's Markdown body into HTML in reading order, then the
    index, the 404 page, the notices and the print page, each as a template and its
    variables. The run's errors so far are raised here, sorted: nothing is written."""
    content, root, errors, config, words = run.content, run.root, run.errors, read.config, read.words
    site, reading, pages = parsed.site, parsed.reading, parsed.pages
    env = environment(words.t)
    errors.extend(metadata.check(config, content, pages))
    own_files = read.own.archive_files(words.own)  # the site's modules and words, for the engine archive
    plain_engine = engine_archive(own_files, config.language)  # before the build id is known
    common = {
        "engine_size": "",  # on the Start button of readers who save data: set once Pyodide is at hand
        "config": config,
        "lessons": site.lessons(),
        "site": site,
        "scripts": scripts.BUNDLE_SCRIPTS if run.bundle else scripts.SCRIPTS,
        "start": None if run.bundle else scripts.START_FILE,  # the engine's early start (js/start.js)
        "assets": f"{ASSETS}/",
        "csp": page_policy(config.csp, run.bundle),
        "dev": run.dev,
        "version": __version__,
        "dir": words.direction,
        "words": words.page_data(dev=run.dev, bundle=run.bundle),
    }
    renders: dict[str, tuple[str, dict]] = {}
    bodies: list[str] = []
    printed: list[tuple[str, str, str, str]] = []  # (url, title, summary, body) of every page in order, for print.html
    figures = 0
    searched = []
    index_page = site.page
    pages_in_order = [entry.page for entry in reading] + ([index_page] if index_page else [])
    made = parallel.render(parsed.md, pages_in_order, render_page, cache.current())
    for at, entry in enumerate(reading):
        page = entry.page
        with building(page.path, root):
            body = next(made)()  # render_page's: on every core for a large site (parallel.py)
            bodies.append(body)
            label = f"{entry.section.title} › {page.title}" if entry.section and entry.section.folder else page.title
            searched.append((page.url, page.title, page.meta.get("summary", ""), body, label))
            figures += body.count('class="ex-figure"')
            errors.extend(id_clashes(page))
            prev = reading[at - 1] if at > 0 else None
            nxt = reading[at + 1] if at + 1 < len(reading) else None
            template = "section.html" if isinstance(entry, sections.Section) else "lesson.html"
            renders[page.url] = (
                template,
                {
                    "page": page,
                    "body": body,
                    "position": entry.position,
                    "prev": prev,
                    "next": nxt,
                    "section": entry.section,
                    "entry": entry,
                    "root": sections.root_of(page),
                    "here": page.folder,
                },
            )
            printed.append((page.url, page.title, page.meta.get("summary", ""), body))
    with building(index_page.path if index_page else content, root):
        index_body = next(made)() if index_page else ""
        bodies.append(index_body)
        if index_page:
            searched.insert(0, ("index.html", index_page.title, config.description, index_body, index_page.title))
        renders["index.html"] = (
            "index.html",
            {"page": index_page, "body": index_body, "root": "", "here": "", "section": site},
        )
    pages_written = len(renders)
    # Every site: a 404 page in its style (GitHub Pages serves it) and its notices.
    # A host serves it for a missing address in any folder: with the site's address known,
    # its links and assets start at the site's path, so they work from every folder.
    # (`explorables serve` serves the site at the server's root, whatever its address.)
    missing_root = "/" if run.dev else "" if run.bundle else site_path(config.url)
    renders["404.html"] = ("404.html", {"page": None, "root": missing_root, "here": None})
    renders["notices.html"] = ("notices.html", {"page": None, "components": COMPONENTS, "root": "", "here": None})
    # The whole track on one page, figures as their stills, for print and "Save as PDF".
    renders[PRINT_PAGE] = ("print.html", {"page": None, "printed": Printed(printed), "root": "", "here": None})
    outputs: dict[str, str] = {}
    sitemap = metadata.sitemap(config, pages)
    if sitemap:
        outputs["sitemap.xml"] = sitemap
    for page in pages:
        errors.extend(page.errors)
    extras = author_folders(
        content,
        run.out_dir,
        {*renders, *outputs},
        errors,
        tuple(sec.folder for sec in site.all_sections() if (content / sec.folder).is_dir()),
    )
    if errors:
        # the site's own files first (site.yml, figure modules, word files): a mistake there
        # is often the cause of what the lessons then report
        errors.sort(key=lambda e: (Path(e.path).is_relative_to(content), str(e.path), e.line, e.col))
        raise BuildError(errors, root=root)
    return Rendered(env, common, renders, outputs, bodies, searched, extras, plain_engine, figures, pages_written)
