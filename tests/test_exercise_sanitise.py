"""An author's exercise type writes its statement as HTML: the build cleans it (nh3, an
allow-list of MathML and plain text formatting, site_builder/authors/sanitise.py) before
it reaches the lesson and print.html, whatever the spelling of what it holds. A regular
expression used to look for a few spellings, and missed `<img src="x"/onerror=...>`,
`javascript:` links and `<meta http-equiv="refresh">`."""
from __future__ import annotations

import json
import re

import pytest

from explorables.engine.exercises import EXERCISES
from explorables.site_builder.authors import loader as authors
from explorables.site_builder.authors import sanitise
from explorables.site_builder.authors.sanitise import clean
from explorables.site_builder.commands.cli import main
from explorables.site_builder.output.scripts import LATER, RUNTIME
from author_site import lay_out
from figure_helpers import ROOT

SAMPLE = (ROOT / "tests" / "fixtures" / "exercises" / "dot_product.py").read_text()
LESSON = "---\ntitle: Dots\norder: 1\n---\n\nText.\n\n:::{exercise} dot-2\n:seed: 4\n:::\n"

# What a hostile (or careless) statement slips in, and what of it must not reach a page.
HOSTILE = {
    "img-onerror-no-space": ('<img src="x"/onerror="alert(1)">', r"<img|onerror"),
    "javascript-link": ('<a href="javascript:alert(1)">go</a>', r"<a\b|javascript:"),
    "meta-refresh": ('<meta http-equiv="refresh" content="0;url=https://evil.example/">', r"<meta|http-equiv"),
    "uppercase-onerror": ('<IMG SRC=x ONERROR=alert(1)>', r"(?i)<img|onerror"),
    "svg-onload": ('<svg onload="alert(1)"><circle r="3"/></svg>', r"<svg|onload"),
    "style-url-javascript": ('<span style="background:url(javascript:alert(1))">s</span>', r"style=|javascript:"),
    "iframe-srcdoc": ('<iframe srcdoc="&lt;script&gt;alert(1)&lt;/script&gt;"></iframe>', r"<iframe|srcdoc"),
    "form-action": ('<form action="https://evil.example/"><button>Send</button></form>', r"<form|<button|action="),
    "data-url": ('<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">d</a>', r"data:text|<a\b"),
    "entity-javascript": ('<a href="&#106;avascript&#58;alert(1)">e</a>', r"<a\b|&#106;"),
    "script": ("<script>alert(1)</script>", r"<script>alert|alert\(1\)"),
    "math-href": ('<math><mi href="javascript:alert(1)">x</mi></math>', r"href=|javascript:"),
    "object-data": ('<object data="data:text/html,x"></object>', r"<object|data:"),
    "base-href": ('<base href="https://evil.example/">', r"<base"),
    "event-on-allowed-tag": ('<span onclick="alert(1)" onmouseover=alert(2)>s</span>', r"onclick|onmouseover"),
}


@pytest.fixture
def site(tmp_path, monkeypatch):
    lay_out(tmp_path, "01-dots.md", LESSON, "dot_product.py", SAMPLE)
    monkeypatch.chdir(tmp_path)
    yield tmp_path
    authors.unload()


def _problem(page: str) -> str:
    return page.split('<p class="ex-problem">')[1].split("</p>\n")[0]


@pytest.mark.parametrize("hostile, banned", HOSTILE.values(), ids=HOSTILE.keys())
def test_a_hostile_statement_is_cleaned_in_the_lesson_and_the_print_page(site, hostile, banned):
    source = SAMPLE.replace('return (f"Take {', f'return ({hostile!r} + f"Take {{')
    assert source != SAMPLE
    (site / "figures" / "dot_product.py").write_text(source)
    assert main(["build"]) == 0
    for page in ("dots.html", "print.html"):
        statement = _problem((site / "_site" / page).read_text())
        assert not re.search(banned, statement), (page, statement)
        assert "Take <math" in statement and "</math>" in statement  # the MathML stays
    assert EXERCISES["dot-2"].problem(4)["statement"].startswith(hostile)  # the type itself wrote it


