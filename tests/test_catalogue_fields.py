"""A site's word catalogue (locales/LANG.json) may give a text only plain {fields}, those
its key declares: a format expression would show Python's insides on the page
({n.__class__.__mro__}), pad it with a million spaces ({n:>999999}) or fill in
something else ({n!r}, {0}). Each is an error at the catalogue's line."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from explorables.engine import locale
from explorables.site_builder.commands.build import build_site
from explorables.site_builder.errors import BuildError

from author_site import write_site

LESSON = "---\ntitle: One\n---\n\n# One\n\nSome text.\n"


def make_site(tmp_path: Path, language: str, catalogues: dict[str, dict]) -> Path:
    return write_site(tmp_path / "site", site_yml=f"title: Test\nlanguage: {language}\n", lessons={"01-one.md": LESSON},
                      locales={code: json.dumps(words, indent=1) for code, words in catalogues.items()})


def build_error(site: Path, out: Path) -> str:
    with pytest.raises(BuildError) as info:
        build_site(site / "content", out)
    return str(info.value)


# page.figure_number is "Figure {n}"; number.percent is "{}%" (a bare field)
@pytest.mark.parametrize("key, text, field", [
    ("page.figure_number", "Abbildung {n.__class__.__mro__}", "{n.__class__.__mro__}"),
    ("page.figure_number", "Abbildung {n.real}", "{n.real}"),
    ("page.figure_number", "Abbildung {n[0]}", "{n[0]}"),
    ("page.figure_number", "Abbildung {n!r}", "{n!r}"),
    ("page.figure_number", "Abbildung {n:>999999}", "{n:>999999}"),
    ("page.figure_number", "Abbildung {n!s:^40}", "{n!s:^40}"),
    ("page.figure_number", "Abbildung {0}", "{0}"),
    ("page.figure_number", "Abbildung {}", "{}"),
    ("number.percent", "{:>99999}%", "{:>99999}"),
    ("number.percent", "{0.__class__}%", "{0.__class__}"),
    ("number.percent", "{!r}%", "{!r}"),
])
def test_a_tool_text_with_more_than_a_plain_field_is_an_error_at_its_line(tmp_path, key, text, field):
    site = make_site(tmp_path, "de", {"de": {"page.next": "Weiter", key: text}})
    message = build_error(site, tmp_path / "out")
    assert (f"locales/de.json:3:1: the text of '{key}' has {field}, which is not a plain field\n"
            f"    write each field as the English text does ({locale.ENGLISH[key]!r}): {{name}} and nothing more\n"
            ) in message
    assert message.endswith("1 error; nothing was written (there is no previous site).")


@pytest.mark.parametrize("key, text", [
    ("page.figure_number", "Abbildung {n}"),
    ("number.percent", "{} %"),
    ("number.percent", "{0} %"),  # the bare field spelt out, as before
    ("page.figure_number", "Abbildung {{n}} {n}"),  # a brace written as a brace
])
def test_plain_fields_still_build(tmp_path, key, text):
    site = make_site(tmp_path, "de", {"de": {key: text}})
    build_site(site / "content", tmp_path / "out")
    assert (tmp_path / "out" / "one.html").is_file()


@pytest.mark.parametrize("text, field", [
    ("{count.__class__.__mro__} shares", "{count.__class__.__mro__}"),
    ("{count!r} shares", "{count!r}"),
    ("{count:>999999} shares", "{count:>999999}"),
    ("{0.__class__} shares", "{0.__class__}"),
    ("{!r} shares", "{!r}"),
    ("{count[0]} shares", "{count[0]}"),
])
@pytest.mark.parametrize("language", ["en", "de"])
def test_an_own_text_with_more_than_a_plain_field_is_an_error_at_its_line(tmp_path, text, field, language):
    words = {"en": {"own.shares.title": "Shares", "own.shares.count": "{count} shares"}}
    if language == "de":
        words["de"] = {"own.shares.title": "Anteile", "own.shares.count": text}
    else:
        words["en"]["own.shares.count"] = text
    site = make_site(tmp_path, language, words)
    message = build_error(site, tmp_path / "out")
    assert (f"locales/{language}.json:3:1: the text of 'own.shares.count' has {field}, which is not a plain field\n"
            "    write each field as {name} and nothing more (a brace itself is written {{ or }})\n") in message


@pytest.mark.parametrize("text", ["top weight {}", "top weight {0}"])
def test_an_own_announcement_fills_a_bare_field(tmp_path, text):
    """Regression: the plain-field check refused the bare {} that a Value's announcement
    is filled through (docs/writing-a-figure.md writes "own.shares.announce": "top weight {}")."""
    words = {"en": {"own.shares.title": "Shares", "own.shares.announce": text}}
    site = make_site(tmp_path, "en", words)
    build_site(site / "content", tmp_path / "out")
    assert (tmp_path / "out" / "one.html").is_file()


# A field the English text has not, misspelt, or a brace that is no field.

def test_a_field_where_the_english_text_has_none_says_so_plainly(tmp_path):
    site = make_site(tmp_path, "de", {"de": {"page.next": "Weiter {nxt}"}})
    text = build_error(site, tmp_path / "out")
    assert ("locales/de.json:2:1: the text of 'page.next' has a field the English one has not: 'nxt'\n"
            "    the English text has no fields: write it without {…} (a brace itself is written {{ or }})\n") in text
    assert "use only no fields" not in text


def test_a_misspelt_field_is_named_with_the_one_meant(tmp_path):
    site = make_site(tmp_path, "de", {"de": {"page.lesson_of": "Lektion {nn} von {totl}",
                                             "page.figure_number": "Abbildung {numer}"}})
    text = build_error(site, tmp_path / "out")
    assert ("locales/de.json:2:1: the text of 'page.lesson_of' has fields the English one has not: 'nn', 'totl'\n"
            "    did you mean '{n}' and '{total}'? the English text has the fields {n}, {total}: use only those\n"
            ) in text
    assert ("locales/de.json:3:1: the text of 'page.figure_number' has a field the English one has not: 'numer'\n"
            "    did you mean '{n}'? the English text has the fields {n}: use only those\n") in text


def test_a_stray_brace_is_not_called_a_field(tmp_path):
    site = make_site(tmp_path, "de", {"de": {"page.figure_number": "Abbildung {n"}})
    text = build_error(site, tmp_path / "out")
    assert ("locales/de.json:2:1: the text of 'page.figure_number' is not a template: expected '}' before end "
            "of string\n    write a field as {name} and a brace as {{ or }}\n") in text


def test_a_key_written_twice_is_an_error_at_its_second_line(tmp_path):
    """JSON keeps the last of two texts of one key without a word: a translator who
    wrote 'page.next' twice saw one of them disappear from the site."""
    site = write_site(tmp_path / "site", site_yml="title: Test\nlanguage: de\n", lessons={"01-one.md": LESSON},
                      locales={"de": '{\n "page.next": "Weiter",\n "page.prev": "Zurück",\n "page.next": "Vor"\n}\n'})
    message = build_error(site, tmp_path / "out")
    assert ("locales/de.json:4:1: the key 'page.next' is written twice (first on line 2); only the last would count\n"
            "    keep one of the two\n") in message
