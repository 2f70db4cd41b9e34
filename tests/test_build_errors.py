"""Every author mistake is a message with its place (path:line:col and what to do),
never a traceback, and a failed build leaves the previous site byte for byte: the
mistakes of blocks, images and options (those of links, ids, files, YAML and TeX are
tested with their feature), an internal error (exit 2), a file gone while building, a
long hint cut between words, and any Markdown at all (a property)."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from explorables.site_builder.commands import build as build_module
from explorables.site_builder.commands import build_write
from explorables.site_builder.commands.build import build_site
from explorables.site_builder.commands.cli import main
from author_site import ONE_LESSON as LESSON, failed, fails_with
from test_build import tree_digest, write

ERROR_CASES = {
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
    "an image that is not there, inside a paragraph": (
        {"02-b.md": b"A paragraph\nwith ![a picture](img/none.png) in it.\n\n- item\n- and ![b](img/no.png)\n"}, [
            "content/02-b.md:2:19: image 'img/none.png' does not exist",
            "    the path is relative to this Markdown file, e.g. img/attention.png",
            "content/02-b.md:5:12: image 'img/no.png' does not exist"]),
    "an option written short": ({"02-b.md": b":::{attention-row} r\n:temp: 2\n:::\n\nMove {adjust}`r.temp`.\n"}, [
        "content/02-b.md:2:2: {attention-row} r: unknown option 'temp'; did you mean 'temperature'? (known options: "
        "tokens, query, temperature, causal, queries, keys, values)"]),
    "an exercise with no type": ({"02-b.md": b":::{exercise}\n:::\n"}, [
        "content/02-b.md:1:15: {exercise}: no exercise type after {exercise}"]),
    # the engine's message quotes several values; the words between two of them were taken
    # for one long value and clipped ("... each, l…' (64 characters)0.5,1; -1,0.2'")
    "an engine message quoting several values": (
        {"02-b.md": b":::{attention-row} x\n:tokens: the cat sat\n:query: cat\n:::\n"}, [
            "content/02-b.md:1:1: {attention-row} x: option 'queries': the built-in vectors fit only the sentence "
            "'The cat chased the mouse .'; for 'the cat sat' add :queries:, :keys: and :values: with 3 x,y pairs "
            "each, like '0.5,1; -1,0.2'"]),
    # saved with another ending, a lesson was left out of the site without a word
    "a lesson not ending in .md": ({"02-b.markdown": b"# B\n", "sub/index.md": b"# Sub\n", "sub/03-c.MD": b"# C\n"}, [
        "content/02-b.markdown: the file '02-b.markdown' is not read as a lesson: only a name ending in '.md' is",
        "    rename it to 02-b.md, or move it out of content/ if it is no lesson",
        "content/sub/03-c.MD: the file '03-c.MD' is not read as a lesson: only a name ending in '.md' is",
        "    rename it to 03-c.md, or move it out of sub/ if it is no lesson"]),
    # the Markdown reads an unclosed $$ as text: the page showed "$$ a+b"
    "a display formula never closed": ({"02-b.md": b"Text.\n\n$$\na+b\n\nMore, with \\$\\$ and `$$`.\n"}, [
        "content/02-b.md:3:1: this $$ opens a display formula that is never closed",
        "    end the formula with $$ (a display formula may span lines, but no blank line); write \\$\\$ for two "
        "dollar signs",
        "1 error; the previous site was left as it was."]),
    "a long option value": ({"02-b.md": b":::{attention-row} x\n:temperature: " + b"9" * 10000 + b"x\n:::\n"}, [
        f"content/02-b.md:2:15: {{attention-row}} x: option 'temperature': expected a number from 0.05 to 5, got "
        f"'{'9' * 60}…' (10001 characters)"]),
}


@pytest.mark.parametrize("case", list(ERROR_CASES), ids=list(ERROR_CASES))
def test_every_error_path_names_the_place_and_keeps_the_previous_site(one_lesson_site, capsys, case):
    content, out = one_lesson_site
    fails_with(content, out, capsys, *ERROR_CASES[case])


def test_an_unexpected_exception_is_an_internal_error_with_exit_2(one_lesson_site, capsys, monkeypatch):
    content, out = one_lesson_site
    before = tree_digest(out)

    def broken(md, page):
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(build_module, "render_page", broken)
    assert main(["build", str(content), "-o", str(out)]) == 2
    assert capsys.readouterr().err == ("error: internal error while building content/01-a.md: ZeroDivisionError: "
                                       "division by zero (please report); the previous site was left as it was.\n")
    assert tree_digest(out) == before


def test_a_file_gone_while_building_is_no_internal_error(one_lesson_site, capsys, monkeypatch):
    """A lesson listed, then moved away before it is read (`git checkout` under `serve`):
    exit 1 and a plain message, not "please report"."""
    content, out = one_lesson_site

    def gone(md, page):
        raise FileNotFoundError(2, "No such file or directory", str(page.path))

    monkeypatch.setattr(build_module, "render_page", gone)
    assert failed(content, out, capsys) == ("content/01-a.md went missing while the site was built (moved or deleted "
                                            "meanwhile); build again. The previous site was left as it was.\n")


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
    monkeypatch.setattr(build_write.pyodide, "vendor", lambda dest, source=None: None)
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
