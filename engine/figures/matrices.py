"""2 x 2 matrices a reader types or picks, shared by the lab and the two heads; no part
of the public kit, so ``explorables.figures`` exports none of it:

- ``Matrix``: a 2 x 2 matrix declared once, as a ``Param``: its directive option (a
  preset name or "a,b; c,d", rows), the reader's typed cells ``NAME.r.c``, its presets
  (actions ``NAME=key``) and its control (``matrix_control``).
- ``look_back(k)``: the rotation matched to the lessons' position code
  p_t = (sin ωt, cos ωt), ω = 0.6: for row vectors p_t M_k = p_(t−k), so a query made
  with it scores highest the key whose position is k places back (cos ω(i − k − j)).
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass
from typing import Any, ClassVar

from ..locale import t
from ..positional import OMEGA
from .base import FieldError, Option, closest, parse_number
from .kit.events import cell_of
from .kit.geometry import read_rows
from .kit.params import Param, resolve
from .kit.text import Say, field_text, setting, spoken

# --- 2 x 2 matrices -----------------------------------------------------------------------------

MATRIX_LIMIT = 5.0  # a typed matrix entry must lie in [-5, 5]
MATRIX_NAMES = {"W_Q": "Wq", "W_K": "Wk", "W_V": "Wv", "W_O": "Wo"}  # as figure text writes them


def matrix_name(key: str) -> str:
    """A projection matrix as figure text writes it, with no pseudo-TeX: W_Q -> Wq."""
    return MATRIX_NAMES.get(key, key)


def look_back(k: int, digits: int = 3) -> tuple[tuple[float, float], tuple[float, float]]:
    """M_k, the rotation by −ωk that the position code undoes: p_t M_k = p_(t−k) for
    p_t = (sin ωt, cos ωt) as a row vector. Entries rounded to ``digits`` decimals, so a
    reader can read them in a field (p_t M_k is then p_(t−k) to within 10^−digits)."""
    c, s = round(math.cos(OMEGA * k), digits), round(math.sin(OMEGA * k), digits)
    return ((c, s), (-s, c))


@dataclass(frozen=True)
class MatrixPreset:
    """A named 2 x 2 matrix, a button under a matrix control."""

    key: str  # its name in an option ("W_Q: 2I") and in the action "W_Q=2I"
    label: Any  # the button's text (a Say where it is a word)
    matrix: tuple  # (2, 2), rows
    what: str  # what it does to a row vector x -> x W
    only: tuple[str, ...] = ()  # the matrices it is offered for (a button); empty: every one


LOOK_BACK = 1  # the rotation preset makes a query look this many places back
MATRIX_PRESETS = (
    MatrixPreset("I", "I", ((1.0, 0.0), (0.0, 1.0)), "keeps every vector as it is"),
    MatrixPreset("2I", "2I", ((2.0, 0.0), (0.0, 2.0)), "doubles every vector"),
    MatrixPreset("0", "0", ((0.0, 0.0), (0.0, 0.0)), "sends every vector to zero"),
    MatrixPreset("swap", Say("figure.matrix.swap"), ((0.0, 1.0), (1.0, 0.0)), "swaps the two coordinates"),
    MatrixPreset(
        "rotate", Say("figure.matrix.rotate"), ((0.0, 1.0), (-1.0, 0.0)), "turns every vector by 90° anticlockwise"
    ),
    MatrixPreset("axis1", Say("figure.matrix.axis1"), ((1.0, 0.0), (0.0, 0.0)), "keeps the first coordinate only"),
    MatrixPreset(
        "back1",
        Say("figure.matrix.back1"),
        look_back(LOOK_BACK),
        "turns the position code back one step, pₜ → pₜ₋₁: as Wq, every token looks one place back",
        only=("W_Q",),
    ),
)
PRESET_NAMES = tuple(p.key for p in MATRIX_PRESETS)


def preset_matrix(key: str) -> list[list[float]]:
    """The preset ``key`` as a fresh list of rows; ValueError if there is none."""
    for p in MATRIX_PRESETS:
        if p.key == key:
            return [list(row) for row in p.matrix]
    raise ValueError(f"no matrix preset {key!r}")


def preset_of(matrix) -> str | None:
    """The name of the preset equal to ``matrix``, if there is one."""
    rows = [list(map(float, r)) for r in matrix]
    return next((p.key for p in MATRIX_PRESETS if [list(r) for r in p.matrix] == rows), None)


def parse_matrix(text: str) -> list[list[float]]:
    """A 2 x 2 matrix from a preset name ("I", "2I", "swap", ...) or "a,b; c,d" (rows)."""
    raw = str(text).strip()
    expected = f"expected a preset ({', '.join(PRESET_NAMES)}) or two rows of two numbers like '1,0; 0,1', got {raw!r}"
    if raw in PRESET_NAMES:
        return preset_matrix(raw)
    try:
        matrix = read_rows(raw, "matrix", width=2)
    except ValueError:
        matrix = []
    if len(matrix) != 2:
        close = closest(raw, PRESET_NAMES, begun=False)
        raise ValueError(expected + (f" (did you mean {close!r}?)" if close else ""))
    if not all(abs(x) <= MATRIX_LIMIT for row in matrix for x in row):
        raise ValueError(f"matrix entries must be from -{MATRIX_LIMIT:g} to {MATRIX_LIMIT:g}, got {raw!r}")
    return matrix


def parse_cell(name: str, value: Any, label: str) -> float:
    """A typed matrix entry: a finite number in [-MATRIX_LIMIT, MATRIX_LIMIT]; FieldError
    on the field ``name``, in words that use ``label`` ("Wk row 1, column 2")."""
    try:
        x = parse_number(value, label)
    except FieldError as err:
        raise FieldError(name, err.message) from None
    if abs(x) > MATRIX_LIMIT:
        raise FieldError(
            name,
            t(
                "figure.range",
                what=label,
                lo=setting(-MATRIX_LIMIT),
                hi=setting(MATRIX_LIMIT),
                value=str(value).strip(),
            ),
        )
    return x


def matrix_control(
    name: str, label: str, M, *, near: str | None = None, cells: str | None = None, first_row: int = 0, presets=None
) -> dict[str, Any]:
    """A matrix of typed fields: the field of row r, column c is named ``{cells}.{r}.{c}``
    (``cells`` defaults to ``name``; rows count from ``first_row``, for a block of a
    taller matrix). ``presets``: (action name, label, active) triples, buttons under it."""
    out: dict[str, Any] = {"kind": "matrix", "name": name, "label": label}
    if near:
        out["near"] = near
    out["rows"] = [
        [{"name": f"{cells or name}.{first_row + r}.{c}", "value": field_text(x)} for c, x in enumerate(row)]
        for r, row in enumerate(M)
    ]
    if presets is not None:
        out["presets"] = [{"name": n, "label": lab, "active": active} for n, lab, active in presets]
    return out


@dataclass(frozen=True)
class Matrix(Param):
    """A 2 x 2 matrix (row vectors: x -> x W), declared once: the option an author writes
    (a preset name or "a,b; c,d"), the state's rows, the typed cells ``NAME.r.c``
    (``read_cell``), the preset actions ``NAME=key`` and the matrix control."""

    default: Any = "I"  # the option's text
    kind: ClassVar[str] = "matrix"

    def option_spec(self) -> Option:
        return Option(self.name, "str", self.default, self.doc, check=parse_matrix)

    def read(self, value: Any, state: dict) -> list[list[float]]:
        if isinstance(value, (list, tuple)):
            return [
                [parse_cell(self.name, x, self.cell_label(r, c)) for c, x in enumerate(row)]
                for r, row in enumerate(value)
            ]
        try:
            return parse_matrix(value)
        except ValueError as err:
            raise FieldError(self.name, str(err)) from None

    def cell_label(self, r: int, c: int) -> str:
        return t("figure.matrix.cell", matrix=matrix_name(self.name), row=r + 1, column=c + 1)

    def takes(self, state: dict, field: str) -> bool:
        """Whether ``field`` is one of its typed cells, ``NAME.r.c`` (the kit hands it on)."""
        return cell_of(field, self.name, (2, 2)) is not None

    def typed(self, state: dict, field: str, value: Any) -> list[list[float]]:
        """The matrix with the typed cell ``field`` changed (the state is not touched)."""
        r, c = cell_of(field, self.name, (2, 2)) or (0, 0)
        M = copy.deepcopy(state[self.name])
        M[r][c] = parse_cell(field, value, self.cell_label(r, c))
        return M

    def presets(self) -> list[MatrixPreset]:
        return [p for p in MATRIX_PRESETS if not p.only or self.name in p.only]

    def preset_names(self) -> tuple[str, ...]:
        """The presets it offers, each set by the action ``NAME=preset`` (the kit hands it on)."""
        return tuple(p.key for p in self.presets())

    def control_dict(self, state: dict) -> dict[str, Any]:
        current = preset_of(state[self.name])
        return matrix_control(
            self.name,
            resolve(self.label, state),
            state[self.name],
            near=self.near,
            presets=[(f"{self.name}={p.key}", spoken(p.label), p.key == current) for p in self.presets()],
        )
