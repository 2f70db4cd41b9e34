"""Hostile and broken input: nothing from outside content/ is published, every mistake is
a message with path:line (never a traceback), nothing is silently mis-built, and every
failed build leaves the previous site byte for byte."""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from explorables.site_builder.commands import build as build_module
from explorables.site_builder.output.assets import names_in
from explorables.site_builder.commands.build import build_site
from explorables.site_builder.commands.cli import main
from explorables.site_builder.errors import BuildError

from test_build import tree_digest, write

LESSON = "---\ntitle: A\norder: 1\n---\nText.\n"


@pytest.fixture
def site(tmp_path):
    """A content folder with one good lesson, already built once."""
    content = write(tmp_path / "content", {"01-a.md": LESSON})
    out = tmp_path / "_site"
    build_site(content, out)
    return content, out


def failed(content: Path, out: Path, capsys) -> str:
    """Build through the command line; assert exit 1 and the previous site untouched;
    return what was printed."""
    before = tree_digest(out)
    code = main(["build", str(content), "-o", str(out)])
    err = capsys.readouterr().err
    assert code == 1, err
    assert "Traceback" not in err
    assert tree_digest(out) == before
    return err.removeprefix("error: ")


# 1. Nothing from outside the content folder is published.

def test_a_lesson_linked_from_outside_is_refused(site, tmp_path, capsys):
    """Pins a bug: a lesson that was a symlink to a file outside content/ was published."""
    content, out = site
    secret = write(tmp_path / "outside", {"secret.md": "token: hunter2\n"}) / "secret.md"
    (content / "02-secret.md").symlink_to(secret)
    assert failed(content, out, capsys) == (
        f"content/02-secret.md: 02-secret.md is a symbolic link to {secret}, which is outside the content folder; "
        f"the build publishes nothing from outside it\n"
        f"    copy the file into the content folder instead of linking to it\n"
        f"1 error; the previous site was left as it was.\n")


def test_linked_asset_files_and_folders_from_outside_are_refused(site, tmp_path, capsys):
    """Pins a bug: a symlinked file or folder among the assets was copied with its contents."""
    content, out = site
    outside = write(tmp_path / "outside", {"id_rsa": "KEY\n"})
    write(content / "images", {"a.txt": "fine\n"})
    (content / "images" / "key").symlink_to(outside / "id_rsa")
    (content / "keys").symlink_to(outside)
    assert failed(content, out, capsys).splitlines() == [
        f"content/images/key: key is a symbolic link to {outside / 'id_rsa'}, which is outside the content folder; "
        f"the build publishes nothing from outside it",
        "    copy the file into the content folder instead of linking to it",
        f"content/keys: keys is a symbolic link to {outside}, which is outside the content folder; "
        f"the build publishes nothing from outside it",
        "    copy the file into the content folder instead of linking to it",
        "2 errors; the previous site was left as it was."]
    assert not any("KEY" in p.read_text(errors="ignore") for p in out.rglob("*") if p.is_file() and p.stat().st_size < 10**5)


def test_links_that_stay_inside_the_content_folder_are_followed(site):
    content, out = site
    write(content / "images", {"a.txt": "picture\n"})
    (content / "images" / "b.txt").symlink_to(content / "images" / "a.txt")
    (content / "02-b.md").symlink_to(content / "01-a.md")
    build_site(content, out)
    assert (out / "images" / "b.txt").read_text() == "picture\n"
    assert "<p>Text.</p>" in (out / "b.html").read_text()


def test_a_link_may_land_on_an_equation_an_exercise_an_attribute_id_and_a_file(site):
    """Pins a bug: the link check knew headings and figures only, and refused a link to
    an equation's label, an exercise's :name: or a {#id} that the page writes."""
    content, out = site
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


def test_a_link_loop_among_the_assets_is_an_error(site, capsys):
    content, out = site
    write(content / "images", {"a.txt": "x\n"})
    (content / "images" / "again").symlink_to(content / "images")
    assert failed(content, out, capsys).splitlines()[0] == (
        f"content/images/again: again is a symbolic link to {content / 'images'}, a folder that holds the link itself")


# 2. Strict CSP: no style attributes, a policy on every page, configurable.

