"""The figure's wording: keys of the catalogue (engine/locales/), ``figure.cross_attention.*``,
looked up when they are shown or filled in; option docs and value docs stay English."""

from __future__ import annotations

from explorables.figures import Say

SUMMARY = Say("figure.cross_attention.summary")
TITLE = Say("figure.cross_attention.title")
STATUS = Say("figure.cross_attention.status")

LABEL_I, WHAT_I = Say("figure.cross_attention.i"), Say("figure.cross_attention.what_i")
T = Say("figure.cross_attention.t")
WHAT_T = Say("figure.cross_attention.what_t")
T_HELP = Say("figure.cross_attention.t_help")
RESIDUAL, RESIDUAL_HELP = Say("figure.cross_attention.residual"), Say("figure.cross_attention.residual_help")

NORM, NORM_HELP = Say("figure.cross_attention.norm"), Say("figure.cross_attention.norm_help")
NORM_LINE = Say("figure.cross_attention.norm_line")
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
V_TOP_SAY = Say("figure.cross_attention.announce_top")
V_WEIGHTS, V_ROW = "The table of weights, one row a target word.", "Row i of the weights."
V_OUTPUT, V_MOVED = "The output o_i of row i.", "o_i W_O, what the layer adds."
V_X, V_NEW = "The target word's vector x_i.", "x_i + o_i W_O (residual on) or o_i W_O (off)."
V_ENTROPY, V_T = "The entropy of row i, in nats.", "The temperature T."
V_RESIDUAL = "Whether the residual is on."

TABLE_TITLE = Say("figure.cross_attention.table_title")
TABLE_CAPTION = Say("figure.cross_attention.table_caption")
CELL_TIP = Say("figure.cross_attention.cell_tip")
CELL_DETAIL = Say("figure.cross_attention.cell_detail")
PICK_ROW = Say("figure.cross_attention.pick_row")
KEY_LITTLE, KEY_MUCH = Say("figure.key.little_weight"), Say("figure.key.much_weight")

PLANE_TITLE = Say("figure.cross_attention.plane_title")
PLANE_CAPTION = Say("figure.cross_attention.plane_caption")
PLANE_CAPTION_OFF = Say("figure.cross_attention.plane_caption_off")
ARROW_X, ARROW_MOVED, ARROW_SUM = "x", "o W_O", "x + o W_O"
SOURCE_NAME = Say("figure.cross_attention.source_name")

READOUT_TITLE = Say("figure.cross_attention.readout_title")
SUM_ON, SUM_OFF = "x + o W_O = {x} + {moved} = {new}", "o W_O = {moved}"
WHY_ON, WHY_OFF = Say("figure.cross_attention.why_on"), Say("figure.cross_attention.why_off")

X_FOLLOW = (
    Say("figure.cross_attention.x_follow"),
    Say("figure.cross_attention.x_follow_title"),
    Say("figure.cross_attention.x_follow_see"),
)
X_OFF = (
    Say("figure.cross_attention.x_off"),
    Say("figure.cross_attention.x_off_title"),
    Say("figure.cross_attention.x_off_see"),
)
X_SHARP = (
    Say("figure.cross_attention.x_sharp"),
    Say("figure.cross_attention.x_sharp_title"),
    Say("figure.cross_attention.x_sharp_see"),
)
