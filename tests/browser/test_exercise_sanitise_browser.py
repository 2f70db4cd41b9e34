"""An exercise type's statement made in the reader's browser ("New numbers", a seed in
the address) is cleaned there to the allow-list the build cleans its pages to
(static/js/statement-markup.js, read by site_builder/authors/sanitise.py too). Before,
js/exercise.js wrote the engine's statement with innerHTML: an author's <img onerror>,
javascript: link or <svg onload> reached the reader's page, only the built page was clean.

And quietly: Chromium checks the page's CSP when it parses an event attribute, a style or
a <base>, even into a document of its own, and fetched an <img src> that DOMParser read.
js/statement.js takes them out of the text before anything parses it, so a hostile
statement leaves no console message at all (not one, of any kind) and makes no request."""
from __future__ import annotations

import random
import re

import pytest

from explorables.engine.exercises import EXERCISES
from explorables.site_builder.authors.sanitise import clean
from author_site import write_site
from figure_helpers import ROOT
from conftest import SERVICE_WORKER_BLOCKED
from helpers import fresh_lesson, later_loaded, module_page, served_site

FIG = "explorer"
# The seed goes into each piece, so that a fresh problem's statement is not the page's.
HOSTILE = ('<img src="x{n}" onerror="window.pwned=1;alert({n})">'
           '<a href="javascript:window.pwned=2;alert({n})" title="t">go {n}</a>'
           '<svg onload="window.pwned=3;alert({n})"><circle r="{n}"/><a href="javascript:alert(3)">s</a></svg>'
           '<math><mi onclick="window.pwned=4" href="javascript:alert(4)" mathvariant="bold">x</mi>'
           '<mtext><img src=y onerror="window.pwned=5"></mtext></math>'
           '<iframe src="javascript:alert(6)"></iframe><object data="javascript:alert(7)"></object>'
           '<embed src="javascript:alert(8)"><script>window.pwned=9;alert(9)</script>'
           '<span onmouseover="window.pwned=10" class="ex-nowrap" style="color:red">s {n}</span>'
           '<form action="javascript:alert(11)"><button formaction="javascript:alert(12)">b</button></form>'
           '<template><img src=z onerror="window.pwned=13"></template><!-- {n} -->'
           '<noscript><img src=w onerror="window.pwned=14"></noscript><details open ontoggle="window.pwned=15">d'
           '</details><IMG SRC=v ONERROR="window.pwned=16"><img src="u"/onerror="window.pwned=17">'
           '<meta http-equiv="refresh" content="0;url=javascript:alert(18)">'
           '<meta http-equiv="Content-Security-Policy" content="default-src *"><base href="http://example.com/">'
           '<link rel="stylesheet" href="x{n}.css"><style>p {{ color: red }}</style>'
           '<svg><style>* {{ color: red }}</style></svg><math><mi style="color: red">y</mi></math>'
           '<xmp><img src=q onerror="window.pwned=19"></xmp><!--><img src=c onerror="window.pwned=20">-->'
           '<<!-- -->img src=j onerror="window.pwned=21">')
