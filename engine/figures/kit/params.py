"""Parameters: a control declared once.

One ``Param`` gives the figure four things that used to be written apart: the directive
option an author writes (type, range, default, docstring), the parser for what a reader
sends (``read``), the control drawn in the scene (``control``), and the formula step it
highlights when it changes (``step``).

    Slider("temperature", "Temperature T", 1.0, lo=0.05, hi=20, log=True,
           doc="T: the scores are divided by T before the softmax.", step=4)
    Field("base", "Base b", 10000.0, lo=2, hi=100000, doc="The base of the clocks.")

Any of ``lo``, ``hi``, ``choices``, ``label`` and ``help`` may be a function of the
state instead of a constant, for controls whose range follows the figure (a position
slider that ends at the last token).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from ...locale import t
from ..base import FieldError, Option, Text, parse_number
from .text import Say, field_text, setting, shown, spoken


class DeclarationError(ValueError):
    """A parameter declared so that no figure could use it (a range upside down, choices
    that are not pairs), raised where the figure's class declares it: the build reports
    it at that line with ``fix``, how to write it instead."""

    def __init__(self, message: str, fix: str):
        super().__init__(message)
        self.fix = fix


ODD = "figure.positional_encoding.odd_field"  # "{what} must be even": generic words, filed where first needed


def _constant_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def resolve(attr: Any, state: dict | None) -> Any:
    """A constant, or a function of the state evaluated on it."""
    return attr(state) if callable(attr) and state is not None else attr


@dataclass(frozen=True)
class Param:
    """Base of every parameter. Subclasses set ``kind`` and implement read and control."""

    name: str  # the state key, the option name, the control name
    label: Text | Callable[[dict], Text]  # the control's label (or a function of the state)
    default: Any  # the value when the author writes no option
    doc: str = ""  # the option's docstring (explorables figures, the guide)
    help: Any = ""  # one sentence under the control (or a function of the state)
    near: str | None = None  # the panel the control sits under on a narrow screen
    step: int | None = None  # the formula step highlighted when the reader changes it
    option: bool = True  # an author may set it in the directive
    control: bool = True  # drawn as a control for the reader
    renamed_from: str = ""  # the option's old name, still read (with a DeprecationWarning) for one minor version

    kind: ClassVar[str] = ""
    option_kind: ClassVar[str] = "str"

    def option_spec(self) -> Option:
        return Option(self.name, self.option_kind, self.default, self.doc)

    def read(self, value: Any, state: dict) -> Any:
        raise NotImplementedError

    def control_dict(self, state: dict) -> dict[str, Any]:
        out = {"kind": self.kind, "name": self.name, "label": resolve(self.label, state)}  # a Say is callable
        help_text = resolve(self.help, state)
        if help_text:
            out["help"] = help_text
        if self.near:
            out["near"] = self.near
        return out

    def controls(self, state: dict) -> list[dict[str, Any]]:
        """The controls drawn for it: its own, and any field of its own beside it."""
        return [self.control_dict(state)]

    def takes(self, state: dict, field: str) -> bool:
        """Whether ``field``, a name no parameter has, is a field of this one's (kit/fields.py)."""
        return False

    def typed(self, state: dict, field: str, value: Any) -> Any:
        """Its next value, from what the reader typed in its field ``field``."""
        raise FieldError(field, f"{self.name} has no field {field!r}")

    def after(self, state: dict, field: str) -> dict:
        """What a value typed in ``field`` changes besides the parameter's own value."""
        return state

    def preset_names(self) -> tuple[str, ...]:
        """Its presets, each set by the action ``NAME=preset`` (none by default)."""
        return ()

    def manifest(self) -> dict[str, Any]:
        spec = self.option_spec()
        label = spoken(self.label) if isinstance(self.label, (str, Say)) else ""
        return {
            "name": self.name,
            "kind": self.kind,
            "label": label,
            "default": self.default,
            "expected": spec.expected(),
            "doc": self.doc,
            "option": self.option,
            "control": self.control,
        }


