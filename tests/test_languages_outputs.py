"""What a site in several languages writes for the reader's progress and search (issue
38): the track's data names each translation's language and the lesson it translates
(js/progress.js keeps progress by the lesson), and a large site's search index is split
in each language, each language's first file and parts under names of its own that
cannot collide with another's. In Chromium: browser/test_languages_progress.py and
browser/test_languages_in_browser.py."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from languages_site import LESSONS, make_site
from test_track import track_of

from explorables.site_builder.authors import loader
from explorables.site_builder.commands.build import build_site
from explorables.site_builder.output import search_files
from explorables.site_builder.output.assets import names_in
from explorables.site_builder.output.search import read_script_value

TWO = {key: text for key, text in LESSONS.items() if not key.startswith("he/")}


@pytest.fixture(scope="module")
def split(tmp_path_factory) -> Path:
    """The three-language site, its search index split into parts of a few terms each."""
    content = make_site(tmp_path_factory.mktemp("split") / "site")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(search_files, "SPLIT_ABOVE", 0)
        patch.setattr(search_files, "PART_SIZE", 200)
        patch.setattr(search_files, "DOCS_PER_PART", 2)
        out = build_site(content, content.parent / "_site").out_dir
    yield out
    loader.unload()


def first_file(out: Path, name: str) -> dict:
    text = (out / "_explorables" / name).read_text(encoding="utf-8")
    return read_script_value(text)


def part(out: Path, name: str) -> tuple[str, object]:
    text = (out / "_explorables" / name).read_text(encoding="utf-8")
    found = re.match(
        r'\(function \(ex\) \{ \(ex\.searchParts = ex\.searchParts \|\| \{\}\)\["([^"]+)"\] = (.*); \}\)', text
    )
    assert found, text[:200]
    return found.group(1), read_script_value(found.group(2))


def asset_map(out: Path, page: str) -> dict:
    html = (out / page).read_text(encoding="utf-8")
    return json.loads(re.search(r'<script type="application/json" id="ex-build">(.*?)</script>', html).group(1))


def test_the_track_names_each_translations_lesson_and_language(split):
    lessons = {lesson["url"]: lesson for lesson in track_of(split)["lessons"]}
    assert lessons["rows.html"].keys() == {"url", "title", "exercises", "questions"}  # the default's as before
    assert lessons["de/rows.html"]["lesson"] == "rows.html" and lessons["de/rows.html"]["language"] == "de"
    assert lessons["he/shares.html"]["lesson"] == "shares.html" and lessons["he/shares.html"]["language"] == "he"
    # the German stand-in of the lesson German lacks is that lesson too
    assert lessons["de/heads.html"]["lesson"] == "heads.html" and lessons["de/heads.html"]["language"] == "de"


def test_a_lesson_only_one_language_has_is_a_lesson_of_its_own(tmp_path):
    lessons = {**TWO, "de/04-extra.md": "---\ntitle: Nur auf Deutsch\norder: 4\n---\n\nExtra.\n"}
    content = make_site(tmp_path / "site", site_yml="title: T\nlanguages: [en, de]\n", lessons=lessons)
    try:
        out = build_site(content, tmp_path / "_site").out_dir
    finally:
        loader.unload()
    extra = next(lesson for lesson in track_of(out)["lessons"] if lesson["url"] == "de/extra.html")
    assert extra["language"] == "de" and "lesson" not in extra
    # a small site: each language's search index stays one file
    names = names_in(out)
    assert not [name for name in names if name.startswith("search/")]
    assert first_file(out, names["search-index.de.js"])["version"] == 1


def test_each_language_has_its_own_split_index(split):
    names = names_in(split)
    firsts = {"en": "search-index.js", "de": "search-index.de.js", "he": "search-index.he.js"}
    heads = {code: first_file(split, names[name]) for code, name in firsts.items()}
    assert {head["version"] for head in heads.values()} == {2}  # each split, not only the default's
    keys: dict[str, str] = {}  # a part's key -> the language whose it is
    for code, head in heads.items():
        for entry in [*head["terms"], *head["docs"]]:
            *_, key, file = entry
            folder = "search/" if code == "en" else f"search/{code}/"
            assert re.fullmatch(re.escape(folder) + r"[td]\d+\.[0-9a-f]{8}\.js", file), (code, entry)
            found, _ = part(split, file)
            assert found == key and key not in keys, (code, key, keys.get(key))  # a key of its own language
            keys[key] = code
            assert key.startswith(f"{code}-") == (code != "en")
    # each language's words in its own parts: German's has German words, not English ones
    vocab = {code: head["vocab"].split() for code, head in heads.items()}
    assert "zeilen" in vocab["de"] and "row" not in vocab["de"]
    assert "row" in vocab["en"] and "zeilen" not in vocab["en"]
    docs = [part(split, entry[-1])[1] for entry in heads["de"]["docs"]]
    assert all(doc[2].startswith("de/") for chunk in docs for doc in chunk)  # German's pages only
    assert "Zeilen der Aufmerksamkeit" in [doc[0] for chunk in docs for doc in chunk]
    # each language's pages name their own first file
    for page, code in (("rows.html", "en"), ("de/rows.html", "de"), ("he/rows.html", "he")):
        assert asset_map(split, page)["assets"]["search"] == names[firsts[code]]