TYPE = f'''"""hostile: an exercise type whose statement holds what must never run in a page."""
from explorables.figures import Exercise, eq, mi, mn, register

HOSTILE = {HOSTILE!r}


@register
class Hostile(Exercise):
    name = "hostile"
    kind = "number"

    def generate(self, seed):
        return {{"n": seed % 1000}}

    def solve(self, p):
        return p["n"]

    def statement(self, p, decimal_comma=False):
        return HOSTILE.format(n=p["n"]) + f"What is {{eq(mi('n'), mn(p['n']))}}?"
'''
LESSON = """---
title: Clean
order: 1
---

:::{attention-row} explorer
:::

:::{exercise} hostile
:seed: 4
:::

:::{exercise} dot-2
:seed: 4
:::
"""
# Nothing of the author's markup that can run or load: anywhere in the document, an on*
# attribute or a javascript: URL; in a statement, any element that runs or loads.
LEFT = """() => {
    const all = Array.from(document.querySelectorAll("*"));
    const on = all.flatMap(el => Array.from(el.attributes).filter(a => /^on/i.test(a.name))
                                          .map(a => el.localName + "[" + a.name + "]"));
    const urls = all.flatMap(el => Array.from(el.attributes).filter(a => /javascript:/i.test(a.value))
                                            .map(a => el.localName + "[" + a.name + "]"));
    const kinds = "script, iframe, object, embed, img, svg, a, form, button, template, noscript, details, [style]";
    const elements = Array.from(document.querySelectorAll(".ex-problem")).flatMap(
        p => Array.from(p.querySelectorAll(kinds)).map(el => el.localName));
    return {on: on, urls: urls, elements: elements, pwned: window.pwned || null};
}"""
CLEAN = {"on": [], "urls": [], "elements": [], "pwned": None}


@pytest.fixture(scope="module")
def clean_url(tmp_path_factory):
    site = write_site(tmp_path_factory.mktemp("clean"), lessons={"index.md": "# Mine\n", "01-clean.md": LESSON},
                      figures={"hostile.py": TYPE, "dot_product.py":
                               (ROOT / "tests" / "fixtures" / "exercises" / "dot_product.py").read_text()})
    yield from served_site(site)


@pytest.fixture(scope="module")
def shared(browser, clean_url, browser_context_args):
    opened = module_page(browser, clean_url, browser_context_args)
    page, guard = next(opened)
    dialogs = guard.dialogs = []  # alert(), confirm(): none may open
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    yield page, guard
    opened.close()  # its context with it


@pytest.fixture
def lesson(shared, clean_url):
    page, guard = shared
    fresh_lesson(page, guard, clean_url + "clean.html", FIG)
    said, asked = [], []  # every console message, of any kind; every request for an author's file
    listen = (lambda m: said.append(f"{m.type}: {m.text}") if SERVICE_WORKER_BLOCKED not in m.text else None,
              lambda r: asked.append(r.url))  # (the tests' own block of the offline worker is not the page's)
    page.on("console", listen[0])
    page.on("request", listen[1])
    yield page
    page.remove_listener("console", listen[0])
    page.remove_listener("request", listen[1])
    guard.check()
    assert guard.dialogs == []
    assert said == []
    assert [url for url in asked if re.search(r"/(x|y|z|w|u|v|q|c|j)\d*(\.css)?$", url)] == []


def section_of(page, name: str):
    return page.locator(f'.ex-exercise[data-exercise="{name}"]')


def parsed(page, html: str) -> str:
    """``html`` as the browser parses it into the page: how it serialises."""
    return page.evaluate("h => { const t = document.createElement('template'); t.innerHTML = h; "
                         "return t.innerHTML; }", html)


def shown(section) -> str:
    return section.locator(".ex-problem").evaluate("p => p.innerHTML")


def new_numbers(page, section) -> int:
    """Press New numbers with the mouse; the fresh seed once its problem is shown."""
    key = section.get_attribute("id")
    before = section.get_attribute("data-seed")
    section.get_by_role("button", name="New numbers").click()
    page.wait_for_function("([key, before]) => { const m = location.hash.match(new RegExp(key + '=(\\\\d+)'));"
                           " return m && m[1] !== before && document.getElementById(key).dataset.seed === m[1]; }",
                           arg=[key, before])
    return int(section.get_attribute("data-seed"))


