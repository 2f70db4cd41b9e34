"""An author's figure module runs inside the build (site_builder/authors/guard.py): a
module that never returns, that ends the process (sys.exit, SystemExit, os._exit), or
that reaches for what only the build's machine has (processes, sockets, threads, a
module the reader's browser lacks, named while it runs) is an error at the author's
line, with exit 1 and the previous site left as it was. Before, the build hung forever,
ended with exit 0 and no site, or built a figure that failed for every reader."""
from __future__ import annotations

import builtins
import importlib
import os
import sys
import threading

import pytest

from explorables.site_builder.authors import loader as authors
from explorables.site_builder.authors.guard import Stopped, fenced
from explorables.site_builder.commands.cli import main
from author_site import broken, lay_out
from figure_helpers import ROOT

SAMPLE = (ROOT / "site_builder" / "starter" / "figures" / "softmax_bars.py").read_text()
DOT = (ROOT / "tests" / "fixtures" / "exercises" / "dot_product.py").read_text()
LESSON = "---\ntitle: Mine\norder: 1\n---\n\nText.\n\n:::{softmax-bars} three\n:a: 1\n:::\n"
TOP = "NAMES = (\"a\", \"b\", \"c\")\n"  # a module-level line of the sample, after its imports
COMPUTE = "        weights = softmax([s[n] for n in NAMES])\n"
DRAW = "    def draw(self, s, v):\n"
PATH = "figures/softmax_bars.py"
REAL_IMPORT = builtins.__import__
REAL_DOORS = [importlib.import_module, importlib.__import__]


@pytest.fixture
def site(tmp_path, monkeypatch):
    lay_out(tmp_path, "01-mine.md", LESSON, "softmax_bars.py", SAMPLE)
    (tmp_path / "figures" / "dot_product.py").write_text(DOT)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("EXPLORABLES_AUTHOR_LIMIT", "0.5")
    yield tmp_path
    authors.unload()


def edited(anchor: str, added: str, after: bool = True) -> tuple[str, int]:
    """The sample with ``added`` put after (or before) ``anchor``, and the line of
    ``added``'s last line."""
    assert anchor in SAMPLE
    source = SAMPLE.replace(anchor, anchor + added if after else added + anchor, 1)
    head = source.split(added, 1)[0] + added
    return source, head.count("\n") if added.endswith("\n") else head.count("\n") + 1


def _error(site, capsys, source: str, name: str = "softmax_bars.py") -> str:
    return broken(site, capsys, name, source).split("\n1 error;")[0]


# Hangs: (edit anchor, added text, the message after "path:line:col: ").
HANGS = {
    "loop-at-import": (TOP, "while True: pass\n", "the module did not finish within 0.5 s when imported"),
    "sleep-at-import": (TOP, "import time; time.sleep(60)\n", "the module did not finish within 0.5 s when imported"),
    "loop-swallowing-exceptions": (TOP, "while True:\n    try: sum(range(9))\n    except Exception: sum(range(3))\n",
                                   "the module did not finish within 0.5 s when imported"),
    "loop-swallowing-everything": (TOP, "while True:\n    try: sum(range(9))\n    except BaseException: pass\n",
                                   "the module did not finish within 0.5 s when imported"),
    "loop-in-first-frame": (COMPUTE, "        while True: s = dict(s)\n",
                            "figure 'softmax-bars': drawing its first frame did not finish within 0.5 s"),
    "loop-in-draw": (DRAW, "        while v: pass\n",
                     "figure 'softmax-bars': drawing its first frame did not finish within 0.5 s"),
    "loop-in-experiment": (COMPUTE, "        while s['a'] == s['b']: pass\n",
                           "figure 'softmax-bars': running the experiment 'tie' did not finish within 0.5 s"),
}


@pytest.mark.parametrize("anchor, added, said", HANGS.values(), ids=HANGS.keys())
def test_code_that_never_returns_is_stopped_at_its_line(site, capsys, anchor, added, said):
    source, line = edited(anchor, added)
    err = _error(site, capsys, source)
    lines = {line - added.count("\n") + 1 + i for i in range(max(1, added.count("\n")))}
    assert any(err == f"error: {PATH}:{n}:1: {said}\n    look for an endless loop: the build runs the figure's "
               f"code as a reader's browser will (EXPLORABLES_AUTHOR_LIMIT sets the seconds it may take)"
               for n in lines), err


