"""The lab's two text panels: what the asking token does, in plain words, and the
arithmetic of its five steps, every number from ``model.compute``."""

from __future__ import annotations

from explorables.engine import OMEGA, position_code
from explorables.figures import num, quote, t, vec

from ..sentences import distinct, sub


def _at(tokens, j: int) -> str:
    """The words " (position j)" when the word occurs more than once, so that it is clear which."""
    return t("figure.attention_lab.at", j=j) if tokens.count(tokens[j]) > 1 else ""


def status(s: dict, v: dict) -> str:
    """The status line: what the asking token reads most, and its output."""
    tokens, i, top, r = s["tokens"], s["query"], v["top"], v["r"]
    return t(
        "figure.attention_lab.status",
        word=quote(tokens[i]),
        i=i,
        weight=num(r.weights[i][top]),
        best=quote(tokens[top]),
        output=vec(r.outputs[i]),
    )


def readout(s: dict, v: dict) -> list[str]:
    tokens, i, X, r = s["tokens"], s["query"], v["X"], v["r"]
    n = len(tokens)
    weights = r.weights[i]
    order = sorted((j for j in range(n) if r.mask[i][j]), key=lambda j: -weights[j])
    if len(order) == 1:
        out = [t("figure.attention_lab.readout_alone", word=quote(tokens[i]), output=vec(r.outputs[i]))]
    else:
        top, second = order[0], order[1]
        out = [
            t(
                "figure.attention_lab.readout_best",
                word=quote(tokens[i]),
                top_weight=num(weights[top]),
                top=quote(tokens[top]),
                top_at=_at(tokens, top),
                second_weight=num(weights[second]),
                second=quote(tokens[second]),
                second_at=_at(tokens, second),
                n=len(order),
                even=num(1 / len(order)),
            )
        ]
    for w in distinct(tokens):
        where = [j for j, token in enumerate(tokens) if token == w]
        if len(where) < 2:
            continue
        a, b = where[:2]
        if r.outputs[a] == r.outputs[b]:
            out.append(t("figure.attention_lab.readout_same", word=quote(w), a=a, b=b, output=vec(r.outputs[a])))
            continue
        causes = []
        if X[a] != X[b]:
            causes.append(t("figure.attention_lab.cause_position", xa=vec(X[a]), xb=vec(X[b])))
        if s["causal"]:
            causes.append(
                t(
                    "figure.attention_lab.cause_mask" if a else "figure.attention_lab.cause_mask_one",
                    a=a,
                    n=a + 1,
                    b=b,
                    m=b + 1,
                )
            )
        causes_text = t("figure.attention_lab.cause_and").join(causes) or t("figure.attention_lab.cause_rows")
        out.append(
            t(
                "figure.attention_lab.readout_differ",
                word=quote(w),
                a=a,
                b=b,
                causes=causes_text,
                oa=vec(r.outputs[a]),
                ob=vec(r.outputs[b]),
            )
        )
    hidden = n - 1 - i
    if s["causal"] and hidden:
        out.append(
            t(
                "figure.attention_lab.readout_hidden" if hidden > 1 else "figure.attention_lab.readout_hidden_one",
                n=hidden,
                i=i,
            )
        )
    return out


def arithmetic(s: dict, v: dict) -> list[str]:
    tokens, i, X, r, row = s["tokens"], s["query"], v["X"], v["r"], v["row"]
    e, p = s["emb"][tokens[i]], position_code(i, OMEGA)
    out = [
        f"1. x{sub(i)} = e({tokens[i]}) + α·p{sub(i)} = {vec(e)} + {num(s['s'])}·{vec(p)} = {vec(X[i])}",
        f"2. q{sub(i)} = x{sub(i)}Wq = {vec(r.Q[i])}   k{sub(i)} = {vec(r.K[i])}   v{sub(i)} = {vec(r.V[i])}",
        f"3. s{sub(i)}ⱼ = q{sub(i)}·kⱼ / √2, {t('figure.attention_lab.arith_then')} ÷ T = {num(s['temperature'])}:",
    ]
    for j, step in enumerate(row.trace):
        head = f"   {tokens[j]:>8}{sub(j)}  k = {vec(r.K[j])}"
        out.append(
            f"{head}  {t('figure.attention_lab.arith_masked')}"
            if step.masked
            else f"{head}  q·k = {num(step.dot, 3)}  s = {num(step.scaled, 3)}  s/T = {num(step.tempered, 3)}"
        )
    out.append(
        f"4. a{sub(i)}ⱼ = exp(s/T − {num(row.trace.max_tempered, 3)}) / {num(row.trace.exp_sum, 4)}:  "
        + "  ".join(f"{tokens[j]} {num(w, 3)}" for j, w in enumerate(row.weights))
    )
    out.append(
        f"5. o{sub(i)} = Σ a·v = "
        + " + ".join(vec(st.weighted_value, 3) for st in row.trace if not st.masked)
        + f" = {vec(row.output, 3)}"
    )
    return out