def test_table_alignment_is_classes_and_every_page_carries_the_policy(site):
    content, out = site
    (content / "01-a.md").write_text(LESSON + "\n| a | b | c |\n|:--|:-:|--:|\n| 1 | 2 | 3 |\n")
    build_site(content, out)
    html = (out / "a.html").read_text()
    assert "style=" not in html
    assert '<th class="ex-align-left">a</th>' in html and '<td class="ex-align-center">2</td>' in html
    assert '<td class="ex-align-right">3</td>' in html
    for page in ("a.html", "index.html"):
        assert ('<meta http-equiv="Content-Security-Policy" content="default-src &#39;self&#39;; script-src '
                "&#39;self&#39; &#39;wasm-unsafe-eval&#39;; worker-src &#39;self&#39; blob:;") in (out / page).read_text()
    (content / "site.yml").write_text("csp: \"default-src 'none'\"\n")
    build_site(content, out)
    assert '<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;">' in (out / "a.html").read_text()
    (content / "site.yml").write_text('csp: ""\n')
    build_site(content, out)
    assert "Content-Security-Policy" not in (out / "a.html").read_text()


# 3-6. Every author mistake is a message with its place, never a traceback.

ERROR_CASES = {
    "lesson not UTF-8": ({"02-b.md": b"---\ntitle: B\n---\nCaf\xe9 au lait\n"}, [
        "content/02-b.md:4:4: the file is not UTF-8 text (byte 0xe9 cannot be read)",
        "    save it as UTF-8 in your editor (e.g. iconv -f latin1 -t utf-8 FILE > NEW)"]),
    "site.yml not UTF-8": ({"site.yml": b"title: Caf\xe9\n"}, [
        "content/site.yml:1:11: the file is not UTF-8 text (byte 0xe9 cannot be read)"]),
    "site.yml a folder": ({"site.yml/x": b""}, [
        "content/site.yml: site.yml is a folder, but its name makes it a site config",
        "    rename the folder (e.g. site/) or move it out of the content folder"]),
    "a folder named like a lesson": ({"02-x.md/notes.txt": b""}, [
        "content/02-x.md: 02-x.md is a folder, but its name makes it a lesson",
        "    rename the folder (e.g. 02-x/) or move it out of the content folder"]),
    "a folder named like a page": ({"a.html/x.png": b""}, [
        "content/a.html: the folder a.html has the name of a page of the site", "    rename the folder"]),
    "unclosed question": ({"02-b.md": b"Intro.\n\n::::{question} Why?\nBecause.\n\n## Next part\n\nMore.\n"}, [
        "content/02-b.md:3:1: the {question} block opened here is never closed, so it would hold the rest "
        "of the lesson",
        "    end it with a line '::::'; a block inside it needs fewer colons than the block around it "
        "(e.g. '::::{question}' around ':::{attention-row}')"]),
    "inner fence closes the outer block": (
        {"02-b.md": b":::{question} Why?\n:::{attention-row} x\n:::\n:::\n\n## After\n"}, [
            "content/02-b.md:2:1: the {attention-row} block opened here is never closed: the fence on line 3 "
            "closed the {question} block of line 1 around it first",
            "    give the outer block more colons than the inner one: '::::{question} Why?' ... '::::' around "
            "':::{attention-row} x' ... ':::'",
            "1 error; the previous site was left as it was."]),  # the fence left over says nothing more
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
    "an equation label given twice": ({"02-b.md": b"$$ x = 1 $$ (one)\n\nText.\n\n$$ y = 2 $$ (one)\n"}, [
        "content/02-b.md:5:13: the equation label 'one' is already the id of the equation on line 1 on this page",
        "    give the equation a label of its own: a link or {eq} to it would land on the other"]),
    "an attribute id that is a figure's or given twice": (
        {"02-b.md": b":::{attention-row} fig\n:::\n\nSee [this]{#fig} and [that]{#here}, [again]{#here}.\n"}, [
            "content/02-b.md:4:11: the id 'fig' is already the id of a figure on this page",
            "    give it an id of its own: a link to it would land on the other",
            "content/02-b.md:4:44: the id 'here' is already the id of the {#here} on line 4 on this page"]),
    "an image that is not there, inside a paragraph": (
        {"02-b.md": b"A paragraph\nwith ![a picture](img/none.png) in it.\n\n- item\n- and ![b](img/no.png)\n"}, [
            "content/02-b.md:2:19: image 'img/none.png' does not exist",
            "    the path is relative to this Markdown file, e.g. img/attention.png",
            "content/02-b.md:5:12: image 'img/no.png' does not exist"]),
    "a link with no text to an id the page lacks": ({"02-b.md": b"Before\nsee [](#nope) here.\n"}, [
        "content/02-b.md:2:8: the link '#nope' names no heading or figure 'nope' in 02-b.md",
        "1 error; the previous site was left as it was."]),
    "an option written short": ({"02-b.md": b":::{attention-row} r\n:temp: 2\n:::\n\nMove {adjust}`r.temp`.\n"}, [
        "content/02-b.md:2:2: {attention-row} r: unknown option 'temp'; did you mean 'temperature'? (known options: "
        "tokens, query, temperature, causal, queries, keys, values)"]),
    "an empty front matter key": ({"02-b.md": b"---\ntitle:\norder: 2\n---\n\nText.\n"}, [
        "content/02-b.md:2:7: front matter 'title' is empty"]),
    "an empty site.yml key": ({"site.yml": b"title:\n"}, ["content/site.yml:1:1: key 'title' is empty"]),
    "an exercise with no type": ({"02-b.md": b":::{exercise}\n:::\n"}, [
        "content/02-b.md:1:15: {exercise}: no exercise type after {exercise}"]),
    "repeated figure ids": ({"02-b.md": b":::{attention-row} fig\n:::\n\n:::{attention-row} fig\n:::\n"}, [
        "content/02-b.md:4:20: {attention-row}: figure id 'fig' is used twice on this page",
        "    give each figure its own id",
        "1 error; the previous site was left as it was."]),
    "alias bomb": ({"02-b.md": (b"---\na: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
                                b"c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n---\n")}, [
        "content/02-b.md:3:8: front matter is not valid YAML: aliases (*name) are not allowed; write the value out"]),
    # YAML notices these a line or more past the mistake: the message points at it
    "unclosed quote": ({"02-b.md": b'---\ntitle: "Part two\norder: 2\n---\n'}, [
        "content/02-b.md:2:8: front matter is not valid YAML: a quoted value is never closed",
        "    end it with the same quote mark it starts with, on the same line"]),
    "key without a colon": ({"site.yml": b"title: T\nlanguage en\nauthor: A\n"}, [
        "content/site.yml:2:1: site.yml is not valid YAML: this line has no ':' after its key",
        "    write `key: value`"]),
    "key without a colon, the next line a key": ({"02-b.md": b"---\ntitle Part two\norder: 2\n---\n"}, [
        "content/02-b.md:2:1: front matter is not valid YAML: this line has no ':' after its key"]),
    "a quote YAML reads on into later lines": (
        {"site.yml": b'title: "Mysite\n\n# The author.\nauthor: ""\nlanguage: "en"\n'}, [
            "content/site.yml:1:8: site.yml is not valid YAML: a quoted value is never closed"]),
    "unclosed list": ({"02-b.md": b"---\ntitle: [a, b\norder: 2\n---\n"}, [
        "content/02-b.md:2:8: front matter is not valid YAML: a '[' list is never closed", "    end it with ']'"]),
    "a colon in a value": ({"02-b.md": b"---\ntitle: Attention: a primer\n---\n"}, [
        "content/02-b.md:2:17: front matter is not valid YAML: the value holds ': ', which YAML reads as another key",
        '    put the value in quotes: title: "..."']),
    "a key given twice": ({"site.yml": b"title: One\nauthor: A\ntitle: Two\n"}, [
        "content/site.yml:3:1: site.yml is not valid YAML: 'title' is given twice; YAML would keep this one",
        "    keep one of them"]),
    "deep YAML": ({"site.yml": b"title: " + b"[" * 3000 + b"]" * 3000 + b"\n"}, [
        "content/site.yml:1:27: site.yml is not valid YAML: values nest more than 20 levels deep"]),
    "nested underbrace": ({"02-b.md": b"Math $" + b"\\underbrace{" * 300 + b"x" + b"}" * 300 + b"$.\n"}, [
        "content/02-b.md:1:6: the TeX '" + "\\underbrace{" * 5 + "…' (3901 characters) nests groups "
        "300 deep; at most 40 are allowed"]),
    "a long option value": ({"02-b.md": b":::{attention-row} x\n:temperature: " + b"9" * 10000 + b"x\n:::\n"}, [
        f"content/02-b.md:2:15: {{attention-row}} x: option 'temperature': expected a number from 0.05 to 5, got "
        f"'{'9' * 60}…' (10001 characters)"]),
}


