"""How the kit names an author's mistake: where a hook is defined, what it gave, and the
errors that carry both (``Misused``, ``HookFailed``), for the build's and the page's reports."""
from __future__ import annotations

from typing import Any


def _file_line(filename: str, line: int) -> str:
    """'dot_drag.py:12': how the kit's messages name a line of an author's module."""
    return f"{filename.replace(chr(92), '/').rsplit('/', 1)[-1]}:{line}"


def _where(function: Any) -> str:
    """' (dot_drag.py:19)': where ``function`` is defined, or "" for a callable without code."""
    code = getattr(function, "__code__", None)
    return f" ({_file_line(code.co_filename, code.co_firstlineno)})" if code is not None else ""


def _a(value: Any) -> str:
    """How a message names what a hook gave: "None", "a str ('weights')"."""
    if value is None:
        return "None"
    shown_value = repr(value)
    return f"a {type(value).__name__} ({shown_value[:40] + '...' if len(shown_value) > 40 else shown_value})"


def _folder(filename: str) -> str:
    return filename.replace(chr(92), "/").rsplit("/", 1)[0]


class Misused(TypeError):
    """What an author's hook gave, which the kit cannot use (None for the state, a dict
    for the panels): ``problem``, and ``fix``, how to mend it. It is found after the hook
    returned, so no frame of the traceback is the author's: ``filename`` and ``line`` say
    where the hook ``function`` is defined, and the message ends with them."""

    def __init__(self, problem: str, fix: str, function: Any = None):
        code = getattr(function, "__code__", None)
        self.problem, self.fix = problem, fix
        self.filename = code.co_filename if code is not None else ""
        self.line = code.co_firstlineno if code is not None else 0
        super().__init__(f"{problem}; {fix}{_where(function)}")


class HookFailed(Exception):
    """A ValueError an author's hook raised, raised again as a bug (see ``Figure.located``):
    no reporter takes it for a value refused. ``error`` is the ValueError, which the
    reports name (``described``)."""

    def __init__(self, error: BaseException):
        super().__init__(str(error))
        self.error = error


def described(err: BaseException) -> str:
    """An error as a report names it, "KeyError: 'scale'"; a HookFailed by the error it
    stands for, "ValueError: could not convert ...", as it would name a KeyError."""
    inner = err.error if isinstance(err, HookFailed) else err
    return f"{'TypeError' if isinstance(inner, Misused) else type(inner).__name__}: {inner}"
