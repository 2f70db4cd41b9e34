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

Labels on a square plane are placed once for every figure: ``place_labels`` gives each
point's label the anchor where it covers least (another label, a point, a line, an axis
name, the canvas edge), ``tip_label_candidates`` and ``point_label_candidates`` offer
spots for free label marks (an arrow's name, a crowded output's name).
"""
from __future__ import annotations

import copy
import difflib
import math
import re
from dataclasses import dataclass
from typing import Any, Callable

from .base import FieldError, Figure, parse_number

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


MATRIX_NAMES = {"W_Q": "Wq", "W_K": "Wk", "W_V": "Wv", "W_O": "Wo"}  # W_Q as figure text writes it


def matrix_name(key: str) -> str:
    """A projection matrix as figure text writes it, with no pseudo-TeX: W_Q -> Wq (Unicode
    has no subscript capitals, nor a subscript q), the same in every figure."""
    return MATRIX_NAMES.get(key, key)


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

    An experiment's message describes the state the experiment made and would contradict
    the figure once the reader changes anything: ExperimentFigure calls this after every
    set, drag and select; a figure calls it itself for actions that are not experiments
    (a matrix preset, a Play tick). Changes the state in place and returns it."""
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


# --- where the labels go (on a square plane) ----------------------------------------------------------------
#
# The renderer puts a point's label where its "anchor" says (SCENE.md): right or left of
# the point, a little above its centre, or centred above or below it. The figure picks
# the anchors, for every state, so that no label leaves the canvas and, as far as the room
# allows, none covers another label, a point, the query's arrow or its name (in every
# state one click away, none does; the tests check it). Everything is measured in CSS
# pixels as the renderer draws it (13px labels, 18px of padding round the data domain)
# on a plane LAYOUT_PX wide: a phone held upright. A wider plane spreads the points
# further apart while labels keep their size, so what fits there fits everywhere wider.

LAYOUT_PX = 300.0  # the plane width the labels are planned for
SAME_PX = 4.0  # points closer than this (px) on that plane share one label
SHARED_LABEL_PX = 120.0  # a shared label longer than this names how many points instead
PAD_PX = 18.0  # the renderer's padding between the canvas edge and the data domain
LABEL_PX = 15.0  # the height of a 13px label
ANCHORS = ("right", "left", "above", "below")  # in order of preference
# widths (px) of characters in a bold 13px label, by class, each the widest of its class;
# bold is what a hovered label becomes, and the font measured (DejaVu Sans, Chromium's
# system-ui on Linux) is wider than most system fonts
_CHAR_PX = (
    (5.2, " '.,:;|/\\ijlIJ‘’·"),
    (6.5, "-ftr!()[]_`–"),
    (8.7, "\"*?zcsLxvyk“”"),
    (11.1, "DHNOQUGBRXAVK#+<=>^~"),
    (14.5, "mwMW@%&—"),
)
_WIDE_PX, _OTHER_PX = 13.0, 9.6  # CJK characters; everything else
MARK_TEXT_SCALE = 0.85  # a label mark (the query's name) is 12px and never bold
AXIS_TEXT_SCALE = 0.85  # an axis name is 11px and never bold (0.85 > 11/13: generous)


def label_px(text: str) -> float:
    """A generous width of a bold 13px label, in pixels."""
    total = 0.0
    for c in text:
        for width, chars in _CHAR_PX:
            if c in chars:
                total += width
                break
        else:
            total += _WIDE_PX if ord(c) >= 0x2E80 else _OTHER_PX  # CJK and beyond: wide
    return total


