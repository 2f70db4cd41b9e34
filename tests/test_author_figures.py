"""An author's own figures (the site's figures/ folder): loaded by file location,
checked, validated, listed, drawn for the first frame and shipped in the engine archive.
Each broken module is a build error at the author's file and line, exit 1, with the
previous site left as it was."""
from __future__ import annotations

import io
import json
import os
import sys
import zipfile

import pytest

from explorables.engine import runtime
from explorables.figures import FIGURES
from explorables.site_builder.authors import checks as author_checks, loader as authors
from explorables.site_builder.output.assets import names_in
from explorables.site_builder.commands.cli import main
from author_site import broken
from figure_helpers import ROOT

SAMPLE = ROOT / "site_builder" / "starter" / "figures" / "softmax_bars.py"
FRAGILE = ROOT / "tests" / "fixtures" / "figures" / "fragile.py"
LESSON = "---\ntitle: Mine\norder: 1\n---\n\nText.\n\n:::{softmax-bars} three\n:a: 1\n:::\n"


@pytest.fixture
def site(author_site):
    """A site as `explorables new` lays it out: site.yml, content/, figures/."""
    return author_site(lessons={"index.md": "# Mine\n", "01-mine.md": LESSON},
                       figures={"softmax_bars.py": SAMPLE.read_text()})


def test_the_sample_figure_is_built_listed_and_shipped(site, capsys):
    assert main(["build"]) == 0
    html = (site / "_site" / "mine.html").read_text()
    assert 'data-figure="softmax-bars"' in html
    first = json.loads(html.split('class="ex-data">')[1].split("</script>")[0])
    assert first["state"]["a"] == 1.0 and first["scene"]["values"]["top"] == pytest.approx(0.4223, abs=1e-4)
    engine = names_in(site / "_site")["engine.zip"]
    archive = zipfile.ZipFile(io.BytesIO((site / "_site" / "_explorables" / engine).read_bytes()))
    assert archive.read("explorables/site_figures/softmax_bars.py") == SAMPLE.read_bytes()
    assert b"SOURCES = {'softmax_bars': 'softmax_bars.py'}" in archive.read("explorables/site_figures/__init__.py")
    capsys.readouterr()
    assert main(["figures"]) == 0
    assert ":::{softmax-bars} ID" in capsys.readouterr().out
    assert main(["figures", "softmax-bars", "--json"]) == 0
    manifest = json.loads(capsys.readouterr().out)
    assert [p["name"] for p in manifest["params"]] == ["a", "b", "c"]


def test_an_edit_that_keeps_the_size_and_the_second_is_built_and_leaves_no_bytecode(site, capsys, monkeypatch):
    """Pins a bug: the module ran through Python's import system, which (in an author's
    Python, where bytecode is written) left figures/__pycache__ in the author's repository
    and, for an edit keeping the file's size within the same second, ran the module as it
    was before the edit: a preview showing the old figure."""
    monkeypatch.setattr(sys, "dont_write_bytecode", False)  # as Python runs by default
    module = site / "figures" / "softmax_bars.py"
    assert main(["build"]) == 0
    assert '"Softmax of three scores"' in (site / "_site" / "mine.html").read_text()
    stamp = module.stat()
    module.write_text(module.read_text().replace("of three scores", "of THREE scores"))
    os.utime(module, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))  # the same second, the same size
    assert module.stat().st_size == stamp.st_size
    assert main(["build"]) == 0, capsys.readouterr().err
    html = (site / "_site" / "mine.html").read_text()
    assert "of THREE scores" in html and "of three scores" not in html
    assert sorted(p.name for p in (site / "figures").iterdir()) == ["softmax_bars.py"]


def test_the_figures_folder_is_set_in_site_yml(site, capsys):
    (site / "figures").rename(site / "models")
    (site / "site.yml").write_text('title: "Mine"\nfigures: models\n')
    assert main(["build"]) == 0
    assert "softmax-bars" in FIGURES


def test_a_syntax_error_names_the_authors_line(site, capsys):
    err = broken(site, capsys, "bad.py", "from explorables.figures import Figure\n\ndef f(:\n    pass\n")
    assert err.startswith("error: figures/bad.py:3:7: syntax error: invalid syntax\n")
    assert "Traceback" not in err and "1 error; the previous site was left as it was." in err


def test_an_exception_at_import_names_the_authors_line(site, capsys):
    err = broken(site, capsys, "bad.py", "import math\n\nX = math.sqrt(-1)\n")
    # at the call that raised: line 3, column 5 (``math.sqrt(-1)``)
    assert err.startswith("error: figures/bad.py:3:5: the module raised ValueError when imported: math domain error\n")
    assert "Traceback" not in err and "site_builder" not in err


