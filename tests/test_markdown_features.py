"""Authoring features beyond CommonMark: highlighted code, GFM/MyST basics, image
figures, the table of contents, site metadata and search (docs/markdown.md)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from explorables.site_builder.markdown import create_parser, parse_page, render_page


def render(tmp_path: Path, text: str, name: str = "page.md"):
    source = tmp_path / name
    source.write_text(text, encoding="utf-8")
    md = create_parser()
    page = parse_page(md, source, source.stem)
    return render_page(md, page), page


# ---- 1. highlighted code

def test_code_is_highlighted_with_classes_only(tmp_path):
    html, page = render(tmp_path, "```python\nx = max(1, 2)  # c\n```\n")
    assert '<span class="nb">max</span>' in html
    assert '<span class="c1"># c</span>' in html
    assert "style=" not in html
    assert page.errors == [] and page.env.get("warnings", []) == []


def test_unknown_language_is_a_warning_with_its_place(tmp_path):
    html, page = render(tmp_path, "Text\n\n```klingon\nqapla'\n```\n")
    assert page.errors == []
    [warning] = page.env["warnings"]
    assert (warning.line, warning.col) == (3, 4)
    assert "unknown language 'klingon'" in warning.message
    assert "qapla&#x27;" in html or "qapla'" in html


def test_line_numbers_and_emphasis_both_spellings(tmp_path):
    braces, _ = render(tmp_path, '```python {lineno-start=5 emphasize-lines="1,3-4"}\na\nb\nc\nd\n```\n')
    directive, _ = render(tmp_path, "```{code-block} python\n:lineno-start: 5\n:emphasize-lines: 1,3-4\na\nb\nc\nd\n```\n")
    for html in (braces, directive):
        assert re.findall(r'data-line="(\d+)"', html) == ["5", "6", "7", "8"]
        assert len(re.findall("ex-line-em", html)) == 3
        assert '<span class="ex-line" data-line="6">' in html


def test_bad_code_options_are_errors_with_file_line_col(tmp_path):
    _, page = render(tmp_path, 'Intro\n\n```python {emphasize-lines="two"}\nx\n```\n')
    [error] = page.errors
    assert (error.line, error.col) == (3, 4) and "emphasize-lines" in error.message
    _, page = render(tmp_path, "```{code-block} python\n:linenumbers:\nx\n```\n")
    [error] = page.errors
    assert (error.line, error.col) == (2, 2) and ":linenumbers:" in error.message


def test_build_prints_the_warning_and_succeeds(tmp_path, capsys):
    from explorables.site_builder.build import build_site
    content = tmp_path / "content"
    content.mkdir()
    (content / "01-a.md").write_text("---\ntitle: A\n---\n\n```klingon\nx\n```\n", encoding="utf-8")
    build_site(content, tmp_path / "_site", bundle=True)
    err = capsys.readouterr().err
    assert "content/01-a.md:5:4: unknown language 'klingon'" in err


# ---- 2. GFM and MyST basics

def test_tasklist_deflist_linkify(tmp_path):
    html, page = render(tmp_path, "- [ ] a\n- [x] b\n\nTerm\n: Meaning\n\nSee https://example.org/x.\n")
    assert 'type="checkbox"' in html and 'checked="checked"' in html
    assert "<dt>Term</dt>" in html and "<dd>Meaning</dd>" in html
    assert '<a href="https://example.org/x">https://example.org/x</a>.' in html
    assert page.errors == []


def test_linkify_leaves_code_and_math_alone(tmp_path):
    html, _ = render(tmp_path, "`https://a.org` and $x$ and https://b.org\n")
    assert "<code>https://a.org</code>" in html
    assert html.count("<a ") == 1


def test_extensions_are_enabled_in_one_place():
    """Every authoring extension is switched on by authoring_plugin, nowhere else."""
    source = (Path(__file__).parent.parent / "site_builder" / "markdown.py").read_text()
    for name in ("tasklists", "deflist", "attrs", "linkify", "highlight"):
        assert name not in source, f"{name} is set up outside site_builder/authoring.py"
    assert "md.use(authoring_plugin)" in source
