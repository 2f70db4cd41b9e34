"""The math font ships cut down to the characters each page's formulas write
(site_builder/output/fonts.py): every formula of the track is set in its page's subset as
in the whole font, on a page loaded and on a lesson swapped in by "Next", served or from
an offline bundle on disk. A subset that lacks a glyph the layout draws by itself (the
radical sign of <msqrt>) sets those formulas visibly narrower; the subset's unhinted
advances move a formula by a pixel or two at most."""
from __future__ import annotations

import re
import shutil
import zipfile

from fontTools.ttLib import TTFont

from explorables.site_builder.commands.bundle import bundle_site
from explorables.site_builder.commands.build import ASSETS, STATIC

from conftest import ROOT, serve_folder

PAGES = ["index.html", "one-query-row.html", "attention-heatmap.html", "attention-lab.html", "two-heads.html",
         "positional-encoding.html"]
# Every formula's box once the font has come, with every part of the page laid out; the
# pages are opened without JavaScript, so no figure or engine moves anything meanwhile.
BOXES = """() => document.fonts.ready.then(() => {
    document.querySelectorAll('.ex-part').forEach(part => part.classList.add('ex-shown'));
    return [...document.querySelectorAll('math')].map(formula => {
        const box = formula.getBoundingClientRect();
        return { width: box.width, height: box.height, text: formula.textContent };
    });
})"""


