"""What the languages of a site in several share, and what tells them apart, as written
(commands/build_languages.py builds each language's pages).

- Each page names its translations in its head (``<link rel="alternate" hreflang>``, and
  ``x-default`` for the default language's) and carries a language switch in its header:
  each language in its own name, leading to the same page in that language (its own, or
  the default's with a note), or to that language's front page when it has no such page.
- One runtime and one engine serve every language. Each language has its own search
  index (``search-index.de.js``, which its pages' asset map names as their "search"; a
  large one split, its parts under ``search/de/``: search_files.py), and
  its words as a classic script of data (``words/de.js``): js/languages.js hands them to
  the page and to the engine's worker when the reader moves to a page in another
  language without leaving the document (the engine is not started again).
- The sitemap lists each page's translations (``xhtml:link`` alternates).
"""

from __future__ import annotations

import json
from collections import ChainMap
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast
from urllib.parse import quote

import rcssmin
from markupsafe import Markup, escape

from ..structure import languages
from . import first_frame, search_files
from .assets import STATIC
from .minify import minified
from .pages import renderer as page_renderer

SCRIPT = "js/languages.js"
STYLE = "css/languages.css"


def fallback_note(words, default: str) -> str:
    """The note, in ``words`` (a language's), on a page of its tree that shows the default
    language's lesson."""
    text = escape(words.t("page.untranslated", language=languages.own_name(default)))
    return f'<p class="ex-untranslated" role="note" lang="{escape(words.language)}">{text}</p>\n'


def page_words(words, default_words, block: str) -> str:
    """A page's words block (language.py page_data): another language's also carries the
    site's own words (``own.*``) where they differ from the default's, which the engine
    archive holds (the worker is given them when the reader changes language)."""
    if words.language == default_words.language:
        return block
    data = json.loads(block)
    data["messages"].update({k: v for k, v in words.own.items() if default_words.own.get(k) != v})
    return json.dumps(data, ensure_ascii=False, sort_keys=True).replace("</", "<\\/")


@dataclass
class LanguageOutput:
    """What the write stage writes for one language besides its pages; and what `serve`
    rebuilds one of its pages from (commands/incremental_languages.py)."""

    code: str
    prefix: str
    searched: list  # (url, title, summary, body, label) of its own pages
    words: str  # its pages' words block (JSON)
    names: frozenset[str]  # its page files, from the site's root
    content: Path | None = None  # its lessons' folder
    site_words: Any = None  # its words (structure/language.py site_words)
    md: Any = None  # the parser of its pages
    fallbacks: frozenset[str] = frozenset()  # the default's pages it shows, from its root


def words_file(code: str) -> str:
    return f"words/{code}.js"


def search_file(code: str, default: str) -> str:
    return "search-index.js" if code == default else f"search-index.{code}.js"


def page_languages(key: str, tree, trees: dict, config, variables: dict) -> dict:
    """The variables of a page of ``tree`` (``key``: its file from its language's root)
    that name its translations: ``languages`` (the switch: code, name, href, current,
    note), ``alternates`` (hreflang, href) and ``language_words`` (its words' file)."""
    root = variables.get("root", "")
    default = config.languages[0]
    base = config.url if not config.url or config.url.endswith("/") else config.url + "/"
    switch, alternates = [], []
    for code, other in trees.items():
        names = set(other.rendered.renders)
        there = other.prefix + key
        fallback = key in other.fallbacks
        href = there if there in names else other.prefix + "index.html"
        switch.append(
            {
                "code": code,
                "name": languages.own_name(code),
                "href": root + href,
                "current": other is tree,
                "words": words_file(code),  # its words, which js/languages.js hands over on the way there
                "note": other.read.words.t("page.not_translated") if fallback or there not in names else "",
            }
        )
        if variables.get("page") is not None and there in names and not fallback:
            alternates.append((code, (base + quote(there, safe="/")) if base else root + there))
    if len(alternates) > 1 and alternates[0][0] == default:  # the default's page, when there is one
        alternates.append(("x-default", alternates[0][1]))
    return {
        "languages": switch,
        "alternates": alternates if len(alternates) > 1 else [],
        "language_words": words_file(tree.code),
        "home": tree.prefix,  # the language's own front page, notices and print page
        "switch_label": tree.read.words.t("page.languages"),
    }


