"""A site in English, German and Hebrew (tests/languages_site.py: one lesson missing in
German) in real Chromium: the language switch in the header, used with the mouse and
with the keyboard, lands on the same lesson in the other language, swapped in place on
the same engine (one worker, never started again), whose figures then answer in the new
language; the German stand-in for the lesson German lacks shows its note; Hebrew is right
to left; each language's search finds its own pages, through parts of its own (the
index split small: the parts of two languages have names and keys of their own); the
head follows a page swapped in place, by the next link and by the language switch
(<html lang dir> and <link rel="alternate" hreflang> are the new page's); every first
frame is <= 60 KB gzipped; an offline bundle of two of the languages switches from disk
the same way; axe finds nothing wrong with the switch, open, nor with the note, in
either direction. The site is languages_site.served's, built once for the browser
tests' process."""

from __future__ import annotations

import gzip
import re
import zipfile
from urllib.parse import urlparse

import pytest
from helpers import held_for_good, module_page
from languages_site import make_site, served
from test_axe import scheme, violations

from explorables.site_builder.authors import loader
from explorables.site_builder.commands.bundle import bundle_site

FIRST_FRAME_LIMIT = 60 * 1024

COUNT_WORKERS = """(() => {
    const Real = window.Worker; window.__workers = 0;
    window.Worker = function (url, options) { window.__workers += 1; return new Real(url, options); };
})()"""


SITE = "https://example.org/course/"


@pytest.fixture(scope="module")
def site_dir(tmp_path_factory):
    return served(tmp_path_factory)[1]


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    return served(tmp_path_factory)[0]


@pytest.fixture(scope="module")
def shared(browser, base, browser_context_args):
    """One page for the module: one engine, its workers counted from the first script."""
    for page, guard in module_page(browser, base, {**browser_context_args, "viewport": {"width": 1280, "height": 900}}):
        page.add_init_script(COUNT_WORKERS)
        yield page, guard


@pytest.fixture(scope="module")
def held(browser, base, browser_context_args):
    """One page for the module's tests that need no engine: its download never answers
    (the next page load cancels it), so each load is the first frame alone."""
    context = browser.new_context(**browser_context_args)
    page = context.new_page()
    held_for_good(page, "**/pyodide/**")
    try:
        yield page
    finally:
        context.close()


def landed(page, base: str, url: str) -> None:
    page.wait_for_function("url => location.href === url", arg=base + url)
    page.wait_for_function("() => !document.querySelector('figure.ex-figure.ex-loading')")


def experiment(page, label: str) -> None:
    """Press one of the figure's experiments and wait for the engine's answer."""
    before = page.evaluate("() => JSON.stringify(window.explorables.figures.row.state)")
    page.locator("figure#row button", has_text=label).first.click()
    page.wait_for_function(
        "before => JSON.stringify(window.explorables.figures.row.state) !== before", arg=before, timeout=30_000
    )


def open_in_place(page, base: str, url: str) -> None:
    """Open ``url`` in the module's page: swapped in on the engine already running (as the
    reader's links do; loaded the first time), so that each test does not start one."""
    if not page.evaluate("() => !!(window.explorables && window.explorables.pages)"):
        page.goto(base + url)
        return
    assert page.evaluate("url => window.explorables.pages.go(url, {push: true, scroll: 0})", base + url) is True
    landed(page, base, url)


def same_engine(page) -> None:
    assert page.evaluate("() => window.__samePage") is True  # no page was loaded anew
    assert page.evaluate("() => window.__workers") == 1
    assert page.evaluate("() => window.explorables.client.worker === window.__worker") is True


