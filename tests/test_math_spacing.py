"""How a formula is spaced where latex2mathml spaces it otherwise than TeX
(site_builder/markdown/math.py): a minus that is a sign, a relation that ends a formula,
a function name after a letter or a number, and infinity. (Bars: test_math_fences.py.)"""
from __future__ import annotations

import re

import pytest


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
