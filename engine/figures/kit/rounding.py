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

DECIMALS = 5  # the most decimals a value is written with (Value.digits, a cell's arithmetic: 4)


def _kept(x: float, y: float) -> bool:
    """Whether y is written as x is. The candidates are x to ``DECIMALS`` decimals or
    finer (see ``rounded``), so y is on x's side of every coarser rounding's ties: its
    finest writing, its integer part and which way it is written as a percent suffice."""
    return f"{y:.{DECIMALS}f}" == f"{x:.{DECIMALS}f}" and math.trunc(y) == math.trunc(x) and (y < 0.1) == (x < 0.1)


def rounded(value: Any) -> Any:
    """``value`` with each float (in lists and tuples, as lists) given the fewest
    significant digits that keep every way it is written; anything else as it is."""
    if isinstance(value, (list, tuple)):
        return [rounded(v) for v in value]
    if type(value) is not float or value == 0.0 or not math.isfinite(value):
        return value
    quick = round(value, DECIMALS)  # the usual answer (its finest writing is x's), without the loop below
    if quick == value:  # no digit past the finest writing: the loop would give x back (1.215, a score of
        return value  # two-decimal vectors, after trying a candidate a digit for up to 17 digits)
    if quick != 0.0 and math.trunc(quick) == math.trunc(value) and (quick < 0.1) == (value < 0.1):
        text = repr(quick)
        if text[-1] != "5" and "e" not in text:
            return quick
    # fewer digits than reach the last decimal written cannot keep it (unless the digits
    # after are zeros, which "g" drops): start there, with x rounded to that decimal
    first = max(1, math.floor(math.log10(abs(value))) + 1 + DECIMALS)
    for n in range(first, 18):
        text = f"{value:.{n}g}"
        if text.split("e")[0].endswith("5"):
            continue
        candidate = float(text)
        if _kept(value, candidate):
            return candidate
    return value