def test_the_switch_keeps_the_lesson_and_the_engine_by_mouse_and_keyboard(shared, base):
    page, guard = shared
    page.goto(base + "rows.html")
    page.locator("figure#row.ex-live").wait_for(timeout=90_000)
    page.evaluate("() => { window.__samePage = true; window.__worker = window.explorables.client.worker; }")
    experiment(page, "Lower T to 0.1")
    assert "The best match is" in page.locator("figure#row").inner_text()

    # by mouse: the menu, then German
    page.locator(".ex-languages summary").click()
    page.locator(".ex-languages a[hreflang=de]").click()
    landed(page, base, "de/rows.html")
    assert page.locator("main h1").inner_text() == "Zeilen der Aufmerksamkeit"
    assert page.evaluate("() => [document.documentElement.lang, document.documentElement.dir]") == ["de", "ltr"]
    assert page.evaluate("() => window.explorables.words.language") == "de"
    assert page.locator(".ex-languages summary").inner_text().strip() == "Deutsch"
    page.locator("figure#row.ex-live").wait_for(timeout=30_000)
    experiment(page, "T auf 5 erhöhen")
    text = page.locator("figure#row").inner_text()
    assert "Die beste Übereinstimmung ist" in text and "The best match" not in text  # the engine speaks German
    same_engine(page)

    # by keyboard: Tab to the switch, Enter opens it, Tab to Hebrew, Enter
    page.locator("a.ex-site-title").focus()
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.matches('.ex-languages summary')"):
            break
    page.keyboard.press("Enter")
    assert page.locator(".ex-languages[open]").count() == 1
    page.keyboard.press("Tab")
    page.keyboard.press("Escape")  # closes the menu, back on its button
    assert page.locator(".ex-languages[open]").count() == 0
    assert page.evaluate("() => document.activeElement.matches('.ex-languages summary')")
    page.keyboard.press("Enter")
    for _ in range(5):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.getAttribute('hreflang') === 'he'"):
            break
    page.keyboard.press("Enter")
    landed(page, base, "he/rows.html")
    assert page.locator("main h1").inner_text() == "שורות של קשב"
    assert page.evaluate("() => [document.documentElement.lang, document.documentElement.dir]") == ["he", "rtl"]
    assert page.evaluate("() => getComputedStyle(document.querySelector('main')).direction") == "rtl"
    page.locator("figure#row.ex-live").wait_for(timeout=30_000)
    experiment(page, "הורידו את T")  # "Lower T to 0.1"
    text = page.locator("figure#row").inner_text()
    assert "Die beste" not in text and "The best match" not in text
    same_engine(page)

    # and back by the browser's history: German again, the same engine
    page.go_back()
    landed(page, base, "de/rows.html")
    page.wait_for_function("() => document.documentElement.lang === 'de'")
    same_engine(page)
    guard.check()


def test_a_lesson_german_lacks_leads_to_its_noted_stand_in(shared, base):
    page, guard = shared
    open_in_place(page, base, "he/heads.html")
    page.evaluate("() => { window.__samePage = true; }")
    page.locator(".ex-languages summary").click()
    link = page.locator(".ex-languages a[hreflang=de]")
    assert "(noch nicht übersetzt)" in link.inner_text()
    link.click()
    landed(page, base, "de/heads.html")
    note = page.locator("p.ex-untranslated")
    assert note.is_visible() and note.inner_text().startswith("Diese Lektion ist noch nicht übersetzt")
    assert page.locator("main h1").inner_text() == "Several heads"
    assert page.evaluate("() => [document.documentElement.lang, document.documentElement.dir]") == ["de", "ltr"]
    assert page.evaluate("() => window.__samePage") is True
    guard.check()


def search(page, text: str) -> list[str]:
    """Type a search as a reader does ("/" then the words); the results' addresses."""
    page.locator("main h1").click()  # the page has the focus, not a field
    page.keyboard.type("/" + text)
    page.locator("#ex-search-results [role=option]").first.wait_for(timeout=30_000)
    found = page.locator("#ex-search-results a").evaluate_all("links => links.map(a => a.href)")
    return found


