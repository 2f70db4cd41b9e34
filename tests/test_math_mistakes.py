"""Mistakes an author makes in TeX: each is a build error at the formula's place (its
own line of a paragraph: tests/fixtures/errors/ holds Markdown and the errors it must
give), in plain words, with the fix; never a brace drawn as if closed, nor the
converter's own names. A dollar that opens no formula ("$5") stays text."""
from __future__ import annotations

import re

import pytest
from latex2mathml import exceptions

from explorables.site_builder.markdown.parser import create_parser, parse_page, render_page
from explorables.site_builder.commands.build import build_site
from explorables.site_builder.markdown.math import MathError, _explain, tex_to_mathml
from author_site import ONE_LESSON as LESSON, fails_with
from figure_helpers import ROOT

ERRORS = sorted((ROOT / "tests" / "fixtures" / "errors").glob("*.md"))  # Markdown, and .errors beside it
HINT = "\n    math is TeX between $...$ (inline) or $$...$$ (display)"


def errors(tmp_path, text: str) -> list[str]:
    source = tmp_path / "page.md"
    source.write_text(text, encoding="utf-8")
    md = create_parser(raw_html=False)
    page = parse_page(md, source, "page")
    render_page(md, page)
    return [e.format(tmp_path) for e in page.errors]


def message(tex: str, display: bool = False) -> str:
    with pytest.raises(MathError) as info:
        tex_to_mathml(tex, display)
    return str(info.value)


# --- braces ---------------------------------------------------------------------------------

def test_an_unclosed_brace_in_inline_math_is_an_error_at_its_place(tmp_path):
    assert errors(tmp_path, "Square $x^{2$ here.\n") == [
        "page.md:1:8: cannot read the TeX 'x^{2': the '{' after 'x^' is never closed; "
        "add '}' where its group ends (or write \\{ to show a brace)" + HINT]


def test_an_unclosed_brace_in_display_math_is_an_error_at_its_place(tmp_path):
    assert errors(tmp_path, "Text.\n\n$$\\sqrt{d_k$$\n") == [
        "page.md:3:2: cannot read the TeX '\\sqrt{d_k': the '{' after '\\sqrt' is never closed; "
        "add '}' where its group ends (or write \\{ to show a brace)" + HINT]


def test_a_closing_brace_without_an_opening_one_is_an_error(tmp_path):
    assert errors(tmp_path, "See $x}$.\n") == [
        "page.md:1:5: cannot read the TeX 'x}': the '}' after 'x' has no '{' opening it; remove it, "
        "or add the '{' its group starts with (or write \\} to show a brace)" + HINT]


def test_the_innermost_unclosed_brace_is_named():
    assert "the '{' after '\\frac{a}' is never closed" in message("\\frac{a}{b")
    assert "the '{' at the start is never closed" in message("{a")


def test_a_long_formula_names_the_brace_by_the_text_just_before_it():
    text = message("a + b + c + d + e + f + g^{2")
    assert "the '{' after '…d + e + f + g^' is never closed" in text


def test_a_brace_must_close_inside_the_left_right_around_it():
    assert message("\\left( {x \\right)}") == (
        "cannot read the TeX '\\left( {x \\right)}': the '{' after '\\left(' is never closed before "
        "\\right); add '}' where its group ends (or write \\{ to show a brace)")


@pytest.mark.parametrize("tex", [
    "\\{ a \\}",  # braces to show
    "\\left\\{ x \\right.",
    "\\text{a \\{ b}",
    "\\text{a \\left( b}",  # words inside \text are not groups
    "\\frac{a}{b}^{2}",
    "\\begin{aligned} a &= \\{b\\} \\end{aligned}",
    "\\left( x \\middle| y \\right)",
])
def test_balanced_and_escaped_braces_are_fine(tex):
    assert tex_to_mathml(tex, True).startswith("<math")


# --- environments and \left ... \right --------------------------------------------------------

