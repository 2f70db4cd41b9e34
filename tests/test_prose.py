"""Prose bound to figures: live numbers, adjustable numbers, experiments from the text,
admonitions, captions and references, and the math they sit beside.

The HTML each role writes is pinned by the fixtures in tests/fixtures/markdown/; here:
the numbers equal the engine's, and every author mistake is reported at path:line:col.
"""
from __future__ import annotations

import html as html_lib
import json
import re

import pytest

from explorables.engine.figures import FIGURES
from explorables.figures import Value
from explorables.site_builder.markdown.directives.roles import write
from explorables.site_builder.markdown.parser import create_parser, parse_page, render_page
from figure_helpers import ROOT

ROW = FIGURES["attention-row"]
FIGURE = ":::{attention-row} explorer\n:temperature: 0.5\n:::\n"


def build(tmp_path, text: str, name: str = "page.md"):
    source = tmp_path / name
    source.write_text(text, encoding="utf-8")
    md = create_parser(raw_html=False)
    page = parse_page(md, source, "page")
    html = render_page(md, page)
    return html, [e.format(tmp_path) for e in page.errors]


def first_values(options: dict) -> dict:
    return ROW.scene(ROW.initial_state(ROW.parse_options(options)))["values"]


# --- live numbers ----------------------------------------------------------------------------

def test_a_live_number_is_the_engine_s_value_for_the_figure_s_first_state(tmp_path):
    html, errors = build(tmp_path, "Cat: {value}`explorer.weights[1]:percent`, "
                                   "o = {value}`explorer.output`, H = {value}`explorer.entropy`.\n\n" + FIGURE)
    assert errors == []
    values = first_values({"temperature": "0.5"})
    spec = {v.name: v for v in ROW.values}
    shown = re.findall(r'<span class="ex-value"[^>]*>([^<]*)</span>', html)
    assert shown == [Value("w", "percent", "").text(values["weights"][1]),
                     spec["output"].text(values["output"]), spec["entropy"].text(values["entropy"])]
    assert shown[0] == "58%"  # by hand: the figure at T = 0.5 gives cat 0.576


def test_a_live_number_may_come_before_its_figure_and_sit_inside_a_question(tmp_path):
    html, errors = build(tmp_path, FIGURE + "\n::::{question} Why?\nBecause {value}`explorer.entropy`.\n::::\n")
    assert errors == []
    assert 'data-value="entropy"' in html


@pytest.mark.parametrize("raw, format_, digits, text", [
    (0.4545, "percent", 2, "45%"), (0.053, "percent", 2, "5.3%"), (0.0, "percent", 2, "0%"),
    (-0.001, "decimal", 2, "0.00"), (-1.5, "decimal", 2, "\u22121.50"), ([1.19, -0.4], "vector", 2, "(1.19, \u22120.40)"),
    (3.0, "integer", 2, "3"), (True, "bool", 2, "on"), ("cat", "token", 2, "cat"),
])
def test_the_prose_writes_a_value_as_the_kit_does(raw, format_, digits, text):
    assert write(raw, format_, digits) == text
    assert Value("x", format_, "", digits).text(raw) == text