def test_a_compute_that_hangs_only_for_the_lessons_options_is_said_at_the_directive(site, capsys):
    source, line = edited(COMPUTE, "        while s['c'] == 4: pass\n")
    (site / "content" / "01-mine.md").write_text(LESSON + "\n:::{softmax-bars} four\n:c: 4\n:::\n")
    assert _error(site, capsys, source) == (
        f"error: content/01-mine.md:12:1: {{softmax-bars}} four: drawing its first frame did not finish within "
        f"0.5 s (softmax_bars.py:{line})\n    look for an endless loop: the build runs the figure's code as a "
        f"reader's browser will (EXPLORABLES_AUTHOR_LIMIT sets the seconds it may take)")


def test_an_exercise_type_that_never_returns_is_stopped(site, capsys):
    source = DOT.replace("        rng = random.Random(seed)", "        while seed >= 0: seed = seed | 1")
    line = 1 + source.split("while seed")[0].count("\n")
    err = broken(site, capsys, "dot_product.py", source)
    assert (f"error: figures/dot_product.py:{line}:1: exercise type 'dot-2': making the problem of seed 0 did not "
            f"finish within 0.5 s\n") in err


EXIT_FIX = ("    the build runs the module as part of itself, and this would end it: raise an exception with a "
            "message instead, e.g. ValueError(\"...\")")
EXITS = {
    "sys-exit-0-at-import": (TOP, "import sys; sys.exit(0)\n", "the module called sys.exit(0) when imported"),
    "sys-exit-no-code": (TOP, "import sys; sys.exit()\n", "the module called sys.exit() when imported"),
    "builtin-exit": (TOP, "exit(0)\n", "the module called sys.exit(0) when imported"),
    "system-exit-text-in-draw": (DRAW, "        raise SystemExit(\"stop here\")\n",
                                 "figure 'softmax-bars': drawing its first frame raised SystemExit('stop here')"),
    "generator-exit-in-compute": (COMPUTE, "        raise GeneratorExit\n",
                                  "figure 'softmax-bars': drawing its first frame raised GeneratorExit()"),
    "exit-3-in-experiment": (COMPUTE, "        if s['a'] == s['b']: raise SystemExit(3)\n",
                             "figure 'softmax-bars': running the experiment 'tie' called sys.exit(3)"),
}


@pytest.mark.parametrize("anchor, added, said", EXITS.values(), ids=EXITS.keys())
def test_ending_the_process_is_an_error_at_its_line(site, capsys, anchor, added, said):
    source, line = edited(anchor, added)
    assert _error(site, capsys, source) == f"error: {PATH}:{line}:1: {said}\n{EXIT_FIX}"


def test_os_exit_is_refused_where_it_is_called(site, capsys):
    source, line = edited(TOP, "import os; os._exit(0)\n")
    assert _error(site, capsys, source) == (
        f"error: {PATH}:{line}:1: the module calls os._exit while it runs, which would end the build\n"
        "    raise an exception with a message instead, e.g. ValueError(\"...\")")


@pytest.mark.parametrize("old, new, said", [
    ("        return dot(p[\"a\"], p[\"b\"])", "        raise SystemExit(0)", "called sys.exit(0)"),
    ("lambda p: p[\"a\"][0] * p[\"b\"][0]", "lambda p: exit(2)", "called sys.exit(2)"),
    ("        rng = random.Random(seed)", "        raise SystemExit('no seed')\n        rng = random.Random(seed)",
     "raised SystemExit('no seed')"),
], ids=["in-solve", "in-a-mistake", "in-generate"])
def test_an_exit_in_an_exercise_type_is_an_error(site, capsys, old, new, said):
    assert old in DOT
    source = DOT.replace(old, new)
    line = 1 + source.split(new.strip().split("\n")[0])[0].count("\n")
    err = broken(site, capsys, "dot_product.py", source)
    assert (f"error: figures/dot_product.py:{line}:1: exercise type 'dot-2': making the problem of seed 0 {said}"
            f"\n{EXIT_FIX}\n") in err


BROWSER_FIX = ("    Pyodide has the standard library but for a few modules: no curses, readline, tkinter, turtle, "
               "dbm, "
               "pwd or resource (nothing for a terminal, a window or the machine's users), and none of those Python "
               "3.13 removed (imghdr, cgi, telnetlib, ...); draw with the kit's scene builders instead")
BUILD_FIX = ("    the reader's browser (Pyodide) has no processes, sockets or threads: compute the figure's numbers "
             "with plain Python in the module")
