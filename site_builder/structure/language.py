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

import yaml

from ...engine import locale
from ..errors import SourceError
from .files import read_source
from ...engine.figures.base import closest

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
            return (f"the key '{key}' has no text in {here}{english}",
                    (f"did you mean '{close}'? " if close else "") + f'add "{key}": "…" to {here}')
        if key in locale.ENGLISH:
            return None
        close = closest(key, list(locale.ENGLISH))
        return (f"unknown key '{key}'", (f"did you mean '{close}'? " if close else "")
                + f"a word of your own takes a key starting with {locale.OWN}, with its text in {here}")

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
        data = {"language": self.language, "dir": self.direction,
                "messages": {k: v for k, v in self.messages.items() if not any(r.match(k) for r in left_out)
                             and not (k.count(".") >= 2 and shipped.get(k) == v)}}
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
        words.warnings.append(SourceError(
            site_yml, _line_of_language(site_yml), 1,
            f"the language '{language}' {shipped}: {len(missing)} of {len(locale.ENGLISH)} words stay English "
            f"({named})",
            f"add them to {path.relative_to(site_yml.parent)} (`explorables words {language}` lists every key "
            f"with its English text)"))

    # The site's own words: its language's text, else the English catalogue's.
    words.own = dict(mine.own)
    words.sources = {key: (path, mine.lines[key]) for key in mine.own}
    if english is not None:
        words.errors += english.errors
        for key, text in mine.own.items():
            theirs = english.own.get(key)
            if theirs is not None and _slots(text) != _slots(theirs):
                words.own[key] = theirs  # the build goes on, to report every mistake of the run
                words.errors.append(SourceError(
                    path, mine.lines[key], 1,
                    f"the text of '{key}' has the fields {_field_list(text)}, the English one in "
                    f"locales/en.json:{english.lines[key]} has {_field_list(theirs)}",
                    "use the same {names} in every language: the figure fills in the same fields"))
        fallback = [key for key in english.own if key not in mine.own]
        for key in fallback:
            words.own[key] = english.own[key]
            words.sources[key] = (english.path, english.lines[key])
        if fallback:
            where = (path, 1) if path.is_file() else (site_yml, _line_of_language(site_yml))
            words.warnings.append(SourceError(
                *where, 1,
                f"{len(fallback)} of the site's own words have no '{language}' text and stay English "
                f"({_named(fallback)})",
                f"add them to {path.relative_to(site_yml.parent)} (`explorables words {language}` lists "
                f"them with where each comes from)"))
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


def _read_catalogue(path: Path) -> SiteCatalogue:
    found = SiteCatalogue(path)
    text, problems = read_source(path, path.parent.parent.resolve())
    if text is None:
        found.errors = problems
        return found
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        found.errors = [SourceError(path, err.lineno, err.colno, f"not valid JSON: {err.msg}",
                                    'write one "key": "text" pair a line, inside { }')]
        return found
    if not isinstance(data, dict):
        found.errors = [SourceError(path, 1, 1, "a catalogue must be a JSON object of \"key\": \"text\" pairs")]
        return found
    lines = text.splitlines()
    for key, value in data.items():
        line = next((i + 1 for i, row in enumerate(lines) if re.search(rf'"{re.escape(key)}"\s*:', row)), 1)
        found.lines[key] = line
        if key.startswith(locale.OWN):
            if not OWN_KEY.match(key):
                found.errors.append(SourceError(path, line, 1, f"the key '{key}' is not a key of your own words",
                                                "write own. and then words joined by dots, e.g. own.shares.title"))
            elif not isinstance(value, str):
                found.errors.append(SourceError(path, line, 1, f"the key '{key}' must be text, got {json.dumps(value)}"))
            else:
                try:
                    _slots(value)
                    unplain = _unplain(value)
                except ValueError as err:
                    found.errors.append(SourceError(path, line, 1, f"the text of '{key}' is not a template: {err}",
                                                    "write a field as {name} and a brace as {{ or }}"))
                else:
                    if unplain:
                        found.errors.append(SourceError(path, line, 1, f"the text of '{key}' has {unplain}, which "
                                                        f"is not a plain field", "write each field as {name} and "
                                                        "nothing more (a brace itself is written {{ or }})"))
                    else:
                        found.own[key] = value
        elif key not in locale.ENGLISH:
            close = closest(key, list(locale.ENGLISH))
            found.errors.append(SourceError(
                path, line, 1, f"unknown key '{key}'",
                (f"did you mean '{close}'? " if close else "") + "`explorables words en` lists the tool's keys; "
                f"a word of your own takes a key starting with {locale.OWN}, e.g. {locale.OWN}my_figure.title"))
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
        return (f"the text of '{key}' has {unplain}, which is not a plain field",
                f"write each field as the English text does ({english!r}): {{name}} and nothing more")
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


# A language tag as HTML's lang takes it (BCP 47, well-formed): a language of two or three
# letters, then a script (Hant), a region (BR, 419), variants, extensions, a private part.
LANGUAGE_TAG = re.compile(r"""(?ix)^[a-z]{2,3} (-[a-z]{3}){0,3} (-[a-z]{4})? (-([a-z]{2}|[0-9]{3}))?
                          (-([a-z0-9]{5,8}|[0-9][a-z0-9]{3}))* (-[0-9a-wyz](-[a-z0-9]{2,8})+)*
                          (-x(-[a-z0-9]{1,8})+)?$""")
