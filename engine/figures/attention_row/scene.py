"""The panels of attention-row, built with the kit's mark builders.

Formula steps; the key plane (the query's arrow, each key's reach along it, draggable
keys); the value plane (the hull a blend can land in, the new vector); the score row;
the weight bars; the row in plain words; the arithmetic of the best match; a few stats.
"""

import math
from typing import Any

from explorables.engine import convex_hull, scalar_projection, vector_projection
from explorables.figures import arrows, bars, cells, heading, line, lines, num, plane, points, polygon, steps, text, vec

from ..sentences import token_points, token_text
from . import words as w

STEP, BIG_STEP = 0.1, 0.5  # keyboard steps on the key plane (arrow, Shift+arrow)
GRID: dict[str, Any] = {"grid": 1.0, "axes": ["x1", "x2"]}  # both planes' grid and axis names


def panels(s: dict, v: dict) -> list[dict]:
    """The panels, in order, from the state and what the model computed (``v``)."""
    i, r, hidden, top = s["query"], v["row"], v["hidden"], v["best"]
    stats = (len(s["q"][i]), s["temperature"], r.weights[top], s["tokens"][top], v["tie"], sum(r.weights))
    return [
        formula(s, r, top),
        keys(s, v, hidden),
        values(s, v),
        scores(s, r, hidden),
        weights(s, r, hidden, top),
        text("readout", *w.readout(s["tokens"], i, r, hidden, top, v["tie"], s["v"][i]), title=w.READOUT_TITLE),
        text("arithmetic", *arithmetic(s, r, top), collapsible=w.ARITHMETIC, mono=True),
        text("stats", items=w.stats(*stats, r.output, r.entropy)),
    ]


def products(a, b) -> str:
    """q·k written out: "0.50×1.00 + 1.20×−0.30"."""
    return " + ".join(f"{num(x)}×{num(y)}" for x, y in zip(a, b, strict=True))


def formula(s: dict, r, top: int) -> dict:
    tokens, i, m = s["tokens"], s["query"], r.trace[top]
    details = [
        f"{tokens[i]}·{tokens[top]}: {num(m.dot, 3)}",
        f"{num(m.dot, 3)} ÷ √{len(s['q'][i])} = {num(m.scaled, 3)}",
        f"{num(m.scaled, 3)} ÷ {num(s['temperature'])} = {num(m.tempered, 3)}",
        w.mask_note(s["causal"], len(tokens) - 1 - i),
        w.DETAIL_GETS.format(word=tokens[top], weight=num(r.weights[top], 3)),
        w.DETAIL_NEW_VECTOR.format(output=vec(r.output)),
    ]
    return steps("formula", w.steps(), details=details, active=s["step"], title=w.FORMULA_TITLE, formula=w.FORMULA())


def keys(s: dict, v: dict, hidden: list[bool]) -> dict:
    tokens, i, K, r, half = s["tokens"], s["query"], s["k"], v["row"], v["half"]
    q, reach = s["q"][i], None
    if any(q):  # the query's direction across the plane, and where each key's reach lands on it
        far = half / max(abs(q[0]), abs(q[1]))
        role = ["muted" if h else "key" for h in hidden]
        reach = [
            line([(-far * q[0], -far * q[1]), (far * q[0], far * q[1])], role="grid", dashed=True, width=1),
            lines([(k, vector_projection(k, q)) for k in K], role=role, dotted=True, link=lambda j: f"t{j}", width=1),
        ]
    asking = f"q ({token_text(tokens[i])})"  # the renderer puts it by the tip
    names = [w.key_name(j, tokens[j], j == i, K[j], hidden[j], r.scores[j], r.weights[j]) for j in range(len(K))]
    labels = [token_text(word) for word in tokens]
    return plane(
        "keys",
        reach,
        arrows(None, (0, 0), [q], id="query", role="query", link=f"t{i}", width=3, label=asking),
        token_points("key", K, s, label=labels, draggable=True, name=names),
        half=half,
        **GRID,
        keyboard={"step": STEP, "big": BIG_STEP},
        selected=f"key-{s['selected']}",
        title=w.KEYS_TITLE,
        caption=w.keys_caption(tokens, i),
        legend=w.keys_legend(tokens[i], any(hidden)),
    )


