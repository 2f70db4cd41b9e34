"""The kit's Figure: a figure declared as parameters, values and experiments.

A figure written with the kit reads like a description of what is on screen::

    @register
    class Softmax3(Figure):
        name = "softmax-3"
        summary = "Three scores and their softmax weights."
        params = (Slider("a", "Score a", 1.0, lo=-4, hi=4), ...)
        values = (Value("top", "percent", "The largest weight."),)
        experiments = (Experiment("tie", "Tie a and b", set={"a": 1, "b": 1}, see="..."),)

        def compute(self, s):             # the numbers, from the engine
            return {"weights": softmax([s["a"], s["b"], s["c"]]), ...}

        def draw(self, s, v):             # the panels, from a few mark calls
            return [bars("weights", v["weights"], label=["a", "b", "c"])]

What the base class owns, so that no figure writes it again:

- directive options: every ``Param`` with ``option=True``, plus ``extra_options``;
- the first state: each parameter's value, then ``setup`` for what follows from them;
- a reader's ``set`` on a parameter: parsed by the parameter, its step highlighted,
  then ``changed``; other names go to ``on_set`` (e.g. cells of a grid);
- "reset" (``reset``: by default the first state again, from the options kept in the
  state) and experiments (``start``: where they begin, by default the reset state);
- ending a running experiment on any other event, and the hint coming back;
- the scene: ``draw``'s panels, the controls (``controls``: the parameters' controls
  and the experiment buttons, unless a figure lays them out itself), the status line
  and the declared values;
- the manifest: everything above as data, for ``explorables figures`` and the guide.

A figure is pure Python, run at build time in CPython (options, the first frame) and in
the reader's browser under Pyodide (every interaction). The browser's events (static/
never knows what a figure means), each to ``apply(state, event)`` -> the next state:

- ``{"type": "set", "name": N, "value": V}``: a control changed (sliders and toggles
  send numbers and booleans, fields the raw text typed): a parameter's ``read``, then
  ``changed``; a name no parameter has goes to ``on_set``.
- ``{"type": "drag", "mark": M, "index": I, "x": X, "y": Y}``: the element I of the
  draggable mark M (its ``ref`` in the scene) moved to data coordinates (X, Y), by
  pointer or keyboard: ``on_drag(state, M, I, X, Y)``.
- ``{"type": "select", "mark": M, "index": I}``: the element I of the selectable mark M
  (a point's or label's ``ref``, a cells or bars panel's ``mark`` with the cell's [row,
  column] or the bar's index) was clicked: ``on_select(state, M, I)``.
- ``{"type": "action", "name": N}``: a button: "reset", an experiment, else ``on_action``.

A hook raises ``ValueError`` (or ``FieldError``, naming the control) for input it
refuses; the page shows the message and keeps the old state. The scene format is
engine/figures/SCENE.md.
"""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any

from ...locale import t
from ..base import FieldError, Option, OptionError, OptionErrors, Text, read_options
from .experiment_runs import buttons, run
from .experiments import HINT, Experiment
from .fields import next_step, own_action, own_field
from .geometry import Vector
from .hooks import HookChecks, HookFailed, Misused, _a, described, old_signature  # noqa: F401  (described: reports')
from .marks import element_id
from .params import Hidden, Param
from .schema import CHECKED, SceneError, check_scene
from .text import spoken
from .values import Value

BOOKKEEPING = ("options", "experiment", "message")  # state keys the base class keeps
EVENT_HOOKS = {"set": "on_set", "drag": "on_drag", "select": "on_select", "action": "on_action"}


def _reference(event: dict[str, Any]) -> tuple[str, Any]:
    """The mark and the element's index an event names: [row, column] as a tuple."""
    index = event.get("index")
    return str(event.get("mark", "")), tuple(index) if isinstance(index, list) else index


