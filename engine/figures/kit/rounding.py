"""Numbers with no more digits than their written forms need.

A figure's named values reach the page in its scene (and in its first frame, in the
HTML) as JSON, where 0.028383566604682636 takes twenty bytes. The page only ever writes
a value through ``engine/numbers.py`` (or its twin, static/js/numbers.js): as a percent,
with 0 to ``DECIMALS`` decimals, or cut to its integer part. ``rounded(x)`` is the float
with the fewest significant digits whose every such writing is x's (0.02838 here), so a
table of weights is about a third of the bytes and no reader sees a different digit.

A candidate whose last digit is 5 is skipped: it is a tie for one of its roundings,
where the twin writers may part (0.0125 to three decimals), while x was not.
"""

from __future__ import annotations

import math
from typing import Any

from ...numbers import fixed, percent

DECIMALS = 5  # the most decimals a value is written with (Value.digits, a cell's arithmetic: 4)


def _writings(x: float) -> tuple:
    return (percent(x), math.trunc(x), *(fixed(x, d) for d in range(DECIMALS + 1)))


def rounded(value: Any) -> Any:
    """``value`` with each float (in lists and tuples, as lists) given the fewest
    significant digits that keep every way it is written; anything else as it is."""
    if isinstance(value, (list, tuple)):
        return [rounded(v) for v in value]
    if not isinstance(value, float) or not math.isfinite(value):
        return value
    target = _writings(value)
    for n in range(1, 17):
        text = f"{value:.{n}g}"
        if text.split("e")[0].endswith("5"):
            continue
        candidate = float(text)
        if _writings(candidate) == target:
            return candidate
    return value
