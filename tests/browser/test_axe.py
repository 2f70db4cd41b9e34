"""axe-core (WCAG 2.1 A and AA, and best practice) on every page of the built track: first
the figures as the reader sees them before Python is live (1280 px dark, 390 px light), then with
every figure live (1280 px light, 390 px dark: each width and each colour scheme once). And the
colours the page really computes for every table cell, in both schemes: text at 4.5:1 on the
fill the cell ends up with (issue 12).

axe comes from axe-playwright-python (the test extra), which ships axe.min.js."""
from __future__ import annotations

import re
from pathlib import Path

import axe_playwright_python
import pytest

from colours import STATIC, contrast, mix
from explorables.site_builder.output.scripts import stylesheet
from helpers import fresh_lesson, held_for_good, later_loaded, module_page, shared_page

AXE = (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text()
RULES = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]},
         "resultTypes": ["violations"],
         "rules": {}}
# The colour rules ask, for every piece of text, what is drawn under it: most of axe's time
# on a page. A colour differs by scheme, and what the other rules read (the elements, their
# names, roles and attributes, what is shown and where) by width alone: a scheme changes
# colours only (test_a_colour_scheme_changes_colours_only). So every rule runs in two layouts,
# which between them hold each scheme and each width. (Every table cell's own colours are
# checked in both schemes below.)
COLOUR_RULES = ("color-contrast", "link-in-text-block")
LAYOUTS = [(1280, "light"), (390, "dark")]
# Before Python is live only the figures differ (their loading state; the text around them is
# the same page as live, checked below): the figures alone, each width and scheme once, the
# layouts taken in turn from lesson to lesson. What is the loading state's own (the badge,
# the Start button, the still, the controls waiting) is the same parts in every figure, so
# each layout sees them on four lessons; each figure's live parts are checked in both
# layouts below.
BEFORE_LIVE = [(1280, "dark"), (390, "light")]
FIGURES = {"one-query-row.html": "explorer", "attention-heatmap.html": "table", "attention-lab.html": "lab",
           "two-heads.html": "heads", "positional-encoding.html": "clocks", "rotary-positions.html": "rope",
           "generating-text.html": "kv", "cross-attention.html": "cross"}
PAGES = ["index.html", *FIGURES, "notices.html", "print.html", "404.html"]


def test_every_page_of_the_track_is_checked(built_site):
    assert sorted(PAGES) == sorted(p.name for p in built_site.glob("*.html"))


# What a colour scheme sets: ``--ex-*: colour;`` in a :root, and nothing else
SCHEME_BLOCK = re.compile(r"@media[^{]*prefers-color-scheme[^{]*\{\s*:root\s*\{([^{}]*)\}\s*\}")
COLOUR_VALUE = re.compile(r"#[0-9a-fA-F]{3,8}|rgba?\([\d.\s/,%]+\)")


def test_a_colour_scheme_changes_colours_only():
    """Why the rules other than the colour rules run in one scheme a width: the stylesheet's
    dark scheme sets colours only, and a page that sees the scheme change draws its figures
    again from the same scene (canvases and cells' inks in the new colours; figure.js)."""
    css = re.sub(r"/\*.*?\*/", "", stylesheet(STATIC), flags=re.S)
    media = re.findall(r"@media[^{]*prefers-color-scheme", css)
    blocks = SCHEME_BLOCK.findall(css)
    assert len(media) == len(blocks) >= 2, "a colour scheme's rule that is not a :root of colours"
    for block in blocks:
        for declaration in filter(str.strip, block.split(";")):
            prop, _, value = declaration.partition(":")
            assert prop.strip().startswith("--ex-") and COLOUR_VALUE.fullmatch(value.strip()), declaration
    # the scripts: figure.js draws every figure again (its listener does nothing else), and
    # the cells read the new scheme's palette (panels/cells.js)
    readers = sorted(str(f.relative_to(STATIC / "js")) for f in (STATIC / "js").rglob("*.js")
                     if "prefers-color-scheme" in f.read_text())
    assert readers == ["figure.js", "panels/cells.js"], readers
    figure_js = (STATIC / "js" / "figure.js").read_text()
    listeners = re.findall(r'matchMedia\("\(prefers-color-scheme: dark\)"\)\.addEventListener\("change", '
                           r'function \(\) \{(.*?)\n\s*\}\);', figure_js, flags=re.S)
    bodies = [" ".join(re.sub(r"//[^\n]*", "", body).split()) for body in listeners]
    assert bodies == ["everyFigure(function (figure) { figure.render(figure.scene); });"], bodies