RULE = ("    an author's figure may import the standard library, explorables.figures, explorables.engine and the "
        "figures folder's own modules (from . import helpers), and nothing else (the reader's browser has "
        "nothing else)")
IMPORTS = {
    "dunder-import-built-name": (TOP, "__import__('cur' + 'ses')\n", 1, "the module imports 'curses' while it runs, "
                                 "which the Python in the reader's browser (Pyodide) does not have", BROWSER_FIX),
    "import-module-subprocess": (TOP, "import importlib; importlib.import_module('sub' + 'process')\n", 1,
                                 "the module imports 'subprocess' while it runs, which only the build's machine has",
                                 BUILD_FIX),
    "import-subprocess-written": (TOP, "import subprocess\n", 1,
                                  "the figure module imports 'subprocess', which only the build's machine has",
                                  BUILD_FIX),
    "import-threading-in-compute": (COMPUTE, "        import threading\n", 9,
                                    "the figure module imports 'threading', which only the build's machine has",
                                    BUILD_FIX),
    "from-multiprocessing": (TOP, "from multiprocessing import Pool\n", 1,
                             "the figure module imports 'multiprocessing', which only the build's machine has",
                             BUILD_FIX),
    "socket-named-in-compute": (COMPUTE, "        __import__('sock' + 'et')\n", 1,
                                "figure 'softmax-bars': drawing its first frame imports 'socket' while it runs, "
                                "which only the build's machine has", BUILD_FIX),
    "os-system-in-compute": (COMPUTE, "        __import__('os').system('true')\n", 1,
                             "figure 'softmax-bars': drawing its first frame calls os.system while it runs, "
                             "which starts a process only the build's machine has", BUILD_FIX),
    "third-party-named": (TOP, "yaml = __import__('ya' + 'ml')\n", 1,
                          "the module imports 'yaml' while it runs, which it may not", RULE),
    "builder-named": (TOP, "__import__('explorables.site' + '_builder')\n", 1,
                      "the module imports 'explorables.site_builder' while it runs, which it may not", RULE),
}


@pytest.mark.parametrize("anchor, added, col, said, fix", IMPORTS.values(), ids=IMPORTS.keys())
def test_build_time_only_capabilities_are_refused_at_their_line(site, capsys, anchor, added, col, said, fix):
    source, line = edited(anchor, added)
    assert _error(site, capsys, source) == f"error: {PATH}:{line}:{col}: {said}\n{fix}"


# Every door into the import machinery, named while the module runs: (added after TOP, the
# module it imports). The first four were fenced before; the others got past the fence.
DOORS = {
    "importlib-import-module": ("import importlib as il; il.import_module('sub' + 'process')\n", "subprocess"),
    "import-module-by-name": ("from importlib import import_module; import_module('sock' + 'et')\n", "socket"),
    "builtins-dunder-import": ("import builtins; builtins.__import__('sub' + 'process')\n", "subprocess"),
    "builtins-dict": ("b = __builtins__; (b if isinstance(b, dict) else vars(b))['__import__']('sub' + 'process')\n",
                      "subprocess"),
    "import-module-relative": ("import importlib; importlib.import_module('.pro' + 'cess', 'multiprocessing')\n",
                               "multiprocessing.process"),
    "importlib-dunder-import": ("import importlib; importlib.__import__('sub' + 'process')\n", "subprocess"),
    "other-globals": ("__import__('sub' + 'process', {'__name__': 'json'})\n", "subprocess"),
    "relative-to-another-package": ("__import__('pro' + 'cess', {'__package__': 'multiprocessing'}, None, (), 1)\n",
                                    "multiprocessing.process"),
    "fromlist": ("__import__('asyncio', fromlist=['sub' + 'process'])\n", "asyncio.subprocess"),
    "bootstrap-gcd-import": ("import importlib; importlib._bootstrap._gcd_import('sub' + 'process')\n",
                             "subprocess"),
    "bootstrap-dunder-import": ("import importlib; importlib._bootstrap.__import__('sock' + 'et')\n", "socket"),
}


@pytest.mark.parametrize("added, module", DOORS.values(), ids=DOORS.keys())
def test_every_door_into_the_import_machinery_is_fenced(site, capsys, added, module):
    source, line = edited(TOP, added)
    assert _error(site, capsys, source) == (f"error: {PATH}:{line}:1: the module imports '{module}' while it "
                                            f"runs, which only the build's machine has\n{BUILD_FIX}")
    assert [getattr(importlib, name) for name in ("import_module", "__import__")] == REAL_DOORS


