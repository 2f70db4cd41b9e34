"""Bars are spaced as TeX spaces them: |, \\|, \\vert and \\Vert are ordinary symbols and
\\lvert, \\rvert, \\lVert, \\rVert opening and closing ones, with no space beside them. Each
becomes a fence with no space of its own, opening and closing in turn ("|u| |v|", not
"|u |   | v |"); \\left and \\right keep the fences latex2mathml makes."""
from __future__ import annotations

import re

import pytest

from explorables.site_builder.markdown.math import tex_to_mathml

OPEN = '<mo fence="true" form="prefix" stretchy="false" lspace="0" rspace="0">{}</mo>'
CLOSE = '<mo fence="true" form="postfix" stretchy="false" lspace="0" rspace="0">{}</mo>'
O, C = OPEN.format("|"), CLOSE.format("|")
ON, CN = OPEN.format("‖"), CLOSE.format("‖")


def row(mathml: str) -> str:
    return re.fullmatch(r'<math display="inline"><mrow>(.*)</mrow></math>', mathml).group(1)


@pytest.mark.parametrize("tex, inside", [
    (r"|u|\,|v|", f'{O}<mi>u</mi>{C}<mspace width="0.167em" />{O}<mi>v</mi>{C}'),
    (r"|u||v|", f"{O}<mi>u</mi>{C}{O}<mi>v</mi>{C}"),
    (r"\lvert u \rvert", f"{O}<mi>u</mi>{C}"),
    (r"\lvert u\rvert\lvert v\rvert", f"{O}<mi>u</mi>{C}{O}<mi>v</mi>{C}"),
    (r"\vert x\vert", f"{O}<mi>x</mi>{C}"),
    (r"\|x\|", f"{ON}<mi>x</mi>{CN}"),
    (r"\lVert x \rVert", f"{ON}<mi>x</mi>{CN}"),
    (r"\Vert x\Vert", f"{ON}<mi>x</mi>{CN}"),
    (r"\|x\|_2", f"{ON}<mi>x</mi><msub>{CN}<mn>2</mn></msub>"),
    (r"|x|^2", f"{O}<mi>x</mi><msup>{C}<mn>2</mn></msup>"),
    (r"\|u - v\|", f"{ON}<mi>u</mi><mo>−</mo><mi>v</mi>{CN}"),
    (r"|-x|", f'{O}<mo form="prefix">−</mo><mi>x</mi>{C}'),  # a sign after an opening bar
    (r"\| |x| \|", f"{ON}{O}<mi>x</mi>{C}{CN}"),  # each kind opens and closes on its own
    (r"\lvert\mathbf{x}\rvert", f"{O}<mi>𝐱</mi>{C}"),
    (r"a|b", f"<mi>a</mi>{O}<mi>b</mi>"),  # one bar: no space beside it, as in TeX
    (r"|v| \cos\theta", f'{O}<mi>v</mi>{C}<mspace width="0.1667em"></mspace><mi>cos</mi>'
                          f'<mspace width="0.1667em"></mspace><mi>θ</mi>'),  # a function after an ordinary
    (r"|\cos x|", f'{O}<mi>cos</mi><mspace width="0.1667em"></mspace><mi>x</mi>{C}'),  # none after an opening bar
])
def test_bars_are_fences_with_no_space_of_their_own(tex, inside):
    assert row(tex_to_mathml(tex, False)) == inside


@pytest.mark.parametrize("tex, inside", [
    (r"\left| x \right|", '<mrow><mo stretchy="true" fence="true" form="prefix">|</mo><mi>x</mi>'
                          '<mo stretchy="true" fence="true" form="postfix">|</mo></mrow>'),
    (r"\left\lvert x \right\rvert", '<mrow><mo stretchy="true" fence="true" form="prefix">|</mo><mi>x</mi>'
                                    '<mo stretchy="true" fence="true" form="postfix">|</mo></mrow>'),
    (r"\left\| x \right\|", '<mrow><mo stretchy="true" fence="true" form="prefix">‖</mo><mi>x</mi>'
                            '<mo stretchy="true" fence="true" form="postfix">‖</mo></mrow>'),
    (r"\bigl\lvert x \bigr\rvert",  # sized: it may stretch to its size (was the text "\lvert")
     '<mo fence="true" form="prefix" stretchy="true" lspace="0" rspace="0" minsize="1.2em" maxsize="1.2em">|</mo>'
     '<mi>x</mi>'
     '<mo fence="true" form="postfix" stretchy="true" lspace="0" rspace="0" minsize="1.2em" maxsize="1.2em">|</mo>'),
    (r"\{x \mid x > 0\}", '<mo stretchy="false">{</mo><mi>x</mi><mo>∣</mo><mi>x</mi><mo>&#x0003E;</mo><mn>0</mn>'
                          '<mo stretchy="false">}</mo>'),  # \mid stays a relation, spaced as one
    (r"\text{a|b}", "<mtext>a|b</mtext>"),
])
def test_sized_bars_relations_and_text_keep_their_own_form(tex, inside):
    assert row(tex_to_mathml(tex, False)) == inside


@pytest.mark.parametrize("tex", [r"\lvert", r"\rVert x", r"|", r"\vert\vert\vert"])
def test_odd_bars_still_make_math(tex):
    assert tex_to_mathml(tex, False).startswith('<math display="inline">')
