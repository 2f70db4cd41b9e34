"""Checks of an author's figure module (loader.py loads it): its imports against the
rule the author guide states, the catalogue keys it writes out, and every figure and
exercise type it registers (a spec that parses, names of its own, a first frame and
experiments that give JSON; problems that compute and grade their own right answer).
Each mistake is a SourceError at the author's line, found in the module's ``ast`` or in
a traceback's frame of the author's file."""

from __future__ import annotations

import ast
import copy
import re
from pathlib import Path

from ...engine.figures import FieldError
from ...engine.figures.base import not_plain
from ...engine.figures.kit.figure import Misused, described
from ..errors import SourceError
from .guard import Stopped, stopped
from .keys import check_keys as check_keys  # (imported from here too)
from .lines import author_column, author_line, class_body, class_line, column_at, hook_line, param_line, value_line
from .names import check_names, check_panels
from .rules import BUILD_ONLY, BUILD_ONLY_FIX, NOT_IN_BROWSER, NOT_IN_BROWSER_FIX, RULE, allowed

_NAME = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")


def siblings(tree: ast.AST) -> list[tuple[ast.ImportFrom, str]]:
    """The modules of its own folder a module imports (``from . import helpers``, ``from
    .helpers import money``), each with its import statement."""
    found: list[tuple[ast.ImportFrom, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            names = [node.module.split(".")[0]] if node.module else [alias.name for alias in node.names]
            found.extend((node, name) for name in names)
    return found


def check_imports(path: Path, tree: ast.AST) -> list[SourceError]:
    """Every import of the module is the standard library, the kit, the engine or another
    module of the figures folder."""
    errors = []
    for statement, name in siblings(tree):
        if name.startswith("_") or not (path.parent / f"{name}.py").is_file():
            modules = ", ".join(sorted(p.stem for p in path.parent.glob("*.py") if not p.name.startswith((".", "_"))))
            errors.append(
                SourceError(
                    path,
                    statement.lineno,
                    statement.col_offset + 1,
                    f"the figure module imports '.{name}', but the figures folder has no {name}.py it loads",
                    f"its modules: {modules} (a name starting with _ is not loaded)",
                )
            )
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level:
            if node.level > 1:
                errors.append(
                    SourceError(
                        path,
                        node.lineno,
                        node.col_offset + 1,
                        "an import from above the figures folder is not allowed",
                        f"{RULE}, and the folder's own modules (from . import helpers)",
                    )
                )
            continue
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""]
            if node.module == "explorables":  # from explorables import figures, engine
                names = [f"explorables.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Call) and (called := _imported_by_call(node)) is not None:
            names = [called]  # importlib.import_module("yaml"), __import__("yaml")
        else:
            continue
        for name in names:
            top = name.split(".")[0]
            if top in BUILD_ONLY or name in BUILD_ONLY:
                errors.append(
                    SourceError(
                        path,
                        node.lineno,
                        node.col_offset + 1,
                        f"the figure module imports '{name}', which only the build's machine has",
                        BUILD_ONLY_FIX,
                    )
                )
            elif top in NOT_IN_BROWSER:
                errors.append(
                    SourceError(
                        path,
                        node.lineno,
                        node.col_offset + 1,
                        f"the figure module imports '{name}', which the Python in the reader's "
                        f"browser (Pyodide) does not have",
                        NOT_IN_BROWSER_FIX,
                    )
                )
            elif (path.parent / f"{top}.py").is_file() and not top.startswith("_") and not allowed(name):
                errors.append(
                    SourceError(
                        path,
                        node.lineno,
                        node.col_offset + 1,
                        f"the figure module imports '{name}' as if it were installed; {top}.py "
                        f"is a module of the figures folder",
                        f"import it with a dot, from the folder: from . import {top}"
                        + (
                            f" (or from .{top} import {', '.join(a.name for a in node.names)})"
                            if isinstance(node, ast.ImportFrom)
                            else ""
                        ),
                    )
                )
            elif not allowed(name):
                errors.append(
                    SourceError(
                        path,
                        node.lineno,
                        node.col_offset + 1,
                        f"the figure module imports '{name}', which it may not",
                        RULE,
                    )
                )
    return errors


def _imported_by_call(node: ast.Call) -> str | None:
    """The module the call imports by a string written out, or None (at build time the
    builder's own packages are there to import, in the reader's browser they are not).
    (A name put together while the module runs cannot be checked here; the browser then
    reports that module's failure on its own figures.)"""
    if not (node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
        return None
    module = node.args[0].value
    func = node.func
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
    return module if name in ("import_module", "__import__") and not module.startswith(".") else None


def is_directive_name(name: str) -> bool:
    """Lower-case words joined by '-': what a figure or exercise type may be called."""
    return bool(_NAME.match(name or ""))


def validate(model, path: Path, tree: ast.AST) -> list[SourceError]:
    """A registered figure's spec and first frame: each mistake at the author's line."""
    where = class_line(tree, type(model).__name__)
    label = f"figure '{model.name}'"
    if not is_directive_name(model.name):
        return [
            SourceError(
                path,
                where,
                1,
                f"the figure name {model.name!r} is not a directive name",
                "use lower-case words joined by '-', e.g. name = \"softmax-bars\"",
            )
        ]
    errors = []
    for option in model.options:
        default = option.default
        text = " ".join(map(str, default)) if isinstance(default, (list, tuple)) else default
        text = str(text).lower() if isinstance(text, bool) else text
        try:
            option.parse(text)
        except ValueError as err:
            errors.append(
                SourceError(
                    path,
                    param_line(tree, option.name, where),
                    1,
                    f"{label}: the default of '{option.name}' is not one of its own values: "
                    f"{getattr(err, 'message', err)}",
                    "change the default or the range so that the default lies inside it",
                )
            )
    for experiment in getattr(model, "experiments", ()):
        for key in experiment.set:
            if model.param(key) is None:
                errors.append(
                    SourceError(
                        path,
                        param_line(tree, experiment.name, where),
                        1,
                        f"{label}: the experiment '{experiment.name}' sets '{key}', which is not a parameter",
                        "set only names listed in params",
                    )
                )
    errors.extend(check_names(model, path, tree, label))
    errors.extend(check_hooks(tree, type(model).__name__, path, label))
    if errors:
        return errors
    # Draw the first frame and run each experiment, as the page and a reader will.
    try:
        state = model.initial_state(model.parse_options({}))
        frame = model.scene(state)
    except Exception as err:
        if isinstance(err, Misused):
            line = author_line(err, path, where)
            return [SourceError(path, line, column_at(tree, line), err.problem, err.fix)]
        said = stopped_or_missing(err, model, path, tree, where, f"{label}: drawing its first frame")
        if said:
            return [said]
        line = author_line(err, path, where)
        return [
            SourceError(
                path,
                line,
                author_column(err, path, line),
                f"{label}: drawing its first frame raised {described(err)}",
                _fix(err),
            )
        ]
    twice = check_panels(frame, model, path, tree, label, "its first frame")
    if twice:
        return twice
    unplain = not_plain(frame)
    if unplain:
        line = hook_line(tree, type(model).__name__, "compute", where)
        return [
            SourceError(
                path,
                line,
                column_at(tree, line),
                f"{label}: its first frame holds what the page cannot show: {unplain}",
                _PLAIN,
            )
        ]
    for experiment in getattr(model, "experiments", ()):
        line = param_line(tree, experiment.name, where)
        try:
            frame = model.scene(model.apply(copy.deepcopy(state), {"type": "action", "name": experiment.name}))
        except FieldError as err:  # a value of its `set` that the parameter refuses
            return [
                SourceError(
                    path,
                    line,
                    1,
                    f"{label}: the experiment '{experiment.name}' sets a value its parameter refuses: {err.message}",
                    "set a value inside the parameter's range",
                )
            ]
        except Misused as err:
            at = author_line(err, path, line)
            return [SourceError(path, at, column_at(tree, at), err.problem, err.fix)]
        except Exception as err:
            said = stopped_or_missing(
                err, model, path, tree, line, f"{label}: running the experiment '{experiment.name}'"
            )
            if said:
                return [said]
            at = author_line(err, path, line)
            return [
                SourceError(
                    path,
                    at,
                    author_column(err, path, at),
                    f"{label}: running the experiment '{experiment.name}' raised {described(err)}",
                    _fix(err, "runs each experiment from the first settings, as a reader's press does"),
                )
            ]
        twice = check_panels(frame, model, path, tree, label, f"after the experiment '{experiment.name}', its frame")
        if twice:
            return twice
        unplain = not_plain(frame)
        if unplain:
            return [
                SourceError(
                    path,
                    line,
                    1,
                    f"{label}: after the experiment '{experiment.name}', its frame "
                    f"holds what the page cannot show: {unplain}",
                    _PLAIN,
                )
            ]
    return []


_MISSING = re.compile(r"the value '([^']+)' is neither computed nor in the state")


def stopped_or_missing(
    err: BaseException, model, path: Path, tree: ast.AST, fallback: int, doing: str
) -> SourceError | None:
    """The error for what the fence stopped (a time limit, sys.exit, a refused import) at
    the author's line, or for a declared Value that compute does not give, at the
    ``Value(...)`` that declares it; else None."""
    err = stopped(err) or err
    if isinstance(err, Stopped):
        line = author_line(err, path, fallback)
        return SourceError(path, line, column_at(tree, line), f"{doing} {err.text}", err.fix)
    declared = {value.name for value in getattr(model, "values", ()) or ()}
    missing = _MISSING.search(str(err)) if isinstance(err, KeyError) else None
    if missing or (isinstance(err, KeyError) and len(err.args) == 1 and err.args[0] in declared):
        name = missing.group(1) if missing else err.args[0]  # v["top"] in draw or status: compute did not give it
        line, col = value_line(tree, name, fallback)
        return SourceError(
            path,
            line,
            col,
            f"{doing} raised KeyError: compute does not return the value "
            f"'{name}' declared on line {line} (nor does the state hold it)",
            f'return it from compute, e.g. {{"{name}": ...}}, or remove its Value',
        )
    return None


_PLAIN = (
    "a frame is finite numbers, text, True/False, lists and dicts: look for a division by zero, log(0) "
    "or an overflow (nan, inf), or a set or an object where a list or a number belongs"
)
STATE_HOOKS = ("setup", "changed", "on_set", "on_drag", "on_select", "on_action", "reset", "start")


def _fix(err: BaseException, what: str = "draws the first frame with the default options, as a page does") -> str:
    """How to mend the error a hook raised on the first frame or an experiment (``what``
    the build did)."""
    if isinstance(err, KeyError):
        return (
            "a state key is a parameter's name or one setup adds; a value's key is one compute "
            "returns: check the name at that line"
        )
    return f"fix the line; the build {what}"


def check_hooks(tree: ast.AST, class_name: str, path: Path, label: str) -> list[SourceError]:
    """Every hook of the figure's class that is given the state (setup, changed, on_drag,
    ...) returns something: one that changes the state in place and returns nothing would
    fail only when a reader first used it."""
    errors = []
    for node in class_body(tree, class_name):
        if (
            isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and node.name in STATE_HOOKS
            and not node.decorator_list
        ):  # a decorator may return the state for it
            inside = list(_own_nodes(node))
            if not any(isinstance(n, ast.Return) and n.value is not None for n in inside) and not any(
                isinstance(n, ast.Raise) for n in inside
            ):
                given = node.args.args[1].arg if len(node.args.args) > 1 else "state"
                errors.append(
                    SourceError(
                        path,
                        node.lineno,
                        node.col_offset + 1,
                        f"{label}: {node.name} returns nothing, and the kit takes what it returns as the next state",
                        f"end it with `return {given}`",
                    )
                )
    return errors


def _own_nodes(function: ast.AST):
    """The nodes of ``function``'s body, not those of a function or lambda inside it."""
    todo = list(ast.iter_child_nodes(function))
    while todo:
        node = todo.pop()
        yield node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            todo.extend(ast.iter_child_nodes(node))