@pytest.mark.parametrize("line, message", [
    ("A {value}`explorr.output`.",
     "page.md:1:3: {value}: no figure 'explorr' on this page\n"
     "    did you mean 'explorer'? figures on this page: explorer"),
    ("A {value}`explorer.outptu`.",
     "page.md:1:3: {value}: figure 'explorer' (attention-row) has no value 'outptu'\n"
     "    did you mean 'output'? `explorables figures attention-row` lists them with their formats"),
    ("A {value}`explorer.weights`.",
     "page.md:1:3: {value}: 'weights' is a list; a sentence quotes one of its elements\n"
     "    pick one by its position from 0, e.g. {value}`explorer.weights[1]`"),
    ("A {value}`explorer.weights[6]`.",
     "page.md:1:3: {value}: 'weights' has 6 elements, so [6] is past its end\n"
     "    positions run from 0 to 5"),
    ("A {value}`explorer.entropy[0]`.",
     "page.md:1:3: {value}: 'entropy' is a single decimal, not a list\n    drop the [0]"),
    ("A {value}`explorer.weights[1]:percnt`.",
     "page.md:1:3: {value}: unknown format 'percnt'\n"
     "    did you mean 'percent'? formats: percent, decimal, integer"),
    ("A {value}`explorer`.",
     "page.md:1:3: {value}: cannot read 'explorer'\n"
     "    write the figure id and a value name, e.g. {value}`explorer.entropy`, "
     "{value}`explorer.weights[1]:percent` or, the first frame's number only, "
     "{value}`explorer.weights[1]:percent:first`"),
    ("Words first, then {adjust}`explorer.temprature`.",
     "page.md:1:19: {adjust}: figure 'explorer' (attention-row) has no number control 'temprature'\n"
     "    did you mean 'temperature'? its number controls: temperature"),
    ("A {try}`Cool <explorer.sharpn>`.",
     "page.md:1:3: {try}: figure 'explorer' (attention-row) has no experiment 'sharpn'\n"
     "    did you mean 'sharpen'? its experiments: sharpen, flatten, hide-future, same-keys, "
     "short-query, pull-key, first-word, double-keys"),
    ("A {valeu}`explorer.output`.",
     "page.md:1:3: unknown role '{valeu}'\n"
     "    did you mean 'value'? known roles: value, adjust, try, numref, eq"),
])
def test_a_bad_role_is_an_error_at_its_line_and_column(tmp_path, line, message):
    html, errors = build(tmp_path, line + "\n\n" + FIGURE)
    assert errors == [message]
    assert "<code>{" in html  # shown as the author wrote it, never as a wrong number


def test_an_error_on_a_later_line_of_a_paragraph_names_that_line(tmp_path):
    _, errors = build(tmp_path, "First line,\n  then {value}`explorer.nope`.\n\n" + FIGURE)
    assert errors[0].startswith("page.md:2:8: {value}: figure 'explorer'")


# --- adjustable numbers and experiments ------------------------------------------------------

def test_an_adjustable_number_carries_the_slider_s_range_step_and_first_value(tmp_path):
    html, errors = build(tmp_path, "T = {adjust}`explorer.temperature`.\n\n" + FIGURE)
    assert errors == []
    slider = ROW.param("temperature")
    span = re.search(r'<span class="ex-adjust"[^>]*>([^<]*)</span>', html)
    assert span.group(1) == "0.50"
    attrs = dict(re.findall(r'([\w-]+)="([^"]*)"', span.group(0)))
    assert attrs["role"] == "slider" and attrs["tabindex"] == "0"
    assert float(attrs["aria-valuemin"]) == slider.lo and float(attrs["aria-valuemax"]) == slider.hi
    assert attrs["aria-valuenow"] == "0.5" and attrs["aria-label"] == "Temperature T"
    # the slider's control as the first frame's scene declares it, read whole by prose.js
    control = json.loads(html_lib.unescape(attrs["data-control"]))
    scene = ROW.scene(ROW.initial_state(ROW.parse_options({"temperature": "0.5"})))
    declared = next(c for c in scene["controls"] if c["name"] == "temperature")
    assert control == {k: declared[k] for k in ("min", "max", "step", "digits", "log", "log_steps")}
    assert control["step"] == slider.by and control["log"] is True and control["log_steps"] == slider.log_steps


def test_an_adjustable_number_takes_a_range_that_follows_the_state_and_an_even_step(tmp_path):
    """The heatmap's token count ends at the first frame's last token (12 for the
    sentence); positional encoding's dimension steps by 2: both as their controls say."""
    html, errors = build(tmp_path, "n = {adjust}`table.n`, d = {adjust}`clocks.dim`.\n\n"
                         ":::{attention-heatmap} table\n:::\n\n:::{positional-encoding} clocks\n:::\n")
    assert errors == []
    spans = re.findall(r'<span class="ex-adjust"[^>]*data-control="([^"]*)"', html)
    n, dim = (json.loads(html_lib.unescape(s)) for s in spans)
    assert (n["min"], n["max"], n["step"]) == (1, 12, 1) and "log" not in n
    assert dim["step"] == 2


