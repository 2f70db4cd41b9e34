"""Markdown fixtures: input beside expected HTML, read by one parametrised test.

On a mismatch the test writes NAME.new.html beside the expected file for review."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from explorables.site_builder.markdown.parser import create_parser, parse_page, render_page

FIXTURES = Path(__file__).parent / "fixtures" / "markdown"
CASES = sorted(FIXTURES.glob("*.md"))
# Pygments releases differ in how they escape quotes inside highlighted text (2.20
# writes '"', 2.21 '&quot;'); both are the same text to a browser.
_QUOTES = re.compile(r"&quot;|&#34;")


def same_html(a: str, b: str) -> bool:
    return _QUOTES.sub('"', a) == _QUOTES.sub('"', b)


@pytest.mark.parametrize("source", CASES, ids=[c.stem for c in CASES])
def test_fixture(source: Path):
    md = create_parser(raw_html=False)
    page = parse_page(md, source, source.stem)
    html = render_page(md, page)
    assert page.errors == []
    expected = source.with_suffix(".html")
    new = source.with_suffix(".new.html")
    if not expected.exists() or not same_html(expected.read_text(encoding="utf-8"), html):
        new.write_text(html, encoding="utf-8")
        pytest.fail(f"{source.name}: output differs from {expected.name}; see {new.name}")
    new.unlink(missing_ok=True)


def test_raw_html_can_be_turned_on(tmp_path):
    source = tmp_path / "raw.md"
    source.write_text("<b>bold</b>\n", encoding="utf-8")
    md = create_parser(raw_html=True)
    assert render_page(md, parse_page(md, source, "raw")).strip() == "<p><b>bold</b></p>"
