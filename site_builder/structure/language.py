"""The tool's own words in the site's language (site.yml ``language``), and the words of
the site's own figures.

The catalogues ship with the engine (engine/locales/*.json; see engine/locale.py). A
site may add or correct words in ``locales/<language>.json`` beside its site.yml. What
neither has falls back to English, with one build warning naming the missing keys.
The pages get the words they need in the browser once, as a JSON data block
(``page_data``): the runtime's labels and messages, the figures' messages and the
number format, which the page also hands to the engine's worker.

A site's own figures and exercise types have words of their own, in the same files:
keys that start with ``own.`` (``own.shares.title``), which the tool never uses, so
they cannot collide with its keys now or later. The site's language gives them their
text, the site's ``locales/en.json`` stands in (with a warning) for what it lacks, and
their ``{fields}`` must be the same in both. They travel to the worker in the engine
archive (authors/loader.py), not in every page.
"""

from __future__ import annotations

import difflib
import json
import re
import string
from dataclasses import dataclass, field
from pathlib import Path

from ...engine import locale
from ...engine.figures.base import closest
from ..errors import SourceError
from .files import read_source
from .language_tags import is_language_tag as is_language_tag  # (imported from here too)
from .language_tags import language_problem, line_of_language
from .language_tags import suggest_language as suggest_language

NAMED = 8  # missing keys a warning names before it counts the rest
OWN_KEY = re.compile(r"^own(\.[A-Za-z0-9_-]+)+$")  # a key of the site's own words: own.shares.title


# Words the page's block leaves out: the templates' own (written into the page), and the
# preview's and the offline bundle's where there is neither.
_PAGE_ONLY = re.compile(r"page\.")
_PREVIEW_ONLY = re.compile(r"runtime\.build_")
_BUNDLE_ONLY = re.compile(r"runtime\.bundle_")


@dataclass
class Words:
    language: str
    messages: dict[str, str]
    warnings: list[SourceError] = field(default_factory=list)
    errors: list[SourceError] = field(default_factory=list)
    catalogue: Path | None = None  # the site's locales/<language>.json (which may not exist)
    own: dict[str, str] = field(default_factory=dict)  # the site's own words ("own.*"), resolved
    sources: dict[str, tuple[Path, int]] = field(default_factory=dict)  # own key -> (file, line) of its text
    stay_english: SourceError | None = None  # the warning that sums up the own words left English, if any

    @property
    def direction(self) -> str:
        return locale.direction(self.language)

    def t(self, key: str, **fields) -> str:
        """A message of the pages (``page.*``), for the templates."""
        text = self.messages[key]
        return text.format(**fields) if fields else text

    def key_problem(self, key: str) -> tuple[str, str] | None:
        """What is wrong with ``key`` where a figure of the site uses it, as (message, how
        to fix it), or None: an own key needs a text, any other key must be the tool's."""
        here = f"locales/{self.catalogue.name}" if self.catalogue else "locales/en.json"
        if key.startswith(locale.OWN):
            if key in self.own:
                return None
            close = closest(key, list(self.own))
            english = "" if here == "locales/en.json" else " (nor in locales/en.json)"
            return (
                f"the key '{key}' has no text in {here}{english}",
                (f"did you mean '{close}'? " if close else "") + f'add "{key}": "…" to {here}',
            )
        if key in locale.ENGLISH:
            return None
        close = closest(key, list(locale.ENGLISH))
        return (
            f"unknown key '{key}'",
            (f"did you mean '{close}'? " if close else "")
            + f"a word of your own takes a key starting with {locale.OWN}, with its text in {here}",
        )

    def stand_in(self, keys) -> None:
        """Give own keys that have no text their own name as text, for the rest of a build
        that already failed (so that it reports each missing key once, where it is used)."""
        for key in keys:
            self.own.setdefault(key, key)
        locale.own_words(self.own)

    def page_data(self, *, dev: bool = False, bundle: bool = False) -> str:
        """The JSON data block every page carries: what the runtime and the worker need.
        A figure's own words (``figure.<figure>.*``, some 470 keys) are read by the engine
        only, which ships the catalogues: the block holds those the site changed. The
        preview's build messages (``runtime.build_*``) come only in a preview, an offline
        bundle's (``runtime.bundle_*``) only in a bundle."""
        shipped = locale.resolve(self.language)[0]
        left_out = [_PAGE_ONLY] + ([] if dev else [_PREVIEW_ONLY]) + ([] if bundle else [_BUNDLE_ONLY])
        data = {
            "language": self.language,
            "dir": self.direction,
            "messages": {
                k: v
                for k, v in self.messages.items()
                if not any(r.match(k) for r in left_out) and not (k.count(".") >= 2 and shipped.get(k) == v)
            },
        }
        return json.dumps(data, ensure_ascii=False, sort_keys=True).replace("</", "<\\/")


