"""Where in an author's module a mistake is: the line (and column) of a class, an
attribute, a hook, a parameter or a value, found in the module's ``ast``, or the
deepest frame of the author's file in a traceback (checks.py and exercise_checks.py
name their errors with these)."""

from __future__ import annotations

import ast
import contextlib
import re
import traceback
from pathlib import Path

from ...engine.figures.kit.figure import Misused


def called(node: ast.Call) -> str:
    """The name a call calls: ``Slider`` in ``Slider(...)`` and in ``kit.Slider(...)``."""
    return node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")


def calls_naming(tree: ast.AST, name: str, kinds: tuple[str, ...] = ()) -> list[ast.Call]:
    """The calls whose first argument is the string ``name`` (calls of one of ``kinds``,
    when given), in the order they are written."""
    found = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and node.args[0].value == name
        and (not kinds or called(node) in kinds)
    ]
    return sorted(found, key=lambda node: (node.lineno, node.col_offset))


def _call_naming(tree: ast.AST, name: str, kinds: tuple[str, ...] = ()) -> ast.Call | None:
    """The first call whose first argument is the string ``name`` (a call of one of
    ``kinds``, when given), or None."""
    return next(iter(calls_naming(tree, name, kinds)), None)


def value_line(tree: ast.AST, name: str, fallback: int) -> tuple[int, int]:
    """The line and column of the ``Value("name", ...)`` that declares ``name``."""
    node = _call_naming(tree, name, ("Value",))
    return (node.lineno, node.col_offset + 1) if node is not None else (fallback, 1)


def class_of(tree: ast.AST, class_name: str) -> ast.ClassDef | None:
    """The module's class ``class_name`` (the first of that name), or None."""
    return next((node for node in ast.walk(tree) if isinstance(node, ast.ClassDef) and node.name == class_name), None)


def class_body(tree: ast.AST, class_name: str) -> list[ast.stmt]:
    node = class_of(tree, class_name)
    return node.body if node is not None else []


def hook_line(tree: ast.AST, class_name: str, hook: str, fallback: int) -> int:
    """The line where the class ``class_name`` defines ``hook``, else ``fallback``."""
    return next(
        (
            n.lineno
            for n in class_body(tree, class_name)
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == hook
        ),
        fallback,
    )


def column_at(tree: ast.AST, line: int, kinds: tuple[str, ...] = ()) -> int:
    """The column of what a message at ``line`` is about: the ``def`` (or lambda) that
    starts there, else the first call there of one of ``kinds`` (``Slider(``), else 1."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) and node.lineno == line:
            return node.col_offset + 1
    calls = [
        node for node in ast.walk(tree) if isinstance(node, ast.Call) and node.lineno == line and called(node) in kinds
    ]
    return min(call.col_offset for call in calls) + 1 if calls else 1


def author_frames(err: BaseException, path: Path) -> list[traceback.FrameSummary]:
    """The frames of ``err``'s traceback in the author's file ``path``, the deepest last."""
    return [f for f in traceback.extract_tb(err.__traceback__) if Path(f.filename) == path]


def author_line(err: BaseException, path: Path, fallback: int = 1) -> int:
    """The line of the author's file where ``err`` was raised (the deepest such frame)."""
    if isinstance(err, SyntaxError) and err.filename == str(path):
        return err.lineno or fallback
    if isinstance(err, Misused) and err.filename and Path(err.filename) == path:
        return err.line  # a hook of the file gave what the kit cannot use: its def line
    frames = author_frames(err, path)
    if frames:
        return frames[-1].lineno or fallback
    where = getattr(err, "where", None)  # the fence's error, caught by a standard module before the author's frame
    if where and Path(where[0]) == path:
        return where[1]
    mention = getattr(err, "mention", "")  # what the author's code left behind: the first line that names it
    with contextlib.suppress(OSError):
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines() if mention else []
        for name in (mention, mention.rsplit(".", 1)[-1]) if mention else ():
            for number, text in enumerate(lines, 1):
                if re.search(rf"\b{re.escape(name)}\b", text):
                    return number
    return fallback


def author_column(err: BaseException, path: Path, line: int) -> int:
    """The column on ``line`` of the author's file where ``err`` was raised: the start of
    the expression the traceback points at, in the deepest frame of the file on that line
    (a column in characters, where Python counts bytes), else 1."""
    frames = [f for f in author_frames(err, path) if f.lineno == line]
    offset = frames[-1].colno if frames else None
    if not offset:
        return 1
    with contextlib.suppress(OSError, IndexError):
        text = path.read_text(encoding="utf-8", errors="replace").splitlines()[line - 1]
        return len(text.encode("utf-8")[:offset].decode("utf-8", errors="replace")) + 1
    return 1


def class_line(tree: ast.AST, class_name: str) -> int:
    node = class_of(tree, class_name)
    return node.lineno if node is not None else 1


def attribute_line(tree: ast.AST, class_name: str, attribute: str, fallback: int) -> int:
    """The line where the class ``class_name`` sets ``attribute`` (``kind = ...``)."""
    for statement in class_body(tree, class_name):
        targets = (
            statement.targets
            if isinstance(statement, ast.Assign)
            else ([statement.target] if isinstance(statement, ast.AnnAssign) else [])
        )
        if any(isinstance(t, ast.Name) and t.id == attribute for t in targets):
            return statement.lineno
    return fallback


def param_line(tree: ast.AST, name: str, fallback: int) -> int:
    """The line of a call whose first argument is the string ``name`` (a Slider, an Experiment)."""
    node = _call_naming(tree, name)
    return node.lineno if node is not None else fallback
