"""The math font ships cut down to the characters the formulas write (site_builder/fonts.py):
every formula of the track is set in it as in the whole font. A subset that lacks a glyph
the layout draws by itself (the radical sign of <msqrt>) sets those formulas visibly
narrower; the subset's unhinted advances move a formula by a pixel or two at most."""
from __future__ import annotations

import shutil

from explorables.site_builder.output.assets import names_in
from explorables.site_builder.commands.build import ASSETS, STATIC

from conftest import serve_folder

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
    font = whole_site / ASSETS / names_in(built_site)["fonts/noto-sans-math.woff2"]
    whole = STATIC / "fonts" / "noto-sans-math.woff2"
    assert font.stat().st_size < whole.stat().st_size / 4  # the site's is the subset
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