def test_the_column_of_what_raised_counts_characters_not_bytes(site, capsys):
    """Python's traceback counts a column in UTF-8 bytes; an editor counts characters."""
    line = 'X = ("θ → φ", math.sqrt(-1))'
    err = broken(site, capsys, "bad.py", f"import math\n\n{line}\n")
    column = line.index("math.sqrt") + 1  # 14 characters in, 18 bytes
    assert err.startswith(f"error: figures/bad.py:3:{column}: the module raised ValueError when imported: ")


def test_a_value_with_an_unknown_format_names_the_authors_line(site, capsys):
    source = SAMPLE.read_text().replace('Value("top", "percent"', 'Value("top", "percentage"')
    err = broken(site, capsys, "softmax_bars.py", source)
    text = next(l for l in source.splitlines() if '"percentage"' in l)
    line, column = 1 + source.splitlines().index(text), text.index("Value(") + 1  # the Value(...) that raised
    assert err.startswith(f"error: figures/softmax_bars.py:{line}:{column}: the module raised ValueError when imported: "
                          f"value 'top': format must be one of percent, decimal,")


def test_a_default_outside_its_range_names_the_parameter(site, capsys):
    source = FRAGILE.read_text().replace('Slider("a", "a", 1.0,', 'Slider("a", "a", 7.0,')
    (site / "content" / "01-mine.md").write_text(LESSON)
    err = broken(site, capsys, "fragile.py", source)
    assert err.startswith("error: figures/fragile.py:10:1: figure 'fragile': the default of 'a' is not one of its "
                          "own values: expected a number from -5 to 5, got '7.0'\n")


def test_a_figure_may_not_shadow_a_built_in(site, capsys):
    source = FRAGILE.read_text().replace('name = "fragile"', 'name = "attention-row"')
    built_in = FIGURES["attention-row"]
    err = broken(site, capsys, "fragile.py", source)
    assert err.startswith("error: figures/fragile.py:7:1: the figure name 'attention-row' is a built-in figure's\n"
                          "    give your figure a name of its own, e.g. 'my-attention-row'")
    assert FIGURES["attention-row"] is built_in


@pytest.mark.parametrize("line, named, col", [
    ("import numpy as np", "numpy", 1),
    ("from explorables.site_builder import build", "explorables.site_builder", 1),
    ("from explorables import site_builder", "explorables.site_builder", 1),
    ("import requests.adapters", "requests.adapters", 1),
    # named by a string: the builder's own packages are there at build time, not in the browser
    ("yaml = __import__('importlib').import_module('yaml')", "yaml", 8),
    ("yaml = __import__('yaml')", "yaml", 8),
])
def test_only_the_standard_library_the_kit_and_the_engine_may_be_imported(site, capsys, line, named, col):
    err = broken(site, capsys, "bad.py", f'"""A figure."""\n{line}\n')
    assert err.startswith(f"error: figures/bad.py:2:{col}: the figure module imports '{named}', which it may not\n"
                          f"    an author's figure may import the standard library, explorables.figures, "
                          f"explorables.engine and the figures folder's own modules (from . import helpers), "
                          f"and nothing else")


def test_a_module_may_import_another_of_the_figures_folder(site, capsys):
    """Pins an author's finding: the guide said a module may import another of the folder,
    and the build refused it. A helper that sorts after its user is loaded first."""
    sample = (site / "figures" / "softmax_bars.py").read_text()
    (site / "figures" / "softmax_bars.py").write_text(sample.replace(
        '\nNAMES = ("a", "b", "c")\n', "\nfrom . import words_of\nfrom .words_of import NAMES\n"))
    (site / "figures" / "words_of.py").write_text('"""Shared names."""\nNAMES = ("a", "b", "c")\n')
    assert main(["build"]) == 0, capsys.readouterr().err
    engine = names_in(site / "_site")["engine.zip"]
    archive = zipfile.ZipFile(io.BytesIO((site / "_site" / "_explorables" / engine).read_bytes()))
    # imported in that order, one by one
    assert b"SOURCES = {'words_of': 'words_of.py', 'softmax_bars': 'softmax_bars.py'}" in \
        archive.read("explorables/site_figures/__init__.py")
    assert runtime.step("softmax-bars", FIGURES["softmax-bars"].initial_state(
        FIGURES["softmax-bars"].parse_options({})), {"type": "set", "name": "a", "value": "3"})["ok"]