def test_an_adjustable_number_must_be_a_number_control(tmp_path):
    _, errors = build(tmp_path, "{adjust}`explorer.causal`\n\n" + FIGURE)
    assert errors == ["page.md:1:1: {adjust}: figure 'explorer' (attention-row) has no number control 'causal'\n"
                      "    its number controls: temperature"]


def test_an_experiment_button_takes_the_experiment_s_label_or_the_author_s_words(tmp_path):
    html, errors = build(tmp_path, "{try}`explorer.flatten` and {try}`Warm it <explorer.flatten>`\n\n" + FIGURE)
    assert errors == []
    labels = re.findall(r'<button type="button" class="ex-try" data-figure="explorer" '
                        r'data-experiment="flatten"[^>]*>([^<]*)</button>', html)
    assert labels == [str(next(e.label for e in ROW.experiments if e.name == "flatten")), "Warm it"]


def test_lesson_1_binds_its_prose_to_the_figure():
    md = create_parser(raw_html=False)
    page = parse_page(md, ROOT / "content" / "01-one-query-row.md", "one-query-row")
    html = render_page(md, page)
    assert page.errors == []
    assert html.count('class="ex-value"') >= 3
    assert html.count('class="ex-adjust"') >= 1
    assert html.count('class="ex-try"') >= 1
    values = first_values({"query": "chased", "temperature": "1"})
    assert f'data-index="1" data-format="percent" data-digits="2" data-say="cat&#x27;s weight {{}}">' \
           f'{Value("w", "percent", "").text(values["weights"][1])}</span>' in html


# --- admonitions -------------------------------------------------------------------------------

@pytest.mark.parametrize("text, message", [
    (":::{note}\n:clas: dropdown\nText.\n:::\n",
     "page.md:2:2: {note}: unknown option 'clas'\n    did you mean 'class'?"),
    (":::{tip}\n:class: drop<down>\nText.\n:::\n",
     "page.md:2:9: {tip}: class 'drop<down>' is not a simple name\n"
     "    use letters, digits, '-' and '_', e.g. ':class: dropdown'"),
    ("Text.\n\n:::{warning}\n:::\n",
     "page.md:3:1: {warning} is empty\n    write its text on the lines between ':::{warning}' and the closing ':::'"),
    (":::{notes}\nText.\n:::\n",
     "page.md:1:4: unknown directive '{notes}'\n"
     "    did you mean '{note}'? `explorables figures` lists every figure and its options"),
])
def test_a_bad_admonition_is_an_error_at_its_line(tmp_path, text, message):
    _, errors = build(tmp_path, text)
    assert errors == [message]


def test_an_admonition_s_extra_classes_reach_the_box(tmp_path):
    html, errors = build(tmp_path, ":::{important} Read this\n:class: wide dropdown\nText.\n:::\n")
    assert errors == []
    assert html.startswith('<details class="ex-admonition ex-important wide">\n<summary>Read this</summary>')


# --- captions, numbers and references ------------------------------------------------------------

@pytest.mark.parametrize("line, message", [
    ("See {numref}`explorr`.",
     "page.md:1:5: {numref}: no figure 'explorr' on this page\n"
     "    did you mean 'explorer'? figures here: explorer"),
    ("See {eq}`softmx`.",
     "page.md:1:5: {eq}: no labelled equation 'softmx' on this page\n"
     "    did you mean 'softmax'? labelled equations here: softmax"),
    # an id the page has, but nothing to take a text from (an id the page lacks: the link check, in the build)
    ("See [it]{#here} and [](#here).",
     "page.md:1:21: the link [](#here) has no text, and 'here' is no figure, equation or heading to take it from\n"
     "    write the link's text: [words](#target)"),
])
def test_a_reference_to_nothing_is_an_error(tmp_path, line, message):
    _, errors = build(tmp_path, line + "\n\n$$ a = b $$ (softmax)\n\n" + FIGURE)
    assert errors == [message]


