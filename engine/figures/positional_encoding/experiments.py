"""The "Try this" experiments: each sets the controls (from the first settings) and
writes a message whose numbers the engine computes for the state it made."""

from __future__ import annotations

import math

from explorables.engine import frequencies, pe_similarity
from explorables.figures import Experiment, Say, field_text, num

from . import words
from .maths import period, similarity
from .words import sig

COMPARE_D, COMPARE_K = 32, 8  # the base comparison: D = 32, offset 8
SHIFT_T = 30  # "move t" moves the position to this
FAST_SLOW_D = 16
FEW_D, FEW_BASE = 4, 100.0


def compare_message(state: dict) -> str:
    b = state["base"]
    other = 100.0 if b == 10000.0 else 10000.0
    step = sig(math.degrees(frequencies(COMPARE_D, b)[-1]))  # the slowest clock
    text = words.COMPARE.format(
        D=COMPARE_D,
        b=field_text(b),
        k=COMPARE_K,
        other=field_text(other),
        here=num(pe_similarity(COMPARE_K, COMPARE_D, b)),
        there=num(pe_similarity(COMPARE_K, COMPARE_D, other)),
    )
    then = words.COMPARE_SMALL if b < other else words.COMPARE_LARGE
    return text + then.format(step=step, other=field_text(other))


def fast_slow_message(state: dict) -> str:
    thetas = frequencies(FAST_SLOW_D, 10000.0)
    fast, slow = thetas[0], thetas[-1]
    return words.FAST_SLOW.format(
        r0=sig(fast),
        d0=sig(math.degrees(fast)),
        p0=sig(period(fast)),
        last=len(thetas) - 1,
        r1=sig(slow),
        d1=sig(math.degrees(slow)),
        p1=sig(period(slow)),
        ratio=sig(thetas[0] / thetas[1]),
    )


def shift_message(state: dict) -> str:
    k, D, b = state["offset"], state["dim"], state["base"]
    return words.SHIFT.format(
        t=SHIFT_T,
        k=k,
        tk=SHIFT_T + k,
        half=D // 2,
        at_0=num(similarity(0, k, D, b), 4),
        at_t=num(similarity(SHIFT_T, SHIFT_T + k, D, b), 4),
    )


def few_message(state: dict) -> str:
    curve = [pe_similarity(s, FEW_D, FEW_BASE) for s in range(state["positions"] + 1)]
    far = range(1, len(curve))
    low, high = min(far, key=curve.__getitem__), max(far, key=curve.__getitem__)
    return words.FEW.format(
        n=FEW_D // 2,
        D=FEW_D,
        b=field_text(FEW_BASE),
        low=low,
        at_low=num(curve[low]),
        high=high,
        at_high=num(curve[high]),
    )


def compare(base: float) -> dict:
    return {"t": 0, "dim": COMPARE_D, "offset": COMPARE_K, "base": base}


EXPERIMENTS = (
    Experiment(
        "base-10000", Say(words.X_BASE[0].key, b=10000), words.X_BASE[1], set=compare(10000.0), see=compare_message
    ),
    Experiment("base-100", Say(words.X_BASE[0].key, b=100), words.X_BASE[2], set=compare(100.0), see=compare_message),
    Experiment(
        "fast-slow",
        *words.X_FAST_SLOW,
        set={"t": 1, "dim": FAST_SLOW_D, "base": 10000.0, "offset": 1},
        see=fast_slow_message,
    ),
    Experiment(
        "shift",
        Say(words.X_SHIFT[0].key, t=SHIFT_T),
        words.X_SHIFT[1],
        set={"t": SHIFT_T, "dim": COMPARE_D, "base": 10000.0, "offset": COMPARE_K},
        see=shift_message,
        when=lambda state: state["positions"] >= SHIFT_T,
        needs=Say(words.X_SHIFT[2].key, t=SHIFT_T),
    ),
    Experiment(
        "few",
        Say(words.X_FEW[0].key, n=FEW_D // 2),
        words.X_FEW[1],
        set={"t": 0, "dim": FEW_D, "base": FEW_BASE, "offset": COMPARE_K},
        see=few_message,
    ),
)