@dataclass(frozen=True)
class Slider(Param):
    """A number from ``lo`` to ``hi`` (a slider; typed text is read too)."""

    lo: Any = 0.0  # inclusive lower bound (or a function of the state)
    hi: Any = 1.0  # inclusive upper bound
    by: float = 0.1  # the slider's step (with integer=True: a whole step of 1 or more, counted from lo)
    digits: int = 2  # decimals shown beside the slider
    log: bool = False  # the thumb moves along log(value)
    integer: bool = False  # whole numbers only
    what: Text = ""  # how messages call the number (default: the label)
    even: bool = False  # even whole numbers only: the slider steps by 2
    bounds: tuple = ()  # the option's (min, max) where lo or hi are functions of the state

    kind: ClassVar[str] = "slider"
    # a log range is crossed in this many steps (the thumb's step, and a prose number's
    # arrow key: static/js/core.js ex.range reads it from the control)
    log_steps: ClassVar[int] = 200
    open_ended: ClassVar[bool] = False  # whether lo and hi may be infinite (no thumb to place)

    def __post_init__(self) -> None:
        kind = type(self).__name__
        for end in ("lo", "hi"):
            value = getattr(self, end)
            finite = _constant_number(value) and (math.isfinite(value) or (self.open_ended and not math.isnan(value)))
            if not (callable(value) or finite):
                raise DeclarationError(
                    f"{kind} {self.name!r}: {end} is {value!r}, not a number",
                    f"give {end} a finite number, or a function of the state "
                    f'(e.g. {end}=lambda s: len(s["tokens"]) - 1)',
                )
        if _constant_number(self.lo) and _constant_number(self.hi) and self.lo > self.hi:
            raise DeclarationError(
                f"{kind} {self.name!r}: its range is upside down, lo={self.lo!r} is above hi={self.hi!r}",
                f"swap them: lo={self.hi!r}, hi={self.lo!r}",
            )
        if self.log and _constant_number(self.lo) and self.lo <= 0:
            raise DeclarationError(
                f"{kind} {self.name!r}: log=True needs lo above 0, got lo={self.lo!r}",
                "give lo a number above 0 (the thumb moves along log(value)), or drop log=True",
            )

    @property
    def option_kind(self) -> str:  # type: ignore[override]
        return "int" if self.integer else "float"

    def option_spec(self) -> Option:
        lo = self.lo if not callable(self.lo) and math.isfinite(self.lo) else None  # an open end: no bound
        hi = self.hi if not callable(self.hi) and math.isfinite(self.hi) else None
        lo, hi = self.bounds or (lo, hi)
        return Option(
            self.name,
            self.option_kind,
            self.default,
            self.doc,
            min=lo,
            max=hi,
            check=self._check_step if self.integer and self.whole_step() > 1 else None,
        )

    def _check_step(self, value: int) -> None:
        if self.even and value % 2:
            raise ValueError(f"expected an even integer from {self.lo} to {self.hi}, got {value}")
        step, lo = self.whole_step(), self.lo if not callable(self.lo) else 0
        if not self.even and (value - lo) % step:
            raise ValueError(
                f"expected an integer from {self.lo} to {self.hi} in steps of {step} from {lo}, got {value}"
            )

    def read(self, value: Any, state: dict) -> Any:
        what = spoken(self.what) or (spoken(self.label) if isinstance(self.label, (str, Say)) else self.name)
        try:
            x = parse_number(value, what, field_text(state[self.name]) if self.name in state else "0.5")
        except FieldError as err:
            raise FieldError(self.name, err.message) from None
        lo, hi = resolve(self.lo, state), resolve(self.hi, state)
        if self.integer:
            if x != int(x) or not lo <= x <= hi:
                raise FieldError(
                    self.name,
                    t("figure.whole_range", what=what, lo=setting(lo), hi=setting(hi), value=shown(value)),
                )
            if self.even and x % 2:
                raise FieldError(self.name, t(ODD, what=what, got=int(x)))
            step = self.whole_step()
            if step > 1 and (x - lo) % step:
                raise FieldError(
                    self.name, t("figure.whole_step", what=what, step=step, lo=setting(lo), value=shown(value))
                )
            return int(x)
        if not lo <= x <= hi:
            raise FieldError(
                self.name, t("figure.range", what=what, lo=setting(lo), hi=setting(hi), value=field_text(x))
            )
        return x

    def whole_step(self) -> int:
        """A whole-number slider's step: 2 for even numbers, ``by`` where it is a whole
        number above 1 (``Slider("n", "n", 8, lo=0, hi=64, integer=True, by=8)``), else 1."""
        if self.even:
            return 2
        return int(self.by) if self.by >= 1 and float(self.by).is_integer() else 1

    def control_dict(self, state: dict) -> dict[str, Any]:
        out = super().control_dict(state)
        step = self.whole_step() if self.integer else self.by
        out.update(
            min=resolve(self.lo, state),
            max=resolve(self.hi, state),
            step=step,
            value=state[self.name],
            digits=0 if self.integer else self.digits,
        )
        if self.log:
            out.update(log=True, log_steps=self.log_steps)
        return out


@dataclass(frozen=True)
class Field(Slider):
    """A number from ``lo`` to ``hi`` that the reader types (a field beside its label):
    for exact values, or a range too wide for a slider. Read as a slider reads it."""

    kind: ClassVar[str] = "number"
    open_ended: ClassVar[bool] = True  # Field("n", "n", 3.0, lo=-math.inf, hi=math.inf): any number

    def control_dict(self, state: dict) -> dict[str, Any]:
        return {**Param.control_dict(self, state), "value": field_text(state[self.name])}