def violations(page, name: str = "", within: str | None = None, colours: bool = True,
               only_colours: bool = False) -> list[str]:
    """axe's violations on the page as it is now (or in the elements ``within`` selects),
    one line each; without the colour rules when not ``colours``, only them with ``only_colours``."""
    if not page.evaluate("() => !!window.axe"):
        page.evaluate(AXE)
    options = RULES if colours else {**RULES, "rules": {rule: {"enabled": False} for rule in COLOUR_RULES}}
    if only_colours:
        options = {**RULES, "runOnly": {"type": "rule", "values": list(COLOUR_RULES)}}
    found = page.evaluate("([options, within]) => axe.run(within ? { include: [[within]] } : document, options)",
                          [options, within])["violations"]
    return [f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:5]}" for v in found]


def scheme(page, colour: str) -> None:
    """Switch the colour scheme and wait until the page has redrawn for it: media-query
    change events run at the start of a frame, so two frames on everything has followed."""
    if page.evaluate("c => matchMedia('(prefers-color-scheme: ' + c + ')').matches", colour):
        return
    page.emulate_media(color_scheme=colour)
    page.wait_for_function("c => matchMedia('(prefers-color-scheme: ' + c + ')').matches", arg=colour)
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def each_layout(page, layouts=LAYOUTS):
    """Each of ``layouts``, the one the page is in first: a page laid out again costs as much
    as a check."""
    here = (page.viewport_size["width"], page.evaluate("() => matchMedia('(prefers-color-scheme: dark)').matches"))
    for width, colour in sorted(layouts, key=lambda layout: (layout[0], layout[1] == "dark") != here):
        if page.viewport_size != {"width": width, "height": 900}:
            page.set_viewport_size({"width": width, "height": 900})
        scheme(page, colour)
        yield f"{width} px {colour}"


# -- before Python is live --------------------------------------------------------------

@pytest.fixture(scope="module")
def waiting(browser, site_url, browser_context_args):
    """A page whose engine never starts: every .wasm request is left unanswered (the next
    page load cancels it), so each figure stays as the reader first sees it, drawn from
    its build-time scene."""
    for page, guard in module_page(browser, site_url, browser_context_args):
        held_for_good(page.context, re.compile(r".*\.wasm$"))
        yield page, guard


def test_axe_finds_nothing_before_the_engine_is_live(waiting, site_url):
    """Pages without a figure look the same before and after: the live test covers them."""
    page, guard = waiting
    found = []
    for turn, name in enumerate(FIGURES):
        width, colour = BEFORE_LIVE[turn % len(BEFORE_LIVE)]
        page.set_viewport_size({"width": width, "height": 900})  # laid out in it from the start
        page.emulate_media(color_scheme=colour)
        page.goto(site_url + name)
        figure = FIGURES.get(name)
        for layout in each_layout(page, [(width, colour)]):
            found += [f"{name} {layout}: {v}" for v in violations(page, within="main figure.ex-figure")]
            if figure:
                assert page.locator(f"figure#{figure}.ex-loading").count() == 1, "the engine went live"
        later_loaded(page)  # before the next page is opened
    assert not found, "\n".join(found)
    # leaving a page cancels its held .wasm request: that failure is the test's own
    guard.failed[:] = [f for f in guard.failed if ".wasm " not in f]
    guard.check()


# The lessons' prose on the print page: the lessons' own markup and styles, whose colours
# their own pages have in both schemes (below)
PROSE = (".ex-print-lesson :is(p, ul, ol, table, pre, blockquote, .ex-math, details, .ex-exercise)"
         ":not(figure *, .ex-lesson-header *)")


def test_axe_finds_nothing_on_the_print_page(waiting, site_url):
    """print.html runs no engine (its figures are their stills): it is checked in this
    module's own page, so that the page the live tests share keeps its engine. Its own
    markup needs one width and scheme each. Every rule but the colour rules looks at all of
    it; the colour rules (two thirds of axe's time on a page, most of it here spent on the
    lessons' prose, checked on the lessons' pages) at what is left once the prose is taken
    out: the cover, the lessons' headers and headings, the figures' stills and captions."""
    page, guard = waiting
    page.goto("about:blank")  # laid out from the start in the first layout: the page is long
    page.set_viewport_size({"width": LAYOUTS[0][0], "height": 900})
    page.emulate_media(color_scheme=LAYOUTS[0][1])
    page.goto(site_url + "print.html")
    found = []
    for layout in each_layout(page):
        found += [f"{layout}: {v}" for v in violations(page, "print.html", colours=False)]
    taken = page.evaluate("prose => { const all = document.querySelectorAll(prose); all.forEach(e => e.remove()); "
                          "return all.length; }", PROSE)
    assert taken > 20 and page.locator(".ex-print-lesson .ex-still svg").count() > 5  # the stills stay
    for layout in each_layout(page):  # (the last layout first: the whole page is laid out twice, not thrice)
        found += [f"{layout}: {v}" for v in violations(page, "print.html", only_colours=True)]
    assert not found, "\n".join(found)
    guard.failed[:] = [f for f in guard.failed if ".wasm " not in f]  # the lesson opened before
    guard.check()


