"""The pages' templates: the Jinja environment, whose templates are compiled once (kept
compiled in the process and under the user's cache folder), and ``render(page file)``,
which fills a page's template in once the assets have their hashed names.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from urllib.parse import urlsplit

import jinja2

from ..structure import metadata, sections
from . import assets as site_assets
from .assets import ASSETS, TEMPLATES
from .printpage import print_body, print_prefix
from .scripts import engine_needs


def template_cache() -> Path:
    """Where the compiled templates are kept between builds: ``$XDG_CACHE_HOME`` or
    ``~/.cache``, then explorables/templates (beside Pyodide and the math font's subsets)."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "explorables" / "templates"


class _KeptTemplates(jinja2.BytecodeCache):
    """The templates compiled once per process, not once per build (`explorables serve`
    builds again on every edit), and kept on disk for the next process, as Python keeps
    a module's bytecode: compiling them cost a build from the command line a fifth of a
    second. Jinja compares each with its source's checksum and its own and Python's
    versions; a folder that cannot be read or written is passed by."""

    def __init__(self) -> None:
        self.kept: dict[str, bytes] = {}

    def _disk(self) -> jinja2.FileSystemBytecodeCache | None:
        try:
            template_cache().mkdir(parents=True, exist_ok=True)
        except OSError:
            return None
        return jinja2.FileSystemBytecodeCache(str(template_cache()))

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if bucket.key in self.kept:
            bucket.bytecode_from_string(self.kept[bucket.key])
            return
        disk = self._disk()
        try:
            if disk is not None:
                disk.load_bytecode(bucket)  # (a stale one is reset: compiled again)
        except Exception:
            bucket.reset()
        if bucket.code is not None:
            self.kept[bucket.key] = bucket.bytecode_to_string()

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.kept[bucket.key] = bucket.bytecode_to_string()
        disk = self._disk()
        try:
            if disk is not None:
                disk.dump_bytecode(bucket)
        except OSError:
            pass


_KEPT_TEMPLATES = _KeptTemplates()


def environment(t) -> jinja2.Environment:
    """The templates' environment; ``t`` gives the tool's words in the site's language."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        bytecode_cache=_KEPT_TEMPLATES,
    )
    env.globals["meta_tags"] = metadata.meta_tags  # description, Open Graph, favicon
    env.globals["t"] = t
    env.globals["menu"] = menu
    return env


# How much of one level of a large site's menu a page carries: the entries about the
# reader's own, and a "more" entry on either side leading to the level's own page,
# which lists every one (a page's size then stays that of a small site's).
MENU_LESSONS, MENU_SECTIONS = 40, 12  # a level with more of either is cut to a window
MENU_AROUND = 3  # entries kept on either side of the reader's in a cut level


def menu(owner: sections.Section, here: str | None, url: str | None = None) -> list[tuple[str, object]]:
    """The entries of ``owner``'s level of the menu of a page of folder ``here`` (None:
    a page outside every section) and address ``url``, as (kind, item): "lesson", "open"
    (the section holding the page, shown with its own entries), "folded" (any other
    section: one entry, its title, linking to its page) or "more" (the entries left
    out of a long level: item is ``owner``, whose page lists them all)."""
    items = owner.items
    entries = [
        ("open" if item.holds(here) else "folded", item) if isinstance(item, sections.Section) else ("lesson", item)
        for item in items
    ]
    lessons = sum(kind == "lesson" for kind, _ in entries)
    if lessons <= MENU_LESSONS and len(entries) - lessons <= MENU_SECTIONS:
        return entries
    at = next(
        (k for k, (kind, item) in enumerate(entries) if kind == "open" or (url is not None and item.url == url)), 0
    )
    start = max(0, min(at - MENU_AROUND, len(entries) - 2 * MENU_AROUND - 1))
    shown = entries[start : start + 2 * MENU_AROUND + 1]
    return (
        ([("more", owner)] if start > 0 else [])
        + shown
        + ([("more", owner)] if start + len(shown) < len(entries) else [])
    )


def renderer(
    env: jinja2.Environment,
    common: dict,
    renders: dict[str, tuple[str, dict]],
    build: str,
    names: dict[str, str],
    math_font: Callable[[str], tuple[str, str] | None] = lambda html: None,
):
    """render(page file) -> its HTML. The templates name assets with ``asset(name)``; the
    page's head carries the build id and the map of what its scripts load. ``pending``
    names an asset not written yet: its plain name stands in (a draft of the page).
    ``math_font(html)`` gives the page's own math font (its fonts.FACE and fonts.MATH_FONT,
    hashed, or None): made from the formulas and exercises of the page (``formulas``),
    whose head then links its @font-face, and names the font for js/pages.js's swaps."""

    found: dict[str, tuple[str, str] | None] = {}  # page file -> its math font

    def font_of(name: str, pending: str | None) -> tuple[str, str] | None:
        if name not in found:  # made from the formulas and exercises of the page
            variables = renders[name][1]
            if "body" in variables:  # a page's are its body's (its template writes none)
                found[name] = math_font(formulas([variables["body"]]))
            elif "printed" in variables:  # print.html's, its lessons'
                found[name] = math_font(formulas(body for *_, body in variables["printed"]))
            else:  # the page rendered without a font
                found[name] = math_font(render(name, pending, draft=True))
        return found[name]

    def render(name: str, pending: str | None = None, draft: bool = False, into: Path | None = None) -> str:
        """The page's HTML; with ``into``, written into that file as it is made (print.html
        holds every lesson: never held whole) and "" returned."""
        template, variables = filled(name, pending, draft)
        if into is None:
            return template.render(**variables)
        with into.open("w", encoding="utf-8") as out:
            out.writelines(template.generate(**variables))
        return ""

    def filled(name: str, pending: str | None, draft: bool) -> tuple[jinja2.Template, dict]:
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
        font = None if draft else font_of(name, pending)
        # a page with formulas has js/start.js fetch the math font at once, not at its first
        # layout: that layout then sets them in it, rather than asking the system for a
        # fallback font character by character and setting them again once it comes (the
        # print page runs no script)
        if font and common["start"] and "<math" in variables.get("body", ""):
            manifest["font"] = font[1]
        # the next lesson's font, which js/pages.js loads while the reader reads this one
        after = getattr(variables.get("next"), "url", None)
        ahead = font_of(after, pending) if not draft and after in renders else None
        return env.get_template(template), dict(
            asset=asset,
            manifest=manifest,
            math_face=font and f"{ASSETS}/{font[0]}",
            math_font=font and f"{ASSETS}/{font[1]}",
            next_font=ahead and f"{ASSETS}/{ahead[1]}",
            **variables,
            **common,
        )

    return render


