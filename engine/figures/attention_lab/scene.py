"""The lab's panels, drawn with the kit's mark builders: the five steps, the three planes
(planes.py), the T x T table, and the words about the numbers (the status line, what the
asking token does in plain words, the arithmetic of its five steps). ``v`` is what
``model.compute`` returns."""

from explorables.engine import OMEGA, position_code
from explorables.figures import num, quote, steps, text, vec

from ..sentences import distinct, sub, token_table
from . import words as W
from .planes import embed_panel, qk_panel, values_panel


def draw(s: dict, v: dict) -> list[dict]:
    words = text("readout", *readout(s, v), title=W.READOUT_TITLE())
    sums = text("arithmetic", *arithmetic(s, v), collapsible=W.arithmetic_summary(s["tokens"][s["query"]]), mono=True)
    return [steps_panel(s, v), embed_panel(s, v), qk_panel(s, v), table_panel(s, v), values_panel(s, v), words, sums]


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
    return steps(
        "steps", W.steps(), details=details, active=s["step"], title=W.steps_title(tokens[i], i), formula=W.FORMULA
    )


def table_panel(s: dict, v: dict) -> dict:
    tokens, i, r, shows = s["tokens"], s["query"], v["r"], s["table"]
    seen = [sc for row, m in zip(r.scores, r.mask, strict=True) for sc, ok in zip(row, m, strict=True) if ok]
    biggest = max((abs(sc) for sc in seen), default=0.0)
    traces = [r.row(a).trace for a in range(len(tokens))]
    M, scale, hidden = (r.weights, 1.0, "0") if shows == "weights" else (r.scores, biggest, "−∞")  # what a cell shows

    def detail(a, b):
        step = traces[a][b]
        dot, scaled = num(step.dot, 3), num(step.scaled, 3)
        mixed = f"a = {num(step.weight, 3)};  a·v{sub(b)} = {vec(step.weighted_value, 3)}"
        scores = f"q{sub(a)}·k{sub(b)} = {dot};  s = {dot} / √2 = {scaled}"
        return [f"{tokens[a]}{sub(a)} → {tokens[b]}{sub(b)}", scores, mixed if r.mask[a][b] else W.DETAIL_MASKED_CELL()]

    def title(a, b):
        unmasked = W.CELL_SHOWN.format(weight=num(r.weights[a][b]), score=num(r.scores[a][b]))
        what = unmasked if r.mask[a][b] else W.CELL_MASKED()
        return W.CELL_TITLE.format(a=tokens[a], i=a, b=tokens[b], j=b, what=what)

    panel = token_table(
        "table",
        "a",
        tokens,
        i,
        r.weights,
        text=lambda a, b: num(M[a][b]) if r.mask[a][b] else hidden,
        tone=lambda a, b: max(-1.0, min(1.0, M[a][b] / scale)) if r.mask[a][b] and scale else 0.0,
        muted=lambda a, b: not r.mask[a][b],
        detail=detail,
        tip=title,
        caption=W.TABLE_CAPTION,
        key=[(tone, words()) for tone, words in W.TABLE_KEY[shows]],
    )
    panel["title"] = W.TABLE_TITLE[shows]()  # last, as the words are read
    return panel


# --- the words about the numbers ---------------------------------------------------------


def status(s: dict, v: dict) -> str:
    """The status line: what the asking token reads most, and its output."""
    tokens, i, top, r = s["tokens"], s["query"], v["top"], v["r"]
    weight, output = num(r.weights[i][top]), vec(r.outputs[i])
    return W.STATUS.format(word=quote(tokens[i]), i=i, weight=weight, best=quote(tokens[top]), output=output)


def _at(tokens, j: int) -> str:
    """The words " (position j)" when the word occurs more than once, so that it is clear which."""
    return W.AT.format(j=j) if tokens.count(tokens[j]) > 1 else ""


