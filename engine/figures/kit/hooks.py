"""How the kit names an author's mistake: where a hook is defined, what it gave, and the
errors that carry both (``Misused``, ``HookFailed``), for the build's and the page's reports."""

from __future__ import annotations

import sys
import traceback
import warnings
from typing import Any

from ..base import FieldError, OptionError, OptionErrors

BUILT_IN = "explorables.engine."  # the package of the built-in figures; any other module is an author's


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


def old_signature(figure: Any, hook: str, arguments: int, now: str) -> bool:
    """Whether ``figure``'s ``hook`` takes the state and ``arguments - 1`` more, as it did
    before 0.3; if so, a DeprecationWarning saying how it is written ``now``."""
    code = getattr(getattr(getattr(figure, hook), "__func__", None), "__code__", None)
    if code is None or code.co_argcount != arguments + 1 or code.co_flags & 0x04:  # self, state, ...; no *args
        return False
    warnings.warn(f"{figure.name}.{hook} now takes the element's index: write {now}", DeprecationWarning, stacklevel=4)
    return True


class HookChecks:
    """What a Figure does with its author's hooks: what they return, where they fail."""

    name: str = ""

    def returned(self, hook: str, state: Any) -> dict[str, Any]:
        """The state a hook returned. A hook that changes ``state`` in place and forgets to
        return it gives None, which failed later, in the kit, as "'NoneType' object does
        not support item assignment": this names the hook and its line instead."""
        if isinstance(state, dict):
            return state
        got = "None" if state is None else f"a {type(state).__name__}"
        raise Misused(
            f"{self.name}.{hook} returned {got}, not the state",
            "return the state (the dict it was given, changed)",
            self._hook(hook),
        )

    def _hook(self, hook: str) -> Any:
        """The function the figure's class defines as ``hook``."""
        return getattr(getattr(self, hook, None), "__func__", None)

    def _raised_at(self, err: BaseException, where: Any = None) -> str:
        """' (dot_drag.py:12)': the deepest line of ``err``'s traceback in the figure's
        folder (its module, or a helper module beside it) or in the file of the function
        ``where``; else, when the call to ``where`` itself failed (its signature), where
        ``where`` is defined."""
        code = getattr(where, "__code__", None)
        module = sys.modules.get(type(self).__module__)
        folders = {_folder(f) for f in (getattr(module, "__file__", None), code and code.co_filename) if f}
        frames = [f for f in traceback.extract_tb(err.__traceback__) if _folder(f.filename) in folders]
        if frames:
            return f" ({_file_line(frames[-1].filename, frames[-1].lineno or 0)})"
        return f" ({_file_line(code.co_filename, code.co_firstlineno)})" if code is not None else ""

    def located(self, hook: str, method: Any, *args: Any) -> Any:
        """``method(*args)``: the hook ``hook`` (setup, compute, draw, status) of an author's
            figure. Whoever reports an error takes a ValueError for a value refused, and shows
            its bare message (the directive's line at build time, beside a field in the page),
            where any other exception is a bug, named with its type and the author's line. A
            ValueError from these hooks is a bug too (``float("1; 0.5")``, a bar above its
            max): it is raised again as a ``HookFailed`` holding it, with its traceback. An
        OptionError or FieldError is a message meant as it is and stays;
            so do the built-in figures' errors, and the event hooks', whose ValueError refuses
            a reader's input."""
        try:
            return method(*args)
        except (FieldError, OptionError, OptionErrors):
            raise
        except ValueError as err:
            if type(self).__module__.startswith(BUILT_IN):
                raise
            raise HookFailed(err).with_traceback(err.__traceback__) from None
