"""A site in English, German and Hebrew (tests/languages_site.py: one lesson missing in
German) in real Chromium: the language switch in the header, used with the mouse and
with the keyboard, lands on the same lesson in the other language, swapped in place on
the same engine (one worker, never started again), whose figures then answer in the new
language; the German stand-in for the lesson German lacks shows its note; Hebrew is right
to left; each language's search finds its own pages; every first frame is <= 60 KB
gzipped; an offline bundle of two of the languages switches from disk the same way;
axe finds nothing wrong with the switch, open, nor with the note, in either direction."""

from __future__ import annotations

import gzip
import zipfile
from urllib.parse import urlparse

import pytest
from helpers import module_page, served_site
from languages_site import make_site
from test_axe import violations

from explorables.site_builder.authors import loader
from explorables.site_builder.commands.bundle import bundle_site

FIRST_FRAME_LIMIT = 60 * 1024

COUNT_WORKERS = """(() => {
    const Real = window.Worker; window.__workers = 0;
    window.Worker = function (url, options) { window.__workers += 1; return new Real(url, options); };
})()"""


@pytest.fixture(scope="module")
def site_dir(tmp_path_factory):
    return make_site(tmp_path_factory.mktemp("languages") / "site").parent


@pytest.fixture(scope="module")
def base(site_dir):
    yield from served_site(site_dir)


@pytest.fixture(scope="module")
def shared(browser, base, browser_context_args):
    """One page for the module: one engine, its workers counted from the first script."""
    for page, guard in module_page(browser, base, {**browser_context_args, "viewport": {"width": 1280, "height": 900}}):
        page.add_init_script(COUNT_WORKERS)
        yield page, guard


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
    page.goto(base + "he/heads.html")
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


def test_each_language_s_search_finds_its_own_pages(shared, base):
    page, guard = shared
    page.goto(base + "shares.html")
    page.evaluate("() => { window.__samePage = true; }")
    page.locator("main h1").click()  # the page has the focus, not a field
    page.keyboard.type("/heads")
    page.locator("#ex-search-results [role=option]").first.wait_for(timeout=30_000)
    assert "Several heads" in page.locator("#ex-search-results").inner_text()
    page.keyboard.press("Escape")
    page.locator(".ex-languages summary").click()
    page.locator(".ex-languages a[hreflang=de]").click()
    landed(page, base, "de/shares.html")
    page.locator("main h1").click()
    page.keyboard.type("/zeilen")
    page.locator("#ex-search-results [role=option]").first.wait_for(timeout=30_000)
    results = page.locator("#ex-search-results")
    assert "Zeilen der Aufmerksamkeit" in results.inner_text()
    assert results.locator("a").first.get_attribute("href") == base + "de/rows.html"
    page.locator("#ex-search-input").fill("heads")  # the English lesson German lacks is not among its pages
    page.wait_for_function("() => !document.querySelector('#ex-search-results [role=option]')")
    assert page.evaluate("() => window.__samePage") is True
    guard.check()


@pytest.mark.parametrize("url", ["rows.html", "de/rows.html", "he/rows.html", "he/shares.html"])
def test_the_first_frame_of_every_language_is_small(browser, base, site_dir, browser_context_args, url):
    context = browser.new_context(**browser_context_args)
    page = context.new_page()
    try:
        page.goto(base + url)
        page.wait_for_function("() => performance.getEntriesByName('explorables:first-frame').length > 0")
        names = page.evaluate("""() => {
            const until = performance.getEntriesByName("explorables:first-frame")[0].startTime;
            return performance.getEntriesByType("resource").filter(e => e.startTime <= until).map(e => e.name);
        }""")
    finally:
        context.close()
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


@pytest.mark.parametrize(("width", "colour"), [(1280, "light"), (390, "dark")])
def test_the_switch_and_the_note_pass_axe_in_both_directions(browser, base, browser_context_args, width, colour):
    context = browser.new_context(**{**browser_context_args, "viewport": {"width": width, "height": 900}})
    page = context.new_page()
    try:
        page.emulate_media(color_scheme=colour)
        for url in ("de/heads.html", "he/rows.html"):
            page.goto(base + url)
            page.locator(".ex-languages summary").click()  # open: its links are checked too
            page.locator(".ex-languages a[aria-current]").wait_for()
            found = violations(page, url, ".ex-header") + violations(page, url, "main .ex-lesson-header ~ p")
            assert found == [], (url, found)
            box = page.locator(".ex-languages ul").bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= width, (url, box)  # the menu stays on the screen
    finally:
        context.close()


def test_opening_the_menu_fetches_the_other_languages_words_at_once(browser, base, browser_context_args):
    context = browser.new_context(**browser_context_args)
    page = context.new_page()
    page.route("**/pyodide/**", lambda route: None)  # the engine never starts: nothing is loaded ahead
    try:
        page.goto(base + "he/shares.html")
        page.wait_for_function("() => window.explorables && window.explorables.pages")
        assert page.evaluate("() => Object.keys(window.explorables.languageWords || {})") == []
        page.locator(".ex-languages summary").click()
        page.wait_for_function("() => Object.keys(window.explorables.languageWords || {}).length === 2")
        assert sorted(page.evaluate("() => Object.keys(window.explorables.languageWords)")) == ["de", "en"]
    finally:
        context.close()
