"""Three kinds of parameter the kit's Slider, Choice and Toggle do not cover, each still
one declaration: option, reader's parser and control together."""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, ClassVar

from explorables.figures import FieldError, Option, Param, Slider, Toggle, field_text, parse_number, shown, typed

from . import words


@dataclass(frozen=True)
class Whole(Slider):
    """A whole-number slider. Its range may follow the state (``hi=lambda s: ...``) while
    the directive option keeps fixed ``bounds``; ``even`` takes even numbers only."""

    integer: bool = True
    bounds: tuple = ()  # the option's (min, max) where lo or hi are functions of the state
    even: bool = False  # even numbers only: the slider steps by 2

    def option_spec(self) -> Option:
        spec = super().option_spec()
        lo, hi = self.bounds or (spec.min, spec.max)
        return replace(spec, min=lo, max=hi, check=self._check_even if self.even else None)

    def _check_even(self, value: int) -> None:
        if value % 2:
            raise ValueError(words.ODD_OPTION.format(lo=self.lo, hi=self.hi, got=value))

    def read(self, value: Any, state: dict) -> int:
        x = super().read(value, state)
        if self.even and x % 2:
            raise FieldError(self.name, words.ODD_FIELD.format(what=self.what, got=x))
        return x

    def control_dict(self, state: dict) -> dict[str, Any]:
        out = super().control_dict(state)
        if self.even:
            out["step"] = 2
        return out


@dataclass(frozen=True)
class NumberMenu(Param):
    """A menu of preset numbers that takes any number from ``lo`` to ``hi`` (typed in a
    field of its own, or sent by a script); a number not among the presets joins the menu."""

    presets: tuple = ()
    lo: float = 0.0
    hi: float = 1.0
    what: Any = ""  # how messages call the number (a Say)

    kind: ClassVar[str] = "select"
    option_kind: ClassVar[str] = "float"

    def option_spec(self) -> Option:
        return Option(self.name, "float", self.default, self.doc, min=self.lo, max=self.hi)

    def read(self, value: Any, state: dict) -> float:
        try:
            x = parse_number(value, self.what, field_text(state.get(self.name, self.default)))  # a base it takes
        except FieldError as err:
            raise FieldError(self.name, err.message) from None
        if not self.lo <= x <= self.hi:
            raise FieldError(self.name, words.OUT_OF_RANGE.format(what=self.what, lo=typed(f"{self.lo:g}"),
                                                                  hi=typed(f"{self.hi:g}"), got=shown(value)))
        return x

    def control_dict(self, state: dict) -> dict[str, Any]:
        x = state[self.name]
        choices = self.presets if x in self.presets else sorted(self.presets + (x,))
        return {**super().control_dict(state), "value": field_text(x),
                "options": [{"value": field_text(c), "label": words.sig(c) if c == int(c) else field_text(c)}
                            for c in choices]}


@dataclass(frozen=True)
class Play(Toggle):
    """Play and Pause: while on, the page sends the action ``tick`` every ``interval`` ms
    (only while the figure is on screen); with reduced motion each press sends one tick."""

    interval: int = 700  # ms between two ticks
    tick: str = "tick"  # the action a tick sends
    option: bool = False

    kind: ClassVar[str] = "play"

    def control_dict(self, state: dict) -> dict[str, Any]:
        out = Param.control_dict(self, state)  # a toggle's "value" is "playing" here
        out.update(playing=bool(state[self.name]), interval=self.interval,
                   event={"type": "action", "name": self.tick})
        return out
