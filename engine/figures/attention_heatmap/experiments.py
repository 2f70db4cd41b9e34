"""The "Try this" buttons. Each starts from the first settings (as Reset does), sets the
controls, and says what to look for with numbers the engine computed for the state it
made."""

import math

from explorables.engine import attention, dot
from explorables.figures import Experiment, best, num, pct, quote, typed

from . import words as W
from .presets import built_in, load
from .table import normalised, result, rows_reading, table

PAD = 3  # [PAD] tokens the padding experiment adds
GROW_FROM = 6  # tokens the growth experiment starts from


def pick_most_peaked(state: dict) -> None:
    r = result(state)
    state["query"] = min(rows_reading(state, r, 3), key=lambda i: normalised(r, i))


def peaked_flat(state: dict) -> str:
    r, tokens, low = result(state), state["tokens"], state["query"]
    high = max(rows_reading(state, r, 3), key=lambda i: normalised(r, i))
    top = best(r.weights[low])
    m = sum(r.mask[high])
    return W.PEAKED_FLAT.format(
        low=quote(tokens[low]),
        a=pct(r.weights[low][top]),
        top=quote(tokens[top]),
        H_low=num(r.entropy[low]),
        high=quote(tokens[high]),
        H_high=num(r.entropy[high]),
        m=m,
        ln=num(math.log(m)),
    )


def causal(state: dict) -> str:
    r, before = result(state), result(dict(state, causal=False))
    N, i = state["n"] + state["padding"], state["query"]
    j = best(r.weights[i])
    return W.CAUSAL.format(
        hidden=N * N - sum(map(sum, r.mask)),
        cells=N * N,
        word=quote(state["tokens"][i]),
        a=pct(r.weights[i][j]),
        best=quote(state["tokens"][j]),
        before=pct(before.weights[i][j]),
    )


def padding(state: dict) -> str:
    r, unpadded = result(state), result(dict(state, padding=0))
    readable_pads = attention(*table(state)[1:], causal=state["causal"])  # the same table, [PAD] keys readable
    n, p, i = state["n"], state["padding"], state["query"]
    return W.PADDING.format(
        p=p,
        last=quote(state["tokens"][n - 1]),
        newly=W.count(sum(map(sum, readable_pads.mask)) - sum(map(sum, r.mask)), "cell"),  # hidden by the padding
        cells=(n + p) ** 2,
        rows=W.PADDING_ONE_ROW() if n == 1 else W.PADDING_ROWS.format(n=n),
        exactly=W.PADDING_EXACTLY() if all(r.weights[a][:n] == unpadded.weights[a] for a in range(n)) else "",
        word=quote(state["tokens"][i]),
        keys=W.count(sum(r.mask[i]), "key"),
        H=num(r.entropy[i]),
    )


def grown(state: dict) -> str:
    n, T = state["n"], len(state["tokens"])
    return W.GROW.format(
        n=n, cells=n * n, T=T, times=typed(f"{T / n:.3g}"), cells_T=T * T, times_cells=typed(f"{T * T / (n * n):.3g}")
    )


def scores(state: dict) -> str:
    r, tokens, i = result(state), state["tokens"], state["query"]
    row, keys = r.scores[i], [j for j, seen in enumerate(r.mask[i]) if seen]  # masked: shown as −∞, weight 0
    if len(keys) == 1:
        return W.SCORES_ONE_KEY.format(word=quote(tokens[i]), key=quote(tokens[keys[0]]), s=num(row[keys[0]]))
    hi, lo = max(keys, key=lambda j: row[j]), min(keys, key=lambda j: row[j])
    return W.SCORES.format(
        word=quote(tokens[i]),
        over=W.SCORES_OVER.format(m=len(keys)) if len(keys) < len(row) else "",
        lo=num(row[lo]),
        lo_word=quote(tokens[lo]),
        hi=num(row[hi]),
        hi_word=quote(tokens[hi]),
        gap=num(row[hi] - row[lo]),
        w_lo=num(r.weights[i][lo], 3),
        w_hi=num(r.weights[i][hi]),
    )


def why_scale(state: dict) -> str:
    import statistics  # noqa: PLC0415  here, not at import: the worker starts faster

    r, u, n, d = result(state), result(state, scaled=False), state["n"], len(state["q"][0])
    raw = statistics.pstdev([dot(q, k) for q in state["q"][:n] for k in state["k"][:n]])  # q_i·k_j
    scaled = statistics.pstdev([s for row in r.scores[:n] for s in row[:n]])
    rows = rows_reading(state, r, 2)  # a row that reads one key has nothing to choose

    def mean(f):
        return statistics.fmean(f(i) for i in rows)

    return W.WHY_SCALE.format(
        d=d,
        raw=num(raw),
        root=num(math.sqrt(d)),
        scaled=num(scaled),
        top_u=num(mean(lambda i: max(u.weights[i]))),
        top=num(mean(lambda i: max(r.weights[i]))),
        H=pct(mean(lambda i: normalised(r, i))),
        H_u=pct(mean(lambda i: normalised(u, i))),
    )


EXPERIMENTS = (
    Experiment(
        **W.button("peaked-flat"),
        set={"view": "weights"},
        run=pick_most_peaked,
        see=peaked_flat,
        when=lambda s: s["n"] >= 3,  # = rows_reading(s, ..., 3): the last word's row reads all n keys, causal or not
    ),
    Experiment(**W.button("scores"), set={"view": "scores"}, see=scores),
    Experiment(**W.button("causal"), set={"causal": True, "view": "weights"}, see=causal, when=lambda s: s["n"] >= 2),
    Experiment(**W.button("padding", pad=PAD), set={"padding": PAD, "view": "weights"}, see=padding),
    Experiment(
        **W.button("grow", grow=GROW_FROM), set={"n": GROW_FROM}, see=grown, when=lambda s: len(s["tokens"]) > GROW_FROM
    ),
    Experiment(
        **W.button("why-scale"), set={"view": "scores"}, run=lambda s: load(s, built_in("random")), see=why_scale
    ),
)
