"""The panels beside the clocks and the vector PE(t) (clocks.py): the similarity chart, the
read-out and the sum, built from the numbers ``maths.numbers`` made (no maths here)."""

import math

from explorables.figures import chart, field_text, labels, line, num, points, series, text

from . import words as W
from .maths import period
from .words import sig, signed


def similarity_chart(state: dict, v: dict) -> dict:
    t, s, at_k, last = v["t"], v["s"], v["similarity_at_offset"], state["positions"]
    k, sim = signed(s - t), num(at_k)
    label, name = W.PROBE.format(k=k, sim=sim), W.PROBE_NAME.format(s=s, k=k, sim=sim)
    probe = [
        line([(s, -1.0), (s, at_k)], role="key", dotted=True, width=1),
        points(
            None, [(s, at_k)], id="probe", role="key", shape="diamond", size=6, draggable=True, label=label, name=name
        ),
    ]
    return chart(
        "similarity",
        line([(t, -1.0), (t, 1.0)], role="query", dashed=True, width=1),
        labels([(t, -0.9)], W.T_MARK.format(t=t), size=11, role="query", align="right" if t > last * 7 / 8 else "left"),
        probe if 0 <= s <= last else None,
        x=[0.0, float(last)],
        y=[-1.0, 1.2],
        series=[series(v["fine"], "accent")],
        wide=True,
        title=W.CHART_TITLE.format(t=t),
        caption=W.CHART_CAPTION,
        x_label=W.X_LABEL(),
        y_label=W.Y_LABEL(),
        ratio=0.6,
        grid=0,
        keyboard={"step": 1, "big": 4},
        ticks={"x": list(range(0, last + 1, 8 if last <= 96 else 32)), "y": [-1, 0, 1]},
    )


def readout(v: dict) -> dict:
    t, s, k, D, thetas, sim = v["t"], v["s"], v["offset"], v["D"], v["thetas"], v["similarity_at_offset"]
    periods = {"fast": sig(period(thetas[0])), "slow": sig(period(thetas[-1])), "last": len(thetas) - 1}
    fill = {"t": t, "s": s, "k": k, "sim": num(sim), "half": D // 2, **periods}
    shown = [str(t), str(k), W.CLOCKS_OF.format(D=D, half=D // 2), field_text(v["base"]), num(sim, 3)]
    items = [[name.format(**fill), value] for name, value in zip(W.READOUT_ITEMS, shown, strict=True)]
    return text("readout", *(p.format(**fill) for p in W.READOUT), title=W.READOUT_TITLE, items=items)


def terms(v: dict) -> dict:
    k, D, thetas, sim = v["offset"], v["D"], v["thetas"], num(v["similarity_at_offset"], 4)
    rows = [
        W.SUM_TERM.format(i=i, theta=sig(theta), angle=num(theta * k, 4), term=num(c, 4))
        for i, (theta, c) in enumerate(zip(thetas, v["terms"], strict=True))
    ]
    tail = W.SUM_TAIL.format(total=num(math.fsum(v["terms"]), 4), half=D // 2, sim=sim)
    return text("sum", W.SUM_HEAD.format(k=k), *rows, tail, collapsible=W.SUM_FOLD.format(k=k), mono=True)


def status(v: dict) -> str:
    """The status line: the position, the code and the similarity read out."""
    return W.STATUS.format(t=v["t"], D=v["D"], b=field_text(v["base"]), s=v["s"], sim=num(v["similarity_at_offset"]))
