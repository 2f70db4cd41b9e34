"""The figure's wording: keys of the catalogue (engine/locales/), ``figure.rotary_positions.*``,
looked up when they are shown or filled in; option docs and value docs stay English."""

from __future__ import annotations

from explorables.figures import Words

say = Words("figure.rotary_positions")  # the figure's catalogue keys, figure.rotary_positions.*

SUMMARY, TITLE, STATUS = say.all("summary title status")
MODES = say.table(rotate="mode_rotate", add="mode_add")

T, WHAT_T = say.all("t what_t")
U, WHAT_U = say.all("u what_u")
TOGETHER, TOGETHER_HELP = say.all("together together_help")
MODE, MODE_HELP = say.all("mode mode_help")

DOC_T = "The query's position t shown first (0 to 15)."
DOC_U = "The key's position u shown first (0 to 15)."
DOC_TOGETHER = "Whether moving one position moves the other by as much (the offset t - u kept)."
DOC_MODE = "rotate (turn each pair by theta_i times the position) or add (add PE(t), as lesson 5)."
DOC_Q = "The query's content q, four numbers (two pairs)."
DOC_K = "The key's content k, four numbers (two pairs)."

V_T, V_U, V_OFFSET = "The query's position t.", "The key's position u.", "The offset t - u."
V_SCORE = "The score q_t . k_u of the placed query and key."
V_SCORE_SAY = say("announce_score")
V_CONTENT = "The score q . k of the contents alone (no positions)."
V_QT, V_KU = "The placed query q_t.", "The placed key k_u."
V_PAIRS = "The score pair by pair (rotate) or its four terms (add)."
V_MODE = "rotate or add."

PLANE_TITLE, PLANE_CAPTION = say.all("plane_title plane_caption")
CONTENT_Q, CONTENT_K = say.all("content_q content_k")
ARROW_Q, ARROW_K = "q{t}", "k{u}"  # subscripts filled in
CLOCKS_TITLE, CLOCKS_CAPTION = say.all("clocks_title clocks_caption")
HAND_T, HAND_U = say.all("hand_t hand_u")
CLOCK_NAME = say("clock_name")

READOUT_TITLE = say("readout_title")
ROTATE_SUM = "q{t}·k{u} = {parts} = {score}"  # pair by pair
ROTATE_WHY = say("rotate_why")
ADD_SUM = "(q + PE({t}))·(k + PE({u})) = {parts} = {score}"  # the four terms
ADD_WHY = say("add_why")

X_BOTH = say.button("x_both")
X_BOTH_SEE = say("x_both_see")
X_OFFSET = say.button("x_offset")
X_OFFSET_SEE = say("x_offset_see")
X_ADD = say.button("x_add")
X_ADD_SEE = say("x_add_see")
