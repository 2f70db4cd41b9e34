"""A new author's mistakes in a figure module, each stopped at build time with the
author's file, line and a fix, where before the build passed and the reader's browser
failed, or the build said "internal error (please report)" or gave a bare Python
message: a module the browser's Python lacks, a folder module imported without its dot,
a parameter declared upside down, a frame holding nan, draw giving no list of panels, a
hook that forgets to return the state, an exercise type failing for every seed."""
from __future__ import annotations

import json
import math

import pytest

from explorables.engine import runtime
from explorables.figures import FIGURES, Choice, Slider
from explorables.site_builder.authors import loader as authors
from explorables.site_builder.authors.checks import allowed
from explorables.site_builder.commands.cli import main
from explorables.engine.figures.kit.params import DeclarationError
from author_site import broken
from figure_helpers import ROOT

SAMPLE = (ROOT / "site_builder" / "starter" / "figures" / "softmax_bars.py").read_text()
LESSON = "---\ntitle: Mine\norder: 1\n---\n\nText.\n\n:::{softmax-bars} three\n:a: 1\n:::\n"


@pytest.fixture
def site(author_site):
    return author_site(lessons={"index.md": "# Mine\n", "01-mine.md": LESSON}, figures={"softmax_bars.py": SAMPLE})


def edited(*pairs: tuple[str, str]) -> str:
    source = SAMPLE
    for old, new in pairs:
        assert old in source, old
        source = source.replace(old, new, 1)
    return source


def line_of(source: str, text: str) -> int:
    return 1 + next(i for i, line in enumerate(source.splitlines()) if text in line)


def col_of(source: str, text: str) -> int:
    return 1 + next(line.index(text) for line in source.splitlines() if text in line)


# --- imports ------------------------------------------------------------------------------

@pytest.mark.parametrize("module", ["curses", "tkinter", "turtle", "dbm.dumb", "imghdr"])
def test_a_standard_module_the_browser_lacks_stops_the_build(site, capsys, module):
    """Pins an author's finding: `import curses` built, and only the reader's browser
    failed (Pyodide leaves it out; imghdr is gone from the Python the browser runs)."""
    err = broken(site, capsys, "softmax_bars.py", f"import {module}\n" + SAMPLE)
    assert err.startswith(f"error: figures/softmax_bars.py:1:1: the figure module imports '{module}', which the "
                          f"Python in the reader's browser (Pyodide) does not have\n    Pyodide has the standard "
                          f"library but for a few modules: no curses,"), err
    assert not allowed(module) and allowed("random") and allowed("json.decoder")


def test_a_module_of_the_folder_imported_without_its_dot_is_shown_the_dot(site, capsys):
    (site / "figures" / "vecmath.py").write_text("def add(u, v):\n    return [a + b for a, b in zip(u, v)]\n")
    err = broken(site, capsys, "softmax_bars.py", "import vecmath\n" + SAMPLE)
    assert err.startswith("error: figures/softmax_bars.py:1:1: the figure module imports 'vecmath' as if it were "
                          "installed; vecmath.py is a module of the figures folder\n"
                          "    import it with a dot, from the folder: from . import vecmath\n"), err
    (site / "figures" / "softmax_bars.py").write_text(SAMPLE)
    err = broken(site, capsys, "softmax_bars.py", "from vecmath import add\n" + SAMPLE)
    assert "    import it with a dot, from the folder: from . import vecmath (or from .vecmath import add)\n" in err


# --- parameters declared so that no figure could use them --------------------------------

def test_choices_written_as_plain_strings_name_the_choice_and_its_line(site, capsys):
    """Pins an author's finding: `choices=("a", "b")` stopped the build with "internal
    error ... too many values to unpack (please report)", and `explorables figures`
    printed a traceback."""
    source = edited(("Slider, Value", "Slider, Value, Choice"),
                    ("    params = tuple(", '    params = (Choice("mode", "Mode", "a", choices=("a", "b")),) + tuple('))
    err = broken(site, capsys, "softmax_bars.py", source)
    assert err.startswith(f"error: figures/softmax_bars.py:{line_of(source, 'Choice(')}:{col_of(source, 'Choice(')}: Choice 'mode': each of "
                          f"its choices is a (value, label) pair, got 'a'\n    write each as a pair, e.g. "
                          f'choices=(("weights", "Weights"), ("scores", "Scores"))\n'), err
    assert "internal error" not in err
    capsys.readouterr()
    assert main(["figures", "softmax-bars"]) == 1
    out = capsys.readouterr()
    assert out.out == "" and "Traceback" not in out.err and "Choice 'mode': each of its choices" in out.err
    assert out.err.endswith("1 error; nothing is listed until the site loads (this command writes nothing).\n")


