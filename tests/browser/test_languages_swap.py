"""A site in English, German and Hebrew (tests/languages_site.py), its search index split
into small parts in each language, in real Chromium (issue 38):
- German search, after English search on the same document, finds German pages only,
  through German parts (the parts of two languages have names and keys of their own);
- the head follows a page swapped in place, by the next link and by the language switch:
  <html lang dir> and <link rel="alternate" hreflang> are the new page's (the lesson
  German lacks names no German translation)."""

from __future__ import annotations

import pytest
from conftest import Guard, serve_folder
from languages_site import make_site

from explorables.site_builder.authors import loader
from explorables.site_builder.commands.build import build_site
from explorables.site_builder.output import search_files

SITE = "https://example.org/course/"


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    content = make_site(tmp_path_factory.mktemp("languages-swap") / "site")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(search_files, "SPLIT_ABOVE", 0)
        patch.setattr(search_files, "PART_SIZE", 200)
        patch.setattr(search_files, "DOCS_PER_PART", 2)
        out = build_site(content, content.parent / "_site").out_dir
    server = serve_folder(out)
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        loader.unload()


@pytest.fixture
def reader(browser, base):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    guard = Guard(page, base)
    try:
        yield page
        guard.check()
    finally:
        context.close()


def switch_to(page, code: str) -> None:
    page.locator(".ex-languages summary").click()
    page.locator(f".ex-languages a[hreflang={code}]").click()
    page.wait_for_function("code => document.querySelector('.ex-languages').dataset.language === code", arg=code)


def search(page, text: str) -> list[str]:
    """Type a search as a reader does ("/" then the words); the results' addresses."""
    page.locator("main h1").click()  # the page has the focus, not a field
    page.keyboard.type("/" + text)
    page.locator("#ex-search-results [role=option]").first.wait_for(timeout=30_000)
    found = page.locator("#ex-search-results a").evaluate_all("links => links.map(a => a.href)")
    page.keyboard.press("Escape")
    return found


def test_german_search_finds_german_pages_through_its_own_parts(reader, base):
    page = reader
    parts: list[str] = []
    page.on("request", lambda r: "/search/" in r.url and parts.append(r.url.removeprefix(base)))
    page.goto(base + "shares.html")
    page.evaluate("() => { window.__samePage = true; }")
    assert base + "rows.html" in search(page, "rows")
    english = list(parts)
    assert english and all(p.startswith("_explorables/search/") and "/search/de/" not in p for p in english)

    switch_to(page, "de")
    found = search(page, "zeilen")
    assert found[0] == base + "de/rows.html" and all(url.startswith(base + "de/") for url in found)
    german = parts[len(english) :]
    assert german and all(p.startswith("_explorables/search/de/") for p in german), german
    # a word of the English pages is no German page's: nothing is found in German
    page.locator("#ex-search-input").fill("rows")
    page.wait_for_function("() => !document.querySelector('#ex-search-results [role=option]')")
    page.locator("#ex-search-input").fill("anteile")
    page.locator("#ex-search-results [role=option]").first.wait_for(timeout=30_000)
    assert page.locator("#ex-search-results a").first.get_attribute("href") == base + "de/shares.html"
    assert page.evaluate("() => window.__samePage") is True  # all on one document


def alternates(page) -> list[tuple[str, str]]:
    return [
        tuple(pair)
        for pair in page.evaluate("""() => Array.from(document.head.querySelectorAll(
            'link[rel=alternate][hreflang]')).map(l => [l.hreflang, l.href])""")
    ]


def test_the_head_follows_a_page_swapped_in_place(reader, base):
    page = reader
    page.goto(base + "rows.html")
    page.evaluate("() => { window.__samePage = true; }")
    assert ("de", SITE + "de/rows.html") in alternates(page)

    page.locator("a.ex-next").click()  # the next lesson, swapped in
    page.wait_for_function("() => document.querySelector('main h1').textContent === 'Shares of weight'")
    page.wait_for_function("() => document.head.querySelector('link[hreflang=de]').href.endsWith('/de/shares.html')")
    assert alternates(page) == [
        ("en", SITE + "shares.html"),
        ("de", SITE + "de/shares.html"),
        ("he", SITE + "he/shares.html"),
        ("x-default", SITE + "shares.html"),
    ]

    switch_to(page, "he")  # the switch, by mouse
    page.wait_for_function("() => document.querySelector('main h1').textContent === 'חלקי המשקל'")
    assert page.evaluate("() => [document.documentElement.lang, document.documentElement.dir]") == ["he", "rtl"]
    page.locator("a.ex-next").click()  # to the lesson German lacks: no German translation named
    page.wait_for_function("() => document.querySelector('main h1').textContent === 'כמה ראשים'")
    page.wait_for_function("() => !document.head.querySelector('link[hreflang=de]')")
    assert alternates(page) == [
        ("en", SITE + "heads.html"),
        ("he", SITE + "he/heads.html"),
        ("x-default", SITE + "heads.html"),
    ]
    assert len(page.evaluate("() => Array.from(document.head.querySelectorAll('link[rel=alternate]'))")) == 3
    switch_to(page, "de")  # its German stand-in: German, left to right, names no translation of its own
    page.wait_for_function("() => document.documentElement.lang === 'de'")
    assert page.evaluate("() => document.documentElement.dir") == "ltr"
    assert ("de", SITE + "de/heads.html") not in alternates(page)
    assert page.evaluate("() => window.__samePage") is True
