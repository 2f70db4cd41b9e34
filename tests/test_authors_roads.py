"""Every road from an author's figure module to what the reader's browser cannot do
(site_builder/authors/capabilities.py and roads.py, beside the doors of guard.py).

The fence used to check imports whose nearest caller was the author's module: a module
reached without an import (sys.modules, an allowed module's attribute), resolved by the
standard library on the author's behalf (pkgutil, pydoc, pickle), loaded from its spec or
file, or reached through its C half (posix.system, _socket, _thread) got past it, and the
figure built and then failed for every reader. Now a capability is refused where it is
used, whatever the road, and a module the browser lacks on every road to it."""

from __future__ import annotations

import builtins
import importlib
import os
import socket
import sys
import threading

import pytest
from author_site import broken, lay_out
from figure_helpers import ROOT

from explorables.site_builder.authors import loader as authors
from explorables.site_builder.authors.guard import Refused, fenced
from explorables.site_builder.commands.cli import main

SAMPLE = (ROOT / "site_builder" / "starter" / "figures" / "softmax_bars.py").read_text()
LESSON = "---\ntitle: Mine\norder: 1\n---\n\nText.\n\n:::{softmax-bars} three\n:a: 1\n:::\n"
TOP = 'NAMES = ("a", "b", "c")\n'  # a module-level line of the sample, after its imports
COMPUTE = "        weights = softmax([s[n] for n in NAMES])\n"
PATH = "figures/softmax_bars.py"
BUILD_FIX = (
    "    the reader's browser (Pyodide) has no processes, sockets or threads: compute the figure's numbers "
    "with plain Python in the module"
)
BROWSER_FIX = (
    "    Pyodide has the standard library but for a few modules: no curses, readline, tkinter, turtle, "
    "dbm, pwd or resource (nothing for a terminal, a window or the machine's users), and none of those "
    "Python 3.13 removed (imghdr, cgi, telnetlib, ...); draw with the kit's scene builders instead"
)
RULE = (
    "    an author's figure may import the standard library, explorables.figures, explorables.engine and the "
    "figures folder's own modules (from . import helpers), and nothing else (the reader's browser has "
    "nothing else)"
)
ENDING_FIX = '    raise an exception with a message instead, e.g. ValueError("...")'
SIGNAL_FIX = "    the reader's browser (Pyodide) has no signals; the build keeps its own time limit with them"
LATER_FIX = (
    "    the reader's browser never runs it, and the build would run it outside the figure's time limit: "
    "do the work in the figure's own hooks"
)
PROCESS = "starts a process (subprocess.Popen) while it runs, which only the build's machine can"


@pytest.fixture
def site(tmp_path, monkeypatch):
    lay_out(tmp_path, "01-mine.md", LESSON, "softmax_bars.py", SAMPLE)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("EXPLORABLES_AUTHOR_LIMIT", "2")
    importlib.import_module("pwd")  # loaded by the build's side, as a build's own module may have it
    yield tmp_path
    authors.unload()


def _error(site, capsys, added: str, anchor: str = TOP) -> tuple[str, int]:
    """The build's error for the sample with ``added`` after ``anchor``, and the line of
    ``added``'s line that holds "sys.modules", else of its first line."""
    assert anchor in SAMPLE
    source = SAMPLE.replace(anchor, anchor + added, 1)
    marked = next((i for i, text in enumerate(added.split("\n")) if "sys.modules" in text), 0)
    line = source.split(added, 1)[0].count("\n") + 1 + marked
    return broken(site, capsys, "softmax_bars.py", source).split("\n1 error;")[0], line


