"""Site configuration (content/site.yml), declared once and validated as a whole.

Every option is declared below with its type, default and a docstring. Unknown keys and
wrong types are all reported together, each with the line of site.yml they are on.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from .errors import SourceError


@dataclass(frozen=True)
class ConfigOption:
    name: str
    type: type
    default: Any
    doc: str


OPTIONS: tuple[ConfigOption, ...] = (
    ConfigOption("title", str, "Explorables", "The site's title, shown on every page."),
    ConfigOption("description", str, "", "One sentence about the site, shown on the index page and in search results."),
    ConfigOption("author", str, "", "Who wrote the lessons; shown in the footer."),
    ConfigOption("language", str, "en", "The language of the lessons, as an HTML lang code."),
    ConfigOption("license", str, "", "The lessons' licence, e.g. CC BY 4.0; shown in every page's footer."),
    ConfigOption("raw_html", bool, False, "Allow raw HTML inside Markdown. Off by default: Markdown stays Markdown."),
    ConfigOption("url", str, "", "The address the site is published at, e.g. https://example.org/attention/; "
                 "turns on sitemap.xml and full addresses in link previews."),
    ConfigOption("favicon", str, "", "An icon file in the content folder (.svg, .png or .ico) shown in browser tabs."),
)


@dataclass
class SiteConfig:
    title: str = "Explorables"
    description: str = ""
    author: str = ""
    language: str = "en"
    license: str = ""
    raw_html: bool = False
    url: str = ""
    favicon: str = ""


def _line_of(text: str, key: str) -> int:
    for number, line in enumerate(text.splitlines(), start=1):
        if line.split(":", 1)[0].strip() == key:
            return number
    return 1


def load_config(path: Path) -> tuple[SiteConfig, list[SourceError]]:
    """Read site.yml (missing file: defaults). Returns the config and every error."""
    if not path.exists():
        return SiteConfig(), []
    text = path.read_text(encoding="utf-8")
    try:
        data = yaml.safe_load(text) or {}
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        return SiteConfig(), [SourceError(path, line, col, f"site.yml is not valid YAML: {getattr(err, 'problem', err)}",
                                          "write one `key: value` per line")]
    if not isinstance(data, dict):
        return SiteConfig(), [SourceError(path, 1, 1, "site.yml must be a mapping of `key: value` lines")]
    errors: list[SourceError] = []
    values: dict[str, Any] = {}
    names = [o.name for o in OPTIONS]
    for key, value in data.items():
        line = _line_of(text, str(key))
        option = next((o for o in OPTIONS if o.name == key), None)
        if option is None:
            close = difflib.get_close_matches(str(key), names, n=1)
            hint = f"did you mean '{close[0]}'?" if close else f"known options: {', '.join(names)}"
            errors.append(SourceError(path, line, 1, f"unknown option '{key}'", hint))
            continue
        if option.type is str and isinstance(value, (int, float)) and not isinstance(value, bool):
            value = str(value)
        if not isinstance(value, option.type):
            errors.append(SourceError(path, line, 1,
                                      f"option '{key}' expects {option.type.__name__}, got {value!r}",
                                      option.doc))
            continue
        values[key] = value
    return SiteConfig(**values), errors