def _best(tokens, i: int, weights, order: list[int]) -> str:
    """The two tokens the asking token i weighs most, against an even share."""
    ranked = {}
    for rank, j in zip(("top", "second"), order[:2], strict=True):
        ranked.update({rank: quote(tokens[j]), f"{rank}_weight": num(weights[j]), f"{rank}_at": _at(tokens, j)})
    return W.READOUT_BEST.format(word=quote(tokens[i]), n=len(order), even=num(1 / len(order)), **ranked)


def _repeated(s: dict, X, r, w: str, a: int, b: int) -> str:
    """Whether the first two tokens a and b of the word w get the same output, and why not."""
    if r.outputs[a] == r.outputs[b]:
        return W.READOUT_SAME.format(word=quote(w), a=a, b=b, output=vec(r.outputs[a]))
    causes = [W.CAUSE_POSITION.format(xa=vec(X[a]), xb=vec(X[b]))] if X[a] != X[b] else []
    if s["causal"]:
        causes.append(W.CAUSE_MASK[a > 0].format(a=a, n=a + 1, b=b, m=b + 1))
    why = W.CAUSE_AND().join(causes) or W.CAUSE_ROWS()
    return W.READOUT_DIFFER.format(word=quote(w), a=a, b=b, causes=why, oa=vec(r.outputs[a]), ob=vec(r.outputs[b]))


def readout(s: dict, v: dict) -> list[str]:
    tokens, i, X, r = s["tokens"], s["query"], v["X"], v["r"]
    weights = r.weights[i]
    order = sorted((j for j in range(len(tokens)) if r.mask[i][j]), key=lambda j: -weights[j])
    alone = W.READOUT_ALONE.format(word=quote(tokens[i]), output=vec(r.outputs[i]))
    out = [alone if len(order) == 1 else _best(tokens, i, weights, order)]
    for w in distinct(tokens):
        where = [j for j, token in enumerate(tokens) if token == w]
        if len(where) > 1:
            out.append(_repeated(s, X, r, w, *where[:2]))
    hidden = len(tokens) - 1 - i
    if s["causal"] and hidden:
        out.append(W.READOUT_HIDDEN[hidden > 1].format(n=hidden, i=i))
    return out


def arithmetic(s: dict, v: dict) -> list[str]:
    tokens, i, X, r, row = s["tokens"], s["query"], v["X"], v["r"], v["row"]
    e, p = s["emb"][tokens[i]], position_code(i, OMEGA)
    out = [
        f"1. x{sub(i)} = e({tokens[i]}) + α·p{sub(i)} = {vec(e)} + {num(s['s'])}·{vec(p)} = {vec(X[i])}",
        f"2. q{sub(i)} = x{sub(i)}Wq = {vec(r.Q[i])}   k{sub(i)} = {vec(r.K[i])}   v{sub(i)} = {vec(r.V[i])}",
        f"3. s{sub(i)}ⱼ = q{sub(i)}·kⱼ / √2, {W.ARITH_THEN()} ÷ T = {num(s['temperature'])}:",
    ]
    for j, step in enumerate(row.trace):
        head = f"   {tokens[j]:>8}{sub(j)}  k = {vec(r.K[j])}"
        scores = f"q·k = {num(step.dot, 3)}  s = {num(step.scaled, 3)}  s/T = {num(step.tempered, 3)}"
        out.append(f"{head}  {W.ARITH_MASKED() if step.masked else scores}")
    weights = "  ".join(f"{tokens[j]} {num(w, 3)}" for j, w in enumerate(row.weights))
    out.append(f"4. a{sub(i)}ⱼ = exp(s/T − {num(row.trace.max_tempered, 3)}) / {num(row.trace.exp_sum, 4)}:  {weights}")
    mixed = " + ".join(vec(st.weighted_value, 3) for st in row.trace if not st.masked)
    out.append(f"5. o{sub(i)} = Σ a·v = {mixed} = {vec(row.output, 3)}")
    return out
