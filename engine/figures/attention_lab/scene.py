"""The lab's panels, drawn with the kit's mark builders: the five steps, the three planes
(planes.py), the T x T table, the plain words and the arithmetic (readout.py). ``v`` is
what ``model.compute`` returns."""

from explorables.engine import OMEGA, position_code
from explorables.figures import best, cells, num, steps, text, vec

from ..sentences import column_labels, row_labels, sub
from . import words as W
from .planes import embed_panel, link, qk_panel, values_panel
from .readout import arithmetic, readout


def draw(s: dict, v: dict) -> list[dict]:
    return [
        steps_panel(s, v),
        embed_panel(s, v),
        qk_panel(s, v),
        table_panel(s, v),
        values_panel(s, v),
        text("readout", *readout(s, v), title=W.READOUT_TITLE()),
        text("arithmetic", *arithmetic(s, v), collapsible=W.arithmetic_summary(s["tokens"][s["query"]]), mono=True),
    ]


def steps_panel(s: dict, v: dict) -> dict:
    tokens, i, X, r, top = s["tokens"], s["query"], v["X"], v["r"], v["top"]
    step, word = v["row"].trace[top], tokens[top]
    n_masked = len(tokens) - 1 - i if s["causal"] else 0
    largest = W.DETAIL_LARGEST.format(word=word, dot=num(step.dot), root=num(2**0.5), scaled=num(step.scaled))
    masked = W.DETAIL_MASKED.format(n=n_masked) if n_masked else ""
    details = [
        f"x{sub(i)} = {vec(s['emb'][tokens[i]])} + {num(s['s'])}·{vec(position_code(i, OMEGA))} = {vec(X[i])}",
        f"q = {vec(r.Q[i])}, k = {vec(r.K[i])}, v = {vec(r.V[i])}",
        largest,
        W.DETAIL_SUMS.format(word=word, weight=num(step.weight)) + masked,
        f"o{sub(i)} = Σ a·v = {vec(r.outputs[i])}",
    ]
    items = [(label, note, detail) for (label, note), detail in zip(W.steps(), details, strict=True)]
    return steps("steps", items, active=s["step"], title=W.steps_title(tokens[i], i), formula=W.FORMULA)


def table_panel(s: dict, v: dict) -> dict:
    tokens, i, r, shows = s["tokens"], s["query"], v["r"], s["table"]
    seen = [sc for row, m in zip(r.scores, r.mask, strict=True) for sc, ok in zip(row, m, strict=True) if ok]
    biggest = max((abs(sc) for sc in seen), default=0.0)
    tops, traces = [best(row) for row in r.weights], [r.row(a).trace for a in range(len(tokens))]

    def shown(a, b):
        if not r.mask[a][b]:
            return ("0", 0.0) if shows == "weights" else ("−∞", 0.0)
        if shows == "weights":
            return num(r.weights[a][b]), r.weights[a][b]
        return num(r.scores[a][b]), 0.0 if biggest == 0 else r.scores[a][b] / biggest

    def detail(a, b):
        step = traces[a][b]
        dot, scaled = num(step.dot, 3), num(step.scaled, 3)
        mixed = f"a = {num(step.weight, 3)};  a·v{sub(b)} = {vec(step.weighted_value, 3)}"
        pair = f"{tokens[a]}{sub(a)} → {tokens[b]}{sub(b)}"
        return [
            pair,
            f"q{sub(a)}·k{sub(b)} = {dot};  s = {dot} / √2 = {scaled}",
            mixed if r.mask[a][b] else W.DETAIL_MASKED_CELL(),
        ]

    def title(a, b):
        what = (
            W.CELL_SHOWN.format(weight=num(r.weights[a][b]), score=num(r.scores[a][b]))
            if r.mask[a][b]
            else W.CELL_MASKED()
        )
        return W.CELL_TITLE.format(a=tokens[a], i=a, b=tokens[b], j=b, what=what)

    panel = cells(
        "table",
        len(tokens),
        len(tokens),
        text=lambda a, b: shown(a, b)[0],
        tone=lambda a, b: max(-1.0, min(1.0, shown(a, b)[1])),
        link=lambda a, b: link(b),
        id=lambda a, b: f"a-{a}-{b}",
        select=True,
        mark="a",
        active=lambda a, b: a == i and b == tops[a],
        muted=lambda a, b: not r.mask[a][b],
        detail=detail,
        tip=title,
        caption=W.TABLE_CAPTION,
        key=[(tone, words()) for tone, words in W.TABLE_KEY[shows]],
        col_labels=column_labels(tokens),
        row_labels=row_labels(tokens, i),
        active_row=i,
    )
    panel["title"] = W.TABLE_TITLE[shows]()  # last, as the words are read
    return panel