@pytest.mark.parametrize("case", list(ERROR_CASES), ids=list(ERROR_CASES))
def test_every_error_path_names_the_place_and_keeps_the_previous_site(site, capsys, case):
    content, out = site
    files, expected = ERROR_CASES[case]
    for name, data in files.items():
        path = content / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if not name.endswith("/x") or data:
            path.write_bytes(data)
    printed = failed(content, out, capsys)
    lines = printed.splitlines()
    for expect in expected:
        if isinstance(expect, bytes):
            expect = expect.decode()
        assert expect.replace("\u2026", "…") in lines, f"{expect!r} not in {lines}"
    assert all(len(line) <= 500 for line in lines)


def test_a_dangling_lesson_link_is_an_error(site, capsys):
    content, out = site
    (content / "03-gone.md").symlink_to("/nowhere/gone.md")
    assert failed(content, out, capsys).splitlines()[:2] == [
        "content/03-gone.md: 03-gone.md is a symbolic link to /nowhere/gone.md, which does not exist",
        "    remove the link, or point it at a file inside the content folder"]


def test_an_unexpected_exception_is_an_internal_error_with_exit_2(site, capsys, monkeypatch):
    content, out = site
    before = tree_digest(out)

    def broken(md, page):
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(build_module, "render_page", broken)
    assert main(["build", str(content), "-o", str(out)]) == 2
    assert capsys.readouterr().err == ("error: internal error while building content/01-a.md: ZeroDivisionError: "
                                       "division by zero (please report); the previous site was left as it was.\n")
    assert tree_digest(out) == before