def test_the_built_in_statements_pass_the_cleaner_unchanged():
    for name, exercise in EXERCISES.items():
        if type(exercise).__module__.startswith("explorables.engine."):
            for seed in range(6):
                for comma in (False, True):
                    statement = exercise.problem(seed, comma)["statement"]
                    assert clean(statement) == statement, (name, seed)


@pytest.mark.parametrize("kept", [
    '<math display="block"><mfrac><mn>1</mn><msqrt><mn>2</mn></msqrt></mfrac></math>',
    '<math><msup><mi mathvariant="bold">v</mi><mn>2</mn></msup><mo stretchy="false">)</mo></math>',
    "<em>one</em> <strong>two</strong> <code>x</code> H<sub>2</sub>O e<sup>x</sup><br>",
    '<span class="ex-nowrap">a, b</span>',
    '<math><mtable><mtr><mtd><mn>1</mn></mtd></mtr></mtable><mover><mi>x</mi><mo>^</mo></mover></math>',
])
def test_what_the_exercise_kit_writes_is_kept(kept):
    assert clean(kept) == kept


def test_text_is_kept_and_escaped():
    assert clean("a < b & c > d") == "a &lt; b &amp; c &gt; d"


FIGURE = '''"""shown: a figure whose words hold markup."""
from explorables.figures import Figure, Slider, bars, register, text

WORDS = {words!r}


@register
class Shown(Figure):
    name = "shown"
    summary = "Words."
    title = WORDS
    params = (Slider("a", "a", 1.0, lo=0, hi=2, doc="A."),)

    def draw(self, s, v):
        return [bars("w", [s["a"]], label=[WORDS], title=WORDS), text("t", WORDS)]

    def status(self, s, v):
        return WORDS
'''


@pytest.mark.parametrize("hostile, banned", [HOSTILE[k] for k in ("img-onerror-no-space", "svg-onload", "script",
                                                                    "meta-refresh", "iframe-srcdoc")],
                         ids=["img-onerror", "svg-onload", "script", "meta-refresh", "iframe-srcdoc"])
def test_a_figures_words_reach_the_pages_escaped(site, hostile, banned):
    """A figure's title, labels, text panel and status are words, never markup: the
    still and the noscript line escape them, the embedded frame writes '<' as \\u003c."""
    (site / "figures" / "shown.py").write_text(FIGURE.format(words=hostile))
    (site / "content" / "02-shown.md").write_text("---\ntitle: Shown\norder: 2\n---\n\n:::{shown} s\n:::\n")
    assert main(["build"]) == 0
    for page, ident in (("shown.html", "s"), ("print.html", "shown--s")):
        text = (site / "_site" / page).read_text()
        figure = text.split(f'<figure class="ex-figure" id="{ident}"')[1].split("</figure>")[0]
        assert re.search(re.escape(hostile.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
                                   .replace('"', "&quot;").replace("'", "&#x27;")), figure), page
        assert hostile not in figure and not re.search(r"<(img|svg onload|script>alert|meta|iframe)", figure), page


def test_the_allow_list_is_declared_once_for_the_build_and_the_browser():
    """static/js/statement-markup.js is the one list: sanitise.py gives nh3 what it holds,
    and the runtime loads it after the first frame, just before js/statement.js, which
    cleans with it the statements the engine makes in the reader's browser (js/exercise.js
    shows them)."""
    text = (ROOT / "static" / "js" / "statement-markup.js").read_text()
    start = text.index("{", text.index("window.explorables.statementMarkup ="))
    markup = json.loads(text[start : text.index("};", start) + 1])
    assert set(markup["mathml"]) | set(markup["text"]) == sanitise.TAGS
    assert {tag: set(names) for tag, names in markup["attributes"].items()} == sanitise.ATTRIBUTES
    assert set(markup["drop_content"]) == sanitise.DROP_CONTENT and not sanitise.URL_SCHEMES
    assert "js/statement-markup.js" not in RUNTIME  # nothing more in the first frame
    assert LATER.index("js/statement-markup.js") + 1 == LATER.index("js/statement.js") < LATER.index("js/exercise.js")
    assert "ex.statementMarkup" in (ROOT / "static" / "js" / "statement.js").read_text()
    assert "ex.statement.cleaned(" in (ROOT / "static" / "js" / "exercise.js").read_text()
