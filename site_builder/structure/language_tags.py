"""Language codes in site.yml: whether a ``language:`` is shaped like an HTML lang code,
the code an author most likely meant ("German" -> "de"), and the error at its line
(site_words in language.py reads the site's words in it)."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from ...engine import locale
from ...engine.figures.base import closest
from ..errors import SourceError
from .files import read_source

# A language tag as HTML's lang takes it (BCP 47, well-formed): a language of two or three
# letters, then a script (Hant), a region (BR, 419), variants, extensions, a private part.
LANGUAGE_TAG = re.compile(r"""(?ix)^[a-z]{2,3} (-[a-z]{3}){0,3} (-[a-z]{4})? (-([a-z]{2}|[0-9]{3}))?
                          (-([a-z0-9]{5,8}|[0-9][a-z0-9]{3}))* (-[0-9a-wyz](-[a-z0-9]{2,8})+)*
                          (-x(-[a-z0-9]{1,8})+)?$""")
# Languages as an author may name them, in English or in their own words -> their code.
LANGUAGE_NAMES = {
    "english": "en",
    "german": "de",
    "deutsch": "de",
    "french": "fr",
    "français": "fr",
    "francais": "fr",
    "spanish": "es",
    "español": "es",
    "espanol": "es",
    "castellano": "es",
    "italian": "it",
    "italiano": "it",
    "portuguese": "pt",
    "português": "pt",
    "portugues": "pt",
    "brazilian portuguese": "pt-BR",
    "dutch": "nl",
    "nederlands": "nl",
    "flemish": "nl",
    "danish": "da",
    "dansk": "da",
    "swedish": "sv",
    "svenska": "sv",
    "norwegian": "nb",
    "norsk": "nb",
    "bokmål": "nb",
    "nynorsk": "nn",
    "finnish": "fi",
    "suomi": "fi",
    "icelandic": "is",
    "polish": "pl",
    "polski": "pl",
    "czech": "cs",
    "čeština": "cs",
    "slovak": "sk",
    "slovenian": "sl",
    "slovene": "sl",
    "croatian": "hr",
    "serbian": "sr",
    "bosnian": "bs",
    "hungarian": "hu",
    "magyar": "hu",
    "romanian": "ro",
    "bulgarian": "bg",
    "greek": "el",
    "russian": "ru",
    "ukrainian": "uk",
    "belarusian": "be",
    "estonian": "et",
    "latvian": "lv",
    "lithuanian": "lt",
    "irish": "ga",
    "welsh": "cy",
    "catalan": "ca",
    "català": "ca",
    "basque": "eu",
    "galician": "gl",
    "turkish": "tr",
    "türkçe": "tr",
    "hebrew": "he",
    "ivrit": "he",
    "arabic": "ar",
    "persian": "fa",
    "farsi": "fa",
    "urdu": "ur",
    "hindi": "hi",
    "bengali": "bn",
    "bangla": "bn",
    "punjabi": "pa",
    "tamil": "ta",
    "telugu": "te",
    "marathi": "mr",
    "gujarati": "gu",
    "chinese": "zh",
    "mandarin": "zh",
    "cantonese": "yue",
    "simplified chinese": "zh-Hans",
    "traditional chinese": "zh-Hant",
    "japanese": "ja",
    "korean": "ko",
    "vietnamese": "vi",
    "thai": "th",
    "indonesian": "id",
    "malay": "ms",
    "tagalog": "tl",
    "filipino": "fil",
    "swahili": "sw",
    "afrikaans": "af",
    "amharic": "am",
    "esperanto": "eo",
    "latin": "la",
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
        return "-".join([parts[0]] + [p.upper() if len(p) == 2 else p.title() if len(p) == 4 else p for p in parts[1:]])
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
    message = (
        f"the language '{language}' is not a language code"
        if language.strip()
        else "the language is empty, not a language code"
    )
    return SourceError(
        site_yml,
        line,
        col,
        message,
        (f"did you mean '{guess}'? " if guess else "")
        + f"write an HTML lang code (BCP 47): two or three letters, then a region or script if "
        f"needed, e.g. en, de-CH, pt-BR, zh-Hant; {shipped} ship with their words",
    )


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
    return line_of_language(site_yml), 1


def line_of_language(site_yml: Path) -> int:
    """The line of the ``language:`` key in site.yml, read as text; 1 when there is none."""
    try:
        for number, line in enumerate(site_yml.read_text(encoding="utf-8").splitlines(), start=1):
            if line.split(":", 1)[0].strip() == "language":
                return number
    except OSError:
        pass
    return 1
