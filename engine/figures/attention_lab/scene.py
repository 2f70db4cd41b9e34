"""The lab's panels, drawn with the kit's mark builders: the five steps, the embedding
plane, the query and the keys, the T x T table, the values and outputs, the plain
words and the arithmetic. ``v`` is what ``model.compute`` returns."""

from __future__ import annotations

from explorables.engine import OMEGA, convex_hull, position_code, vector_projection
from explorables.figures import (
    arrows,
    best,
    cells,
    circles,
    extent,
    line,
    lines,
    num,
    plane,
    points,
    polygon,
    spoken,
    steps,
    t,
    text,
    vec,
)

from ..sentences import (
    EMBED_AXES,
    OUTPUT_DIAMOND,
    OWN_RING,
    column_labels,
    distinct,
    grid_step,
    row_labels,
    sub,
    token_label,
)
from . import words
from .readout import arithmetic, readout

EMBED_PLANE = 3.0  # half-width of the embedding plane while every point fits
PLANE = 2.5  # smallest half-width of the query/key and value planes
QK_AXES = ("k1", "k2")
VALUE_AXES = ("v1", "v2")
KEYBOARD = {"step": 0.1, "big": 0.5}  # arrow-key steps on the embedding plane (Shift: big)


def square(id: str, *marks, half: float, axes, **options) -> dict:
    """A square plane from -half to half, its grid and axis names."""
    return plane(id, *marks, half=half, grid=grid_step(half), axes=[spoken(a) for a in axes], **options)


def legend(*entries) -> list[dict]:
    return [
        {"role": role, "label": spoken(words.LEGEND[key]), **({"shape": shape} if shape else {})}
        for key, role, shape in entries
    ]


def draw(s: dict, v: dict) -> list[dict]:
    return [
        steps_panel(s, v),
        embed_panel(s, v),
        qk_panel(s, v),
        table_panel(s, v),
        values_panel(s, v),
        text("readout", *readout(s, v), title=words.READOUT_TITLE()),
        text("arithmetic", *arithmetic(s, v), collapsible=words.arithmetic_summary(s["tokens"][s["query"]]), mono=True),
    ]


def steps_panel(s: dict, v: dict) -> dict:
    tokens, i, X, r = s["tokens"], s["query"], v["X"], v["r"]
    top = v["top"]
    step = v["row"].trace[top]
    n_masked = len(tokens) - 1 - i if s["causal"] else 0
    details = [
        f"x{sub(i)} = {vec(s['emb'][tokens[i]])} + {num(s['s'])}·{vec(position_code(i, OMEGA))} = {vec(X[i])}",
        f"q = {vec(r.Q[i])}, k = {vec(r.K[i])}, v = {vec(r.V[i])}",
        t(
            "figure.attention_lab.detail_largest",
            word=tokens[top],
            dot=num(step.dot),
            root=num(2**0.5),
            scaled=num(step.scaled),
        ),
        t("figure.attention_lab.detail_sums", word=tokens[top], weight=num(step.weight))
        + (t("figure.attention_lab.detail_masked", n=n_masked) if n_masked else ""),
        f"o{sub(i)} = Σ a·v = {vec(r.outputs[i])}",
    ]
    items = [(label, note, detail) for (label, note), detail in zip(words.steps(), details, strict=True)]
    return steps("steps", items, active=s["step"], title=words.steps_title(tokens[i], i), formula=words.FORMULA)


