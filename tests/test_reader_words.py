"""Every word a reader meets comes from the catalogue (engine/locales/): the browser
runtime (static/js) and the exercises (engine/exercises/) hold no English sentence of
their own, and a German site's exercises, grid, Play button and notices speak German,
in the build and in the worker that grades an answer."""
from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from explorables.engine import locale, runtime
from explorables.engine.exercises import EXERCISES, MINUS
from explorables.site_builder.commands.build import build_site
from author_site import write_site

ROOT = Path(__file__).resolve().parent.parent
JS = sorted((ROOT / "static" / "js").rglob("*.js"))

# --- no English literal left -----------------------------------------------------------------

# A JavaScript comment or string literal, whichever starts first (regular expressions in
# the runtime hold no quote, so this reads the files as a tokenizer would).
JS_TOKEN = re.compile(r'''/\*.*?\*/|//[^\n]*|"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'|`((?:[^`\\]|\\.)*)`''', re.S)
WORD = re.compile(r"""[("“„]?[A-Za-z']{2,}[,;:.?!)"”“]*""")  # a word as prose writes it: letters, punctuation

# Literals that read like words but are none a reader meets, by file: the DOM's key names,
# CSS selectors and fonts, media queries, the worker's own messages to Pyodide, and text
# that only reaches the console or a fallback the reader never sees.
NOT_READER_WORDS = {
    "*": {"use strict", "Enter", "Escape", "Backspace", "Home", "End", "explorables:change", "explorables:first-frame"},
    "bundle.js": {"index.html"},
    "client.js": {"the engine (build ", ") is not this page's (build ", "a file of the engine is missing ("},
    "code.js": {"copy refused"},  # caught: the button then says "Select and copy"
    "core.js": {"(prefers-reduced-motion: reduce)", "js/panels.js is no longer on the server"},
    "figure.js": {"input, button, select, textarea", "(prefers-color-scheme: dark)"},
    "livereload.js": {"a[href], button, input, select, textarea, summary, [tabindex]"},
    "label.js": {" leader", "13px system-ui, sans-serif", "600 13px system-ui, sans-serif", "px system-ui, sans-serif"},
    "plane-grid.js": {"11px system-ui, sans-serif"},
    "cells.js": {"td, th", "screen and (prefers-color-scheme: dark)"},
    "pages.js": {"head script[src]", "no page to swap in"},  # caught: the browser then loads the page itself
    "scrollers.js": {"a[href], button, input, select, textarea, summary, [tabindex]"},  # alone on the print page
    # the service worker's cache names and errors, which only its console hears
    "serviceworker.js": {"explorables ", ": HTTP ", " is not the file of this version of the site",
                         "the new version of the site could not be cached"},
    "languages.js": {"no words for "},  # caught: the switch then loads the other language's page itself
    "scorm.js": {"not attempted"},  # a value of SCORM 1.2's cmi.core.lesson_status, for the LMS
    "statement.js": {"b big blockquote body br center code dd div dl dt em embed h1 h2 h3 h4 h5 h6 head hr i img ",
                     "li listing menu meta nobr ol p pre ruby s small span strong strike sub sup table tt u ul var"},
    "search.js": {"a an and are as at be by for from has have in into is it its of on or that the this ",
                  "to was were will with which we you your our can not"},  # English stop words of the index
    "worker.js": {"wasm instantiation failed!", "explorables: module imports only", "pyodide.mjs",
                  "pyodide.asm.wasm", "explorables.engine.runtime", "explorables.engine.locale",
                  "import sys\\nsys.path.insert(0, '",
                  # a snapshot that cannot be restored only warns in the console: Python starts cold
                  "could not load the snapshot (", "the snapshot belongs to another build",
                  "import explorables.engine.runtime as r\\nr.SNAPSHOT_OF"},
}


def reads_as_words(text: str) -> bool:
    """Whether a literal reads as words for people: two words in a row ("Row header",
    "could not load"), one capitalised word ("Play"), or a word with spaces around it,
    a piece of a sentence (" back to ")."""
    tokens = [token for token in text.split() if re.search(r"\w", token)]
    words = [token for token in tokens if WORD.fullmatch(token)]
    if len(words) >= 2:
        return True
    if len(tokens) == 1 and words:
        return text != text.strip() or bool(re.fullmatch(r"[A-Z][a-z]+[.,:;!?]?", tokens[0]))
    return False


def english_in_js() -> list[str]:
    found = []
    for path in JS:
        source = path.read_text(encoding="utf-8")
        lines = source.splitlines()
        allowed = NOT_READER_WORDS["*"] | NOT_READER_WORDS.get(path.name, set())
        for match in JS_TOKEN.finditer(source):
            if match.group().startswith("/"):
                continue  # a comment
            text = next(group for group in match.groups() if group is not None)
            line = source.count("\n", 0, match.start()) + 1
            if "console." in lines[line - 1] or text in allowed or re.fullmatch(r"[a-z]+(\.[a-z_0-9]+)+", text):
                continue  # a console message, a known non-word, a catalogue key
            if reads_as_words(text):
                found.append(f"{path.relative_to(ROOT)}:{line}: {text!r}")
    return found


