"""What an author's figure module may import, as the author guide states it: read by the
checks of its written imports (checks.py) and by the fence that checks the imports it makes
while it runs (guard.py). A leaf: it imports nothing of the builder."""

from __future__ import annotations

import sys

PACKAGE = "explorables.site_figures"  # the import name of an author's modules, here and in the browser
ALLOWED = ("explorables.figures", "explorables.engine")  # besides the standard library
# The standard library's modules that the reader's browser cannot import: those Pyodide
# leaves out (no terminal, window, processes or users there), and those Python 3.13
# removed (the browser runs Pyodide's Python 3.14; a build on 3.11 or 3.12 still has
# them). tests/test_engine_pyodide.py imports every standard module under Pyodide and
# checks this list against what fails.
NOT_IN_BROWSER = frozenset(
    {
        "_aix_support",
        "_bootsubprocess",
        "_compression",
        "_crypt",
        "_curses",
        "_curses_panel",
        "_dbm",
        "_gdbm",
        "_hashlib",
        "_msi",
        "_multiprocessing",
        "_osx_support",
        "_overlapped",
        "_posixshmem",
        "_pydecimal",
        "_scproxy",
        "_sha256",
        "_sha512",
        "_tkinter",
        "_uuid",
        "_winapi",
        "aifc",
        "asynchat",
        "asyncore",
        "audioop",
        "cgi",
        "cgitb",
        "chunk",
        "crypt",
        "curses",
        "dbm",
        "distutils",
        "ensurepip",
        "grp",
        "idlelib",
        "imghdr",
        "imp",
        "lib2to3",
        "mailcap",
        "msilib",
        "msvcrt",
        "nis",
        "nntplib",
        "nt",
        "ossaudiodev",
        "pipes",
        "pwd",
        "pydoc_data",
        "readline",
        "resource",
        "smtpd",
        "sndhdr",
        "spwd",
        "sunau",
        "syslog",
        "telnetlib",
        "tkinter",
        "turtle",
        "turtledemo",
        "uu",
        "venv",
        "winreg",
        "winsound",
        "xdrlib",
    }
)
NOT_IN_BROWSER_FIX = (
    "Pyodide has the standard library but for a few modules: no curses, readline, tkinter, "
    "turtle, dbm, pwd or resource (nothing for a terminal, a window or the machine's users), "
    "and none of those Python 3.13 removed (imghdr, cgi, telnetlib, ...); draw with the kit's "
    "scene builders instead"
)
RULE = (
    "an author's figure may import the standard library, explorables.figures, explorables.engine and "
    "the figures folder's own modules (from . import helpers), and nothing else (the reader's browser has "
    "nothing else)"
)
# What runs at build time but not in the reader's browser (Pyodide has no processes,
# sockets or threads): refused while an author's code runs, as the browser's absent modules are.
BUILD_ONLY = frozenset(
    {
        "subprocess",
        "_posixsubprocess",
        "asyncio.subprocess",
        "pty",
        "socket",
        "socketserver",
        "multiprocessing",
        "threading",
        "_thread",
        "concurrent",
    }
)
BUILD_ONLY_FIX = (
    "the reader's browser (Pyodide) has no processes, sockets or threads: compute the figure's "
    "numbers with plain Python in the module"
)


def allowed(module: str) -> bool:
    top = module.split(".")[0]
    if top == "explorables":
        return any(module == a or module.startswith(a + ".") for a in ALLOWED)
    return top in sys.stdlib_module_names and top not in NOT_IN_BROWSER