def test_figures_are_numbered_in_page_order_and_captions_take_markdown(tmp_path):
    text = (":::{attention-row} first\n:::\n\n:::{attention-row} explorer\n:caption: The *second* one.\n"
            ":temperature: 0.5\n:::\n\nAs {numref}`explorer` and {numref}`Fig. %s <first>` show.\n")
    html, errors = build(tmp_path, text)
    assert errors == []
    assert ('<figcaption class="ex-caption"><span class="ex-caption-number">Figure 2.</span> '
            'The <em>second</em> one.</figcaption>\n</figure>') in html
    assert '<a class="ex-ref" href="#explorer">Figure 2</a> and <a class="ex-ref" href="#first">Fig. 1</a>' in html
    assert '"temperature":0.5' in html  # the caption line does not hide the options after it


def test_a_bad_option_after_a_caption_keeps_its_own_line(tmp_path):
    _, errors = build(tmp_path, ":::{attention-row} explorer\n:caption: Words.\n:temprature: 2\n:::\n")
    assert len(errors) == 1 and errors[0].startswith("page.md:3:")


def test_every_reference_of_lesson_1_resolves_to_an_id_on_the_page():
    md = create_parser(raw_html=False)
    page = parse_page(md, ROOT / "content" / "01-one-query-row.md", "one-query-row")
    html = render_page(md, page)
    targets = re.findall(r'class="ex-ref" href="#([^"]+)"', html)
    assert targets and all(f'id="{t}"' in html for t in targets)


# --- math ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, message", [
    ("Inline $a = b \\tag{1}$ here.\n",
     "page.md:1:8: \\tag numbers a display equation, not inline math: 'a = b \\tag{1}'; "
     "write the equation between $$ and $$\n"
     "    math is TeX between $...$ (inline) or $$...$$ (display)"),
    ("Text.\n\n$$\na = b \\tag{1} \\tag{2}\n$$\n",
     "page.md:3:1: an equation takes one \\tag, this one has 2: 'a = b \\tag{1} \\tag{2}'\n"
     "    math is TeX between $...$ (inline) or $$...$$ (display)"),
    ("See $\\operatorname*{arg}_j$.\n",
     "page.md:1:5: \\operatorname* (limits under the name) is not supported: '\\operatorname*{arg}_j'; "
     "write \\operatorname{...}_j, with the subscript beside the name\n"
     "    math is TeX between $...$ (inline) or $$...$$ (display)"),
    ("See $a & b$.\n",
     "page.md:1:5: '&' separates columns, but 'a & b' has one outside a table; use it inside "
     "\\begin{aligned}, \\begin{cases} or a matrix, or write \\& for the sign\n"
     "    math is TeX between $...$ (inline) or $$...$$ (display)"),
    ("One.\n\nTwo $\\argmx_j s_j$.\n",
     "page.md:3:5: unknown TeX command \\argmx in '\\argmx_j s_j'; did you mean \\argmax?\n"
     "    math is TeX between $...$ (inline) or $$...$$ (display)"),
])
def test_math_latex2mathml_cannot_render_is_an_error_at_its_place(tmp_path, text, message):
    _, errors = build(tmp_path, text)
    assert errors == [message]


def test_a_tag_is_set_beside_the_equation_not_after_the_formula(tmp_path):
    """Regression: `\\tag{1}` rendered as "= 1(1)", the number run into the formula."""
    html, errors = build(tmp_path, "$$\nx = 1 \\tag{1}\n$$\n")
    assert errors == []
    assert "<mtext>(1)</mtext>" not in html
    assert html.endswith('</math><span class="ex-eq-number">(1)</span></div>\n')