def boxes(browser, url: str) -> dict[str, list[dict]]:
    context = browser.new_context(java_script_enabled=False, viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        found = {}
        for name in PAGES:
            page.goto(url + name)
            found[name] = page.evaluate(BOXES)
            assert page.evaluate("() => [...document.fonts].some(f => f.family === 'Explorables Math' "
                                 "&& f.status === 'loaded')"), name
        return found
    finally:
        context.close()


def test_every_formula_is_set_in_the_subset_as_in_the_whole_font(browser, built_site, site_url, tmp_path):
    whole_site = tmp_path / "whole"
    shutil.copytree(built_site, whole_site, ignore=shutil.ignore_patterns("pyodide"))
    whole = STATIC / "fonts" / "noto-sans-math.woff2"
    subsets = sorted((whole_site / ASSETS / "fonts").glob("noto-sans-math.*.woff2"))  # each page's own
    assert len(subsets) >= 5
    for font in subsets:
        assert font.stat().st_size < whole.stat().st_size / 4  # the site's are subsets
        shutil.copyfile(whole, font)
    server = serve_folder(whole_site)
    try:
        cut = boxes(browser, site_url)
        full = boxes(browser, f"http://127.0.0.1:{server.server_address[1]}/")
    finally:
        server.shutdown()
    compared, differ = 0, []
    for name in PAGES:
        assert len(cut[name]) == len(full[name]), name
        for a, b in zip(cut[name], full[name]):
            assert a["text"] == b["text"]
            compared += 1
            if abs(a["width"] - b["width"]) > max(3, 0.03 * b["width"]) or abs(a["height"] - b["height"]) > 2:
                differ.append(f"{name} {b['text']!r}: {a['width']:.1f}x{a['height']:.1f} px in the subset, "
                              f"{b['width']:.1f}x{b['height']:.1f} px in the whole font")
    assert compared > 300  # the track's formulas, every one of them
    assert not differ, "\n".join(differ)


# The formulas' boxes of the page shown, every part laid out, once the fonts that layout
# asked for have come.
SHOWN_BOXES = """async () => {
    document.querySelectorAll('.ex-part').forEach(part => part.classList.add('ex-shown'));
    const formulas = [...document.querySelectorAll('main math')];
    formulas.forEach(formula => formula.getBoundingClientRect());
    await document.fonts.ready;
    await new Promise(resolve => requestAnimationFrame(() => resolve()));
    return formulas.map(formula => ({ width: formula.getBoundingClientRect().width, text: formula.textContent }));
}"""
MATH_FACES = """() => [...document.fonts].filter(f => f.family.includes('Explorables Math')).map(f => f.status)"""


def own_font(site, name: str) -> tuple[str, set[str]]:
    """A page's font (its address under the site) and its characters."""
    font = re.search(r'data-ex-font="([^"]+)"', (site / name).read_text(encoding="utf-8")).group(1)
    return font, {chr(c) for c in TTFont(site / font).getBestCmap()}


def watched(page) -> list[str]:
    errors = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.on("pageerror", lambda err: errors.append(str(err)))
    return errors


def fresh_boxes(page, url: str) -> list[dict]:
    page.goto(url)
    page.locator("figure.ex-live").first.wait_for()
    return page.evaluate(SHOWN_BOXES)


def same_boxes(shown: list[dict], fresh: list[dict]) -> None:
    assert len(shown) == len(fresh) > 20
    differ = [f"{a['text']!r}: {a['width']:.1f} px swapped in, {b['width']:.1f} px loaded"
              for a, b in zip(shown, fresh, strict=True)
              if a["text"] != b["text"] or abs(a["width"] - b["width"]) > 0.5]
    assert not differ, "\n".join(differ)


def test_a_lesson_reached_by_next_sets_its_math_in_its_own_font(browser, built_site, site_url):
    """A reader who clicks "Next" and comes back sees each lesson's formulas exactly as
    a fresh load of it sets them: the second lesson's own font is loaded (ahead, with the
    page) and used, and the first's again once it is back."""
    first, second = "one-query-row.html", "attention-heatmap.html"
    font, chars = own_font(built_site, second)
    assert chars - own_font(built_site, first)[1]  # set in the first lesson's font, some would fall back
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        errors = watched(page)
        fresh_second = fresh_boxes(page, site_url + second)
        fresh_first = fresh_boxes(page, site_url + first)
        page.evaluate("() => { window.__sameDocument = true; }")
        # a reader reads a little: until the next lesson and its font are fetched ahead
        page.wait_for_function("""() => {
            const link = document.querySelector("a[rel=next]"), font = link.getAttribute("data-ex-font");
            const got = performance.getEntriesByType("resource").map(e => e.name);
            return [link.href].concat(font ? [new URL(font, location.href).href] : []).every(u => got.includes(u));
        }""")
        page.locator("a[rel=next]").click()
        page.locator("figure#table.ex-live").wait_for()
        assert page.evaluate("() => window.__sameDocument")  # swapped in, not loaded
        same_boxes(page.evaluate(SHOWN_BOXES), fresh_second)
        # the head's face (the first lesson's) and the second's, both loaded; the second's fetched once
        assert page.evaluate(MATH_FACES) == ["loaded", "loaded"]
        assert page.evaluate(f"""() => performance.getEntriesByType('resource')
            .filter(e => e.name === '{site_url + font}').length""") == 1
        page.go_back()
        page.locator("figure#explorer.ex-live").wait_for()
        assert page.evaluate("() => window.__sameDocument")
        same_boxes(page.evaluate(SHOWN_BOXES), fresh_first)
        assert page.evaluate(MATH_FACES) == ["loaded"]  # the head's alone
        assert not errors
    finally:
        context.close()


def test_an_offline_bundle_on_disk_sets_its_lessons_math_in_the_font(browser, tmp_path):
    out = tmp_path / "bundle"
    with zipfile.ZipFile(bundle_site(ROOT / "content", out / "lessons.zip").path) as archive:
        archive.extractall(out / "unzipped")
    (top,) = (out / "unzipped").iterdir()
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        errors = watched(page)
        page.goto((top / "index.html").as_uri())
        page.evaluate("() => window.explorables.ready")
        page.get_by_role("navigation", name="Lessons").get_by_role("link", name="Attention as a table").click()
        page.locator("figure#table.ex-live").wait_for()
        boxes = page.evaluate(SHOWN_BOXES)
        assert len(boxes) > 20 and page.evaluate(MATH_FACES) == ["loaded"]
        # drawn in it: the same formula set in the reader's own math font is another width
        other = page.evaluate("""() => { const f = document.querySelector('main p math');
            const width = f.getBoundingClientRect().width; f.style.fontFamily = 'serif';
            const other = f.getBoundingClientRect().width; f.style.fontFamily = ''; return [width, other]; }""")
        assert abs(other[0] - other[1]) > 1, other
        assert not errors
    finally:
        context.close()
