"""The figure's wording: titles, captions, help and the templates of its messages.

Structure (which marks, which numbers) lives in scene.py and experiments.py; they fill
these templates with numbers already written for people (``num``, ``sig``, ``field_text``).
What a reader reads is a key of the catalogue (engine/locales/),
``figure.positional_encoding.*``, looked up when it is filled (``STATUS.format(...)``) or
shown; the option docs and the author's option errors stay English.
"""

from __future__ import annotations

from explorables.figures import Say, num, number_format

from .maths import DIM_MAX, DIM_MIN, POSITIONS_MAX, POSITIONS_MIN


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


SUMMARY = Say("figure.positional_encoding.summary")
TITLE = Say("figure.positional_encoding.title")
STATUS = Say("figure.positional_encoding.status")

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

PLAY = Say("figure.positional_encoding.play")
PLAY_HELP = Say("figure.positional_encoding.play_help")
T = Say("figure.positional_encoding.t")
OFFSET = Say("figure.positional_encoding.offset")
OFFSET_HELP = Say("figure.positional_encoding.offset_help")
DIM = Say("figure.positional_encoding.dim")
BASE = Say("figure.positional_encoding.base")
WHAT = {
    "t": Say("figure.positional_encoding.what_t"),
    "dim": Say("figure.positional_encoding.what_dim"),
    "base": Say("figure.positional_encoding.what_base"),
    "offset": Say("figure.positional_encoding.what_offset"),
}
TYPED_BASE = Say("figure.positional_encoding.typed_base")
TYPED_BASE_HELP = Say("figure.positional_encoding.typed_base_help")  # lo and hi as typed numbers

# --- values -------------------------------------------------------------------------------------

V_T = "The position t."
V_D = "The dimension D of the code."
V_BASE = "The base b."
V_OFFSET = "The offset k."
V_AT_OFFSET = "PE(t)·PE(t+k)/(D/2): how alike two positions k apart are."
V_AT_OFFSET_SAY = Say("figure.positional_encoding.announce_similarity")
V_PE = "The code PE(t), D numbers."
V_SIMILARITY = "(s, PE(t)·PE(s)/(D/2)) for every position s on the chart."
V_PLAYING = "Whether Play is running."

# --- the panels ---------------------------------------------------------------------------------

CLOCKS_TITLE = Say("figure.positional_encoding.clocks_title")
CLOCKS_CAPTION = Say("figure.positional_encoding.clocks_caption")
HAND_AT_T = Say("figure.positional_encoding.hand_at_t")
HAND_AT_S = Say("figure.positional_encoding.hand_at_s")
CLOCK_NAME = Say("figure.positional_encoding.clock_name")

CHART_TITLE = Say("figure.positional_encoding.chart_title")
CHART_CAPTION = Say("figure.positional_encoding.chart_caption")
X_LABEL, Y_LABEL = Say("figure.positional_encoding.x_label"), Say("figure.positional_encoding.y_label")
T_MARK = " t = {t} "
PROBE = "k = {k}: {sim}"
PROBE_NAME = Say("figure.positional_encoding.probe_name")

VECTOR_TITLE = Say("figure.positional_encoding.vector_title")
VECTOR_CAPTION = Say("figure.positional_encoding.vector_caption")
KEY_NEGATIVE, KEY_POSITIVE = Say("figure.key.negative"), Say("figure.key.positive")
VECTOR_COLUMNS = ("2i: sin", "2i+1: cos")
CELL_TITLE = Say("figure.positional_encoding.cell_title")
CELL_DETAIL = ("PE({t}){e} = {fn}(θ{i}·t) = {fn}({theta} × {t})", "= {fn}({angle} rad) = {x}")  # e, i: subscripts

READOUT_TITLE = Say("figure.positional_encoding.readout_title")
READOUT = (Say("figure.positional_encoding.readout_same"), Say("figure.positional_encoding.readout_clocks"))
READOUT_ITEMS: tuple[str | Say, ...] = (
    Say("figure.positional_encoding.item_t"),
    Say("figure.positional_encoding.item_offset"),
    Say("figure.positional_encoding.item_dim"),
    Say("figure.positional_encoding.item_base"),
    "PE({t})·PE({s}) / {half}",
)
CLOCKS_OF = Say("figure.positional_encoding.clocks_of")

SUM_FOLD = Say("figure.positional_encoding.sum_fold")
SUM_HEAD = "PE(t)·PE(t+{k}) / (D/2) = (2/D) Σᵢ cos(θᵢ·{k})"
SUM_TERM = "i={i:<2}  θ = {theta:>9}   cos({angle}) = {term}"
SUM_TAIL = Say("figure.positional_encoding.sum_tail")

# --- experiments --------------------------------------------------------------------------------

X_BASE = (
    Say("figure.positional_encoding.x_base"),
    Say("figure.positional_encoding.x_base_title"),
    Say("figure.positional_encoding.x_base_small_title"),
)
X_FAST_SLOW = (Say("figure.positional_encoding.x_fast_slow"), Say("figure.positional_encoding.x_fast_slow_title"))
X_SHIFT = (
    Say("figure.positional_encoding.x_shift"),
    Say("figure.positional_encoding.x_shift_title"),
    Say("figure.positional_encoding.x_shift_needs"),
)
X_FEW = (Say("figure.positional_encoding.x_few"), Say("figure.positional_encoding.x_few_title"))

COMPARE = Say("figure.positional_encoding.compare")
COMPARE_SMALL = Say("figure.positional_encoding.compare_small")
COMPARE_LARGE = Say("figure.positional_encoding.compare_large")
FAST_SLOW = Say("figure.positional_encoding.fast_slow")
SHIFT = Say("figure.positional_encoding.shift")
FEW = Say("figure.positional_encoding.few")
