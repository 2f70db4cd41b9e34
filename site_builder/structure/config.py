"""Site configuration (content/site.yml), declared once and validated as a whole.

Every option is declared below with its type, default and a docstring. Unknown keys and
wrong types are all reported together, each with the line of site.yml they are on. The
commented site.yml that ``explorables new`` writes is generated from the same
declarations (``documented_config``), so the two cannot drift apart.

site.yml sits beside content/ (the layout ``explorables new`` writes) or inside it.
"""

from __future__ import annotations

import json
import textwrap
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import Version

from ... import __version__
from ...engine.figures.base import closest, warn_renamed
from ..errors import SourceError
from ..quoting import quote
from .files import load_yaml, read_source, yaml_problem
from .languages import check_languages

# The Content-Security-Policy every page carries by default: nothing inline, nothing
# from another origin; WebAssembly may compile (Pyodide), a worker may come from a Blob.
DEFAULT_CSP = (
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self' blob:; "
    "style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; "
    "object-src 'none'; base-uri 'none'"
)


@dataclass(frozen=True)
class ConfigOption:
    name: str
    type: type
    default: Any
    doc: str
    renamed_from: str = ""  # its old name, still read (with a DeprecationWarning) for one minor version


OPTIONS: tuple[ConfigOption, ...] = (
    ConfigOption("title", str, "Explorables", "The site's title, shown on every page."),
    ConfigOption("description", str, "", "One sentence about the site, shown on the index page and in search results."),
    ConfigOption("author", str, "", "Who wrote the lessons; shown in the footer."),
    ConfigOption(
        "language",
        str,
        "en",
        "The language of the lessons, as an HTML lang code. The tool's own "
        "words (pager, footer, loading badge, figure messages) and numbers follow it: en, de and he "
        "are shipped; locales/LANG.json beside site.yml adds or corrects words; ar, he, fa and ur read "
        "right to left.",
    ),
    ConfigOption(
        "languages",
        list,
        [],
        "The languages of a site in several, the default first, e.g. [en, de, he] (then leave out "
        "language). The default's lessons are content/ itself, each other's a folder of its code "
        "mirroring it (content/de/01-intro.md); its pages are written under the code (de/intro.html). "
        "A lesson missing in a language falls back to the default's, with a note.",
    ),
    ConfigOption("license", str, "", "The lessons' licence, e.g. CC BY 4.0; shown in every page's footer."),
    ConfigOption("raw_html", bool, False, "Allow raw HTML inside Markdown. Off by default: Markdown stays Markdown."),
    ConfigOption(
        "csp",
        str,
        DEFAULT_CSP,
        "The Content-Security-Policy of every page, sent in a <meta> tag; "
        "an empty value sends none (then set it as a header on your host).",
    ),
    ConfigOption(
        "figures",
        str,
        "figures",
        "The folder of your own figures (Python modules written with "
        "explorables.figures), relative to the site folder; it need not exist.",
    ),
    ConfigOption(
        "explorables",
        str,
        "",
        "The Explorables versions this site is written for, as a version "
        'range such as ">=0.2,<0.3"; a build with any other version stops and says which it is.',
    ),
    ConfigOption(
        "url",
        str,
        "",
        "The address the site is published at, e.g. https://example.org/attention/; "
        "turns on sitemap.xml and full addresses in link previews.",
    ),
    ConfigOption("favicon", str, "", "An icon file in the content folder (.svg, .png or .ico) shown in browser tabs."),
    ConfigOption(
        "numbering",
        str,
        "page",
        "How figures are numbered: 'page' starts every lesson at Figure 1, "
        "'site' goes on from the lesson before (lesson 2's first figure is Figure 2 after one in lesson 1).",
    ),
    ConfigOption(
        "snapshot",
        bool,
        False,
        "Make a memory snapshot of Python with the engine imported (needs "
        "Node at build time): the figures go live about half a second sooner, for about 5 MB more "
        "to download on a reader's first visit. Without Node the build says so and goes on without it.",
    ),
    ConfigOption(
        "offline",
        bool,
        True,
        "Keep the published site in each reader's browser after their first visit (a service "
        "worker): later visits start from there and work offline, and a new deploy is taken up whole. "
        "false turns it off.",
    ),
)
NUMBERING = ("page", "site")


@dataclass
class SiteConfig:
    title: str = "Explorables"
    description: str = ""
    author: str = ""
    language: str = "en"
    languages: list[str] = field(default_factory=list)  # several: the default first (structure/languages.py)
    license: str = ""
    raw_html: bool = False
    csp: str = DEFAULT_CSP
    figures: str = "figures"
    explorables: str = ""
    url: str = ""
    favicon: str = ""
    numbering: str = "page"
    snapshot: bool = False
    offline: bool = True


def _line_of(text: str, key: str) -> int:
    for number, line in enumerate(text.splitlines(), start=1):
        if line.split(":", 1)[0].strip() == key:
            return number
    return 1


