"""Figures numbered across a site (site.yml ``numbering: site``) and math errors that
name their own line of a paragraph; each checked against a fixture: a small site in
tests/fixtures/numbering/, Markdown and the errors it must give in tests/fixtures/errors/."""
from __future__ import annotations

import re
import shutil

import pytest

from explorables.site_builder.commands.build import build_site
from explorables.site_builder.structure.config import load_config
from explorables.site_builder.errors import BuildError
from explorables.site_builder.markdown.parser import create_parser, parse_page, render_page
from figure_helpers import ROOT

FIXTURES = ROOT / "tests" / "fixtures"
ERRORS = sorted((FIXTURES / "errors").glob("*.md"))


def numbers(page: str) -> dict[str, list[str]]:
    """The figure numbers a page shows: in captions, and in references by their target."""
    captions = re.findall(r'<span class="ex-caption-number">([^<]*)</span>', page)
    refs = re.findall(r'<a (?:class="ex-ref" )?href="([\w./]*#\w+)"(?: class="ex-ref")?>([^<]*)</a>', page)
    return {"captions": captions, "refs": [f"{target}: {text}" for target, text in refs]}


@pytest.fixture
def site(tmp_path):
    content = tmp_path / "content"
    shutil.copytree(FIXTURES / "numbering" / "content", content)
    return content


def test_site_numbering_goes_on_from_the_lesson_before(site, tmp_path):
    build_site(site, tmp_path / "_site")
    first = (tmp_path / "_site" / "first.html").read_text(encoding="utf-8")
    second = (tmp_path / "_site" / "second.html").read_text(encoding="utf-8")
    assert numbers(first) == {"captions": ["Figure 1.", "Figure 2"],
                              "refs": ["#two: Figure 2", "second.html#three: Figure 3"]}
    assert numbers(second) == {"captions": ["Figure 3."], "refs": [
        "#three: Figure 3", "first.html#two: Panel 2", "#three: Figure 3", "#three: Panel 3"]}


def test_page_numbering_is_the_default_and_starts_each_lesson_at_1(site, tmp_path):
    (site / "site.yml").write_text('title: "Numbered per lesson"\n', encoding="utf-8")
    build_site(site, tmp_path / "_site")
    second = (tmp_path / "_site" / "second.html").read_text(encoding="utf-8")
    first = (tmp_path / "_site" / "first.html").read_text(encoding="utf-8")
    assert numbers(first)["refs"] == ["#two: Figure 2", "second.html#three: Figure 1"]
    assert numbers(second) == {"captions": ["Figure 1."], "refs": [
        "#three: Figure 1", "first.html#two: Panel 2", "#three: Figure 1", "#three: Panel 1"]}


def test_a_captioned_image_is_numbered_on_with_the_figures(site, tmp_path):
    shutil.copy(FIXTURES / "markdown" / "img" / "grid.png", site / "grid.png")
    second = site / "02-second.md"
    second.write_text(second.read_text(encoding="utf-8") + "\n:::{figure} grid.png\n:alt: A grid\n:name: grid\n"
                      "A picture after the live figure.\n:::\n\nSee {numref}`grid`.\n", encoding="utf-8")
    build_site(site, tmp_path / "_site")
    page = (tmp_path / "_site" / "second.html").read_text(encoding="utf-8")
    assert numbers(page)["captions"] == ["Figure 3.", "Figure 4."]
    assert "#grid: Figure 4" in numbers(page)["refs"]


def test_the_lessons_order_not_their_file_names_decides_the_numbers(site, tmp_path):
    for name, order in (("01-first.md", 2), ("02-second.md", 1)):
        path = site / name
        path.write_text(re.sub(r"^order: \d$", f"order: {order}", path.read_text(encoding="utf-8"), flags=re.M),
                        encoding="utf-8")
    build_site(site, tmp_path / "_site")
    first = (tmp_path / "_site" / "first.html").read_text(encoding="utf-8")
    assert numbers(first)["captions"] == ["Figure 2.", "Figure 3"]


@pytest.mark.parametrize("reference, message", [
    ("{numref}`03-third.md#three`", "first.md:15:19: {numref}: no lesson '03-third.md'\n"
     "    did you mean '01-first.md'? write the lesson's file name: {numref}`02-lesson.md#figure-id`"),
    ("{numref}`02-second.md#thre`", "first.md:15:19: {numref}: no figure 'thre' in 02-second.md\n"
     "    did you mean 'three'? figures there: three"),
])
def test_a_reference_to_another_lesson_s_missing_figure_is_an_error(site, reference, message):
    first = site / "01-first.md"
    first.write_text(first.read_text(encoding="utf-8").replace("{numref}`02-second.md#three`", reference),
                     encoding="utf-8")
    with pytest.raises(BuildError) as err:
        build_site(site, site.parent / "_site")
    assert "content/01-" + message in str(err.value)