@dataclass(frozen=True)
class Toggle(Param):
    """On or off (a switch)."""

    kind: ClassVar[str] = "toggle"
    option_kind: ClassVar[str] = "bool"

    def read(self, value: Any, state: dict) -> bool:
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in ("true", "on", "yes", "1"):
            return True
        if text in ("false", "off", "no", "0"):
            return False
        raise FieldError(self.name, t("figure.true_or_false", name=self.name, value=repr(shown(value))))

    def control_dict(self, state: dict) -> dict[str, Any]:
        return {**super().control_dict(state), "value": bool(state[self.name])}


@dataclass(frozen=True)
class Choice(Param):
    """One of a few values (a menu). ``choices`` holds (value, label) pairs, or is a
    function of the state that returns them; values may be numbers or text. With
    ``custom``, a menu of presets also holds "custom" once the reader changed what a preset
    set (the figure's ``changed`` or ``on_set`` stores it), and picking it keeps them."""

    choices: Any = ()  # ((value, label), ...) or a function of the state
    custom: Text = ""  # a label: the value "custom" too, listed while the state holds it (the reader's own settings)

    kind: ClassVar[str] = "select"

    def __post_init__(self) -> None:
        if callable(self.choices):
            return
        example = 'choices=(("weights", "Weights"), ("scores", "Scores"))'
        if not isinstance(self.choices, (str, bytes, dict)) and hasattr(self.choices, "__iter__"):
            object.__setattr__(self, "choices", tuple(self.choices))  # MODES.items(), a generator: kept as pairs
        if not isinstance(self.choices, tuple) or not self.choices:
            raise DeclarationError(
                f"Choice {self.name!r}: choices is {self.choices!r}, not a tuple of (value, label) pairs",
                f"write them as pairs, e.g. {example}",
            )
        for item in self.choices:
            if not (isinstance(item, (tuple, list)) and len(item) == 2):
                raise DeclarationError(
                    f"Choice {self.name!r}: each of its choices is a (value, label) pair, got {item!r}",
                    f"write each as a pair, e.g. {example}",
                )

    def option_spec(self) -> Option:
        if callable(self.choices):
            return Option(self.name, "str", self.default, self.doc)
        return Option(self.name, "choice", self.default, self.doc, choices=tuple(str(v) for v, _ in self.choices))

    def read(self, value: Any, state: dict) -> Any:
        if self.custom and str(value).strip() == "custom":
            return "custom"
        pairs = resolve(self.choices, state)
        for v, _ in pairs:
            if str(v) == str(value).strip() or (not isinstance(value, str) and v == value):
                return v
        listed = ", ".join(str(v) for v, _ in pairs)
        raise FieldError(self.name, t("figure.one_of", name=self.name, listed=listed, value=repr(shown(value))))

    def control_dict(self, state: dict) -> dict[str, Any]:
        own = [("custom", self.custom)] if self.custom and state[self.name] == "custom" else []
        pairs = [*resolve(self.choices, state), *own]
        return {
            **super().control_dict(state),
            "value": str(state[self.name]),
            "options": [{"value": str(v), "label": spoken(label)} for v, label in pairs],
        }


@dataclass(frozen=True)
class Hidden(Param):
    """A state value set by events or options but drawn as no control of its own (the
    selected point, the highlighted step): ``parse`` reads what a reader or a test sends,
    or with ``hi`` and no ``parse``, a whole number from 0 to ``hi`` is read."""

    parse: Callable[[Any, dict], Any] | None = None  # (value, state) -> value; FieldError when refused
    kind_of_option: str = "str"  # the option's type when ``option`` is True
    option: bool = False
    control: bool = False
    hi: Any = None  # an index's largest value (or a function of the state), read as a whole-number slider reads it

    kind: ClassVar[str] = "hidden"

    def __post_init__(self) -> None:
        if self.hi is not None:
            if self.parse is not None:
                raise ValueError(f"Hidden {self.name!r}: give parse= or hi=, not both (hi= reads a whole number)")
            object.__setattr__(self, "parse", Slider(self.name, self.name, 0, lo=0, hi=self.hi, integer=True).read)

    def option_spec(self) -> Option:
        return Option(self.name, self.kind_of_option, self.default, self.doc)

    def read(self, value: Any, state: dict) -> Any:
        if self.parse is None:
            raise FieldError(self.name, f"{self.name} cannot be set by the reader")
        return self.parse(value, state)

    def control_dict(self, state: dict) -> dict[str, Any]:
        raise ValueError(f"{self.name} is not drawn as a control")
