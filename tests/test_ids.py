"""Ids a page gives twice (site_builder/markdown/ids.py): a figure id that is also a
heading's anchor, a figure id, equation label or {#id} given twice; each is one error at
its place, with the previous site kept."""
from __future__ import annotations

import pytest

from explorables.site_builder.commands.build import build_site
from explorables.site_builder.errors import BuildError
from author_site import failed, fails_with
from test_build import write

ID_MISTAKES = {
    "an equation label given twice": ({"02-b.md": b"$$ x = 1 $$ (one)\n\nText.\n\n$$ y = 2 $$ (one)\n"}, [
        "content/02-b.md:5:13: the equation label 'one' is already the id of the equation on line 1 on this page",
        "    give the equation a label of its own: a link or {eq} to it would land on the other"]),
    "an attribute id that is a figure's or given twice": (
        {"02-b.md": b":::{attention-row} fig\n:::\n\nSee [this]{#fig} and [that]{#here}, [again]{#here}.\n"}, [
            "content/02-b.md:4:11: the id 'fig' is already the id of a figure on this page",
            "    give it an id of its own: a link to it would land on the other",
            "content/02-b.md:4:44: the id 'here' is already the id of the {#here} on line 4 on this page"]),
    "repeated figure ids": ({"02-b.md": b":::{attention-row} fig\n:::\n\n:::{attention-row} fig\n:::\n"}, [
        "content/02-b.md:4:20: {attention-row}: figure id 'fig' is used twice on this page",
        "    give each figure its own id",
        "1 error; the previous site was left as it was."]),
}


@pytest.mark.parametrize("case", list(ID_MISTAKES), ids=list(ID_MISTAKES))
def test_every_id_given_twice_names_its_place_and_keeps_the_previous_site(one_lesson_site, capsys, case):
    content, out = one_lesson_site
    fails_with(content, out, capsys, *ID_MISTAKES[case])


def test_a_figure_id_that_is_a_heading_is_reported_once(one_lesson_site, capsys):
    """Pins a bug: two figures with one id (no heading at all) were reported as a heading
    clash, twice."""
    content, out = one_lesson_site
    write(content, {"02-b.md": "## Fig\n\n:::{attention-row} fig\n:::\n"})
    lines = failed(content, out, capsys).splitlines()
    assert lines == ["content/02-b.md:3:1: figure id 'fig' is also the id of a heading on this page",
                     "    give the figure another id (the word after the directive name)",
                     "1 error; the previous site was left as it was."]


def test_a_figure_id_that_is_also_a_heading_anchor_is_an_error(tmp_path):
    """Pins a bug: the heading "Clocks" and the figure "clocks" shared id="clocks"."""
    content = write(tmp_path / "content", {"01-a.md": "## Explorer\n\n:::{attention-row} explorer\n:::\n"})
    with pytest.raises(BuildError) as info:
        build_site(content, tmp_path / "_site")
    assert str(info.value).startswith(
        "content/01-a.md:3:1: figure id 'explorer' is also the id of a heading on this page")
