"""The fence around an author's code while the build runs it: importing a module of the
figures folder, and every call into a figure or exercise type it registered (from the
checks, the directives, the prose's roles and the print page alike).

Inside the fence:

- a time limit (``LIMIT`` seconds, ``EXPLORABLES_AUTHOR_LIMIT`` in the environment to
  change it): a module that loops at import, or a ``compute`` that never finishes for a
  lesson's options, is stopped and reported at the line it was on, instead of hanging
  the build (``signal.setitimer`` in the main thread, as ``build`` and serve's warm
  build process run; a line tracer in any other thread);
- every way out that is not an exception (``sys.exit(0)``, ``raise SystemExit("...")``,
  ``GeneratorExit``) becomes an author's error at its line, so the build never ends with
  the author's exit code and no site (Ctrl+C still stops the build);
- imports the author's own code makes while it runs (``__import__(name)``,
  ``importlib.import_module(name)``, an ``import`` inside ``compute``: every door into
  the import machinery, ``DOORS``) are checked as the module's written imports are (the
  rules are in rules.py): what the reader's browser lacks, and what only the build's
  machine can do (processes, sockets, threads), is refused at its line.

Each of these raises ``Stopped`` (an Exception), whose traceback keeps the author's frames
so that ``lines.author_line`` finds the line."""

from __future__ import annotations

import builtins
import contextlib
import functools
import importlib
import inspect
import os
import signal
import sys
import threading
import time
from contextlib import contextmanager
from types import FrameType

from . import capabilities, roads
from .rules import BUILD_ONLY, BUILD_ONLY_FIX, NOT_IN_BROWSER, NOT_IN_BROWSER_FIX, PACKAGE, RULE, allowed

LIMIT = 10.0  # seconds one call into an author's code may take at build time


class Stopped(Exception):
    """An author's code stopped by the fence: ``text`` says why, without the line. ``where``
    is the author's file and line it was made at (for lines.author_line, when a standard
    module caught it before it reached the author's frame), and ``mention`` a name to look
    for in the author's file when no frame of it was running (what it left behind)."""

    def __init__(self, text: str, fix: str = "", mention: str = ""):
        super().__init__(text)
        self.text, self.fix, self.mention = text, fix, mention
        frame = capabilities.author_frame(sys._getframe(1))
        self.where = (frame.f_code.co_filename, frame.f_lineno) if frame is not None else None


class Refused(Stopped, ModuleNotFoundError):  # (what the standard library expects of a missing module)
    """An import the author's code made while it ran, of a module it may not use, or a
    capability it used that only the build's machine has (capabilities.py)."""


capabilities._refusal = Refused


def stopped(err: BaseException) -> Stopped | None:
    """The fence's error that ``err`` is, or was raised in handling (a standard module may
    wrap a refused import in an error of its own: pydoc.locate's ErrorDuringImport)."""
    seen = set()
    each: BaseException | None = err
    while each is not None and id(each) not in seen:
        if isinstance(each, Stopped):
            return each
        seen.add(id(each))
        each = each.__cause__ or each.__context__
    return None


def limit() -> float:
    try:
        value = float(os.environ.get("EXPLORABLES_AUTHOR_LIMIT", LIMIT))
    except ValueError:
        return LIMIT
    return value if value > 0 else LIMIT


_inside = capabilities._fenced  # .depth: of the fence in this thread


class _TimeUp(BaseException):
    """Raised into the author's code when its time is up (not an Exception: an author's
    ``except Exception`` does not swallow it; the timer fires again if a bare except does)."""


def _author_import(name: str) -> None:
    """Refuse ``name`` (absolute), which an author's module imports while the fence is up,
    if it is a module the browser lacks, or one that works only at build time."""
    if name == PACKAGE or name.startswith(PACKAGE + ".") or name == "explorables":
        return  # the figures folder's own modules (and the package of the kit and the engine)
    top = name.split(".")[0]
    if top in BUILD_ONLY or name in BUILD_ONLY:
        raise Refused(f"imports '{name}' while it runs, which only the build's machine has", BUILD_ONLY_FIX)
    if top in NOT_IN_BROWSER:
        raise Refused(
            f"imports '{name}' while it runs, which the Python in the reader's browser (Pyodide) does not have",
            NOT_IN_BROWSER_FIX,
        )
    if not allowed(name):
        raise Refused(f"imports '{name}' while it runs, which it may not", RULE)


