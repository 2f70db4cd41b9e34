"""What every figure model shares: numbers written for people, a reader's input checked,
and the "Try this" experiments.

Numbers look the same in every figure: ``num`` writes a fixed number of decimals with a
typographic minus (U+2212) and never "−0.00", ``vec`` a vector of them, ``pct`` a weight
as a percentage. A text field gets ``field_text`` instead: the shortest text that reads
back as exactly the same float, with the ASCII minus a reader types.

An experiment is a button that starts from the settings its figure chooses (usually the
first ones), sets the figure, and writes a message with the engine's numbers for the
state it made. ``start_experiment`` runs one; ``experiment_buttons`` is the control that
lists them, leaving out those that make no sense for the figure's settings. Any other
event (a slider, a drag, a click, a matrix preset) calls ``clear_experiment``, so that a
message never describes a figure the reader has since changed.
"""
from __future__ import annotations

import copy
import difflib
import math
import re
from dataclasses import dataclass
from typing import Any, Callable

from .base import FieldError, parse_number

MINUS = "\u2212"  # the typographic minus every figure writes negative numbers with
EDGE = 0.1  # a plane keeps every point at least this far inside its edge
HINT = "Pick an experiment: it sets the figure and says what to look for."
REVEAL = "What you should see"  # the summary an experiment's result stays folded under

# --- numbers and words for people ----------------------------------------------------


def num(x: float, digits: int = 2) -> str:
    """A number for display with a typographic minus and no '−0.00': num(-0.5) == '−0.50'."""
    text = f"{x:.{digits}f}"
    if float(text) == 0.0:
        text = f"{0.0:.{digits}f}"
    return text.replace("-", MINUS)


def vec(p, digits: int = 2) -> str:
    """A vector for display: (0.50, −1.00)."""
    return "(" + ", ".join(num(x, digits) for x in p) + ")"


def pct(w: float) -> str:
    """A weight as a percentage: one decimal below 10%, whole numbers above."""
    if w == 0.0:
        return "0%"
    if w < 0.1:
        return f"{100 * w:.1f}%"
    return f"{100 * w:.0f}%"


def quote(word: str) -> str:
    """A token quoted for prose, so that "." or "the" reads as a word of the sentence."""
    return f"“{word}”"


def field_text(x: float) -> str:
    """A number for a text field: the shortest text that reads back as exactly x."""
    text = repr(float(x))
    if text.endswith(".0"):
        text = text[:-2]
    return "0" if text == "-0" else text


def shown(value: Any) -> str:
    """A reader's input as they gave it, for an error message: 3.0 from a slider as 3."""
    if isinstance(value, float) and value == int(value):
        return str(int(value))
    return str(value).strip()


def words(value) -> list[str]:
    """Tokens from an option: text split at spaces, or a list of words."""
    return value.split() if isinstance(value, str) else [str(w) for w in value]


# --- a reader's input ------------------------------------------------------------------


def parse_bool(value: Any, name: str) -> bool:
    """A toggle's value: a bool, or text such as "true", "off", "1"; FieldError otherwise."""
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("true", "on", "yes", "1"):
        return True
    if text in ("false", "off", "no", "0"):
        return False
    raise FieldError(name, f"{name} must be true or false, got {value!r}")


def whole(value: Any, name: str, lo: int, hi: int, what: str | None = None) -> int:
    """A whole number from lo to hi from a slider value or typed text; FieldError naming
    the control ``name`` otherwise (``what`` is how the message calls the number)."""
    what = what or name
    try:
        x = parse_number(value, what)
    except FieldError as err:
        raise FieldError(name, err.message) from None
    if x != int(x) or not lo <= x <= hi:
        raise FieldError(name, f"{what} must be a whole number from {lo} to {hi}, got {shown(value)}")
    return int(x)


def ranged(value: Any, name: str, lo: float, hi: float, what: str | None = None) -> float:
    """A number from lo to hi from a slider value or typed text; FieldError otherwise."""
    what = what or name
    try:
        x = parse_number(value, what)
    except FieldError as err:
        raise FieldError(name, err.message) from None
    if not lo <= x <= hi:
        raise FieldError(name, f"{what} must be from {lo:g} to {hi:g}, got {field_text(x)}")
    return x


_WHOLE = re.compile(r"[-\u2212]?\d+")


