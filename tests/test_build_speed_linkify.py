"""Bare addresses become links (linkify-it-py); its quick test of whether a text may
hold one took a third of the parse of plain lessons, and is now answered the same way
in a fraction of the time (markdown/authoring.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from linkify_it import LinkifyIt

from explorables.site_builder.markdown.parser import create_parser, parse_page, render_page

ROOT = Path(__file__).resolve().parent.parent
TEXTS = [
    "see http://example.org/x today",
    "HTTPS://EXAMPLE.ORG",
    "httpſ://example.org",  # a long s, which a case-blind expression takes for "s"
    "on localhoſt:8000",
    "LOCALHOST:8000",
    "write to someone@example.org",
    "www.example.com and more",
    "at 10.0.0.1 or 1.2.",
    "example.com",
    "a k / √d and a//b",
    "mailto:someone",
    "ftp:files",
    "x_http://a",
    "（http://wide.example）",
    "Nothing to link here.",
    "q·k/√dₖ, a row of Kᵀ",
    "",
]


def _inline_texts() -> list[str]:
    md = create_parser()
    found = []
    for source in [*sorted((ROOT / "content").glob("*.md")), *sorted((ROOT / "tests/fixtures/markdown").glob("*.md"))]:
        page = parse_page(md, source, source.stem, content_root=source.parent)
        found += [token.content for token in page.tokens if token.type == "inline"]
    return found


@pytest.mark.parametrize("raw_html", [False, True])
def test_the_quick_test_answers_as_linkify_does(raw_html):
    md, plain = create_parser(raw_html=raw_html), LinkifyIt()
    texts = TEXTS + _inline_texts()
    assert type(md.linkify.pretest).__name__ == "_QuickPretest"
    assert [md.linkify.pretest(text) for text in texts] == [plain.pretest(text) for text in texts]
    assert sum(map(plain.pretest, texts)) > 10 and not all(map(plain.pretest, texts))


def test_a_scheme_added_later_is_known():
    md, plain = create_parser(), LinkifyIt()
    for linkify in (md.linkify, plain):
        linkify.add("git:", "http:")
    assert md.linkify.pretest("clone git:example") and md.linkify.pretest("clone git:example") == plain.pretest(
        "clone git:example"
    )


def test_bare_addresses_are_still_links(tmp_path):
    text = "Read https://example.org/a, www.example.com or LOCALHOST:8000/x; not a/b.\n"
    md, before = create_parser(), create_parser()
    before.linkify.pretest = LinkifyIt.pretest.__get__(before.linkify)  # linkify-it's own
    html = render_page(md, parse_page(md, tmp_path / "a.md", "a", text, content_root=tmp_path))
    assert html == render_page(before, parse_page(before, tmp_path / "a.md", "a", text, content_root=tmp_path))
    assert html.count("<a href=") == 2