def site_words(language: str, site_yml: Path) -> Words:
    """The words of a site in ``language``: the shipped catalogue, the site's own
    ``locales/<language>.json`` over it, English for the rest (with a warning); and the
    site's own words (``own.*``) from the same file, or from ``locales/en.json``."""
    wrong = language_problem(language, site_yml)
    folder = site_yml.parent / "locales"
    base = locale.base_language(language)
    path = folder / f"{base}.json"
    mine = _read_catalogue(path) if path.is_file() else SiteCatalogue(path)
    english = _read_catalogue(folder / "en.json") if base != "en" and (folder / "en.json").is_file() else None
    messages, missing = locale.resolve(language, mine.tool)
    words = Words(language, messages, errors=list(mine.errors), catalogue=path)
    if wrong:
        words.errors.insert(0, wrong)
    elif missing:
        named = _named(missing)
        shipped = "has no catalogue" if not locale.catalogue(language) and not mine.tool else "lacks some words"
        words.warnings.append(
            SourceError(
                site_yml,
                line_of_language(site_yml),
                1,
                f"the language '{language}' {shipped}: {len(missing)} of {len(locale.ENGLISH)} words stay English "
                f"({named})",
                f"add them to {path.relative_to(site_yml.parent)} (`explorables words {language}` lists every key "
                f"with its English text)",
            )
        )

    # The site's own words: its language's text, else the English catalogue's.
    words.own = dict(mine.own)
    words.sources = {key: (path, mine.lines[key]) for key in mine.own}
    if english is not None:
        words.errors += english.errors
        for key, text in mine.own.items():
            theirs = english.own.get(key)
            if theirs is not None and _slots(text) != _slots(theirs):
                words.own[key] = theirs  # the build goes on, to report every mistake of the run
                words.errors.append(
                    SourceError(
                        path,
                        mine.lines[key],
                        1,
                        f"the text of '{key}' has the fields {_field_list(text)}, the English one in "
                        f"locales/en.json:{english.lines[key]} has {_field_list(theirs)}",
                        "use the same {names} in every language: the figure fills in the same fields",
                    )
                )
        fallback = [key for key in english.own if key not in mine.own]
        for key in fallback:
            words.own[key] = english.own[key]
            words.sources[key] = (english.path, english.lines[key])
        if fallback:
            where = (path, 1) if path.is_file() else (site_yml, line_of_language(site_yml))
            words.stay_english = SourceError(
                *where,
                1,
                f"{len(fallback)} of the site's own words have no '{language}' text and stay English "
                f"({_named(fallback)})",
                f"add them to {path.relative_to(site_yml.parent)} (`explorables words {language}` lists "
                f"them with where each comes from)",
            )
            words.warnings.append(words.stay_english)
    return words


@dataclass
class SiteCatalogue:
    """One of a site's ``locales/*.json``: corrections of the tool's words and the site's
    own words, each key's line, and what is wrong in it."""

    path: Path
    tool: dict[str, str] = field(default_factory=dict)  # keys the tool ships
    own: dict[str, str] = field(default_factory=dict)  # keys "own.*"
    lines: dict[str, int] = field(default_factory=dict)  # key -> its line in the file
    errors: list[SourceError] = field(default_factory=list)


_KEY_WRITTEN = re.compile(r'"([^"\\]*)"\s*:')  # "key": (a key with no escape in it)


