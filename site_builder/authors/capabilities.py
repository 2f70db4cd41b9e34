"""What only the build's machine can do, refused where it is used while an author's code
runs (guard.py puts these up with the rest of its fence): starting a process, opening a
socket, starting a thread, running machine code (ctypes), changing the build's signals or
ending it, and leaving code behind to run later in the build.

The rule is on the capability, not on the road to it: a module reached without an import
(``sys.modules["subprocess"]``, ``asyncio.subprocess``, ``logging.threading``), resolved by
the standard library on the author's behalf (``pkgutil.resolve_name``, ``pydoc.locate``,
``runpy``, ``pickle``), loaded afresh from its spec or file (``importlib.util``), or reached
through its C half (``posix.system``, ``_socket.socket``, ``_thread.start_new_thread``,
``_posixsubprocess.fork_exec``) ends in one of these few places, and each is refused there:

- the interpreter's audit events (PEP 578) for processes, sockets and ctypes, through one
  hook added once: it does nothing unless the thread is inside the fence, or an author's
  function is on the stack (a ``__del__`` or a replaced standard function the build calls
  later);
- for what raises no audit event (threads, ``fork_exec``, ``os._exit``, signals,
  faulthandler, atexit, tracers), the functions themselves, swapped in their modules while
  the fence is up.

The reader's browser (Pyodide) can do none of these, so nothing a figure can use there is
refused. What a fence inside the build's own process cannot stop is said in ``LIMITS``."""

from __future__ import annotations

import _thread
import atexit
import builtins
import faulthandler
import os
import signal
import sys
import threading
from types import FrameType, ModuleType, TracebackType

from .rules import BUILD_ONLY_FIX, PACKAGE

LIMITS = (
    "The fence runs in the build's own process: code that crashes the interpreter itself "
    "(a hand-made code object, unbounded recursion after sys.setrecursionlimit), or that "
    "replaces a standard function with one compiled from text in globals of its own, is "
    "not stopped by it."
)
ENDING_FIX = 'raise an exception with a message instead, e.g. ValueError("...")'
SIGNAL_FIX = "the reader's browser (Pyodide) has no signals; the build keeps its own time limit with them"
MACHINE_CODE_FIX = (
    "the reader's browser (Pyodide) loads no machine code a figure brings: compute the figure's numbers "
    "with plain Python in the module"
)
LATER_FIX = (
    "the reader's browser never runs it, and the build would run it outside the figure's time limit: "
    "do the work in the figure's own hooks"
)

# Audit events (their names, or a prefix ending in "."), and what the code did.
EVENTS = {
    "os.system": "starts a process",
    "os.exec": "starts a process",
    "os.spawn": "starts a process",
    "os.posix_spawn": "starts a process",
    "os.fork": "starts a process",
    "os.forkpty": "starts a process",
    "os.startfile": "starts a process",
    "os.kill": "signals a process",
    "os.killpg": "signals a process",
    "subprocess.Popen": "starts a process",
    "pty.spawn": "starts a process",
    "webbrowser.open": "starts a process",
    "socket.": "opens a socket",
    "ctypes.": "runs machine code",
}


# Functions that raise no audit event of their own, swapped while the fence is up.
PROCESS_CALLS = (
    *("system", "popen", "fork", "forkpty", "posix_spawn", "posix_spawnp"),
    *("execv", "execve", "execvp", "execvpe", "execl", "execle", "execlp", "execlpe"),
    *("spawnv", "spawnve", "spawnvp", "spawnvpe", "spawnl", "spawnle"),
)
SIGNAL_CALLS = (
    *("signal", "setitimer", "alarm", "raise_signal", "pthread_kill", "pthread_sigmask", "siginterrupt"),
    *("set_wakeup_fd", "sigwait", "sigwaitinfo", "sigtimedwait"),
)
FAULT_CALLS = (
    *("dump_traceback_later", "register", "_sigsegv", "_sigabrt", "_sigfpe", "_fatal_error"),
    *("_fatal_error_c_thread", "_read_null", "_stack_overflow"),
)


