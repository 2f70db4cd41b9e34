"""Links between pages (site_builder/structure/links.py): a link to a lesson's .md file
becomes its page's address, across section folders too and for a non-ASCII name written
or percent-encoded; a link may land on any id the page writes (a heading, figure,
equation, exercise or {#id}) or on a file the site copies; and a link that leads
nowhere is an error at its line and column, with the previous site kept."""
from __future__ import annotations

import pytest

from explorables.site_builder.commands.build import build_site
from explorables.site_builder.errors import BuildError
from author_site import fails_with
from sections_site import make_site
from test_build import write

INDEX = "---\ntitle: Part\n---\nA section.\n"
LESSON = "---\ntitle: A lesson\n---\nSome words.\n"

LINK_MISTAKES = {
    "link to a missing lesson": ({"02-b.md": b"See [the first](01-a.md) and\n[the third](03-c.md).\n"}, [
        "content/02-b.md:2:13: the link '03-c.md' names no lesson", "    lessons: 01-a.md, 02-b.md"]),
    "link to a missing anchor": ({"02-b.md": b"## Part one\n\nSee [it](01-a.md#nope) and [here](#part-two).\n"}, [
        "content/02-b.md:3:10: the link '01-a.md#nope' names no heading or figure 'nope' in 01-a.md",
        "    ids on that page: none",
        "content/02-b.md:3:35: the link '#part-two' names no heading or figure 'part-two' in 02-b.md",
        "    did you mean '#part-one'? ids on that page: part-one"]),
    # other links within the site: checked against the files the site writes
    "link to a lesson's page by its file name": ({"02-b.md": b"Back to [the first](01-a.html).\n"}, [
        "content/02-b.md:1:21: the link '01-a.html' leads to no page or file of the site",
        "    the lesson 01-a.md is written as a.html: link its file, [...](01-a.md), and the build writes the "
        "page's address"]),
    "link to a section's lesson by its file name": ({
        "basics/index.md": b"---\ntitle: Basics\n---\n\nThe basics.\n",
        "basics/01-scores.md": b"---\ntitle: Scores\n---\n\nBack to [the top](../01-a.html).\n",
        "02-b.md": b"See [scores](basics/01-scores.html).\n"}, [
        "content/basics/01-scores.md:5:19: the link '../01-a.html' leads to no page or file of the site",
        "    the lesson ../01-a.md is written as ../a.html: link its file, [...](../01-a.md), and the build writes "
        "the page's address",
        "content/02-b.md:1:14: the link 'basics/01-scores.html' leads to no page or file of the site",
        "    the lesson basics/01-scores.md is written as basics/scores.html: link its file, "
        "[...](basics/01-scores.md), and the build writes the page's address"]),
    "the same broken link twice on a line": ({"02-b.md": b"See [one](#nope) and [two](#nope).\n"}, [
        "content/02-b.md:1:11: the link '#nope' names no heading or figure 'nope' in 02-b.md",
        "content/02-b.md:1:28: the link '#nope' names no heading or figure 'nope' in 02-b.md"]),
    "link to a file that is not there": ({"02-b.md": b"The [handout](files/handot.pdf), [x](nope.html).\n",
                                          "files/handout.pdf": b"%PDF"}, [
        "content/02-b.md:1:15: the link 'files/handot.pdf' leads to no page or file of the site",
        "    did you mean 'files/handout.pdf'? link a lesson by its .md file, or put the file in a folder of "
        "content/ (it is copied as it is)",
        "content/02-b.md:1:38: the link 'nope.html' leads to no page or file of the site",
        "    link a lesson by its .md file, or put the file in a folder of content/ (it is copied as it is)"]),
    "a link with no text to an id the page lacks": ({"02-b.md": b"Before\nsee [](#nope) here.\n"}, [
        "content/02-b.md:2:8: the link '#nope' names no heading or figure 'nope' in 02-b.md",
        "1 error; the previous site was left as it was."]),
}


@pytest.mark.parametrize("case", list(LINK_MISTAKES), ids=list(LINK_MISTAKES))
def test_every_link_mistake_names_its_place_and_keeps_the_previous_site(one_lesson_site, capsys, case):
    content, out = one_lesson_site
    fails_with(content, out, capsys, *LINK_MISTAKES[case])


