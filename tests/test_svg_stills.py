"""A figure's still: its first frame as SVG, written by the build (site_builder/svg.py)
for print, PDF, pages without JavaScript and an engine that could not start; the
print-ready page of the whole track; the size on the data-saving Start button."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from explorables.engine.figures import FIGURES
from explorables.site_builder.output import assets, svg
from explorables.site_builder.output.scripts import stylesheet
from explorables.site_builder.pyodide import release as pyodide
from explorables.site_builder.commands.build import ASSETS, PRINT_PAGE
from explorables.site_builder.commands.build_write import megabytes
from explorables.site_builder.markdown.directives.figure import initial

ROOT = Path(__file__).resolve().parent.parent
CSS = stylesheet(ROOT / "static")
NS = "{http://www.w3.org/2000/svg}"


def first_frames():
    """(name, scene) of every built-in figure with its default options."""
    for name, model in sorted(FIGURES.items()):
        yield name, initial(name, model.parse_options({}))["scene"]


def parse(markup: str) -> ET.Element:
    return ET.fromstring(markup.replace("<svg ", f'<svg xmlns="{NS[1:-1]}" ', 1))


def classes(el: ET.Element) -> set[str]:
    return set((el.get("class") or "").split())


def marks_of(root: ET.Element) -> list[ET.Element]:
    """The elements that stand for one scene mark each (class "mk"), outermost only."""
    found = []

    def walk(el):
        for child in el:
            if "mk" in classes(child):
                found.append(child)
            else:
                walk(child)
    walk(root)
    return found


def expected_marks(panel: dict) -> int:
    if panel["kind"] in ("plane", "chart"):
        return len(panel.get("marks") or []) + len(panel.get("series") or [])
    if panel["kind"] == "cells":
        return sum(len(row) for row in panel["rows"])
    if panel["kind"] == "bars":
        return len(panel["bars"])
    return 0


@pytest.mark.parametrize("name,scene", list(first_frames()), ids=[n for n, _ in first_frames()])
def test_every_panel_has_one_svg_element_a_mark_and_no_style(name, scene):
    drawn = 0
    for panel in scene["panels"]:
        html = svg.panel_html(panel)
        assert "style=" not in html, f"{name} {panel['id']}: a style attribute breaks the page's CSP"
        found = re.findall(r"<svg .*?</svg>", html, re.S)
        if panel["kind"] in ("plane", "chart", "cells", "bars"):
            assert len(found) == 1, f"{name} {panel['id']}: one <svg> a drawn panel"
            root = parse(found[0])  # well-formed XML
            assert len(marks_of(root)) == expected_marks(panel), f"{name} {panel['id']}"
            assert not any(el.get("style") for el in root.iter())
            drawn += 1
        else:
            assert not found
    assert drawn, f"{name}: no panel was drawn"


def test_names_and_numbers_of_the_scene_are_text_in_the_svg():
    scene = initial("attention-row", FIGURES["attention-row"].parse_options({}))["scene"]
    plane = next(p for p in scene["panels"] if p["kind"] == "plane")
    root = parse(svg.plane_svg(plane))
    texts = {t.text for t in root.iter(f"{NS}text")}
    names = {m["label"] for m in plane["marks"] if m.get("label")}
    assert names and names <= texts
    cells = next(p for p in scene["panels"] if p["kind"] == "cells")
    texts = {t.text for t in parse(svg.cells_svg(cells)).iter(f"{NS}text")}
    assert {c["text"] for row in cells["rows"] for c in row} <= texts


def test_points_sit_where_the_canvas_puts_them():
    """plane.js's view: data (0, 0) of a square [-3, 3] plane 400 px wide is its centre."""
    spec = {"kind": "plane", "id": "p", "x": [-3, 3], "y": [-3, 3], "square": True, "grid": 0,
            "marks": [{"kind": "point", "x": 0, "y": 0, "role": "key"},
                      {"kind": "point", "x": 3, "y": 3, "role": "query", "shape": "ring"}]}
    root = parse(svg.plane_svg(spec))
    assert root.get("viewBox") == "0 0 400 400"
    centre, corner = root.iter(f"{NS}circle")
    assert (centre.get("cx"), centre.get("cy")) == ("200", "200")
    assert (corner.get("cx"), corner.get("cy")) == ("382", "18")  # PAD 18 from the edge
    assert {"c-query", "ring"} <= classes(corner)


