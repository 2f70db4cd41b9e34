"""What every figure's contract rests on: directive options (``Option``, read by
``read_options``), the errors a figure raises for an author's option (``OptionError``)
or a reader's input (``FieldError``), reading a typed number (``parse_number``), the
nearest known name (``closest``) and the check that a scene or a state is plain JSON
(``not_plain``). The one ``Figure`` class is the kit's (kit/figure.py), which says
the life of a figure and the events it gets.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..locale import Say, number_format, t, typed, unisolated

# Words a figure declares: plain text, or a Say that the catalogue words when shown.
Text = str | Say


class OptionError(ValueError):
    """A directive option an author wrote is not acceptable.

    ``option`` names the option; the message says what was expected and what was given.
    """

    def __init__(self, option: str, message: str):
        super().__init__(message)
        self.option = option
        self.message = message


class FieldError(ValueError):
    """A reader's input into one control was refused; ``name`` is that control."""

    def __init__(self, name: str, message: str):
        super().__init__(message)
        self.name = name
        self.message = message


def parse_number(text: Any, name: str = "value", example: str = "0.5") -> float:
    """A finite float from a number or the text a reader typed; ValueError otherwise. An
    empty field's message suggests ``example`` (best a number the field takes)."""
    if isinstance(text, bool):
        raise FieldError(name, t("figure.not_a_number", name=name, text=repr(text)))
    if isinstance(text, (int, float)):
        value = float(text)
    else:
        raw = unisolated(str(text)).strip().replace("\u2212", "-")  # accept a typographic minus
        if raw == "":
            raise FieldError(name, t("figure.empty", name=name, example=typed(example)))
        if number_format()[0] == "," and "." not in raw:
            raw = raw.replace(",", ".")  # the language's decimal comma: 0,5
        try:
            value = float(raw)
        except ValueError:
            raise FieldError(name, t("figure.not_a_number", name=name, text=repr(str(text)))) from None
    if not math.isfinite(value):
        raise FieldError(name, t("figure.not_finite", name=name, text=repr(str(text))))
    return value


@dataclass(frozen=True)
class Option:
    """One directive option: its name, type, default and limits, with a docstring."""

    name: str
    kind: str  # "float", "int", "bool", "str", "choice", "words"
    default: Any
    doc: str
    min: float | None = None  # inclusive lower bound for numbers, length bound for words
    max: float | None = None  # inclusive upper bound
    choices: tuple[str, ...] = ()  # allowed values for "choice"
    check: Callable[[Any], object] | None = field(default=None, compare=False)  # extra rule
    renamed_from: str = ""  # an old name still read, with a DeprecationWarning, for one minor version

    def expected(self) -> str:
        """Plain words for what the option accepts, for error messages and docs."""
        if self.kind == "choice":
            return "one of " + ", ".join(self.choices)
        if self.kind == "bool":
            return "true or false"
        if self.kind == "words":
            lo, hi = int(self.min or 1), int(self.max or 99)
            return f"{lo} to {hi} words separated by spaces"
        noun = "an integer" if self.kind == "int" else "a number" if self.kind == "float" else "text"
        if self.min is not None and self.max is not None:
            return f"{noun} from {_fmt(self.min)} to {_fmt(self.max)}"
        if self.min is not None:
            return f"{noun} >= {_fmt(self.min)}"
        return noun

    def parse(self, raw: Any) -> Any:
        """Turn the author's text into a value, or raise OptionError."""
        text = str(raw).strip()
        bad = OptionError(self.name, f"expected {self.expected()}, got {text!r}")
        if self.kind == "bool":
            low = text.lower()
            if low in ("true", "yes", "on", "1"):
                value: Any = True
            elif low in ("false", "no", "off", "0"):
                value = False
            else:
                raise bad
        elif self.kind in ("float", "int"):
            try:
                value = float(text) if self.kind == "float" else _whole(text)
            except ValueError:
                raise bad from None
            if not math.isfinite(value):
                raise bad
            if (self.min is not None and value < self.min) or (self.max is not None and value > self.max):
                raise bad
        elif self.kind == "choice":
            if text not in self.choices:
                close = closest(text, self.choices)
                hint = f" (did you mean {close!r}?)" if close else ""
                raise OptionError(self.name, f"expected {self.expected()}, got {text!r}{hint}")
            value = text
        elif self.kind == "words":
            value = text.split()
            lo, hi = int(self.min or 1), int(self.max or 99)
            if not lo <= len(value) <= hi:
                raise OptionError(
                    self.name,
                    f"expected {self.expected()}, got {len(value)} word{'' if len(value) == 1 else 's'} ({text!r})",
                )
        else:
            value = text
        if self.check is not None:
            try:
                self.check(value)
            except ValueError as err:
                raise OptionError(self.name, str(err)) from None
        return value


def _whole(text: str) -> int:
    """An integer option's value: "3", or a whole number written as a decimal ("3.0", as a
    reader may type it in the figure too); ValueError for any other."""
    try:
        return int(text)
    except ValueError:
        number = float(text)
        if not number.is_integer():
            raise
        return int(number)


