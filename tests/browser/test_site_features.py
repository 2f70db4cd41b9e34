"""Authoring features in real Chromium: the copy button, highlighted code's contrast in
both colour schemes, the table of contents, image figures and search."""
from __future__ import annotations

import re
import time

import pytest

from conftest import Guard, serve_folder

pytestmark = pytest.mark.browser

LESSON = '''---
title: Features
order: 1
summary: Code, headings and images.
---

Some text before the code.

```python {lineno-start=1 emphasize-lines="2"}
import math

def softmax(xs, t=1.0):
    """Shares that sum to 1."""
    top = max(xs)  # for stability
    exps = [math.exp((x - top) / t) for x in xs]
    return [e / sum(exps) for e in exps]

@cache
class Head(object):
    size: int = 0x10
    name = f"head {1 + 2}"
    pattern = r"\\d+"
```

```javascript
const total = xs.reduce((a, b) => a + b, 0);  // sum
let ok = true, n = null; /* block */ if (!ok) throw new Error("bad");
```

```bash
for f in *.md; do echo "$f" && wc -l "$f"; done  # count
```

```json
{"key": [1, 2.5, true, null], "s": "text"}
```

| Word | Weight |
|:-----|-------:|
| cat  |   0.45 |
''' + "".join(f"""
## {title}

{" ".join(["A sentence that takes room on the page, so that scrolling has somewhere to go."] * 25)}

{" ".join(["Another paragraph of the same, to make the section long enough to read."] * 20)}
""" for title in ("Scores from queries", "Softmax shares", "Blending the values", "What the row means"))


@pytest.fixture(scope="module")
def features_site(tmp_path_factory):
    from explorables.site_builder.commands.build import build_site
    root = tmp_path_factory.mktemp("features")
    content = root / "content"
    content.mkdir()
    (content / "site.yml").write_text("title: Features\n", encoding="utf-8")
    (content / "01-features.md").write_text(LESSON, encoding="utf-8")
    (content / "02-second.md").write_text("---\ntitle: Second\norder: 2\n---\n\n```python\nx = 1\n```\n"
                                          + "".join(f"\n## Part {n}\n\n{'Words to read. ' * 200}\n" for n in range(1, 6)),
                                          encoding="utf-8")
    (content / "03-joining.md").write_text("---\ntitle: Joining\norder: 3\n---\n\n## Then $W_O$\n\n"
                                           "The matrix $W_O$ maps $x_t W_Q^h$ back.\n", encoding="utf-8")
    out = root / "_site"
    build_site(content, out)
    server = serve_folder(out)
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()


@pytest.fixture
def guarded(page, features_site):
    guard = Guard(page, features_site)
    yield page
    guard.check()


def test_copy_button_works_by_keyboard(guarded, features_site, context):
    page = guarded
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto(features_site + "features.html")
    button = page.locator(".ex-code-block .ex-copy").first
    button.wait_for()
    # Tab from the page top until the first copy button has focus, as a keyboard user would
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.classList.contains('ex-copy')"):
            break
    assert page.evaluate("() => document.activeElement === document.querySelector('.ex-copy')")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelector('.ex-copy').textContent === 'Copied'")
    copied = page.evaluate("() => navigator.clipboard.readText()")
    assert copied.startswith("import math\n\ndef softmax(xs, t=1.0):\n")
    assert "1import" not in copied  # line numbers are not copied
    assert copied.rstrip().endswith('pattern = r"\\d+"')


def test_copy_buttons_attach_after_an_in_place_navigation(guarded, features_site):
    page = guarded
    page.goto(features_site + "features.html")
    page.locator(".ex-copy").first.wait_for()
    page.locator("a[rel=next]").click()
    page.wait_for_function("() => document.title.startsWith('Second')")
    page.locator(".ex-code-block .ex-copy").wait_for()
    assert page.locator(".ex-copy").count() == 1


CONTRAST = """() => {
  function rgb(text) { return text.match(/[\\d.]+/g).slice(0, 4).map(Number); }
  function lum(c) {
    const v = c.slice(0, 3).map(x => { x /= 255; return x <= 0.04045 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4); });
    return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2];
  }
  function background(el) {
    for (; el; el = el.parentElement) {
      const c = rgb(getComputedStyle(el).backgroundColor);
      if (c.length < 4 || c[3] > 0) return c;
    }
    return [255, 255, 255];
  }
  const out = [];
  document.querySelectorAll('pre.ex-code code span, pre.ex-code code').forEach(el => {
    if (!el.textContent.trim()) return;
    const fg = lum(rgb(getComputedStyle(el).color)), bg = lum(background(el));
    const ratio = (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
    out.push({cls: el.className, text: el.textContent.slice(0, 20), ratio});
  });
  document.querySelectorAll('pre.ex-code.ex-numbered .ex-line').forEach(el => {
    const fg = lum(rgb(getComputedStyle(el, '::before').color)), bg = lum(background(el));
    out.push({cls: 'line number', text: el.dataset.line, ratio: (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05)});
  });
  return out;
}"""