def values(s: dict, v: dict) -> dict:
    tokens, i, V, r = s["tokens"], s["query"], s["v"], v["row"]
    o = r.output
    hull = convex_hull([tuple(p) for p in V])
    shade = polygon(hull) if len(hull) >= 3 else line(hull, role="hull", width=3) if len(hull) == 2 else None
    moved = math.hypot(o[0] - V[i][0], o[1] - V[i][1]) > 1e-9
    new = w.NEW_LABEL.format(word=token_text(tokens[i]))
    new_name = w.NEW_NAME.format(word=tokens[i], at=vec(o))
    names = [w.value_name(tokens[j], V[j], r.weights[j]) for j in range(len(V))]
    return plane(
        "values",
        shade,
        token_points("value", V, s, label=[token_text(word) for word in tokens], select=True, name=names),
        arrows(None, [V[i]], [o], id="moved", role="output", dashed=True, link=f"t{i}") if moved else None,
        points(None, [o], id="output", role="output", shape="diamond", size=7, link=f"t{i}", label=new, name=new_name),
        half=v["value_half"],
        **GRID,
        title=w.VALUES_TITLE,
        caption=w.values_caption(tokens, i, len(hull) >= 2),
        legend=w.values_legend(tokens[i], len(hull) >= 2),
    )


def scores(s: dict, r, hidden: list[bool]) -> dict:
    tokens, i, K = s["tokens"], s["query"], s["k"]
    q = s["q"][i]
    biggest = max(abs(x) for x in r.scores) or 1.0  # the tones run to ±1 at the largest |score|

    def detail(_, j):
        m, reach = r.trace[j], scalar_projection(K[j], q) if any(q) else 0.0  # how far key j reaches along q
        return [
            w.SCORE_KEY.format(word=tokens[j], key=vec(K[j]), reach=num(reach)),
            f"q·k = {products(q, K[j])} = {num(m.dot, 3)}",
            f"÷ √{len(q)} = {num(m.scaled, 3)}",
            f"÷ T = {num(m.tempered, 3)}",
            w.SCORE_WEIGHT.format(weight=num(r.weights[j], 3)) if not hidden[j] else w.SCORE_HIDDEN(),
        ]

    return cells(
        "scores",
        1,
        len(tokens),
        text=lambda _, j: num(r.scores[j]),
        tone=lambda _, j: r.scores[j] / biggest,
        link=lambda _, j: f"t{j}",
        id=lambda _, j: f"score-{j}",
        select=True,
        mark="score",
        active=lambda _, j: j == i,
        muted=lambda _, j: hidden[j],
        detail=detail,
        tip=lambda _, j: w.score_tip(tokens[j], r.scores[j], hidden[j]),
        title=w.SCORES_TITLE,
        key=[(-1, w.LOW_SCORE), (1, w.HIGH_SCORE)],
        col_labels=heading(len(tokens), text=tokens, link=lambda j: f"t{j}"),
        row_labels=heading(1, text=tokens[i], link=f"t{i}"),
    )


def weights(s: dict, r, hidden: list[bool], top: int) -> dict:
    return bars(
        "weights",
        r.weights,
        label=s["tokens"],
        text=[num(x) for x in r.weights],
        link=lambda j: f"t{j}",
        active=lambda j: j == s["query"],
        muted=hidden,
        select=True,
        id=lambda j: f"bar-{j}",
        mark="bar",
        role=lambda j: "accent" if j == top else None,
        title=w.WEIGHTS_TITLE,
        footer=f"Σ a = {num(sum(r.weights))}",
    )


def arithmetic(s: dict, r, top: int) -> list[str]:
    """The best match's numbers, step by step (monospace)."""
    tokens, i = s["tokens"], s["query"]
    q, k, v, m = s["q"][i], s["k"][top], s["v"][top], r.trace[top]
    seen = w.ARITH_HIDDEN if m.masked else w.ARITH_VISIBLE
    return [
        w.ARITH_ASKING.format(word=tokens[i], q=vec(q)),
        w.ARITH_BEST.format(word=tokens[top], k=vec(k), v=vec(v)),
        f"1. q·k = {products(q, k)} = {num(m.dot, 4)}",
        f"2. ÷ √dₖ = {num(m.dot, 4)} ÷ {num(r.trace.sqrt_d_k, 4)} = {num(m.scaled, 4)}",
        f"3. ÷ T = {num(m.scaled, 4)} ÷ {num(s['temperature'])} = {num(m.tempered, 4)}",
        w.ARITH_MASK.format(seen=seen()),
        w.ARITH_SOFTMAX.format(
            tempered=num(m.tempered, 4),
            top=num(r.trace.max_tempered, 4),
            exp=num(m.exp, 4),
            total=num(r.trace.exp_sum, 4),
            weight=num(m.weight, 4),
        ),
        f"6. a·v = {num(m.weight, 4)} × {vec(v)} = {vec(m.weighted_value, 4)}",
        f"   Σ aᵢvᵢ = {' + '.join(vec(x.weighted_value, 3) for x in r.trace if not x.masked)} = {vec(r.output, 4)}",
    ]
