"""Figures numbered across a site (site.yml ``numbering: site``) or per lesson, checked
against a small site in tests/fixtures/numbering/. (The math errors of
tests/fixtures/errors/ are tested in test_math_mistakes.py.)"""
from __future__ import annotations

import re
import shutil

import pytest

from explorables.site_builder.commands.build import build_site
from explorables.site_builder.structure.config import load_config
from explorables.site_builder.errors import BuildError
from figure_helpers import ROOT

FIXTURES = ROOT / "tests" / "fixtures"


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


def test_site_numbering_walks_into_sections_and_references_climb_out(site, tmp_path):
    part = site / "part"
    part.mkdir()
    (part / "index.md").write_text("---\ntitle: Part\norder: 3\n---\n\n# Part\n\nA section.\n", encoding="utf-8")
    (part / "01-third.md").write_text("---\ntitle: Third\norder: 1\n---\n\nBack to {numref}`../01-first.md#one`."
                                      "\n\n:::{attention-row} four\n:caption: In a section.\n:::\n", encoding="utf-8")
    build_site(site, tmp_path / "_site")
    third = (tmp_path / "_site" / "part" / "third.html").read_text(encoding="utf-8")
    assert numbers(third) == {"captions": ["Figure 4."], "refs": ["../first.html#one: Figure 1"]}
