"""The ``attention-lab`` figure: one head of self-attention on a short sentence, built
from word embeddings in five steps (the formulas are in ``maths``).

This is ``softmax(Q K^T / sqrt(d_k)) V`` of Vaswani et al. (2017), "Attention Is All
You Need", for every token at once, with the projections W_Q, W_K, W_V made editable
2 x 2 matrices and the lessons' 2-D position code p_t = (sin 0.6t, cos 0.6t) added with
strength α. The sentences and their word embeddings (``..sentences``) and the matrix presets
(``..matrices``) are shared with attention-heads; every number is the engine's.
"""

from __future__ import annotations

from typing import Any

from explorables.figures import (
    Choice,
    FieldError,
    Figure,
    Hidden,
    Say,
    Slider,
    Toggle,
    Value,
    best,
    held,
    num,
    quote,
    register,
    t,
    vec,
)

from ..matrices import Matrix
from ..sentences import (
    Asker,
    asked,
    check_query_option,
    clicked,
    default_embeddings,
    distinct,
    sentence,
    sentence_menu,
    sentence_values,
    temperature,
)
from . import words
from .experiments import EXPERIMENTS
from .maths import STEP_EMBED, STEP_PROJECT, STEP_SCORE, STEP_SOFTMAX, attend, embeddings, use_sentence
from .scene import draw

WORD_LIMIT = 2.9  # a dragged embedding stays within [-2.9, 2.9], inside the plane
S_MAX = 2.0  # the position strength slider runs from 0 to S_MAX
MATRICES = ("W_Q", "W_K", "W_V")
SELECTABLE = ("x", "key", "value", "out")  # points whose token asks when clicked (and cells a-i-j)


def _word(value: Any, state: dict) -> str:
    word = str(value).strip()
    if word not in state["tokens"]:
        raise FieldError("selected", f"selected must be a word of the sentence, got {word!r}")
    return word


