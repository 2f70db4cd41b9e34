"""One edited lesson rebuilt in place, for `explorables serve` (its kept build process,
warm.py): the page, in milliseconds, whatever the size of the site.

After each build for the server (``--live-reload``) the process keeps what the stages
made (``remember``). When the server sees that one lesson's text changed and nothing
else, it asks for that page alone (``rebuild``): the lesson is read and parsed again, its
links and figure references resolved against the site kept, its body and its page
rendered and written over the old one. Then, once the server has its answer, what
every page shares is brought up to date (the search index, the print page), under the
names the pages already load (the server's private folder: nobody else sees them).
In a site of several languages the lesson is rebuilt in its own language, whose index
and print page follow it (incremental_languages.py).

Whatever else may depend on the edit goes through a whole build (with the build cache,
cache.py): a new title, summary or order (the menus, the neighbours' prev/next), new
anchors or figures (other pages' links and numbers), first frames drawing other panel
kinds (the page's runtime, panels.py), an author's mistake (the build reports it), a
page that is not a lesson of the site kept.
"""

from __future__ import annotations

import gc
import json
import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from ...engine import locale
from ..markdown.directives.references import resolve_figure_refs
from ..markdown.ids import id_clashes
from ..markdown.parser import parse_page, render_page
from ..output import fonts, languages, panels, search_files
from ..output.assets import ASSETS, STATIC, names_in
from ..structure.files import read_source
from ..structure.links import page_ids, resolve_links
from ..structure.sections import slug_of
from . import build_languages, incremental_languages
from .incremental_languages import Language


@dataclass
class _Kept:
    run: Any
    read: Any
    parsed: Any
    rendered: Any
    stand_ins: dict[str, SimpleNamespace] = field(default_factory=dict)  # page url -> its stand-in
    render: Any = None  # the template renderer, made on first use
    deferred: list = field(default_factory=list)  # the shared files to bring up to date


_KEPT: list[_Kept | None] = [None]
KEPT_PROCESS = False  # set by warm_main.py: this process builds for the server, again and again


def remember(run, read, parsed, rendered) -> None:
    """Keep what a build for the server made (nothing for other builds)."""
    _KEPT[0] = _Kept(run, read, parsed, rendered) if run.dev and not run.bundle else None
    # the kept site's millions of objects out of the cycle collector's way: a full pass
    # over them took half a second in the middle of a one-page rebuild
    if KEPT_PROCESS:
        gc.unfreeze()
        if _KEPT[0] is not None:
            gc.freeze()


def _summary(page) -> tuple:
    """What other pages and the menus take from a page."""
    ids = sorted(page_ids(page))
    return (page.slug, page.title, repr(page.meta), page.env.get("figure_total"), page.env.get("figure_numbers"), ids)


def rebuild(content: Path, out_dir: Path, path: Path) -> str | None:
    """Rebuild the page of lesson ``path`` in place: what to print, or None when a whole
    build is needed (see the module's text). The engine speaks the site's language
    meanwhile, as in a build."""
    kept = _KEPT[0]
    if kept is None:
        return None
    old = next((page for page in kept.parsed.pages if page.path == path.resolve()), None)
    language = incremental_languages.of(kept, old) if old is not None else None
    if language is None:
        return None
    locale.own_words(language.words.own)
    locale.use(language.code, language.words.messages)
    try:
        return _rebuild(kept, content, out_dir, path, language)
    finally:
        locale.own_words({})
        locale.use("en")


def _rebuild(kept: _Kept, content: Path, out_dir: Path, path: Path, language: Language) -> str | None:
    started = time.perf_counter()
    if kept.run.content != content.resolve() or kept.run.out_dir != out_dir.resolve():
        return None
    run, parsed, rendered = kept.run, kept.parsed, kept.rendered
    path = path.resolve()
    old = next((page for page in parsed.pages if page.path == path), None)
    if old is None or old.url not in rendered.renders:
        return None
    text, problems = read_source(path, run.content)
    if problems or text is None:
        return None
    page = parse_page(
        language.md,
        path,
        old.slug,
        text,
        content_root=language.content,
        language=language.code,
    )
    page.folder, page.url = old.folder, old.url
    build_languages.move_files(page, language.prefix)
    if "figure_offset" in old.env:
        page.env["figure_offset"] = old.env["figure_offset"]
    if page.errors or page.warnings or _summary(page) != _summary(old) or page.slug != slug_of_page(path):
        return None
    mine = [other for other in incremental_languages.pages(kept, language) if other is not old]
    if resolve_links([page, *[_stand_in(kept, other) for other in mine]], language.content):
        return None
    if page.env.get("figure_refs") and resolve_figure_refs([page, *mine]):
        return None
    body = render_page(language.md, page)
    if page.errors or id_clashes(page):
        return None
    if panels.kinds_of(body) != panels.kinds_of(rendered.renders[old.url][1].get("body", "")):
        return None  # its first frames draw other kinds: another runtime, which a build writes
    _replace(kept, old, page, body)
    render = _renderer(kept)
    if render is None:
        return None
    _write(run.out_dir / page.url, render(page.url))
    kept.deferred.append(page.url)
    return f"Rebuilt {page.url} in {1000 * (time.perf_counter() - started):.0f} ms."


