"""The tool's own words in the site's language (site.yml ``language``).

The catalogues ship with the engine (engine/locales/*.json; see engine/locale.py). A
site may add or correct words in ``locales/<language>.json`` beside its site.yml. What
neither has falls back to English, with one build warning naming the missing keys.
The pages get the words they need in the browser once, as a JSON data block
(``page_data``): the runtime's labels and messages, the figures' messages and the
number format, which the page also hands to the engine's worker.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from ..engine import locale
from .errors import SourceError
from .safety import read_source

NAMED = 8  # missing keys a warning names before it counts the rest


@dataclass
class Words:
    language: str
    messages: dict[str, str]
    warnings: list[SourceError] = field(default_factory=list)
    errors: list[SourceError] = field(default_factory=list)

    @property
    def direction(self) -> str:
        return locale.direction(self.language)

    def t(self, key: str, **fields) -> str:
        """A message of the pages (``page.*``), for the templates."""
        text = self.messages[key]
        return text.format(**fields) if fields else text

    def page_data(self) -> str:
        """The JSON data block every page carries: what the runtime and the worker need.
        A figure's own words (``figure.<figure>.*``, some 470 keys) are read by the engine
        only, which ships the catalogues: the block holds those the site changed."""
        shipped = locale.resolve(self.language)[0]
        data = {"language": self.language, "dir": self.direction,
                "messages": {k: v for k, v in self.messages.items() if not k.startswith("page.")
                             and not (k.count(".") >= 2 and shipped.get(k) == v)}}
        return json.dumps(data, ensure_ascii=False, sort_keys=True).replace("</", "<\\/")


def site_words(language: str, site_yml: Path) -> Words:
    """The words of a site in ``language``: the shipped catalogue, the site's own
    ``locales/<language>.json`` over it, English for the rest (with a warning)."""
    own: dict[str, str] = {}
    errors: list[SourceError] = []
    path = site_yml.parent / "locales" / f"{locale.base_language(language)}.json"
    if path.is_file():
        own, errors = _read_own(path)
    messages, missing = locale.resolve(language, own)
    words = Words(language, messages, errors=errors)
    if missing:
        named = ", ".join(missing[:NAMED]) + (f" and {len(missing) - NAMED} more" if len(missing) > NAMED else "")
        shipped = "has no catalogue" if not locale.catalogue(language) and not own else "lacks some words"
        words.warnings.append(SourceError(
            site_yml, _line_of_language(site_yml), 1,
            f"the language '{language}' {shipped}: {len(missing)} of {len(locale.ENGLISH)} words stay English "
            f"({named})",
            f"add them to {path.relative_to(site_yml.parent)} (`explorables words {language}` lists every key "
            f"with its English text)"))
    return words


def _read_own(path: Path) -> tuple[dict[str, str], list[SourceError]]:
    text, problems = read_source(path, path.parent.parent.resolve())
    if text is None:
        return {}, problems
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        return {}, [SourceError(path, err.lineno, err.colno, f"not valid JSON: {err.msg}",
                                'write one "key": "text" pair a line, inside { }')]
    if not isinstance(data, dict):
        return {}, [SourceError(path, 1, 1, "a catalogue must be a JSON object of \"key\": \"text\" pairs")]
    errors = []
    good = {}
    lines = text.splitlines()
    for key, value in data.items():
        line = next((i + 1 for i, row in enumerate(lines) if f'"{key}"' in row), 1)
        if key not in locale.ENGLISH:
            errors.append(SourceError(path, line, 1, f"unknown key '{key}'",
                                      "`explorables words en` lists the keys"))
        elif not isinstance(value, str):
            errors.append(SourceError(path, line, 1, f"the key '{key}' must be text, got {json.dumps(value)}"))
        else:
            try:
                value.format("", **{name: "" for name in _fields(locale.ENGLISH[key])})
            except (KeyError, IndexError, ValueError) as err:
                errors.append(SourceError(path, line, 1, f"the text of '{key}' has a field the English one "
                                          f"has not: {err}", f"use only {_fields(locale.ENGLISH[key]) or 'no fields'}"))
            else:
                good[key] = value
    return good, errors


def _fields(text: str) -> list[str]:
    import string
    return [name for _, name, _, _ in string.Formatter().parse(text) if name]


def _line_of_language(site_yml: Path) -> int:
    try:
        for number, line in enumerate(site_yml.read_text(encoding="utf-8").splitlines(), start=1):
            if line.split(":", 1)[0].strip() == "language":
                return number
    except OSError:
        pass
    return 1
