"""Fields a parameter owns besides its own control: the entries of ``Rows`` (a grid of
typed numbers, ``key.3.1``), a ``NumberChoice``'s typed field (``base_text``), a matrix's
typed cells and preset buttons (``W_Q.0.1``, ``W_Q=2I``), and the next step of a ``Play``.

    Rows("k", "Keys", [], cells="key", columns=("x", "y"), limit=10, near="keys",
         entry=lambda s, i, c: f"{'xy'[c]} of {s['tokens'][i]}", then=lambda s, i: s.update(selected=i))

A ``set`` whose name no parameter has goes to the parameter that ``takes`` it; an action
``NAME=key`` to the parameter ``NAME`` that has the preset ``key``. Either way the value is
read as the parameter reads a reader's value and ``changed`` runs, so a figure writes no
``on_set`` or ``on_action`` for them.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from ...locale import t
from ..base import FieldError, Option, Text, parse_number
from .controls import grid
from .events import cell_of
from .geometry import read_rows
from .params import Hidden, Param, Slider, Toggle, resolve
from .text import field_text, setting, shown, spoken


@dataclass(frozen=True)
class Rows(Hidden):
    """Rows of numbers in the state, a row a thing (a token's key: its x and y), that the
    reader types entry by entry: the field ``{cells}.{i}.{c}`` is entry c of row i, a number
    from ``-limit`` to ``limit``. A refused entry comes back on its field, with the words
    ``entry(state, i, c)`` gives; a valid one is stored, the parameter's ``step`` lit,
    ``then(state, i)`` run (the row it picks) and ``changed`` called with the name.
    ``grid(state)`` is the usual control: a row a thing, labelled by ``state[labels]``."""

    cells: str = ""  # the fields' prefix: "key" for key.3.1 (default: the name)
    limit: float = 10.0  # every entry lies from -limit to limit
    entry: Callable[[dict, int, int], Text] | None = None  # how messages name entry (i, c)
    then: Callable[[dict, int], Any] | None = None  # what a valid entry of row i changes besides
    columns: tuple = ()  # the grid's column labels ("x", "y")
    labels: str = "tokens"  # the state key whose items label the grid's rows

    kind: ClassVar[str] = "rows"

    def read(self, value: Any, state: dict) -> list[list[float]]:
        try:
            rows = read_rows(value, self.name, limit=self.limit) if isinstance(value, str) else value
            return [[float(x) for x in row] for row in rows]
        except (TypeError, ValueError) as err:
            raise FieldError(self.name, str(err)) from None

    def cell(self, state: dict, field: str) -> tuple[int, ...] | None:
        rows = state.get(self.name) or [[]]
        return cell_of(field, self.cells or self.name, (len(rows), len(rows[0])))

    def takes(self, state: dict, field: str) -> bool:
        return self.cell(state, field) is not None

    def typed(self, state: dict, field: str, value: Any) -> list[list[float]]:
        i, c = self.cell(state, field) or (0, 0)
        what = spoken(self.entry(state, i, c)) if self.entry else f"{self.name}[{i}][{c}]"
        rows = copy.deepcopy(state[self.name])
        rows[i][c] = Slider(field, what, 0.0, lo=-self.limit, hi=self.limit).read(value, state)
        return rows

    def after(self, state: dict, field: str) -> dict:
        cell = self.cell(state, field)
        if self.then is not None and cell is not None:
            self.then(state, cell[0])
        return state

    def grid(self, state: dict, name: str | None = None) -> dict[str, Any]:
        """The grid of typed entries, a row a thing, named ``name`` (default: the parameter's)."""
        prefix, rows = self.cells or self.name, state[self.name]
        cells = [
            (word, f"t{i}", [(f"{prefix}.{i}.{c}", x) for c, x in enumerate(rows[i])])
            for i, word in enumerate(state[self.labels])
        ]
        return grid(name or self.name, resolve(self.label, state), self.columns, cells, near=self.near)


@dataclass(frozen=True)
class NumberChoice(Param):
    """A menu of preset numbers that takes any number from ``lo`` to ``hi`` too (typed in a
    field of its own, or sent by a script); a number not among the presets joins the menu.
    ``show`` writes a preset's label (default: as a field shows it)."""

    presets: tuple = ()
    lo: float = 0.0
    hi: float = 1.0
    what: Text = ""  # how messages call the number
    show: Callable[[float], str] | None = None
    field: Text = ""  # the label of a field beside the menu, NAME_text, that takes any number in range
    field_help: Any = ""  # a sentence under that field: a Say, its {lo} and {hi} filled in

    kind: ClassVar[str] = "select"
    option_kind: ClassVar[str] = "float"

    def controls(self, state: dict) -> list[dict[str, Any]]:
        if not self.field:
            return [self.control_dict(state)]
        lo, hi = setting(self.lo), setting(self.hi)
        field = {"kind": "number", "name": f"{self.name}_text", "label": spoken(self.field)}
        field.update({"help": self.field_help.format(lo=lo, hi=hi)} if self.field_help else {})
        field.update({"near": self.near} if self.near else {})
        return [self.control_dict(state), {**field, "value": field_text(state[self.name])}]

    def takes(self, state: dict, field: str) -> bool:
        return bool(self.field) and field == f"{self.name}_text"

    def typed(self, state: dict, field: str, value: Any) -> Any:
        return replace(self, name=field).read(value, state)

    def option_spec(self) -> Option:
        return Option(self.name, "float", self.default, self.doc, min=self.lo, max=self.hi)

    def read(self, value: Any, state: dict) -> float:
        what = spoken(self.what) or self.name
        try:
            x = parse_number(value, what, field_text(state.get(self.name, self.default)))  # a number it takes
        except FieldError as err:
            raise FieldError(self.name, err.message) from None
        if not self.lo <= x <= self.hi:
            raise FieldError(
                self.name,
                t("figure.range", what=what, lo=setting(self.lo), hi=setting(self.hi), value=shown(value)),
            )
        return x

    def control_dict(self, state: dict) -> dict[str, Any]:
        x = state[self.name]
        choices = self.presets if x in self.presets else sorted((*self.presets, x))
        return {
            **super().control_dict(state),
            "value": field_text(x),
            "options": [{"value": field_text(c), "label": (self.show or field_text)(c)} for c in choices],
        }


@dataclass(frozen=True)
class Play(Toggle):
    """Play and Pause: while on, the page sends the action ``tick`` every ``interval`` ms
    (only while the figure is on screen); with reduced motion each press sends one tick.
    The figure's ``on_tick(state)`` takes the tick (``on_action`` hands it on); with
    ``steps="t"`` and no ``on_tick``, each tick moves the slider ``t`` on by one."""

    interval: int = 700  # ms between two ticks
    tick: str = "tick"  # the action a tick sends
    steps: str = ""  # a whole-number slider each tick moves on by one (after its highest: its lowest)
    option: bool = False

    kind: ClassVar[str] = "play"

    def control_dict(self, state: dict) -> dict[str, Any]:
        out = Param.control_dict(self, state)  # a toggle's "value" is "playing" here
        out.update(playing=bool(state[self.name]), interval=self.interval, event={"type": "action", "name": self.tick})
        return out


def own_field(figure: Any, state: dict, name: str, value: Any) -> dict:
    """A ``set`` of a name no parameter has: the parameter that ``takes`` it reads it."""
    owner = next((p for p in figure.params if p.takes(state, name)), None)
    if owner is None:
        raise FieldError(name, f"{figure.name} has no control named {name!r}")
    state = figure.set_param(state, owner.name, owner.typed(state, name, value))
    return owner.after(state, name)


def own_action(figure: Any, state: dict, name: str) -> dict:
    """An action no experiment has: a ``Play``'s tick (``on_tick``), or ``NAME=key``, the
    preset ``key`` of the parameter ``NAME`` (read as if typed)."""
    ticks = [p.tick for p in figure.params if isinstance(p, Play)]
    if name in ticks:
        return figure.returned("on_tick", figure.on_tick(state))
    target, _, key = name.partition("=")
    owner = figure.param(target)
    presets = owner.preset_names() if owner is not None else ()
    if presets and key:
        if key not in presets:
            raise ValueError(f"{figure.name} has no preset {key!r} for {target}")
        return figure.set_param(state, target, key)
    own = next((f"a preset like '{p.name}={p.preset_names()[0]}'" for p in figure.params if p.preset_names()), "")
    known = ", ".join(filter(None, [*ticks, "reset", own, *(e.name for e in figure.experiments)]))
    raise ValueError(f"{figure.name} has no action {name!r} (known: {known})")


def next_step(figure: Any, state: dict) -> dict:
    """A tick of a ``Play`` that ``steps`` a whole-number slider: its next value, back to
    its lowest after its highest."""
    play = next((p for p in figure.params if isinstance(p, Play) and p.steps), None)
    if play is None:
        raise ValueError(f"{figure.name} has a Play parameter but no on_tick(state) to take its ticks: write one")
    slider = figure.declared(play.steps)
    lo, hi = resolve(slider.lo, state), resolve(slider.hi, state)
    state[slider.name] = lo if state[slider.name] >= hi else state[slider.name] + 1
    return state
