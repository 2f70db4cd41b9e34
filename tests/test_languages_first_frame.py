"""A served page's words block carries what its first frame reads, no more
(site_builder/output/first_frame.py): the words only js/later.js's scripts read come first
in js/later.js, one file a language; the engine's words the shipped catalogue has as they
are are left out (the engine has them). In a site of several languages, js/languages.js
comes in js/later.js too, and the runtime holds a switch clicked before it comes. An
offline bundle keeps everything in its pages."""

from __future__ import annotations

import json
import re

import pytest
from languages_site import BROWSER_LESSONS, make_site

from explorables.site_builder.authors import loader
from explorables.site_builder.commands.build import build_site
from explorables.site_builder.output import first_frame
from explorables.site_builder.output.assets import names_in

LATER_ONLY = "runtime.search_label"  # read by search.js only


def words_of(html: str) -> dict:
    return json.loads(re.search(r'<script type="application/json" id="ex-words">(.*?)</script>', html, re.S).group(1))


def later_of(site, page: str) -> str:
    manifest = json.loads(re.search(r'id="ex-build">(.*?)</script>', (site / page).read_text(), re.S).group(1))
    return (site / "_explorables" / manifest["assets"]["later"]).read_text()


def test_a_page_keeps_the_words_its_first_frame_reads_and_later_brings_the_rest():
    block = json.dumps(
        {
            "language": "en",
            "dir": "ltr",
            "messages": {
                "runtime.start_figures": "Start",  # boot.js
                LATER_ONLY: "Search",
                "number.decimal": ".",  # numbers.js, by a name it makes
                "figure.reset": "Reset",  # the engine's, as shipped
                "figure.try_this": "Have a go",  # the engine's, changed by the site
                "own.greeting": "Hi",
            },
        }
    )
    first, later = first_frame.split(block)
    kept = json.loads(first)["messages"]
    assert set(kept) == {"runtime.start_figures", "number.decimal", "figure.try_this", "own.greeting"}
    assert later == {LATER_ONLY: "Search"}
    piece = first_frame.words_piece("en", later)
    assert piece.startswith("(window.explorables._laterPieces") and '"runtime.search_label": "Search"' in piece


def test_the_track_s_pages_leave_the_later_words_to_later_js(built_site):
    html = (built_site / "attention-lab.html").read_text()
    words = words_of(html)["messages"]
    assert LATER_ONLY not in words and "runtime.start_figures" in words and "figure.reset" not in words
    later = later_of(built_site, "attention-lab.html")
    assert later.index(LATER_ONLY) < later.index("_laterPieces.splice")  # the first piece, before any runs
    assert "languages.js" not in html and "languagesHead" not in later  # one language: no switch


@pytest.fixture(scope="module")
def three(tmp_path_factory):
    content = make_site(tmp_path_factory.mktemp("first-frame") / "site", lessons=BROWSER_LESSONS)
    try:
        build_site(content, content.parent / "_site")
        bundled = content.parent / "bundle"
        build_site(content, bundled, bundle=True)
    finally:
        loader.unload()
    return content.parent / "_site", bundled


def test_each_language_s_later_js_brings_its_own_words_and_the_switch(three):
    site, _ = three
    for page, language, search in (("rows.html", "en", "Search"), ("de/rows.html", "de", "Die Lektionen")):
        html = (site / page).read_text()
        assert words_of(html)["language"] == language and LATER_ONLY not in words_of(html)["messages"]
        assert not re.search(r'<script[^>]* src="[^"]*languages\.', html)  # not in the first frame
        later = later_of(site, page)
        start = later.index("(window.explorables.words, ") + len("(window.explorables.words, ")
        piece = json.JSONDecoder().raw_decode(later, start)[0]
        assert piece[LATER_ONLY].startswith(search), (page, piece)
        assert "languagesHead" in later  # js/languages.js, in it
    names = names_in(site)
    assert {"js/later.js", "js/later.de.js", "js/later.he.js"} <= set(names)
    runtime = (site / "_explorables" / names["js/explorables.js"]).read_text()
    assert "languagesHead" in runtime and ".ex-languages a[href]" in runtime  # the early switch


def test_an_offline_bundle_keeps_every_word_and_the_switch_script_in_its_head(three):
    _, bundled = three
    page = (bundled / "rows.html").read_text()
    assert LATER_ONLY in words_of(page)["messages"]
    assert re.search(r'<script defer src="[^"]*js/languages\.[0-9a-f]{8}\.js"', page)