def load_config(path: Path) -> tuple[SiteConfig, list[SourceError]]:
    """Read site.yml (missing file: defaults). Returns the config and every error."""
    if not path.exists() and not path.is_symlink():
        return SiteConfig(), []
    text, problems = read_source(path, path.parent.resolve())
    if text is None:
        return SiteConfig(), problems
    try:
        data = load_yaml(text) or {}
    except yaml.YAMLError as err:
        line, col, problem, hint = yaml_problem(err, text)
        return SiteConfig(), [SourceError(path, line, col, f"site.yml is not valid YAML: {problem}", hint)]
    if not isinstance(data, dict):
        return SiteConfig(), [SourceError(path, 1, 1, "site.yml must be a mapping of `key: value` lines")]
    errors: list[SourceError] = []
    values: dict[str, Any] = {}
    names = [o.name for o in OPTIONS]
    for key, value in data.items():
        line = _line_of(text, str(key))
        option = next((o for o in OPTIONS if o.name == key), None)
        renamed = next((o for o in OPTIONS if o.renamed_from and o.renamed_from == key), None)
        if option is None and renamed is not None:
            warn_renamed(f"{path}:{line}: the site.yml key '{key}'", f"'{renamed.name}'", "rename it", 2)
            option, key = renamed, renamed.name
        if option is None:
            close = closest(str(key), names)
            hint = f"did you mean '{close}'?" if close else f"known keys: {', '.join(names)}"
            errors.append(SourceError(path, line, 1, f"unknown key {quote(str(key))}", hint))
            continue
        if option.type is str and isinstance(value, (int, float)) and not isinstance(value, bool):
            value = str(value)
        if value is None:  # `title:` with nothing after it
            errors.append(
                SourceError(
                    path,
                    line,
                    1,
                    f"key '{key}' is empty",
                    f"write its value after the colon, or remove the line ({option.doc})",
                )
            )
            continue
        if option.type is str and isinstance(value, bool):  # language: no (Norwegian), title: yes
            written = text.split("\n")[line - 1].split(":", 1)[-1].split("#")[0].strip() or str(value).lower()
            errors.append(
                SourceError(
                    path,
                    line,
                    1,
                    f"key '{key}' expects text, but YAML reads {written} as {str(value).lower()}",
                    f'put it in quotes: {key}: "{written}"',
                )
            )
            continue
        if not isinstance(value, option.type):
            errors.append(
                SourceError(
                    path, line, 1, f"key '{key}' expects {option.type.__name__}, got {quote(value)}", option.doc
                )
            )
            continue
        values[key] = value
    if values.get("numbering", "page") not in NUMBERING:
        close = closest(str(values["numbering"]), NUMBERING)
        errors.append(
            SourceError(
                path,
                _line_of(text, "numbering"),
                1,
                f"key 'numbering' is 'page' or 'site', got {quote(values.pop('numbering'))}",
                (f"did you mean '{close}'? " if close else "")
                + "numbering: page (each lesson from Figure 1) or numbering: site (on across lessons)",
            )
        )
    if values.get("languages"):  # [] (as `explorables new` writes it): a site in one language
        values["languages"], found = check_languages(values["languages"], data, path, text)
        errors.extend(found)
        if values["languages"]:
            values["language"] = values["languages"][0]  # the default language's words and pages
    if "explorables" in values:
        errors.extend(check_version(values["explorables"], path, _line_of(text, "explorables")))
    return SiteConfig(**values), errors


def config_path(content: Path) -> Path:
    """Where a site's site.yml is: beside content/ (as ``new`` writes it), else inside."""
    beside = Path(content).parent / "site.yml"
    return beside if beside.exists() else Path(content) / "site.yml"


def check_version(spec: str, path: Path, line: int) -> list[SourceError]:
    """The site's ``explorables:`` version range against the Explorables that is running."""
    try:
        wanted = SpecifierSet(spec)
    except InvalidSpecifier:
        return [
            SourceError(
                path,
                line,
                1,
                f"key 'explorables' expects a version range, got {spec!r}",
                'write e.g. explorables: ">=0.2,<0.3"',
            )
        ]
    if Version(__version__) in wanted:
        return []
    return [
        SourceError(
            path,
            line,
            1,
            f"this site needs Explorables {spec}, but this is Explorables {__version__}",
            f"install a matching version: pip install 'explorables{spec}' "
            f"(or change the range in site.yml after reading CHANGELOG.md)",
        )
    ]


def documented_config(values: dict[str, Any] | None = None) -> str:
    """A site.yml with every option, each under its docstring as a comment."""
    values = values or {}
    lines = [
        "# The settings of this Explorables site. Every key is optional; the value shown",
        "# is the default unless this file was written with another one.",
        "",
    ]
    for option in OPTIONS:
        lines += textwrap.wrap(option.doc, 86, initial_indent="# ", subsequent_indent="# ")
        value = values.get(option.name, option.default)
        if option.name == "language" and values.get("languages"):  # the first of languages (one or the other)
            lines += [f"# {option.name}: {json.dumps(value)}", ""]
            continue
        shown = ("true" if value else "false") if isinstance(value, bool) else json.dumps(value, ensure_ascii=False)
        lines += [f"{option.name}: {shown}", ""]
    return "\n".join(lines)
