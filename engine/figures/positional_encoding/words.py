"""The figure's wording: titles, captions, help and the templates of its messages.

Structure (which marks, which numbers) lives in scene.py and experiments.py; they fill
these templates with numbers already written for people (``num``, ``sig``, ``field_text``).
"""
from __future__ import annotations

from explorables.figures import num

from .maths import BASE_MAX, BASE_MIN, DIM_MAX, DIM_MIN, POSITIONS_MAX, POSITIONS_MIN


def sig(x: float) -> str:
    """A small positive number with three significant digits: 1, 0.316, 0.000316."""
    return f"{x:,.0f}" if x >= 100 else f"{x:.3g}"


def signed(offset: int) -> str:
    """An offset s − t with its sign when negative: 8, 0, −1."""
    return num(offset, 0)


SUMMARY = ("Sinusoidal positional encodings as clocks: move the position or press Play, "
           "change the base and the dimension, and read how alike two positions are.")
TITLE = "Positional encoding: a clock for every pair of dimensions"
STATUS = "Position {t}, D = {D}, base {b}: PE({t}) and PE({s}) have similarity {sim}"

# --- options, controls and the reader's mistakes -------------------------------------------

DOC_POSITION = "The position t shown first (0 to the value of :positions:)."
DOC_DIM = f"The dimension D of the code: an even number from {DIM_MIN} to {DIM_MAX}; it gives D/2 clocks."
DOC_BASE = "The base b in theta_i = b^(-2i/D). The original transformer uses 10000."
DOC_OFFSET = "The offset k whose similarity PE(t)·PE(t+k)/(D/2) is read out (0 to :positions:)."
DOC_POSITIONS = (f"The last position on the chart and the slider ({POSITIONS_MIN} to {POSITIONS_MAX}); "
                 "Play wraps back to 0 after it.")
PAST_LAST = "expected an integer from 0 to {last} (the value of :positions:), got {got}"
ODD_OPTION = "expected an even integer from {lo} to {hi}, got {got}"
ODD_FIELD = "{what} must be even, got {got}"
OUT_OF_RANGE = "{what} must be from {lo:g} to {hi:g}, got {got}"

PLAY = "Play the positions"
PLAY_HELP = "Steps t by 1, back to 0 after {last}. With reduced motion, each press steps once."
T = "Position t"
OFFSET = "Offset k"
OFFSET_HELP = "The read-out compares PE(t) with PE(t + k)."
DIM = "Dimension D"
BASE = "Base b"
TYPED_BASE = "Or type any base"
TYPED_BASE_HELP = f"A number from {BASE_MIN:g} to {BASE_MAX:g}; Enter to apply."

# --- values -------------------------------------------------------------------------------------

V_T = "The position t."
V_D = "The dimension D of the code."
V_BASE = "The base b."
V_OFFSET = "The offset k."
V_AT_OFFSET = "PE(t)·PE(t+k)/(D/2): how alike two positions k apart are."
V_AT_OFFSET_SAY = "similarity at offset k: {}"
V_PE = "The code PE(t), D numbers."
V_SIMILARITY = "(s, PE(t)·PE(s)/(D/2)) for every position s on the chart."
V_PLAYING = "Whether Play is running."

# --- the panels ---------------------------------------------------------------------------------

CLOCKS_TITLE = "Clock hands at position t = {t}"
CLOCKS_CAPTION = ("Dimensions 2i and 2i+1 are the hand (sin θᵢt, cos θᵢt) of clock i, which turns "
                  "θᵢ = b^(−2i/D) radians a step. The dashed hands show position {s}: every "
                  "clock has turned by θᵢ·({k}), whatever t is.")
HAND_AT_T = "hand at t = {t}"
HAND_AT_S = "hand at s = {s}"
CLOCK_NAME = ("clock i={i} (dimensions {even} and {odd}): turns {step}° a step, once round every "
              "{period} positions; at t = {t} its hand is at {angle}°")

