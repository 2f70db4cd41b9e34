"""The figure's wording: keys of the catalogue (engine/locales/), ``figure.rotary_positions.*``,
looked up when they are shown or filled in; option docs and value docs stay English."""

from __future__ import annotations

from explorables.figures import Say

SUMMARY = Say("figure.rotary_positions.summary")
TITLE = Say("figure.rotary_positions.title")
STATUS = Say("figure.rotary_positions.status")
MODES = {"rotate": Say("figure.rotary_positions.mode_rotate"), "add": Say("figure.rotary_positions.mode_add")}

T, WHAT_T = Say("figure.rotary_positions.t"), Say("figure.rotary_positions.what_t")
U, WHAT_U = Say("figure.rotary_positions.u"), Say("figure.rotary_positions.what_u")
TOGETHER = Say("figure.rotary_positions.together")
TOGETHER_HELP = Say("figure.rotary_positions.together_help")
MODE, MODE_HELP = Say("figure.rotary_positions.mode"), Say("figure.rotary_positions.mode_help")

DOC_T = "The query's position t shown first (0 to 15)."
DOC_U = "The key's position u shown first (0 to 15)."
DOC_TOGETHER = "Whether moving one position moves the other by as much (the offset t - u kept)."
DOC_MODE = "rotate (turn each pair by theta_i times the position) or add (add PE(t), as lesson 5)."
DOC_Q = "The query's content q, four numbers (two pairs)."
DOC_K = "The key's content k, four numbers (two pairs)."

V_T, V_U, V_OFFSET = "The query's position t.", "The key's position u.", "The offset t - u."
V_SCORE = "The score q_t . k_u of the placed query and key."
V_SCORE_SAY = Say("figure.rotary_positions.announce_score")
V_CONTENT = "The score q . k of the contents alone (no positions)."
V_QT, V_KU = "The placed query q_t.", "The placed key k_u."
V_PAIRS = "The score pair by pair (rotate) or its four terms (add)."
V_MODE = "rotate or add."

PLANE_TITLE = Say("figure.rotary_positions.plane_title")
PLANE_CAPTION = Say("figure.rotary_positions.plane_caption")
CONTENT_Q, CONTENT_K = Say("figure.rotary_positions.content_q"), Say("figure.rotary_positions.content_k")
ARROW_Q, ARROW_K = "q{t}", "k{u}"  # subscripts filled in
CLOCKS_TITLE = Say("figure.rotary_positions.clocks_title")
CLOCKS_CAPTION = Say("figure.rotary_positions.clocks_caption")
HAND_T, HAND_U = Say("figure.rotary_positions.hand_t"), Say("figure.rotary_positions.hand_u")
CLOCK_NAME = Say("figure.rotary_positions.clock_name")

READOUT_TITLE = Say("figure.rotary_positions.readout_title")
ROTATE_SUM = "q{t}·k{u} = {parts} = {score}"  # pair by pair
ROTATE_WHY = Say("figure.rotary_positions.rotate_why")
ADD_SUM = "(q + PE({t}))·(k + PE({u})) = {parts} = {score}"  # the four terms
ADD_WHY = Say("figure.rotary_positions.add_why")

X_BOTH = (Say("figure.rotary_positions.x_both"), Say("figure.rotary_positions.x_both_title"))
X_BOTH_SEE = Say("figure.rotary_positions.x_both_see")
X_OFFSET = (Say("figure.rotary_positions.x_offset"), Say("figure.rotary_positions.x_offset_title"))
X_OFFSET_SEE = Say("figure.rotary_positions.x_offset_see")
X_ADD = (Say("figure.rotary_positions.x_add"), Say("figure.rotary_positions.x_add_title"))
X_ADD_SEE = Say("figure.rotary_positions.x_add_see")