def test_the_runtime_says_nothing_in_english_of_its_own():
    """A reader-visible string in static/js is a catalogue key read with ex.t (or, in the
    worker, the page's words): an English literal added to the runtime fails here. If
    the new literal is no word for a reader (a CSS selector, a key name), add it to
    NOT_READER_WORDS."""
    assert english_in_js() == []


def test_the_scan_finds_what_it_is_for():
    """The scanner's rule on the strings this change took out of the runtime."""
    for text in ("Row", "Play", "Hide", " back to ", "Curve, ", ", lowest ", "it did not answer within ",
                 "Arrow keys move between cells; D reads a cell's arithmetic.", "unknown error"):
        assert reads_as_words(text), text
    for text in ("ex-button ex-play", "runtime.play", "click", "(x, y)", " ex-active", "1 s", ": ", "; ",
                 "aria-label", "ArrowRight", "Content-Type", "PageUp"):
        assert not reads_as_words(text), text


# The exercise module: its strings that are not docstrings, MathML or notation.
EXERCISE_NOT_READER_WORDS = (
    "a seed is a whole number from 0 to ", ", got ",  # SeedError: the build's message to the author (English,
    # as every build error is); the worker words it from the catalogue (exercise.worker.bad_seed)
    "af az be bg ",  # the languages that write a decimal comma
)


def english_in_exercises() -> list[str]:
    """Sentences written into the exercise package's modules rather than taken from the
    catalogue, as ``path:line: text``."""
    found = []
    for path in sorted((ROOT / "engine" / "exercises").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                      if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef)) and node.body
                      and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
        for node in ast.walk(tree):
            if not isinstance(node, ast.Constant) or not isinstance(node.value, str) or id(node) in docstrings:
                continue
            if node.value.isidentifier():  # a Python name, as in __all__, is no sentence
                continue
            text = re.sub(r"<[^>]*>", " ", node.value)  # MathML's tags are no words
            if not node.value.startswith(EXERCISE_NOT_READER_WORDS) and reads_as_words(text) and not text.startswith(" "):
                found.append(f"engine/exercises/{path.name}:{node.lineno}: {node.value!r}")
    return found


def test_the_exercises_say_nothing_in_english_of_their_own():
    """Statements, hints and answer forms of the built-in exercise types are catalogue
    keys (``exercise.<type>.<what>``, ``runtime.answer_*``)."""
    assert english_in_exercises() == []


# --- a German site ---------------------------------------------------------------------------

LESSON = """---
title: Übung
order: 1
---

:::{attention-row} explorer
:query: chased
:::

Die Temperatur ist {adjust}`explorer.temperature`.

:::{positional-encoding} clocks
:::

:::{exercise} scaled-score
:seed: 4
:::

:::{exercise} output-vector
:seed: 3
:::
"""


@pytest.fixture(scope="module")
def german_site(tmp_path_factory):
    site = write_site(tmp_path_factory.mktemp("deutsch"), site_yml="title: Test\nlanguage: de\nlicense: CC BY 4.0\n",
                      lessons={"01-uebung.md": LESSON})
    result = build_site(site / "content", site / "_site")
    locale.use("en")
    assert result.warnings == []
    return site / "_site"


@pytest.fixture(autouse=True)
def english_after():
    yield
    locale.use("en")


def words_block(html: str) -> dict:
    return json.loads(re.search(r'<script type="application/json" id="ex-words">(.*?)</script>', html).group(1))