def _read_catalogue(path: Path) -> SiteCatalogue:
    found = SiteCatalogue(path)
    text, problems = read_source(path, path.parent.parent.resolve())
    if text is None:
        found.errors = problems
        return found
    twice: list[str] = []  # keys written more than once (JSON keeps the last, without a word)

    def pairs(items: list[tuple[str, object]]) -> dict:
        kept: dict = {}
        for key, value in items:
            if key in kept:
                twice.append(key)
            kept[key] = value
        return kept

    try:
        data = json.loads(text, object_pairs_hook=pairs)
    except json.JSONDecodeError as err:
        found.errors = [
            SourceError(
                path,
                err.lineno,
                err.colno,
                f"not valid JSON: {err.msg}",
                'write one "key": "text" pair a line, inside { }',
            )
        ]
        return found
    if not isinstance(data, dict):
        found.errors = [SourceError(path, 1, 1, 'a catalogue must be a JSON object of "key": "text" pairs')]
        return found
    lines = text.splitlines()
    first: dict[str, int] = {}  # a key as written -> the first line it is written on, in one pass
    again: dict[str, int] = {}  # and the next
    for number, row in enumerate(lines, 1):
        for written in _KEY_WRITTEN.finditer(row):
            key = written.group(1)
            if key in first:
                again.setdefault(key, number)
            first.setdefault(key, number)
    for key in dict.fromkeys(twice):
        found.errors.append(
            SourceError(
                path,
                again.get(key, 1),
                1,
                f"the key '{key}' is written twice (first on line {first.get(key, 1)}); only the last would count",
                "keep one of the two",
            )
        )
    for key, value in data.items():
        line = first.get(key) or next(
            (i + 1 for i, row in enumerate(lines) if re.search(rf'"{re.escape(key)}"\s*:', row)), 1
        )
        found.lines[key] = line
        if key.startswith(locale.OWN):
            if not OWN_KEY.match(key):
                found.errors.append(
                    SourceError(
                        path,
                        line,
                        1,
                        f"the key '{key}' is not a key of your own words",
                        "write own. and then words joined by dots, e.g. own.shares.title",
                    )
                )
            elif not isinstance(value, str):
                found.errors.append(
                    SourceError(path, line, 1, f"the key '{key}' must be text, got {json.dumps(value)}")
                )
            else:
                try:
                    _slots(value)
                    unplain = _unplain(value, bare=True)  # a value's announcement fills a bare {}
                except ValueError as err:
                    found.errors.append(
                        SourceError(
                            path,
                            line,
                            1,
                            f"the text of '{key}' is not a template: {err}",
                            "write a field as {name} and a brace as {{ or }}",
                        )
                    )
                else:
                    if unplain:
                        found.errors.append(
                            SourceError(
                                path,
                                line,
                                1,
                                f"the text of '{key}' has {unplain}, which is not a plain field",
                                "write each field as {name} and nothing more (a brace itself is written {{ or }})",
                            )
                        )
                    else:
                        found.own[key] = value
        elif key not in locale.ENGLISH:
            close = closest(key, list(locale.ENGLISH))
            found.errors.append(
                SourceError(
                    path,
                    line,
                    1,
                    f"unknown key '{key}'",
                    (f"did you mean '{close}'? " if close else "") + "`explorables words en` lists the tool's keys; "
                    f"a word of your own takes a key starting with {locale.OWN}, e.g. {locale.OWN}my_figure.title",
                )
            )
        elif not isinstance(value, str):
            found.errors.append(SourceError(path, line, 1, f"the key '{key}' must be text, got {json.dumps(value)}"))
        else:
            problem = _field_problem(key, value)
            if problem:
                found.errors.append(SourceError(path, line, 1, *problem))
            else:
                found.tool[key] = value
    return found


def _field_problem(key: str, text: str) -> tuple[str, str] | None:
    """What is wrong with the ``{fields}`` of a site's text for the tool's ``key``, as
    (message, how to fix it), or None: it may use only the fields of the English text."""
    english = locale.ENGLISH[key]
    try:
        mine = _slots(text)
    except ValueError as err:
        return (f"the text of '{key}' is not a template: {err}", "write a field as {name} and a brace as {{ or }}")
    known = _slots(english)
    unplain = _unplain(text, "" in known)
    if unplain:
        return (
            f"the text of '{key}' has {unplain}, which is not a plain field",
            f"write each field as the English text does ({english!r}): {{name}} and nothing more",
        )
    if "" in known:  # {0} is the English {} spelt out
        mine = {"" if name == "0" else name for name in mine}
    stray = sorted(mine - known)
    if not stray:
        return None
    shown = ", ".join(f"'{{{name}}}'" if not name else f"'{name}'" for name in stray)
    message = f"the text of '{key}' has {'a field' if len(stray) == 1 else 'fields'} the English one has not: {shown}"
    if not known:
        return message, "the English text has no fields: write it without {…} (a brace itself is written {{ or }})"
    unused = sorted(known - mine)  # the English fields the text leaves out: what a stray one may stand for
    only = unused if len(unused) == 1 else []
    close = [match[0] for name in stray if (match := difflib.get_close_matches(name, unused, n=1, cutoff=0.5) or only)]
    guess = ("did you mean " + " and ".join(f"'{{{name}}}'" for name in dict.fromkeys(close)) + "? ") if close else ""
    return message, f"{guess}the English text has the fields {_field_list(english)}: use only those"


def _named(keys: list[str]) -> str:
    return ", ".join(keys[:NAMED]) + (f" and {len(keys) - NAMED} more" if len(keys) > NAMED else "")


def _slots(text: str) -> set[str]:
    """The fields of a template, "" for a bare {} (a value's announcement has one);
    ValueError for a stray brace."""
    return {name.split(".")[0].split("[")[0] for _, name, _, _ in string.Formatter().parse(text) if name is not None}


_PLAIN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _unplain(text: str, bare: bool = False) -> str:
    """The first field of a template that is more than a plain ``{name}``, as written
    (``{n.__class__}``, ``{n!r}``, ``{n:>999}``, ``{0}``), or "": formatted, such a field
    shows Python's insides or pads a page with spaces. ``bare``: ``{}`` and ``{0}`` are
    the English text's own bare field. ValueError for a stray brace."""
    for _, name, spec, conversion in string.Formatter().parse(text):
        if name is None:
            continue
        if (_PLAIN.fullmatch(name) or (bare and name in ("", "0"))) and not spec and not conversion:
            continue
        return "{" + name + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "") + "}"
    return ""


def _field_list(text: str) -> str:
    names = sorted(_slots(text))
    return ", ".join("{" + name + "}" for name in names) if names else "no fields"
