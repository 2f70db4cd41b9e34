"""The kit's contracts with a figure's code, and what breaking them says: draggable only
where the renderer drags (points, arrows by the head), hooks that must return the state,
a Hidden option read by its parse, and an author's ValueError named with its type and
line like any other exception."""
from __future__ import annotations

import math

import pytest

from explorables.engine import runtime
from explorables.figures import (FIGURES, Experiment, FieldError, Figure, Hidden, OptionErrors, Slider, Value, arrows,
                                 bars, cells, chart, circles, heading, labels, line, lines, plane, points, polygon, series)
from explorables.site_builder.commands.cli import main
from figure_helpers import ROOT

VECTORS = ROOT / "tests" / "fixtures" / "figures" / "vector_drag.py"
LESSON = "---\ntitle: Vectors\norder: 1\n---\n\nText.\n\n:::{vector-drag} pair\n:u: 1, 0.5\n:::\n"
PATH = [(0, 0), (1, 1)]


# --- draggable ---------------------------------------------------------------------------

@pytest.mark.parametrize("kind, build", [
    ("a line", lambda: lines([PATH], draggable=True)),
    ("a line", lambda: line(PATH, draggable=lambda i: True)),
    ("a polygon", lambda: polygon(PATH + [(1, 0)], draggable=True)),
    ("a label", lambda: labels(PATH, ["a", "b"], draggable=[False, True])),
    ("a circle", lambda: circles(PATH, 1.0, draggable=True)),
    ("a chart series", lambda: series(PATH, "accent", draggable=True)),
    ("a bar", lambda: bars("w", [0.5], label=["a"], draggable=True)),
    ("a cell", lambda: cells("c", 1, 1, text="1", draggable=True)),
    ("a row or column label", lambda: heading(1, text=["a"], draggable=True)),
    ("a polygon", lambda: plane("p", {"kind": "polygon", "points": PATH, "draggable": True}, x=[0, 1], y=[0, 1])),
    ("a plane panel", lambda: plane("p", x=[0, 1], y=[0, 1], draggable=True)),
])
def test_draggable_on_a_mark_the_renderer_cannot_drag_is_an_error(kind, build):
    """The renderer drags points and arrows only: elsewhere the flag was silently ignored."""
    with pytest.raises(ValueError) as err:
        build()
    assert str(err.value).startswith(f"{kind} cannot be dragged (draggable=True): only points and arrows can, "
                                     f"an arrow by its head")


def test_points_and_arrows_are_draggable_and_the_rest_may_say_so_false():
    marks = plane("p", points("key", PATH, draggable=True), arrows("vec", (0, 0), PATH, draggable=[True, False]),
                  lines([PATH], draggable=False), x=[0, 1], y=[0, 1])["marks"]
    assert [(m["kind"], m.get("id"), m.get("draggable")) for m in marks] == [
        ("point", "key-0", True), ("point", "key-1", True), ("arrow", "vec-0", True), ("arrow", "vec-1", None),
        ("line", None, None)]
    assert chart("c", arrows("a", (0, 0), [(1, 1)], draggable=True), x=[0, 1], y=[0, 1])["marks"][0]["draggable"]


# --- hooks that must return the state -----------------------------------------------------

class Forgetful(Figure):
    """Each hook changes the state in place and forgets to return it."""
    name = "forgetful"
    params = (Slider("a", "a", 1.0, lo=0, hi=2), Hidden("p", "p", [0.0, 0.0]))
    values = (Value("a", "decimal", "a"),)
    forget = ""

    def setup(self, state, options):
        state["b"] = 1
        return None if self.forget == "setup" else state

    def changed(self, state, name):
        state["b"] = 2
        return None if self.forget == "changed" else state

    def on_drag(self, state, mark, i, x, y):
        state["p"] = [x, y]
        return None if self.forget == "on_drag" else state

    def on_select(self, state, mark, i):
        return [] if self.forget == "on_select" else state

    def draw(self, s, v):
        return [plane("p", points("dot", [s["p"]], draggable=True), x=[-1, 1], y=[-1, 1])]


def line_of(name: str) -> int:
    return getattr(Forgetful, name).__code__.co_firstlineno