def test_a_begin_without_its_end_says_which_and_where_to_add_it(tmp_path):
    assert errors(tmp_path, "Text.\n\n$$\\begin{aligned} a &= b \\\\ c &= d$$\n") == [
        "page.md:3:2: cannot read the TeX '\\begin{aligned} a &= b \\\\ c &= d': the \\begin{aligned} at "
        "the start has no \\end{aligned}; add \\end{aligned} after its last line" + HINT]


def test_a_left_without_its_right_says_which_right_to_add(tmp_path):
    assert errors(tmp_path, "See $\\left( x$.\n") == [
        "page.md:1:5: cannot read the TeX '\\left( x': the \\left( at the start has no matching \\right; "
        "add \\right) where the bracket closes (or \\right. for none)" + HINT]
    assert "add \\right\\} where" in message("\\left\\{ x")
    assert "add \\right\\rangle where" in message("a \\left\\langle x")


def test_a_right_without_a_left():
    assert message("x \\right)") == (
        "cannot read the TeX 'x \\right)': the \\right) after 'x' has no matching \\left; add \\left( where "
        "the bracket opens (or \\left. for none), or write ) alone")


def test_a_middle_outside_left_and_right():
    assert message("a \\middle| b") == (
        "cannot read the TeX 'a \\middle| b': the \\middle| after 'a' is not between a \\left and its "
        "\\right; put it inside \\left( ... \\right), or write \\mid or | alone")


def test_an_end_without_a_begin_and_an_end_of_another_environment():
    assert message("a \\end{matrix}") == (
        "cannot read the TeX 'a \\end{matrix}': the \\end{matrix} after 'a' has no \\begin{matrix}; "
        "add \\begin{matrix} before its first line, or remove it")
    assert message("\\begin{cases} a \\end{matrix}") == (
        "cannot read the TeX '\\begin{cases} a \\end{matrix}': the \\begin{cases} at the start has no "
        "\\end{cases} before \\end{matrix}; add \\end{cases} after its last line")


def test_a_left_or_right_with_nothing_after_it():
    assert message("x \\left") == (
        "cannot read the TeX 'x \\left': \\left at the end has no bracket after it; "
        "write e.g. \\left( or \\left| (or \\left. for none)")


# --- the converter's errors in plain words ----------------------------------------------------

@pytest.mark.parametrize("tex, words", [
    ("x^", "the '^' at the end has nothing after it to raise or lower; write the script after it, "
           "e.g. x^{2} or x_{i}"),
    ("x^{a}_", "the '_' at the end has nothing after it to raise or lower"),
    ("x_a_b", "one letter has two subscripts (as in x_a_b); put them in one group, x_{ab}, "
              "or give the first its own braces, {x_a}_b"),
    ("x^a^b", "one letter has two superscripts (as in x^a^b)"),
    ("\\over b", "a fraction written with \\over, \\atop or \\choose has nothing before it; "
                 "write \\frac{a}{b} (or \\binom{n}{k})"),
    ("a \\over", "it ends before \\over has what goes under it; write it after \\over, e.g. {a \\over b}"),
    ("\\bar{x} \\mathcal", "it ends before \\mathcal has what it acts on; give it its argument in braces, "
                           "e.g. \\mathcal{x}"),
    ("\\frac", "it ends before \\frac has what it acts on; give it its argument in braces, e.g. \\frac{a}{b}"),
    ("x\\limits_a", "\\limits or \\nolimits must come right after an operator such as \\sum or \\int"),
    ("\\skew{a}\\hat{A}", "\\skew has no width in whole mu before its accent; write one, e.g. \\skew{3}\\hat{A}"),
])
def test_the_converter_s_errors_are_said_in_plain_words_with_a_fix(tex, words):
    text = message(tex)
    assert text == f"cannot read the TeX '{tex}': {words}" or text.startswith(f"cannot read the TeX '{tex}': {words}")
    assert not re.search(r"[A-Z][A-Za-z]+Error", text)
    assert "every brace is closed" not in text


