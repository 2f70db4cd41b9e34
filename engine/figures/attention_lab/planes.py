"""The lab's three planes: the word embeddings (dragged), the query and the keys, the
values and the outputs. ``v`` is what ``model.compute`` returns."""

from explorables.engine import convex_hull, vector_projection
from explorables.figures import arrows, circles, extent, line, lines, num, plane, points, polygon, spoken, vec

from ..sentences import EMBED_AXES, OUTPUT_DIAMOND, OWN_RING, distinct, grid_step, link, sub, token_label, token_points
from . import words as W

EMBED_PLANE = 3.0  # half-width of the embedding plane while every point fits
PLANE = 2.5  # smallest half-width of the query/key and value planes
QK_AXES = ("k1", "k2")
VALUE_AXES = ("v1", "v2")
KEYBOARD = {"step": 0.1, "big": 0.5}  # arrow-key steps on the embedding plane (Shift: big)


def square(id: str, *marks, half: float, axes, **options) -> dict:
    """A square plane from -half to half, its grid and axis names."""
    return plane(id, *marks, half=half, grid=grid_step(half), axes=[spoken(a) for a in axes], **options)


def embed_panel(s: dict, v: dict) -> dict:
    tokens, i, X, E = s["tokens"], s["query"], v["X"], v["E"]
    shown = distinct(tokens)
    alpha = s["s"] if s["s"] > 0 else None
    where = [[t for t, token in enumerate(tokens) if token == w] for w in shown]  # each word's positions
    half = extent(E + (X if alpha else []), EMBED_PLANE)
    pushed = None
    if alpha:  # each token moved by its position code, x = e + α·p
        pushed = [
            circles([s["emb"][tokens[i]]], alpha, role="grid", dashed=True),
            arrows(None, E, X, role="accent", width=1, link=link, muted=lambda t: t != i, id=None),
            points(
                "x",
                X,
                role="accent",
                shape="square",
                size=4,
                link=link,
                select=True,
                label=lambda t: f"x{sub(t)}" if t == i else None,
                name=lambda j: W.X_NAME.format(t=j, word=tokens[j], sub=sub(j), x=vec(X[j])),
            ),
        ]
    at = [s["emb"][w] for w in shown]
    words = points(
        "word",
        at,
        id=[f"word-{w}" for w in shown],
        role="own",
        shape=["ring" if i in ts else "circle" for ts in where],
        label=[w + (f" ×{len(ts)}" if len(ts) > 1 else "") for w, ts in zip(shown, where, strict=True)],
        link=[link(ts[0]) for ts in where],
        draggable=True,
        name=lambda n: W.WORD_NAME[len(where[n]) > 1].format(
            word=shown[n], where=", ".join(map(str, where[n])), at=vec(at[n])
        ),
    )
    return square(
        "embed",
        pushed,
        words,
        half=half,
        axes=EMBED_AXES,
        title=W.EMBED_TITLE,
        caption=W.embed_caption(len(shown), alpha),
        keyboard=KEYBOARD,
        selected=f"word-{s['selected']}" if s["selected"] in shown else None,
        legend=[("own", W.LEGEND["own"]), *([("accent", W.LEGEND["x"], "square")] if alpha else [])],
    )


def qk_panel(s: dict, v: dict) -> dict:
    tokens, i, r = s["tokens"], s["query"], v["r"]
    q, K = r.Q[i], r.K
    feet = [vector_projection(k, q) for k in K] if any(q) else []  # where each key's reach ends
    half = extent([*K, q, *feet], PLANE)
    role = ["muted" if s["causal"] and j > i else "key" for j in range(len(feet))]  # what the mask hides: muted
    reach = lines([[k, foot] for k, foot in zip(K, feet, strict=False)], dotted=True, width=1, link=link, role=role)
    name = [W.KEY_NAME.format(word=tokens[j], j=j, at=vec(K[j]), score=num(r.scores[i][j])) for j in range(len(K))]
    labels = [token_label(tokens, j) for j in range(len(K))]
    keys = token_points("key", K, s, label=labels, select=True, name=name)
    return square(
        "qk",
        reach,
        arrows(None, (0.0, 0.0), [q], id="query", role="query", width=3, link=link(i), label=f"q{sub(i)}"),
        keys,
        half=half,
        axes=QK_AXES,
        title=W.QK_TITLE,
        caption=W.qk_caption(i),
        legend=[("query", W.LEGEND["query"], "line"), ("key", W.LEGEND["key"])],
    )


def values_panel(s: dict, v: dict) -> dict:
    tokens, i, r = s["tokens"], s["query"], v["r"]
    V, outs = r.V, r.outputs
    hull = convex_hull(V)
    shade = polygon(hull) if len(hull) >= 3 else line(hull, role="hull", width=4) if len(hull) == 2 else None
    others = [j for j in range(len(tokens)) if j != i]

    def value_points(js):
        name = [W.VALUE_NAME.format(word=tokens[j], j=j, at=vec(V[j])) for j in js]
        size = [OWN_RING if j == i else None for j in js]
        labels = [token_label(tokens, j) for j in js]
        return token_points("value", [V[j] for j in js], s, js, label=labels, select=True, name=name, size=size)

    def output_points(js: list[int], size: float, **more) -> list[dict]:
        name = [W.OUTPUT_NAME.format(word=tokens[j], j=j, at=vec(outs[j])) for j in js]
        at, links = [outs[j] for j in js], [link(j) for j in js]
        return points("out", at, index=js, role="output", shape="diamond", size=size, link=links, **more, name=name)

    # drawn in this order, so that nothing hides anything: the asking token's own value (a
    # ring wide enough to hold a diamond), the outputs, the other values' dots on top
    outputs = output_points(others, 2.5, select=True)
    own = output_points([i], OUTPUT_DIAMOND, label=f"o{sub(i)} ({tokens[i]})")
    return square(
        "values",
        shade,
        value_points([i]),
        outputs,
        own,
        value_points(others),
        half=extent(V + outs, PLANE),
        axes=VALUE_AXES,
        title=W.VALUES_TITLE,
        caption=W.values_caption(i, tokens[i]),
        legend=[("value", W.LEGEND["value"]), ("output", W.LEGEND["output"], "diamond"), ("hull", W.LEGEND["hull"])],
    )
