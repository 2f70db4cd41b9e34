"""An author's own exercise type (a module in the site's figures/ folder, beside the
author's figures): registered with the kit's ``register``, loaded and checked by the
build like a figure, usable by ``:::{exercise} NAME``, shipped in the engine archive and
graded there by ``engine.runtime.handle`` as the reader's worker calls it. A broken type
is a build error at the author's file and line, with the previous site left as it was."""
from __future__ import annotations

import io
import json
import re
import subprocess
import sys
import zipfile

import pytest

from explorables.engine.exercises import EXERCISES
from explorables.site_builder.authors import loader as authors
from explorables.site_builder.output.assets import names_in
from explorables.site_builder.commands.cli import main
from author_site import broken
from figure_helpers import ROOT
from engine_archive import unpack_for_cpython

SAMPLE = ROOT / "tests" / "fixtures" / "exercises" / "dot_product.py"
LESSON = "---\ntitle: Dots\norder: 1\n---\n\nText.\n\n:::{exercise} dot-2\n:seed: 4\nWarm up.\n:::\n"
BUILT_IN = {"scaled-score", "softmax-weight", "output-vector"}  # among others the engine may add


@pytest.fixture
def site(author_site):
    """A site whose figures/ folder holds the guide's exercise type and a lesson using it."""
    return author_site(lessons={"index.md": "# Mine\n", "01-dots.md": LESSON},
                       figures={"dot_product.py": SAMPLE.read_text()})


def _line(source: str, needle: str) -> int:
    return 1 + next(i for i, line in enumerate(source.splitlines()) if needle in line)


def test_the_guide_shows_the_tested_example():
    guide = (ROOT / "docs" / "writing-a-figure.md").read_text()
    section = guide.split("## Your own exercise type\n")[1].split("\n## ")[0]
    assert "```python\n" + SAMPLE.read_text() + "```" in section


def test_an_authors_type_is_built_into_the_page_and_shipped(site):
    assert main(["build"]) == 0
    dot = EXERCISES["dot-2"]
    assert type(dot).__module__ == "explorables.site_figures.dot_product"
    page = (site / "_site" / "dots.html").read_text()
    section = page.split('<div class="ex-exercise"')[1].split("</script>\n</div>")[0]
    assert 'data-exercise="dot-2"' in section and "Warm up." in section
    statement = section.split('<p class="ex-problem">')[1].split("</p>\n")[0]
    assert statement == dot.problem(4)["statement"]
    p = dot.generate(4)
    assert p == {"a": [-1.0, -1.3], "b": [0.5, -0.3]}  # random.Random(4), as the browser draws it too
    assert "Take <math" in statement and "<mo>\u2212</mo><mn>1.3</mn>" in statement and "<mo>⋅</mo>" in statement
    data = json.loads(section.split('class="ex-exercise-data">')[1].split("</script>")[0])
    assert data == {"type": "dot-2", "seed": 4, "language": "en"}
    engine = names_in(site / "_site")["engine.zip"]
    archive = zipfile.ZipFile(io.BytesIO((site / "_site" / "_explorables" / engine).read_bytes()))
    assert archive.read("explorables/site_figures/dot_product.py") == SAMPLE.read_bytes()
    loaded = authors.load(site / "figures")
    assert loaded.errors == [] and loaded.exercise_names == {"dot-2": site / "figures" / "dot_product.py"}


def test_an_unknown_type_suggests_the_authors_types_too(site, capsys):
    (site / "content" / "01-dots.md").write_text(LESSON.replace("dot-2", "dot-3"))
    assert main(["build"]) == 1
    err = capsys.readouterr().err
    assert list(EXERCISES)[-1] == "dot-2" and BUILT_IN <= set(EXERCISES)  # the built-ins, then the site's own
    assert err.startswith("error: content/01-dots.md:8:15: {exercise}: unknown exercise type 'dot-3'\n"
                          f"    did you mean 'dot-2'? types: {', '.join(EXERCISES)}\n")