def label_box(anchor: str, x: float, y: float, r: float, w: float) -> tuple:
    """The box (x0, y0, x1, y1; y down) a label of width w takes, as the renderer draws it."""
    if anchor == "right":
        return (x + r + 4, y - 3 - LABEL_PX, x + r + 4 + w, y - 3)
    if anchor == "left":
        return (x - r - 4 - w, y - 3 - LABEL_PX, x - r - 4, y - 3)
    if anchor == "above":
        return (x - w / 2, y - r - 4 - LABEL_PX, x + w / 2, y - r - 4)
    return (x - w / 2, y + r + 4, x + w / 2, y + r + 4 + LABEL_PX)


def box_overlap(a: tuple, b: tuple) -> float:
    """The area two boxes share."""
    w = (a[2] if a[2] < b[2] else b[2]) - (a[0] if a[0] > b[0] else b[0])
    if w <= 0:
        return 0.0
    h = (a[3] if a[3] < b[3] else b[3]) - (a[1] if a[1] > b[1] else b[1])
    return w * h if h > 0 else 0.0


def clipped_length(box: tuple, p: tuple, q: tuple) -> float:
    """How much of the segment p-q lies inside the box (Liang-Barsky clipping)."""
    dx, dy = q[0] - p[0], q[1] - p[1]
    lo, hi = 0.0, 1.0
    sides = ((-dx, p[0] - box[0]), (dx, box[2] - p[0]), (-dy, p[1] - box[1]), (dy, box[3] - p[1]))
    for step, room in sides:
        if step == 0:
            if room < 0:
                return 0.0
            continue
        t = room / step
        if step < 0:
            lo = max(lo, t)
        else:
            hi = min(hi, t)
        if lo > hi:
            return 0.0
    return (hi - lo) * math.hypot(dx, dy)


class LabelLayout:
    """A square plane of half-width ``extent`` drawn LAYOUT_PX wide, in canvas pixels."""

    def __init__(self, extent: float, width: float = LAYOUT_PX):
        self.width = width
        self.extent = extent
        self.k = (width - 2 * PAD_PX) / (2 * extent)

    def px(self, x: float, y: float) -> tuple[float, float]:
        return PAD_PX + (x + self.extent) * self.k, PAD_PX + (self.extent - y) * self.k

    def ix(self, px: float) -> float:
        return (px - PAD_PX) / self.k - self.extent

    def iy(self, py: float) -> float:
        return self.extent - (py - PAD_PX) / self.k

    def axis_names(self, names: tuple[str, str] | None = None) -> list[tuple]:
        """The boxes of the axis names the renderer draws at the plane's edges (11px):
        ``names`` as wide as their text, or two short names such as x1 and x2."""
        x0, y0 = self.px(0.0, 0.0)
        right, top = self.width - PAD_PX, PAD_PX
        if names is None:
            return [(right - 20, y0 - 15, right, y0 - 2), (x0 + 2, top, x0 + 22, top + 13)]
        wx, wy = (label_px(name) * AXIS_TEXT_SCALE + 4 for name in names)
        return [(right - 2 - wx, y0 - 16, right, y0 - 2), (x0 + 2, top - 2, x0 + 4 + wy, top + 13)]


def radius_px(m: dict) -> float:
    """A point's radius as the renderer draws it hovered (1.3 times), in pixels."""
    return m.get("size", 7 if m.get("draggable") else 5) * 1.3


def reach_px(m: dict, selected: str | None) -> float:
    """How far round a point other labels keep off: its shape, or the selection ring."""
    if m["id"] == selected:
        return m.get("size", 7 if m.get("draggable") else 5) + 7  # a 2px ring, 5px out
    return radius_px(m) * (1.4 if m.get("shape") == "diamond" else 1.0) + 1


