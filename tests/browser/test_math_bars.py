"""Bars in Chromium, as a reader sees them: no gap between a bar and what it holds, and
between |u| and |v| only the thin space \\, asks for (it was "|u |   | v |")."""
from __future__ import annotations

import pytest
from conftest import serve_folder

from explorables.site_builder.commands.build import build_site

FORMULAS = [r"|u|\,|v|", r"\lvert u \rvert\,\lvert v \rvert", r"\|u\|\,\|v\|", r"\lVert u \rVert\,\lVert v \rVert",
            r"\vert u\vert\,\vert v\vert"]
LESSON = "---\ntitle: Norms\n---\n\n" + "\n\n".join(f"Formula {i}: ${tex}$ ends." for i, tex in enumerate(FORMULAS))
# Each part's left and right edge in the formula's row, and the font size.
PARTS = """n => { const math = document.querySelectorAll('p math')[n];
    const size = parseFloat(getComputedStyle(math).fontSize);
    return { size, parts: [...math.querySelectorAll('mrow > *')].map(p => {
        const box = p.getBoundingClientRect(); return [p.textContent, box.left, box.right]; }) }; }"""


@pytest.fixture(scope="module")
def norms_url(tmp_path_factory):
    folder = tmp_path_factory.mktemp("norms")
    (folder / "content").mkdir()
    (folder / "content" / "01-norms.md").write_text(LESSON, encoding="utf-8")
    build_site(folder / "content", folder / "site")
    server = serve_folder(folder / "site")
    yield f"http://127.0.0.1:{server.server_address[1]}/norms.html"
    server.shutdown()


@pytest.mark.parametrize("number", range(len(FORMULAS)))
def test_bars_sit_against_what_they_hold(browser, norms_url, number):
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(norms_url)
        page.evaluate("() => document.fonts.ready")
        found = page.evaluate(PARTS, number)
    finally:
        context.close()
    parts = [(text, left, right) for text, left, right in found["parts"] if text or right > left]
    texts = [text for text, _, _ in parts]
    assert texts == [texts[0], "u", texts[0], "", texts[0], "v", texts[0]], texts
    gaps = [round(b[1] - a[2], 2) for a, b in zip(parts, parts[1:])]
    thin = found["size"] / 6
    assert all(abs(gap) < 0.5 for gap in gaps[:2] + gaps[4:]), gaps  # |u| and |v|: no gap
    assert abs(gaps[2] + gaps[3] + (parts[3][2] - parts[3][1]) - thin) < 0.6, (gaps, thin)  # only \,