class _Refusal(Exception):
    """Made into guard.Refused by the guard (this module does not import it: the guard
    imports this one); ``text`` and ``fix`` as Stopped has them."""

    def __init__(self, text: str, fix: str):
        super().__init__(text)
        self.text, self.fix = text, fix


_refusal: type[Exception] = _Refusal  # guard.Refused, once the guard has set it
_fenced = threading.local()  # .depth, shared with the guard


def inside() -> bool:
    """Whether this thread runs an author's code inside the fence."""
    return getattr(_fenced, "depth", 0) > 0


def refuse(text: str, fix: str, sticky: bool = True) -> Exception:
    """The error for what an author's code did; a ``sticky`` one is kept for the fence to
    raise when the code lets go of it (an ``except Exception: pass``, or a standard module
    that prints it, as ``code.InteractiveInterpreter`` does): a capability refused is the
    author's mistake even when the figure goes on."""
    err = _refusal(text, fix)
    frame = author_frame(sys._getframe(1))
    if sticky and frame is not None and inside() and getattr(_fenced, "refused", None) is None:
        _fenced.refused = err, TracebackType(None, frame, frame.f_lasti, frame.f_lineno)
    return err


def _did(event: str) -> str | None:
    if event in EVENTS:
        return EVENTS[event]
    head = event.split(".", 1)[0] + "."
    return EVENTS.get(head) if head in EVENTS else None


def author_frame(frame: FrameType | None) -> FrameType | None:
    """The nearest frame of an author's module's function in this thread: its globals are
    such a module's own (an author cannot rename its way out of that)."""
    spaces = {id(m.__dict__) for n, m in list(sys.modules.items()) if n.startswith(PACKAGE + ".") and m is not None}
    while frame is not None:
        if id(frame.f_globals) in spaces or str(frame.f_globals.get("__name__", "")).startswith(PACKAGE + "."):
            return frame
        frame = frame.f_back
    return None


def _authors_on_stack(frame: FrameType | None) -> bool:
    return author_frame(frame) is not None


def _audit(event: str, args: tuple) -> None:
    did = _did(event)
    if did is None:
        return
    if inside() or _authors_on_stack(sys._getframe(1)):
        fix = MACHINE_CODE_FIX if event.startswith("ctypes.") else BUILD_ONLY_FIX
        raise refuse(f"{did} ({event}) while it runs, which only the build's machine can", fix)


sys.addaudithook(_audit)  # once, for the process: idle outside an author's code


def _refused(said: str, fix: str, real, direct: bool = False):
    """A stand-in for ``real`` that refuses in an author's code, and calls ``real`` for the
    build's own (another thread of ``explorables serve`` answering a request). ``direct``:
    only when the author's own function calls it (the standard library registers its own
    clean-ups as it is first imported or used: logging, weakref.finalize)."""

    def call(*args, **kwargs):
        caller = sys._getframe(1)
        if direct and author_frame(caller) is not caller:
            return real(*args, **kwargs)
        if inside() or _authors_on_stack(caller):
            raise refuse(said, fix)
        return real(*args, **kwargs)

    call.__name__ = call.__qualname__ = getattr(real, "__name__", "refused")
    return call


def _modules(*names: str) -> list[ModuleType]:
    return [sys.modules[name] for name in names if name in sys.modules]