@register
class AttentionLab(Figure, words=words):
    """Self-attention on a short sentence, from word embeddings to outputs."""

    name = "attention-lab"
    subject = ("sentence", "tokens", "emb", "W_Q", "W_K", "W_V", "s")
    params = (
        sentence_menu(
            words.LABEL["sentence"],
            words.DOC["sentence"],
            near="embed",
            help=lambda s: words.sentence_help(sentence(s["sentence"]).about),
            step=STEP_SCORE,
        ),
        Asker("query", words.LABEL["query"], "", doc=words.DOC["query"], near="embed", step=STEP_SCORE),
        *(
            Matrix(
                m,
                words.MATRIX_TITLES[m],
                "I",
                doc=words.MATRIX_DOC.format(what=words.MATRIX_WHAT[m]),
                near="values" if m == "W_V" else "qk",
                step=STEP_PROJECT,
            )
            for m in MATRICES
        ),
        Slider(
            "s",
            words.LABEL["s"],
            0.0,
            lo=0.0,
            hi=S_MAX,
            by=0.05,
            what="s",
            doc=words.DOC["s"],
            help=words.HELP["s"],
            near="embed",
            step=STEP_EMBED,
        ),
        temperature(
            words.LABEL["temperature"],
            words.DOC["temperature"],
            words.HELP["temperature"],
            words.TEMPERATURE_WHAT,
            "table",
            STEP_SOFTMAX,
        ),
        Toggle(
            "causal",
            words.LABEL["causal"],
            False,
            doc=words.DOC["causal"],
            help=words.HELP["causal"],
            near="table",
            step=STEP_SOFTMAX,
        ),
        Choice(
            "table", words.LABEL["table"], "weights", choices=words.TABLE_CHOICES, doc=words.DOC["table"], near="table"
        ),
        Hidden("selected", "Selected word", "", doc=words.DOC["selected"], parse=_word),
    )
    values = (
        *sentence_values(Say("figure.attention_lab.announce_query")),
        Value("E", "matrix", "The embedding e(word) of each token, (T, 2)."),
        Value("X", "matrix", "The inputs x = e + α·p, (T, 2)."),
        Value("Q", "matrix", "The queries q = xWq, (T, 2)."),
        Value("K", "matrix", "The keys k = xWk, (T, 2)."),
        Value("V", "matrix", "The values v = xWv, (T, 2)."),
        Value("scores", "matrix", "The scores q·k / √2, (T, T)."),
        Value("weights", "matrix", "The weights, softmax of each row of scores / T, (T, T)."),
        Value("outputs", "matrix", "The outputs o = Σ a v, (T, 2)."),
        Value("temperature", "decimal", "T, the temperature."),
        Value("causal", "bool", "Whether the causal mask is on."),
        Value("s", "decimal", "α, the strength of the position code.", announce=Say("figure.attention_lab.announce_s")),
        Value("W_Q", "matrix", "The query matrix."),
        Value("W_K", "matrix", "The key matrix."),
        Value("W_V", "matrix", "The value matrix."),
    )
    experiments = EXPERIMENTS

    # --- options -> first state -------------------------------------------------------

    def check_options(self, values: dict[str, Any]) -> None:
        check_query_option(values)

    def setup(self, state: dict, options: dict) -> dict:
        for m in MATRICES:
            state[m] = self._matrix(m).read(state[m], state)  # (2, 2), from the option's text
        state["emb"] = default_embeddings()  # word -> e(word), for every preset word
        use_sentence(state, sentence(state["sentence"]), asked(state, None))
        state["step"] = STEP_SCORE
        return state

    def start(self, state: dict) -> dict:
        """Experiments start from the built-in settings (their numbers depend on them);
        Reset still goes back to the author's."""
        fresh = self.initial_state({})
        fresh["options"] = state.get("options") or {}
        return fresh

    def _matrix(self, name: str) -> Matrix:
        """The matrix parameter ``name``, one of MATRICES."""
        param = self.param(name)
        if not isinstance(param, Matrix):  # (each is declared above)
            raise KeyError(name)
        return param

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
            use_sentence(state, sentence(state["sentence"]))
        return state

    def on_set(self, state: dict, name: str, value: Any) -> dict:
        matrix = next((self._matrix(m) for m in MATRICES if self._matrix(m).cell(name)), None)
        if matrix is None:
            raise FieldError(name, f"{self.name} has no control named {name!r}")
        state[matrix.name] = matrix.read_cell(state, name, value)
        state["step"] = STEP_PROJECT
        return state

    def on_drag(self, state: dict, mark: str, i: Any, x: Any, y: Any) -> dict:
        shown = distinct(state["tokens"])  # the plane's points: one a distinct word
        if mark != "word" or not isinstance(i, int) or not 0 <= i < len(shown):
            raise ValueError(f"only the words of the embedding plane can be dragged, got mark {mark!r} {i!r}")
        word = shown[i]
        state["emb"][word] = held(x, y, WORD_LIMIT)
        state["selected"] = word
        state["step"] = STEP_EMBED
        return state

    def on_select(self, state: dict, mark: str, i: Any) -> dict:
        state["query"] = clicked(self.name, state, mark, i, points=SELECTABLE, cells=("a",))
        state["step"] = STEP_SCORE
        return state

    def on_action(self, state: dict, name: str) -> dict:
        matrix, _, preset = name.partition("=")
        param = self._matrix(matrix) if matrix in MATRICES else None
        if param is None or not preset:
            names = ", ".join(e.name for e in self.experiments)
            raise ValueError(
                f"attention-lab has no action {name!r} (known: reset, a matrix preset like 'W_Q=2I', {names})"
            )
        if preset not in [p.key for p in param.presets()]:
            raise ValueError(f"attention-lab has no preset {preset!r} for {matrix}")
        state[matrix] = param.read(preset, state)
        state["step"] = STEP_PROJECT
        return state

    # --- the numbers and the scene ------------------------------------------------------

    def compute(self, s: dict) -> dict:
        X, r = attend(s)
        i = s["query"]

        def copy_of(M):
            return [list(row) for row in M]

        return {
            "X": X,
            "r": r,
            "row": r.row(i),
            "top": best(r.weights[i]),
            "E": embeddings(s),
            "Q": r.Q,
            "K": r.K,
            "V": r.V,
            "scores": r.scores,
            "weights": r.weights,
            "outputs": r.outputs,
            **{m: copy_of(s[m]) for m in MATRICES},
            "tokens": list(s["tokens"]),
        }

    def draw(self, s: dict, v: dict) -> list:
        return draw(s, v)

    def status(self, s: dict, v: dict) -> str:
        tokens, i, top, r = s["tokens"], s["query"], v["top"], v["r"]
        return t(
            "figure.attention_lab.status",
            word=quote(tokens[i]),
            i=i,
            weight=num(r.weights[i][top]),
            best=quote(tokens[top]),
            output=vec(r.outputs[i]),
        )

    def controls(self, s: dict, v: dict) -> list[dict]:
        """The sentence and the sliders, the experiments by the steps, then the three matrices."""
        shown = [p for p in self.params if p.control]
        return (
            [p.control_dict(s) for p in shown if p.name not in MATRICES]
            + [self.experiment_control(s, near="steps")]
            + [self._matrix(m).control_dict(s) for m in MATRICES]
        )
