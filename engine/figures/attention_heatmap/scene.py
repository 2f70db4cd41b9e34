"""The panels of the heatmap: the table, each row's entropy, the outputs, the picked row
in words, the cost; and the typed grids of the picked token's vectors."""

import math
from functools import cache

from explorables.engine import dot
from explorables.figures import cells, formula, grid, heading, num, pct, quote, spoken, text, vec

from . import words as W
from .table import FLAT, PEAKED, table

ENTROPY_TONES = {"peaked": 0.8, "flat": -0.5}  # a row's kind as a fill; the other kinds none
# the lines of a cell's arithmetic, in the order table_panel's detail unpacks them
ARITHMETIC = (W.CELL_PAIR, W.CELL_DOT, W.CELL_SCALED, W.CELL_UNSCALED, W.CELL_MASKED, W.CELL_SOFTMAX, W.CELL_WEIGHT)


def table_panel(state: dict, v: dict) -> dict:
    """N x N cells (N = n tokens and the [PAD]s): weights or scores, with each cell's
    arithmetic as its detail. A [PAD]'s own row is computed but muted."""
    r, n, picked, view = v["r"], state["n"], state["query"], state["view"]
    tokens, Q, K, _ = table(state)
    N, d, scores = len(tokens), len(state["q"][0]), view == "scores"
    M = r.scores if scores else r.weights  # what the cells show; their tones run to ±1 at the largest shown
    seen = (abs(x) for row, m in zip(M, r.mask, strict=True) for x, ok in zip(row, m, strict=True) if ok)
    scale = max(seen, default=0.0) or 1.0
    what, masked = W.CELL_WHAT["scores" if scores else "weights"](), W.CELL_TITLE_MASKED()
    # what each cell shows, written once (its text and its tooltip both say it)
    shown = [
        [num(x) if ok else "−∞" if scores else "0" for x, ok in zip(row, m, strict=True)]
        for row, m in zip(M, r.mask, strict=True)
    ]
    title = W.CELL_TITLE().format  # the template, looked up once (words without fields give it as it is)

    def tip(i, j):
        words = title(q=tokens[i], k=tokens[j], what=what, text=shown[i][j])
        return words if r.mask[i][j] else words + masked

    # Each cell's arithmetic writes about twenty numbers, most of them its row's or its
    # column's: those are written once, with the first cell that needs them, not once a
    # cell (N² cells an update), and so are its templates; an answer without the
    # arithmetic (lean) never asks for them.
    written = cache(lambda: [[[num(x) for x in row] for row in M] for M in (Q, K)])  # every q and every k
    lines = cache(lambda: [say().format for say in ARITHMETIC])
    fixed = cache(lambda: (W.CELL_PAD_ROW(), {why: words() for why, words in W.WHY_MASKED.items()}))  # words alone

    @cache
    def softmax(i):  # row i's softmax step by step, and the numbers its cells share
        trace = r.row(i).trace
        return trace, num(trace.sqrt_d_k, 3), num(trace.max_tempered, 3), num(trace.exp_sum, 4)

    def detail(i, j):
        (trace, root, most, total), (q_text, k_text) = softmax(i), written()
        pair, dotted, with_root, without_root, hidden, softmaxed, weight = lines()
        pad_row, why = fixed()
        step, scaled = trace[j], num(trace[j].scaled, 3)
        terms = " + ".join(f"{a}×{b}" for a, b in zip(q_text[i], k_text[j], strict=True))
        arithmetic = [
            pair(q=tokens[i], row=i + 1, k=tokens[j], col=j + 1),
            *([pad_row] if i >= n else []),
            dotted(terms=terms, qk=num(dot(Q[i], K[j]), 3)),
            without_root(d=d, s=scaled)
            if view == "unscaled"
            else with_root(d=d, dot=num(step.dot, 3), root=root, s=scaled),
        ]
        if not r.mask[i][j]:
            return [*arithmetic, hidden(why=why["padding" if j >= n else "causal"])]
        return [
            *arithmetic,
            softmaxed(s=scaled, top=most, e=num(step.exp, 4), total=total, w=num(step.weight, 4)),
            weight(w=num(step.weight, 3), pct=pct(step.weight), q=tokens[i]),
        ]

    size = W.TABLE_SIZE.format(tokens=W.count(n, "token"), cells=W.count(n * n, "cell"))
    if n < N:
        size = W.TABLE_SIZE_PADDED.format(tokens=W.count(n, "token"), p=N - n, N=N, cells=N * N)
    return cells(
        "table",
        N,
        N,
        text=shown,
        tone=lambda i, j: M[i][j] / scale if r.mask[i][j] else 0.0,
        id=lambda i, j: f"cell-{i}-{j}",
        select=lambda i, j: i < n,
        mark="cell",
        link=lambda i, j: f"t{j}",
        active=lambda i, j: i == picked,
        muted=lambda i, j: not r.mask[i][j] or i >= n,
        tip=tip,
        detail=detail,
        title=W.TABLE_TITLE[view]() + W.TABLE_TITLE_TAIL(),
        key=W.KEYS["scores" if scores else "weights"],
        caption=W.TABLE_CAPTION.format(size=size),
        col_labels=heading(N, text=tokens, link=lambda j: f"t{j}"),
        row_labels=heading(
            N,
            "row",
            text=tokens,
            link=lambda i: f"t{i}",
            id=lambda i: f"row-{i}" if i < n else None,
            select=lambda i: i < n,
            active=lambda i: i == picked,
            title=lambda i: W.PICK_ROW.format(word=tokens[i]) if i < n else None,
        ),
        active_row=picked,
    )