@pytest.mark.parametrize("hook, event", [
    ("setup", None),
    ("changed", {"type": "set", "name": "a", "value": 1.5}),
    ("on_drag", {"type": "drag", "mark": "dot", "index": 0, "x": 0.5, "y": 0.5}),
    ("on_select", {"type": "select", "mark": "dot", "index": 0}),
])
def test_a_hook_that_returns_no_state_is_named_at_its_line(hook, event):
    """Before: "TypeError: 'NoneType' object does not support item assignment", in the kit,
    with no line of the figure's."""
    fig = Forgetful()
    state = fig.initial_state({})
    fig.forget = hook
    with pytest.raises(TypeError) as err:
        fig.initial_state({}) if event is None else fig.apply(state, event)
    got = "a list" if hook == "on_select" else "None"
    assert str(err.value) == (f"forgetful.{hook} returned {got}, not the state; return the state (the dict it was "
                              f"given, changed) (test_kit_hooks.py:{line_of(hook)})")


def test_in_the_page_a_hook_without_its_state_is_an_internal_error_at_its_line():
    fig = FIGURES["forgetful"] = Forgetful()
    try:
        state = fig.initial_state({})
        fig.forget = "on_drag"
        out = runtime.step("forgetful", state, {"type": "drag", "mark": "dot", "index": 0, "x": 0.5, "y": 0.5})
    finally:
        del FIGURES["forgetful"]
    assert not out["ok"] and out["internal"] and out["error"].startswith(
        "internal error in forgetful: TypeError: forgetful.on_drag returned None, not the state; return the state")
    assert f"(test_kit_hooks.py:{line_of('on_drag')})" in out["error"]


def double_in_place(state):
    state["a"] *= 2


def double_returned(state):
    return {**state, "a": state["a"] * 2}


def returns_a_number(state):
    return state["a"] * 2


class Doubling(Forgetful):
    name = "doubling"
    experiments = (Experiment("in-place", "Double a", set={"a": 0.5}, run=double_in_place, see="a doubled"),
                   Experiment("returned", "Double a", set={"a": 0.75}, run=double_returned, see="a doubled"),
                   Experiment("number", "Double a", run=returns_a_number))


@pytest.mark.parametrize("name, a", [("in-place", 1.0), ("returned", 1.5)])
def test_an_experiment_s_run_changes_the_state_in_place_or_returns_the_next(name, a):
    """Pins an author's trap: "the hooks that get the state return it", but what `run`
    returned was thrown away, so a run written that way did nothing, silently."""
    fig = Doubling()
    state = fig.apply(fig.initial_state({}), {"type": "action", "name": name})
    assert (state["a"], state["experiment"], state["message"]) == (a, name, "a doubled")


def test_an_experiment_s_run_that_returns_no_state_is_named_at_its_line():
    fig = Doubling()
    with pytest.raises(TypeError) as err:
        fig.apply(fig.initial_state({}), {"type": "action", "name": "number"})
    assert str(err.value) == ("doubling: the run of the experiment 'number' returned a float, not the state; change the "
                              f"state it is given, or return it (test_kit_hooks.py:{returns_a_number.__code__.co_firstlineno})")


# --- a Hidden option goes through its parse -----------------------------------------------

# --- a drag names the mark and the element; an experiment's set is a reader's change ------

class Two(Figure):
    """Two draggable points; an angle whose ``changed`` derives the point on the circle."""
    name = "two"
    params = (Hidden("P", "P", [[0.0, 0.0], [1.0, 1.0]]), Slider("angle", "angle", 45, lo=0, hi=180, by=1))
    experiments = (Experiment("right", "Right angle", set={"angle": 90}, see="The point is straight up."),)
    moved: list = []

    def setup(self, state, options):
        return self.changed(state, "angle")

    def changed(self, state, name):
        state["tip"] = [round(math.cos(math.radians(state["angle"])), 6), round(math.sin(math.radians(state["angle"])), 6)]
        return state

    def on_drag(self, state, mark, i, x, y):
        self.moved.append((mark, i))
        state["P"][i] = [x, y]
        return state

    def draw(self, s, v):
        return [plane("p", points("dot", s["P"], draggable=True), points("tip", [s["tip"]]), x=[-2, 2], y=[-2, 2])]


def test_a_draggable_element_carries_its_mark_and_index_and_the_drag_hook_gets_them():
    fig = Two()
    state = fig.initial_state({})
    marks = fig.scene(state)["panels"][0]["marks"]
    assert [m.get("ref") for m in marks] == [{"mark": "dot", "index": 0}, {"mark": "dot", "index": 1}, None]
    state = fig.apply(state, {"type": "drag", **marks[1]["ref"], "x": -1.5, "y": 0.5})
    assert state["P"] == [[0.0, 0.0], [-1.5, 0.5]] and fig.moved[-1] == ("dot", 1)


