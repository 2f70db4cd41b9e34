"""Front matter and site.yml, the YAML an author writes: a byte order mark hides nothing,
front matter without its opening or closing dashes is said, and every YAML mistake
(an alias, an unclosed quote or list, a missing colon, a key given twice, nesting too
deep, an empty key) is an error at the line and column of the mistake, not where YAML
noticed it, with the previous site kept."""
from __future__ import annotations

import pytest

from explorables.site_builder.commands.build import build_site
from explorables.site_builder.commands.cli import main
from author_site import fails_with

YAML_MISTAKES = {
    "an empty front matter key": ({"02-b.md": b"---\ntitle:\norder: 2\n---\n\nText.\n"}, [
        "content/02-b.md:2:7: front matter 'title' is empty"]),
    "an empty site.yml key": ({"site.yml": b"title:\n"}, ["content/site.yml:1:1: key 'title' is empty"]),
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
}


@pytest.mark.parametrize("case", list(YAML_MISTAKES), ids=list(YAML_MISTAKES))
def test_every_yaml_mistake_names_its_place_and_keeps_the_previous_site(one_lesson_site, capsys, case):
    content, out = one_lesson_site
    fails_with(content, out, capsys, *YAML_MISTAKES[case])


def test_a_byte_order_mark_does_not_hide_the_front_matter(one_lesson_site):
    content, out = one_lesson_site
    (content / "01-a.md").write_bytes("\ufeff---\ntitle: With a BOM\n---\nText.\n".encode())
    build_site(content, out)
    html = (out / "a.html").read_text()
    assert "<h1>With a BOM</h1>" in html and "title:" not in html


def test_front_matter_without_its_opening_dashes_is_warned(one_lesson_site, capsys):
    content, out = one_lesson_site
    (content / "01-a.md").write_text("title: Lost\norder: 1\n---\nText.\n")
    assert main(["build", str(content), "-o", str(out)]) == 0
    assert capsys.readouterr().err == (
        "warning: content/01-a.md:1:1: 'title:' looks like front matter, but the file does not start with '---', "
        "so it is shown as text\n    put a line '---' above it and another below the last `key: value` line\n")


def test_front_matter_without_its_closing_dashes_is_an_error(one_lesson_site, capsys):
    content, out = one_lesson_site
    (content / "01-a.md").write_text("---\ntitle: Lost\norder: 1\nsummary: x\nText.\n")
    assert main(["build", str(content), "-o", str(out)]) == 1
    assert capsys.readouterr().err.startswith(
        "error: content/01-a.md:1:1: the front matter opened here is not closed, so it is shown as text and the "
        "page has no title of its own\n    put a line '---' below its last `key: value` line (line 4)\n")
