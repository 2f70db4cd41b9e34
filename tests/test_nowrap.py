"""A formula keeps the text that touches it (engine/nowrap.py), pinned at build time.

Punctuation after inline maths wrapped onto a line of its own (". The square
dominates", ", a model could learn", a lone ")" after T = 1 in an exercise): Chromium
lays a formula out as one box and breaks the line after it, before a full stop, and a
word joiner (U+2060) does not stop it. The text touching a formula is now kept with it
in a span.ex-nowrap (tests/browser/test_print_exercises.py measures the lines); so is
the text touching a Try button or a live number.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import explorables.figures  # noqa: F401  (registers every exercise type, the kit's own too)
from explorables.engine import locale
from explorables.engine.exercises import EXERCISES
from explorables.site_builder.output import search
from explorables.site_builder.markdown.parser import create_parser, parse_page, render_page
from explorables.engine.nowrap import keep_formulas_with_text
from explorables.site_builder.markdown.math import tex_to_mathml
from explorables.site_builder.markdown.toc import heading_text

SPAN = '<span class="ex-nowrap">'
NOBR = re.compile(r'<span class="ex-nowrap">(.*?)</span>', re.S)


def render(text: str, tmp_path: Path) -> tuple[str, list]:
    md = create_parser()
    page = parse_page(md, tmp_path / "page.md", "page", text)
    return render_page(md, page), page


def inline(tex: str) -> str:
    return tex_to_mathml(tex, False)


@pytest.mark.parametrize("markdown, html", [
    ("cost about $x$. The square", f"cost about {SPAN}{inline('x')}.</span> The square"),
    ("since $x$, a model", f"since {SPAN}{inline('x')},</span> a model"),
    ("the formula has ($T = 1$), the", f"the formula has {SPAN}({inline('T = 1')}),</span> the"),
    ("up to $D/2 - 1$:", f"up to {SPAN}{inline('D/2 - 1')}:</span>"),
    ('a "$x$" in quotes', f"a {SPAN}“{inline('x')}”</span> in quotes"),
    ("$x$ and $y$ alone", f"{inline('x')} and {inline('y')} alone"),
    ("$a$,$b$ side by side", f"{SPAN}{inline('a')},</span>{inline('b')} side by side"),
    ("$x$<y & z", f"{SPAN}{inline('x')}&lt;y</span> &amp; z"),
])
def test_the_text_touching_an_inline_formula_goes_with_it(markdown, html, tmp_path):
    body, page = render(markdown + "\n", tmp_path)
    assert page.errors == []
    assert body == f"<p>{html}</p>\n"


def test_a_display_equation_and_a_formula_with_spaces_around_it_are_left_alone(tmp_path):
    body, _ = render("Here:\n\n$$x^2$$\n\nand $y$ then.\n", tmp_path)
    assert SPAN not in body


def test_a_formula_that_cannot_be_read_keeps_its_text_and_reports(tmp_path):
    body, page = render("Broken $\\frac{1}{$. Then more.\n", tmp_path)
    assert len(page.errors) == 1
    assert SPAN + "\\frac{1}{.</span> Then more." in body


def test_a_heading_s_words_stay_whole_for_its_anchor_and_the_contents(tmp_path):
    md = create_parser()
    page = parse_page(md, tmp_path / "page.md", "page", "## Why $x$?\n\nText.\n")
    heading = next(t for t in page.tokens if t.type == "inline")
    assert heading_text(heading) == "Why x?"
    assert f"Why {SPAN}{inline('x')}?</span>" in render_page(md, page)


def test_every_inline_formula_of_the_built_site_keeps_its_punctuation(built_site):
    pages = sorted(built_site.glob("*.html"))
    assert len(pages) >= 6
    glued = 0
    for path in pages:
        html = path.read_text(encoding="utf-8")
        assert "\u2060" not in html
        # "On this page" writes its headings' formulas itself (site_builder/toc.py)
        html = re.sub(r'<nav class="ex-toc".*?</nav>', "", html, flags=re.S)
        for match in re.finditer(r"</math>([^\s<]+)", html):
            assert html.startswith("</span>", match.end()), (path.name, html[match.start() - 80:match.end() + 40])
            glued += 1
        for match in re.finditer(r"([^\s>]+)<math\b", html):
            assert html.endswith(f"{SPAN}", 0, match.start()), (path.name, html[match.start() - 40:match.end() + 40])
    assert glued > 100
    heads = (built_site / "two-heads.html").read_text(encoding="utf-8")
    assert "<mi>D</mi></mrow></math>.</span> The square dominates" in heads
    assert '<mn>0.50</mn><mo stretchy="false">)</mo></mrow></math>.</span> The output becomes' in heads
    clocks = (built_site / "positional-encoding.html").read_text(encoding="utf-8")
    assert "</math>,</span> a model could learn" in clocks
    row = (built_site / "one-query-row.html").read_text(encoding="utf-8")
    assert '<span class="ex-nowrap"><math display="inline"><mrow><mi>T</mi><mo>=</mo><mn>1</mn></mrow></math>),</span>' in row


def test_an_exercise_s_statement_keeps_its_brackets_with_its_formulas():
    """The engine sets its problems so (exercises.said): the problem the build writes and
    one drawn anew in the browser ("New numbers") alike."""
    statement = EXERCISES["scaled-score"].problem(4)["statement"]
    assert re.search(r' <span class="ex-nowrap">\(<math[^>]*>(?:(?!</math>).)*</math>\)\.</span> ', statement)
    plain = NOBR.sub(r"\1", statement)
    assert re.search(r" \(<math[^>]*>.*?</math>\)\.", plain)  # "(d_k = 2)."
    assert keep_formulas_with_text(plain) == statement


def test_search_reads_the_same_words_as_before(built_site):
    """The glue adds no character to the text: search sections and snippets are as they
    were without it, and the index holds no tag and no word joiner."""
    for name in ("attention-heatmap.html", "positional-encoding.html", "two-heads.html"):
        html = (built_site / name).read_text(encoding="utf-8")
        body = html.split("<main", 1)[1]
        assert f"{SPAN}" in body
        assert search.sections_of(body) == search.sections_of(NOBR.sub(r"\1", body))
    index = next((built_site / "_explorables").glob("search-index*.js")).read_text(encoding="utf-8")
    assert "\u2060" not in index and "ex-nowrap" not in index
    heads = (built_site / "two-heads.html").read_text(encoding="utf-8").split("<main", 1)[1]
    assert any("cost about 2n²D. The square dominates only once" in section["text"]
               for section in search.sections_of(heads))  # the formula as a line of text, then its words


def test_a_try_button_keeps_the_brackets_touching_it_on_its_line(built_site):
    """Pins a reader's finding: on a phone lesson 2 ended a line with "(" and started the
    next with the "turn it on" button: a button is one box, as a formula is."""
    html = (built_site / "attention-heatmap.html").read_text(encoding="utf-8")
    glued = [m for m in NOBR.findall(html) if 'class="ex-try"' in m]
    assert any(m.startswith("(<button") and m.endswith("</button>),") and "turn it on" in m for m in glued), glued


def test_a_formula_ending_in_a_relation_keeps_its_live_number_on_its_line(built_site):
    """Pins a reader's finding: on a phone lesson 1 ended a line with "at T =" and began
    the next with the number the reader drags, "1.00"."""
    html = (built_site / "one-query-row.html").read_text(encoding="utf-8")
    glued = [m for m in NOBR.findall(html) if 'class="ex-adjust"' in m]
    assert any(re.match(r'<math[^>]*><mrow><mi>T</mi><mo rspace="0">=</mo></mrow></math>\s<span class="ex-adjust"', m)
               for m in glued), glued


def loose_formulas(statement: str) -> list[str]:
    """Each formula of ``statement`` that touches a character other than a space or a tag
    on either side without the span that keeps them on one line."""
    loose = []
    for match in re.finditer(r"</math>([^\s<]+)", statement):
        if not statement.startswith("</span>", match.end()):
            loose.append(statement[max(0, match.start() - 60):match.end() + 20])
    for match in re.finditer(r"([^\s>]+)<math\b", statement):
        if not statement.endswith(SPAN, 0, match.start()):
            loose.append(statement[max(0, match.start() - 20):match.end() + 60])
    return loose


@pytest.mark.parametrize("language", ["en", "de"])
def test_every_exercise_type_s_statement_keeps_its_punctuation_with_its_formulas(language):
    """Pins the types written with the public kit (projected-score's "</math>, and the
    projections are" broke after the formula): each writes its statement with ``said``,
    for the page the build writes and for "New numbers" alike (both are ``problem``)."""
    names = sorted(EXERCISES)
    assert {"projected-score", "head-concat", "offset-similarity", "residual-sum", "kv-cache-size",
            "rotary-score", "scaled-score"} <= set(names)
    locale.use(language)
    try:
        glued = 0
        for name in names:
            for seed in (1, 4, 7, 12, 31):
                statement = EXERCISES[name].problem(seed, decimal_comma=language == "de")["statement"]
                assert loose_formulas(statement) == [], (name, seed)
                glued += statement.count(SPAN)
        assert glued >= len(names) * 5
    finally:
        locale.use("en")