def test_an_unknown_numbering_is_an_error_at_its_line(site):
    (site / "site.yml").write_text('title: "x"\nnumbering: sitewide\n', encoding="utf-8")
    config, errors = load_config(site / "site.yml")
    assert config.numbering == "page"
    assert [e.format(site) for e in errors] == [
        "site.yml:2:1: key 'numbering' is 'page' or 'site', got 'sitewide'\n"
        "    did you mean 'site'? numbering: page (each lesson from Figure 1) or numbering: site (on across lessons)"]
    with pytest.raises(BuildError):
        build_site(site, site.parent / "_site")


@pytest.mark.parametrize("source", ERRORS, ids=[s.stem for s in ERRORS])
def test_a_math_error_names_its_own_line_and_column(source):
    md = create_parser(raw_html=False)
    page = parse_page(md, source, source.stem)
    render_page(md, page)
    expected = source.with_suffix(".errors").read_text(encoding="utf-8")
    assert "".join(e.format(source.parent) + "\n" for e in page.errors) == expected
    lines = source.read_text(encoding="utf-8").split("\n")
    for error in page.errors:  # each points at the opening $ of its formula
        assert lines[error.line - 1][error.col - 1] == "$", error.format(source.parent)


def test_site_numbering_walks_into_sections_and_references_climb_out(site, tmp_path):
    part = site / "part"
    part.mkdir()
    (part / "index.md").write_text("---\ntitle: Part\norder: 3\n---\n\n# Part\n\nA section.\n", encoding="utf-8")
    (part / "01-third.md").write_text("---\ntitle: Third\norder: 1\n---\n\nBack to {numref}`../01-first.md#one`."
                                      "\n\n:::{attention-row} four\n:caption: In a section.\n:::\n", encoding="utf-8")
    build_site(site, tmp_path / "_site")
    third = (tmp_path / "_site" / "part" / "third.html").read_text(encoding="utf-8")
    assert numbers(third) == {"captions": ["Figure 4."], "refs": ["../first.html#one: Figure 1"]}


@pytest.mark.parametrize("tex, signs", [
    ("(0.20, -1.50)", 1), ("H = -\\sum_j a_j", 1), ("-x", 1), ("e^{-x}", 1),
    ("x - 1", 0), ("(a) - b", 0), ("a_j - b_j", 0),
])
def test_a_minus_that_is_a_sign_is_set_as_one(tex, signs):
    """Pins a reader's finding: "(0.20, − 1.50)", the sign spaced as a subtraction."""
    from explorables.site_builder.markdown.math import tex_to_mathml
    mathml = tex_to_mathml(tex, display=False)
    assert mathml.count('<mo form="prefix">−</mo>') == signs and mathml.count("−") == 1


def test_a_relation_that_ends_a_formula_leaves_the_space_to_the_text():
    """Pins a reader's finding: "$s =$ {value}" read "s =  1.75", MathML's space after
    "=" and the text's own."""
    from explorables.site_builder.markdown.math import tex_to_mathml
    assert tex_to_mathml("s =", display=False).endswith('<mo rspace="0">=</mo></mrow></math>')
    assert 'rspace' not in tex_to_mathml("s = 1", display=False)


@pytest.mark.parametrize("tex, spaced", [
    ("a_j \\ln a_j", True), ("0.40 \\ln(0.40)", True), ("(a) \\ln b", True), ("x \\log_2 y", True),
    ("2 \\operatorname{softmax}(x)", True), ("\\ln 6", False), ("(\\ln 2)", False), ("a + \\ln b", False),
])
def test_a_function_name_after_a_letter_or_number_has_a_thin_space_before_it(tex, spaced):
    """Pins a reader's finding: "aᵢⱼln aᵢⱼ", the name set against the letter before it.
    After an operator or an opening bracket, the operator's own space (or none) is right."""
    from explorables.site_builder.markdown.math import tex_to_mathml
    mathml = tex_to_mathml(tex, display=False)
    name = re.search(r"(?:<msub>)?<mi>(?:ln|log|softmax)</mi>", mathml)
    assert mathml[:name.start()].endswith('<mspace width="0.1667em"></mspace>') == spaced, mathml


def test_infinity_is_a_symbol_not_an_operator():
    """Pins a reader's finding: "− ∞" with wide gaps, \\infty set as an operator."""
    from explorables.site_builder.markdown.math import tex_to_mathml
    assert tex_to_mathml("-\\infty", display=False) == \
        '<math display="inline"><mrow><mo form="prefix">−</mo><mi>∞</mi></mrow></math>'
