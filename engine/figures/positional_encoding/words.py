"""The figure's wording: titles, captions, help and the templates of its messages.

Structure (which marks, which numbers) lives in scene.py and experiments.py; they fill
these templates with numbers already written for people (``num``, ``sig``, ``field_text``).
What a reader reads is a key of the catalogue (engine/locales/),
``figure.positional_encoding.*``, looked up when it is filled (``STATUS.format(...)``) or
shown; the option docs and the author's option errors stay English.
"""

from __future__ import annotations

from typing import Any

from explorables.figures import Say, Value, Words, field_text, num, number_format

from .maths import DIM_MAX, DIM_MIN, POSITIONS_MAX, POSITIONS_MIN

say = Words("figure.positional_encoding")  # the figure's catalogue keys, figure.positional_encoding.*


def sig(x: float) -> str:
    """A small positive number with three significant digits: 1, 0.316, 0.000316 (in
    German 0,316); from 100 on whole and grouped: 10,000 (in German 10.000)."""
    text = f"{x:,.0f}" if x >= 100 else f"{x:.3g}"
    decimal, group = number_format()[:2]
    marks: dict[str, str | int | None] = {".": decimal, ",": group or ","}
    return text if decimal == "." else text.translate(str.maketrans(marks))


def signed(offset: int) -> str:
    """An offset s − t with its sign when negative: 8, 0, −1."""
    return num(offset, 0)


SUMMARY, TITLE, STATUS = say.all("summary title status")

# --- options, controls and the reader's mistakes -------------------------------------------

DOC_POSITION = "The position t shown first (0 to the value of :positions:)."
DOC_DIM = f"The dimension D of the code: an even number from {DIM_MIN} to {DIM_MAX}; it gives D/2 clocks."
DOC_BASE = "The base b in theta_i = b^(-2i/D). The original transformer uses 10000."
DOC_OFFSET = "The offset k whose similarity PE(t)·PE(t+k)/(D/2) is read out (0 to :positions:)."
DOC_POSITIONS = (
    f"The last position on the chart and the slider ({POSITIONS_MIN} to {POSITIONS_MAX}); "
    "Play wraps back to 0 after it."
)
PAST_LAST = "expected an integer from 0 to {last} (the value of :positions:), got {got}"

PLAY, PLAY_HELP, T, OFFSET, OFFSET_HELP, DIM, BASE = say.all("play play_help t offset offset_help dim base")
WHAT = say.table(t="what_t", dim="what_dim", base="what_base", offset="what_offset")


def base_label(b: float) -> str:
    """A base in the menu: 10,000 (grouped), or as a field shows it where it is not whole."""
    return sig(b) if b == int(b) else field_text(b)


TYPED = {"field": say("typed_base"), "field_help": say("typed_base_help")}  # the field beside the menu: lo, hi

# each control's words, by its name
PARAMS: dict[str, dict[str, Any]] = {
    "playing": {"label": PLAY, "help": lambda s: PLAY_HELP.format(last=s["positions"])},
    "t": {"label": T, "what": WHAT["t"]},
    "dim": {"label": DIM, "what": WHAT["dim"], "doc": DOC_DIM},
    "base": {"label": BASE, "what": WHAT["base"], "doc": DOC_BASE, "show": base_label, **TYPED},
    "offset": {"label": OFFSET, "what": WHAT["offset"], "help": OFFSET_HELP, "doc": DOC_OFFSET},
}

# --- values -------------------------------------------------------------------------------------

VALUES = (
    Value("t", "integer", "The position t."),
    Value("D", "integer", "The dimension D of the code."),
    Value("base", "decimal", "The base b.", digits=0),
    Value("offset", "integer", "The offset k."),
    Value(
        "similarity_at_offset",
        "decimal",
        "PE(t)·PE(t+k)/(D/2): how alike two positions k apart are.",
        announce=say("announce_similarity"),
    ),
    Value("pe", "vector", "The code PE(t), D numbers."),
    Value("similarity", "matrix", "(s, PE(t)·PE(s)/(D/2)) for every position s on the chart."),
    Value("playing", "bool", "Whether Play is running."),
)

# --- the panels ---------------------------------------------------------------------------------

CLOCKS_TITLE, CLOCKS_CAPTION, HAND_AT_T, HAND_AT_S = say.all("clocks_title clocks_caption hand_at_t hand_at_s")
CLOCK_NAME = say("clock_name")

CHART_TITLE, CHART_CAPTION = say.all("chart_title chart_caption")
X_LABEL, Y_LABEL = say.all("x_label y_label")
T_MARK = " t = {t} "
PROBE = "k = {k}: {sim}"
PROBE_NAME = say("probe_name")

VECTOR_TITLE, VECTOR_CAPTION = say.all("vector_title vector_caption")
KEY_NEGATIVE, KEY_POSITIVE = say.all("figure.key.negative figure.key.positive")
VECTOR_COLUMNS = ("2i: sin", "2i+1: cos")
CELL_TITLE = say("cell_title")
CELL_DETAIL = ("PE({t}){e} = {fn}(θ{i}·t) = {fn}({theta} × {t})", "= {fn}({angle} rad) = {x}")  # e, i: subscripts

READOUT_TITLE = say("readout_title")
READOUT = say.all("readout_same readout_clocks")
READOUT_ITEMS: tuple[str | Say, ...] = (
    say("item_t"),
    say("item_offset"),
    say("item_dim"),
    say("item_base"),
    "PE({t})·PE({s}) / {half}",
)
CLOCKS_OF = say("clocks_of")

SUM_FOLD = say("sum_fold")
SUM_HEAD = "PE(t)·PE(t+{k}) / (D/2) = (2/D) Σᵢ cos(θᵢ·{k})"
SUM_TERM = "i={i:<2}  θ = {theta:>9}   cos({angle}) = {term}"
SUM_TAIL = say("sum_tail")

# --- experiments (their buttons are found by name: say.button("x_few") in experiments.py) -------

COMPARE, COMPARE_SMALL, COMPARE_LARGE, FAST_SLOW = say.all("compare compare_small compare_large fast_slow")
SHIFT, FEW = say.all("shift few")