def test_a_drag_hook_written_before_the_index_gets_the_element_id_with_a_warning():
    class Old(Two):
        def on_drag(self, state, mark, x, y):
            state["P"][int(mark.rpartition("-")[2])] = [x, y]
            return state

    with pytest.warns(DeprecationWarning, match=r"write on_drag\(state, mark, i, x, y\)"):
        state = Old().apply(Old().initial_state({}), {"type": "drag", "mark": "dot", "index": 0, "x": 1, "y": 1})
    assert state["P"][0] == [1, 1]


def test_a_click_gives_the_select_hook_the_mark_and_the_element_its_ref_names():
    class Picker(Two):
        def on_select(self, state, mark, i):
            state["picked"] = [mark, i]
            return state

    fig = Picker()
    state = fig.initial_state({})
    assert fig.apply(state, {"type": "select", "mark": "cell", "index": [2, 3]})["picked"] == ["cell", (2, 3)]
    assert fig.apply(state, {"type": "select", "mark": "key", "index": 12})["picked"] == ["key", 12]
    assert fig.apply(state, {"type": "select", "mark": "probe"})["picked"] == ["probe", None]

    class Old(Two):
        def on_select(self, state, mark):
            state["picked"] = mark
            return state

    with pytest.warns(DeprecationWarning, match=r"write on_select\(state, mark, i\)"):
        assert Old().apply(state, {"type": "select", "mark": "cell", "index": [2, 3]})["picked"] == "cell-2-3"


def test_an_experiment_setting_a_slider_runs_its_changed_hook():
    """Before, the experiment set the angle to 90 and left the point at 45 degrees."""
    fig = Two()
    state = fig.apply(fig.initial_state({}), {"type": "action", "name": "right"})
    assert state["angle"] == 90 and state["tip"] == [0.0, 1.0]
    assert fig.scene(state)["panels"][0]["marks"][2]["x"] == 0.0


def as_vector(value, state):
    parts = value.split(",") if isinstance(value, str) else value
    return [float(p) for p in parts]


class Vector(Figure):
    name = "vector"
    params = (Hidden("u", "u", [1.0, 0.0], parse=as_vector, option=True),
              Hidden("n", "n", 0, option=True, parse=lambda value, s: len(s["tokens"]) + int(value)),
              Slider("scale", "scale", 1.0, lo=0, hi=3))

    def setup(self, state, options):
        state["tokens"] = ["a", "b", "c"]
        state["scaled"] = [state["scale"] * c for c in state["u"]]
        return state

    def draw(self, s, v):
        return []


def test_a_hidden_option_is_read_by_its_parse_as_an_experiment_value_is():
    """Before, ``:u: 1, 0.5`` reached setup and the state as the text '1, 0.5'."""
    fig = Vector()
    options = fig.parse_options({"u": "1, 0.5", "scale": "2"})
    assert options["u"] == [1.0, 0.5]
    state = fig.initial_state(options)
    assert state["u"] == [1.0, 0.5] and state["scaled"] == [2.0, 1.0] and state["options"]["u"] == [1.0, 0.5]
    assert fig.reset(state)["u"] == [1.0, 0.5]  # reset starts from the options kept, not parsed twice
    assert fig.parse_options({"n": "2"})["n"] == 5  # parse is given the first state: setup's tokens
    assert fig.parse_options({})["u"] == [1.0, 0.0]  # a default is a value already


def test_what_a_hidden_options_parse_refuses_is_that_options_error():
    with pytest.raises(OptionErrors) as err:
        Vector().parse_options({"u": "1; 0.5", "n": "x"})
    assert [(e.option, e.message) for e in err.value.errors] == [
        ("u", "could not convert string to float: '1; 0.5'"),
        ("n", "invalid literal for int() with base 10: 'x'")]


def test_a_hidden_index_with_hi_is_read_as_a_whole_number_from_0_to_hi():
    """Hidden("selected", hi=...) reads what a script or an experiment sends as an integer
    slider reads it, with no parse of the figure's own."""
    index = Hidden("selected", "selected", 0, hi=lambda s: len(s["tokens"]) - 1)
    state = {"tokens": ["a", "b", "c"], "selected": 0}
    assert index.read("2", state) == 2 and index.read(1.0, state) == 1
    with pytest.raises(FieldError, match="selected must be a whole number from 0 to 2, got 3"):
        index.read(3, state)
    assert Hidden("step", "step", 0, hi=5).read("5", state) == 5
    with pytest.raises(ValueError, match="Hidden 'step': give parse= or hi=, not both"):
        Hidden("step", "step", 0, hi=5, parse=lambda value, state: int(value))


# --- an author's site ---------------------------------------------------------------------

@pytest.fixture
def site(author_site):
    return author_site(lessons={"index.md": "# Mine\n", "01-vectors.md": LESSON},
                       figures={"vector_drag.py": VECTORS.read_text()})