def resolve_query(query: Any, tokens: list[str]) -> int:
    """The position of the asking token: a 0-based position or a word of the sentence.

    A word that occurs more than once means its first occurrence; an exact match wins
    over one that differs only in capitals. Raises ValueError naming what was given.
    """
    text = str(query).strip()
    n = len(tokens)
    expected = f"a word of the sentence ({', '.join(tokens)}) or a position from 0 to {n - 1}"
    if isinstance(query, bool):
        raise ValueError(f"expected {expected}, got {query!r}")
    if isinstance(query, int) or _WHOLE.fullmatch(text):
        i = int(text.replace(MINUS, "-"))
        if not 0 <= i < n:
            raise ValueError(f"expected {expected}, got {text!r}")
        return i
    if text in tokens:
        return tokens.index(text)
    lower = [t.lower() for t in tokens]
    if text.lower() in lower:
        return lower.index(text.lower())
    close = difflib.get_close_matches(text.lower(), lower, n=1)
    hint = f" (did you mean {tokens[lower.index(close[0])]!r}?)" if close else ""
    raise ValueError(f"expected {expected}, got {text!r}{hint}")


def query_field(value: Any, tokens: list[str], name: str = "query") -> int:
    """``resolve_query`` for the control ``name``: FieldError saying what is wrong."""
    try:
        return resolve_query(value, tokens)
    except ValueError as err:
        raise FieldError(name, f"query: {err}") from None


# --- small maths of layout (the attention maths is the engine's) ------------------------


def best(weights) -> int:
    """The position of the largest weight (the first, on a tie)."""
    return max(range(len(weights)), key=lambda j: weights[j])


def extent(points, base: float) -> float:
    """Half-width of a square plane that holds every point at least EDGE inside its edge:
    ``base``, or the next multiple of 0.5 above. A point dragged to the edge (which stops
    EDGE inside) never makes the plane grow."""
    m = max((abs(c) for p in points for c in p), default=0.0)
    return max(base, math.ceil((m + EDGE) * 2) / 2)


# --- experiments ("Try this") -----------------------------------------------------------


def always(state: dict) -> bool:
    return True


@dataclass(frozen=True)
class Experiment:
    """One "Try this" button."""

    name: str  # sent back as {"type": "action", "name": name}
    label: str  # the button's text
    title: str  # the button's tooltip
    setup: Callable[[dict], None]  # sets the figure, changing the state in place
    message: Callable[[dict], str]  # what to look for, with the engine's numbers
    applies: Callable[[dict], bool] = always  # given the state it starts from: does it make sense?
    needs: str = ""  # what it needs where it does not apply, for the error message


def start_experiment(state: dict, experiments, name: str, start: Callable[[dict], dict]) -> dict | None:
    """The state after the experiment ``name``: ``start(state)`` (the settings it starts
    from), its setup, its name and its message. None when no experiment has that name;
    ValueError when it makes no sense for these settings (its button is not shown)."""
    for experiment in experiments:
        if experiment.name == name:
            state = start(state)
            if not experiment.applies(state):
                raise ValueError(f"the experiment {name!r} needs {experiment.needs}")
            experiment.setup(state)
            state["experiment"] = name
            state["message"] = experiment.message(state)
            return state
    return None


def clear_experiment(state: dict) -> dict:
    """The state with no experiment running: no button highlighted and the hint back.

    Every figure calls it for each event other than an experiment button (a set, a drag,
    a select, a matrix preset), since an experiment's message describes the state the
    experiment made and would contradict the figure once the reader changes anything.
    Changes the state in place and returns it."""
    state["experiment"] = None
    state["message"] = HINT
    return state


def experiment_action(state: dict, name: str, experiments, reset: Callable[[dict], dict],
                      start: Callable[[dict], dict] | None = None) -> dict | None:
    """The state after the button ``name``: "reset" (``reset(state)`` and the hint) or an
    experiment (started from ``start``, by default ``reset``); None for any other name."""
    if name == "reset":
        state = reset(state)
        state["message"] = HINT
        return state
    return start_experiment(state, experiments, name, start or reset)


def experiment_buttons(state: dict, experiments, start: Callable[[dict], dict]) -> dict:
    """The "Try this" control: a button an experiment that applies, then Reset, and the
    message of the experiment last started. That message is the experiment's result, so
    it stays folded under REVEAL until the reader opens it (they can predict first: the
    button's label and title say what the experiment does); the hint shows unfolded."""
    shown_here = list(experiments)
    if any(e.applies is not always for e in shown_here):
        begin = start(copy.deepcopy(state))  # what every experiment would start from
        shown_here = [e for e in shown_here if e.applies(begin)]
    control = {
        "kind": "buttons",
        "name": "experiments",
        "label": "Try this",
        "items": [
            {"name": e.name, "label": e.label, "title": e.title, "active": state.get("experiment") == e.name}
            for e in shown_here
        ]
        + [{"name": "reset", "label": "Reset", "title": "Back to the first settings"}],
        "message": state.get("message") or HINT,
    }
    if state.get("experiment") and state.get("message"):
        control["reveal"] = REVEAL
    return control