@pytest.mark.parametrize("error", [
    value for value in vars(exceptions).values() if isinstance(value, type) and issubclass(value, Exception)
] + [RecursionError, StopIteration, IndexError])
def test_no_error_of_the_converter_is_shown_by_its_class_name(error):
    text = _explain(error(), "\\frac{a}{b} \\mathcal")
    assert error.__name__ not in text
    assert not re.search(r"[A-Z][A-Za-z]+Error", text)
    assert ";" in text  # a fix follows the problem


# --- unknown commands -------------------------------------------------------------------------

def test_an_unknown_command_suggests_the_known_one_it_is_closest_to(tmp_path):
    assert errors(tmp_path, "See $\\fracc{a}{b}$.\n") == [
        "page.md:1:5: unknown TeX command \\fracc in '\\fracc{a}{b}'; did you mean \\frac?" + HINT]
    assert message("\\alpah + 1").endswith("; did you mean \\alpha?")
    assert message("\\lamda").endswith("; did you mean \\lambda?")


def test_an_unknown_command_close_to_nothing_suggests_nothing():
    assert message("\\foo") == "unknown TeX command \\foo in '\\foo'"


def test_a_suggestion_is_never_a_command_lesson_math_refuses():
    assert "did you mean \\href" not in message("\\hreff")


def test_a_misspelt_font_is_an_unknown_command_not_dropped(tmp_path):
    """The converter read any \\math... it did not know as a font and dropped it:
    \\mathbbb{R} was drawn as a plain R."""
    assert errors(tmp_path, "The reals $\\mathbbb{R}$.\n") == [
        "page.md:1:11: unknown TeX command \\mathbbb in '\\mathbbb{R}'; did you mean \\mathbb?" + HINT]
    assert message("\\mathcall{A}").endswith("; did you mean \\mathcal?")
    assert "ℝ" in tex_to_mathml("\\mathbb{R} \\mathrm{d}x \\mathop{x}", True)


@pytest.mark.parametrize("tex", [
    "\\mathbfit{W} + \\mathbold{x} + \\mathsfbf{A} + \\mathsfbfit{v}",  # fonts the converter spells with a letter
    "\\begin{aligned} a &= b \\\\ % c &= \\left( d\ne &= f \\end{aligned}",  # a comment holds what it likes
    "a % a brace in a comment {",
])
def test_valid_tex_the_checks_must_not_refuse(tex):
    assert tex_to_mathml(tex, True).startswith("<math")


def test_begingroup_is_an_error_of_the_formula_not_of_the_builder():
    with pytest.raises(MathError) as err:
        tex_to_mathml("\\begingroup x \\endgroup", False)
    assert "cannot read the TeX" in str(err.value)


# A formula nested too deep, and dollars that are no formula, in a built site.

MATH_MISTAKES = {
    "nested underbrace": ({"02-b.md": b"Math $" + b"\\underbrace{" * 300 + b"x" + b"}" * 300 + b"$.\n"}, [
        "content/02-b.md:1:6: the TeX '" + "\\underbrace{" * 5 + "…' (3901 characters) nests groups "
        "300 deep; at most 40 are allowed"]),
}


@pytest.mark.parametrize("case", list(MATH_MISTAKES), ids=list(MATH_MISTAKES))
def test_a_formula_nested_too_deep_names_its_place_and_keeps_the_previous_site(one_lesson_site, capsys, case):
    content, out = one_lesson_site
    fails_with(content, out, capsys, *MATH_MISTAKES[case])


def test_dollars_for_money_stay_text(one_lesson_site):
    content, out = one_lesson_site
    (content / "01-a.md").write_text(LESSON + "\nIt costs $5 and $x, or \\$3; but $x^2$ is math.\n")
    build_site(content, out)
    html = (out / "a.html").read_text()
    assert "It costs $5 and $x, or $3; but <math" in html
    assert html.count("<math") == 1


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