def test_links_to_lessons_become_page_urls(one_lesson_site):
    content, out = one_lesson_site
    write(content, {"02-b.md": "---\norder: 2\n---\n## Part one\n\n[back](01-a.md), [here](#part-one), "
                               "[there](./02-b.md#part-one), [web](https://example.org/x.md).\n"})
    build_site(content, out)
    html = (out / "b.html").read_text()
    assert '<a href="a.html">back</a>' in html and '<a href="#part-one">here</a>' in html
    assert '<a href="b.html#part-one">there</a>' in html and 'href="https://example.org/x.md"' in html


def test_a_link_may_land_on_an_equation_an_exercise_an_attribute_id_and_a_file(one_lesson_site):
    """Pins a bug: the link check knew headings and figures only, and refused a link to
    an equation's label, an exercise's :name: or a {#id} that the page writes."""
    content, out = one_lesson_site
    write(content / "files", {"handout.txt": "notes\n"})
    (content / "02-b.md").write_text(
        "$$ x = 1 $$ (one)\n\n:::{exercise} scaled-score\n:name: drill\n:::\n\n"
        "See [it](#one), [](#one), [the drill](#drill), [a word]{#word} [back](#word), "
        "[notes](files/handout.txt) and [the first](01-a.md).\n")
    build_site(content, out)
    page = (out / "b.html").read_text()
    for ident in ("one", "drill", "word"):
        assert f'id="{ident}"' in page and f'href="#{ident}"' in page
    assert 'href="files/handout.txt"' in page and 'href="a.html"' in page and (out / "files" / "handout.txt").exists()
    assert '<a href="#one" class="ex-ref">(1)</a>' in page  # an empty link takes the equation's number


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The sections site (tests/sections_site.py), built once."""
    folder = tmp_path_factory.mktemp("sections")
    content = make_site(folder)
    site = folder / "_site"
    result = build_site(content, site)
    return content, site, result


def test_links_between_lessons_follow_the_folders(built):
    _, site, _ = built
    assert 'href="basics/softmax.html#why"' in (site / "intro.html").read_text()
    scores = (site / "basics" / "scores.html").read_text()
    assert 'href="../intro.html"' in scores and 'src="img/dot.svg"' in scores
    assert 'href="scores.html"' in (site / "basics" / "softmax.html").read_text()


def test_a_broken_link_across_folders_is_an_error_at_its_place(tmp_path):
    content = make_site(tmp_path)
    (content / "basics" / "01-scores.md").write_text("---\ntitle: Scores\n---\nSee [heads](../advanced/01-head.md).\n")
    with pytest.raises(BuildError) as err:
        build_site(content, tmp_path / "_site")
    assert "content/basics/01-scores.md:4:13: the link '../advanced/01-head.md' names no lesson" in str(err.value)


@pytest.mark.parametrize("link", ["01-übung.md", "01-%C3%BCbung.md", "übung.html", "%C3%BCbung.html"])
def test_non_ascii_pages_are_linked_as_written_or_encoded_and_encoded_in_the_sitemap(tmp_path, link):
    content = make_site(tmp_path)
    (content.parent / "site.yml").write_text("title: Sections\nurl: https://example.org/s/\n", encoding="utf-8")
    (content / "größen").mkdir()
    (content / "größen" / "index.md").write_text(INDEX + f"\nOn to [the lesson]({link}).\n", encoding="utf-8")
    (content / "größen" / "01-übung.md").write_text(LESSON, encoding="utf-8")
    build_site(content, tmp_path / "out")
    encoded = "https://example.org/s/gr%C3%B6%C3%9Fen/%C3%BCbung.html"
    assert f"  <url><loc>{encoded}</loc></url>\n" in (tmp_path / "out" / "sitemap.xml").read_text(encoding="utf-8")
    lesson = (tmp_path / "out" / "größen" / "übung.html").read_text(encoding="utf-8")
    assert f'<link rel="canonical" href="{encoded}">' in lesson
