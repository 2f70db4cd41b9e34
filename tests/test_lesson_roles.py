"""The track's prose is bound to its figures: each of lessons 2 to 5 quotes the numbers
that depend on its figure as live numbers ({value}), lets the reader set the figure
from a sentence ({adjust}) where the figure has a number control, and runs experiments
from the text ({try}); the track's exercises are built-in types."""
from __future__ import annotations

import re

import pytest

from explorables.engine.exercises import EXERCISES
from explorables.engine.figures import FIGURES
from explorables.engine.figures.kit.params import Slider
from explorables.site_builder.markdown.directives.roles import write
from figure_helpers import ROOT, lesson_roles

CONTENT = ROOT / "content"
LESSONS = {  # lesson -> (figure directive, figure id)
    "02-attention-heatmap.md": ("attention-heatmap", "table"),
    "03-attention-lab.md": ("attention-lab", "lab"),
    "04-two-heads.md": ("attention-heads", "heads"),
    "05-positional-encoding.md": ("positional-encoding", "clocks"),
    "06-rotary-positions.md": ("rotary-positions", "rope"),
    "08-cross-attention.md": ("cross-attention", "cross"),
}

# Numbers the lessons quote about the figure's first frame: each must be the figure's ({value}).
BOUND = {
    "02-attention-heatmap.md": ["table.weights[2][3]:percent", "table.weights[0][2]:percent", "table.entropy[2]",
                                "table.entropy[11]", "table.weights[10][7]:percent", "table.entropy[10]",
                                "table.outputs[2][1]", "table.outputs[11][2]", "table.cells"],
    # a sentence about the first frame only (at T = 1): computed by the figure, not following it
    "03-attention-lab.md": ["lab.scores[4][1]:first", "lab.weights[4][1]:first", "lab.weights[4][4]:first",
                            "lab.outputs[4][0]:first", "lab.outputs[4][1]:first", "lab.weights[4][1]:percent"],
    "04-two-heads.md": ["heads.weights[0][6][1]", "heads.weights[1][6][2]", "heads.head_outputs[0][6][0]",
                        "heads.head_outputs[1][6][1]", "heads.concat[6][3]", "heads.contributions[1][6][0]",
                        "heads.outputs[6][1]"],
    "05-positional-encoding.md": ["clocks.similarity_at_offset"],
    "06-rotary-positions.md": ["rope.content:first", "rope.score:first", "rope.offset", "rope.score"],
    "08-cross-attention.md": ["cross.top:first", "cross.weights[3][3]:first", "cross.weights[3][4]:first",
                              "cross.x:first", "cross.moved:first", "cross.new:first", "cross.top", "cross.new"],
}


def first_values(lesson: str) -> dict:
    figure, figure_id = LESSONS[lesson]
    text = (CONTENT / lesson).read_text(encoding="utf-8")
    block = re.search(rf"^:::\{{{figure}\}} {figure_id}\n((?::\w+: .*\n)*):::$", text, re.M)
    model = FIGURES[figure]
    written = dict(re.findall(r"^:(\w+): (.*)$", block.group(1), re.M))
    options = model.parse_options({k: v for k, v in written.items() if k != "caption"})  # the page's option
    return model.scene(model.initial_state(options))["values"]


def target(meta: dict) -> str:
    return meta["raw"].split("`")[1].split("<")[-1].rstrip(">").strip()


@pytest.mark.parametrize("lesson", sorted(LESSONS))
def test_each_lesson_quotes_its_figure_through_live_numbers(lesson):
    roles = lesson_roles(CONTENT / lesson)
    bound = {target(m) for m in roles if m["role"] == "value"}
    assert set(BOUND[lesson]) <= bound, set(BOUND[lesson]) - bound


@pytest.mark.parametrize("lesson", sorted(LESSONS))
def test_every_live_number_is_the_engine_s_for_the_first_frame(lesson):
    values = first_values(lesson)
    figure = FIGURES[LESSONS[lesson][0]]
    for meta in lesson_roles(CONTENT / lesson):
        if meta["role"] != "value":
            continue
        raw = values[meta["name"]]
        for i in (meta["index"] or "").split(",") if meta["index"] else []:
            raw = raw[int(i)]
        digits = next(v.digits for v in figure.values if v.name == meta["name"])
        assert meta["text"] == write(raw, meta["format"], digits), meta["raw"]