def test_the_doors_still_open_on_what_the_browser_has(site):
    """The folder's own modules, by their full name too (refused before), and the standard
    library's, with names to take from them."""
    (site / "figures" / "helpers.py").write_text("HALF = 0.5\n")
    source, _ = edited(TOP, "import importlib; importlib.import_module('explorables.site_figures.' + 'helpers')\n"
                            "importlib.import_module('.helpers', __package__)\n"
                            "importlib.__import__('decimal', fromlist=['Decimal'])\n")
    (site / "figures" / "softmax_bars.py").write_text(source)
    assert main(["build"]) == 0


@pytest.mark.parametrize("added", [
    "import logging, queue, json, decimal\n",  # the standard library's own imports (of threading) are its own
    "try:\n    __import__('num' + 'py')\nexcept ImportError:\n    pass\n",  # as the browser would answer
])
def test_what_the_browser_has_still_builds_and_the_fence_comes_down(site, added):
    source, _ = edited(TOP, added)
    (site / "figures" / "softmax_bars.py").write_text(source)
    real = builtins.__import__, importlib.import_module, importlib.__import__, importlib._bootstrap._gcd_import, \
        os.system
    assert main(["build"]) == 0
    assert (builtins.__import__, importlib.import_module, importlib.__import__, importlib._bootstrap._gcd_import,
            os.system) == real


def test_the_fence_stops_code_off_the_main_thread_too(monkeypatch):
    """Where no signal can reach (a thread of a server that builds), a line tracer does."""
    monkeypatch.setenv("EXPLORABLES_AUTHOR_LIMIT", "0.3")
    said = []

    def spin():
        while True:
            pass

    def run():
        try:
            with fenced():
                spin()
        except Stopped as err:
            said.append(err.text)
    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(10)
    assert said == ["did not finish within 0.3 s"]
    assert sys.gettrace() is None or "guard" not in getattr(sys.gettrace(), "__module__", "")


def test_ctrl_c_still_stops_the_build():
    with pytest.raises(KeyboardInterrupt):
        with fenced():
            raise KeyboardInterrupt()
    assert builtins.__import__ is REAL_IMPORT


@pytest.mark.parametrize("added, said", [
    ("while True: pass\n", "the module did not finish within 0.5 s when imported"),
    ("import sys; sys.exit(0)\n", "the module called sys.exit(0) when imported"),
    ("import os; os._exit(0)\n", "the module calls os._exit while it runs, which would end the build"),
], ids=["loop", "sys-exit", "os-exit"])
def test_serves_warm_build_process_is_fenced_and_lives_on(site, added, said):
    """`explorables serve` builds in a kept process (commands/warm.py): the fence works
    there (its builds run in that process's main thread), and the process stays."""
    from explorables.site_builder.commands.warm import Builder
    builder = Builder()
    try:
        assert builder.run(["build"])[0] == 0
        source, line = edited(TOP, added)
        (site / "figures" / "softmax_bars.py").write_text(source)
        code, _, err = builder.run(["build"])
        assert code == 1 and f"error: {PATH}:{line}:1: {said}\n" in err, err
        process = builder.process
        (site / "figures" / "softmax_bars.py").write_text(SAMPLE)
        assert builder.run(["build"])[0] == 0 and builder.process is process  # the same process built again
    finally:
        builder.stop()


@pytest.mark.parametrize("body, said", [
    ("            while raw: pass\n", "did not finish within 0.5 s"),
    ("            raise SystemExit(1)\n", "called sys.exit(1)"),
    ("            __import__('sub' + 'process')\n",
     "imports 'subprocess' while it runs, which only the build's machine has"),
], ids=["loop", "exit", "import"])
def test_options_read_by_the_authors_own_code_are_fenced_too(site, capsys, body, said):
    """A figure may read a lesson's options with code of its own (parse_options): only
    for the lesson's options here, so its module's checks pass and the lesson says it."""
    hook = "    def parse_options(self, raw):\n        if raw.get('a') == '1':\n" + body + \
           "        return super().parse_options(raw)\n\n"
    source, _ = edited(DRAW, hook, after=False)
    line = 1 + source.split(body)[0].count("\n")
    err = _error(site, capsys, source)
    assert err.split("\n")[0] == (f"error: content/01-mine.md:8:1: {{softmax-bars}} three: reading its options "
                                  f"{said} (softmax_bars.py:{line})")