CHART_TITLE = "How alike PE({t}) is to every PE(s)"
CHART_CAPTION = ("The curve is PE(t)·PE(s)/(D/2) for every position s on the axis: 1 at s = t, "
                 "lower further away. Move t and it slides along without changing shape. Drag "
                 "the diamond, or focus the chart and use the arrow keys, to choose the offset k.")
X_LABEL, Y_LABEL = "position s", "similarity"
T_MARK = " t = {t} "
PROBE = "k = {k}: {sim}"
PROBE_NAME = ("probe at position {s}, offset {k} from t: similarity {sim}; "
              "drag it or use the arrow keys to change k")

VECTOR_TITLE = "The vector PE({t}), one row a clock"
VECTOR_CAPTION = ("Left: the even entries 2i (sine); right: the odd entries 2i+1 (cosine). Hover or "
                  "focus a cell for its formula.")
VECTOR_COLUMNS = ("2i: sin", "2i+1: cos")
CELL_TITLE = "PE({t}) entry {e}: {x}"
CELL_DETAIL = ("PE({t})_{e} = {fn}(θ_{i}·t) = {fn}({theta} × {t})", "= {fn}({angle} rad) = {x}")

READOUT_TITLE = "Read-out"
READOUT = ("PE({t}) and PE({s}) have similarity {sim}. Any two positions {k} apart give the same "
           "number: it depends on the offset only.",
           "The fastest clock (i=0) goes round every {fast} positions; the slowest (i={last}) every {slow}.")
READOUT_ITEMS = ("Position t", "Offset k", "Dimension D", "Base b", "PE({t})·PE({s}) / {half}")
CLOCKS_OF = "{D} ({half} clocks)"

SUM_FOLD = "Show the sum for offset k = {k}"
SUM_HEAD = "PE(t)·PE(t+{k}) / (D/2) = (2/D) Σᵢ cos(θᵢ·{k})"
SUM_TERM = "i={i:<2}  θ = {theta:>9}   cos({angle}) = {term}"
SUM_TAIL = "sum = {total};  ÷ {half} = {sim}"

# --- experiments --------------------------------------------------------------------------------

X_BASE = ("Base {b}, D = 32, k = 8", "The original transformer's base", "A small base: faster clocks")
X_FAST_SLOW = ("Fast and slow clocks", "How much each clock turns per step")
X_SHIFT = ("Move t to {t}", "The similarity depends only on the offset", "positions of {t} or more")
X_FEW = ("Only {n} clocks", "A short code repeats itself")

COMPARE = ("With D = {D} and base {b}, positions {k} apart have similarity {here} "
           "(base {other} gives {there}). ")
COMPARE_SMALL = ("A small base makes even the slowest clock turn {step}° a step, so neighbours drift "
                 "apart sooner and the curve falls faster: positions are told apart well inside a "
                 "short window. Press Play and watch the last clocks move.")
COMPARE_LARGE = ("With a large base the slowest clock turns only {step}° a step, so the slow clocks "
                 "still tell positions apart after thousands of steps, and the curve falls gently. "
                 "Now try base {other}.")
FAST_SLOW = ("Clock i=0 turns {r0} radian ({d0}°) a step and goes round every {p0} positions; "
             "clock i={last} turns {r1} radian ({d1}°) and needs {p1} positions for one turn. "
             "Press Play: the first hands spin, the last ones look frozen. Each clock is {ratio} "
             "times slower than the one before. (This sets t = 1 and k = 1: the dashed hands are "
             "one step on.)")
SHIFT = ("The peak moved from s = 0 to s = {t}, but the curve kept its shape: "
         "PE(0)·PE({k})/{half} = {at_0} and PE({t})·PE({tk})/{half} = {at_t}. Stepping by {k} "
         "turns every hand by the same angle θᵢ·{k} from any start, so only the offset matters. "
         "Drag the t slider and watch the diamond's number.")
FEW = ("With only {n} clocks (D = {D}, base {b}) the curve swings: position {low} has similarity "
       "{at_low} to position 0, almost the opposite, while position {high} comes back up to "
       "{at_high}. Few clocks make far positions look alike; more dimensions flatten the tail.")
