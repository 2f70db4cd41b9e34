"""The ``attention-lab`` figure: one head of self-attention on a short sentence, built
from word embeddings in five steps (the formulas are in ``maths``).

This is ``softmax(Q K^T / sqrt(d_k)) V`` of Vaswani et al. (2017), "Attention Is All
You Need", for every token at once, with the projections W_Q, W_K, W_V made editable
2 x 2 matrices and the lessons' 2-D position code p_t = (sin 0.6t, cos 0.6t) added with
strength α. The sentences and their word embeddings (``..sentences``) and the matrix presets
(``..matrices``) are shared with attention-heads; every number is the engine's.
"""

from typing import Any

from explorables.figures import Choice, Slider, Toggle, best, held, register

from .. import sentences
from ..matrices import Matrix
from . import words as W
from .experiments import EXPERIMENTS
from .maths import STEP_EMBED, STEP_PROJECT, STEP_SCORE, STEP_SOFTMAX, attend, embeddings, use_sentence
from .scene import draw, status

WORD_LIMIT = 2.9  # a dragged embedding stays within [-2.9, 2.9], inside the plane
S_MAX = 2.0  # the position strength slider runs from 0 to S_MAX
MATRICES = {
    m: Matrix(m, near="values" if m == "W_V" else "qk", step=STEP_PROJECT, **W.PARAMS[m]) for m in W.MATRIX_WHAT
}
SELECTABLE = ("x", "key", "value", "out")  # points whose token asks when clicked (and cells a-i-j)
RESULTS = ("Q", "K", "V", "scores", "weights", "outputs")  # the engine's attention, every row


@register
class AttentionLab(sentences.OnASentence, words=W):
    """Self-attention on a short sentence, from word embeddings to outputs."""

    name = "attention-lab"
    subject = ("sentence", "tokens", "emb", "W_Q", "W_K", "W_V", "s")
    params = (
        sentences.sentence_menu(near="embed", step=STEP_SCORE, **W.PARAMS["sentence"]),
        sentences.Asker("query", default="", near="embed", step=STEP_SCORE, **W.PARAMS["query"]),
        *MATRICES.values(),
        Slider("s", default=0.0, lo=0.0, hi=S_MAX, by=0.05, what="s", near="embed", step=STEP_EMBED, **W.PARAMS["s"]),
        sentences.temperature(near="table", step=STEP_SOFTMAX, **W.PARAMS["temperature"]),
        Toggle("causal", default=False, near="table", step=STEP_SOFTMAX, **W.PARAMS["causal"]),
        Choice("table", default="weights", choices=W.TABLE_CHOICES, near="table", **W.PARAMS["table"]),
        Choice("selected", default="", choices=lambda s: [(w, w) for w in s["tokens"]], **W.PARAMS["selected"]),
    )
    values = W.VALUES
    experiments = EXPERIMENTS

    # --- options -> first state -------------------------------------------------------

    def setup(self, state: dict, options: dict) -> dict:
        for m, matrix in MATRICES.items():
            state[m] = matrix.read(state[m], state)  # (2, 2), from the option's text
        state["emb"] = sentences.default_embeddings()  # word -> e(word), for every preset word
        use_sentence(state, state["sentence"], sentences.asked(state, None))
        state["step"] = STEP_SCORE
        return state

    def start(self, state: dict) -> dict:
        """Experiments start from the built-in settings (their numbers depend on them);
        Reset still goes back to the author's."""
        return {**self.initial_state({}), "options": state.get("options") or {}}

    def run_experiment(self, state: dict, name: str) -> dict:
        experiment = next(e for e in self.experiments if e.name == name)
        state = super().run_experiment(state, name)
        lit = [p.step for k in experiment.set if (p := self.param(k)) and p.step is not None]
        state["step"] = lit[0] if lit else STEP_SCORE
        state["selected"] = state["tokens"][state["query"]]
        return state

    # --- events -----------------------------------------------------------------------

    def changed(self, state: dict, name: str) -> dict:
        if name == "sentence":
            use_sentence(state, state["sentence"])
        return state

    def on_drag(self, state: dict, mark: str, i: Any, x: Any, y: Any) -> dict:
        shown = sentences.distinct(state["tokens"])  # the plane's points: one a distinct word
        if mark != "word" or not isinstance(i, int) or not 0 <= i < len(shown):
            raise ValueError(f"only the words of the embedding plane can be dragged, got mark {mark!r} {i!r}")
        state["emb"][shown[i]] = held(x, y, WORD_LIMIT)
        state["selected"] = shown[i]
        state["step"] = STEP_EMBED
        return state

    def on_select(self, state: dict, mark: str, i: Any) -> dict:
        state["query"] = sentences.clicked(self.name, state, mark, i, points=SELECTABLE, cells=("a",))
        state["step"] = STEP_SCORE
        return state

    # --- the numbers and the scene ------------------------------------------------------

    def compute(self, s: dict) -> dict:
        X, r = attend(s)
        out = {"X": X, "r": r, "row": r.row(s["query"]), "top": best(r.weights[s["query"]]), "E": embeddings(s)}
        return {**out, **{name: getattr(r, name) for name in RESULTS}}

    def draw(self, s: dict, v: dict) -> list:
        return draw(s, v)

    def status(self, s: dict, v: dict) -> str:
        return status(s, v)

    def controls(self, s: dict, v: dict) -> list[dict]:
        """The sentence and the sliders, the experiments by the steps, then the three matrices."""
        shown = [p.control_dict(s) for p in self.params if p.control and p.name not in MATRICES]
        return [*shown, self.experiment_control(s, near="steps"), *(m.control_dict(s) for m in MATRICES.values())]
