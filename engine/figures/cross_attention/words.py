"""The figure's wording: keys of the catalogue (engine/locales/), ``figure.cross_attention.*``,
looked up when they are shown or filled in; option docs and value docs stay English."""

from __future__ import annotations

from explorables.figures import Words

say = Words("figure.cross_attention")  # the figure's catalogue keys, figure.cross_attention.*

SUMMARY, TITLE, STATUS = say.all("summary title status")

LABEL_I, WHAT_I = say.all("i what_i")
T, WHAT_T, T_HELP = say.all("t what_t t_help")
RESIDUAL, RESIDUAL_HELP = say.all("residual residual_help")

NORM, NORM_HELP = say.all("norm norm_help")
NORM_LINE = say("norm_line")
ARROW_NORM = "RMSNorm"
DOC_NORM = "Whether the plane also draws RMSNorm(x + o W_O), the sum rescaled to length sqrt(2)."
V_NORMED = "RMSNorm of the block's new vector: divided by the root of its entries' mean square."

DOC_I = "The target word whose row is selected first (0 to 3)."
DOC_T = "The temperature T that divides the scores (0.1 to 3)."
DOC_RESIDUAL = "Whether the block adds o W_O back to x (on) or replaces x with it (off)."

V_I = "The selected target word i."
V_WORD = "The selected target word."
V_SOURCE = "The source word it weighs most."
V_TOP = "The largest weight of row i."
V_TOP_SAY = say("announce_top")
V_WEIGHTS, V_ROW = "The table of weights, one row a target word.", "Row i of the weights."
V_OUTPUT, V_MOVED = "The output o_i of row i.", "o_i W_O, what the layer adds."
V_X, V_NEW = "The target word's vector x_i.", "x_i + o_i W_O (residual on) or o_i W_O (off)."
V_ENTROPY, V_T = "The entropy of row i, in nats.", "The temperature T."
V_RESIDUAL = "Whether the residual is on."

TABLE_TITLE, TABLE_CAPTION, CELL_TIP, CELL_DETAIL = say.all("table_title table_caption cell_tip cell_detail")
PICK_ROW = say("pick_row")
KEY_LITTLE, KEY_MUCH = say.all("figure.key.little_weight figure.key.much_weight")

PLANE_TITLE, PLANE_CAPTION, PLANE_CAPTION_OFF = say.all("plane_title plane_caption plane_caption_off")
ARROW_X, ARROW_MOVED, ARROW_SUM = "x", "o W_O", "x + o W_O"
SOURCE_NAME = say("source_name")

READOUT_TITLE = say("readout_title")
SUM_ON, SUM_OFF = "x + o W_O = {x} + {moved} = {new}", "o W_O = {moved}"
WHY_ON, WHY_OFF = say.all("why_on why_off")

X_FOLLOW = (*say.button("x_follow"), say("x_follow_see"))
X_OFF = (*say.button("x_off"), say("x_off_see"))
X_SHARP = (*say.button("x_sharp"), say("x_sharp_see"))