def test_aligned_makes_a_table_not_a_bare_ampersand(tmp_path):
    """Regression: `\\begin{aligned}` failed (latex2mathml writes <mi>&</mi>)."""
    html, errors = build(tmp_path, "$$\n\\begin{aligned} a &= b \\\\ c &= d \\end{aligned}\n$$\n")
    assert errors == []
    assert html.count("<mtr>") == 2 and "&</mi>" not in html


def test_explorables_figures_lists_what_prose_can_bind_to(capsys):
    from explorables.site_builder.commands.cli import main
    assert main(["figures", "attention-row"]) == 0
    out = capsys.readouterr().out
    assert "  values (window.explorables.figures[ID].values):\n    tokens: list\n        The words of the sentence." in out
    assert "    output: vector\n        The asking word's new vector" in out
    assert "  :temperature: a number from 0.05 to 5" in out  # what {adjust} binds to
    assert "    sharpen: Lower T to 0.1" in out


# --- exercises graded by the engine ------------------------------------------------------------

from explorables.engine.exercises import EXERCISES, AnswerError, read_answer  # noqa: E402


@pytest.mark.parametrize("typed, kind, decimal_comma, expected", [
    ("1.25", "number", False, 1.25), ("\u22120.5", "number", False, -0.5), (" -.5 ", "number", False, -0.5),
    ("45%", "weight", False, 0.45), ("0.45", "weight", False, 0.45), ("4,5 %", "weight", True, 0.045),
    ("(1.2, \u22120.4)", "vector", False, [1.2, -0.4]), ("1.2, -0.4", "vector", False, [1.2, -0.4]),
    ("(1,2; \u22120,4)", "vector", True, [1.2, -0.4]),
])
def test_an_answer_is_read_in_the_reader_s_notation(typed, kind, decimal_comma, expected):
    assert read_answer(typed, kind, 2, decimal_comma) == pytest.approx(expected)


@pytest.mark.parametrize("typed, kind, message", [
    ("", "number", "Type your answer: a number, such as 1.25."),
    ("abc", "number", "“abc” is not a number, such as 1.25."),
    ("1e999", "number", "“1e999” is not a number, such as 1.25."),
    ("45 percent", "weight", "“45 percent” is not a number from 0 to 1 or a percentage, such as 0.45 or 45%."),
    ("(1, 2, 3)", "vector", "“(1, 2, 3)” is not a vector of 2 numbers, such as (1.2, \u22120.4)."),
])
def test_an_unreadable_answer_says_what_form_is_expected(typed, kind, message):
    with pytest.raises(AnswerError) as err:
        read_answer(typed, kind, 2)
    assert str(err.value) == message


def test_a_scaled_score_worked_by_hand():
    e = EXERCISES["scaled-score"]
    p = {"q": [1.0, 2.0], "k": [3.0, -1.0]}
    assert e.solve(p) == pytest.approx(1 / 2 ** 0.5)  # (3 - 2) / √2
    assert e.check(p, "0.71").ok and e.check(p, "0,71", decimal_comma=True).ok
    assert e.check(p, "1").mistake == "forgot-sqrt-d"
    assert e.check(p, "0.5").mistake == "divided-by-d"
    assert not e.check(p, "0.9").ok and e.check(p, "0.9").mistake == ""


def test_a_softmax_weight_worked_by_hand():
    e = EXERCISES["softmax-weight"]
    p = {"q": [1.0, 0.0], "K": [[2.0, 0.0], [0.0, 1.0], [-2.0, 0.0]], "T": 2.0, "j": 0}
    import math
    s = [2 / math.sqrt(2), 0.0, -2 / math.sqrt(2)]
    z = [math.exp(x / 2) for x in s]
    assert e.solve(p) == pytest.approx(z[0] / sum(z), abs=1e-12)