# Capabilities only the build's machine has, on roads the fence did not watch:
# (added after TOP, the message after "path:line:1: the module ", the fix).
CAPABILITIES = {
    "sys-modules": ("import sys; sys.modules['sub' + 'process'].run(['true'])\n", PROCESS, BUILD_FIX),
    "attribute-of-an-allowed-module": (
        "import asyncio; asyncio.subprocess.subprocess.run(['true'])\n",
        PROCESS,
        BUILD_FIX,
    ),
    "pydoc-locate-a-function": (
        "import pydoc; pydoc.locate('os.sys' + 'tem')('true')\n",
        "calls os.system while it runs, which starts a process only the build's machine has",
        BUILD_FIX,
    ),
    "spec-loaded-afresh": (
        "import importlib.util as u; s = u.find_spec('sub' + 'process'); "
        "m = u.module_from_spec(s); s.loader.exec_module(m); m.run(['true'])\n",
        PROCESS,
        BUILD_FIX,
    ),
    "runpy-run-module": (
        "import runpy; runpy.run_module('sub' + 'process', run_name='x')['run'](['true'])\n",
        PROCESS,
        BUILD_FIX,
    ),
    "exec-with-globals-of-its-own": ("exec(\"import subprocess; subprocess.run(['true'])\", {})\n", PROCESS, BUILD_FIX),
    "posix-system": (
        "__import__('pos' + 'ix').system('true')\n",
        "calls posix.system while it runs, which starts a process only the build's machine has",
        BUILD_FIX,
    ),
    "fork-exec": (
        "import sys; sys.modules['_posix' + 'subprocess'].fork_exec()\n",
        "calls _posixsubprocess.fork_exec while it runs, which starts a process only the build's machine has",
        BUILD_FIX,
    ),
    "c-socket": (
        "__import__('_sock' + 'et').socket()\n",
        "opens a socket (socket.__new__) while it runs, which only the build's machine can",
        BUILD_FIX,
    ),
    "network-lookup": (
        "import email.utils; email.utils.socket.getaddrinfo('localhost', 80)\n",
        "opens a socket (socket.getaddrinfo) while it runs, which only the build's machine can",
        BUILD_FIX,
    ),
    "thread-through-logging": (
        "import logging; logging.threading.Thread(target=print).start()\n",
        "starts a thread while it runs, which only the build's machine can",
        BUILD_FIX,
    ),
    "c-thread": (
        "import sys; sys.modules['_th' + 'read'].start_new_thread(print, ())\n",
        "starts a thread while it runs, which only the build's machine can",
        BUILD_FIX,
    ),
    "timer": (
        "import queue; queue.threading.Timer(60, print).start()\n",
        "starts a thread while it runs, which only the build's machine can",
        BUILD_FIX,
    ),
    "machine-code": (
        "import ctypes; ctypes.CDLL(None)\n",
        "runs machine code (ctypes.dlopen) while it runs, which only the build's machine can",
        "    the reader's browser (Pyodide) loads no machine code a figure brings: compute the figure's numbers "
        "with plain Python in the module",
    ),
    "swallowed-by-a-console": (
        "import code; quiet = type('Q', (code.InteractiveInterpreter,), {'write': print}); "
        "quiet().runsource(\"import subprocess; subprocess.run(['true'])\")\n",
        PROCESS,
        BUILD_FIX,
    ),
    "swallowed-by-the-author": (
        "try:\n    import sys; sys.modules['sub' + 'process'].run(['true'])\nexcept Exception:\n    pass\n",
        PROCESS,
        BUILD_FIX,
    ),
    "time-limit-switched-off": (
        "import signal; signal.setitimer(signal.ITIMER_REAL, 0)\n",
        "calls signal.setitimer while it runs, which the build's time limit and Ctrl+C use",
        SIGNAL_FIX,
    ),
    "signal-to-the-build": (
        "import signal; signal.raise_signal(signal.SIGTERM)\n",
        "calls signal.raise_signal while it runs, which the build's time limit and Ctrl+C use",
        SIGNAL_FIX,
    ),
    "crash-on-purpose": (
        "import faulthandler; faulthandler._sigsegv()\n",
        "calls faulthandler._sigsegv while it runs, which would end the build",
        ENDING_FIX,
    ),
    "exit-later": (
        "import faulthandler; faulthandler.dump_traceback_later(1, exit=True)\n",
        "calls faulthandler.dump_traceback_later while it runs, which would end the build",
        ENDING_FIX,
    ),
    "posix-exit": (
        "import sys; sys.modules['posix']._exit(0)\n",
        "calls posix._exit while it runs, which would end the build",
        ENDING_FIX,
    ),
    "atexit": (
        "import atexit; atexit.register(print, 'bye')\n",
        "calls atexit.register while it runs: code to run when the build ends",
        LATER_FIX,
    ),
    "profiler-left-in-the-build": (
        "import sys; sys.setprofile(print)\n",
        "calls sys.setprofile while it runs: code the build would run on each of its own steps",
        LATER_FIX,
    ),
}


@pytest.mark.parametrize("added, said, fix", CAPABILITIES.values(), ids=CAPABILITIES.keys())
def test_a_capability_only_the_build_has_is_refused_on_every_road(site, capsys, added, said, fix):
    err, line = _error(site, capsys, added)
    assert err == f"error: {PATH}:{line}:1: the module {said}\n{fix}"


