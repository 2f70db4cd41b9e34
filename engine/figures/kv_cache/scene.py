# fmt: off
# Laid out by hand: tests/test_figure_kv_cache.py holds the package, words aside, to 250 lines.
"""The panels: the causal table, the kept keys and values, the multiply-adds, the memory."""
from explorables.figures import Say, cells, heading, num, quote, text

from . import words as W
from .maths import TOKENS

TONES: dict[str | None, float] = {"kept": 0.6, "new": 1.0, "again": -0.6}  # by column_state's mark


def table(state: dict, v: dict) -> dict:
    t, n, weights = v["t"], len(TOKENS), v["weights"]

    def tip(i: int, j: int) -> str:
        q, k = quote(TOKENS[i]), quote(TOKENS[j])
        return W.CELL_LATER.format(q=q) if i > t else W.CELL_MASKED.format(q=q, k=k) if j > i else \
            W.CELL_TIP.format(q=q, k=k, w=num(weights[i][j]))

    return cells("table", n, n, text=lambda i, j: num(weights[i][j]) if j <= i <= t else "",
                 tone=lambda i, j: weights[i][j] if j <= i <= t else 0.0,
                 muted=lambda i, j: i > t or j > i, tip=tip, active_row=t,
                 detail=lambda i, j: [W.CELL_DETAIL.format(s=num(v["scores"][i][j]), w=num(weights[i][j]), i=i)]
                 if j <= i <= t else None, row_labels=heading(n, text=TOKENS, active=lambda i: i == t),
                 col_labels=heading(n, text=TOKENS), key=[(0, W.KEY_LITTLE()), (1, W.KEY_MUCH())],
                 title=W.TABLE_TITLE.format(t=t, word=quote(TOKENS[t])), caption=W.TABLE_CAPTION.format(t=t))


def column_state(j: int, t: int, cache: bool) -> str | None:
    """What the decoder does with key and value j at step t: kept, new, again, or nothing yet."""
    return None if j > t else "new" if j == t else "kept" if cache else "again"


def kept(state: dict, v: dict) -> dict:
    t, cache = v["t"], v["cache"]
    marks = [column_state(j, t, cache) for j in range(len(TOKENS))]
    said: dict[str | None, Say] = {"kept": W.KEPT, "new": W.NEW, "again": W.AGAIN}

    def tip(i: int, j: int) -> str:
        what = said[marks[j]]() if marks[j] else "—"
        return W.KEPT_TIP.format(kind="kv"[i], j=j, word=quote(TOKENS[j]), what=what)

    return cells("kept", 2, len(TOKENS), text=lambda i, j: said[marks[j]]() if marks[j] else "",
                 tone=lambda i, j: TONES.get(marks[j], 0.0), muted=lambda i, j: marks[j] is None, tip=tip,
                 row_labels=heading(2, text=("K", "V")), col_labels=heading(len(TOKENS), text=TOKENS),
                 key=[(TONES[m], k()) for m, k in zip(TONES, W.KEPT_KEY, strict=True)
                      if m == "new" or (m == "kept") == cache],
                 title=W.KEPT_TITLE.format(t=t), caption=W.KEPT_CAPTION.format(t=t))


def counts(state: dict, v: dict) -> dict:
    shown = [v["step_cached_text"], v["step_full_text"], v["total_cached_text"], v["total_full_text"]]
    return text("counts", W.COUNT_NOTE.format(L=state["layers"], D=v["D"], ratio=num(v["ratio"], 1), t=v["t"]),
                title=W.COUNT_TITLE(), items=[[say(), value] for say, value in zip(W.COUNT_ITEMS, shown, strict=True)])


def memory(state: dict, v: dict) -> dict:
    fill = {"t": v["t"], "N": W.count(v["context"]), "g": v["kv_heads"], "h": state["heads"], "d_k": state["d_k"],
            "L": state["layers"], "b": state["bytes"]}
    shown = [v["cache_text"], v["token_text"], v["context_text"]]
    return text("memory", W.MEMORY_NOTE.format(**fill), title=W.MEMORY_TITLE(),
                items=[[name.format(**fill), value] for name, value in zip(W.MEMORY_ITEMS, shown, strict=True)])
