"""One site in several languages: site.yml's ``languages: [en, de, he]``.

The first language is the default: its lessons are content/ itself and its pages the
site's root. Each other language's lessons sit in a folder of its own code that mirrors
content/ (``content/de/01-intro.md`` is the German ``01-intro.md``), and its pages are
written under that code (``de/intro.html``). The other layout, a translation beside its
lesson (``01-intro.de.md``), is refused with a message that says where the file goes.
One ``figures/`` and one ``locales/`` (beside site.yml) serve every language.

This module checks the key and the layout; commands/build_languages.py runs the build's
stages once a language, and output/languages.py writes what the languages share.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from ...engine import locale
from ..errors import SourceError
from ..quoting import quote
from .language_tags import is_language_tag, suggest_language

# Each language in its own words, for the language switch (a reader looks for their own).
NAMES = {
    "ar": "العربية",
    "cs": "Čeština",
    "da": "Dansk",
    "de": "Deutsch",
    "el": "Ελληνικά",
    "en": "English",
    "es": "Español",
    "fa": "فارسی",
    "fi": "Suomi",
    "fr": "Français",
    "he": "עברית",
    "hi": "हिन्दी",
    "hu": "Magyar",
    "id": "Bahasa Indonesia",
    "it": "Italiano",
    "ja": "日本語",
    "ko": "한국어",
    "nb": "Norsk bokmål",
    "nl": "Nederlands",
    "nn": "Norsk nynorsk",
    "pl": "Polski",
    "pt": "Português",
    "ro": "Română",
    "ru": "Русский",
    "sk": "Slovenčina",
    "sl": "Slovenščina",
    "sv": "Svenska",
    "tr": "Türkçe",
    "uk": "Українська",
    "ur": "اردو",
    "vi": "Tiếng Việt",
    "zh": "中文",
}


def own_name(language: str) -> str:
    """The language as its readers name it ("de" -> "Deutsch"); its code when unknown."""
    return NAMES.get(locale.base_language(language), language)


def _positions(text: str) -> tuple[tuple[int, int], list[tuple[int, int]]]:
    """The line and column of the ``languages:`` key and of each of its items."""
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        node = None
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            if isinstance(key, yaml.ScalarNode) and key.value == "languages":
                at = (key.start_mark.line + 1, key.start_mark.column + 1)
                items = value.value if isinstance(value, yaml.SequenceNode) else []
                return at, [(item.start_mark.line + 1, item.start_mark.column + 1) for item in items]
    return (1, 1), []


def check_languages(value: list, given: dict, site_yml: Path, text: str) -> tuple[list[str], list[SourceError]]:
    """The languages of ``languages:`` in site.yml (``value``, a list), and every mistake
    in it at its line and column: an item that is no language code, one given twice, one
    that has no catalogue (neither shipped nor the site's locales/LANG.json), and
    ``language:`` given beside it. ``given`` is the rest of site.yml, as read."""
    (line, col), items = _positions(text)
    errors: list[SourceError] = []
    found: list[str] = []
    shipped = ", ".join(sorted(p.stem for p in locale.LOCALES.glob("*.json")))
    for at, item in enumerate(value):
        where = items[at] if at < len(items) else (line, col)
        if not isinstance(item, str) or not is_language_tag(item):
            guess = suggest_language(str(item)) if isinstance(item, str) else ""
            errors.append(
                SourceError(
                    site_yml,
                    *where,
                    f"{quote(item)} in languages is not a language code",
                    (f"did you mean '{guess}'? " if guess else "")
                    + "write HTML lang codes, the default first, e.g. languages: [en, de, he]",
                )
            )
            continue
        if any(locale.base_language(item) == locale.base_language(other) for other in found):
            errors.append(
                SourceError(site_yml, *where, f"the language '{item}' is in languages twice", "give each language once")
            )
            continue
        catalogue = site_yml.parent / "locales" / f"{locale.base_language(item)}.json"
        if not locale.catalogue(item) and not catalogue.is_file():
            errors.append(
                SourceError(
                    site_yml,
                    *where,
                    f"the language '{item}' has no catalogue: the tool's words (menus, buttons, messages) "
                    f"have no '{item}' text",
                    f"write locales/{catalogue.name} beside site.yml (`explorables words {item} > "
                    f"locales/{catalogue.name}` gives every key to translate), or use a language that ships "
                    f"with its words: {shipped}",
                )
            )
            continue
        found.append(item)
    if "language" in given:
        at = next((n for n, row in enumerate(text.splitlines(), 1) if row.split(":", 1)[0].strip() == "language"), 1)
        errors.append(
            SourceError(
                site_yml,
                at,
                1,
                "both language and languages are given",
                "keep one: language: for a site in one language, languages: [en, de, ...] (the default first) "
                "for a site in several",
            )
        )
    return found, errors


def misplaced(sources: list[Path], content: Path, languages: list[str]) -> list[SourceError]:
    """A lesson written in the layout this tool does not read, ``01-intro.de.md`` beside
    ``01-intro.md``: an error that says where its language's lessons go."""
    codes = {locale.base_language(code): code for code in languages[1:]}
    codes.update({code.lower(): code for code in languages[1:]})
    errors = []
    for path in sources:
        stem, dot, suffix = path.stem.rpartition(".")
        if not dot or (suffix.lower() not in codes and suffix.lower() != locale.base_language(languages[0])):
            continue
        code = codes.get(suffix.lower(), languages[0])
        rel = path.parent.relative_to(content)
        if code == languages[0]:
            target = (rel / f"{stem}.md").as_posix()
            how = f"the default language's lessons are content/ itself: rename it content/{target}"
        else:
            target = (Path(code) / rel / f"{stem}.md").as_posix()
            how = f"move it to content/{target} (each language's lessons mirror content/ in a folder of its code)"
        errors.append(
            SourceError(
                path,
                1,
                1,
                f"{path.name} names its language in the file name, a layout this site does not read",
                how,
            )
        )
    return errors


def missing_folders(content: Path, languages: list[str]) -> list[SourceError]:
    """Warnings for the languages of site.yml whose folder content/CODE is missing: each
    of their pages falls back to the default language's (a typo in a code, or a language
    not translated yet)."""
    errors = []
    for code in languages[1:]:
        if not (content / code).is_dir():
            errors.append(
                SourceError(
                    content,
                    0,
                    0,
                    f"the language '{code}' has no folder of lessons: content/{code}/ does not exist",
                    f"write its lessons into content/{code}/, mirroring content/ (content/{code}/01-intro.md "
                    f"translates content/01-intro.md), or remove '{code}' from languages in site.yml",
                )
            )
    return errors


def case_clashes(content: Path, languages: list[str]) -> list[SourceError]:
    """A folder of content/ named like a language's folder in another case (``content/DE``
    beside ``languages: [en, de]``): its pages would be written to ``DE/`` beside the
    language's ``de/``, two folders that Windows and macOS hold as one."""
    codes = {code.lower(): code for code in languages[1:]}
    errors = []
    for folder in sorted(content.iterdir()) if content.is_dir() else []:
        code = codes.get(folder.name.lower())
        if folder.is_dir() and code is not None and folder.name != code:
            errors.append(
                SourceError(
                    folder,
                    0,
                    0,
                    f"the folder {folder.name}/ differs only in case from the folder of the language '{code}', "
                    f"content/{code}/: both would be written into one folder on Windows and macOS",
                    f"rename it (e.g. content/{folder.name.lower()}-section/), or, if it holds the "
                    f"{code} lessons, name it content/{code}/",
                )
            )
    return errors