@pytest.mark.parametrize("lesson", sorted(LESSONS))
def test_each_lesson_runs_an_experiment_from_its_text_and_adjusts_what_it_can(lesson):
    figure = FIGURES[LESSONS[lesson][0]]
    roles = lesson_roles(CONTENT / lesson)
    kinds = [m["role"] for m in roles]
    assert kinds.count("try") >= 1
    assert {m["name"] for m in roles if m["role"] == "try"} <= {e.name for e in figure.experiments}
    sliders = [p for p in figure.params if isinstance(p, Slider) and p.control]
    if sliders:
        assert kinds.count("adjust") >= 1, f"{lesson}: its figure has sliders, the prose sets none"
    else:  # lesson 4: the two heads' figure has no number control to adjust
        assert lesson == "04-two-heads.md" and kinds.count("adjust") == 0


def test_the_track_s_exercises_are_built_in_types():
    """Which lesson has which exercise is pinned in test_lessons.py; here: every one is a
    built-in type, and the output vector follows lesson 2's worked 3-token problem."""
    found = {}
    for path in sorted(CONTENT.glob("0*.md")):
        for kind in re.findall(r"^:::\{exercise\} ([\w-]+)$", path.read_text(encoding="utf-8"), re.M):
            found.setdefault(kind, []).append(path.name)
    assert set(found) <= set(EXERCISES)
    assert {"scaled-score", "softmax-weight", "output-vector", "projected-score", "head-concat",
            "offset-similarity", "residual-sum"} <= set(found)
    assert found["output-vector"] == ["02-attention-heatmap.md"]  # after the worked 3-token problem


# --- quoting one cell of a table ----------------------------------------------------------------

TABLE = ":::{attention-heatmap} table\n:preset: sentence\n:::\n"


def build(tmp_path, text: str):
    from explorables.site_builder.markdown.parser import create_parser, parse_page, render_page

    source = tmp_path / "page.md"
    source.write_text(text, encoding="utf-8")
    md = create_parser(raw_html=False)
    page = parse_page(md, source, "page")
    return render_page(md, page), [e.format(tmp_path) for e in page.errors]


def test_a_cell_of_a_table_is_quoted_by_row_then_column(tmp_path):
    html, errors = build(tmp_path, "Dog to chased: {value}`table.weights[2][3]:percent`.\n\n" + TABLE)
    assert errors == []
    model = FIGURES["attention-heatmap"]
    weights = model.scene(model.initial_state(model.parse_options({"preset": "sentence"})))["values"]["weights"]
    assert (f'data-value="weights" data-index="2,3" data-format="percent" data-digits="2" '
            f'data-say="weights 2 3: {{}}">{write(weights[2][3], "percent", 2)}</span>') in html


@pytest.mark.parametrize("role, message", [
    ("table.weights[2]", "page.md:1:1: {value}: 'weights[2]' is a row of 12 numbers; a sentence quotes one of "
                         "them\n    add its position, e.g. {value}`table.weights[2][0]`"),
    ("table.weights[2][12]", "page.md:1:1: {value}: 'weights[2]' has 12 elements, so [12] is past its end\n"
                             "    positions run from 0 to 11"),
    ("table.weights", "page.md:1:1: {value}: 'weights' is a list; a sentence quotes one of its elements\n"
                      "    pick one by its position from 0, e.g. {value}`table.weights[1]` or, in a table, "
                      "{value}`table.weights[1][2]` (row, then column)"),
    ("table.entropy[2][0]", "page.md:1:1: {value}: 'entropy[2]' is a single number, not a list\n    drop the [0]"),
])
def test_a_cell_that_is_not_one_number_is_an_error_at_its_place(tmp_path, role, message):
    html, errors = build(tmp_path, f"{{value}}`{role}`\n\n" + TABLE)
    assert errors == [message]
    assert "<code>{value}" in html