def test_a_file_gone_while_building_is_no_internal_error(site, capsys, monkeypatch):
    """A lesson listed, then moved away before it is read (`git checkout` under `serve`):
    exit 1 and a plain message, not "please report"."""
    content, out = site

    def gone(md, page):
        raise FileNotFoundError(2, "No such file or directory", str(page.path))

    monkeypatch.setattr(build_module, "render_page", gone)
    assert failed(content, out, capsys) == ("content/01-a.md went missing while the site was built (moved or deleted "
                                            "meanwhile); build again. The previous site was left as it was.\n")


def test_content_assets_is_an_author_folder_like_any_other(site):
    """Pins a bug: content/assets/ failed the build with FileExistsError."""
    content, out = site
    write(content / "assets", {"pic.svg": "<svg/>"})
    build_site(content, out)
    assert (out / "assets" / "pic.svg").read_text() == "<svg/>"
    core = names_in(out)["js/explorables.js"]
    assert (out / "_explorables" / core).is_file() and (out / ".nojekyll").is_file()
    assert f'src="_explorables/{core}"' in (out / "a.html").read_text()


# 7-14. No silent mis-builds.

def test_a_byte_order_mark_does_not_hide_the_front_matter(site):
    content, out = site
    (content / "01-a.md").write_bytes("\ufeff---\ntitle: With a BOM\n---\nText.\n".encode())
    build_site(content, out)
    html = (out / "a.html").read_text()
    assert "<h1>With a BOM</h1>" in html and "title:" not in html


def test_front_matter_without_its_opening_dashes_is_warned(site, capsys):
    content, out = site
    (content / "01-a.md").write_text("title: Lost\norder: 1\n---\nText.\n")
    assert main(["build", str(content), "-o", str(out)]) == 0
    assert capsys.readouterr().err == (
        "warning: content/01-a.md:1:1: 'title:' looks like front matter, but the file does not start with '---', "
        "so it is shown as text\n    put a line '---' above it and another below the last `key: value` line\n")


def test_front_matter_without_its_closing_dashes_is_an_error(site, capsys):
    content, out = site
    (content / "01-a.md").write_text("---\ntitle: Lost\norder: 1\nsummary: x\nText.\n")
    assert main(["build", str(content), "-o", str(out)]) == 1
    assert capsys.readouterr().err.startswith(
        "error: content/01-a.md:1:1: the front matter opened here is not closed, so it is shown as text and the "
        "page has no title of its own\n    put a line '---' below its last `key: value` line (line 4)\n")