# Every door into the import machinery that an author's code can reach while it runs: each is
# swapped, while the fence is up, for one that checks what it imports. (``import x``, and
# __builtins__["__import__"], go through builtins.__import__; importlib.__import__ is
# importlib._bootstrap.__import__; a name bound before, ``from importlib import
# import_module``, is the same function.)
DOORS = (
    (builtins, "__import__"),
    (importlib, "import_module"),
    (importlib, "__import__"),
    (importlib._bootstrap, "__import__"),
    (importlib._bootstrap, "_gcd_import"),
)
_real = [getattr(module, name) for module, name in DOORS]  # what the fence found in place, put back after it
_MACHINERY = {__file__, importlib.__file__, "<frozen importlib._bootstrap>", "<frozen importlib._bootstrap_external>"}


def _asked_by_author() -> bool:
    """Whether the code that opened the door is an author's module: the nearest frame that
    is neither the import machinery's, the fence's, nor a standard module's that resolves
    a name given to it (roads.RESOLVERS: pkgutil.resolve_name, pydoc.locate, ...), whatever
    globals it passed."""
    frame: FrameType | None = sys._getframe(2)
    while frame is not None and (
        frame.f_code.co_filename in _MACHINERY
        or (frame.f_code.co_name != "<module>" and os.path.realpath(frame.f_code.co_filename) in roads.RESOLVERS)
    ):
        frame = frame.f_back
    return frame is not None and frame.f_globals.get("__name__", "").startswith(PACKAGE + ".")


def _checked(name, package, level: int, fromlist=()) -> None:
    """Check an import an author's code asked for: ``name`` relative to ``package`` when
    ``level`` says so (a name that does not resolve is left to the machinery to refuse)."""
    if not isinstance(name, str) or not getattr(_inside, "depth", 0):
        return
    author = _asked_by_author()
    try:
        # the machinery's own resolution, as __import__ does it: private, so typeshed has no stub of it
        name = importlib._bootstrap._resolve_name(name, package, level) if level else name  # type: ignore[attr-defined]
    except (ImportError, ValueError, TypeError, AttributeError):
        return
    for each in [name, *(f"{name}.{item}" for item in fromlist or () if isinstance(item, str) and item != "*")]:
        if author:
            _author_import(each)
        else:  # the standard library's own import, while the author's code runs: what the browser lacks
            roads.check(each)


def _package(globals, level: int):
    try:
        # private like _resolve_name: the package __import__ itself would resolve against
        return importlib._bootstrap._calc___package__(globals) if level and globals else None  # type: ignore[attr-defined]
    except (ImportError, ValueError, TypeError, AttributeError):
        return None


def _import(name, globals=None, locals=None, fromlist=(), level=0):
    _checked(name, _package(globals, level), level, fromlist)
    return _real[0](name, globals, locals, fromlist, level)


def _import_module(name, package=None):
    dots = len(name) - len(name.lstrip(".")) if isinstance(name, str) else 0
    _checked(name[dots:] if dots else name, package, dots)
    return _real[1](name, package)


def _importlib_import(name, globals=None, locals=None, fromlist=(), level=0):
    _checked(name, _package(globals, level), level, fromlist)
    return _real[2](name, globals, locals, fromlist, level)


def _bootstrap_import(name, globals=None, locals=None, fromlist=(), level=0):
    _checked(name, _package(globals, level), level, fromlist)
    return _real[3](name, globals, locals, fromlist, level)


def _gcd_import(name, package=None, level=0):
    _checked(name, package, level)
    return _real[4](name, package, level)


_FENCED = [_import, _import_module, _importlib_import, _bootstrap_import, _gcd_import]


