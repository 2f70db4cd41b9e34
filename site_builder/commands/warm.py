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
``{"code", "out", "err"}`` back, the exit code and what the command printed. This module
is the server's side; warm_main.py is the process.
"""

from __future__ import annotations

import json
import subprocess
import sys

COMMAND = [sys.executable, "-m", "explorables.site_builder.commands.warm_main"]  # the process (warm_main.py)


class Builder:
    """Runs ``explorables`` command lines in one kept process, started on first use."""

    def __init__(self) -> None:
        self.process: subprocess.Popen | None = None

    def run(self, args: list[str]) -> tuple[int, str, str]:
        """The exit code, standard output and standard error of ``explorables ARGS``."""
        if self.process is None or self.process.poll() is not None:
            self.process = subprocess.Popen(COMMAND, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        try:
            stdin, stdout = self.process.stdin, self.process.stdout
            if stdin is None or stdout is None:  # (both are pipes: Popen above)
                raise OSError("the builder process has no pipes")
            stdin.write(json.dumps(args) + "\n")
            stdin.flush()
            reply = json.loads(stdout.readline())
            return int(reply["code"]), reply["out"], reply["err"]
        except (OSError, ValueError, KeyError, TypeError):  # the process died: a fresh one, this once
            self.stop()
            done = subprocess.run(
                [sys.executable, "-m", "explorables.site_builder.commands.cli", *args], capture_output=True, text=True
            )
            return done.returncode, done.stdout, done.stderr

    def restart(self) -> None:
        """The next run starts a fresh process (code has changed)."""
        self.stop()

    def stop(self) -> None:
        if self.process is not None:
            try:
                if self.process.stdin is not None:
                    self.process.stdin.close()
                self.process.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                self.process.kill()
            self.process = None
