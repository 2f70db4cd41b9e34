"""The search index reads a formula of a lesson's body (its MathML as one line of text,
"the rows of Kᵀ") once for all the pages that write it, as it read it tag by tag."""

from __future__ import annotations

from explorables.site_builder.markdown.parser import create_parser, parse_page, render_page
from explorables.site_builder.output import search_sections

LESSON = """---
title: Scores
---
The score is $q \\cdot k / \\sqrt{d_k}$, a row of $K^T$ and $\\frac{a}{b}$.

## Softmax of $s_j$

$$
a_j = \\frac{e^{s_j}}{\\sum_l e^{s_l}}
$$

:::{attention-row} row
:caption: The weights of $q$.
:::
"""


def _read(body: str, whole_formulas: bool) -> list[dict]:
    reader = search_sections._Sections()
    search_sections._read_html(reader, body, whole_formulas)
    return reader.sections


def test_a_formula_reads_as_it_did_tag_by_tag(tmp_path):
    source = tmp_path / "scores.md"
    md = create_parser()
    body = render_page(md, parse_page(md, source, "scores", LESSON, content_root=tmp_path))
    assert body.count("<math") >= 5
    assert _read(body, True) == _read(body, False)
    intro, softmax, *_ = _read(body, True)
    assert "The score is q·k/√dₖ, a row of Kᵀ and a/b." in "".join(intro["text"])
    assert softmax["heading"] == "Softmax of sⱼ"


def test_a_formula_is_read_once_for_every_page_that_writes_it(tmp_path):
    md = create_parser()
    bodies = [
        render_page(md, parse_page(md, tmp_path / f"{n}.md", str(n), LESSON, content_root=tmp_path)) for n in range(3)
    ]
    search_sections._math_text.cache_clear()
    for body in bodies:
        search_sections._sections_of.__wrapped__(body)
    info = search_sections._math_text.cache_info()
    assert info.misses and info.hits == 2 * info.misses