@pytest.mark.parametrize("name", sorted(EXERCISES))
def test_every_mistake_earns_its_own_hint(name):
    e = EXERCISES[name]
    p = e.generate(2)
    for mistake in e.mistakes:
        value = mistake.value(p)
        typed = (f"({value[0]:.4f}, {value[1]:.4f})" if isinstance(value, list) else f"{value:.4f}")
        verdict = e.check(p, typed)
        if e.close(value, e.solve(p)):
            continue  # this seed makes the mistake harmless: the answer is right
        assert (verdict.ok, verdict.mistake, verdict.message) == (False, mistake.name, str(mistake.hint))
    right = e.solve(p)
    typed = f"({right[0]:.3f}, {right[1]:.3f})" if isinstance(right, list) else f"{right:.3f}"
    assert e.check(p, typed).ok


@pytest.mark.parametrize("name", sorted(EXERCISES))
def test_a_seed_makes_the_same_problem_and_seeds_differ(name):
    e = EXERCISES[name]
    assert e.generate(7) == e.generate(7)
    assert len({repr(e.generate(seed)) for seed in range(20)}) >= 15


@pytest.mark.parametrize("text, message", [
    (":::{exercise} softmax-weigth\n:::\n",
     "page.md:1:15: {exercise}: unknown exercise type 'softmax-weigth'\n"
     "    did you mean 'softmax-weight'? types: " + ", ".join(EXERCISES)),
    (":::{exercise} scaled-score\n:seed: two\n:::\n",
     "page.md:2:8: {exercise}: seed must be a whole number from 0 to 2147483647, got 'two'\n    :seed: 3"),
])
def test_a_bad_exercise_is_an_error_at_its_line(tmp_path, text, message):
    _, errors = build(tmp_path, text)
    assert errors == [message]


def test_the_page_carries_the_engine_s_problem_and_no_grader_of_its_own(tmp_path):
    import json
    html, errors = build(tmp_path, ":::{exercise} output-vector\n:seed: 5\n:::\n")
    assert errors == []
    data = json.loads(re.search(r'class="ex-exercise-data">(.*?)</script>', html).group(1))
    assert data == {"type": "output-vector", "seed": 5, "language": "en"}  # answers are the engine's to check
    assert EXERCISES["output-vector"].problem(5)["statement"] in html
    assert 'class="ex-new-numbers">New numbers</button>' in html


def test_a_live_number_s_words_are_what_a_screen_reader_hears(tmp_path):
    html, errors = build(tmp_path, "{value}`the weight of cat <explorer.weights[1]:percent>`\n\n" + FIGURE)
    assert errors == []
    assert 'data-say="the weight of cat {}">58%</span>' in html


def test_an_equation_s_own_tag_is_the_number_its_references_write(tmp_path):
    text = ("$$ a = 1 $$ (first)\n\n$$ b = 2 \\tag{A} $$ (tagged)\n\n$$ c = 3 $$ (third)\n\n"
            "See {eq}`first`, {eq}`tagged`, {eq}`third` and [](#tagged).\n")
    html, errors = build(tmp_path, text)
    assert errors == []
    refs = re.findall(r'<a (?:class="ex-ref" )?href="#(\w+)"(?: class="ex-ref")?>([^<]*)</a>', html)
    assert refs == [("first", "(1)"), ("tagged", "(A)"), ("third", "(2)"), ("tagged", "(A)")]
    assert html.count('<span class="ex-eq-number">(A)</span>') == 1


def test_a_first_frame_number_is_computed_at_build_time_and_written_as_text(tmp_path):
    """A sentence about the first frame ("at T = 1 cat gets ...") quoted live numbers,
    which went on following the reader's changes under words that no longer held."""
    text = ("At first the entropy is {value}`explorer.entropy:first`, the top weight "
            "{value}`explorer.weights[1]:percent:first`, and now {value}`explorer.entropy`.\n\n" + FIGURE)
    html, errors = build(tmp_path, text)
    assert errors == []
    live = re.findall(r'<span class="ex-value"[^>]*>([^<]*)</span>', html)
    assert len(live) == 1
    sentence = html.split("At first the entropy is ", 1)[1].split("</p>", 1)[0]
    first = sentence.split(",", 1)[0]
    assert first == live[0] and "ex-value" not in sentence.split(", and now")[0]
    assert re.search(r"the top weight \d+(\.\d+)?\s?%", sentence)