def test_highlighted_code_contrast_in_both_schemes(guarded, features_site):
    page = guarded
    page.goto(features_site + "features.html")
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.wait_for_function("c => matchMedia('(prefers-color-scheme: ' + c + ')').matches", arg=scheme)
        measured = page.evaluate(CONTRAST)
        classes = {m["cls"] for m in measured}
        assert {"k", "s2", "c1", "nb", "nf", "mi"} <= classes, (scheme, classes)  # the sample covers the palette
        poor = [m for m in measured if m["ratio"] < 4.5]
        assert not poor, f"{scheme}: below 4.5:1: {poor[:5]}"
        dark = page.evaluate("() => getComputedStyle(document.querySelector('pre.ex-code')).backgroundColor")
        assert (dark == "rgb(29, 32, 36)") == (scheme == "dark"), (scheme, dark)


def test_no_style_attribute_anywhere(features_site, guarded):
    page = guarded
    page.goto(features_site + "features.html")
    page.locator(".ex-copy").first.wait_for()
    assert page.evaluate("() => document.querySelectorAll('[style]').length") == 0
    # aligned table columns keep their alignment through classes
    assert page.locator("td.ex-align-right").evaluate("td => getComputedStyle(td).textAlign") == "right"


def scroll_to_heading(page, heading_id):
    """Scroll with the mouse wheel until the heading is near the top of the window."""
    for _ in range(200):
        top = page.evaluate("id => document.getElementById(id).getBoundingClientRect().top", heading_id)
        if top < 120:
            return
        page.mouse.wheel(0, min(400, top - 60))
        page.wait_for_function(  # the wheel's scroll has come: no second turn while the first is on its way
            "([id, top]) => document.getElementById(id).getBoundingClientRect().top !== top", arg=[heading_id, top]
        )
    raise AssertionError(f"could not scroll to {heading_id}")


def current_section(page):
    return page.evaluate("() => { const a = document.querySelector('.ex-toc a[aria-current]');"
                         " return a && a.getAttribute('href'); }")


def test_toc_beside_the_text_follows_scrolling(guarded, features_site):
    page = guarded
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(features_site + "features.html")
    toc = page.locator(".ex-toc")
    assert page.locator(".ex-toc details").evaluate("d => d.open")
    text = page.locator(".ex-lesson > p").first.bounding_box()
    box = toc.locator("ol").bounding_box()
    assert box["x"] >= text["x"] + text["width"], "the contents stand beside the text"
    page.mouse.move(400, 400)
    scroll_to_heading(page, "softmax-shares")
    page.wait_for_function("() => document.querySelector('.ex-toc a[aria-current]')")
    assert current_section(page) == "#softmax-shares"
    # the contents stay in view while the text scrolls
    top = toc.locator("ol").bounding_box()["y"]
    assert 0 <= top < 800
    scroll_to_heading(page, "what-the-row-means")
    page.wait_for_function("() => document.querySelector('.ex-toc a[aria-current]')"
                           ".getAttribute('href') === '#what-the-row-means'")
    # scrolling back up moves the mark back
    page.mouse.wheel(0, -3000)
    page.wait_for_function("() => { const a = document.querySelector('.ex-toc a[aria-current]');"
                           " return !a || a.getAttribute('href') !== '#what-the-row-means'; }")


def test_toc_is_folded_on_phones_and_lands_on_the_section(guarded, features_site):
    page = guarded
    page.set_viewport_size({"width": 390, "height": 800})
    page.goto(features_site + "features.html")
    details = page.locator(".ex-toc details")
    assert not details.evaluate("d => d.open")
    first_text = page.locator(".ex-lesson > p").first.bounding_box()
    assert page.locator(".ex-toc").bounding_box()["y"] < first_text["y"], "the contents come first"
    page.locator(".ex-toc summary").click()
    assert details.evaluate("d => d.open")
    page.locator(".ex-toc a", has_text="Blending the values").click()
    page.wait_for_function("() => location.hash === '#blending-the-values'")
    top = page.evaluate("() => document.getElementById('blending-the-values').getBoundingClientRect().top")
    assert 0 <= top < 100
    assert not details.evaluate("d => d.open"), "choosing a section folds the contents again"