def sitemap_alternates(trees) -> dict[str, list[tuple[str, str]]]:
    """Each page's translations, by its file from the site's root: [(hreflang, file)]."""
    found: dict[str, list[tuple[str, str]]] = {}
    keys: dict[str, list[tuple[str, str]]] = {}
    for tree in trees:
        for page in tree.parsed.pages:
            key = page.url.removeprefix(tree.prefix)
            if key in tree.fallbacks:
                continue
            keys.setdefault(key, []).append((tree.code, page.url))
    default = trees[0].code
    for translations in keys.values():
        if len(translations) > 1:
            if translations[0][0] == default:  # for readers of any other language: the default's
                translations.append(("x-default", translations[0][1]))
            for code, url in translations:
                if code != "x-default":
                    found[url] = translations
    return found


def write_search(assets: Path, rendered) -> dict[str, str]:
    """Each other language's search index, once the assets are named (as search_files.write
    writes the default's): {plain name: hashed name}. Nothing for a site in one language."""
    trees = getattr(rendered, "languages", None) or []
    names: dict[str, str] = {}
    for tree in trees[1:]:
        names.update(search_files.write(assets, tree.searched, search_file(tree.code, trees[0].code), tree.code))
    return names


def write_assets(assets: Path, rendered, dev: bool) -> None:
    """The languages' own assets, before the assets are named by their content: each
    language's words, js/languages.js and its styles (at the end of explorables.css).
    Nothing for a site in one language."""
    trees = getattr(rendered, "languages", None)
    if not trees:
        return
    for tree in trees:
        path = assets / words_file(tree.code)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(
            "((window.explorables = window.explorables || {}).languageWords = window.explorables.languageWords"
            f" || {{}})[{json.dumps(tree.code)}] = {tree.words};\n",
            encoding="utf-8",
        )
    script = (STATIC / SCRIPT).read_text(encoding="utf-8")
    (assets / SCRIPT).write_text(script if dev else minified(SCRIPT, script), encoding="utf-8")
    style = (STATIC / STYLE).read_text(encoding="utf-8")
    sheet = assets / "explorables.css"
    sheet.write_text(sheet.read_text(encoding="utf-8") + (style if dev else rcssmin.cssmin(style)), encoding="utf-8")


def write_first_frame(assets: Path, rendered, *, bundle: bool, dev: bool) -> None:
    """What a served page loads before its first frame, and after (first_frame.py): of a
    site in one language or several."""
    first_frame.write(assets, rendered, bundle=bundle, dev=dev)


def renderer(rendered, env, common, renders, build, names, *more):
    """render(page file) -> its HTML, as pages.renderer makes it; in a site of several
    languages each language's pages name their own search index."""
    trees = getattr(rendered, "languages", None)
    if not trees:
        return page_renderer(env, common, renders, build, names, *more)
    default = trees[0].code
    each = {
        # a view of the names, not a copy: the write stage names more assets as it goes (bundle/pages.js)
        tree.code: page_renderer(
            env,
            common,
            renders,
            build,
            cast(dict, ChainMap(own_files(names, tree.code, default), names)),
            *more,
        )
        for tree in trees
    }

    def render(name: str, *args, **kwargs) -> str:
        tree = next((tree for tree in trees[1:] if name in tree.names), trees[0])
        return each[tree.code](name, *args, **kwargs)

    return render


def own_files(names, code: str, default: str) -> dict[str, str]:
    """A language's own search index and js/later.js (with its words: first_frame.py),
    under the names the default's have."""
    later = f"js/later.{code}.js"
    return {
        "search-index.js": names[search_file(code, default)],
        **({"js/later.js": names[later]} if later in names else {}),
    }


def alternate_tags(alternates) -> Markup:
    """The head's links to a page's translations."""
    return Markup("".join(f'<link rel="alternate" hreflang="{escape(c)}" href="{escape(h)}">\n' for c, h in alternates))
