"""The methods of the engine's dataclasses, compiled ahead for Pyodide's Python.

Making a dataclass writes the source of its ``__init__``, ``__repr__``, ``__eq__`` and
the rest, and compiles it: in Pyodide that compile is most of the class's cost, some
1.5-2.5 ms a class, about half of importing the engine in a reader's worker. The text
a class generates depends only on the class, so site_builder/pyodide/bytecode.py
imports the engine once in Pyodide, keeps what each text compiled to, and ships the
pairs in the engine archive (``DATACLASSES``, beside this module). Here, in Pyodide,
importing this module (the engine's ``__init__`` does, first) lets ``dataclasses`` run
those compiled texts instead of compiling them again.

A text not among them (a module edited since, an author's own dataclass) is compiled as
before: the pairs are keyed by the whole text, so nothing ever runs other code than its
own. The file holds the Python version it was made by, and is read by no other.
"""

from __future__ import annotations

import builtins
import dataclasses
import marshal
import os
import sys
from types import CodeType
from typing import Any

DATACLASSES = os.path.join(os.path.dirname(__file__), "dataclasses.marshal")
COUNTS = {"compiled ahead": 0, "compiled here": 0}  # texts run, since ``use``


def header() -> bytes:
    """The file's first line: the Python that made it (marshal's format is its own)."""
    return sys.version.encode("utf-8").replace(b"\n", b" ") + b"\n"


def texts_run_by(made: dict[str, CodeType], record: bool = False) -> None:
    """Have ``dataclasses`` run the compiled form of each text in ``made``, compiling the
    others; with ``record``, also keep what each of those compiled to in ``made``."""

    def run(source: Any, globals: Any = None, locals: Any = None, /, **given: Any) -> None:
        if isinstance(source, str):
            code = made.get(source)
            if code is not None:
                COUNTS["compiled ahead"] += 1
                source = code
            else:
                COUNTS["compiled here"] += 1
                if record:
                    code = made[source] = compile(source, "<string>", "exec", dont_inherit=True)
                    source = code
        builtins.exec(source, globals, locals, **given)

    dataclasses.exec = run  # type: ignore[attr-defined]  # read before the builtin, as a module global


def use() -> None:
    """In Pyodide, with the archive's compiled texts of this Python beside this module."""
    if sys.platform != "emscripten":
        return
    try:
        with open(DATACLASSES, "rb") as file:
            if file.readline() != header():
                return
            made = marshal.load(file)
    except (OSError, EOFError, ValueError, TypeError):
        return
    if isinstance(made, dict):
        texts_run_by(made)


use()