def _swaps() -> list[tuple[ModuleType, str, object]]:
    """(module, name, what stands in for it while the fence is up) for each function that
    raises no audit event of its own."""
    found: list[tuple[ModuleType, str, object]] = []

    def add(modules, names, said, fix, direct=False):
        for module in modules:
            for name in names:
                if hasattr(module, name):
                    text = said.format(name=name, module=module.__name__)
                    found.append((module, name, _refused(text, fix, getattr(module, name), direct)))

    oses = [os, *_modules("posix", "nt")]
    add(oses, ("_exit", "abort"), "calls {module}.{name} while it runs, which would end the build", ENDING_FIX)
    add(oses, ("kill", "killpg"), "calls {module}.{name} while it runs, which would end the build", ENDING_FIX)
    processes = PROCESS_CALLS
    add(
        oses,
        processes,
        "calls {module}.{name} while it runs, which starts a process only the build's machine has",
        BUILD_ONLY_FIX,
    )
    add(
        _modules("_posixsubprocess"),
        ("fork_exec",),
        "calls {module}.{name} while it runs, which starts a process only the build's machine has",
        BUILD_ONLY_FIX,
    )
    add(
        [_thread, threading],
        ("start_new_thread", "start_new", "_start_new_thread"),
        "starts a thread while it runs, which only the build's machine can",
        BUILD_ONLY_FIX,
    )
    add(
        [signal, *_modules("_signal")],
        SIGNAL_CALLS,
        "calls signal.{name} while it runs, which the build's time limit and Ctrl+C use",
        SIGNAL_FIX,
    )
    add(
        [faulthandler],
        FAULT_CALLS,
        "calls faulthandler.{name} while it runs, which would end the build",
        ENDING_FIX,
    )
    later = "calls atexit.register while it runs: code to run when the build ends"
    add([atexit], ("register",), later, LATER_FIX, direct=True)
    add(
        [sys, threading],
        ("settrace", "setprofile", "settrace_all_threads", "setprofile_all_threads"),
        "calls {module}.{name} while it runs: code the build would run on each of its own steps",
        LATER_FIX,
    )
    return found


_SWAPS = _swaps()
_REAL = [(module, name, getattr(module, name)) for module, name, _ in _SWAPS]
REAL_SETTRACE = sys.settrace  # the guard's own tracer goes in with these
REAL_SIGNAL, REAL_SETITIMER = signal.signal, signal.setitimer


def swap_in() -> None:
    for module, name, stand_in in _SWAPS:
        setattr(module, name, stand_in)


def swap_out() -> None:
    for module, name, real in _REAL:
        setattr(module, name, real)


_GONE = object()
# What the build's Python calls on its own, outside any figure: left as the fence found it.
HOOKS = ("excepthook", "unraisablehook", "displayhook", "breakpointhook")


def taken() -> tuple:
    """What an author's code could leave behind for the build to run later."""
    return (
        [getattr(sys, name, None) for name in HOOKS],
        threading.excepthook,
        list(sys.meta_path),
        list(sys.path_hooks),
        dict(vars(builtins)),
    )


def left_behind(before: tuple) -> str | None:
    """Put back what changed since ``before`` (taken()) and name the first change."""
    hooks, excepthook, meta_path, path_hooks, names = before
    changed = None
    for name, was in zip(HOOKS, hooks, strict=True):
        if getattr(sys, name, None) is not was:
            setattr(sys, name, was)
            changed = changed or f"sys.{name}"
    if threading.excepthook is not excepthook:
        threading.excepthook = excepthook
        changed = changed or "threading.excepthook"
    if sys.meta_path != meta_path or sys.path_hooks != path_hooks:
        changed = changed or ("sys.meta_path" if sys.meta_path != meta_path else "sys.path_hooks")
        sys.meta_path[:], sys.path_hooks[:] = meta_path, path_hooks
    space = vars(builtins)
    moved = [k for k, v in names.items() if space.get(k, _GONE) is not v and k != "__import__"]
    moved += [k for k in space if k not in names] if moved or len(space) != len(names) else []
    if moved:  # (the guard's own door, __import__, is the guard's to put back)
        changed = changed or f"builtins.{moved[0]}"
        for name in moved:
            if name in names:
                space[name] = names[name]
            else:
                del space[name]
    return changed