# Languages as an author may name them, in English or in their own words -> their code.
LANGUAGE_NAMES = {
    "english": "en", "german": "de", "deutsch": "de", "french": "fr", "français": "fr", "francais": "fr",
    "spanish": "es", "español": "es", "espanol": "es", "castellano": "es", "italian": "it", "italiano": "it",
    "portuguese": "pt", "português": "pt", "portugues": "pt", "brazilian portuguese": "pt-BR",
    "dutch": "nl", "nederlands": "nl", "flemish": "nl", "danish": "da", "dansk": "da", "swedish": "sv",
    "svenska": "sv", "norwegian": "nb", "norsk": "nb", "bokmål": "nb", "nynorsk": "nn", "finnish": "fi",
    "suomi": "fi", "icelandic": "is", "polish": "pl", "polski": "pl", "czech": "cs", "čeština": "cs",
    "slovak": "sk", "slovenian": "sl", "slovene": "sl", "croatian": "hr", "serbian": "sr", "bosnian": "bs",
    "hungarian": "hu", "magyar": "hu", "romanian": "ro", "bulgarian": "bg", "greek": "el", "russian": "ru",
    "ukrainian": "uk", "belarusian": "be", "estonian": "et", "latvian": "lv", "lithuanian": "lt",
    "irish": "ga", "welsh": "cy", "catalan": "ca", "català": "ca", "basque": "eu", "galician": "gl",
    "turkish": "tr", "türkçe": "tr", "hebrew": "he", "ivrit": "he", "arabic": "ar", "persian": "fa",
    "farsi": "fa", "urdu": "ur", "hindi": "hi", "bengali": "bn", "bangla": "bn", "punjabi": "pa",
    "tamil": "ta", "telugu": "te", "marathi": "mr", "gujarati": "gu", "chinese": "zh", "mandarin": "zh",
    "cantonese": "yue", "simplified chinese": "zh-Hans", "traditional chinese": "zh-Hant", "japanese": "ja",
    "korean": "ko", "vietnamese": "vi", "thai": "th", "indonesian": "id", "malay": "ms", "tagalog": "tl",
    "filipino": "fil", "swahili": "sw", "afrikaans": "af", "amharic": "am", "esperanto": "eo", "latin": "la",
}


def is_language_tag(language: str) -> bool:
    """Whether ``language`` is shaped like an HTML lang code (en, de-CH, pt-BR, zh-Hant)."""
    return bool(LANGUAGE_TAG.match(language))


def suggest_language(language: str) -> str:
    """The code an author most likely meant by ``language`` ("German" -> "de", "en_US" ->
    "en-US"), or "" when nothing is close."""
    said = " ".join(language.strip().lower().replace("_", " ").replace("-", " ").split())
    if said in LANGUAGE_NAMES:
        return LANGUAGE_NAMES[said]
    joined = said.replace(" ", "-")
    if is_language_tag(joined):  # en_US, pt br, EN-us: the code with its parts in their usual case
        parts = joined.split("-")
        return "-".join([parts[0]] + [p.upper() if len(p) == 2 else p.title() if len(p) == 4 else p
                                      for p in parts[1:]])
    shipped = sorted(p.stem for p in locale.LOCALES.glob("*.json"))
    close = closest(said, list(LANGUAGE_NAMES) + shipped, 0.75)
    if close:
        return LANGUAGE_NAMES.get(close, close)
    head = said.split(" ")[0]  # "english (uk)", "german language"
    return LANGUAGE_NAMES.get(head, "")


def language_problem(language: str, site_yml: Path) -> SourceError | None:
    """A SourceError at ``language:`` in site.yml when its value is not shaped like a
    language code, or None. A language given elsewhere (a command's argument) is the
    command's to check: is_language_tag and suggest_language."""
    if is_language_tag(language):
        return None
    line, col = _language_at(site_yml)
    guess = suggest_language(language)
    shipped = ", ".join(sorted(p.stem for p in locale.LOCALES.glob("*.json")))
    message = (f"the language '{language}' is not a language code" if language.strip() else
               "the language is empty, not a language code")
    return SourceError(site_yml, line, col, message,
                       (f"did you mean '{guess}'? " if guess else "") +
                       f"write an HTML lang code (BCP 47): two or three letters, then a region or script if "
                       f"needed, e.g. en, de-CH, pt-BR, zh-Hant; {shipped} ship with their words")


def _language_at(site_yml: Path) -> tuple[int, int]:
    """The line of the ``language:`` key in site.yml and the column of its value (of the
    key, when the value starts on a later line), as YAML reads them: a quoted value with
    escapes, a value on the next line, a value in a flow mapping ({language: x})."""
    try:
        node = yaml.compose(read_source(site_yml, site_yml.parent.resolve())[0] or "", Loader=yaml.SafeLoader)
    except (yaml.YAMLError, OSError):
        node = None
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            if isinstance(key, yaml.ScalarNode) and key.value == "language":
                same = value.start_mark.line == key.start_mark.line
                return key.start_mark.line + 1, (value.start_mark.column if same else key.start_mark.column) + 1
    return _line_of_language(site_yml), 1


def _line_of_language(site_yml: Path) -> int:
    try:
        for number, line in enumerate(site_yml.read_text(encoding="utf-8").splitlines(), start=1):
            if line.split(":", 1)[0].strip() == "language":
                return number
    except OSError:
        pass
    return 1
