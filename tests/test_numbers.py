"""One number formatter a language: engine/numbers.py, and its JavaScript twin
static/js/numbers.js, write every case of one table (tests/fixtures/number-cases.json)
as it says; the engine's, the figures' and the exercises' numbers are written by it."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from explorables.engine import locale, numbers
from explorables.engine.exercises.kit import _fmt
from explorables.engine.figures.kit import num, pct, vec
from explorables.site_builder.markdown.directives.roles import write
from figure_helpers import ROOT

CASES_FILE = ROOT / "tests" / "fixtures" / "number-cases.json"
CASES = json.loads(CASES_FILE.read_text(encoding="utf-8"))["cases"]


def rules_of(rules) -> numbers.Rules:
    if isinstance(rules, str):
        return numbers.Rules.of(locale.catalogue(rules))
    return numbers.ENGLISH._replace(**rules)


def written(case: dict) -> str:
    rules = rules_of(case["rules"])
    if case["format"] in ("percent", "localized"):
        return getattr(numbers, case["format"])(case["x"], rules=rules)
    return getattr(numbers, case["format"])(case["x"], case["digits"], rules)


def test_the_table_covers_every_format_in_every_language():
    assert {c["format"] for c in CASES} == {"fixed", "trimmed", "percent", "vector", "localized"}
    assert {c["rules"] for c in CASES if isinstance(c["rules"], str)} == {"en", "de", "he"}
    # ties go to the even neighbour, in both languages
    assert {"x": 0.125, "digits": 2, "text": "0.12"}.items() <= next(
        c for c in CASES if c["rules"] == "en" and c["format"] == "fixed" and c["x"] == 0.125).items()


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['rules']}-{c['format']}-{c['x']}")
def test_python_writes_each_case(case):
    assert written(case) == case["text"]


def test_javascript_writes_each_case_as_python_does():
    node = shutil.which("node")
    assert node, "Node is needed for the runtime's checks"
    run = subprocess.run([node, str(ROOT / "tests" / "node" / "numbers.mjs"), str(ROOT / "static" / "js" / "numbers.js"),
                          str(CASES_FILE), str(Path(locale.LOCALES))], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    wrong = [(c, text) for c, text in zip(CASES, json.loads(run.stdout)) if text != c["text"]]
    assert wrong == []


@pytest.mark.parametrize("language", ["en", "de", "he"])
def test_the_figures_the_prose_and_the_exercises_write_by_it(language):
    locale.use(language)
    try:
        rules = locale.number_format()
        assert locale.unisolated(num(-1234.5)) == numbers.fixed(-1234.5, 2, rules)
        assert locale.unisolated(pct(0.042)) == numbers.percent(0.042, rules)
        assert locale.unisolated(vec([0.5, -1], 1)) == numbers.vector([0.5, -1], 1, rules)
        assert locale.localized("-12345.5") == numbers.localized("-12345.5", rules)
        assert locale.unisolated(write(0.27, "percent", 0)) == numbers.percent(0.27, rules)
    finally:
        locale.use("en")
    assert _fmt(-0.456, True) == numbers.trimmed(-0.456, 2, numbers.Rules(decimal=",")) == "−0,46"


def test_python_and_javascript_have_one_formatter_each():
    """No other place writes a number's decimals for readers."""
    prose = (ROOT / "static" / "js" / "prose.js").read_text(encoding="utf-8")
    core = (ROOT / "static" / "js" / "core.js").read_text(encoding="utf-8")
    assert "function num(" not in prose and "function pct(" not in prose
    assert "toFixed" not in core and "ex.localize =" not in core
    text = (ROOT / "engine" / "figures" / "kit" / "text.py").read_text(encoding="utf-8")
    assert "def _number" not in text and "localized(" not in text