@pytest.mark.parametrize("declare, said", [
    (lambda: Slider("a", "a", 1.0, lo=5, hi=-5), "Slider 'a': its range is upside down, lo=5 is above hi=-5"),
    (lambda: Slider("a", "a", 1.0, lo=0, hi=math.inf), "Slider 'a': hi is inf, not a number"),
    (lambda: Slider("t", "T", 1.0, lo=0, hi=5, log=True), "Slider 't': log=True needs lo above 0, got lo=0"),
    (lambda: Choice("m", "M", "a", choices="ab"), "Choice 'm': choices is 'ab', not a tuple of (value, label) pairs"),
    (lambda: Choice("m", "M", "a", choices=()), "Choice 'm': choices is (), not a tuple of (value, label) pairs"),
])
def test_a_parameter_no_figure_could_use_is_refused_where_it_is_declared(declare, said):
    with pytest.raises(DeclarationError) as err:
        declare()
    assert str(err.value) == said and err.value.fix


def test_ranges_of_one_value_and_ranges_given_by_the_state_are_declarations_like_any(site):
    assert Slider("p", "p", 0, lo=0, hi=0, integer=True).read("0", {}) == 0  # a sentence of one token
    assert Slider("p", "p", 0, lo=0, hi=lambda s: len(s["tokens"]) - 1).read("2", {"tokens": "abc"}) == 2


def test_a_slider_range_upside_down_says_to_swap_it_at_its_line(site, capsys):
    source = edited(("lo=-5, hi=5", "lo=5, hi=-5"))
    err = broken(site, capsys, "softmax_bars.py", source)
    assert err.startswith(f"error: figures/softmax_bars.py:{line_of(source, 'lo=5, hi=-5')}:9: Slider 'a': its "
                          f"range is upside down, lo=5 is above hi=-5\n    swap them: lo=-5, hi=5\n"), err


# --- a name declared twice, or a name the kit gives its own button ----------------------

KIT_ACTIONS = [
    pytest.param((), "reset", "the kit's own Reset button, which its button would run instead", id="reset"),
    pytest.param((("Slider, Value", "Slider, Value, Play"),
                  ("    params = tuple(", '    params = (Play("playing", "Play", False),) + tuple(')),
                 "tick", "the action the Play 'playing' sends on each tick, which would run the experiment instead",
                 id="play-tick"),
]


@pytest.mark.parametrize("edits, name, taken", KIT_ACTIONS)
def test_an_experiment_named_as_a_kit_action_is_refused_at_its_line(site, capsys, edits, name, taken):
    """Pins an author's finding: `Experiment("reset", ...)` built; the page showed two
    buttons named reset, and pressing the experiment's ran the kit's own Reset. A Play's
    tick is such an action too."""
    source = edited(*edits, ('Experiment("tie", "Tie a and b"', f'Experiment("{name}", "Tie a and b"'))
    err = broken(site, capsys, "softmax_bars.py", source)
    assert err.startswith(f"error: figures/softmax_bars.py:{line_of(source, 'Experiment(')}:"
                          f"{col_of(source, 'Experiment(')}: figure 'softmax-bars': the experiment '{name}' has the "
                          f"name of {taken}\n    choose another name for the experiment\n"), err


TWICE = [
    pytest.param(
        ("        Experiment(\"tie\", \"Tie a and b\"",
         '        Experiment("tie", "Tie b and c", set={"b": 1.0, "c": 1.0}),\n'
         '        Experiment("tie", "Tie a and b"'),
        'Experiment("tie", "Tie a and b"', 'Experiment("tie", "Tie b and c"',
        "the experiment 'tie' is declared twice", "give each experiment its own name: a button runs the first "
        "experiment of its name", id="experiment"),
    pytest.param(
        ("    params = tuple(", '    params = (\n        Slider("d", "Score d", 0.0, lo=-5, hi=5),\n'
         '        Slider("d", "Score d again", 1.0, lo=-5, hi=5),\n    ) + tuple('),
        'Slider("d", "Score d again"', 'Slider("d", "Score d",',
        "the parameter 'd' is declared twice", "give each parameter its own name: the state keeps one value a "
        "name, and the page shows one control a name", id="parameter"),
    pytest.param(
        ('        Value("top", "percent"', '        Value("top", "decimal", "The largest weight again."),\n'
         '        Value("top", "percent"'),
        'Value("top", "percent"', 'Value("top", "decimal"',
        "the value 'top' is declared twice", "give each value its own name: the page keeps one value a name",
        id="value"),
    pytest.param(
        ('            text("sum"', '            bars("weights", v["weights"], label=NAMES, title="Again"),\n'
         '            text("sum"'),
        'title="Again"', 'bars("weights", v["weights"], label=NAMES, text=',
        "its first frame has two panels with the id 'weights'", "give each panel its own id: the page shows "
        "one panel an id", id="panel"),
]