def test_links_to_lessons_become_page_urls(site):
    content, out = site
    write(content, {"02-b.md": "---\norder: 2\n---\n## Part one\n\n[back](01-a.md), [here](#part-one), "
                               "[there](./02-b.md#part-one), [web](https://example.org/x.md).\n"})
    build_site(content, out)
    html = (out / "b.html").read_text()
    assert '<a href="a.html">back</a>' in html and '<a href="#part-one">here</a>' in html
    assert '<a href="b.html#part-one">there</a>' in html and 'href="https://example.org/x.md"' in html


def test_dollars_for_money_stay_text(site):
    content, out = site
    (content / "01-a.md").write_text(LESSON + "\nIt costs $5 and $x, or \\$3; but $x^2$ is math.\n")
    build_site(content, out)
    html = (out / "a.html").read_text()
    assert "It costs $5 and $x, or $3; but <math" in html
    assert html.count("<math") == 1


def test_two_lessons_with_one_order_are_warned(site):
    content, out = site
    write(content, {"02-b.md": "---\ntitle: B\norder: 1\n---\nB.\n"})
    result = build_site(content, out)
    assert result.warnings == [
        "content/02-b.md:3:1: order 1 is also the order of 01-a.md; 01-a.md comes first (by page name)\n"
        "    give each lesson its own order"]


def test_a_figure_id_that_is_a_heading_is_reported_once(site, capsys):
    """Pins a bug: two figures with one id (no heading at all) were reported as a heading
    clash, twice."""
    content, out = site
    write(content, {"02-b.md": "## Fig\n\n:::{attention-row} fig\n:::\n"})
    lines = failed(content, out, capsys).splitlines()
    assert lines == ["content/02-b.md:3:1: figure id 'fig' is also the id of a heading on this page",
                     "    give the figure another id (the word after the directive name)",
                     "1 error; the previous site was left as it was."]


# The property: any Markdown at all gives exit 0 or 1, short messages, no traceback.

PIECES = st.sampled_from([
    "---\n", "title: T\n", "order: 2\n", "order: x\n", "a: &a [1]\nb: *a\n", ":::{attention-row} f\n",
    ":::{attention-row}\n", "::::{question} Q?\n", ":::{question}\n", ":::\n", "::::\n", ":::{nope} x\n",
    ":temperature: 2\n", ":temperature: hot\n", ":query: cat\n", "```\n", "~~~python\n", "$$\n", "$x^2$ ",
    "$\\frac{a}{$ ", "$5 and $x ", "\\$ ", "## Head\n", "[l](other.md) ", "[l](01-a.md#x) ", "| a | b |\n|:-|-:|\n",
    "\n", "text ", "\ufeff", "<b>x</b> ", "\\underbrace{" * 50, "}" * 20, "\t", "é", "[^1]\n\n[^1]: n\n",
])


@pytest.fixture
def light_site(tmp_path, monkeypatch):
    """A site built without Pyodide's 17 MB (the property is about Markdown), so that
    each example takes a few milliseconds."""
    monkeypatch.setattr(build_module.pyodide, "vendor", lambda dest, source=None: None)
    content = write(tmp_path / "content", {"01-a.md": LESSON})
    out = tmp_path / "_site"
    build_site(content, out)
    return content, out


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(PIECES, max_size=25), st.text(max_size=30))
def test_any_markdown_builds_or_fails_cleanly(light_site, capsys, pieces, noise):
    content, out = light_site
    before = tree_digest(out)
    (content / "02-b.md").write_text("".join(pieces) + noise, encoding="utf-8", errors="surrogatepass")
    try:
        code = main(["build", str(content), "-o", str(out)])
    except BaseException as err:  # noqa: BLE001 - a traceback is the failure this test looks for
        pytest.fail(f"the build raised {type(err).__name__}: {err}")
    printed = capsys.readouterr()
    assert code in (0, 1), printed.err
    assert "Traceback" not in printed.err
    assert all(len(line) <= 500 for line in printed.err.splitlines())
    if code == 1:
        assert tree_digest(out) == before


def test_a_bundle_policy_allows_blob_scripts_and_fetches_and_nothing_more(tmp_path):
    """An offline bundle's Blob worker inherits the page's policy and imports Pyodide from
    Blob URLs: blob: is added to script-src and connect-src, and only there."""
    content = write(tmp_path / "content", {"01-a.md": LESSON})
    build_site(content, tmp_path / "_site", bundle=True)
    html = (tmp_path / "_site" / "a.html").read_text().replace("&#39;", "'")
    policy = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', html).group(1)
    assert policy == ("default-src 'self'; script-src 'self' 'wasm-unsafe-eval' blob:; worker-src 'self' blob:; "
                      "style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self' blob:; "
                      "object-src 'none'; base-uri 'none'")