def test_every_colour_class_of_a_still_has_a_rule_in_the_stylesheet():
    used = set()
    for _, scene in first_frames():
        used |= set(re.findall(r'class="[^"]*?\b(c-[a-z0-9]+)', svg.still(scene)))
    assert used
    for name in used:
        assert f".{name} {{" in CSS, f"explorables.css has no rule for .{name}"
    for role in ("query", "key", "value", "output", "own", "muted", "hull", "accent", "head1", "head2",
                 "positive", "negative", "axis", "grid", "text"):  # SCENE.md's roles
        assert f".c-{role} {{ --c: var(--ex-{role}); }}" in CSS


def test_the_still_says_what_the_live_figure_lets_the_reader_do():
    scene = initial("attention-row", FIGURES["attention-row"].parse_options({}))["scene"]
    sentence = svg.actions(scene)
    assert sentence.startswith("In the live figure you can drag the points")
    assert sentence.endswith(" and try the experiments.")
    assert svg.actions({"panels": [], "controls": []}) == ""


def test_a_built_lesson_carries_one_still_a_figure_after_its_data(built_site):
    html = (built_site / "one-query-row.html").read_text(encoding="utf-8")
    figures = re.findall(r'<figure class="ex-figure".*?</figure>', html, re.S)
    assert figures
    for figure in figures:
        assert figure.count('<div class="ex-still">') == 1
        assert figure.index("ex-data") < figure.index("ex-still")
        assert '<p class="ex-still-note">In the live figure you can ' in figure
    assert "style=" not in html
    index = (built_site / ASSETS / assets.names_in(built_site)["search-index.js"]).read_text(encoding="utf-8")
    assert "live figure" not in index  # search finds the lesson's words, not the stills' repeats


def test_print_page_holds_every_lesson_and_its_stills(built_site):
    html = (built_site / PRINT_PAGE).read_text(encoding="utf-8")
    lessons = sorted(p for p in built_site.glob("*.html")
                     if p.name not in ("index.html", "404.html", "notices.html", PRINT_PAGE))
    assert len(re.findall(r'<article class="ex-lesson ex-print-lesson" id="[^"]+">', html)) == len(lessons)
    stills = sum(p.read_text(encoding="utf-8").count('<div class="ex-still">') for p in lessons)
    assert html.count('<div class="ex-still">') == stills > 0
    scripts = re.findall(r'<script defer src="([^"]+)"', html)  # no engine: paper needs none,
    assert len(scripts) == 1 and "/js/scrollers." in scripts[0]  # only Tab stops for wide boxes
    index = (built_site / "index.html").read_text(encoding="utf-8")
    assert f'href="{PRINT_PAGE}">Print the whole track</a>' in index


def test_the_start_button_s_size_is_the_download_s(built_site):
    folder = built_site / ASSETS / assets.PYODIDE
    for name in pyodide.SITE_FILES:
        assert (folder / name).stat().st_size == pyodide.CORE_BYTES[name], name
    names = assets.names_in(built_site)
    engine, python_lib = (built_site / ASSETS / names[name] for name in ("engine.zip", "stdlib.zip"))
    total = sum(p.stat().st_size for p in [*folder.iterdir(), engine, python_lib])
    html = (built_site / "one-query-row.html").read_text(encoding="utf-8")
    assert f'data-engine-size="{megabytes(total)}"' in html
    assert megabytes(13_652_045) == "13.7 MB"


def test_stills_cost_a_lesson_at_most_5_kb_gzip(built_site):
    """The first frame's budget (benchmarks/bench_lifecycle.py): a lesson's stills, as
    GitHub Pages serves the page (gzip), stay small beside the rest of it."""
    import gzip

    still = re.compile(r'<div class="ex-still">.*?</div>\n(?=<figcaption|</figure>)', re.S)
    costs = {}
    for page in built_site.glob("*.html"):
        html = page.read_text(encoding="utf-8")
        if page.name == PRINT_PAGE or 'class="ex-still"' not in html:
            continue
        costs[page.name] = len(gzip.compress(html.encode(), 6)) - len(gzip.compress(still.sub("", html).encode(), 6))
    lessons = Path(__file__).resolve().parent.parent.glob("content/0*.md")
    assert len(costs) == len(list(lessons))  # every lesson has a figure, and so a still
    assert max(costs.values()) <= 5 * 1024, costs


