"""The language of a site (site.yml ``language``, site_builder/structure/language.py):
a code, not a name. A language named instead of coded is an error at its key with the
code meant, a well-formed code without a catalogue builds with a warning, and
`explorables words` asked in a language's name names the code."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from explorables.engine import locale
from explorables.site_builder.commands.build import build_site
from explorables.site_builder.commands.cli import main
from explorables.site_builder.errors import BuildError

from author_site import write_site

LESSON = "---\ntitle: One\n---\n\n# One\n\nSome text.\n"


def make_site(tmp_path: Path, language: str, catalogue: dict | None = None) -> Path:
    return write_site(tmp_path / "site", site_yml=f"title: Test\n# the lessons' language\nlanguage: {language}\n",
                      lessons={"01-one.md": LESSON},
                      locales=None if catalogue is None else {language.strip("\"'"): json.dumps(catalogue, indent=1)})


def build_error(site: Path, out: Path) -> str:
    with pytest.raises(BuildError) as info:
        build_site(site / "content", out)
    return str(info.value)


HINT = ("write an HTML lang code (BCP 47): two or three letters, then a region or script if needed, "
        "e.g. en, de-CH, pt-BR, zh-Hant; de, en, he ship with their words")


@pytest.mark.parametrize("value, said, guess", [
    ("english", "english", "en"),
    ("German", "German", "de"),
    ("en_US", "en_US", "en-US"),
    ('"Englsh"', "Englsh", "en"),  # a close match of a name, quoted in YAML
    ("hebrew", "hebrew", "he"),
])
def test_a_language_name_is_an_error_at_its_place_in_site_yml(tmp_path, value, said, guess):
    site = make_site(tmp_path, value)
    text = build_error(site, tmp_path / "out")
    assert (f"site.yml:3:11: the language '{said}' is not a language code\n"
            f"    did you mean '{guess}'? {HINT}\n1 error;") in text
    assert "has no catalogue" not in text  # the warning about a missing catalogue is not said as well


@pytest.mark.parametrize("value, col, said, guess", [
    ('"e\\x6eglish"', 11, "english", "en"),  # a quoted value with an escape
    ('"Deu\\u0074sch"', 11, "Deutsch", "de"),
    ('"en\\u005fGB"', 11, "en_GB", "en-GB"),
    ("\n  english", 1, "english", "en"),  # the value on the next line: at the key
    (">-\n  German", 11, "German", "de"),  # a folded block
    ("!!str hebrew", 11, "hebrew", "he"),  # a tag before the value
    ("'Fran''cais'   # the lessons' language", 11, "Fran'cais", "fr"),  # a quote doubled inside quotes
])
def test_the_language_as_yaml_reads_it_is_checked_at_its_key(tmp_path, value, col, said, guess):
    site = make_site(tmp_path, value)
    text = build_error(site, tmp_path / "out")
    assert (f"site.yml:3:{col}: the language '{said}' is not a language code\n"
            f"    did you mean '{guess}'? {HINT}\n1 error;") in text


@pytest.mark.parametrize("value, written, read", [
    ("no", "no", "false"),  # Norwegian, as YAML 1.1 reads it
    ("No", "No", "false"),
    ("yes", "yes", "true"),
    ("off   # the lessons' language", "off", "false"),
    ("on", "on", "true"),
])
def test_a_language_yaml_reads_as_true_or_false_says_to_quote_it(tmp_path, value, written, read):
    site = make_site(tmp_path, value)
    text = build_error(site, tmp_path / "out")
    assert text == (f"site.yml:3:1: key 'language' expects text, but YAML reads {written} as {read}\n"
                    f'    put it in quotes: language: "{written}"\n'
                    "1 error; nothing was written (there is no previous site).")


@pytest.mark.parametrize("value, got", [
    ("{code: en}", "{'code': 'en'}"),  # a mapping
    ("\n  code: en", "{'code': 'en'}"),  # a mapping on the next lines
    ("[en, de]", "['en', 'de']"),
    ("\n  - en", "['en']"),
])
def test_a_language_that_is_no_text_is_an_error_at_its_key(tmp_path, value, got):
    site = make_site(tmp_path, value)
    text = build_error(site, tmp_path / "out")
    assert text.startswith(f"site.yml:3:1: key 'language' expects str, got {got}\n    The language of the lessons")
    assert text.endswith("1 error; nothing was written (there is no previous site).")


def test_a_value_like_no_language_says_how_a_code_is_written(tmp_path):
    site = make_site(tmp_path, "klingon")
    text = build_error(site, tmp_path / "out")
    assert f"site.yml:3:11: the language 'klingon' is not a language code\n    {HINT}\n" in text


@pytest.mark.parametrize("code", ["fr", "pt-BR", "zh-Hant", "sr-Latn-RS", "es-419", "de-CH-1996", "EN-us"])
def test_a_well_formed_code_without_a_catalogue_still_builds_with_the_warning(tmp_path, code):
    site = make_site(tmp_path, code)
    result = build_site(site / "content", tmp_path / "out")
    if locale.base_language(code) in ("en", "de", "he"):
        assert result.warnings == []
    else:
        assert len(result.warnings) == 1
        assert f"site.yml:3:1: the language '{code}' has no catalogue" in result.warnings[0]


def test_codes_and_guesses():
    from explorables.site_builder.structure.language import is_language_tag, suggest_language

    assert all(map(is_language_tag, ["en", "de", "he", "pt-BR", "zh-Hant", "yue", "en-x-test"]))
    assert not any(map(is_language_tag, ["english", "en_US", "e", "", "en-", "deutsch"]))
    assert suggest_language("Deutsch") == "de" and suggest_language("pt_br") == "pt-BR"
    assert suggest_language("Simplified Chinese") == "zh-Hans" and suggest_language("qqqqqq") == ""


def test_words_asked_in_a_language_s_name_names_the_code(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["words", "German"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == (
        "error: 'German' is not a language code; did you mean 'de'? give an HTML lang code, e.g. explorables words de\n")
    assert main(["words", "pt-BR"]) == 0