def share_labels(points: list[dict], layout: LabelLayout, noun: str) -> None:
    """Points drawn on top of one another (closer than SAME_PX) share one label, on the
    first of them: the words, or "every key" / "4 keys" when the words would not fit."""
    groups: list[list[dict]] = []
    for m in points:
        x, y = layout.px(m["x"], m["y"])
        for group in groups:
            gx, gy = layout.px(group[0]["x"], group[0]["y"])
            if math.hypot(x - gx, y - gy) < SAME_PX:
                group.append(m)
                break
        else:
            groups.append([m])
    for group in groups:
        if len(group) == 1:
            continue
        text = ", ".join(m["label"] for m in group)
        if label_px(text) > SHARED_LABEL_PX:
            text = f"every {noun}" if len(group) == len(points) else f"{len(group)} {noun}s"
        group[0]["label"] = text
        for m in group[1:]:
            del m["label"]


def place_labels(layout: LabelLayout, marks: list[dict], selected: str | None = None,
                 boxes=(), segments=(), free=(), apart: float = 10.0) -> list:
    """Give every labelled point mark an "anchor"; choose where each free label goes.

    ``marks``: the plane's point marks (all of them are obstacles, the labelled ones get
    an anchor); ``boxes``: (box in px, weight) that no label should cover; ``segments``:
    (p, q, width in px, weight) lines in data coordinates; ``free``: labels that belong
    to no point, each a list of (choice, box in px) in order of preference. Returns the
    choice made for each free label. ``apart``: the cost of a px² of one label on another
    (a point under a label costs 20).

    Each label starts where it is best on its own, then takes in turn the place that is
    best given the others, until none moves: a handful of rounds, cheap enough to run on
    every drag.
    """
    at = [layout.px(m["x"], m["y"]) for m in marks]
    reach = [reach_px(m, selected) for m in marks]
    lines = [(layout.px(*p), layout.px(*q), w, weight) for p, q, w, weight in segments]
    inside = (2.0, 2.0, layout.width - 2, layout.width - 2)
    # every movable label: (index of its own point or None, [(choice, box), ...])
    labels: list[tuple[int | None, list[tuple[Any, tuple]]]] = []
    for i, m in enumerate(marks):
        if m.get("label"):
            w = label_px(m["label"])
            r = radius_px(m)
            labels.append((i, [(a, label_box(a, at[i][0], at[i][1], r, w)) for a in ANCHORS]))
    labels += [(None, list(candidates)) for candidates in free]

    def fixed_cost(own: int | None, n: int, box: tuple) -> float:
        area = (box[2] - box[0]) * (box[3] - box[1])
        cost = 1000.0 * (area - box_overlap(box, inside)) + 5.0 * n
        for j, (x, y) in enumerate(at):
            if j != own:
                r = reach[j]
                cost += 20.0 * box_overlap(box, (x - r, y - r, x + r, y + r))
        for other, weight in boxes:
            cost += weight * box_overlap(box, other)
        for p, q, width, weight in lines:
            cost += weight * width * clipped_length(box, p, q)
        return cost

    alone = [[fixed_cost(own, n, box) for n, (_, box) in enumerate(c)] for own, c in labels]
    chosen = [min(range(len(costs)), key=costs.__getitem__) for costs in alone]

    def cost(k: int, n: int) -> float:
        box = labels[k][1][n][1]
        return alone[k][n] + sum(
            apart * box_overlap(box, labels[j][1][chosen[j]][1]) for j in range(len(labels)) if j != k
        )

    for _ in range(6):
        changed = False
        for k in range(len(labels)):
            costs = [cost(k, n) for n in range(len(labels[k][1]))]
            pick = min(range(len(costs)), key=costs.__getitem__)
            if costs[pick] < costs[chosen[k]]:
                chosen[k], changed = pick, True
        if not changed:
            break
    for (own, candidates), n in zip(labels, chosen):
        if own is not None:
            marks[own]["anchor"] = candidates[n][0]
    return [candidates[n][0] for (own, candidates), n in zip(labels, chosen) if own is None]