def test_new_numbers_shows_the_statement_cleaned_as_the_build_cleans_it_and_mathml_intact(lesson):
    lesson.evaluate("() => window.explorables.ready")
    section = section_of(lesson, "hostile")
    section.scroll_into_view_if_needed()
    assert lesson.evaluate(LEFT) == CLEAN  # the built page, cleaned by nh3
    seed = new_numbers(lesson, section)
    statement = EXERCISES["hostile"].problem(seed)["statement"]
    assert f"alert({seed % 1000})" in statement  # the worker had the author's markup to write
    assert lesson.evaluate(LEFT) == CLEAN
    # the same allow-list on both sides: what the browser kept is what nh3 keeps
    assert shown(section) == parsed(lesson, clean(statement))
    assert f"go {seed % 1000}" in section.locator(".ex-problem").inner_text()  # a dropped element's text stays
    mi = section.locator(".ex-problem mi").first
    assert mi.evaluate("el => [el.namespaceURI, el.getAttribute('mathvariant'), el.attributes.length]") == [
        "http://www.w3.org/1998/Math/MathML", "bold", 1]
    section.locator(".ex-problem").hover()  # where an onmouseover would have run
    assert lesson.evaluate("() => window.pwned || null") is None
    # a normal statement (dot-2's MathML) is shown as the engine wrote it
    section = section_of(lesson, "dot-2")
    section.scroll_into_view_if_needed()
    seed = new_numbers(lesson, section)
    statement = EXERCISES["dot-2"].problem(seed)["statement"]
    assert clean(statement) == statement  # nothing in it for the cleaner to take
    assert shown(section) == parsed(lesson, statement)
    maths = section.locator(".ex-problem math")
    assert maths.count() == len(re.findall(r"<math\b", statement)) == 3
    assert maths.evaluate_all("ms => ms.every(m => m.namespaceURI === 'http://www.w3.org/1998/Math/MathML')")


def test_a_seeded_address_shows_the_statement_cleaned(shared, lesson, clean_url):
    page, _ = shared
    key = section_of(page, "hostile").get_attribute("id")
    page.goto(clean_url)  # then the address, as a reader opens a link to it
    later_loaded(page)
    page.goto(f"{clean_url}clean.html#{key}=777")
    section = section_of(page, "hostile")
    page.wait_for_function("key => document.getElementById(key).dataset.seed === '777'", arg=key)
    page.evaluate("() => window.explorables.ready")
    assert "777" in section.locator(".ex-problem").inner_text()
    assert page.evaluate(LEFT) == CLEAN
    assert shown(section) == parsed(page, clean(EXERCISES["hostile"].problem(777)["statement"]))


# Statements the text pass (tags) must read as the browser's tokenizer does, each cleaned as
# nh3 cleans it, with no console message: raw text, foreign content, broken tags, comments.
CORPUS = [
    HOSTILE.format(n=1),
    "<svg><style><b onclick=x()>bold</b></style></svg><p style=color:red>p</p>",
    "<math><mtext><style>a{}</style><i onclick=y()>i</i></mtext><mi>x</mi></math>",
    "<textarea><img src=t1 onerror=alert(1)></textarea><title><b style=x>t</b></title>",
    "<template><style>x{}</style><img src=t2 onerror=alert(2)></template>after",
    "<noscript><p onclick=a()>n</p></noscript><object><b style=s>o</b></object>",
    "<script>document.write('<img src=t3 onerror=alert(3)>')</script><iframe><b onload=x></iframe>",
    "<b class=\"c\" class=d onmouseover='x' =x>b</b><span/onclick=y/>s</span>",
    "<img src=t4 onerror=alert(4) <b>after an open tag",
    "<a href='javascript:alert(5)' title=\"a'b\">l</a><i title='t\"'>q</i>",
    "a < b and c <3 d <> e </ f> <!doctype x> <?php echo 1 ?> g",
    "<math><mi><svg><style>q{}</style></svg></mi><mo form=prefix lspace=0 onclick=z()>+</mo></math>",
    "<math><annotation-xml encoding=\"text/html\"><b style=x>h</b></annotation-xml></math>",
    "<svg><foreignObject><p style=x>f</p></foreignObject><desc><i onclick=q>d</i></desc></svg>",
    "<svg><p>breaks out<style>z{}</style></svg><font color=red>f</font>",
    "<plaintext><img src=t5 onerror=alert(6)>",
    "<b>&lt;img src=t6 onerror=x&gt; &amp; &notit; &#x3c;</b>",
    "<!-- <img src=t7 onerror=alert(7)> --!><!--->x<!-- unclosed <img src=t8 onerror=a()>",
    "<svg><mi><tr><xmp style=x><b onerror=x()>b</b></xmp></mi></svg>",  # mi holds HTML in MathML only
    "<math><mi><xmp><b onclick=y()>raw</b></xmp></mi><annotation-xml encoding='TEXT/HTML'><xmp><i>r</i></xmp>"
    "</annotation-xml></math>",
    "<template><plaintext><b onclick=x()>gone</b></template>",
    "<noscript/><b style=x>in noscript</b></noscript><p>after</p> and </",
]