def test_a_capability_is_refused_in_compute_too(site, capsys):
    added = "        __import__('sys').modules['socket'].create_connection(('localhost', 9))\n"
    err, line = _error(site, capsys, added, COMPUTE)
    assert err == (
        f"error: {PATH}:{line}:1: figure 'softmax-bars': drawing its first frame opens a socket "
        f"(socket.getaddrinfo) while it runs, which only the build's machine can\n{BUILD_FIX}"
    )


# Modules the reader's browser lacks, by roads other than the doors: (added, the module, fix, what).
NAMES = {
    "pydoc-locate": (
        "import pydoc; pydoc.locate('p' + 'wd')\n",
        "pwd",
        BROWSER_FIX,
        "which the Python in the reader's browser (Pyodide) does not have",
    ),
    "pkgutil-resolve-name": (
        "import pkgutil; pkgutil.resolve_name('cur' + 'ses:wrapper')\n",
        "curses",
        BROWSER_FIX,
        "which the Python in the reader's browser (Pyodide) does not have",
    ),
    "pickle": (
        "import pickle; pickle.loads(b'cpwd\\ngetpwuid\\n(I0\\ntR.')\n",
        "pwd",
        BROWSER_FIX,
        "which the Python in the reader's browser (Pyodide) does not have",
    ),
    "exec-with-globals-of-its-own": (
        "exec('import p' + 'wd', {})\n",
        "pwd",
        BROWSER_FIX,
        "which the Python in the reader's browser (Pyodide) does not have",
    ),
    "find-spec": (
        "import importlib.util; importlib.util.find_spec('tur' + 'tle')\n",
        "turtle",
        BROWSER_FIX,
        "which the Python in the reader's browser (Pyodide) does not have",
    ),
    "builtin-from-its-spec": (
        "import importlib.machinery as m, importlib.util as u; "
        "u.module_from_spec(m.BuiltinImporter.find_spec('p' + 'wd'))\n",
        "pwd",
        BROWSER_FIX,
        "which the Python in the reader's browser (Pyodide) does not have",
    ),
    "stdlib-file-loaded-by-path": (
        "import importlib.util as u, os; s = u.spec_from_file_location('x', os.path.join("
        "os.path.dirname(os.__file__), 'img' + 'hdr.py')); "
        "s.loader.exec_module(u.module_from_spec(s))\n",
        "imghdr",
        BROWSER_FIX,
        "which the Python in the reader's browser (Pyodide) does not have",
    ),
    "installed-package-loaded-afresh": (
        "import importlib.util as u; s = u.find_spec('ya' + 'ml') or 0; s.loader.exec_module(u.module_from_spec(s))\n",
        "yaml",
        RULE,
        "which it may not",
    ),
    "the-builder-by-its-file": (
        "import importlib.util as u, os, sys; p = os.path.join(os.path.dirname("
        "sys.modules['explorables.site_builder'].__file__), 'errors.py'); "
        "s = u.spec_from_file_location('x', p); s.loader.exec_module(u.module_from_spec(s))\n",
        "explorables.site_builder",
        RULE,
        "which it may not",
    ),
}


@pytest.mark.parametrize("added, module, fix, what", NAMES.values(), ids=NAMES.keys())
def test_a_module_the_browser_lacks_is_refused_on_every_road(site, capsys, added, module, fix, what):
    err, line = _error(site, capsys, added)
    assert err == f"error: {PATH}:{line}:1: the module imports '{module}' while it runs, {what}\n{fix}"


@pytest.mark.parametrize(
    "added, error",
    [
        ("import sys; sys.modules['p' + 'wd']\n", "KeyError: 'pwd'"),
        ("import sys; sys.modules['ya' + 'ml']\n", "KeyError: 'yaml'"),
    ],
    ids=["pwd", "yaml"],
)
def test_a_module_the_build_loaded_is_not_in_sys_modules_as_the_browser_has_it(site, capsys, added, error):
    assert "pwd" in sys.modules and "yaml" in sys.modules  # the build's side has both
    err, line = _error(site, capsys, added)
    column = added.index("sys.modules[") + 1  # the lookup that raised
    assert err.startswith(
        f"error: {PATH}:{line}:{column}: the module raised {error.split(':')[0]} when imported: {error.split(': ')[1]}\n"
    ), err
    assert "pwd" in sys.modules and "yaml" in sys.modules  # and has them again