def test_heading_anchor_links_are_named_by_their_heading(guarded, features_site):
    page = guarded
    page.goto(features_site + "features.html")
    link = page.get_by_role("link", name="Link to this section: Softmax shares")
    assert link.get_attribute("href") == "#softmax-shares"
    link.focus()
    assert link.evaluate("a => getComputedStyle(a).opacity") == "1"  # visible when focused
    # the heading's own name is its text: the link sits beside it, not inside it
    assert page.get_by_role("heading", name="Softmax shares", exact=True).count() == 1
    heading, anchor = page.locator("#softmax-shares").bounding_box(), link.bounding_box()
    assert anchor["x"] > heading["x"] + heading["width"] - 1 and abs(anchor["y"] - heading["y"]) < heading["height"]


def test_toc_tracking_reattaches_after_an_in_place_navigation(guarded, features_site):
    page = guarded
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(features_site + "features.html")
    page.locator("a[rel=next]").click()
    page.wait_for_function("() => document.title.startsWith('Second')")
    page.mouse.move(400, 400)
    scroll_to_heading(page, "part-3")
    page.wait_for_function("() => { const a = document.querySelector('.ex-toc a[aria-current]');"
                           " return a && a.getAttribute('href') === '#part-3'; }")


@pytest.mark.parametrize("width", [1200, 390])
def test_the_search_box_comes_into_a_place_kept_for_it(guarded, features_site, width):
    """Pins an author's finding: the box came after the first frame into a row of its own
    under the header (at 1200 px too), moving the whole page down as the reader began
    to read. The header keeps the box's place from its first frame, in its own row only
    where the row is full."""
    page = guarded
    page.set_viewport_size({"width": width, "height": 800})
    page.goto(features_site + "features.html", wait_until="domcontentloaded")
    where = "() => [document.querySelector('main h1').getBoundingClientRect().top, " \
            "document.querySelector('.ex-search').getBoundingClientRect().toJSON()]"
    before = page.evaluate(where)
    page.locator("#ex-search-input").wait_for()
    after = page.evaluate(where)
    assert before == after
    box = page.locator("#ex-search-input").bounding_box()
    assert (box["width"], box["height"]) == (after[1]["width"], after[1]["height"])
    if width == 1200:  # beside the title and the lessons
        title = page.locator(".ex-site-title").bounding_box()
        assert box["y"] < title["y"] + title["height"]


def test_the_pager_lines_up_with_the_text(guarded, features_site):
    """Pins a reader's finding: beside the contents at 1280 px the text ran 168-840 px and
    the Next/Previous cards 304-976, centred on the page rather than on the text. (The
    page loaded once, the window made narrower.)"""
    page = guarded
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(features_site + "features.html")
    for width in (1280, 1024, 700):
        page.set_viewport_size({"width": width, "height": 800})
        edges = page.evaluate("""() => [document.querySelector('main .ex-part > p'), document.querySelector('.ex-pager')]
            .map(e => { const r = e.getBoundingClientRect(); return [Math.round(r.left), Math.round(r.right)]; })""")
        assert edges[0] == edges[1], (width, edges)