def closest(name: str, known, cutoff: float = 0.6, begun: bool = True) -> str | None:
    """The known name an author most likely meant by ``name``: a close spelling
    ("temprature"; ``cutoff`` as difflib's), else (with ``begun``) the one name it
    begins ("temp" for "temperature"), else None."""
    import difflib  # noqa: PLC0415  only for a refused name: not at the worker's start

    known = list(known)
    close = difflib.get_close_matches(name, known, n=1, cutoff=cutoff)
    if close:
        return close[0]
    starting = [k for k in known if begun and len(name) >= 3 and k.lower().startswith(name.lower())]
    return starting[0] if len(starting) == 1 else None


def not_plain(value: Any, path: object = "") -> str | None:
    """Where ``value`` (a scene, a state) holds what JSON cannot carry to the page, and
    what: "values.top = nan", "panel 'weights'.label[2] = a set", or None when all of it
    is plain (finite numbers, text, True/False/None, lists and dicts with text keys)."""
    if value is None or isinstance(value, (str, bool)):
        return None
    if isinstance(value, (int, float)):
        return None if math.isfinite(value) else f"{path or 'the value'} = {value}"
    if isinstance(value, dict):
        for key, item in value.items():
            if not (key is None or isinstance(key, (str, int, float, bool))):  # JSON writes those as text
                return f"{path or 'the value'} has the key {key!r}, not text"
            found = not_plain(item, f"{path}.{key}" if path else key)
            if found:
                return found
        return None
    if isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            here = f"{path}[{i}]"
            if (
                (path == "panels" or str(path).endswith(".panels"))
                and isinstance(item, dict)
                and isinstance(item.get("id"), str)
            ):
                here = f"panel {item['id']!r}"
            found = not_plain(item, here)
            if found:
                return found
        return None
    return f"{path or 'the value'} = a {type(value).__name__} ({value!r:.40})"


def _fmt(x: float) -> str:
    return f"{x:g}"


def warn_renamed(old: str, new: str, fix: str, stacklevel: int) -> None:
    """Tell an author that ``old`` (a figure's option, a site.yml key, a kit name) is now
    called ``new``, and how to write it (``fix``): an old name keeps working for one minor
    version (CHANGELOG.md). ``stacklevel`` counts from the caller, as ``warnings.warn``'s."""
    message = f"{old} is now called {new}; {fix} (the old name stops working in the next minor version)"
    warnings.warn(message, DeprecationWarning, stacklevel=stacklevel + 1)


def read_options(figure: Any, raw: dict[str, Any]) -> dict[str, Any]:
    """Validate every option an author wrote for ``figure`` (its ``name``, ``options`` and
    ``check_options``); defaults fill the rest. Raises every OptionError together (as
    ``OptionErrors``), so all mistakes are reported at once."""
    errors: list[OptionError] = []
    values = {opt.name: opt.default for opt in figure.options}
    by_name = {opt.name: opt for opt in figure.options}
    for key, text in raw.items():
        opt = by_name.get(key)
        renamed = next((o for o in figure.options if o.renamed_from and o.renamed_from == key), None)
        if opt is None and renamed is not None and renamed.name not in raw:
            warn_renamed(f"{figure.name}: the option '{key}'", f"'{renamed.name}'", f"write :{renamed.name}:", 3)
            opt, key = renamed, renamed.name
        if opt is None:
            close = closest(key, by_name)
            hint = f"; did you mean {close!r}?" if close else ""
            errors.append(OptionError(key, f"unknown option {key!r}{hint} (known options: {', '.join(by_name)})"))
            continue
        try:
            values[key] = opt.parse(text)
        except OptionError as err:
            errors.append(err)
    # The rules across options run even when some option was refused, so that an
    # author sees every mistake at once; a rule that read a refused option (now its
    # default) could report a mistake that is not there, so its errors wait.
    refused = {err.option for err in errors}
    read = _Reading(values)
    try:
        figure.check_options(read)
    except OptionError as err:
        errors += [err] if not read.keys_read & refused else []
    except OptionErrors as err:
        errors += err.errors if not read.keys_read & refused else []
    if errors:
        raise OptionErrors(errors)
    return values


class _Reading(dict):
    """Options' values that note which of them a rule read."""

    def __init__(self, values: dict[str, Any]):
        super().__init__(values)
        self.keys_read: set[str] = set()

    def __getitem__(self, key):
        self.keys_read.add(key)
        return super().__getitem__(key)

    def get(self, key, default=None):
        self.keys_read.add(key)
        return super().get(key, default)

    def _all(self):
        self.keys_read.update(self.keys())
        return self

    def items(self):
        return dict.items(self._all())

    def values(self):
        return dict.values(self._all())

    def __iter__(self):
        return dict.__iter__(self._all())

    def copy(self):
        return dict(self.items())


class OptionErrors(ValueError):
    """Every OptionError of one directive, raised together."""

    def __init__(self, errors: list[OptionError]):
        super().__init__("; ".join(f"{e.option}: {e.message}" for e in errors))
        self.errors = errors