@pytest.mark.parametrize("edit, second, first, said, fix", TWICE)
def test_a_name_declared_twice_is_refused_at_the_second(site, capsys, edit, second, first, said, fix):
    """Pins an author's finding: two experiments named "tie" built, and the second's button
    ran the first; two Sliders "a", two Values or two panels "weights" built, and the
    page, which keeps a view a name, showed one of them once the reader moved anything."""
    source = edited(edit)
    err = broken(site, capsys, "softmax_bars.py", source)
    line = line_of(source, second)
    column = len(source.splitlines()[line - 1]) - len(source.splitlines()[line - 1].lstrip()) + 1
    assert err.startswith(f"error: figures/softmax_bars.py:{line}:{column}: figure 'softmax-bars': {said} "
                          f"(first at line {line_of(source, first)})\n    {fix}\n"), err
    assert "1 error;" in err


def test_a_parameter_a_loop_declares_twice_is_refused_at_params(site, capsys):
    """A name the module computes (`Slider(n, ...) for n in NAMES`) has no call of its own
    to point at: the mistake is said at ``params``."""
    source = edited(('NAMES = ("a", "b", "c")', 'NAMES = ("a", "b", "a")'))
    err = broken(site, capsys, "softmax_bars.py", source)
    assert err.startswith(f"error: figures/softmax_bars.py:{line_of(source, 'params = ')}:5: figure 'softmax-bars': "
                          f"the parameter 'a' is declared twice\n    give each parameter its own name"), err


# --- what the first frame holds -----------------------------------------------------------

def test_a_value_that_is_nan_is_named_with_its_place(site, capsys):
    """Pins an author's finding: the build said "Out of range float values are not JSON
    compliant", with no value named and the class's line."""
    source = edited(('"top": max(weights)}', '"top": float("nan")}'))
    err = broken(site, capsys, "softmax_bars.py", source)
    assert err.startswith(f"error: figures/softmax_bars.py:{line_of(source, 'def compute')}:5: figure "
                          f"'softmax-bars': its first frame holds what the page cannot show: values.top = nan\n"
                          f"    a frame is finite numbers, text, True/False, lists and dicts: look for a division "
                          f"by zero"), err
    assert "1 error;" in err and "JSON" not in err