# -- with the engine live -----------------------------------------------------------------

shared = shared_page()


@pytest.fixture
def live(shared):
    """The module's page in the layout the test before left (each test sets its own; the
    page's viewport and scheme are put back for the next module by shared_page)."""
    page, guard = shared
    yield page, guard
    guard.check()


def visit(page, guard, url: str, figure: str | None):
    if figure:
        return fresh_lesson(page, guard, url, figure)
    if not page.evaluate("() => !!(window.explorables && window.explorables.pages)"):
        page.goto(url)
    elif page.evaluate("url => window.explorables.pages.go(url, {restore: false, scroll: 0})", url):
        page.wait_for_function("url => window.explorables.pages.current === url", arg=url)
    else:  # a page that cannot be swapped in (the print page): the browser loads it itself
        page.wait_for_url(url)
        page.wait_for_load_state()


@pytest.mark.parametrize("name", [name for name in PAGES if name != "print.html"])  # print.html: above
def test_axe_finds_nothing_with_the_engine_live(live, site_url, name):
    page, guard = live
    visit(page, guard, site_url + name, FIGURES.get(name))
    found = []
    for layout in each_layout(page):
        found += [f"{layout}: {v}" for v in violations(page, name)]
    assert not found, "\n".join(found)


# Every table cell: its text colour, its own fill (a colour at some alpha), and the
# opaque background under it (the figure's panel).
CELLS = """id => {
    const figure = document.getElementById(id);
    const under = getComputedStyle(figure).backgroundColor;
    return Array.from(figure.querySelectorAll('.ex-cells td, .ex-cells th')).map(cell => {
        const style = getComputedStyle(cell);
        const button = cell.querySelector('button');
        return { text: button ? getComputedStyle(button).color : style.color, fill: style.backgroundColor,
                 under: under, opacity: style.opacity, label: cell.textContent.trim(), cls: cell.className };
    });
}"""


def parse(css: str) -> tuple[tuple[float, float, float], float]:
    """rgb(), rgba() or color(srgb ...) as ((r, g, b) in 0..255, alpha)."""
    m = re.fullmatch(r"rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)", css)
    if m:
        return tuple(float(v) for v in m.groups()[:3]), float(m.group(4) or 1)
    m = re.fullmatch(r"color\(srgb ([\d.e-]+) ([\d.e-]+) ([\d.e-]+)(?: / ([\d.]+))?\)", css)
    if m:
        return tuple(255 * float(v) for v in m.groups()[:3]), float(m.group(4) or 1)
    raise ValueError(f"a colour this test cannot read: {css}")


def worst_cell(cells: list[dict]) -> tuple[float, dict]:
    worst = (99.0, {})
    for cell in cells:
        assert cell["opacity"] == "1", f"a faded cell fades its text too: {cell}"
        under, _ = parse(cell["under"])
        fill, alpha = parse(cell["fill"])
        text, text_alpha = parse(cell["text"])
        ground = mix(fill, under, alpha)
        ratio = contrast(mix(text, ground, text_alpha), ground)
        worst = min(worst, (ratio, cell), key=lambda w: w[0])
    return worst


@pytest.mark.parametrize("name", [n for n in FIGURES if n not in ("positional-encoding.html",
                                                                  "rotary-positions.html")])  # no table
def test_every_cell_reads_at_4_5_to_1_in_both_schemes(live, site_url, name):
    """Regression: dark text on the dark scheme's strong fills was 2.3-2.7:1."""
    page, guard = live
    figure = FIGURES[name]
    if page.viewport_size != {"width": 1280, "height": 800}:
        page.set_viewport_size({"width": 1280, "height": 800})
    visit(page, guard, site_url + name, figure)
    if name == "attention-heatmap.html":  # masked cells are muted: show them too
        page.locator(f"figure#{figure} input[type=checkbox]").first.check()
        page.evaluate("id => window.explorables.figures[id].idle()", figure)
    dark = page.evaluate("() => matchMedia('(prefers-color-scheme: dark)').matches")
    for colour in ("dark", "light") if dark else ("light", "dark"):  # the page's own first
        scheme(page, colour)
        cells = page.evaluate(CELLS, figure)
        assert len(cells) > 10
        ratio, cell = worst_cell(cells)
        assert ratio >= 4.5, f"{colour}: {ratio:.2f}:1 for {cell}"
