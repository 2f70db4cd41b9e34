"""The names an author's figure declares (checks.py validates a figure with them): each
parameter, value, experiment and panel has one of its own, and no experiment takes the
name of an action the kit sends itself. A second of one name is lost on the page, or
runs another's code, while the build passes; each is said at the author's line."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

from ...engine.figures.kit.fields import Play
from ..errors import SourceError
from .lines import attribute_line, calls_naming, class_body, class_line, class_of, column_at, hook_line

# The names a figure declares, by the attribute that lists them: what each is, and why a
# second of one name is lost (the kit finds each by its name, the first of it; the page
# keeps one view a name).
_DECLARED = {
    "params": ("parameter", "the state keeps one value a name, and the page shows one control a name"),
    "values": ("value", "the page keeps one value a name"),
    "experiments": ("experiment", "a button runs the first experiment of its name"),
}


def check_names(model, path: Path, tree: ast.AST, label: str) -> list[SourceError]:
    """Each parameter, value and experiment has a name of its own, and no experiment takes
    the name of an action the kit sends itself (``kit_action``); otherwise the build
    passes and the page loses one of them, or runs another's code for it. Each is said at
    the author's call that declares it (for a name given twice, the second), else at the
    list that holds it."""
    class_name = type(model).__name__
    errors = []
    for attribute, (what, lost) in _DECLARED.items():
        declared = list(getattr(model, attribute, ()) or ())
        for name, count in Counter(item.name for item in declared).items():
            if count < 2:
                continue
            kinds = tuple({type(item).__name__ for item in declared if item.name == name})
            calls = declarations(tree, class_name, name, kinds)
            if len(calls) > 1:
                line, col, first = calls[1].lineno, calls[1].col_offset + 1, f" (first at line {calls[0].lineno})"
            else:  # a name the module computes (Slider(n, ...) for n in NAMES): at the list
                (line, col), first = _attribute_at(tree, class_name, attribute), ""
            errors.append(
                SourceError(
                    path,
                    line,
                    col,
                    f"{label}: the {what} '{name}' is declared {_times(count)}{first}",
                    f"give each {what} its own name: {lost}",
                )
            )
    for experiment in getattr(model, "experiments", ()) or ():
        taken = kit_action(model, experiment.name)
        if taken:
            calls = declarations(tree, class_name, experiment.name, (type(experiment).__name__,))
            line, col = (
                (calls[0].lineno, calls[0].col_offset + 1) if calls else _attribute_at(tree, class_name, "experiments")
            )
            errors.append(
                SourceError(
                    path,
                    line,
                    col,
                    f"{label}: the experiment '{experiment.name}' has the name of {taken}",
                    "choose another name for the experiment",
                )
            )
    return errors


def kit_action(model, name: str) -> str:
    """What the kit itself sends as the action ``name``, said as "the name of ...", or "":
    Reset (the kit's apply takes it before any experiment), a ``Play``'s tick and a
    parameter's preset ``NAME=key`` (an experiment of that name is found before them)."""
    if name == "reset":
        return "the kit's own Reset button, which its button would run instead"
    for param in getattr(model, "params", ()) or ():
        if isinstance(param, Play) and param.tick == name:
            return f"the action the Play '{param.name}' sends on each tick, which would run the experiment instead"
    target, _, key = name.partition("=")
    owner = model.param(target) if key else None
    if owner is not None and key in owner.preset_names():
        return f"the action of the preset '{key}' of '{target}', which would run the experiment instead"
    return ""


def check_panels(frame: dict, model, path: Path, tree: ast.AST, label: str, drawn: str) -> list[SourceError]:
    """Each panel of a frame has an id of its own (engine/figures/SCENE.md): the page keeps
    one view a kind and id, and places controls by the panel's id, so a second panel of
    an id shows in the frame the build writes and is lost at the reader's first change.
    Said at the second call that draws it (``bars("weights", ...)``), else at ``draw``."""
    class_name = type(model).__name__
    panels = [p for p in frame.get("panels") or () if isinstance(p, dict)]
    for panel_id, count in Counter(p.get("id") for p in panels).items():
        if count < 2 or not isinstance(panel_id, str):
            continue
        kinds = tuple({str(p.get("kind")) for p in panels if p.get("id") == panel_id})
        calls = declarations(tree, class_name, panel_id, kinds)
        if len(calls) > 1:
            line, col, first = calls[1].lineno, calls[1].col_offset + 1, f" (first at line {calls[0].lineno})"
        else:  # an id the module computes, or panels drawn in another module
            line = hook_line(tree, class_name, "draw", class_line(tree, class_name))
            col, first = column_at(tree, line), ""
        return [
            SourceError(
                path,
                line,
                col,
                f"{label}: {drawn} has {'two' if count == 2 else count} panels with the id '{panel_id}'{first}",
                "give each panel its own id: the page shows one panel an id",
            )
        ]
    return []


def declarations(tree: ast.AST, class_name: str, name: str, kinds: tuple[str, ...]) -> list[ast.Call]:
    """The calls of one of ``kinds`` (``Slider``, ``bars``) whose first argument is the
    string ``name``, in the order written: those in the class ``class_name``, or, where it
    holds none (its declarations in a constant or a helper of the module), the module's."""
    own = class_of(tree, class_name)
    return (calls_naming(own, name, kinds) if own is not None else []) or calls_naming(tree, name, kinds)


def _attribute_at(tree: ast.AST, class_name: str, attribute: str) -> tuple[int, int]:
    """The line and column where the class sets ``attribute`` (``params = ...``), else its
    ``class`` line."""
    line = attribute_line(tree, class_name, attribute, class_line(tree, class_name))
    return line, next((n.col_offset + 1 for n in class_body(tree, class_name) if n.lineno == line), 1)


def _times(count: int) -> str:
    return "twice" if count == 2 else f"{count} times"