def test_a_frame_made_infinite_by_a_lesson_s_options_is_named_at_the_directive(site, capsys):
    source = edited(('"top": max(weights)}', '"top": max(weights) * 1e308 * (s["c"] + 1)}'))
    (site / "figures" / "softmax_bars.py").write_text(source)
    assert main(["build"]) == 0, capsys.readouterr().err  # with c = 0 it is finite
    (site / "content" / "01-mine.md").write_text(LESSON.replace(":a: 1", ":a: 1\n:c: 4"))
    capsys.readouterr()
    assert main(["build"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: content/01-mine.md:8:1: {softmax-bars} three: with these options its first frame "
                          "holds what the page cannot show: values.top = inf\n"), err


@pytest.mark.parametrize("returned, said", [
    ("dict(panels=[bars", "softmax-bars.draw returned a dict ({'panels': [{'kind': 'bars', 'id': 'weig...), not a list"),
    ('["weights", bars', "softmax-bars.draw: item 0 of its list is a str ('weights'), not a panel"),
])
def test_draw_that_gives_no_list_of_panels_is_named_at_its_line(site, capsys, returned, said):
    source = edited(("        return [\n            bars", f"        return {returned}"),
                    ("        ]\n\n    def status", "        ]" + (")" if returned.startswith("dict") else "")
                     + "\n\n    def status"))
    err = broken(site, capsys, "softmax_bars.py", source)
    assert err.startswith(f"error: figures/softmax_bars.py:{line_of(source, 'def draw')}:5: {said}"), err
    assert ("return them in a list, e.g. [bars(...), text(...)]" if returned.startswith("dict")
            else "make each panel with plane, chart, bars, cells, steps or text") in err


def test_compute_that_gives_no_dict_is_named_at_its_line(site, capsys):
    source = edited(('return {"weights": weights, "top": max(weights)}', "return weights"))
    err = broken(site, capsys, "softmax_bars.py", source)
    assert err.startswith(f"error: figures/softmax_bars.py:{line_of(source, 'def compute')}:5: softmax-bars.compute "
                          f"returned a list ("), err
    assert "not a dict of its numbers by name\n    return them by name" in err


# --- hooks that are given the state return it ---------------------------------------------

HOOKS = '''
    def setup(self, s, options):
        s["seen"] = 0
        return s

    def changed(self, s, name):
        s["seen"] += 1
        RETURN

    def on_set(self, s, name, value):
        raise ValueError(f"no control {name}")  # a hook that only refuses returns nothing, rightly

'''


@pytest.mark.parametrize("hook", ["changed", "setup"])
def test_a_hook_that_returns_nothing_stops_the_build_at_its_def(site, capsys, hook):
    """Pins an author's finding: the guide says the build stops when a hook forgets
    `return state`, but only setup's was caught; a changed without it failed when a
    reader first moved a slider."""
    hooks = HOOKS.replace("RETURN", "return s") if hook == "setup" else HOOKS.replace("        RETURN\n", "")
    if hook == "setup":
        hooks = hooks.replace('        s["seen"] = 0\n        return s\n', '        s["seen"] = 0\n')
    source = edited(("    def compute(self, s):", hooks.strip("\n") + "\n\n    def compute(self, s):"))
    err = broken(site, capsys, "softmax_bars.py", source)
    assert err.startswith(f"error: figures/softmax_bars.py:{line_of(source, f'def {hook}(')}:5: figure "
                          f"'softmax-bars': {hook} returns nothing, and the kit takes what it returns as the next "
                          f"state\n    end it with `return s`\n"), err
    assert "1 error;" in err  # on_set, which only raises, is no mistake


def test_hooks_that_return_the_state_build(site, capsys):
    source = edited(("    def compute(self, s):", HOOKS.replace("RETURN", "return s").strip("\n")
                     + "\n\n    def compute(self, s):"))
    (site / "figures" / "softmax_bars.py").write_text(source)
    assert main(["build"]) == 0, capsys.readouterr().err


# --- in the reader's browser --------------------------------------------------------------

def test_a_frame_holding_nan_after_a_reader_s_move_is_a_message_and_no_state(site):
    """The runtime the worker calls: before, json.dumps raised out of `handle` and the
    page got no answer at all."""
    source = edited(('"top": max(weights)}', '"top": max(weights) if s["a"] < 4 else float("nan")}'))
    (site / "figures" / "softmax_bars.py").write_text(source)
    assert authors.load(site / "figures").errors == []
    model = FIGURES["softmax-bars"]
    state = model.initial_state(model.parse_options({}))
    good = json.loads(runtime.handle(json.dumps({"figure": "softmax-bars", "state": state,
                                                 "event": {"type": "set", "name": "a", "value": "3"}})))
    assert good["ok"] and good["state"]["a"] == 3
    bad = json.loads(runtime.handle(json.dumps({"figure": "softmax-bars", "state": good["state"],
                                                "event": {"type": "set", "name": "a", "value": "4.5"}})))
    # the author's file and the line of the method that made it, and what it may give instead
    assert bad == {"ok": False, "internal": True, "error": "internal error in softmax-bars: the figure gave what "
                   f"the page cannot show: values.top = nan (softmax_bars.py:{line_of(source, 'def compute(')}); "
                   "a number that cannot be computed may be None (the page shows a dash)"}


# --- exercise types ---------------------------------------------------------------------

DOT = '''"""dot-2: the dot product of two random 2-vectors."""
import random

from explorables.engine import dot
from explorables.figures import Exercise, eq, mathml, mi, mo, mvec, random_vector, register


@register
class DotProduct(Exercise):
    name = "dot-2"
    kind = "number"
    tolerance = 0.01

    def generate(self, seed):
        rng = random.Random(seed)
        return {"a": random_vector(rng, 2), "b": random_vector(rng, 2)}

    def solve(self, p):
        return dot(p["a"], p["c"])

    def statement(self, p, decimal_comma=False):
        return f"What is {mathml(mi('a'), mo('⋅'), mi('b'))}?"
'''


def test_an_exercise_type_that_fails_for_every_seed_is_said_once_at_its_line(site, capsys):
    """Pins an author's finding: the lesson's {exercise} added "choose another :seed:",
    though no seed could work."""
    (site / "content" / "01-mine.md").write_text(LESSON + "\n:::{exercise} dot-2\n:seed: 12\n:::\n")
    (site / "figures" / "dot2.py").write_text(DOT.replace('p["c"]', 'p["b"]'))
    err = broken(site, capsys, "dot2.py", DOT)
    line = line_of(DOT, "return dot(")
    column = DOT.splitlines()[line - 1].index('p["c"]') + 1  # the lookup that raised
    assert err.startswith(f"error: figures/dot2.py:{line}:{column}: exercise type 'dot-2': making "
                          f"the problem of seed 0 raised KeyError: 'c'\n"), err
    assert "1 error;" in err and ":seed:" not in err



def test_a_vector_option_s_default_is_listed_as_a_lesson_would_write_it(site, capsys):
    """Pins an author's finding: `explorables figures` showed a Hidden vector's default as
    "1.0 0.0", which its own parse refused when a lesson copied it."""
    (site / "figures" / "vector_drag.py").write_text((ROOT / "tests" / "fixtures" / "figures" / "vector_drag.py")
                                                     .read_text())
    capsys.readouterr()
    assert main(["figures", "vector-drag"]) == 0
    listed = capsys.readouterr().out
    assert ":u: text (default: 1.0, 0.0)" in listed and ":v: text (default: 0.0, 1.0)" in listed
    model = FIGURES["vector-drag"]
    assert model.parse_options({"u": "1.0, 0.0"})["u"] == [1.0, 0.0]


LENIENT = '''"""Ways of writing a figure that the checks must not refuse."""
import math

from explorables.figures import Choice, Field, Figure, Value, bars, register, text

MODES = {"sum": "Sum", "max": "Largest"}


def keep(hook):
    """A decorator that returns the state for the hook it wraps."""
    def wrapped(self, s, *args):
        hook(self, s, *args)
        return s
    return wrapped


@register
class Lenient(Figure):
    name = "lenient"
    params = (Field("n", "A number", 3.0, lo=-math.inf, hi=math.inf),
              Choice("mode", "Mode", "sum", choices=MODES.items()))
    values = (Value("ranks", "list", "Ranks by position."),)

    @keep
    def changed(self, s, name):
        s["seen"] = name

    def compute(self, s):
        return {"ranks": [1, 2], "by_rank": {0: s["n"], 1: 2 * s["n"]}}

    def draw(self, s, v):
        yield bars("w", [0.5], label=["a"])
        yield text("t", f"{s['mode']} of {s['n']}")
'''


def test_a_figure_written_in_other_valid_ways_builds_and_runs(site, capsys):
    """Pins what review found the new checks refusing: a draw that yields its panels, a
    Field open at both ends, choices given as dict items, a dict with number keys in a
    frame, a hook whose decorator returns the state."""
    (site / "figures" / "lenient.py").write_text(LENIENT)
    (site / "content" / "01-mine.md").write_text(LESSON + "\n:::{lenient} l\n:n: 1e9\n:mode: max\n:::\n")
    assert main(["build"]) == 0, capsys.readouterr().err
    model = FIGURES["lenient"]
    state = model.initial_state(model.parse_options({"n": "1e9"}))
    out = runtime.step("lenient", state, {"type": "set", "name": "n", "value": "-1e12"})
    assert out["ok"] and out["state"]["seen"] == "n" and [p["kind"] for p in out["scene"]["panels"]] == ["bars", "text"]
    assert json.loads(runtime.handle(json.dumps({"figure": "lenient", "state": out["state"],
                                                 "event": {"type": "set", "name": "mode", "value": "max"}})))["ok"]


def test_a_paragraph_that_is_no_text_is_refused_at_its_line(site, capsys):
    """Pins an author's finding: text("sum", None) built, and the page and its still said
    "None"."""
    source = edited(('text("sum", f"The weights', 'text("sum", None, f"The weights'))
    err = broken(site, capsys, "softmax_bars.py", source)
    call = 'text("sum"'
    at = f"{line_of(source, call)}:{col_of(source, call)}"
    assert err.startswith(f"error: figures/softmax_bars.py:{at}: figure 'softmax-bars': drawing its first frame "
                          f"raised TypeError: text 'sum': a paragraph is text, got None; write it as text"), err