def embed_panel(s: dict, v: dict) -> dict:
    tokens, i, X, E = s["tokens"], s["query"], v["X"], v["E"]
    shown = distinct(tokens)
    alpha = s["s"] if s["s"] > 0 else None
    where = {w: [t for t, token in enumerate(tokens) if token == w] for w in shown}
    half = extent(E + (X if alpha else []), EMBED_PLANE)
    pushed = None
    if alpha:
        e_i = s["emb"][tokens[i]]
        pushed = [
            circles([e_i], alpha, role="grid", dashed=True),
            arrows(None, E, X, role="accent", width=1, link=lambda t: f"t{t}", muted=lambda t: t != i, id=None),
            points(
                "x",
                X,
                role="accent",
                shape="square",
                size=4,
                link=lambda t: f"t{t}",
                select=True,
                label=lambda t: f"x{sub(t)}" if t == i else None,
                name=lambda j: t("figure.attention_lab.x_name", t=j, word=tokens[j], sub=sub(j), x=vec(X[j])),
            ),
        ]
    E_words = [s["emb"][w] for w in shown]
    word_points = points(
        "word",
        E_words,
        id=[f"word-{w}" for w in shown],
        role="own",
        shape=lambda n: "ring" if i in where[shown[n]] else "circle",
        label=lambda n: shown[n] + (f" ×{len(where[shown[n]])}" if len(where[shown[n]]) > 1 else ""),
        link=lambda n: f"t{where[shown[n]][0]}",
        draggable=True,
        name=lambda n: t(
            "figure.attention_lab.word_name_many" if len(where[shown[n]]) > 1 else "figure.attention_lab.word_name",
            word=shown[n],
            where=", ".join(map(str, where[shown[n]])),
            at=vec(E_words[n]),
        ),
    )
    entries = [("own", "own", None)] + ([("x", "accent", "square")] if alpha else [])
    return square(
        "embed",
        pushed,
        word_points,
        half=half,
        axes=EMBED_AXES,
        title=words.EMBED_TITLE(),
        caption=words.embed_caption(len(shown), alpha),
        keyboard=KEYBOARD,
        selected=f"word-{s['selected']}" if s["selected"] in shown else None,
        legend=legend(*entries),
    )


def qk_panel(s: dict, v: dict) -> dict:
    tokens, i, r = s["tokens"], s["query"], v["r"]
    q, K = r.Q[i], r.K
    feet = [vector_projection(k, q) for k in K] if any(q) else []  # where each key's reach ends

    def later(j):
        return s["causal"] and j > i

    half = extent([*K, q, *feet], PLANE)
    reach = lines(
        [[k, foot] for k, foot in zip(K, feet, strict=False)],
        dotted=True,
        width=1,
        link=lambda j: f"t{j}",
        role=lambda j: "muted" if later(j) else "key",
    )
    query = arrows(None, (0.0, 0.0), [q], id="query", role="query", width=3, link=f"t{i}", label=f"q{sub(i)}")
    keys = points(
        "key",
        K,
        role="key",
        shape=lambda j: "ring" if j == i else "circle",
        label=lambda j: token_label(tokens, j),
        link=lambda j: f"t{j}",
        select=True,
        muted=later,
        name=lambda j: t("figure.attention_lab.key_name", word=tokens[j], j=j, at=vec(K[j]), score=num(r.scores[i][j])),
    )
    return square(
        "qk",
        reach,
        query,
        keys,
        half=half,
        axes=QK_AXES,
        title=words.QK_TITLE(),
        caption=words.qk_caption(i),
        legend=legend(("query", "query", "line"), ("key", "key", None)),
    )


