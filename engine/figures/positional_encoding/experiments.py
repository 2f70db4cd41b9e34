"""The "Try this" experiments: each sets the controls (from the first settings) and
writes a message whose numbers the engine computes for the state it made."""

import math

from explorables.engine import frequencies, pe_similarity
from explorables.figures import Experiment, field_text, num

from . import words as W
from .maths import period, similarities
from .words import sig

COMPARE_D, COMPARE_K = 32, 8  # the base comparison: D = 32, offset 8
SHIFT_T = 30  # "move t" moves the position to this
FAST_SLOW_D = 16
FEW_D, FEW_BASE = 4, 100.0


def compare_message(state: dict) -> str:
    b = state["base"]
    other = 100.0 if b == 10000.0 else 10000.0
    here, there = (num(pe_similarity(COMPARE_K, COMPARE_D, base)) for base in (b, other))
    text = W.COMPARE.format(D=COMPARE_D, b=field_text(b), k=COMPARE_K, other=field_text(other), here=here, there=there)
    step = sig(math.degrees(frequencies(COMPARE_D, b)[-1]))  # the slowest clock
    return text + (W.COMPARE_SMALL if b < other else W.COMPARE_LARGE).format(step=step, other=field_text(other))


def clock(theta: float, i: int) -> dict[str, str]:
    """How clock i turns: radians (r0), degrees (d0) and positions per turn (p0) a step."""
    return {f"r{i}": sig(theta), f"d{i}": sig(math.degrees(theta)), f"p{i}": sig(period(theta))}


def fast_slow_message(state: dict) -> str:
    thetas = frequencies(FAST_SLOW_D, 10000.0)
    ratio = sig(thetas[0] / thetas[1])
    return W.FAST_SLOW.format(last=len(thetas) - 1, ratio=ratio, **clock(thetas[0], 0), **clock(thetas[-1], 1))


def shift_message(state: dict) -> str:
    k, D, b, t = state["offset"], state["dim"], state["base"], SHIFT_T
    at_0, at_t = (num(similarities(start, [start + k], D, b)[0], 4) for start in (0, t))
    return W.SHIFT.format(t=t, k=k, tk=t + k, half=D // 2, at_0=at_0, at_t=at_t)


def few_message(state: dict) -> str:
    curve = [pe_similarity(s, FEW_D, FEW_BASE) for s in range(state["positions"] + 1)]
    far = range(1, len(curve))
    low, high = min(far, key=curve.__getitem__), max(far, key=curve.__getitem__)
    ends = {"low": low, "at_low": num(curve[low]), "high": high, "at_high": num(curve[high])}
    return W.FEW.format(n=FEW_D // 2, D=FEW_D, b=field_text(FEW_BASE), **ends)


def settings(base: float, t: int = 0, dim: int = COMPARE_D, offset: int = COMPARE_K) -> dict:
    """The controls an experiment sets; by default those of the base comparison (t = 0, D = 32, k = 8)."""
    return {"t": t, "dim": dim, "base": base, "offset": offset}


EXPERIMENTS = (
    Experiment("base-10000", W.say("x_base", b=10000), W.say("x_base_title"), settings(10000.0), see=compare_message),
    Experiment("base-100", W.say("x_base", b=100), W.say("x_base_small_title"), settings(100.0), see=compare_message),
    Experiment("fast-slow", *W.say.button("x_fast_slow"), settings(10000.0, 1, FAST_SLOW_D, 1), see=fast_slow_message),
    Experiment(
        "shift",
        *W.say.button("x_shift", t=SHIFT_T),
        settings(10000.0, t=SHIFT_T),
        see=shift_message,
        when=lambda state: state["positions"] >= SHIFT_T,
        needs=W.say("x_shift_needs", t=SHIFT_T),
    ),
    Experiment("few", *W.say.button("x_few", n=FEW_D // 2), settings(FEW_BASE, dim=FEW_D), see=few_message),
)