def test_names_of_neighbouring_points_do_not_overprint():
    spec = {"kind": "plane", "id": "p", "x": [-3, 3], "y": [-3, 3], "square": True,
            "marks": [{"kind": "point", "x": 0, "y": 0, "label": "hungry", "role": "key"},
                      {"kind": "point", "x": 0.05, "y": -0.2, "label": "multi-head", "role": "output"}]}
    names = [t for t in parse(svg.plane_svg(spec)).iter(f"{NS}text") if "nm" in classes(t)]
    assert len(names) == 2
    (x1, y1), (x2, y2) = [(float(t.get("x")), float(t.get("y"))) for t in names]
    w1, w2 = 7 * len("hungry") + 2, 7 * len("multi-head") + 2
    apart_x = abs(x1 - x2) >= (w1 + w2) / 2
    apart_y = abs(y1 - y2) >= 15
    assert apart_x or apart_y, names


def test_the_print_page_keeps_each_lesson_s_ids_apart(built_site):
    """Lessons side by side on print.html: no id twice, and every in-page reference
    (anchor, label, ARIA) still reaches an element."""
    import re
    from collections import Counter

    html = (built_site / "print.html").read_text()
    ids = Counter(re.findall(r'\sid="([^"]+)"', html))
    assert ids and not [i for i, n in ids.items() if n > 1]
    refs = re.findall(r'href="#([^"]+)"', html) + re.findall(r'\bfor="([^"]+)"', html)
    refs += [r for group in re.findall(r'aria-(?:labelledby|describedby|controls)="([^"]+)"', html) for r in group.split()]
    assert refs and all(r in ids for r in refs), [r for r in refs if r not in ids][:5]


def test_a_control_s_label_inside_the_sentence_keeps_what_must_stay_capital():
    """Pins a bug: the labels were lower-cased whole: "set temperature t", and in German
    "können Sie wert a einstellen" (German nouns keep their capital)."""
    from explorables.engine import locale
    from explorables.site_builder.output.svg import _mid_sentence

    assert [_mid_sentence(x) for x in ("Temperature T", "W_Q matrix", "PE base")] == \
        ["temperature T", "W_Q matrix", "PE base"]
    try:
        locale.use("de")
        assert _mid_sentence("Wert a") == "Wert a"
    finally:
        locale.use("en")


def test_a_chart_s_negative_ticks_have_a_minus_sign():
    """Pins a reader's finding: lesson 5's similarity axis read "-1", a hyphen squeezed
    against the 0 below it, where every other number has a minus sign."""
    scene = dict(first_frames())["positional-encoding"]
    chart = next(p for p in scene["panels"] if p["kind"] == "chart")
    drawing = re.search(r"<svg .*?</svg>", svg.panel_html(chart), re.S).group(0)
    ticks = [t.text for t in parse(drawing).iter(f"{NS}text") if "tk" in classes(t)]
    assert "−1" in ticks and not any(t.startswith("-") for t in ticks), ticks


def test_the_lowest_y_number_sits_clear_of_the_first_x_number():
    """Pins a reader's finding: lesson 5's "−1" at the foot of the similarity axis ran
    into the "0" under it. The lowest y number sits above its tick (the canvas does the
    same, static/js/panels/plane.js)."""
    scene = dict(first_frames())["positional-encoding"]
    chart = next(p for p in scene["panels"] if p["kind"] == "chart")
    drawing = re.search(r"<svg .*?</svg>", svg.panel_html(chart), re.S).group(0)
    texts = [t for t in parse(drawing).iter(f"{NS}text") if "tk" in classes(t)]
    low = next(float(t.get("y")) for t in texts if t.text == "−1")  # the y axis's foot
    zero = next(float(t.get("y")) for t in texts if t.text == "0" and t.get("text-anchor") == "middle")  # x's first
    assert zero - low >= 13  # a line of 10 px type and a little air
