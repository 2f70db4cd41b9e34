"""The lab's two text panels: what the asking token does, in plain words, and the
arithmetic of its five steps, every number from ``model.compute``."""
from __future__ import annotations

from explorables.engine import OMEGA, position_code
from explorables.figures import distinct, num, quote, sub, vec


def _at(tokens, j: int) -> str:
    """" (position j)" when the word occurs more than once, so that it is clear which."""
    return f" (position {j})" if tokens.count(tokens[j]) > 1 else ""


def readout(s: dict, v: dict) -> list[str]:
    tokens, i, X, r = s["tokens"], s["query"], v["X"], v["r"]
    n = len(tokens)
    weights = r.weights[i]
    order = sorted((j for j in range(n) if r.mask[i][j]), key=lambda j: -weights[j])
    if len(order) == 1:
        out = [f"{quote(tokens[i])} can read only itself, so it takes all of the weight and its output is its "
               f"own value, {vec(r.outputs[i])}."]
    else:
        top, second = order[0], order[1]
        out = [f"{quote(tokens[i])} puts its largest weight, {num(weights[top])}, on {quote(tokens[top])}"
               f"{_at(tokens, top)}, then {num(weights[second])} on {quote(tokens[second])}{_at(tokens, second)}. "
               f"An even split would give each of the {len(order)} tokens it reads {num(1 / len(order))}."]
    for w in distinct(tokens):
        where = [t for t, token in enumerate(tokens) if token == w]
        if len(where) < 2:
            continue
        a, b = where[:2]
        if r.outputs[a] == r.outputs[b]:
            out.append(f"{quote(w)} appears at positions {a} and {b}. Both tokens have the same vector x and the "
                       f"same set of tokens to read, so their rows are equal and so are their outputs, "
                       f"{vec(r.outputs[a])}: attention alone cannot tell them apart.")
            continue
        causes = []
        if X[a] != X[b]:
            causes.append(f"the position code gives them different vectors, {vec(X[a])} and {vec(X[b])},")
        if s["causal"]:
            causes.append(f"the mask lets position {a} read {a + 1} token{'s' if a else ''} and position {b} "
                          f"read {b + 1},")
        out.append(f"{quote(w)} appears at positions {a} and {b}: {' and '.join(causes) or 'their rows differ'} "
                   f"so their outputs differ: {vec(r.outputs[a])} and {vec(r.outputs[b])}.")
    hidden = n - 1 - i
    if s["causal"] and hidden:
        out.append(f"The causal mask hides the {hidden} token{'s' if hidden > 1 else ''} after position {i}: "
                   "weight exactly 0.")
    return out


def arithmetic(s: dict, v: dict) -> list[str]:
    tokens, i, X, r, row = s["tokens"], s["query"], v["X"], v["r"], v["row"]
    e, p = s["emb"][tokens[i]], position_code(i, OMEGA)
    out = [
        f"1. x{sub(i)} = e({tokens[i]}) + s·p{sub(i)} = {vec(e)} + {num(s['s'])}·{vec(p)} = {vec(X[i])}",
        f"2. q{sub(i)} = x{sub(i)}Wq = {vec(r.Q[i])}   k{sub(i)} = {vec(r.K[i])}   v{sub(i)} = {vec(r.V[i])}",
        f"3. s{sub(i)}ⱼ = q{sub(i)}·kⱼ / √2, then ÷ T = {num(s['temperature'])}:",
    ]
    for j, step in enumerate(row.trace):
        head = f"   {tokens[j]:>8}{sub(j)}  k = {vec(r.K[j])}"
        out.append(f"{head}  masked" if step.masked else
                   f"{head}  q·k = {num(step.dot, 3)}  s = {num(step.scaled, 3)}  s/T = {num(step.tempered, 3)}")
    out.append(f"4. a{sub(i)}ⱼ = exp(s/T − {num(row.trace.max_tempered, 3)}) / {num(row.trace.exp_sum, 4)}:  "
               + "  ".join(f"{tokens[j]} {num(w, 3)}" for j, w in enumerate(row.weights)))
    out.append(f"5. o{sub(i)} = Σ a·v = " + " + ".join(vec(st.weighted_value, 3) for st in row.trace if not st.masked)
               + f" = {vec(row.output, 3)}")
    return out