def test_search_by_keyboard_lands_on_the_section(guarded, features_site):
    page = guarded
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(features_site + "features.html")
    assert page.evaluate("() => !window.explorables.searchIndex"), "the index loads only on first use"
    page.locator("body").click(position={"x": 5, "y": 300})
    page.locator("#ex-search-input").wait_for()  # the box comes with js/later.js, after the first frame
    page.keyboard.press("/")
    assert page.evaluate("() => document.activeElement.id") == "ex-search-input"
    page.evaluate("() => { window.__samePage = true; }")
    page.keyboard.type("part 3")
    options = page.locator("#ex-search-results [role=option]")
    options.first.wait_for()
    assert options.first.inner_text().startswith("Second › Part 3")
    assert options.first.get_attribute("aria-selected") == "true"
    # the results open under the box (they opened at the header's far end, the box at its start)
    box, results = page.locator("#ex-search-input").bounding_box(), page.locator("#ex-search-results").bounding_box()
    assert results["y"] >= box["y"] + box["height"] - 1 and abs(results["x"] + results["width"] - box["x"] - box["width"]) < 2
    page.keyboard.press("Enter")
    page.wait_for_function("() => location.pathname.endsWith('second.html') && location.hash === '#part-3'")
    assert page.evaluate("() => window.__samePage === true"), "the section was swapped in, not reloaded"
    top = page.evaluate("() => document.getElementById('part-3').getBoundingClientRect().top")
    assert 0 <= top < 200
    assert page.evaluate("() => document.activeElement.id") == "part-3"  # focus lands on the heading
    # the search box is there again on the swapped-in page, and arrows move through results
    page.locator("#ex-search-input").wait_for()  # the box comes with js/later.js, after the first frame
    page.keyboard.press("/")
    page.keyboard.type("softmax shares")
    page.locator("#ex-search-results [role=option]").first.wait_for()
    count = page.locator("#ex-search-results [role=option]").count()
    page.keyboard.press("ArrowDown")
    selected = page.locator("#ex-search-results [aria-selected=true]")
    assert selected.get_attribute("id") == ("ex-search-result-1" if count > 1 else "ex-search-result-0")
    page.keyboard.press("ArrowUp")
    assert page.locator("#ex-search-results [aria-selected=true]").inner_text().startswith("Features › Softmax shares")
    assert page.locator("#ex-search-input").get_attribute("aria-activedescendant") == "ex-search-result-0"
    page.keyboard.press("Enter")
    page.wait_for_function("() => location.pathname.endsWith('features.html') && location.hash === '#softmax-shares'")
    page.locator("#ex-search-input").wait_for()  # the box comes with js/later.js, after the first frame
    page.keyboard.press("/")
    page.keyboard.type("qqqzzz")
    page.locator(".ex-search-none").wait_for()
    page.keyboard.press("Escape")
    assert page.locator("#ex-search-results").is_hidden()


def test_search_results_write_scripts_as_sub_and_superscripts(guarded, features_site):
    """Pins a reader's finding: results read "then W_O" and "xₜW_Q^h": a capital has no
    Unicode subscript."""
    page = guarded
    page.goto(features_site + "features.html")
    page.locator("#ex-search-input").click()
    page.keyboard.type("W_O")
    first = page.locator("#ex-search-results [role=option]").first
    first.wait_for()
    where, excerpt = first.locator(".ex-search-where"), first.locator(".ex-search-excerpt")
    assert where.inner_text().replace("\n", "") == "Joining › Then WO"
    assert where.locator("sub").inner_text() == "O"
    assert excerpt.evaluate("e => e.innerHTML") == "The matrix W<sub>O</sub> maps xₜW<sub>Q</sub><sup>h</sup> back."


def test_slash_before_the_search_box_exists_focuses_it_when_it_comes(guarded, features_site):
    """js/later.js (which makes the box) held back: "/" is remembered, not lost."""
    page = guarded
    held = []
    page.route(re.compile(r".*/js/later\.[0-9a-f]{8}\.js$"), lambda route: held.append(route))
    page.goto(features_site + "features.html")
    page.wait_for_function("() => performance.getEntriesByName('explorables:first-frame').length > 0")
    page.locator("body").click(position={"x": 5, "y": 300})
    assert page.locator("#ex-search-input").count() == 0
    page.keyboard.press("/")
    deadline = time.monotonic() + 120  # until the route has it (the page asks at once; a busy machine is slow)
    while not held and time.monotonic() < deadline:
        page.wait_for_timeout(20)  # lets Playwright hand the route over: a poll of ``held``, not a wait for time
    held[0].continue_()
    page.locator("#ex-search-input").wait_for()
    page.wait_for_function("() => document.activeElement.id === 'ex-search-input'")
    page.keyboard.type("part")
    assert page.locator("#ex-search-input").input_value() == "part"  # no "/" typed into it


def test_search_works_from_an_offline_bundle(browser, tmp_path):
    from explorables.site_builder.commands.bundle import bundle_site
    content = tmp_path / "content"
    content.mkdir()
    (content / "01-a.md").write_text("---\ntitle: First\n---\n\nIntro.\n\n## Tokens\n\nText.\n", encoding="utf-8")
    (content / "02-b.md").write_text("---\ntitle: Second\n---\n\nIntro.\n\n## Rotations\n\nMore text.\n", encoding="utf-8")
    folder = tmp_path / "bundle"
    bundle_site(content, folder=folder)
    page = browser.new_page()
    errors = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto((folder / "a.html").as_uri())
    page.locator("#ex-search-input").click()
    page.keyboard.type("rotation")
    option = page.locator("#ex-search-results [role=option]").first
    option.wait_for()
    assert option.inner_text().startswith("Second › Rotations")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.title.startsWith('Second')")
    page.locator("#rotations").wait_for()
    assert not errors, errors
    page.close()