@contextmanager
def fenced():
    """Run the block as an author's code: time limit, imports checked, every exit an
    error. Nested fences are one fence (the outermost keeps the time)."""
    depth = getattr(_inside, "depth", 0)
    if depth:
        _inside.depth = depth + 1
        try:
            yield
        finally:
            _inside.depth = depth
        return
    _inside.depth = 1
    _inside.refused = None  # a capability refused, for when the author's code lets go of the error
    seconds = limit()
    main = threading.current_thread() is threading.main_thread()
    armed = [True]  # the timer fires again every 50 ms (a bare except may swallow it), until the fence comes down

    def time_up(signum, frame):
        if not armed[0]:
            return
        if sys.gettrace() is not every_line:  # from now on each line raises too, in the handler of a bare except
            capabilities.REAL_SETTRACE(every_line)
            while frame is not None:
                frame.f_trace = every_line
                frame = frame.f_back
        raise _TimeUp()

    every_line = _tracer(0, armed, authors_only=True)
    old_trace = sys.gettrace()
    before = capabilities.taken()  # what the build's Python runs on its own: put back, and said, if changed
    if main:
        previous = capabilities.REAL_SIGNAL(signal.SIGALRM, time_up)
        capabilities.REAL_SETITIMER(signal.ITIMER_REAL, seconds, 0.05)
    else:
        capabilities.REAL_SETTRACE(_tracer(seconds, armed))
    if builtins.__import__ is not _import:  # (a fence up in another thread has them saved already)
        _real[:] = [getattr(module, name) for module, name in DOORS]
    for (module, name), door in zip(DOORS, _FENCED, strict=True):
        setattr(module, name, door)
    capabilities.swap_in()  # processes, threads, signals, ... refused where they are used
    hidden = roads.close()  # modules the browser lacks, refused on every road to them
    try:
        try:
            yield
        finally:
            armed[0] = False
            capabilities.swap_out()
            if main:
                capabilities.REAL_SETITIMER(signal.ITIMER_REAL, 0, 0)
                capabilities.REAL_SIGNAL(signal.SIGALRM, previous)
            capabilities.REAL_SETTRACE(old_trace)
            for (module, name), real in zip(DOORS, _real, strict=True):
                setattr(module, name, real)
            roads.reopen(hidden)
            _inside.depth = 0
            changed = capabilities.left_behind(before)
        kept = _inside.refused
        if kept is not None:
            raise kept[0].with_traceback(kept[1])
        if changed:
            raise Refused(
                f"changes {changed} while it runs, which the build's own Python uses",
                "keep the figure's functions in its module: the build would run this outside the figure, "
                "and the reader's browser never calls it",
                mention=changed,
            )
    except Stopped:
        raise
    except Exception as err:
        kept = _inside.refused
        if kept is not None:  # the author's code turned the refusal into an error of its own
            raise kept[0].with_traceback(kept[1]) from err
        raise
    except KeyboardInterrupt:
        raise
    except _TimeUp as err:
        raise Stopped(
            f"did not finish within {seconds:g} s",
            "look for an endless loop: the build runs the figure's code as a reader's browser will "
            "(EXPLORABLES_AUTHOR_LIMIT sets the seconds it may take)",
        ).with_traceback(err.__traceback__) from None
    except BaseException as err:  # sys.exit(), SystemExit("..."), GeneratorExit: they would end the build itself
        said = (
            f"called sys.exit({'' if err.code is None else repr(err.code)})"
            if isinstance(err, SystemExit) and not isinstance(err.code, str)
            else f"raised {type(err).__name__}({', '.join(map(repr, err.args))})"
        )
        raise Stopped(
            said,
            "the build runs the module as part of itself, and this would end it: raise an "
            'exception with a message instead, e.g. ValueError("...")',
        ).with_traceback(err.__traceback__) from err


def _tracer(seconds: float, armed: list, authors_only: bool = False):
    """A line tracer that raises once ``seconds`` have passed: outside the main thread,
    where no signal can interrupt (in any frame but the fence's own); and after the
    first signal, on every line of the author's own code, so that a bare ``except``
    there cannot swallow it for ever."""
    end = time.monotonic() + seconds
    own = (__file__, contextlib.__file__)

    def trace(frame, event, arg):
        if (
            event == "line"
            and armed[0]
            and time.monotonic() > end
            and frame.f_code.co_filename not in own
            and (not authors_only or frame.f_globals.get("__name__", "").startswith(PACKAGE + "."))
        ):
            raise _TimeUp()
        return trace

    return trace


# The methods of a figure or an exercise type through which the build calls the author's code.
ENTRIES = (
    "parse_options",
    "initial_state",
    "scene",
    "apply",
    "manifest",
    "values_of",
    "patch",
    "problem",
    "generate",
    "solve",
    "statement",
    "grade",
    "check",
    "answer_size",
    "close",
)


def fence_model(model) -> None:
    """Put each entry of ``model`` (an author's registered figure or exercise type) behind
    the fence, on the instance itself: whoever calls it at build time goes through it."""
    for name in ENTRIES:
        if not inspect.isfunction(getattr(type(model), name, None)):
            continue
        method = getattr(model, name)

        @functools.wraps(method)
        def entry(*args, _method=method, **kwargs):
            hung = model.__dict__.get("_explorables_hung", {}).get(_method.__name__)
            if hung is not None:  # once over the time limit, at once again: one hang costs the build one wait
                raise Stopped(hung.text, hung.fix).with_traceback(hung.__traceback__)
            try:
                with fenced():
                    return _method(*args, **kwargs)
            except Stopped as err:
                if err.text.startswith("did not finish"):
                    model.__dict__.setdefault("_explorables_hung", {})[_method.__name__] = err
                raise

        setattr(model, name, entry)