def test_a_syntax_error_names_the_authors_line(site, capsys):
    source = SAMPLE.read_text().replace("def solve(self, p):", "def solve(self, p:")
    err = broken(site, capsys, "dot_product.py", source)
    line = _line(source, "def solve(self, p:")
    assert f"figures/dot_product.py:{line}:" in err and "syntax error" in err
    assert "dot-2" not in EXERCISES


def test_a_type_may_not_shadow_a_built_in(site, capsys):
    built_in = EXERCISES["scaled-score"]
    source = SAMPLE.read_text().replace('name = "dot-2"', 'name = "scaled-score"')
    err = broken(site, capsys, "dot_product.py", source)
    assert (f"figures/dot_product.py:{_line(source, 'class DotProduct')}:1: the exercise type 'scaled-score' is "
            "a built-in type's\n    give your exercise type a name of its own, e.g. 'my-scaled-score'\n") in err
    assert EXERCISES["scaled-score"] is built_in


def test_two_modules_may_not_define_the_same_type(site, capsys):
    source = SAMPLE.read_text()
    err = broken(site, capsys, "more_dots.py", source)
    assert (f"figures/more_dots.py:{_line(source, 'class DotProduct')}:1: the exercise type 'dot-2' is defined in "
            "dot_product.py of the figures folder too\n") in err
    assert type(EXERCISES["dot-2"]).__module__ == "explorables.site_figures.dot_product"


def test_a_bad_import_names_the_authors_line(site, capsys):
    source = SAMPLE.read_text().replace("import random\n", "import random\nimport numpy as np\n")
    err = broken(site, capsys, "dot_product.py", source)
    assert err.startswith(f"error: figures/dot_product.py:{_line(source, 'numpy')}:1: the figure module imports "
                          "'numpy', which it may not\n")


def test_an_unknown_kind_names_its_line_and_the_kinds(site, capsys):
    source = SAMPLE.read_text().replace('kind = "number"', 'kind = "percentage"')
    err = broken(site, capsys, "dot_product.py", source)
    assert err.startswith(f"error: figures/dot_product.py:{_line(source, 'kind =')}:1: exercise type 'dot-2': "
                          "kind 'percentage' is not an answer kind\n"
                          "    did you mean 'percent'? kind is one of number, percent, vector\n")


def test_a_problem_that_raises_names_the_line_that_raised(site, capsys):
    source = SAMPLE.read_text().replace("        return dot(p[\"a\"], p[\"b\"])",
                                        "        return dot(p[\"a\"], p[\"b\"]) / (p[\"a\"][0] + 1.9)")
    err = broken(site, capsys, "dot_product.py", source)
    line = _line(source, "+ 1.9")  # at the division that raised, where an editor's cursor should land
    column = source.splitlines()[line - 1].index("dot(") + 1
    assert re.search(rf"error: figures/dot_product.py:{line}:{column}: exercise type 'dot-2': making the problem of "
                     r"seed \d raised ZeroDivisionError: float division by zero\n", err)


def test_an_answer_that_does_not_fit_the_kind_is_refused(site, capsys):
    source = SAMPLE.read_text().replace('kind = "number"', 'kind = "vector"')
    err = broken(site, capsys, "dot_product.py", source)
    assert (f"figures/dot_product.py:{_line(source, 'class DotProduct')}:1: exercise type 'dot-2': kind is "
            "'vector' but solve gave") in err


def test_a_statement_with_a_style_attribute_is_cleaned(site):
    """The page's cleaner drops the style (tests/test_exercise_sanitise.py tries the rest)."""
    source = SAMPLE.read_text().replace('f"Take {', 'f"<span style=\\"color: red\\">Take</span> {')
    (site / "figures" / "dot_product.py").write_text(source)
    assert main(["build"]) == 0
    assert '<p class="ex-problem"><span>Take</span> <math' in (site / "_site" / "dots.html").read_text()


