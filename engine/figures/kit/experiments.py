"""Experiments ("Try this"): data where they are data, code only where they compute.

    Experiment("cool", "Lower T to 0.1", set={"temperature": 0.1},
               see="One word takes almost all the weight.")

A button runs it: the figure goes back to where experiments start (its first settings,
unless the figure says otherwise), the ``set`` values go through the same parsers as a
reader's input, ``run`` (if any) changes the state further (in place, or returning the
next state), and ``see`` (text, or a
function of the new state that quotes its numbers) is what to look for. Any change the
reader makes afterwards ends the experiment and brings the hint back.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..base import Text
from .text import spoken

HINT = "Pick an experiment: it sets the figure and says what to look for."
REVEAL = "What you should see"  # the summary an experiment's result stays folded under


@dataclass(frozen=True)
class Experiment:
    """One "Try this" button."""

    name: str  # its id: sent back as {"type": "action", "name": name}; prose refers to it
    label: Text  # the button's text
    title: Text = ""  # the button's tooltip: what it will do
    set: Mapping[str, Any] = field(default_factory=dict)  # parameters it sets, by name
    run: Callable[[dict], dict | None] | None = None  # further changes where data is not enough: in place,
    # or the next state returned
    see: str | Callable[[dict], str] = ""  # what to look for (a function of the state for numbers)
    when: Callable[[dict], bool] | None = None  # does it apply to the state it starts from?
    needs: Text = ""  # what it needs where it does not apply, for the error message

    def applies(self, state: dict) -> bool:
        return self.when is None or bool(self.when(state))

    def message(self, state: dict) -> str:
        return self.see(state) if callable(self.see) else self.see

    def manifest(self) -> dict[str, Any]:
        return {"name": self.name, "label": spoken(self.label), "title": spoken(self.title), "sets": dict(self.set)}