def entropy_panel(state: dict, v: dict) -> dict:
    """One row a word: H, ln m (its most), H / ln m, and peaked, flat or in between."""
    r, visible, kinds, n, picked = v["r"], v["visible"], v["kinds"], state["n"], state["query"]
    tokens = state["tokens"][:n]

    written = [  # each row's columns, once
        (num(H), num(math.log(m)), pct(H / math.log(m)) if m > 1 else "—", W.kind(kind))
        for H, m, kind in zip(r.entropy[:n], visible, kinds, strict=False)
    ]
    every = W.ENTROPY_EVERY.format(n=n, ln=num(math.log(n))) if n > 1 else ""
    return cells(
        "entropy",
        n,
        4,
        text=written,
        tone=lambda i, j: ENTROPY_TONES.get(kinds[i], 0.0) if j == 3 else 0.0,
        tip=lambda i, j: (
            W.ENTROPY_TIPS[j].format(word=tokens[i], H=num(r.entropy[i], 3), m=visible[i]) if j < 3 else None
        ),
        active=lambda i, j: j == 3 and i == picked,
        title=W.ENTROPY_TITLE(),
        caption=W.ENTROPY_CAPTION.format(every=every, peaked=pct(PEAKED), flat=pct(FLAT)),
        wide=False,
        col_labels=heading(4, text=[spoken(c) for c in W.ENTROPY_COLUMNS]),
        row_labels=heading(n, text=tokens, link=lambda i: f"t{i}"),
        active_row=picked,
    )


def outputs_panel(state: dict, v: dict) -> dict:
    """One row a word, one column a coordinate of the values; each cell's sum as detail."""
    r, n = v["r"], state["n"]
    tokens, names = state["tokens"][:n], W.value_names(state["value_names"])
    biggest = max((abs(x) for row in r.outputs for x in row), default=0.0) or 1.0

    @cache
    def heaviest(i):  # row i's four largest weights (their keys and weights written), and what more it reads
        keys = sorted((j for j in range(n) if r.mask[i][j]), key=lambda j: -r.weights[i][j])
        more = W.OUTPUT_MORE.format(more=len(keys) - 4) if len(keys) > 4 else ""
        return [(j, num(r.weights[i][j], 3)) for j in keys[:4]], more

    def detail(i, c):
        terms, more = heaviest(i)
        return [
            W.OUTPUT_SUM.format(name=names[c], word=tokens[i]),
            formula("= " + " + ".join(f"{a}×{num(state['v'][j][c])}" for j, a in terms)) + more,
            f"= {num(r.outputs[i][c], 4)}",
        ]

    return cells(
        "outputs",
        n,
        len(names),
        text=lambda i, c: num(r.outputs[i][c]),
        tone=lambda i, c: r.outputs[i][c] / biggest,  # within ±1: biggest is the largest |o|
        tip=lambda i, c: W.OUTPUT_TIP.format(word=tokens[i], name=names[c], o=num(r.outputs[i][c], 3)),
        detail=detail,
        title=W.OUTPUTS_TITLE(),
        caption=W.OUTPUTS_CAPTION(),
        wide=False,
        key=W.KEYS["outputs"],
        col_labels=heading(len(names), text=names),
        row_labels=heading(n, text=tokens, link=lambda i: f"t{i}"),
        active_row=state["query"],
    )


