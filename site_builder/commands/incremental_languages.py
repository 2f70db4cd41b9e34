"""Which language of the site an edited lesson is in, for `serve`'s one-page rebuild
(incremental.py): the lessons' folder it is parsed from, the words it is rendered in,
the pages its links resolve among, and the search index and print page that follow it.
A site in one language is one such language, the default.

A lesson of the default language that another language lacks is shown in that
language's tree too (build_languages.py, with a note): an edit of it goes through a
whole build, which writes both pages.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..output import languages as out
from ..output import search_files
from ..output.printpage import PRINT_PAGE


@dataclass
class Language:
    code: str
    prefix: str  # "" for the default language, "de/" for another
    content: Path  # its lessons' folder
    words: Any  # its words (structure/language.py site_words)
    md: Any  # the parser of its pages
    searched: list  # (url, title, summary, body, label) of its pages: its search index
    search: str  # its index's first file ("search-index.de.js")
    names: frozenset[str] | None  # its page files from the site's root (None: every page)
    fallbacks: frozenset[str]  # the default's pages it shows (their files from its root)

    def has(self, url: str) -> bool:
        return self.names is None or url in self.names

    @property
    def print_page(self) -> str:
        return self.prefix + PRINT_PAGE


def each(kept) -> list[Language]:
    """The languages of the site kept (incremental._Kept), the default first."""
    read, parsed, rendered = kept.read, kept.parsed, kept.rendered
    trees = getattr(rendered, "languages", None) or []
    if not trees:
        default = read.config.language
        return [
            Language(
                default,
                "",
                kept.run.content,
                read.words,
                parsed.md,
                rendered.searched,
                search_files.FIRST,
                None,
                frozenset(),
            )
        ]
    first = trees[0].code
    return [
        Language(
            tree.code,
            tree.prefix,
            tree.content,
            tree.site_words,
            tree.md,
            tree.searched,
            out.search_file(tree.code, first),
            tree.names,
            tree.fallbacks,
        )
        for tree in trees
    ]


def of(kept, page) -> Language | None:
    """The language of a kept ``page``; None when another language shows it as its stand-in
    (or it is no language's page): a whole build."""
    languages = each(kept)
    mine = next((language for language in languages if language.has(page.url)), None)
    if mine is None or any(page.url in language.fallbacks for language in languages if language is not mine):
        return None
    return mine


def pages(kept, language: Language) -> list:
    """The kept pages of ``language`` (its stand-ins among them), as its build resolved them."""
    return [page for page in kept.parsed.pages if language.has(page.url)]
