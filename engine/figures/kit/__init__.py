"""The figure kit: what every figure is written with, built-in or an author's.

Public as ``explorables.figures``; see that module for the list. A figure declares its
parameters (``Slider``, ``Field``, ``Toggle``, ``Choice``, ``Hidden``; ``NumberChoice``, ``Play``
and ``Rows``, which own fields and actions of their own), its named ``Value``s and its
``Experiment``s, computes its numbers with the engine and draws its panels with the
scene builders (``plane``, ``points``, ``arrows``, ``bars``, ``cells``, ...).
"""

from ..base import FieldError, Option, OptionError, OptionErrors, parse_number
from .controls import grid
from .events import cell_of, held, raise_all, unselectable
from .experiments import HINT, REVEAL, Experiment
from .fields import NumberChoice, Play, Rows
from .figure import Figure
from .geometry import Vector, read_rows, read_vector, rows_checker
from .inputs import EDGE, best, extent, query_field, resolve_query, words
from .marks import (
    arrows,
    bars,
    cells,
    channel,
    chart,
    circles,
    element_id,
    heading,
    labels,
    line,
    lines,
    plane,
    points,
    polygon,
    series,
    steps,
    text,
)
from .params import Choice, Field, Hidden, Param, Slider, Toggle
from .text import (
    MINUS,
    Say,
    Words,
    clip,
    field_text,
    formula,
    num,
    number_format,
    pct,
    quote,
    setting,
    shown,
    spoken,
    sub,
    t,
    typed,
    vec,
)
from .values import FORMATS, Value, value_table

__all__ = [
    "EDGE",
    "FORMATS",
    "HINT",
    "MINUS",
    "REVEAL",
    "Choice",
    "Experiment",
    "Field",
    "FieldError",
    "Figure",
    "Hidden",
    "NumberChoice",
    "Option",
    "OptionError",
    "OptionErrors",
    "Param",
    "Play",
    "Rows",
    "Say",
    "Slider",
    "Toggle",
    "Value",
    "Vector",
    "Words",
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
    "extent",
    "field_text",
    "formula",
    "grid",
    "heading",
    "held",
    "labels",
    "line",
    "lines",
    "num",
    "number_format",
    "parse_number",
    "pct",
    "plane",
    "points",
    "polygon",
    "query_field",
    "quote",
    "raise_all",
    "read_rows",
    "read_vector",
    "resolve_query",
    "rows_checker",
    "series",
    "setting",
    "shown",
    "spoken",
    "steps",
    "sub",
    "t",
    "text",
    "typed",
    "unselectable",
    "value_table",
    "vec",
    "words",
]
