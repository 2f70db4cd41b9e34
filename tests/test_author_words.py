"""An author's own figure in several languages: its words are keys of the site's
catalogues that start with ``own.`` (``locales/en.json``, ``locales/de.json``), named by
``Say`` and ``t`` as the built-in figures name theirs. The German build's first frame
says them in German, the engine archive carries them to the worker, and the build checks
them: a key with no text stops it at the line that uses it, a German catalogue that
lacks some falls back to English with a warning, fields must match between languages,
and a misspelt key of the tool's is still refused with "did you mean"."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from explorables.engine import locale
from explorables.engine.exercises import EXERCISES
from explorables.figures import num, pct
from explorables.site_builder.authors import loader as authors
from explorables.site_builder.output.assets import names_in
from explorables.site_builder.commands.build import build_site
from explorables.site_builder.commands.cli import main
from explorables.site_builder.errors import BuildError
from author_site import write_site
from figure_helpers import ROOT
from test_locale_catalogue import first_frame, words_block
from engine_archive import unpack_for_cpython

FIXTURE = ROOT / "tests" / "fixtures" / "words"  # the guide's example: figures/shares.py and locales/
LESSON = "---\ntitle: Anteile\norder: 1\n---\n\nText.\n\n:::{shares} anteile\n:a: 3\n:::\n"


def make_site(tmp_path: Path, language: str) -> Path:
    return write_site(tmp_path / "site", copy=FIXTURE, site_yml=f"title: Anteile\nlanguage: {language}\n",
                      lessons={"index.md": "# Anteile\n", "01-anteile.md": LESSON})


@pytest.fixture(autouse=True)
def forget_the_sites_figures():
    yield
    authors.unload()
    locale.own_words({})
    locale.use("en")


def scene_of(html: str) -> dict:
    return first_frame(html, "anteile")


def catalogue(site: Path, language: str) -> dict:
    return json.loads((site / "locales" / f"{language}.json").read_text(encoding="utf-8"))


def write_catalogue(site: Path, language: str, words: dict) -> None:
    (site / "locales" / f"{language}.json").write_text(json.dumps(words, ensure_ascii=False, indent=2) + "\n",
                                                       encoding="utf-8")


def line_of(path: Path, needle: str) -> int:
    return 1 + next(i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines()) if needle in line)


def build_error(site: Path) -> str:
    (site / "out").mkdir()
    with pytest.raises(BuildError) as info:
        build_site(site / "content", site / "out")
    assert list((site / "out").iterdir()) == []  # nothing written
    return str(info.value)


def german(x: float) -> str:
    locale.use("de")
    written = pct(x)
    locale.use("en")
    return written


def test_the_german_build_draws_the_first_frame_in_german(tmp_path):
    site = make_site(tmp_path, "de")
    result = build_site(site / "content", site / "out")
    assert result.warnings == []
    data = scene_of((site / "out" / "anteile.html").read_text(encoding="utf-8"))
    scene = data["scene"]
    assert scene["title"] == "Softmax dreier Werte"
    assert scene["status"] == "größtes Gewicht 84\u00a0%"
    panels = {panel["id"]: panel for panel in scene["panels"]}
    assert panels["weights"]["title"] == "Gewichte"
    assert [bar["text"] for bar in panels["weights"]["bars"]] == ["84\u00a0%", "11\u00a0%", "4,2\u00a0%"]
    assert panels["lead"]["paragraphs"] == ["a führt mit 84\u00a0% des Gewichts."]
    controls = scene["controls"]
    assert [c["label"] for c in controls if c["kind"] == "slider"] == ["Wert a", "Wert b", "Wert c"]
    tie = next(c for c in controls if c["kind"] == "buttons")["items"][0]
    assert (tie["label"], tie["title"]) == ("a und b gleichsetzen", "Geben Sie a und b denselben Wert")


def test_the_english_build_of_the_same_site_speaks_english(tmp_path):
    site = make_site(tmp_path, "en")
    result = build_site(site / "content", site / "out")
    assert result.warnings == []
    scene = scene_of((site / "out" / "anteile.html").read_text(encoding="utf-8"))["scene"]
    assert scene["title"] == "Softmax of three scores" and scene["status"] == "top weight 84%"
    assert scene["panels"][1]["paragraphs"] == ["a leads with 84% of the weight."]


WORKER = """
import json, sys
sys.path.insert(0, sys.argv[1])  # the engine archive, unpacked
from explorables.engine import locale, runtime
block = json.loads(sys.argv[2])
locale.use(block["language"], json.dumps(block["messages"]))  # as worker.js does once Python is up
asks = json.loads(sys.stdin.read())
print(json.dumps([json.loads(runtime.handle(json.dumps(m))) for m in asks]))
"""


def test_the_engine_archive_carries_the_words_to_the_worker(tmp_path):
    """The pages do not carry the site's own words: the engine archive does, in the site's
    language, and the worker (the archive alone, ``python -S``, told the page's language
    as worker.js tells it) recomputes the figure with them after a reader's change."""
    site = make_site(tmp_path, "de")
    build_site(site / "content", site / "out")
    html = (site / "out" / "anteile.html").read_text(encoding="utf-8")
    block = words_block(html)
    assert not any(key.startswith("own.") for key in block["messages"])
    state = scene_of(html)["state"]
    unpacked = tmp_path / "worker"
    unpack_for_cpython(site / "out" / "_explorables" / names_in(site / "out")["engine.zip"], unpacked)
    asks = [{"figure": "shares", "state": state, "event": {"type": "patch", "patch": {"a": "-1,5"}}},
            {"figure": "shares", "state": state, "event": {"type": "action", "name": "tie"}}]
    run = subprocess.run([sys.executable, "-S", "-c", WORKER, str(unpacked), json.dumps(block)],
                         input=json.dumps(asks), capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    changed, tie = json.loads(run.stdout)
    assert changed["ok"] and changed["state"]["a"] == -1.5
    top = max(changed["scene"]["values"]["top"], 0)
    assert changed["scene"]["panels"][1]["paragraphs"] == [f"b führt mit {german(top)} des Gewichts."]
    assert changed["scene"]["status"] == f"größtes Gewicht {german(top)}"
    message = next(c for c in tie["scene"]["controls"] if c["kind"] == "buttons")["message"]
    assert "a und b teilen sich das Gewicht gleich; c bekommt weniger." in json.dumps(message, ensure_ascii=False)


def test_a_key_with_no_text_stops_the_build_where_the_figure_uses_it(tmp_path):
    site = make_site(tmp_path, "de")
    module = site / "figures" / "shares.py"
    module.write_text(module.read_text().replace('t("own.shares.weights")', 't("own.shares.weight")'))
    text = build_error(site)
    line = line_of(module, "own.shares.weight\"")
    col = 1 + module.read_text().splitlines()[line - 1].index('"own.shares.weight"')
    assert text.startswith(
        f"figures/shares.py:{line}:{col}: the key 'own.shares.weight' has no text in locales/de.json "
        f"(nor in locales/en.json)\n"
        f"    did you mean 'own.shares.weights'? add \"own.shares.weight\": \"…\" to locales/de.json\n")


def test_a_key_only_english_has_falls_back_to_english_with_a_warning(tmp_path):
    site = make_site(tmp_path, "de")
    words = catalogue(site, "de")
    del words["own.shares.weights"], words["own.shares.tie_see"]
    write_catalogue(site, "de", words)
    result = build_site(site / "content", site / "out")
    assert result.warnings == [
        "locales/de.json:1:1: 2 of the site's own words have no 'de' text and stay English "
        "(own.shares.tie_see, own.shares.weights)\n"
        "    add them to locales/de.json (`explorables words de` lists them with where each comes from)"]
    scene = scene_of((site / "out" / "anteile.html").read_text(encoding="utf-8"))["scene"]
    assert scene["title"] == "Softmax dreier Werte" and scene["panels"][0]["title"] == "Weights"


def test_fields_must_match_between_languages(tmp_path):
    site = make_site(tmp_path, "de")
    words = catalogue(site, "de")
    words["own.shares.lead"] = "{wer} führt mit {share}."
    write_catalogue(site, "de", words)
    english = line_of(site / "locales" / "en.json", '"own.shares.lead"')
    german_line = line_of(site / "locales" / "de.json", '"own.shares.lead"')
    assert build_error(site).startswith(
        f"locales/de.json:{german_line}:1: the text of "
        f"'own.shares.lead' has the fields {{share}}, {{wer}}, the English one in locales/en.json:{english} has "
        f"{{name}}, {{share}}\n"
        "    use the same {names} in every language: the figure fills in the same fields\n")


def test_a_misspelt_key_of_the_tools_is_still_refused(tmp_path):
    site = make_site(tmp_path, "de")
    write_catalogue(site, "de", {**catalogue(site, "de"), "figure.reest": "Zurück", "own.": "x"})
    text = build_error(site)
    assert ("locales/de.json:12:1: unknown key 'figure.reest'\n"
            "    did you mean 'figure.reset'? `explorables words en` lists the tool's keys; a word of your own "
            "takes a key starting with own., e.g. own.my_figure.title\n") in text
    assert "locales/de.json:13:1: the key 'own.' is not a key of your own words" in text


def test_a_misspelt_key_of_the_tools_in_a_figure_is_refused_at_its_line(tmp_path):
    site = make_site(tmp_path, "de")
    module = site / "figures" / "shares.py"
    module.write_text(module.read_text().replace('t("own.shares.status"', 't("figure.rest"'))
    assert (f"figures/shares.py:{line_of(module, 'figure.rest')}:18: unknown key 'figure.rest'\n"
            "    did you mean 'figure.reset'? a word of your own takes a key starting with own., with its text in "
            "locales/de.json\n") in build_error(site)


def test_a_key_made_while_the_figure_runs_is_named_where_it_is_missing(tmp_path):
    """A key put together by the figure's code cannot be checked before it runs: drawing
    the first frame names it, the file to add it to, and the line."""
    site = make_site(tmp_path, "de")
    module = site / "figures" / "shares.py"
    module.write_text(module.read_text().replace('t("own.shares.weights")', 't(f"own.shares.{first}")'))
    line = line_of(module, 'own.shares.{first}')
    column = module.read_text().splitlines()[line - 1].index('t(f"own.shares.') + 1  # the call that raised
    missing = "no catalogue of the site has the key 'own.shares.a': add it to the site's locales/de.json"
    assert build_error(site).split("\n")[::2] == [  # the module's error, not repeated at the lesson
        f"figures/shares.py:{line}:{column}: figure 'shares': drawing its first frame raised MissingWord: {missing}",
        "1 error; nothing was written (there is no previous site)."]


HALF = '''"""half: half of a number, with a hint in the site's language."""
import random

from explorables.figures import Exercise, Mistake, Say, mathml, mn, register, t


@register
class Half(Exercise):
    name = "half"
    mistakes = (Mistake("doubled", Say("own.half.doubled"), lambda p: 2 * p["x"]),)

    def generate(self, seed):
        return {"x": random.Random(seed).randint(1, 9) + 0.5}

    def solve(self, p):
        return p["x"] / 2

    def statement(self, p, decimal_comma=False):
        return t("own.half.statement", x=mathml(mn(p["x"], decimal_comma)))
'''


def test_an_exercise_speaks_the_sites_words_in_its_statement_and_hints(tmp_path):
    site = make_site(tmp_path, "de")
    (site / "figures" / "half.py").write_text(HALF, encoding="utf-8")
    write_catalogue(site, "en", {**catalogue(site, "en"), "own.half.doubled": "You doubled it; halve it.",
                                 "own.half.statement": "What is half of {x}?"})
    write_catalogue(site, "de", {**catalogue(site, "de"), "own.half.doubled": "Verdoppelt; halbieren Sie.",
                                 "own.half.statement": "Was ist die Hälfte von {x}?"})
    (site / "content" / "02-halb.md").write_text("---\ntitle: Halb\norder: 2\n---\n\n:::{exercise} half\n:::\n")
    build_site(site / "content", site / "out")
    html = (site / "out" / "halb.html").read_text(encoding="utf-8")
    half = EXERCISES["half"]
    x = half.generate(1)["x"]
    assert f"Was ist die Hälfte von <math xmlns=\"http://www.w3.org/1998/Math/MathML\" display=\"inline\"><mrow>" \
           f"<mn>{num(x, 1).replace('.', ',')}</mn></mrow></math>?</p>" in html
    locale.use("de")
    locale.own_words({"own.half.doubled": "Verdoppelt; halbieren Sie."})
    verdict = half.grade(1, num(2 * half.generate(1)["x"], 1), decimal_comma=True)
    assert (verdict.message, verdict.mistake) == ("Verdoppelt; halbieren Sie.", "doubled")


def test_the_words_command_lists_the_sites_own_words_and_where_each_comes_from(tmp_path, monkeypatch, capsys):
    site = make_site(tmp_path, "de")
    words = catalogue(site, "de")
    del words["own.shares.weights"]
    write_catalogue(site, "de", words)
    english = line_of(site / "locales" / "en.json", '"own.shares.weights"')
    monkeypatch.chdir(site)
    assert main(["words", "de"]) == 0
    out = capsys.readouterr()
    printed = json.loads(out.out)
    assert printed["page.next"] == "Weiter" and printed["own.shares.title"] == "Softmax dreier Werte"
    assert printed["own.shares.weights"] == "Weights"
    assert out.err.splitlines() == [
        "10 words of the site's own (keys own.*), from:",
        *[f"  {key:<20}  locales/de.json:{n}" for n, key in enumerate(words, start=2)],
        f"  {'own.shares.weights':<20}  locales/en.json:{english}"
        "  (English: no 'de' text yet)"]


def test_the_guide_shows_the_tested_example():
    guide = (ROOT / "docs" / "writing-a-figure.md").read_text(encoding="utf-8")
    section = guide.split("## Your figure in several languages\n")[1].split("\n## ")[0]
    assert "```python\n" + (FIXTURE / "figures" / "shares.py").read_text(encoding="utf-8") + "```" in section
    assert "```markdown\n" + LESSON.split("Text.\n\n")[1] + "```" in section
    for language in ("en", "de"):
        assert "```json\n" + (FIXTURE / "locales" / f"{language}.json").read_text(encoding="utf-8") + "```" in section