def test_each_language_s_search_finds_its_own_pages_through_its_own_parts(shared, base):
    page, guard = shared
    parts: list[str] = []
    page.on("request", lambda r: "/search/" in r.url and parts.append(r.url.removeprefix(base)))
    open_in_place(page, base, "shares.html")
    page.evaluate("() => { window.__samePage = true; }")
    assert base + "heads.html" in search(page, "heads")
    assert "Several heads" in page.locator("#ex-search-results").inner_text()
    page.locator("#ex-search-input").fill("rows")
    page.wait_for_function(
        "url => Array.from(document.querySelectorAll('#ex-search-results a')).some(a => a.href === url)",
        arg=base + "rows.html",
    )
    page.keyboard.press("Escape")
    english = list(parts)
    assert english and all(p.startswith("_explorables/search/") and "/search/de/" not in p for p in english)

    page.locator(".ex-languages summary").click()
    page.locator(".ex-languages a[hreflang=de]").click()
    landed(page, base, "de/shares.html")
    found = search(page, "zeilen")
    assert found[0] == base + "de/rows.html" and all(url.startswith(base + "de/") for url in found)
    assert "Zeilen der Aufmerksamkeit" in page.locator("#ex-search-results").inner_text()
    german = parts[len(english) :]
    assert german and all(p.startswith("_explorables/search/de/") for p in german), german
    # words of the English pages are no German page's: nothing is found in German
    for english_word in ("rows", "heads"):  # (heads: the English lesson German lacks is not among its pages)
        page.locator("#ex-search-input").fill(english_word)
        page.wait_for_function("() => !document.querySelector('#ex-search-results [role=option]')")
    page.locator("#ex-search-input").fill("anteile")
    page.locator("#ex-search-results [role=option]").first.wait_for(timeout=30_000)
    assert page.locator("#ex-search-results a").first.get_attribute("href") == base + "de/shares.html"
    page.keyboard.press("Escape")
    assert page.evaluate("() => window.__samePage") is True  # all on one document
    guard.check()


def alternates(page) -> list[tuple[str, str]]:
    return [
        tuple(pair)
        for pair in page.evaluate("""() => Array.from(document.head.querySelectorAll(
            'link[rel=alternate][hreflang]')).map(l => [l.hreflang, l.href])""")
    ]


def switch_to(page, code: str) -> None:
    page.locator(".ex-languages summary").click()
    page.locator(f".ex-languages a[hreflang={code}]").click()
    page.wait_for_function("code => document.querySelector('.ex-languages').dataset.language === code", arg=code)


def test_the_head_follows_a_page_swapped_in_place(shared, base):
    page, guard = shared
    open_in_place(page, base, "rows.html")
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
    guard.check()


@pytest.mark.parametrize("url", ["rows.html", "de/rows.html", "he/rows.html", "he/shares.html"])
def test_the_first_frame_of_every_language_is_small(held, base, site_dir, url):
    page = held
    page.goto(base + url)
    page.wait_for_function("() => performance.getEntriesByName('explorables:first-frame').length > 0")
    names = page.evaluate("""() => {
        const until = performance.getEntriesByName("explorables:first-frame")[0].startTime;
        return performance.getEntriesByType("resource").filter(e => e.startTime <= until).map(e => e.name);
    }""")
    files = [url] + [urlparse(name).path.lstrip("/") for name in names]
    files = [f for f in files if "/pyodide/" not in f and ".zip" not in f and "/js/worker." not in f]
    size = sum(
        len(data) if f.endswith(".woff2") else len(gzip.compress(data, 6))
        for f in dict.fromkeys(files)
        for data in [(site_dir / "_site" / f).read_bytes()]
    )
    assert size <= FIRST_FRAME_LIMIT, (url, size, files)


def test_an_offline_bundle_switches_language_from_disk_on_one_engine(browser, tmp_path):
    content = make_site(tmp_path / "site")
    try:
        result = bundle_site(content, tmp_path / "three.zip", languages=("de",))
    finally:
        loader.unload()
    with zipfile.ZipFile(result.path) as archive:
        archive.extractall(tmp_path / "unzipped")
    (top,) = (tmp_path / "unzipped").iterdir()
    assert not (top / "he").exists()  # only the languages named
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.add_init_script(COUNT_WORKERS)
    outside, errors = [], []
    page.on("request", lambda r: r.url.startswith(("file:", "blob:", "data:")) or outside.append(r.url))
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    page.on("pageerror", lambda err: errors.append(str(err)))
    try:
        page.goto((top / "rows.html").as_uri())
        page.locator("figure#row.ex-live").wait_for(timeout=90_000)
        page.evaluate("() => { window.__samePage = true; window.__worker = window.explorables.client.worker; }")
        page.locator(".ex-languages summary").click()
        page.locator(".ex-languages a[hreflang=de]").click()
        page.wait_for_function("() => document.querySelector('main h1').textContent === 'Zeilen der Aufmerksamkeit'")
        assert page.evaluate("() => document.documentElement.lang") == "de"
        page.locator("figure#row.ex-live").wait_for(timeout=30_000)
        experiment(page, "T auf 5 erhöhen")
        assert "Die beste Übereinstimmung ist" in page.locator("figure#row").inner_text()
        same_engine(page)
        # the head names the German page's translations, from its switch (a bundle's pages carry no head)
        page.locator(".ex-next").click()
        page.wait_for_function("() => document.querySelector('main h1').textContent === 'Anteile am Gewicht'")
        heads = page.evaluate(
            "() => Array.from(document.head.querySelectorAll('link[rel=alternate]'))"
            ".map(l => [l.hreflang, l.href.split('/').slice(-2).join('/')])"
        )
        assert heads == [
            ["en", f"{top.name}/shares.html"],
            ["de", "de/shares.html"],
            ["x-default", f"{top.name}/shares.html"],
        ]
    finally:
        context.close()
    assert not outside and not errors, (outside, errors)