@pytest.mark.parametrize(
    "added, changed",
    [
        ("import sys; sys.excepthook = print\n", "sys.excepthook"),
        ("import builtins; builtins.len = abs\n", "builtins.len"),
        ("import sys; sys.meta_path.append(sys.meta_path[-1])\n", "sys.meta_path"),
    ],
    ids=["excepthook", "builtins", "meta-path"],
)
def test_code_left_behind_in_the_builds_own_python_is_refused_and_taken_back(site, capsys, added, changed):
    real = sys.excepthook, builtins.len, list(sys.meta_path)
    err, line = _error(site, capsys, added)
    assert err == (
        f"error: {PATH}:{line}:1: the module changes {changed} while it runs, which the build's own "
        f"Python uses\n    keep the figure's functions in its module: the build would run this outside "
        f"the figure, and the reader's browser never calls it"
    )
    assert (sys.excepthook, builtins.len, list(sys.meta_path)) == real


ALLOWED = (
    "import logging.config, email.utils, asyncio, tarfile, pydoc, pkgutil, pickle, code, queue\n"
    "assert pkgutil.resolve_name('json:dumps')([1]) == '[1]' and pydoc.locate('decimal.Decimal')(1) == 1\n"
    "assert pickle.loads(pickle.dumps(complex(1, 2))) == complex(1, 2)\n"
    "lock = queue.threading.Lock(); q = queue.Queue(); q.put(1)\n"
    "exec('import json', {})\n"
    "try:\n    __import__('p' + 'wd')\nexcept ImportError:\n    pass\n"
)


def test_what_the_browser_can_do_still_builds_and_every_road_is_put_back(site):
    """Resolvers, locks and queues, and a refused import caught as the browser's own
    ImportError; afterwards the build's modules, finders and functions are its own again."""
    source = SAMPLE.replace(TOP, TOP + ALLOWED, 1)
    (site / "figures" / "softmax_bars.py").write_text(source)
    modules, finders = set(sys.modules), list(sys.meta_path)
    real = (
        os.system,
        os._exit,
        threading._start_new_thread,
        socket.socket,
        importlib.util.find_spec,
        sys.settrace,
        sys.setprofile,
    )
    assert main(["build"]) == 0
    assert set(sys.modules) >= modules and list(sys.meta_path) == finders
    assert (
        os.system,
        os._exit,
        threading._start_new_thread,
        socket.socket,
        importlib.util.find_spec,
        sys.settrace,
        sys.setprofile,
    ) == real


def test_the_builds_own_threads_are_not_refused_while_an_authors_code_runs():
    """A fence up in one thread refuses in that thread only: another thread of the build
    (a server answering) still starts threads and opens sockets meanwhile."""
    up, finished, done, errors = threading.Event(), threading.Event(), [], []

    def other():
        up.wait(10)
        try:
            worker = threading.Thread(target=done.append, args=("thread",))
            worker.start()
            worker.join()
            socket.socket().close()
            done.append("socket")
        except Exception as err:  # (said in the assertion)
            errors.append(err)
        finished.set()

    thread = threading.Thread(target=other)
    thread.start()
    with fenced():
        up.set()
        assert finished.wait(10)
        with pytest.raises(Refused, match="starts a thread"):
            threading.Thread(target=print).start()
    thread.join()
    assert done == ["thread", "socket"] and not errors


@pytest.mark.parametrize("renamed", ["", "__name__ = 'json'\n"], ids=["as-it-is", "module-renamed"])
def test_a_capability_reached_later_by_the_build_is_refused_in_the_authors_function(site, renamed):
    """A function of the author's module the build calls outside the fence (a finaliser,
    a replaced standard function) is still refused, by the audit hook that sees it: by
    its module's globals, whatever name the module gives itself."""
    added = renamed + "def later():\n    __import__('os').system('true')\n"
    source = SAMPLE.replace(TOP, TOP + added, 1)
    (site / "figures" / "softmax_bars.py").write_text(source)
    assert main(["build"]) == 0
    module = sys.modules["explorables.site_figures.softmax_bars"]
    with pytest.raises(Refused, match=r"starts a process \(os.system\)"):
        module.later()


def test_the_standard_librarys_own_clean_ups_are_not_refused():
    """logging registers its shutdown with atexit when first imported, weakref.finalize
    when first used: the standard library's own, while an author's code runs, is not
    the author's (an author's atexit.register is, CAPABILITIES)."""

    def clean_up():
        return None

    with fenced():
        exec("import atexit\natexit.register(clean_up)", {"__name__": "logging", "clean_up": clean_up})
    importlib.import_module("atexit").unregister(clean_up)
