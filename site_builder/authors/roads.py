"""Every road to a module by its name while an author's code runs, beside the doors of
guard.py (``__import__``, ``importlib.import_module``, ...): a module the reader's browser
lacks is refused on each of them, whoever asks, as Pyodide refuses it.

Roads, and where each is closed:

- a name resolved by the standard library on the author's behalf (``pkgutil.resolve_name``,
  ``pydoc.locate``, ``runpy.run_module``, ``pickle``'s classes, ``logging.config``,
  ``unittest.mock.patch``): through a door, where the code that asked is the author's
  once these resolvers' frames are skipped (``RESOLVERS``);
- a name found afresh (``importlib.util.find_spec``, a finder called by hand): a finder
  first in ``sys.meta_path`` while the fence is up;
- a module made from its spec or file (``importlib.util.module_from_spec``,
  ``SourceFileLoader``, ``runpy.run_path``): its code is refused when it runs (the ``exec``
  audit event names its file), a C module when it is made (``_imp.create_builtin`` and
  ``create_dynamic``, swapped);
- a module the build had loaded (``sys.modules["pwd"]``, ``sys.modules["yaml"]``): out of
  ``sys.modules`` while the fence is up, as the browser has it (the build runs an author's
  code in its main thread, or in a process of its own in ``serve``: no other thread of
  the build looks for them meanwhile).

A name is refused on every road when the browser lacks it: a public module the browser
has not (rules.NOT_IN_BROWSER), anything outside the standard library but the kit, the
engine and the figures folder. A private module the browser lacks (``_sha512``) is refused
only when the author's code names it: the standard library's own modules load different
private ones in each Python version. What the browser has but cannot use (subprocess,
socket, threading) is refused where it is used (capabilities.py)."""

from __future__ import annotations

import _imp
import functools
import importlib
import os
import sys
import sysconfig
from pathlib import Path
from types import CodeType, ModuleType

from .capabilities import inside, refuse
from .rules import NOT_IN_BROWSER, NOT_IN_BROWSER_FIX, PACKAGE, RULE, allowed

_STDLIB = os.path.realpath(sysconfig.get_paths()["stdlib"])
_SITE = {os.path.realpath(sysconfig.get_paths()[key]) for key in ("purelib", "platlib")}
_BUILDER = os.path.realpath(Path(__file__).parents[1])  # site_builder/: the build's own code

# The standard library's modules that import a module by a name given to them: their
# frames do not count as the one that asked (but their own module code, run at their
# first import, does).
RESOLVERS = {
    os.path.realpath(os.path.join(_STDLIB, name))
    for name in (
        "pkgutil.py",
        "pydoc.py",
        "runpy.py",
        "code.py",
        "codeop.py",
        "pickle.py",
        "copyreg.py",
        "logging/config.py",
        "unittest/mock.py",
        "zipimport.py",
    )
} | {os.path.realpath(p) for p in Path(importlib.__file__).parent.rglob("*.py")}


@functools.cache
def lacks(name: str) -> tuple[str, str] | None:
    """(what the browser does not have, the fix) when ``name`` is refused on every road."""
    if name == PACKAGE or name.startswith(PACKAGE + ".") or name == "explorables":
        return None
    if any(part.startswith("_") for part in name.split(".")):
        return None  # a private module: only when the author names it (guard.py)
    if name.split(".")[0] in NOT_IN_BROWSER:
        return "which the Python in the reader's browser (Pyodide) does not have", NOT_IN_BROWSER_FIX
    if not allowed(name):
        return "which it may not", RULE
    return None


def check(name: object) -> None:
    if isinstance(name, str) and inside() and (said := lacks(name)):
        raise refuse(f"imports '{name}' while it runs, {said[0]}", said[1], sticky=False)


class Refuser:
    """First in ``sys.meta_path`` while the fence is up: refuses finding a module the
    browser lacks (in the fenced thread only), and finds nothing else."""

    @staticmethod
    def find_spec(name, path=None, target=None):
        check(name)
        return None

    @staticmethod
    def invalidate_caches():
        return None


def _module_of(filename: str) -> str | None:
    """The module whose code ``filename`` holds, when it is the standard library's, the
    build's own or another installed package's (None for an author's file, or code made
    from text)."""
    if not filename or filename.startswith("<"):
        return None
    path = os.path.realpath(filename)
    if path.startswith(_BUILDER + os.sep):
        return "explorables.site_builder"
    for site in _SITE:
        if path.startswith(site + os.sep):
            return Path(os.path.relpath(path, site)).parts[0].split(".")[0]
    if path.startswith(_STDLIB + os.sep) and path.endswith(".py"):
        parts = list(Path(os.path.relpath(path, _STDLIB)).with_suffix("").parts)
        return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
    return None


def _audit(event: str, args: tuple) -> None:
    if event != "exec" or not inside():
        return
    code = args[0] if args else None
    if isinstance(code, CodeType) and code.co_name == "<module>":  # a module's body, however it was loaded
        check(_module_of(code.co_filename))


sys.addaudithook(_audit)  # idle outside the fence


def _made(real):
    def make(spec, *args):
        check(getattr(spec, "name", None))
        return real(spec, *args)

    make.__name__ = real.__name__
    return make


_C_MAKERS = [(name, getattr(_imp, name)) for name in ("create_builtin", "create_dynamic") if hasattr(_imp, name)]
_STAND_INS = [(name, _made(real)) for name, real in _C_MAKERS]


_seen: list = [-1, []]  # len(sys.modules) when the names to hide were found, and the names


def close() -> dict[str, ModuleType]:
    """Put the roads' checks up (the caller has the fence's depth set); the modules taken
    out of sys.modules, for reopen() to put back."""
    sys.meta_path.insert(0, Refuser)
    for name, stand_in in _STAND_INS:
        setattr(_imp, name, stand_in)
    if len(sys.modules) != _seen[0]:  # names to hide, found again only when modules came or went
        _seen[:] = [len(sys.modules), [name for name in list(sys.modules) if lacks(name) and _hideable(name)]]
    hidden = {name: sys.modules.pop(name) for name in _seen[1] if name in sys.modules}
    return hidden


def _hideable(name: str) -> bool:
    return not name.startswith("explorables")  # (the build's own modules stay: the fence is one of them)


def reopen(hidden: dict[str, ModuleType]) -> None:
    sys.meta_path[:] = [finder for finder in sys.meta_path if finder is not Refuser]
    for name, real in _C_MAKERS:
        setattr(_imp, name, real)
    sys.modules.update(hidden)