def test_the_switch_and_the_note_pass_axe_in_both_directions(held, base):
    """Wide and light, then narrow and dark, on each page loaded once (the engine is not
    needed: its download never answers)."""
    page = held
    for url in ("de/heads.html", "he/rows.html"):
        page.set_viewport_size({"width": 1280, "height": 900})
        page.goto(base + url)
        page.locator(".ex-languages summary").click()  # open: its links are checked too
        page.locator(".ex-languages a[aria-current]").wait_for()
        for width, colour in [(1280, "light"), (390, "dark")]:
            page.set_viewport_size({"width": width, "height": 900})
            scheme(page, colour)
            found = violations(page, url, ".ex-header, main .ex-lesson-header ~ p")
            assert found == [], (url, width, colour, found)
            box = page.locator(".ex-languages ul").bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= width, (url, width, box)  # the menu stays on the screen
    page.set_viewport_size({"width": 1280, "height": 900})
    page.emulate_media(color_scheme="light")


def test_opening_the_menu_fetches_the_other_languages_words_at_once(held, base):
    """Opened before js/later.js (which brings js/languages.js) has come, too: the words
    are asked for as soon as it comes."""
    page = held  # the engine never starts: nothing is loaded ahead
    later = re.compile(r".*/js/later\.[^/]*js$")
    waiting = []
    page.route(later, lambda route: waiting.append(route))
    page.goto(base + "he/shares.html", wait_until="domcontentloaded")  # (its load waits for later.js)
    page.wait_for_function("() => window.explorables && window.explorables.pages")
    assert page.evaluate("() => Object.keys(window.explorables.languageWords || {})") == []
    page.locator(".ex-languages summary").click()
    for _ in range(3000):  # until the page has asked for js/later.js (a poll of ``waiting``)
        if waiting:
            break
        page.wait_for_timeout(20)
    assert waiting and not page.evaluate("() => !!window.explorables.languages"), "js/languages.js came first"
    for route in waiting:
        route.continue_()
    page.unroute(later)
    # the other two languages' words, fetched; the page's own are kept beside them
    page.wait_for_function("() => Object.keys(window.explorables.languageWords || {}).length === 3")
    assert sorted(page.evaluate("() => Object.keys(window.explorables.languageWords)")) == ["de", "en", "he"]


def test_a_page_of_another_language_is_swapped_in_once_its_words_have_come(held, base):
    """Its figure is drawn in its words, numbers and controls: the German lesson's
    temperature reads with a decimal comma, however late German's words come (held here
    until the German page has come)."""
    page = held
    words: list = []
    page.route("**/words/de*.js", lambda route: words.append(route))
    page.goto(base + "rows.html")
    readout = page.locator("figure#row .ex-slider-head output").first
    english = readout.inner_text()
    assert "." in english, english
    page.locator(".ex-languages summary").click()  # (which asks for the words at once)
    page.locator(".ex-languages a[hreflang=de]").click()
    page.wait_for_function("url => performance.getEntriesByName(url).length", arg=base + "de/rows.html")
    for _ in range(3000):  # until German's words are asked for: held
        if words:
            break
        page.wait_for_timeout(20)
    assert words, "German's words were never asked for"
    assert page.evaluate("() => document.querySelector('.ex-languages').dataset.language") == "en"  # it waits
    for route in words:
        route.continue_()
    page.unroute("**/words/de*.js")
    page.wait_for_function("() => document.querySelector('.ex-languages').dataset.language === 'de'")
    assert readout.inner_text() == english.replace(".", ",")