def plain_text(html: str) -> str:
    """The words, each formula as [formula] (and without the spans that keep it on its line)."""
    text = re.sub(r'<span class="ex-nowrap">(.*?)</span>', r"\1", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<math\b.*?</math>", "[formula]", text, flags=re.S))


def test_a_page_carries_the_preview_s_and_the_bundle_s_words_only_there(german_site, tmp_path):
    """The words of a preview's build errors (livereload.js) and of an offline bundle's
    start (bundle.js, the worker from a bundle) are bytes of every first frame: a published
    page leaves them out, a preview and a bundle carry theirs."""
    published = words_block((german_site / "uebung.html").read_text(encoding="utf-8"))["messages"]
    assert not [k for k in published if k.startswith(("runtime.build_", "runtime.bundle_"))]
    source = german_site.parent / "content"
    build_site(source, tmp_path / "preview", dev=True)
    build_site(source, tmp_path / "bundle", bundle=True)
    locale.use("en")
    preview = words_block((tmp_path / "preview" / "uebung.html").read_text(encoding="utf-8"))["messages"]
    bundle = words_block((tmp_path / "bundle" / "uebung.html").read_text(encoding="utf-8"))["messages"]
    assert {"runtime.build_error", "runtime.build_failed"} <= set(preview)
    assert not [k for k in preview if k.startswith("runtime.bundle_")]
    assert {"runtime.bundle_missing", "runtime.bundle_pyodide"} <= set(bundle)
    assert not [k for k in bundle if k.startswith("runtime.build_")]


def test_a_german_page_carries_the_runtime_s_german_words(german_site):
    """The grid's corner, Play, the cell help and a chart's description come from the
    words block the page carries (controls/grid.js and play.js, cells.js, chart.js read them
    with ex.t)."""
    html = (german_site / "uebung.html").read_text(encoding="utf-8")
    messages = words_block(html)["messages"]
    assert (messages["runtime.row"], messages["runtime.play"], messages["runtime.pause"],
            messages["runtime.step"]) == ("Zeile", "Abspielen", "Pause", "Schritt")
    assert messages["runtime.cells_keys"].startswith("Die Pfeiltasten")
    assert messages["runtime.chart_text"].startswith("{curve}, {y} über {x}")
    assert messages["runtime.python_failed"].startswith("Python konnte nicht starten ({error})")
    assert not any(key.startswith("exercise.") for key in messages)  # the worker has those from the engine
    for figure in ('data-figure="attention-row"', 'data-figure="positional-encoding"'):
        assert figure in html
    controls = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "static" / "js").glob("controls/*.js"))
    assert 'ex.t("runtime.row")' in controls and '"runtime.play"' in controls


def test_a_german_build_writes_the_exercises_and_the_prose_s_help_in_german(german_site):
    html = (german_site / "uebung.html").read_text(encoding="utf-8")
    problems = [plain_text(p) for p in re.findall(r'<p class="ex-problem">(.*?)</p>', html, re.S)]
    assert problems[0] == ("Eine Abfrage [formula] trifft auf einen Schlüssel [formula] ([formula]). Wie hoch ist "
                           "ihre skalierte Bewertung [formula]? Geben Sie zwei Nachkommastellen an.")
    assert problems[1].startswith("Eine Abfrage [formula] richtet ihre Aufmerksamkeit auf drei Token: "
                                  "[formula] mit [formula], ")
    assert problems[1].endswith("Schreiben Sie sie als (x; y).")
    assert "<mn>1,9</mn>" in html  # the numbers in the reader's notation, as before
    assert 'title="Ziehen Sie seitwärts oder verwenden Sie die Pfeiltasten, um Temperatur T zu ändern"' in html
    assert 'placeholder="eine Zahl, etwa 1,25"' in html


def test_the_worker_grades_a_german_page_s_answer_in_german(german_site):
    """As the reader's worker does: the page's words block given to locale.use, then the
    exercise request the page sends (engine/runtime.py)."""
    html = (german_site / "uebung.html").read_text(encoding="utf-8")
    words = words_block(html)
    locale.use(words["language"], words["messages"])
    e = EXERCISES["scaled-score"]
    p = e.generate(4)
    forgot = sum(a * b for a, b in zip(p["q"], p["k"]))  # q·k, not divided by √d_k
    typed = f"{forgot:.2f}".replace(".", ",").replace("-", MINUS)
    reply = json.loads(runtime.handle(json.dumps({"exercise": "scaled-score", "seed": 4, "answer": typed,
                                                  "language": "de"})))
    assert reply == {"ok": True, "right": False, "mistake": "forgot-sqrt-d",
                     "message": "Sie haben q·k berechnet, aber nicht durch √dₖ geteilt."}
    fresh = json.loads(runtime.handle(json.dumps({"exercise": "output-vector", "seed": 9, "language": "de"})))
    assert plain_text(fresh["statement"]).endswith("Schreiben Sie sie als (x; y).")
    bad = json.loads(runtime.handle(json.dumps({"exercise": "output-vector", "seed": "x", "language": "de"})))
    assert bad["error"] == "eine Aufgabennummer ist eine ganze Zahl von 0 bis 2147483647, erhalten: 'x'"


def test_an_author_s_plain_hint_stays_as_written():
    """The author's API is unchanged: ``Mistake(name, hint)`` with words."""
    from explorables.figures import Mistake, Say
    assert str(Mistake("m", "Add them.", lambda p: 0).hint) == "Add them."
    locale.use("de")
    assert str(Mistake("m", Say("exercise.output_vector.pair", k="a", v="b"), lambda p: 0).hint) == "a mit b"


def test_the_notices_speak_german(german_site):
    html = (german_site / "notices.html").read_text(encoding="utf-8")
    assert "Python im Browser, das die Engine der Abbildungen ausführt" in html
    assert "3.14 (in Pyodide)" in html and ">der Lizenztext</a> liegt bei" in html
    assert "Python in the browser" not in html and "ships beside it" not in html
