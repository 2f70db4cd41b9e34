"""The two heads' panels, drawn with the kit's mark builders: two weight tables, the
outputs plane and the join, in numbers and in plain W."""

from explorables.figures import arrows, extent, line, num, plane, points, spoken, t, text, vec

from ..sentences import EMBED_AXES, OUTPUT_DIAMOND, OWN_RING, grid_step, sub, token_label, token_table
from . import words as W
from .heads import tops, w_o

PLANE = 2.5  # smallest half-width of the outputs plane


def table_panel(s: dict, v: dict, h: int) -> dict:
    tokens, i, head = s["tokens"], s["query"], v["m"].heads[h]
    A = head.weights
    panel = token_table(
        f"head{h + 1}",
        f"a{h + 1}",
        tokens,
        i,
        A,
        text=lambda a, b: num(A[a][b]),
        tone=lambda a, b: A[a][b],
        detail=lambda a, b: [
            W.CELL_HEAD.format(h=h + 1, pair=f"{tokens[a]}{sub(a)} → {tokens[b]}{sub(b)}"),
            f"s = q·k / √2 = {num(head.scores[a][b], 3)};  a = {num(A[a][b], 3)}",
        ],
        tip=lambda a, b: W.CELL_TITLE.format(h=h + 1, a=tokens[a], i=a, b=tokens[b], j=b, weight=num(A[a][b])),
        caption=W.TABLE_CAPTION,
        key=[(0.1, t("figure.key.little_weight")), (1, t("figure.key.much_weight"))],
        wide=False,
    )
    return {**panel, "title": W.table_title(h + 1, s[f"head{h + 1}"])}  # the title last, as the words are read


def plane_panel(s: dict, v: dict) -> dict:
    tokens, i, m = s["tokens"], s["query"], v["m"]
    (o1, o2), (V1, V2) = [head.outputs[i] for head in m.heads], [head.V for head in m.heads]
    c1, out = m.contributions[0][i], m.outputs[i]
    sets = [(V1, "value", "")] if V1 == V2 else [(V1, "head1", "¹"), (V2, "head2", "²")]

    def values(ring: bool) -> list:
        """The values of every head: the asking token's (rings) or the others' (dots)."""
        js = [j for j in range(len(tokens)) if (j == i) is ring]
        return [
            points(
                f"value{sup}",
                [V[j] for j in js],
                index=js,
                role=role,
                size=OWN_RING if ring else 4,
                muted=not sup and not ring,
                shape="ring" if ring else "circle",
                label=[token_label(tokens, j) + sup for j in js],
                link=[f"t{j}" for j in js],
                select=not sup,
                name=[W.VALUE_NAME.format(sup=sup, word=tokens[j], j=j, at=vec(V[j])) for j in js],
            )
            for V, role, sup in sets
        ]

    def diamond(id, p, role, label):
        name = W.OUTPUT_NAME.format(what=W.OUTPUT_NAMES[id](), word=tokens[i], at=vec(p))
        return points(
            None, [p], id=id, role=role, shape="diamond", size=OUTPUT_DIAMOND, label=label, link=f"t{i}", name=name
        )

    half = extent(V1 + V2 + [o1, o2, c1, out, [0.0, 0.0]], PLANE)
    gap = round(OUTPUT_DIAMOND * 1.4 * 1.3 + 1, 1)  # the second part's tip at the hovered diamond's edge
    # drawn in this order, so that nothing hides anything: the asking token's values (rings
    # wide enough to hold a diamond), the outputs, the arrows over them (an arrow's head
    # shows on the diamond it ends at), the other values' dots on top
    return plane(
        "outputs",
        line([o1, o2], role="muted", dotted=True, width=1.5) if s["W_O"] == w_o("average") else None,  # the midpoint
        values(True),
        diamond("o1", o1, "head1", "o¹"),
        diamond("o2", o2, "head2", "o²"),
        diamond("combined", out, "output", W.MULTI_HEAD()),
        arrows(None, (0.0, 0.0), [c1], id="part1", role="head1", width=2, dashed=True),
        # o¹W_O¹ + o²W_O² = [o¹, o²] W_O: the second part ends at the engine's output
        arrows(None, [c1], [out], id="part2", role="head2", width=2, dashed=True, gap=gap),
        values(False),
        half=half,
        grid=grid_step(half),
        axes=[spoken(a) for a in EMBED_AXES],
        title=W.plane_title(tokens[i], i),
        caption=W.PLANE_CAPTION,
        legend=W.LEGEND,
    )


def combine_panel(s: dict, v: dict) -> dict:
    i, m = s["query"], v["m"]
    (o1, o2), (c1, c2) = [head.outputs[i] for head in m.heads], [c[i] for c in m.contributions]
    return text(
        "combine",
        f"o¹ = {vec(o1)}   o² = {vec(o2)}",
        f"[o¹, o²] = {vec(m.concat[i])}",
        f"[o¹, o²] Wo = {vec(m.outputs[i])}",
        f"o¹Wo¹ + o²Wo² = {vec(c1)} + {vec(c2)} = {vec(m.outputs[i])}",
        title=W.COMBINE_TITLE,
        mono=True,
    )


def readout(s: dict, v: dict) -> dict:
    """Each head's strongest weight and output in words, then what W_O makes of them."""
    top = tops(s, v["m"])
    out = [W.READOUT_HEAD.format(h=h, weight=top[f"w{h}"], word=top[f"b{h}"], output=top[f"o{h}"]) for h in (1, 2)]
    if s["heads"][0] == s["heads"][1]:
        out.append(W.SAME_HEADS())
    if s["W_O"] == w_o("average"):
        out.append(W.midpoint(v["m"].outputs[s["query"]]))
    return text("readout", *out, title=W.READOUT_TITLE)
