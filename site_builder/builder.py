"""A build process kept warm between the rebuilds of `explorables serve`.

Every rebuild used to start a fresh Python, import the builder, the engine and the
figures, and then build: on a small site most of a rebuild was that start. A kept
process also keeps what a build may reuse (converted formulas, compiled templates, the
search index's reading of each page), so an edit to a lesson's text is built in a
fraction of the time.

A fresh process is still what code changes need, so that an edited figure or engine
module is imported anew: the server asks for one (``restart``) whenever a changed file
is Python or lies outside the lessons, the templates and the runtime's files.

The protocol is one JSON line each way: the ``explorables`` command line in, and
``{"code", "out", "err"}`` back, the exit code and what the command printed.
"""
from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import traceback
from contextlib import redirect_stderr, redirect_stdout

COMMAND = [sys.executable, "-m", "explorables.site_builder.builder"]


class Builder:
    """Runs ``explorables`` command lines in one kept process, started on first use."""

    def __init__(self) -> None:
        self.process: subprocess.Popen | None = None

    def run(self, args: list[str]) -> tuple[int, str, str]:
        """The exit code, standard output and standard error of ``explorables ARGS``."""
        if self.process is None or self.process.poll() is not None:
            self.process = subprocess.Popen(COMMAND, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        try:
            self.process.stdin.write(json.dumps(args) + "\n")
            self.process.stdin.flush()
            reply = json.loads(self.process.stdout.readline())
            return int(reply["code"]), reply["out"], reply["err"]
        except (OSError, ValueError, KeyError, TypeError):  # the process died: a fresh one, this once
            self.stop()
            done = subprocess.run([sys.executable, "-m", "explorables.site_builder.cli", *args],
                                  capture_output=True, text=True)
            return done.returncode, done.stdout, done.stderr

    def restart(self) -> None:
        """The next run starts a fresh process (code has changed)."""
        self.stop()

    def stop(self) -> None:
        if self.process is not None:
            try:
                self.process.stdin.close()
                self.process.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                self.process.kill()
            self.process = None


def main() -> None:
    from .cli import main as explorables

    # Ctrl+C in the terminal reaches this process too: the server stops it by closing
    # its input, and a traceback here would only clutter the terminal.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # The replies keep the standard output to themselves: whatever else writes there (a
    # program a build runs, a C library) goes to standard error instead.
    answer = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    for line in sys.stdin:
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            try:
                code = explorables(json.loads(line))
            except SystemExit as stop:  # as Python itself ends: no code is 0, a message is 1
                if stop.code is None or isinstance(stop.code, int):
                    code = stop.code
                else:
                    print(stop.code, file=sys.stderr)
                    code = 1
            except Exception:  # a bug of the builder: reported as a failed build, the process goes on
                traceback.print_exc()
                code = 1
        answer.write(json.dumps({"code": code or 0, "out": out.getvalue(), "err": err.getvalue()}) + "\n")
        answer.flush()


if __name__ == "__main__":
    main()
