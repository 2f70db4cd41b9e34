"""The pages' templates: the Jinja environment, whose templates are compiled once per
process, and ``render(page file)``, which fills a page's template in once the assets
have their hashed names.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlsplit

import jinja2

from ..structure import metadata, sections
from . import assets as site_assets
from .assets import ASSETS, TEMPLATES
from .scripts import engine_needs


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
MENU_AROUND = 4  # entries kept on either side of the reader's in a cut level


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
    hashed, or None): made from the page as rendered without it, whose head
    then links its @font-face, and names the font for js/pages.js's swaps."""

    found: dict[str, tuple[str, str] | None] = {}  # page file -> its math font

    def font_of(name: str, pending: str | None) -> tuple[str, str] | None:
        if name not in found:  # made from the page rendered without one
            found[name] = math_font(render(name, pending, draft=True))
        return found[name]

    def render(name: str, pending: str | None = None, draft: bool = False) -> str:
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
        return env.get_template(template).render(
            asset=asset,
            manifest=manifest,
            math_face=font and f"{ASSETS}/{font[0]}",
            math_font=font and f"{ASSETS}/{font[1]}",
            next_font=ahead and f"{ASSETS}/{ahead[1]}",
            **variables,
            **common,
        )

    return render


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