def test_hostile_statements_are_cleaned_as_nh3_cleans_them_without_a_console_message(lesson):
    lesson.evaluate("() => window.explorables.ready")
    shown_now = lesson.evaluate(
        "hs => hs.map(h => { const d = document.createElement('div');"
        " d.append(window.explorables.statement.cleaned(h)); return d.innerHTML; })",
        CORPUS,
    )
    expected = [parsed(lesson, clean(h)) for h in CORPUS]
    assert [(h, got, want) for h, got, want in zip(CORPUS, shown_now, expected, strict=True) if got != want] == []
    assert lesson.evaluate(LEFT) == CLEAN


# Random statements of broken and nested markup, the kind a parser's corner cases hide in
# (tables, raw text, SVG and MathML, comments, unclosed tags), a fixed seed: not one may
# make the page's parser consult the CSP, nor leave an attribute the allow-list lacks.
PIECES = ("b i p span math mi mo mn mtext mrow msub svg style script img a template noscript textarea title "
          "xmp table tr td select option font foreignObject desc annotation-xml iframe object br meta base "
          "form button plaintext div ul li em code sub sup h1 pre listing").split()
ATTRIBUTES = ['onerror="x()"', "style='color:red'", "class=c", 'href="javascript:y()"', "mathvariant=bold", "src=q",
              "color=red", 'encoding="text/html"', "=x", "/", 'title="a>b"', "onload=z", "ONCLICK=w"]
BITS = ["text", "<", ">", "&amp;", "&lt;", "<!--", "-->", "<!-->", "<![CDATA[c]]>", "</", "<?x?>", "'", '"', " ",
        "\n", "<!doctype html>"]


def random_statement(rng: random.Random, depth: int = 0) -> str:
    if rng.random() < 0.25 or depth > 4:
        return rng.choice(BITS)
    tag = rng.choice(PIECES)
    tag = tag.upper() if rng.random() < 0.15 else tag
    attrs = " ".join(rng.sample(ATTRIBUTES, rng.randint(0, 2)))
    inner = "".join(random_statement(rng, depth + 1) for _ in range(rng.randint(0, 3)))
    return f"<{tag}{' ' + attrs if attrs else ''}>{inner}" + (f"</{tag}>" if rng.random() < 0.8 else "")


def test_random_broken_markup_is_cleaned_without_a_console_message(lesson):
    rng = random.Random(37)
    statements = ["".join(random_statement(rng) for _ in range(rng.randint(1, 4))) for _ in range(400)]
    lesson.evaluate("() => window.explorables.ready")
    left = lesson.evaluate(
        """hs => hs.flatMap(h => { const d = document.createElement('div');
            d.append(window.explorables.statement.cleaned(h));
            return Array.from(d.querySelectorAll('*')).flatMap(el => Array.from(el.attributes)
                .filter(a => a.name !== 'class' && a.name !== 'mathvariant' && a.name !== 'xmlns')
                .map(a => el.localName + '[' + a.name + ']')); })""",
        statements,
    )
    assert left == []  # and the lesson fixture: no console message, no request for q