def failed_build(site, capsys, lesson: str | None = None, source: str | None = None) -> str:
    if lesson is not None:
        (site / "content" / "01-vectors.md").write_text(lesson)
    if source is not None:
        (site / "figures" / "vector_drag.py").write_text(source)
    capsys.readouterr()
    assert main(["build"]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return err


def test_an_authors_draggable_arrows_are_built(site, capsys):
    assert main(["build"]) == 0
    html = (site / "_site" / "vectors.html").read_text()
    assert '"u":[1.0,0.5]' in html and '"draggable":true' in html


def test_an_option_its_parse_refuses_is_reported_at_the_options_line(site, capsys):
    """Before: the text went into the state, and the first frame failed in the figure's
    arithmetic at the directive's line."""
    err = failed_build(site, capsys, lesson=LESSON.replace(":u: 1, 0.5", ":u: 1; 0.5"))
    assert ("content/01-vectors.md:9:5: {vector-drag} pair: option 'u': expected two numbers like 1, 0.5, "
            "got '1; 0.5'") in err, err


def test_a_parse_that_fails_itself_is_named_at_the_authors_line(site, capsys):
    source = VECTORS.read_text().replace("def vector(value, state):", "def vector(value):")
    err = failed_build(site, capsys, source=source)
    line = source.splitlines().index("def vector(value):") + 1
    assert ("content/01-vectors.md:9:5: {vector-drag} pair: option 'u': its parse raised TypeError: vector() takes "
            f"1 positional argument but 2 were given (vector_drag.py:{line})") in err, err


def test_a_value_error_in_setup_is_named_with_its_type_and_line_as_a_key_error_is(site, capsys):
    """Before: the bare message "could not convert string to float: ..." at the directive's
    line, where a KeyError from the same place said "raised KeyError: ... (x.py:12)"."""
    source = VECTORS.read_text().replace("    def compute(self, s):", (
        "    def setup(self, state, options):\n"
        "        state['w'] = float(options['v'][0]) / float(str(options['v'][1]).replace('9', 'nine'))\n"
        "        return state\n\n"
        "    def compute(self, s):"))
    line = next(i for i, text in enumerate(source.splitlines(), 1) if "state['w']" in text)
    err = failed_build(site, capsys, lesson=LESSON.replace(":u: 1, 0.5", ":v: 1, 9"), source=source)
    assert ("content/01-vectors.md:8:1: {vector-drag} pair: drawing its first frame raised ValueError: could not "
            f"convert string to float: 'nine.0' (vector_drag.py:{line})") in err, err
    assert "fix the figure module at that line" in err


def test_draggable_on_a_line_stops_the_build_at_the_authors_line(site, capsys):
    source = VECTORS.read_text().replace("arrows, plane", "arrows, lines, plane").replace(
        'title="Drag the heads")]', 'title="Drag the heads"),\n'
                                         '                plane("feet", lines([[(0, 0), s["u"]]], draggable=True), '
                                         'x=[-3, 3], y=[-3, 3])]')
    line = next(i for i, text in enumerate(source.splitlines(), 1) if "lines([[" in text)
    column = source.splitlines()[line - 1].index("lines([[") + 1  # the call that raised
    err = failed_build(site, capsys, source=source)
    assert (f"figures/vector_drag.py:{line}:{column}: figure 'vector-drag': drawing its first frame raised ValueError: a line "
            "cannot be dragged (draggable=True): only points and arrows can, an arrow by its head") in err, err


def test_the_guides_drag_example_runs_in_under_40_lines():
    guide = (ROOT / "docs" / "writing-a-figure.md").read_text(encoding="utf-8")
    after = guide.split("Two vectors dragged by their heads, in full:", 1)[1]
    code = after.split("```python\n", 1)[1].split("```", 1)[0]
    assert len(code.splitlines()) <= 40 and "Hidden" not in code and '"vec-' not in code
    namespace: dict = {}
    before = FIGURES.get("vector-drag")
    try:
        exec(compile(code, "guide.py", "exec"), namespace)
        fig = FIGURES["vector-drag"]
        state = fig.initial_state(fig.parse_options({"u": "2, 1"}))
        head = fig.scene(state)["panels"][0]["marks"][1]
        state = fig.apply(state, {"type": "drag", **head["ref"], "x": -1.234, "y": 0.5})
        assert state["u"] == [2.0, 1.0] and state["v"] == [-1.23, 0.5]
        assert fig.scene(state)["values"] == {"dot": -1.96}
    finally:
        FIGURES.pop("vector-drag", None)
        if before is not None:
            FIGURES["vector-drag"] = before
