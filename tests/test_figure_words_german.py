"""The built-in figures speak the site's language: every word of a figure's scene (its
title, captions, legends, readouts, stats, control labels and help, experiment names,
titles and messages) comes from the catalogue, so with German chosen no English
sentence is left, and with English chosen again the words are the English ones.

The check splits a scene into structure and words as the golden files do
(figure_helpers.split_scene) and compares the German words with the English ones: a
text that reads the same in both may hold only the sentence's own tokens, numbers and
formula names ("the₀ → cat₁", "q = xWq")."""
from __future__ import annotations

import copy
import re

import pytest

from explorables.engine import locale
from explorables.engine.figures import FIGURES
from explorables.engine.figures.sentences import SENTENCES
from author_site import write_site
from figure_helpers import split_scene

# the figures whose words are all in the catalogue
DONE = ("attention-row", "attention-heatmap", "attention-lab", "attention-heads", "positional-encoding")
SYMBOLS = {"softmax", "xWq", "xWk", "xWv", "Wq", "Wk", "Wv", "PE", "sin", "cos", "rad"}  # names in formulas
GERMAN_TOO = {"Position", "Dimension"}  # words German writes as English does
MENU_VALUES = ("value", "selected")  # what a control sends back (a menu's values, the picked mark): no wording


@pytest.fixture(autouse=True)
def english_after():
    yield
    locale.use("en")


def sentence_words(scene: dict) -> set[str]:
    """The tokens a reader may see untranslated: the scene's own, and every built-in
    sentence's (a menu lists them)."""
    words = " ".join([*map(str, scene.get("values", {}).get("tokens", [])), *(s.text for s in SENTENCES)])
    return set(re.split(r"[^A-Za-z]+", words))  # "[PAD]" is the token PAD


def wording(scene: dict) -> list[str]:
    """The words of a scene (figure_helpers.split_scene) without what controls send back
    and the declared values (numbers and ids for the prose, as the page's state has them)."""
    def strip(node):
        if isinstance(node, dict):
            return {k: strip(v) for k, v in node.items() if k not in MENU_VALUES and k != "values"}
        if isinstance(node, list):
            return [strip(v) for v in node]
        return node
    return split_scene(strip(scene))[1]


def english_left(text: str, tokens: set[str]) -> bool:
    """Whether ``text`` still has a word that is neither a token nor a formula's name:
    "the₀ → cat₁" and "q = xWq, k = xWk" have none, "masked: weight 0" has two."""
    return any(len(part) > 1 and part not in tokens and part not in SYMBOLS and part not in GERMAN_TOO
               for part in re.split(r"[^A-Za-z]+", text))


def words_of(fig, options: dict, experiment: str | None = None) -> tuple[list[str], dict]:
    state = fig.initial_state(fig.parse_options(options))
    if experiment is not None:
        state = fig.apply(copy.deepcopy(state), {"type": "action", "name": experiment})
    scene = fig.scene(state)
    return wording(scene), scene


def leftovers(name: str, experiment: str | None = None, language: str = "de") -> list[str]:
    """The German (or other) words of the figure's first scene (or after an experiment)
    that are still the English ones and still have an English word in them."""
    fig = FIGURES[name]
    locale.use("en")
    english, scene = words_of(fig, {}, experiment)
    locale.use(language)
    german, _ = words_of(fig, {}, experiment)
    locale.use("en")
    tokens = sentence_words(scene)
    return [w for w in german if w in english and english_left(w, tokens)]


@pytest.mark.parametrize("name", DONE)
def test_the_first_scene_in_german_has_no_english_words_left(name):
    assert leftovers(name) == []


@pytest.mark.parametrize("name, experiment", [(name, e.name) for name in DONE for e in FIGURES[name].experiments])
def test_every_experiment_speaks_german(name, experiment):
    assert leftovers(name, experiment) == []
    locale.use("de")
    message = FIGURES[name].scene(FIGURES[name].apply(
        FIGURES[name].initial_state(FIGURES[name].parse_options({})), {"type": "action", "name": experiment}))
    locale.use("en")
    (buttons,) = [c for c in message["controls"] if c["kind"] == "buttons"]
    assert buttons["reveal"] == "Was Sie sehen sollten" and buttons["message"]


@pytest.mark.parametrize("name, experiment", [(name, None) for name in DONE] +
                         [(name, e.name) for name in DONE for e in FIGURES[name].experiments])
def test_every_scene_speaks_hebrew(name, experiment):
    """The Hebrew catalogue covers every figure's words too: no English sentence is left
    in a first scene or after an experiment, and the experiment's message is Hebrew."""
    assert leftovers(name, experiment, "he") == []
    if experiment is not None:
        locale.use("he")
        fig = FIGURES[name]
        scene = fig.scene(fig.apply(fig.initial_state(fig.parse_options({})), {"type": "action", "name": experiment}))
        locale.use("en")
        (buttons,) = [c for c in scene["controls"] if c["kind"] == "buttons"]
        assert buttons["reveal"] == "מה אמורים לראות" and re.search("[\u05d0-\u05ea]", buttons["message"])


@pytest.mark.parametrize("name", DONE)
def test_the_words_follow_the_language_back_and_forth(name):
    fig = FIGURES[name]
    state = fig.initial_state(fig.parse_options({}))
    english, summary = split_scene(fig.scene(state))[1], fig.manifest()["summary"]
    locale.use("de")
    german = split_scene(fig.scene(state))[1]
    assert german != english and fig.manifest()["summary"] != summary  # looked up now, not at import
    locale.use("en")
    assert split_scene(fig.scene(state))[1] == english  # nothing was frozen in German


def test_a_german_reader_error_names_the_setting_in_german():
    fig = FIGURES["attention-row"]
    state = fig.initial_state(fig.parse_options({}))
    locale.use("de")
    with pytest.raises(Exception) as info:
        fig.apply(state, {"type": "set", "name": "temperature", "value": "9"})
    assert "Die Temperatur muss zwischen 0,05 und 5 liegen" in str(getattr(info.value, "message", info.value))


def test_what_a_screen_reader_hears_of_a_live_value_is_german(tmp_path):
    """A figure's announce template reaches the prose of a German build ("new vector {}"
    becomes "neuer Vektor {}") and the manifest follows the language."""
    from explorables.site_builder.commands.build import build_site

    site = write_site(tmp_path / "site", site_yml="title: Test\nlanguage: de\n", lessons={"01-a.md": (
        "---\ntitle: A\n---\n\nDer neue Vektor ist {value}`explorer.output`.\n\n"
        ":::{attention-row} explorer\n:::\n")})
    build_site(site / "content", tmp_path / "out")
    html = (tmp_path / "out" / "a.html").read_text(encoding="utf-8")
    assert 'data-say="neuer Vektor {}"' in html
    announced = {v["name"]: v["announce"] for v in FIGURES["attention-row"].manifest()["values"] if v["announce"]}
    assert announced == {"output": "new vector {}"}
    locale.use("de")
    assert FIGURES["attention-row"].manifest()["values"][4]["announce"] == "neuer Vektor {}"
