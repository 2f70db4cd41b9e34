"""The language the tool speaks: message catalogues and how numbers are written.

Every word the tool itself writes (the pages' pager and footer, the browser runtime's
badges and errors, the figures' messages) is a key of a catalogue, one JSON file a
language in ``locales/``: ``t("figure.reset")`` is "Reset" in English, "Zurücksetzen"
in German. A key a language lacks falls back to English (``missing`` lists them, for
the build's warning). Numbers follow the language too: the ``number.*`` keys give the
decimal separator, the grouping separator, the percent pattern and the separator of a
vector's entries, so ``num(-1234.5)`` is "−1,234.50" in English and "−1.234,50" in German.
In a language written right to left a number is also isolated as a left-to-right run
(``isolated``), so that its minus stays in front and a vector's entries keep their order
inside a Hebrew sentence, in HTML and on a canvas alike.

The build calls ``use`` before it computes first frames; the worker calls it once with
the catalogue the page carries, so figures speak the page's language in the browser too.

A site's own figures have words of their own: keys that start with ``own.`` (``OWN``),
which no shipped catalogue has and the tool never uses. The build reads them from the
site's ``locales/*.json`` and hands them over with ``own_words``, in the site's language;
the engine archive carries them to the worker, which does the same before ``use``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from . import numbers
from .numbers import Rules

LOCALES = Path(__file__).resolve().parent / "locales"
RTL = ("ar", "he", "fa", "ur")  # languages written right to left: pages get dir="rtl"
LRI, PDI = "\u2066", "\u2069"  # left-to-right isolate and its end (Unicode bidi, UAX #9)
BIDI_CONTROLS = "\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
NUMBER_KEYS = ("number.decimal", "number.group", "number.group_min", "number.percent", "number.list")
OWN = "own."  # the start of every key of a site's own words (its figures' and exercises')


class MissingWord(KeyError):
    """A key no catalogue holds: a KeyError whose message says where to add it."""

    def __str__(self) -> str:
        return str(self.args[0])


def catalogue(language: str) -> dict[str, str]:
    """The shipped catalogue of ``language`` (its base: "de-CH" reads de.json); {} if none."""
    base = base_language(language)
    path = LOCALES / f"{base}.json"
    if not base.isalpha() or not path.is_file():
        return {}
    return json.loads(path.read_text(encoding="utf-8"))


def base_language(language: str) -> str:
    """The part of an HTML lang code a catalogue is named by: "de-CH" -> "de"."""
    return str(language).strip().lower().replace("_", "-").split("-")[0]


def direction(language: str) -> str:
    """The direction a language is written in: "rtl" right to left, else "ltr"."""
    return "rtl" if base_language(language) in RTL else "ltr"


ENGLISH = catalogue("en")
_messages: dict[str, str] = dict(ENGLISH)
_language = "en"
_own: dict[str, str] = {}  # the site's own words (keys "own.*"), in its language
_format: Rules  # number_format() of the language: see _settle
_rtl = False  # whether the language is written right to left


def resolve(language: str, own: dict[str, str] | None = None) -> tuple[dict[str, str], list[str]]:
    """Every key in ``language``: its catalogue, then ``own`` (a site's additions) over
    it, then English for what is still missing. Returns the messages and the missing keys."""
    found = {**catalogue(language), **(own or {})}
    missing = [key for key in ENGLISH if key not in found]
    return {key: found.get(key, text) for key, text in ENGLISH.items()}, missing


def use(language: str, messages: dict[str, str] | str | None = None) -> None:
    """Speak ``language`` from now on; ``messages`` (a dict or its JSON) are the resolved
    catalogue as the page carries it, over the shipped one (the page leaves out the
    figures' words the shipped catalogue already has), or None for the shipped one."""
    global _language, _messages
    given = json.loads(messages) if isinstance(messages, str) else messages
    _language = language
    _messages = {**resolve(language)[0], **_own, **(given or {})}
    _settle()


def own_words(words: dict[str, str]) -> None:
    """The site's own words (every key starts with ``own.``), in the site's language,
    from now on and through every later ``use``; {} forgets them."""
    global _own, _messages
    stray = [key for key in words if not key.startswith(OWN)]
    if stray:
        raise ValueError(f"a site's own words have keys starting with {OWN!r}, got {stray[0]!r}")
    for key in _own:
        _messages.pop(key, None)
    _own = dict(words)
    _messages.update(_own)


def language() -> str:
    return _language


def t(key: str, /, **fields: Any) -> str:
    """The message ``key`` in the current language, with ``{name}`` fields filled in."""
    text = _messages.get(key)
    if text is None:
        if key.startswith(OWN):  # an author's key the site's catalogues lack
            raise MissingWord(
                f"no catalogue of the site has the key {key!r}: add it to the site's "
                f"locales/{base_language(_language)}.json"
            )
        text = ENGLISH[key]  # a key no catalogue has is a bug: KeyError names it
    return text.format(**fields) if fields else text


class Say:
    """A message of the catalogue, named by its key and looked up each time it is shown.

    A figure declares its words when its module is imported (a control's label, an
    experiment's name, the figure's title), long before the page's language is chosen:
    ``Say("figure.attention_row.title")`` stands for the words, and the kit turns it into
    text in the current language where it writes the scene or the manifest. It is
    callable with the state, as a label that depends on the state is. Exercises name
    their hints the same way (engine/exercises.py), and the kit exports it."""

    __slots__ = ("fields", "key")

    def __init__(self, key: str, **fields: Any) -> None:
        self.key, self.fields = key, fields

    def __call__(self, state: Any = None) -> str:  # a field may be a function: a number written when shown
        return self.format()

    def format(self, **fields: Any) -> str:
        """The words with their fields filled in, as ``str.format`` fills a template."""
        given = {name: value() if callable(value) else value for name, value in self.fields.items()}
        return t(self.key, **given, **fields)

    def __str__(self) -> str:
        return self()

    def __repr__(self) -> str:
        return f"Say({self.key!r})"


def number_format() -> Rules:
    """How the current language writes numbers (decimal, group, group_min, percent, list):
    the rules engine/numbers.py writes them by."""
    return _format


def _settle() -> None:
    """What every number written reads of the language, read once a ``use``: a figure's
    scene writes thousands of numbers (the heatmap's cells and their arithmetic)."""
    global _format, _rtl
    m = _messages
    _format = Rules.of(m)
    _rtl = direction(_language) == "rtl"


def localized(text: str) -> str:
    """A number written the Python way ('-1234.50') in the current language: its decimal
    separator, its grouping of thousands and the typographic minus (engine/numbers.py)."""
    return numbers.localized(text, _format)


def isolated(text: str) -> str:
    """``text`` as one left-to-right run in a right-to-left language ("−0.50" keeps its
    minus on the left inside Hebrew words); unchanged in a left-to-right language."""
    return LRI + text + PDI if _rtl else text


def unisolated(text: str) -> str:
    """``text`` without invisible direction marks (what a reader may paste back)."""
    return text.translate({ord(c): None for c in BIDI_CONTROLS})


def typed(text: str) -> str:
    """A number as a reader types it in the current language ('0.5' -> '0,5' in German):
    only the decimal separator changes, for messages about a typed field."""
    return text.replace(".", number_format()[0])


_settle()  # English until the first use()
