"""The built-in figures speak the site's language: every word of a figure's scene (its
title, captions, legends, readouts, stats, control labels and help, experiment names,
titles and messages) comes from the catalogue, so with German chosen no English
sentence is left, and with English chosen again the words are the English ones.

The check splits a scene into structure and words as the golden files do
(figure_helpers.split_scene) and compares the German words with the English ones: a
word that reads the same in both must be on a short list (the sentence's own tokens,
formula symbols, names)."""
from __future__ import annotations

import copy
import re

import pytest

from explorables.engine import locale
from explorables.engine.figures import FIGURES
from figure_helpers import split_scene

DONE = ("attention-row", "attention-heatmap")  # the figures whose words are all in the catalogue
MARK_ID = re.compile(r"^([a-z]+(-[a-z]+)*-\d+|[a-z]\d+)$")  # "key-0", the picked mark; "v1", a coordinate
SAME_IN_BOTH = {  # words, symbols and names a German reader sees as they are
    "attention-row": {"q·k", "÷ √dₖ", "÷ T", "softmax", "Σ aᵢvᵢ", "d", "x1", "x2", "x", "y"},
    "attention-heatmap": {"H", "d_k", "weights", "scores", "unscaled", "sentence", "random"},  # and a menu's values
}


@pytest.fixture(autouse=True)
def english_after():
    yield
    locale.use("en")


def tokens_of(scene: dict) -> set[str]:
    """The sentence's own words as the scene shows them: labels that are only a token
    (or a token in a formula like "q (chased)" or "chased·cat: 0.41")."""
    values = scene.get("values", {})
    tokens = [str(x) for x in values.get("tokens", [])]
    return set(tokens) | {f"“{x}”" for x in tokens} | {f"„{x}“" for x in tokens}


def words_of(fig, options: dict, experiment: str | None = None) -> tuple[list[str], dict]:
    state = fig.initial_state(fig.parse_options(options))
    if experiment is not None:
        state = fig.apply(copy.deepcopy(state), {"type": "action", "name": experiment})
    scene = fig.scene(state)
    return split_scene(scene)[1], scene


def leftovers(name: str, experiment: str | None = None) -> list[str]:
    """The German words of the figure's first scene (or after an experiment) that are
    still the English ones and are not on the figure's list."""
    fig = FIGURES[name]
    locale.use("en")
    english, scene = words_of(fig, {}, experiment)
    locale.use("de")
    german, _ = words_of(fig, {}, experiment)
    locale.use("en")
    allowed = SAME_IN_BOTH.get(name, set()) | tokens_of(scene)
    return [w for w in german if w in english and w not in allowed and not only_tokens(w, scene)
            and not MARK_ID.match(w)]


def only_tokens(text: str, scene: dict) -> bool:
    """A label made of the sentence's tokens and symbols only ("q (chased)", "chased·cat: 0.41")."""
    tokens = {str(x) for x in scene.get("values", {}).get("tokens", [])} | {"q", "k", "v"}
    for sep in "()·:=,;“”„":
        text = text.replace(sep, " ")
    return all(part in tokens or not any(c.isalpha() for c in part) for part in text.split())


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