@pytest.mark.parametrize("line, said", [
    ("from .nowhere import x", "figures/bad.py:2:1: the figure module imports '.nowhere', but the figures folder "
                               "has no nowhere.py it loads"),
    ("from . import _private", "figures/bad.py:2:1: the figure module imports '._private', but the figures folder "
                               "has no _private.py it loads"),
    ("from .. import x", "figures/bad.py:2:1: an import from above the figures folder is not allowed"),
])
def test_an_import_of_the_folder_names_a_module_it_loads(site, capsys, line, said):
    (site / "figures" / "_private.py").write_text("x = 1\n")
    err = broken(site, capsys, "bad.py", f'"""A figure."""\n{line}\n')
    assert err.startswith("error: " + said), err


def test_allowed_imports_pass_the_check(tmp_path):
    import ast

    source = ("import math, json\nfrom dataclasses import dataclass\nfrom explorables import figures, engine\n"
              "from explorables.engine.attention import softmax\nimport explorables.figures as kit\n")
    assert author_checks.check_imports(tmp_path / "ok.py", ast.parse(source)) == []


def test_every_mistake_of_a_run_is_reported_together(site, capsys):
    assert main(["build"]) == 0
    (site / "figures" / "a.py").write_text("import numpy\n")
    (site / "figures" / "b.py").write_text("x = (\n")
    assert main(["build"]) == 1
    err = capsys.readouterr().err
    assert "figures/a.py:1:1:" in err and "figures/b.py:1:5: syntax error" in err and "2 errors;" in err


def test_a_module_that_fails_is_reported_once_and_its_figures_uses_say_nothing(site, capsys):
    """One mistake in a module, one message: the lesson using a figure the module names
    (read from its text, which may not parse), and prose quoting that figure, add
    nothing. A name the text does not spell out is pointed at the failed module."""
    (site / "content" / "01-mine.md").write_text(LESSON + "\nThe top is {value}`three.top`.\n")
    err = broken(site, capsys, "softmax_bars.py", SAMPLE.read_text().replace("def compute(self, s):",
                                                                              "def compute(self, s)"))
    lines = err.splitlines()
    assert lines[0].startswith("error: figures/softmax_bars.py:") and "syntax error" in lines[0]
    assert "1 error;" in err and "{value}" not in err and "unknown directive" not in err
    (site / "figures" / "softmax_bars.py").write_text(SAMPLE.read_text())
    err = broken(site, capsys, "softmax_bars.py", SAMPLE.read_text().replace(
        "def compute(self, s):", "def compute(self, s)").replace('name = "softmax-bars"', 'name = "softmax-" + "bars"'))
    lines = err.splitlines()
    assert lines[2] == "content/01-mine.md:8:4: unknown directive '{softmax-bars}'"
    assert lines[3].strip().startswith("if it is one of your own: figures/softmax_bars.py could not be loaded")
    assert "2 errors;" in err and "{value}" not in err


def test_a_figure_class_without_register_is_named(site, capsys):
    err = broken(site, capsys, "softmax_bars.py", SAMPLE.read_text().replace("@register\n", ""))
    line = 1 + SAMPLE.read_text().replace("@register\n", "").splitlines().index("class SoftmaxBars(Figure):")
    assert err.startswith("error: content/01-mine.md:8:4: unknown directive '{softmax-bars}'\n"
                          f"    figures/softmax_bars.py:{line} defines class SoftmaxBars with name 'softmax-bars' "
                          "but does not register it: put @register on the line above `class SoftmaxBars`")


def test_an_experiment_that_fails_is_named_at_its_line(site, capsys):
    """Pins an author's finding: an experiment setting a value out of its slider's range,
    or raising, was reported as "drawing its first frame raised", at the class's line."""
    source = SAMPLE.read_text()
    line = 1 + next(i for i, text in enumerate(source.splitlines()) if "Experiment(" in text)  # the call's line
    err = broken(site, capsys, "softmax_bars.py", source.replace('set={"a": 1.0, "b": 1.0}', 'set={"a": 100.0, "b": 1.0}'))
    assert err.startswith(f"error: figures/softmax_bars.py:{line}:1: figure 'softmax-bars': the experiment 'tie' "
                          "sets a value its parameter refuses: Score a must be from -5 to 5, got 100\n"), err
    raising = source.replace("see=TIE", "run=lambda s: 1 / 0, see=TIE")
    (site / "figures" / "softmax_bars.py").write_text(source)
    err = broken(site, capsys, "softmax_bars.py", raising)
    assert "figure 'softmax-bars': running the experiment 'tie' raised ZeroDivisionError" in err and "first frame" not in err