def row_panel(state: dict, v: dict) -> dict:
    """The picked row in words: where its weight goes, its entropy, its output."""
    r, visible, n, i = v["r"], v["visible"], state["n"], state["query"]
    tokens = state["tokens"][:n]
    a = r.weights[i]
    order = sorted((j for j in range(n) if r.mask[i][j]), key=lambda j: -a[j])
    word, best, m = quote(tokens[i]), quote(tokens[order[0]]), visible[i]
    if m == 1:
        first = W.ROW_ONE_KEY.format(word=word, best=best)
    else:
        first = (
            W.ROW_GIVES.format(word=word, a=pct(a[order[0]]), best=best)
            + W.ROW_AND.format(a=pct(a[order[1]]), second=quote(tokens[order[1]]))  # m keys: m >= 2 in order
            + W.ROW_ENTROPY.format(H=num(r.entropy[i]), m=m, ln=num(math.log(m)))
            + (W.ROW_TWO_KEYS() if m == 2 else W.ROW_KIND.format(kind=W.kind(v["kinds"][i])))
        )
    terms = " + ".join(f"{num(a[j])}·v({tokens[j]})" for j in order[:3])
    rest = W.ROW_REST.format(more=len(order) - 3) if len(order) > 3 else ""
    paragraphs = [first, W.ROW_OUTPUT.format(terms=terms, rest=rest, o=vec(r.outputs[i]))]
    masked = v["cells"] - sum(visible)  # cells of the table, [PAD]s' included, that a mask hides
    if masked:
        paragraphs.append(W.ROW_MASKED.format(masked=masked, cells=v["cells"]))
    return text("row", *paragraphs, title=W.ROW_TITLE.format(word=quote(tokens[i])))


def cost_panel(state: dict, v: dict) -> dict:
    """n² scores: the table's size, what the masks leave, d_k."""
    n, p, N = state["n"], state["padding"], len(v["visible"])  # N = n + p, the table's side
    pads = W.COST_PADS.format(tokens=W.count(n, "token"), p=p) if p else ""
    numbers = (n, p, N * N, sum(v["visible"]), len(state["q"][0]))
    return text(
        "cost",
        W.COST_TEXT.format(N=N, scores=W.count(N * N, "score"), pads=pads, N2=2 * N, cells2=4 * N * N),
        title=W.COST_TITLE(),
        items=[[spoken(name), str(x)] for name, x in zip(W.COST_ITEMS, numbers, strict=True)],
    )


PANELS = (table_panel, entropy_panel, outputs_panel, row_panel, cost_panel)  # in order, each of (state, v)


def vector_grids(state: dict) -> list[dict]:
    """Typed entries of the picked token's q, k and v, one row a coordinate: one grid, or
    two when the values are not as long as the queries."""
    i = state["query"]
    word = quote(state["tokens"][i])

    def row(c: int, group: str) -> tuple:
        fields = [(f"{w}.{i}.{c}", state[w][i][c], W.GRID_CELL.format(what=W.WHAT[w], c=c + 1)) for w in group]
        return W.GRID_ROW.format(c=c + 1), f"t{i}", fields

    return [
        grid(
            "vectors-" + group,
            W.GRID_LABEL.format(word=word, what=", ".join(W.WHAT[w]() for w in group)),
            [W.WHAT[w]() for w in group],
            [row(c, group) for c in range(len(state[group[0]][i]))],
            near="outputs",
        )
        for group in (["qkv"] if len(state["q"][i]) == len(state["v"][i]) else ["qk", "v"])
    ]
