"""What each stage of ``explorables build`` (build.py) hands the next: the run itself
(where it reads and writes, and the errors found so far), then what was read, parsed
and rendered."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import jinja2
from markdown_it import MarkdownIt

from ..authors.modules import AuthorFigures
from ..errors import SourceError
from ..markdown.parser import Page
from ..structure import sections
from ..structure.config import SiteConfig
from ..structure.language import Words


@dataclass
class Run:
    """One build: where it reads and writes, how, and the errors its stages have found."""

    content: Path  # resolved
    out_dir: Path  # resolved
    pyodide_source: str | None
    dev: bool
    bundle: bool
    errors: list[SourceError] = field(default_factory=list)
    scorm: bool = False  # a SCORM package (a bundle whose later scripts report to an LMS)

    @property
    def root(self) -> Path:
        """The site's folder (content's parent): paths in messages are relative to it."""
        return self.content.parent


@dataclass
class Read:
    config: SiteConfig
    words: Words
    own: AuthorFigures  # the site's own figures, beside the built-ins
    sources: list[Path]  # every Markdown file of the site
    texts: dict[Path, str]  # those that could be read
    warnings: list[SourceError]  # of the sections and site.yml


@dataclass
class Parsed:
    md: MarkdownIt  # the parser, which renders the pages too
    pages: list[Page]  # every page, in the order of the sources
    site: sections.Section  # the tree of sections
    reading: list  # every lesson and section page, in the order prev/next walk
    warnings: list[SourceError]  # of the whole run so far


@dataclass
class Rendered:
    env: jinja2.Environment
    common: dict  # what every template is given
    renders: dict[str, tuple[str, dict]]  # page file -> (template, its variables)
    outputs: dict[str, str]  # other files written as they are: page file -> text
    bodies: list[str]  # every page's Markdown body: what the math font must draw
    searched: list[tuple]  # (url, title, summary, body, label) of every page, for the search index
    extras: list[Path]  # the author's folders and files copied as they are
    plain_engine: bytes  # the engine archive, before the build id is known
    figures: int
    pages_written: int  # the author's pages; the others are the tool's
    languages: list = field(default_factory=list)  # of a site in several: output/languages.py LanguageOutput