def test_figures_from_outside_the_site_folder_are_never_run(site, tmp_path, capsys):
    """An author's figures are Python that the build runs: a figures folder, or a module in
    it, that leads out of the site folder is refused before anything is imported."""
    content, out = site
    outside = write(tmp_path.parent / f"{tmp_path.name}-elsewhere", {"evil.py": "raise SystemExit('ran')\n"})
    (content.parent / "figures").mkdir()
    (content.parent / "figures" / "evil.py").symlink_to(outside / "evil.py")
    assert failed(content, out, capsys).splitlines()[0] == (
        f"figures/evil.py: evil.py is a symbolic link to {outside / 'evil.py'}, which is outside the site folder; "
        f"the build publishes nothing from outside it")
    (content.parent / "figures" / "evil.py").unlink()
    (content / "site.yml").write_text(f"figures: ../{outside.name}\n")
    assert failed(content, out, capsys).splitlines()[:2] == [  # said at the line that names the folder
        f"content/site.yml:1:10: figures: {outside.name} is outside the site folder (it is {outside}); the build "
        f"reads nothing from outside it", "    move it into the site folder"]


def test_a_long_hint_is_cut_between_words_and_keeps_what_to_do():
    """Pins an author's finding: the list of known directives was cut mid-word and took
    its last clause with it ("…, tip, warning; `expl…")."""
    from explorables.site_builder.errors import MESSAGE_LIMIT, SourceError
    names = ", ".join(f"figure-number-{i}" for i in range(40))
    hint = f"known directives: {names}; `explorables figures` lists every figure and its options"
    shown = SourceError("a.md", 1, 1, "unknown directive '{x}'", hint).format().split("\n    ")[1]
    assert len(shown) <= MESSAGE_LIMIT
    assert shown.endswith("…; `explorables figures` lists every figure and its options")
    assert shown.split("…")[0].endswith(tuple("0123456789"))  # a whole name before the cut


def test_a_site_yml_inside_content_beside_the_one_read_is_named(site, capsys):
    content, out = site
    (content.parent / "site.yml").write_text('title: "Outer"\n')
    (content / "site.yml").write_text('title: "Inner"\n')
    assert main(["build", str(content), "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert ("warning: content/site.yml:1:1: this site.yml is not read: the one beside the content folder is\n"
            "    move what it says into that one, and delete this one") in err
    assert "<title>" in (out / "index.html").read_text() and "Outer" in (out / "index.html").read_text()


def test_names_starting_with_a_dot_or_underscore_are_not_lessons(site):
    """Pins an author's finding: `content/.draft.md` was published as a lesson, and an
    editor's lock file (a link to nowhere named `.#01-a.md`) stopped the build."""
    content, out = site
    (content / ".draft.md").write_text("---\ntitle: Secret draft\n---\n\nNot yet.\n")
    (content / "_aside.md").write_text("---\ntitle: Put aside\n---\n\nLater.\n")
    (content / ".#01-a.md").symlink_to("author@laptop.4242:1700000000")
    write(content / "images", {"a.txt": "picture\n", ".DS_Store": "junk", ".#a.txt": "lock"})
    build_site(content, out)
    assert not (out / ".draft.html").exists() and not (out / "_aside.html").exists()
    assert "Secret draft" not in (out / "a.html").read_text() and "Put aside" not in (out / "a.html").read_text()
    assert sorted(p.name for p in (out / "images").iterdir()) == ["a.txt"]


def test_serve_watches_links_and_leaves_dot_files_out(tmp_path):
    from explorables.site_builder.commands.serve import snapshot

    write(tmp_path / "content", {"01-a.md": "x", ".swp": "y"})
    write(tmp_path / "content" / ".git", {"HEAD": "z"})
    (tmp_path / "content" / "gone.md").symlink_to(tmp_path / "nowhere.md")
    (tmp_path / "content" / ".#01-a.md").symlink_to("author@laptop")
    stamps = snapshot([tmp_path / "content"])
    assert sorted(Path(p).name for p in stamps) == ["01-a.md", "gone.md"]
