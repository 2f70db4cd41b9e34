"""The kept build process of `explorables serve` (warm.py starts it): it reads one JSON
command line per line on its standard input, runs it as ``explorables`` would, and
answers ``{"code", "out", "err"}`` on one line of its standard output.
"""

from __future__ import annotations

import io
import json
import os
import signal
import sys
import traceback
from contextlib import redirect_stderr, redirect_stdout

from . import cli, incremental


def main() -> None:
    # Ctrl+C in the terminal reaches this process too: the server stops it by closing
    # its input, and a traceback here would only clutter the terminal.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    incremental.KEPT_PROCESS = True
    # The replies keep the standard output to themselves: whatever else writes there (a
    # program a build runs, a C library) goes to standard error instead.
    answer = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    for line in sys.stdin:
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            try:
                args = json.loads(line)
                code = None
                if args[:1] == ["__page"]:  # one lesson rebuilt in place, else the build after it
                    code = incremental.main(args[:4])
                    args = args[4:]
                if code is None:
                    code = cli.main(args)
            except SystemExit as stop:  # as Python itself ends: no code is 0, a message is 1
                if stop.code is None or isinstance(stop.code, int):
                    code = stop.code or 0
                else:
                    print(stop.code, file=sys.stderr)
                    code = 1
            except Exception:  # a bug of the builder: reported as a failed build, the process goes on
                traceback.print_exc()
                code = 1
        answer.write(json.dumps({"code": code or 0, "out": out.getvalue(), "err": err.getvalue()}) + "\n")
        answer.flush()
        try:  # once the server has its answer: what every page shares, brought up to date
            with redirect_stdout(io.StringIO()):
                incremental.catch_up()
        except Exception:
            traceback.print_exc()


if __name__ == "__main__":
    main()