def test_a_seed_the_type_cannot_make_is_an_error_at_the_directive(site, capsys):
    """The build tries a few seeds; a lesson's own :seed: that the type fails on is
    reported at the lesson's directive, naming the author's line."""
    source = SAMPLE.read_text().replace("        rng = random.Random(seed)",
                                        "        if seed == 99:\n            raise ValueError(\"no 99\")\n"
                                        "        rng = random.Random(seed)")
    (site / "figures" / "dot_product.py").write_text(source)
    (site / "content" / "01-dots.md").write_text(LESSON.replace(":seed: 4", ":seed: 99"))
    assert main(["build"]) == 1
    assert capsys.readouterr().err.startswith(
        "error: content/01-dots.md:8:15: {exercise}: the exercise type 'dot-2' failed to make the problem of "
        f"seed 99: ValueError: no 99 (dot_product.py:{_line(source, 'no 99')})\n")


def test_a_second_load_forgets_the_first(site):
    authors.load(site / "figures")
    assert "dot-2" in EXERCISES
    (site / "figures" / "dot_product.py").unlink()
    assert authors.load(site / "figures").modules == [] and set(EXERCISES) == authors.builtin_exercises()
    assert BUILT_IN <= set(EXERCISES)


WORKER = """
import json, sys
sys.path.insert(0, sys.argv[1])  # the engine archive, unpacked
from explorables.engine import runtime
replies = [json.loads(runtime.handle(json.dumps(m))) for m in json.loads(sys.stdin.read())]
print(json.dumps({"runtime": runtime.__file__, "replies": replies}))
"""


def test_the_engine_archive_grades_the_authors_type_as_the_worker_does(site, tmp_path):
    """The archive alone (no builder, no installed package: ``python -S``) imports the
    site's modules with the runtime, so "New numbers" and Check reach the author's type."""
    assert main(["build"]) == 0
    dot = EXERCISES["dot-2"]
    engine = site / "_site" / "_explorables" / names_in(site / "_site")["engine.zip"]
    p = dot.generate(417)
    right = dot.solve(p)
    added = next(m for m in dot.mistakes if m.name == "added").value(p)
    asks = [{"exercise": "dot-2", "seed": 417, "language": "en"},
            {"exercise": "dot-2", "seed": 417, "language": "en", "answer": f"{right:.2f}".replace("-", "\u2212")},
            {"exercise": "dot-2", "seed": 417, "language": "en", "answer": f"{added:.2f}"},
            {"exercise": "dot-2", "seed": 417, "language": "de", "answer": f"{right + 1:.2f}".replace(".", ",")},
            {"exercise": "dot-2", "seed": 417, "language": "en", "answer": "(1, 2)"},
            {"exercise": "dot-2", "seed": "x", "language": "en"}]
    unpacked = tmp_path / "worker"
    unpack_for_cpython(engine, unpacked)  # as the worker unpacks it into Pyodide's file system
    run = subprocess.run([sys.executable, "-S", "-c", WORKER, str(unpacked)], input=json.dumps(asks),
                         capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["runtime"] == str(unpacked / "explorables" / "engine" / "runtime.py")  # not the installed package
    problem, good, mistake, wrong, unreadable, bad_seed = out["replies"]
    assert problem == {"ok": True, **dot.problem(417)} and problem["type"] == "dot-2"
    assert good == {"ok": True, "right": True, "message": "Right.", "mistake": ""}
    assert mistake == {"ok": True, "right": False, "mistake": "added",
                       "message": "You added the coordinates; multiply them pair by pair, then add."}
    assert wrong["right"] is False and wrong["mistake"] == ""
    assert unreadable["right"] is False and unreadable["message"].startswith("“(1, 2)” is not a number")
    assert bad_seed == {"ok": False, "field": "seed", "error": "a seed is a whole number from 0 to 2147483647, got 'x'"}


def test_percent_answers_are_read_as_weights_are():
    from explorables.engine.exercises import expected_form, read_answer

    assert read_answer("45%", "percent") == pytest.approx(0.45) == read_answer("0.45", "percent")
    assert read_answer("45 %", "percent", decimal_comma=True) == pytest.approx(0.45)
    assert expected_form("percent") == expected_form("weight")