@pytest.mark.parametrize("mistake", ["compute", "option"])
def test_prose_quoting_a_broken_figure_adds_no_error_of_its_own(site, capsys, mistake):
    """A figure whose first frame raises, or whose option is wrong: one error, the
    figure's; the {value}, {adjust} and {numref} quoting it say nothing more (before, a {value} of a
    figure whose first frame raised was an internal error, "please report")."""
    prose = "\nThe top is {value}`three.top`; move {adjust}`three.a` in {numref}`three`.\n"
    assert main(["build"]) == 0
    if mistake == "compute":
        (site / "figures" / "softmax_bars.py").write_text(
            SAMPLE.read_text().replace("    def compute(self, s):\n", "    def compute(self, s):\n        [][1]\n"))
        lesson = LESSON + prose
    else:
        lesson = LESSON.replace(":a: 1", ":a: 99") + prose
    (site / "content" / "01-mine.md").write_text(lesson)
    capsys.readouterr()
    assert main(["build"]) == 1
    err = capsys.readouterr().err
    assert "internal error" not in err and "{value}" not in err and "{adjust}" not in err, err
    assert "{numref}" not in err and "1 error;" in err, err  # the module's, or the directive's
    assert ("first frame raised IndexError" if mistake == "compute" else "option 'a'") in err


def test_a_figure_that_fails_at_run_time_keeps_its_last_good_state(site):
    """In the runtime the browser calls: the author's bug comes back as a message naming
    the author's file and line, with no new state (the page keeps the last good one)."""
    (site / "figures" / "fragile.py").write_text(FRAGILE.read_text())
    loaded = authors.load(site / "figures")
    assert loaded.errors == [] and sorted(loaded.names) == ["fragile", "softmax-bars"]
    state = FIGURES["fragile"].initial_state({})
    good = runtime.step("fragile", state, {"type": "set", "name": "a", "value": 2})
    assert good["ok"] and good["scene"]["values"]["inverse"] == 0.5
    bad = runtime.step("fragile", good["state"], {"type": "set", "name": "a", "value": 4.5})
    assert bad == {"ok": False, "internal": True,
                   "error": "internal error in fragile: ZeroDivisionError: a above 4 has no inverse here"}


def test_a_second_load_forgets_the_first(site):
    authors.load(site / "figures")
    assert "softmax-bars" in FIGURES
    (site / "figures" / "softmax_bars.py").unlink()
    assert authors.load(site / "figures").modules == [] and "softmax-bars" not in FIGURES


def test_serve_rebuilds_when_a_figure_module_changes(site):
    from explorables.site_builder.commands.serve import DevServer

    dev = DevServer(site / "content", site / "_site")
    assert (site / "figures").resolve() in dev.watched


def test_a_name_two_modules_give_names_the_other_module(site, capsys):
    """Pins an author's finding: renaming a figure to the name of another blamed the
    module that had not changed, and the lessons using the other figure were then checked
    against the wrong class ("unknown option 'a'"). The clash is said at both classes,
    and nothing more."""
    renamed = SAMPLE.read_text().replace("class SoftmaxBars", "class Renamed")
    err = broken(site, capsys, "a_first.py", renamed)  # loaded before softmax_bars.py
    line = next(n for n, text in enumerate(renamed.splitlines(), 1) if text.startswith("class Renamed"))
    assert err.splitlines()[:5] == [
        f"error: figures/a_first.py:{line}:1: the figure name 'softmax-bars' is defined in softmax_bars.py of the "
        "figures folder too",
        "    give each figure its own name",
        f"figures/softmax_bars.py:{line}:1: the figure name 'softmax-bars' is defined in a_first.py of the "
        "figures folder too",
        "    give each figure its own name",
        "2 errors; the previous site was left as it was."]


def test_a_misnamed_figure_is_no_suggestion(site, capsys):
    """Pins a bug: name = "Softmax" was refused, then offered: "did you mean '{Softmax}'?"."""
    err = broken(site, capsys, "softmax_bars.py", SAMPLE.read_text().replace('"softmax-bars"', '"Softmax"'))
    assert "the figure name 'Softmax' is not a directive name" in err
    (site / "content" / "01-mine.md").write_text(LESSON.replace("{softmax-bars}", "{softmx}"))
    assert main(["build"]) == 1
    err = capsys.readouterr().err
    assert "unknown directive '{softmx}'" in err and "{Softmax}" not in err


def test_a_figures_folder_that_does_not_exist_is_named_where_its_figure_is_used(site, capsys):
    """From an author's review: `figures: figure` (a typo) gave only "unknown directive"."""
    assert main(["build"]) == 0
    (site / "site.yml").write_text('title: "Mine"\nfigures: figure\n')
    capsys.readouterr()
    assert main(["build"]) == 1
    err = capsys.readouterr().err
    assert ("content/01-mine.md:8:4: unknown directive '{softmax-bars}'\n    if it is one of your own: there is "
            "no folder figure/ to load it from (site.yml's `figures:` names the folder).") in err