def tip_label_candidates(layout: LabelLayout, tip, text: str) -> list[tuple[tuple, tuple]]:
    """Where an arrow's name may go round its tip: ((x, y, align), box) in order of
    preference, beyond the tip first. A label mark is drawn 12px high, centred on y."""
    bx, by = layout.px(tip[0], tip[1])
    ox, _ = layout.px(0.0, 0.0)
    w = label_px(text) * MARK_TEXT_SCALE
    h = LABEL_PX / 2
    lo, hi = PAD_PX, layout.width - PAD_PX  # the data domain, across and down
    ahead = "left" if bx >= ox else "right"  # text that starts beyond the tip
    back = "right" if ahead == "left" else "left"
    sign = 1 if ahead == "left" else -1
    # beyond the tip but pushed back inside the plane when it would run off it
    inner = min(hi, bx + 8 + w) if sign > 0 else max(lo, bx - 8 - w)
    spots = [
        (bx + sign * 8, by - 10, ahead),
        (inner, by - 12, back),
        (bx + sign * 8, by + 12, ahead),
        (inner, by + 12, back),
        (bx, by - 20, "center"),
        (bx, by + 20, "center"),
        (bx - sign * 8, by - 12, back),
        (bx - sign * 8, by + 12, back),
    ]
    oy = layout.px(0.0, 0.0)[1]
    length = math.hypot(bx - ox, by - oy)
    if length > 0:
        # beside the middle of the shaft, on either side, just clear of it
        nx, ny = -(by - oy) / length, (bx - ox) / length
        clear = (abs(nx) * w + abs(ny) * 2 * h) / 2 + 5
        mx, my = (ox + bx) / 2, (oy + by) / 2
        spots += [(mx + side * nx * clear, my + side * ny * clear, "center") for side in (-1, 1)]
    out = []
    for x, y, align in spots:
        # the text's anchor stays inside the data domain, so that on a wider plane (where
        # the domain grows and the padding does not) the label stays on the canvas
        x, y = min(hi, max(lo, x)), min(hi, max(lo, y))
        x0 = x if align == "left" else x - w if align == "right" else x - w / 2
        data = (round(layout.ix(x), 4), round(layout.iy(y), 4), align)
        out.append((data, (x0, y - h, x0 + w, y + h)))
    return out


def point_label_candidates(layout: LabelLayout, point, text: str, r: float) -> list[tuple[tuple, tuple]]:
    """Where a label mark naming a point may go (for a crowded spot, where a point's own
    four anchors are not enough): ((x, y, align), box) in order of preference, beside the
    point, then above and below it, then on its diagonals, each at three distances from
    its edge (``r`` px). A label mark is drawn 12px high, centred on y."""
    bx, by = layout.px(point[0], point[1])
    w = label_px(text) * MARK_TEXT_SCALE
    h = LABEL_PX / 2
    lo, hi = PAD_PX, layout.width - PAD_PX
    spots = []
    for d in (r + 4, r + 12, r + 22):
        e = d * 0.7
        spots += [
            (bx + d, by, "left"), (bx - d, by, "right"),
            (bx, by - d - h, "center"), (bx, by + d + h, "center"),
            (bx + e, by - e - h, "left"), (bx - e, by - e - h, "right"),
            (bx + e, by + e + h, "left"), (bx - e, by + e + h, "right"),
        ]
    out = []
    for x, y, align in spots:
        x, y = min(hi, max(lo, x)), min(hi, max(lo, y))  # the anchor stays in the data domain
        x0 = x if align == "left" else x - w if align == "right" else x - w / 2
        data = (round(layout.ix(x), 4), round(layout.iy(y), 4), align)
        out.append((data, (x0, y - h, x0 + w, y + h)))
    return out


class ExperimentFigure(Figure):
    """A figure with "Try this" experiments: any set, drag or select the reader makes
    ends the running experiment (see clear_experiment)."""

    def apply(self, state: dict[str, Any], event: dict[str, Any]) -> dict[str, Any]:
        new_state = super().apply(state, event)
        if event.get("type") in ("set", "drag", "select"):
            clear_experiment(new_state)
        return new_state
