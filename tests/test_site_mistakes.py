"""Mistakes a new author makes in a site's settings, and what the build says of them:
a language named instead of coded in site.yml, a stray field in a site's catalogue, and
a ``--pyodide`` file that is not the pinned release's tarball."""
from __future__ import annotations

import base64
import hashlib
import io
import json
import tarfile
from pathlib import Path

import pytest

from explorables.engine import locale
from explorables.site_builder.pyodide import release as pyodide
from explorables.site_builder.commands.build import build_site
from explorables.site_builder.commands.cli import main
from explorables.site_builder.errors import BuildError, PyodideError

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


# 1. The language in site.yml is a code, not a name.

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


# 2. A field of a site's catalogue the English text has not.

def test_a_field_where_the_english_text_has_none_says_so_plainly(tmp_path):
    site = make_site(tmp_path, "de", {"page.next": "Weiter {nxt}"})
    text = build_error(site, tmp_path / "out")
    assert ("locales/de.json:2:1: the text of 'page.next' has a field the English one has not: 'nxt'\n"
            "    the English text has no fields: write it without {…} (a brace itself is written {{ or }})\n") in text
    assert "use only no fields" not in text


def test_a_misspelt_field_is_named_with_the_one_meant(tmp_path):
    site = make_site(tmp_path, "de", {"page.lesson_of": "Lektion {nn} von {totl}",
                                      "page.figure_number": "Abbildung {numer}"})
    text = build_error(site, tmp_path / "out")
    assert ("locales/de.json:2:1: the text of 'page.lesson_of' has fields the English one has not: 'nn', 'totl'\n"
            "    did you mean '{n}' and '{total}'? the English text has the fields {n}, {total}: use only those\n"
            ) in text
    assert ("locales/de.json:3:1: the text of 'page.figure_number' has a field the English one has not: 'numer'\n"
            "    did you mean '{n}'? the English text has the fields {n}: use only those\n") in text


def test_a_stray_brace_is_not_called_a_field(tmp_path):
    site = make_site(tmp_path, "de", {"page.figure_number": "Abbildung {n"})
    text = build_error(site, tmp_path / "out")
    assert ("locales/de.json:2:1: the text of 'page.figure_number' is not a template: expected '}' before end "
            "of string\n    write a field as {name} and a brace as {{ or }}\n") in text


# 3. The file --pyodide names is the one used, or the build stops.

def tarball(path: Path, content: bytes = b"fake pyodide", version: str = pyodide.VERSION) -> tuple[Path, str]:
    """A tarball shaped like the npm package, and its npm-style integrity."""
    with tarfile.open(path, "w:gz") as archive:
        files = {f"package/{name}": content + name.encode() for name in pyodide.CORE_FILES}
        files["package/package.json"] = json.dumps({"name": "pyodide", "version": version}).encode()
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return path, "sha512-" + base64.b64encode(hashlib.sha512(path.read_bytes()).digest()).decode()


@pytest.fixture
def warm_cache(tmp_path, monkeypatch):
    """A cache already holding the (fake) pinned release, and its tarball."""
    tgz, integrity = tarball(tmp_path / f"pyodide-{pyodide.VERSION}.tgz")
    monkeypatch.delenv(pyodide.ENV_VAR, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(pyodide, "INTEGRITY", integrity)
    monkeypatch.setattr(pyodide, "CORE_SHA256", {n: hashlib.sha256(b"fake pyodide" + n.encode()).hexdigest()
                                                  for n in pyodide.CORE_FILES})
    monkeypatch.setattr(pyodide, "_download", lambda: pytest.fail("no download in these tests"))
    monkeypatch.setattr(pyodide, "_npm_pack", lambda: pytest.fail("no npm in these tests"))
    pyodide._unpack(tgz, pyodide.cache_dir())
    return tgz


def test_a_junk_file_is_refused_even_with_a_warm_cache(warm_cache, tmp_path):
    junk = tmp_path / "bad.tgz"
    junk.write_text("junk\n")
    with pytest.raises(PyodideError) as info:
        pyodide.ensure_pyodide(junk)
    assert str(info.value) == (
        f"EXPLORABLES_PYODIDE / --pyodide points at {junk}, which is not a tarball (a .tgz archive) at all. "
        f"Download {pyodide.TARBALL_URL} (or run `npm pack pyodide@{pyodide.VERSION}`) and pass that file.")


def test_another_release_is_refused_naming_its_version(warm_cache, tmp_path):
    other, found = tarball(tmp_path / "pyodide-0.27.0.tgz", content=b"older", version="0.27.0")
    with pytest.raises(PyodideError) as info:
        pyodide.ensure_pyodide(other)
    assert str(info.value).startswith(
        f"EXPLORABLES_PYODIDE / --pyodide points at {other}, which is not the tarball of pyodide "
        f"{pyodide.VERSION}: it holds pyodide 0.27.0 (sha512 {found}, expected {pyodide.INTEGRITY}). ")


def test_a_missing_file_is_named(warm_cache, tmp_path):
    with pytest.raises(PyodideError, match="points at .*missing.tgz, which does not exist"):
        pyodide.ensure_pyodide(tmp_path / "missing.tgz")


def test_the_right_tarball_uses_the_warm_cache_and_is_hashed_once(warm_cache, monkeypatch):
    hashed = []
    real = pyodide._integrity_of
    monkeypatch.setattr(pyodide, "_integrity_of", lambda path: hashed.append(path) or real(path))
    monkeypatch.setattr(pyodide, "_unpack", lambda *a, **k: pytest.fail("the warm cache is used as it is"))
    assert pyodide.ensure_pyodide(warm_cache) == pyodide.cache_dir()
    assert pyodide.ensure_pyodide(warm_cache) == pyodide.cache_dir()  # a build asks more than once
    assert hashed == [warm_cache]


def test_the_right_tarball_fills_a_cold_cache_hashing_it_once(warm_cache, monkeypatch):
    import shutil

    shutil.rmtree(pyodide.cache_dir())
    pyodide._tarballs.clear()
    hashed = []
    real = pyodide._integrity_of
    monkeypatch.setattr(pyodide, "_integrity_of", lambda path: hashed.append(path) or real(path))
    folder = pyodide.ensure_pyodide(warm_cache)
    assert folder == pyodide.cache_dir() and (folder / "pyodide.mjs").read_bytes() == b"fake pyodidepyodide.mjs"
    assert hashed == [warm_cache]


def test_the_build_command_stops_at_a_junk_pyodide_file(tmp_path, capsys):
    site = make_site(tmp_path, "en")
    junk = tmp_path / "bad.tgz"
    junk.write_text("junk\n")
    assert main(["build", str(site / "content"), "-o", str(tmp_path / "out"), "--pyodide", str(junk)]) == 1
    assert f"--pyodide points at {junk}, which is not a tarball" in capsys.readouterr().err
    assert not (tmp_path / "out" / "index.html").exists()


def test_words_asked_in_a_language_s_name_names_the_code(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["words", "German"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == (
        "error: 'German' is not a language code; did you mean 'de'? give an HTML lang code, e.g. explorables words de\n")
    assert main(["words", "pt-BR"]) == 0