class Figure(HookChecks):
    """Base class of every figure, built-in or an author's."""

    name: str = ""
    summary: Text = ""
    title: Text = ""  # the heading over the figure
    params: tuple[Param, ...] = ()
    extra_options: tuple[Option, ...] = ()  # directive options that are no control (a sentence, vectors)
    values: tuple[Value, ...] = ()
    experiments: tuple[Experiment, ...] = ()
    hint: Text = HINT  # what the experiment box says while no experiment runs
    experiments_near: str | None = None  # the panel the "Try this" buttons sit under on a narrow screen
    option_order: tuple[str, ...] = ()  # options listed first, in this order (the rest follow as declared)
    # The state keys that make the figure's example (its tokens, their vectors): prose
    # that quotes an element by position ({value}`table.weights[2][3]`) speaks of the
    # lesson's example, so once the reader changes one of these, it keeps the lesson's
    # number, marked as such, until the example is the lesson's again (static/js/prose.js).
    subject: tuple[str, ...] = ()

    def __init_subclass__(cls, words: Any = None, **kwargs: Any) -> None:
        """``class X(Figure, words=W)``: the summary and the title are W.SUMMARY and W.TITLE."""
        super().__init_subclass__(**kwargs)
        if words is not None:
            cls.summary, cls.title = words.SUMMARY, words.TITLE

    # --- declarations -------------------------------------------------------------------

    @property
    def options(self) -> tuple[Option, ...]:
        specs = (
            replace(p.option_spec(), renamed_from=p.renamed_from) if p.renamed_from else p.option_spec()
            for p in self.params
            if p.option
        )
        declared = (*specs, *self.extra_options)
        first = [o for name in self.option_order for o in declared if o.name == name]
        return (*first, *(o for o in declared if o.name not in self.option_order))

    def param(self, name: str) -> Param | None:
        return next((p for p in self.params if p.name == name), None)

    def declared(self, name: str) -> Param:
        """The parameter ``name``, which the figure declares: KeyError if it does not."""
        param = self.param(name)
        if param is None:
            raise KeyError(f"{self.name} declares no parameter {name!r}")
        return param

    def option(self, name: str) -> Option | None:
        return next((o for o in self.options if o.name == name), None)

    def check_options(self, values: dict[str, Any]) -> None:
        """Rules that involve several options at once; raise OptionError."""

    def parse_options(self, raw: dict[str, Any]) -> dict[str, Any]:
        """Every option read (``read_options``: all mistakes raised together), then each
        ``Hidden`` option (a ``Vector``, one with a ``parse``) through its ``read``, as a
        reader's or an experiment's value goes: ``:u: 1, 0.5`` reaches ``setup`` and the
        state as the vector ``parse`` makes of it, never as the text. ``parse`` is given the
        first state of the other options (a parse may need what ``setup`` makes, the
        tokens); what it refuses is the option's error, at the option's line."""
        hidden = [
            p
            for p in self.params
            if isinstance(p, Hidden)
            and p.option
            and (p.parse is not None or isinstance(p, Vector))
            and (p.name in raw or (p.renamed_from and p.renamed_from in raw))
        ]
        values = read_options(self, raw)  # the other options' mistakes first: the state needs them
        if not hidden:
            return values
        try:
            state = self.initial_state({k: v for k, v in values.items() if k not in {p.name for p in hidden}})
        except Exception:  # the first frame's own error, which the page reports where it is drawn
            return values
        errors = []
        for p in hidden:
            try:
                values[p.name] = p.read(values[p.name], state)
            except (FieldError, OptionError) as err:
                errors.append(OptionError(p.name, err.message))
            except ValueError as err:
                errors.append(OptionError(p.name, str(err)))
            except Exception as err:  # a bug of the parse itself (its signature, a KeyError): where it is
                errors.append(
                    OptionError(p.name, f"its parse raised {type(err).__name__}: {err}{self._raised_at(err, p.parse)}")
                )
        if errors:
            raise OptionErrors(errors)
        return values

    # --- the first state ----------------------------------------------------------------

    def initial_state(self, options: dict[str, Any]) -> dict[str, Any]:
        opts = {opt.name: opt.default for opt in self.options}
        opts.update(options)
        state: dict[str, Any] = {p.name: copy.deepcopy(opts[p.name] if p.option else p.default) for p in self.params}
        state = self.returned("setup", self.located("setup", self.setup, state, opts))
        state["options"] = dict(options)  # what reset returns to
        state["experiment"] = None
        state["message"] = self.hint_text()
        return state

    def setup(self, state: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
        """What follows from the options (tokens, vectors): add it to ``state`` and return
        ``state`` (the dict returned is the whole first state)."""
        return state

    # --- events -------------------------------------------------------------------------

    def apply(self, state: dict[str, Any], event: dict[str, Any]) -> dict[str, Any]:
        """One event -> the next state. The old state is never changed: the hooks get a deep
        copy to edit and return. A figure overrides the hooks of the events it takes."""
        kind = event.get("type")
        name = str(event.get("name", ""))
        hook = EVENT_HOOKS.get(str(kind))
        if hook is None or getattr(getattr(self, hook), "unsupported", False):
            raise ValueError(f"{self.name} does not know the event type {kind!r}")
        state = copy.deepcopy(state)
        if kind == "set" and self.param(name) is not None:
            state = self.set_param(state, name, event.get("value"))
        elif kind == "action" and name == "reset":
            return self.end_experiment(self.returned("reset", self.reset(state)))
        elif kind == "action" and any(e.name == name for e in self.experiments):
            return self.run_experiment(state, name)
        elif kind == "drag":
            state = self.returned(hook, self.dragged(state, event))
        elif kind == "select":
            state = self.returned(hook, self.selected(state, event))
        elif kind == "set":
            state = self.returned(hook, self.on_set(state, name, event.get("value")))
        else:
            state = self.returned(hook, self.on_action(state, name))
        return self.end_experiment(state)

    def dragged(self, state: dict[str, Any], event: dict[str, Any]) -> Any:
        """A drag to ``on_drag(state, mark, i, x, y)``: the mark's name and the element's index,
        as the scene's ``ref`` gave them. ``on_drag(state, mark, x, y)`` (before 0.3) gets
        the element's id, with a warning."""
        (mark, index), x, y = _reference(event), event.get("x"), event.get("y")
        if old_signature(self, "on_drag", 4, "on_drag(state, mark, i, x, y)"):
            return self.on_drag(state, element_id(mark, index), x, y)  # type: ignore[call-arg]
        return self.on_drag(state, mark, index, x, y)

    def selected(self, state: dict[str, Any], event: dict[str, Any]) -> Any:
        """A click to ``on_select(state, mark, i)``, as the element's ``ref`` (or its cells
        panel's ``mark`` and its row and column) gave them: ("key", 3), ("cell", (1, 2)).
        ``on_select(state, mark)`` (before 0.3) gets the element's id, with a warning."""
        mark, index = _reference(event)
        if old_signature(self, "on_select", 2, "on_select(state, mark, i)"):
            return self.on_select(state, element_id(mark, index))  # type: ignore[call-arg]
        return self.on_select(state, mark, index)

    def set_param(self, state: dict[str, Any], name: str, value: Any) -> dict[str, Any]:
        """A reader's value for the parameter ``name``: parsed, stored, its step lit."""
        param = self.param(name)
        if param is None:  # (apply sends only its own parameters here)
            raise FieldError(name, f"{self.name} has no control named {name!r}")
        state[name] = param.read(value, state)
        if param.step is not None:
            state["step"] = param.step
        return self.returned("changed", self.changed(state, name))

    def changed(self, state: dict[str, Any], name: str) -> dict[str, Any]:
        """After the parameter ``name`` changed: keep the rest of the state consistent."""
        return state

    def on_set(self, state: dict[str, Any], name: str, value: Any) -> dict[str, Any]:
        """A name no parameter has: a field of a parameter's own (kit/fields.py), else refused."""
        return own_field(self, state, name, value)

    def on_drag(self, state: dict[str, Any], mark: str, i: Any, x: Any, y: Any) -> dict[str, Any]:
        """The element ``i`` of the draggable mark ``mark`` (the name given to ``points`` or
        ``arrows``) moved to data coordinates (x, y): return the next state."""
        raise NotImplementedError

    def on_select(self, state: dict[str, Any], mark: str, i: Any) -> dict[str, Any]:
        """The element ``i`` of the selectable mark ``mark`` was clicked (a cell's ``i`` is
        (row, column)): return the next state."""
        raise NotImplementedError

    on_drag.unsupported = on_select.unsupported = True  # type: ignore[attr-defined]

    def on_action(self, state: dict[str, Any], name: str) -> dict[str, Any]:
        """An action no experiment has: a ``Play``'s tick goes to ``on_tick``, ``NAME=key`` to
        the parameter ``NAME``'s preset ``key`` (kit/fields.py)."""
        return own_action(self, state, name)

    def on_tick(self, state: dict[str, Any]) -> dict[str, Any]:
        """One step of a playing ``Play`` parameter (every ``interval`` ms): return the next state
        (by default the slider the ``Play`` ``steps`` moves on by one)."""
        return next_step(self, state)

    def reset(self, state: dict[str, Any]) -> dict[str, Any]:
        """Back to the first settings: by default the first state again."""
        return self.initial_state(state.get("options") or {})

    def start(self, state: dict[str, Any]) -> dict[str, Any]:
        """Where every experiment begins: by default the first settings."""
        return self.reset(state)

    def run_experiment(self, state: dict[str, Any], name: str) -> dict[str, Any]:
        """The state the experiment ``name`` leaves, its message with it (experiment_runs.py)."""
        return run(self, state, name)

    def end_experiment(self, state: dict[str, Any]) -> dict[str, Any]:
        """No experiment runs any more: no button lit, the hint back."""
        state["experiment"] = None
        state["message"] = self.hint_text()
        return state

    # --- the scene ----------------------------------------------------------------------

    def compute(self, state: dict[str, Any]) -> dict[str, Any]:
        """The numbers the figure shows, by name (the declared values among them)."""
        return {}

    def draw(self, state: dict[str, Any], v: dict[str, Any]) -> list[Any]:
        """The panels, in order (None leaves one out)."""
        raise NotImplementedError

    def status(self, state: dict[str, Any], v: dict[str, Any]) -> str:
        """One plain sentence saying what the figure shows now, for screen readers."""
        return ""

    def controls(self, state: dict[str, Any], v: dict[str, Any]) -> list[dict[str, Any]]:
        """The controls, in order: every parameter's that is drawn, then the experiments."""
        out = [c for p in self.params if p.control for c in p.controls(state)]
        if self.experiments:
            out.append(self.experiment_control(state, near=self.experiments_near))
        return out

    def hint_text(self) -> Text:
        """The hint in the site's language (a figure's own hint as it wrote it)."""
        return t("figure.hint") if self.hint == HINT else self.hint

    def experiment_control(self, state: dict[str, Any], near: str | None = None) -> dict[str, Any]:
        """The "Try this" buttons: those that apply from where experiments start, then
        Reset, and the message of the one last run, folded under REVEAL."""
        return buttons(self, state, near)

    def scene(self, state: dict[str, Any]) -> dict[str, Any]:
        v = self.located("compute", self.compute, state)
        if not isinstance(v, dict):
            raise Misused(
                f"{self.name}.compute returned {_a(v)}, not a dict of its numbers by name",
                'return them by name, e.g. {"weights": weights, "top": max(weights)}',
                self._hook("compute"),
            )
        panels = self.panels(self.located("draw", self.draw, state, v))
        out: dict[str, Any] = {
            "title": spoken(self.title),
            "status": self.located("status", self.status, state, v),
            "panels": panels,
            "controls": self.controls(state, v),
            "values": self.values_of(state, v),
        }
        if CHECKED:
            try:
                check_scene(out)
            except SceneError as err:
                raise Misused(
                    f"{self.name}'s scene: {err}", "write it as engine/figures/SCENE.md declares it", self._hook("draw")
                ) from None
        return out

    def panels(self, drawn: Any) -> list[dict[str, Any]]:
        """What ``draw`` returned, checked: a list of panels (None leaves one out), each
        made by a scene builder."""
        if isinstance(drawn, (str, bytes, dict)) or not hasattr(drawn, "__iter__"):
            raise Misused(
                f"{self.name}.draw returned {_a(drawn)}, not a list of panels",
                "return them in a list, e.g. [bars(...), text(...)]",
                self._hook("draw"),
            )
        drawn = list(drawn)  # a list, a tuple, or what a draw that yields its panels gives
        for i, panel in enumerate(drawn):
            if panel is not None and not (isinstance(panel, dict) and isinstance(panel.get("kind"), str)):
                raise Misused(
                    f"{self.name}.draw: item {i} of its list is {_a(panel)}, not a panel",
                    "make each panel with plane, chart, bars, cells, steps or text",
                    self._hook("draw"),
                )
        return [p for p in drawn if p is not None]

    def values_of(self, state: dict[str, Any], v: dict[str, Any]) -> dict[str, Any]:
        """Each declared value, from ``compute`` or else from the state."""
        out = {}
        for value in self.values:
            if value.name in v:
                out[value.name] = v[value.name]
            elif value.name in state:
                out[value.name] = state[value.name]
            else:
                raise KeyError(f"{self.name}: the value {value.name!r} is neither computed nor in the state")
        return out

    def patch(self, state: dict[str, Any], patch: dict[str, Any]) -> dict[str, Any]:
        """Apply ``{control name: value}`` pairs as "set" events, in order."""
        for name, value in patch.items():
            state = self.apply(state, {"type": "set", "name": name, "value": value})
        return state

    # --- the manifest -------------------------------------------------------------------

    def manifest(self) -> dict[str, Any]:
        """The figure as data: what ``explorables figures NAME`` prints and the guide lists."""
        return {
            "name": self.name,
            "summary": spoken(self.summary),
            "options": [
                {"name": o.name, "kind": o.kind, "default": o.default, "expected": o.expected(), "doc": o.doc}
                for o in self.options
            ],
            "params": [p.manifest() for p in self.params],
            "values": [v.manifest() for v in self.values],
            "experiments": [e.manifest() for e in self.experiments],
        }
