"""The public figure kit: ``from explorables.figures import ...``.

Built-in figures and authors' figures use this module and nothing else of the figure
layer. A figure module defines a ``Figure`` subclass and registers it::

    from explorables.engine import softmax
    from explorables.figures import Figure, Slider, Value, bars, pct, register

    @register
    class Softmax3(Figure):
        name = "softmax-3"
        ...

An exercise type is written the same way: a subclass of ``Exercise`` with a ``name``,
registered with ``@register``; its statement is written with ``mathml``, ``eq``, ``mi``,
``mn``, ``mo``, ``mvec``, ``mmatrix``, ``plain`` and ``said`` (a catalogue's words with
formulas in their fields, each formula kept on the line of its punctuation); each known
mistake is a ``Mistake``.

See the author guide (docs/) for a walk through a whole figure and an exercise type, and
``explorables figures NAME`` for any figure's parameters, values and experiments.
"""

import warnings

from .engine.exercises import Exercise, Mistake, eq, mathml, mi, mmatrix, mn, mo, mvec, plain, random_vector, said
from .engine.figures import FIGURES, register
from .engine.figures.kit import (
    EDGE,
    FORMATS,
    HINT,
    MINUS,
    REVEAL,
    Choice,
    Experiment,
    Field,
    FieldError,
    Figure,
    Hidden,
    NumberChoice,
    Option,
    OptionError,
    OptionErrors,
    Param,
    Play,
    Say,
    Slider,
    Toggle,
    Value,
    Vector,
    arrows,
    bars,
    best,
    cell_of,
    cells,
    channel,
    chart,
    circles,
    clip,
    element_id,
    extent,
    field_text,
    formula,
    heading,
    held,
    labels,
    line,
    lines,
    mark_ref,
    num,
    number_format,
    parse_number,
    pct,
    plane,
    points,
    polygon,
    query_field,
    quote,
    raise_all,
    read_rows,
    read_vector,
    resolve_query,
    rows_checker,
    series,
    shown,
    spoken,
    steps,
    t,
    text,
    typed,
    unselectable,
    vec,
    words,
)

# Every name of the kit and of the exercises' public part, spelt out so that a linter and a type
# checker see the re-exports (tests/test_kit.py checks that it matches the kit's own __all__).
__all__ = [
    "EDGE",
    "FIGURES",
    "FORMATS",
    "HINT",
    "MINUS",
    "REVEAL",
    "Choice",
    "Exercise",
    "Experiment",
    "Field",
    "FieldError",
    "Figure",
    "Hidden",
    "Mistake",
    "NumberChoice",
    "Option",
    "OptionError",
    "OptionErrors",
    "Param",
    "Play",
    "Say",
    "Slider",
    "Toggle",
    "Value",
    "Vector",
    "arrows",
    "bars",
    "best",
    "cell_of",
    "cells",
    "channel",
    "chart",
    "circles",
    "clip",
    "element_id",
    "eq",
    "extent",
    "field_text",
    "formula",
    "heading",
    "held",
    "labels",
    "line",
    "lines",
    "mark_ref",
    "mathml",
    "mi",
    "mmatrix",
    "mn",
    "mo",
    "mvec",
    "num",
    "number_format",
    "parse_number",
    "pct",
    "plain",
    "plane",
    "points",
    "polygon",
    "query_field",
    "quote",
    "raise_all",
    "random_vector",
    "read_rows",
    "read_vector",
    "register",
    "resolve_query",
    "rows_checker",
    "said",
    "series",
    "shown",
    "spoken",
    "steps",
    "t",
    "text",
    "typed",
    "unselectable",
    "vec",
    "words",
]

# Renamed names of the kit: old name -> new name. An old name keeps working for one minor
# version, with a DeprecationWarning that names the new spelling (see CHANGELOG.md).
RENAMED: dict[str, str] = {}


def __getattr__(name: str):
    if name in RENAMED:
        warnings.warn(
            f"explorables.figures.{name} is now called {RENAMED[name]}; use the new name (the old "
            f"one stops working in the next minor version)",
            DeprecationWarning,
            stacklevel=2,
        )
        return globals()[RENAMED[name]]
    raise AttributeError(f"module 'explorables.figures' has no attribute {name!r}")


from .engine.figures import _load_all as _load_figures  # noqa: E402

_load_figures()  # the built-in figures import this module: load them once it is complete
