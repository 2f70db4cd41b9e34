"""Running an experiment and drawing its buttons, for the kit's Figure (figure.py), whose
``run_experiment`` and ``experiment_control`` call these: a figure may override either.
What they read of the figure is the protocol ``Runs``, so this module needs nothing of
figure.py, which imports it."""

from __future__ import annotations

import copy
from typing import Any, Protocol

from ...locale import t
from ..base import Text
from .experiments import Experiment
from .hooks import Misused
from .params import Param
from .text import spoken


class Runs(Protocol):
    """What running an experiment and drawing its buttons read of a figure: the kit's
    Figure has all of it."""

    @property
    def name(self) -> str: ...

    @property
    def experiments(self) -> tuple[Experiment, ...]: ...

    def start(self, state: dict[str, Any]) -> dict[str, Any]: ...

    def changed(self, state: dict[str, Any], name: str) -> dict[str, Any]: ...

    def returned(self, hook: str, state: Any) -> dict[str, Any]: ...

    def param(self, name: str) -> Param | None: ...

    def hint_text(self) -> Text: ...


def run(figure: Runs, state: dict[str, Any], name: str) -> dict[str, Any]:
    """The state after the experiment ``name``: from where experiments start, its ``set``
    values read as a reader's input, then its ``run``; its message is what to look for."""
    experiment = next(e for e in figure.experiments if e.name == name)
    state = figure.returned("start", figure.start(state))
    if not experiment.applies(state):
        raise ValueError(f"the experiment {name!r} needs {spoken(experiment.needs) or 'other settings'}")
    for key, value in experiment.set.items():  # as a reader's change: read, then ``changed``
        param = figure.param(key)
        if param is None:
            state[key] = copy.deepcopy(value)
            continue
        state[key] = param.read(value, state)
        state = figure.returned("changed", figure.changed(state, key))
    if experiment.run is not None:
        changed = experiment.run(state)  # the state changed in place, or the next one returned
        if changed is not None:
            if not isinstance(changed, dict):
                raise Misused(
                    f"{figure.name}: the run of the experiment {name!r} returned a "
                    f"{type(changed).__name__}, not the state",
                    "change the state it is given, or return it",
                    experiment.run,
                )
            state = changed
    state["experiment"] = name
    state["message"] = experiment.message(state)
    return state


def buttons(figure: Runs, state: dict[str, Any], near: str | None = None) -> dict[str, Any]:
    """The "Try this" buttons: those that apply from where experiments start, then
    Reset, and the message of the one last run, folded under REVEAL."""
    shown_here = list(figure.experiments)
    if any(e.when is not None for e in shown_here):
        begin = figure.returned("start", figure.start(copy.deepcopy(state)))
        shown_here = [e for e in shown_here if e.applies(begin)]
    control: dict[str, Any] = {
        "kind": "buttons",
        "name": "experiments",
        "label": t("figure.try_this"),
        "items": [
            {
                "name": e.name,
                "label": spoken(e.label),
                "title": spoken(e.title),
                "active": state.get("experiment") == e.name,
            }
            for e in shown_here
        ]
        + [{"name": "reset", "label": t("figure.reset"), "title": t("figure.reset_title")}],
        "message": state.get("message") or figure.hint_text(),
    }
    if state.get("experiment") and state.get("message"):
        control["reveal"] = t("figure.reveal")
    if near:
        control["near"] = near
    return control