def slug_of_page(path: Path) -> str:
    return "index" if path.stem == "index" else slug_of(path)


def _stand_in(kept: _Kept, page) -> SimpleNamespace:
    """A kept page as resolve_links reads it: its file, its address and its ids (read
    once), with no links of its own left to resolve."""
    if page.url not in kept.stand_ins:
        marks = [SimpleNamespace(type="math_block_label", info=i, children=None) for i in page_ids(page)]
        kept.stand_ins[page.url] = SimpleNamespace(
            path=page.path, url=page.url, slug=page.slug, tokens=marks, env={"links": []}
        )
    return kept.stand_ins[page.url]


def _replace(kept: _Kept, old, page, body: str) -> None:
    """Put the new page where the old one was: the pages, the tree, what the templates are given."""
    parsed, rendered = kept.parsed, kept.rendered
    parsed.pages[parsed.pages.index(old)] = page
    for entry in parsed.reading:
        if entry.page is old:
            entry.page = page
    if parsed.site.page is old:
        parsed.site.page = page
    for section in parsed.site.all_sections():
        if section.page is old:
            section.page = page
        for item in section.items:
            if getattr(item, "page", None) is old:
                item.page = page
    template, variables = rendered.renders[page.url]
    rendered.renders[page.url] = (template, {**variables, "page": page, "body": body})
    for searched in {id(s): s for s in [rendered.searched, *(each.searched for each in rendered.languages)]}.values():
        searched[:] = [
            (url, title, summary, body if url == page.url else text, *rest)
            for url, title, summary, text, *rest in searched
        ]


def _renderer(kept: _Kept):
    """The templates' renderer of the site in place: its assets' names and build id."""
    if kept.render is None:
        out = kept.run.out_dir
        index = (out / "index.html").read_text(encoding="utf-8")
        found = re.search(r'<script type="application/json" id="ex-build">(.*?)</script>', index)
        if found is None:
            return None
        build = json.loads(found.group(1))["build"]
        names = names_in(out)
        whole = (STATIC / fonts.MATH_FONT).read_bytes()
        page_fonts = fonts.PageFonts(out / ASSETS, whole, fonts.exercise_math)
        rendered = kept.rendered
        kept.render = languages.renderer(
            rendered, rendered.env, rendered.common, rendered.renders, build, names, page_fonts
        )
    return kept.render


def catch_up() -> None:
    """After the answer: the search index and the print page of the edited pages,
    written over the files the pages already load."""
    kept = _KEPT[0]
    if kept is None:
        return
    if not kept.deferred:  # a whole build's answer: what the first edit will need, made now
        if kept.render is None:
            _renderer(kept)
            for page in kept.parsed.pages:
                _stand_in(kept, page)
        return
    edited = set(kept.deferred)
    kept.deferred.clear()
    out, rendered = kept.run.out_dir, kept.rendered
    names = names_in(out)
    for language in incremental_languages.each(kept):
        urls = {url for url in edited if language.has(url)}
        if urls and language.search in names:
            _catch_up_search(out, language, names[language.search])
        if urls and language.print_page in rendered.renders and kept.render is not None:
            printed = rendered.renders[language.print_page][1]["printed"]  # pages.Printed
            for url in urls:  # (a lesson's part of the page depends on its body alone; named from its root)
                printed.replace(url.removeprefix(language.prefix), rendered.renders[url][1]["body"])
            _write(out / language.print_page, kept.render(language.print_page))


def _catch_up_search(out: Path, language: Language, loaded: str) -> None:
    """A language's search index written anew: its first file under the name its pages
    load (``loaded``), the parts of a split index under their new names."""
    fresh = out / ".search-catch-up"
    fresh.mkdir(exist_ok=True)
    written = search_files.write(fresh, language.searched, language.search, language.prefix.rstrip("/"))
    _write(out / ASSETS / loaded, (fresh / written.pop(language.search)).read_text())
    for hashed in written.values():
        _write(out / ASSETS / hashed, (fresh / hashed).read_text())
    for leftover in sorted(fresh.rglob("*"), reverse=True):
        leftover.rmdir() if leftover.is_dir() else leftover.unlink()
    fresh.rmdir()


def _write(path: Path, text: str) -> None:
    part = path.with_name(f".{path.name}.part")
    part.write_text(text, encoding="utf-8")
    os.replace(part, path)


def main(args: list[str]) -> int | None:
    """``["__page", content, out, lesson]`` from the server: the page rebuilt in place
    (0), or None when the server's whole build must run instead."""
    done = rebuild(Path(args[1]), Path(args[2]), Path(args[3]))
    if done is None:
        return None
    print(done, flush=True)
    return 0