def table_panel(s: dict, v: dict) -> dict:
    tokens, i, r = s["tokens"], s["query"], v["r"]
    n = len(tokens)
    weights = s["table"] == "weights"
    seen = [sc for row, m in zip(r.scores, r.mask, strict=True) for sc, ok in zip(row, m, strict=True) if ok]
    biggest = max((abs(sc) for sc in seen), default=0.0)
    traces = [r.row(a).trace for a in range(n)]
    tops = [best(row) for row in r.weights]

    def shown(a, b):
        if not r.mask[a][b]:
            return ("0", 0.0) if weights else ("−∞", 0.0)
        if weights:
            return num(r.weights[a][b]), r.weights[a][b]
        return num(r.scores[a][b]), 0.0 if biggest == 0 else r.scores[a][b] / biggest

    def detail(a, b):
        step = traces[a][b]
        return [
            f"{tokens[a]}{sub(a)} → {tokens[b]}{sub(b)}",
            f"q{sub(a)}·k{sub(b)} = {num(step.dot, 3)};  s = {num(step.dot, 3)} / √2 = {num(step.scaled, 3)}",
            t("figure.attention_lab.detail_masked_cell")
            if not r.mask[a][b]
            else f"a = {num(step.weight, 3)};  a·v{sub(b)} = {vec(step.weighted_value, 3)}",
        ]

    def title(a, b):
        what = (
            t("figure.attention_lab.cell_masked")
            if not r.mask[a][b]
            else t("figure.attention_lab.cell_shown", weight=num(r.weights[a][b]), score=num(r.scores[a][b]))
        )
        return t("figure.attention_lab.cell_title", a=tokens[a], i=a, b=tokens[b], j=b, what=what)

    panel = cells(
        "table",
        n,
        n,
        text=lambda a, b: shown(a, b)[0],
        tone=lambda a, b: max(-1.0, min(1.0, shown(a, b)[1])),
        link=lambda a, b: f"t{b}",
        id=lambda a, b: f"a-{a}-{b}",
        select=True,
        mark="a",
        active=lambda a, b: a == i and b == tops[a],
        muted=lambda a, b: not r.mask[a][b],
        detail=detail,
        tip=title,
        caption=words.TABLE_CAPTION(),
        key=(
            [(0.1, t("figure.key.little_weight")), (1, t("figure.key.much_weight"))]
            if weights
            else [(-1, t("figure.key.low_score")), (1, t("figure.key.high_score"))]
        ),
        col_labels=column_labels(tokens),
        row_labels=row_labels(tokens, i),
        active_row=i,
    )
    panel["title"] = words.TABLE_TITLE[s["table"]]()  # last, as the words are read
    return panel


def values_panel(s: dict, v: dict) -> dict:
    tokens, i, r = s["tokens"], s["query"], v["r"]
    V, outs = r.V, r.outputs
    half = extent(V + outs, PLANE)
    hull = convex_hull(V)
    shade = polygon(hull) if len(hull) >= 3 else line(hull, role="hull", width=4) if len(hull) == 2 else None
    others = [j for j in range(len(tokens)) if j != i]

    def value_points(js):
        return points(
            "value",
            [V[j] for j in js],
            index=js,
            role="value",
            shape=lambda n: "ring" if js[n] == i else "circle",
            label=lambda n: token_label(tokens, js[n]),
            link=lambda n: f"t{js[n]}",
            select=True,
            muted=lambda n: s["causal"] and js[n] > i,
            name=lambda n: t("figure.attention_lab.value_name", word=tokens[js[n]], j=js[n], at=vec(V[js[n]])),
            size=lambda n: OWN_RING if js[n] == i else None,
        )

    # drawn in this order, so that nothing hides anything: the asking token's own value (a
    # ring wide enough to hold a diamond), the outputs, the other values' dots on top
    outputs = points(
        "out",
        [outs[j] for j in others],
        index=others,
        role="output",
        shape="diamond",
        size=2.5,
        link=lambda n: f"t{others[n]}",
        select=True,
        name=lambda n: t(
            "figure.attention_lab.output_name", word=tokens[others[n]], j=others[n], at=vec(outs[others[n]])
        ),
    )
    own = points(
        None,
        [outs[i]],
        id=f"out-{i}",
        role="output",
        shape="diamond",
        size=OUTPUT_DIAMOND,
        label=f"o{sub(i)} ({tokens[i]})",
        link=f"t{i}",
        name=t("figure.attention_lab.output_name", word=tokens[i], j=i, at=vec(outs[i])),
    )
    return square(
        "values",
        shade,
        value_points([i]),
        outputs,
        own,
        value_points(others),
        half=half,
        axes=VALUE_AXES,
        title=words.VALUES_TITLE(),
        caption=words.values_caption(i, tokens[i]),
        legend=legend(("value", "value", None), ("output", "output", "diamond"), ("hull", "hull", None)),
    )