_FORMULA = re.compile(r"<math\b.*?</math>", re.S)  # as fonts.py reads a page's formulas
_EXERCISE = re.compile(r'<div class="ex-exercise"[^>]* data-exercise="[^"]+"')  # and its exercises


def formulas(pieces: Iterable[str]) -> str:
    """What fonts.PageFonts reads of a page made of ``pieces`` (the template's output, a
    lesson's body whole in one): each formula and exercise once."""
    found: dict[str, None] = {}
    for piece in pieces:
        if "<" in piece:
            found.update(dict.fromkeys(_FORMULA.findall(piece)))
            found.update(dict.fromkeys(_EXERCISE.findall(piece)))
    return "".join(found)


class Printed(Sequence):
    """print.html's lessons as its template reads them, (anchor prefix, title, summary,
    body as print.html holds it), each made from the lesson's body when the template
    comes to it: never every lesson's of a large site at once. The math font reads them
    all first: up to ``KEEP`` characters of them are kept for the page's reading."""

    KEEP = 32_000_000  # characters of print bodies kept between two readings (the font's, then the page's)

    def __init__(self, lessons: list[tuple[str, str, str, str]]) -> None:
        self.lessons = lessons  # (url, title, summary, body) of each, in order
        self.urls = {url for url, *_ in lessons}
        self.kept: dict[int, tuple[str, str]] = {}  # lesson -> (its body, as print.html holds it)
        self.room = self.KEEP

    def __len__(self) -> int:
        return len(self.lessons)

    def __getitem__(self, at):
        if isinstance(at, slice):
            return [self[i] for i in range(*at.indices(len(self)))]
        url, title, summary, body = self.lessons[at]
        kept = self.kept.pop(at % len(self), None)
        if kept is not None and kept[0] is body:  # made by the reading before (read once more at most)
            self.room += len(kept[1])
            return print_prefix(url), title, summary, kept[1]
        made = print_body(body, url, self.urls)
        if len(made) <= self.room:  # a small site's, for the next reading
            self.kept[at % len(self)] = (body, made)
            self.room -= len(made)
        return print_prefix(url), title, summary, made

    def replace(self, url: str, body: str) -> None:
        """Print lesson ``url`` with ``body`` from now on (`serve` rebuilt it)."""
        self.lessons = [(at, title, summary, body if at == url else old) for at, title, summary, old in self.lessons]


def site_path(url: str) -> str:
    """The path of the site's address (``https://x.org/attention`` -> ``/attention/``),
    or "" (relative links) when the address is not known."""
    if not url:
        return ""
    path = urlsplit(url).path or "/"
    return path if path.endswith("/") else path + "/"


def page_policy(policy: str, bundle: bool) -> str:
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
