"""Errors and warnings as a GitHub Actions run shows them.

On a runner (``GITHUB_ACTIONS`` is "true"), ``explorables build`` and ``explorables
bundle`` print each error and warning a second time, to standard output, as a workflow
command: ``::error file=content/01-a.md,line=6,col=16,title=explorables::message``. The
run's summary then lists them, and a pull request shows each one on the line of the
lesson or figure module it is about. The log keeps the messages as the terminal shows
them; the commands only place them. A file's path is given from ``GITHUB_WORKSPACE``
(the checkout), so a site in a folder of its repository is placed too.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path

from ..errors import BuildError

TITLE = "explorables"
# A message as SourceError.format writes it: where, what, and its hint on the lines under it
PLACED = re.compile(
    r"(?P<path>[^\n]+?):(?P<line>[1-9][0-9]*):(?P<col>[1-9][0-9]*): (?P<message>[^\n]*)(?P<hint>\n.*)?", re.S
)


def on_runner() -> bool:
    """Whether this runs in a GitHub Actions job."""
    return os.environ.get("GITHUB_ACTIONS") == "true"


def _data(text: str) -> str:
    """A workflow command's message: its line breaks and percent signs escaped."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _value(text: str) -> str:
    """A workflow command's property: escaped as its message, and its ':' and ',' too."""
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def _from_workspace(path: Path) -> str:
    """``path`` from the checkout's root, with '/' (as a pull request's files are named)."""
    workspace = Path(os.environ.get("GITHUB_WORKSPACE") or Path.cwd()).resolve()
    try:
        return Path(os.path.relpath(path.resolve(), workspace)).as_posix()
    except ValueError:  # on another drive than the checkout
        return path.as_posix()


def command(kind: str, text: str, root: Path) -> str:
    """The workflow command (``kind``: "error" or "warning") for one message as the build
    formats it (``path:line:col: message`` and its hint, paths from ``root``, the site's
    folder); a message without a place is given to the run without a file."""
    placed = PLACED.fullmatch(text)
    if placed is None:
        return f"::{kind} title={_value(TITLE)}::{_data(text)}"
    path = Path(placed["path"])
    where = f"file={_value(_from_workspace(path if path.is_absolute() else root / path))}"
    hint = "\n".join(line.strip() for line in (placed["hint"] or "").splitlines() if line.strip())
    message = placed["message"] + ("\n" + hint if hint else "")
    return f"::{kind} {where},line={placed['line']},col={placed['col']},title={_value(TITLE)}::{_data(message)}"


def announce(kind: str, texts: Iterable[str], root: Path) -> None:
    """Print the workflow command of each message, on a runner only."""
    if on_runner():
        for text in texts:
            print(command(kind, text, root), flush=True)


def failed(err: Exception, root: Path) -> None:
    """Announce a build's failure: each of its errors, or its one message."""
    errors = err.errors if isinstance(err, BuildError) else []
    announce("error", [e.format(root) for e in errors] or [str(err)], root)
