"""Errors an author can meet, each naming the file, line and column and how to fix it."""

from __future__ import annotations

from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

MESSAGE_LIMIT = 300  # characters of one message or hint; longer ones are cut


def _bounded(text: str) -> str:
    """``text`` cut to MESSAGE_LIMIT characters between words, keeping its last clause
    (after '; ', often what to do: "`explorables figures` lists every figure")."""
    if len(text) <= MESSAGE_LIMIT:
        return text
    split = text.rfind("; ")
    tail = text[split:] if split > 0 and len(text) - split <= MESSAGE_LIMIT // 2 else ""
    room = MESSAGE_LIMIT - len(tail) - 1
    head = text[:room]
    space = head.rfind(" ")
    if space > room // 2:
        head = head[:space].rstrip(",;:")
    return head + "…" + tail


@dataclass
class SourceError:
    """One mistake in one source file. ``line`` and ``col`` count from 1; line 0 is a
    problem of the file as a whole (a link, a folder), shown without a position."""

    path: Path | str
    line: int
    col: int
    message: str
    hint: str = ""

    def format(self, root: Path | None = None) -> str:
        path = Path(self.path)
        if root is not None:
            with suppress(ValueError):
                path = path.relative_to(root)
        where = f"{path}:{self.line}:{self.col}" if self.line else f"{path}"
        text = f"{where}: {_bounded(self.message)}"
        if self.hint:
            text += f"\n    {_bounded(self.hint)}"
        return text


LEFT = "the previous site was left as it was."  # what every failed build says last
NOTHING = "nothing was written (there is no previous site)."


class BuildError(Exception):
    """A build that cannot finish. Holds every SourceError found in the run."""

    exit_code = 1

    def first_build(self) -> BuildError:
        """The same error said of a build with no previous site to leave as it was."""
        self.args = (str(self).replace(LEFT, NOTHING).replace(LEFT.capitalize(), NOTHING.capitalize()),)
        return self

    def __init__(self, errors: list[SourceError] | str, root: Path | None = None, last: str = LEFT):
        """``last``: what the list ends with, after the count (a command that writes
        nothing says so instead of speaking of a previous site)."""
        if isinstance(errors, str):
            self.errors: list[SourceError] = []
            text = errors
        else:
            self.errors = list(errors)
            count = len(self.errors)
            lines = [e.format(root) for e in self.errors]
            text = "\n".join(lines) + f"\n{count} error{'s' if count != 1 else ''}; {last}"
        super().__init__(text)


class InternalError(BuildError):
    """A bug in the builder, met while building one file: reported in one line (never a
    traceback), with exit code 2 so scripts can tell it from an author's mistake."""

    exit_code = 2

    def __init__(self, where: Path | str, error: BaseException, root: Path | None = None):
        where = Path(where)
        if root is not None:
            with suppress(ValueError):
                where = where.relative_to(root)
        detail = _bounded(f"{type(error).__name__}: {error}".split("\n")[0])
        self.where = where
        super().__init__(f"internal error while building {where}: {detail} (please report); {LEFT}")


class PyodideError(Exception):
    """Pyodide could not be obtained; the message says exactly what to do."""


@contextmanager
def building(where: Path, root: Path):
    """Turn a bug met while building ``where`` into an InternalError naming it."""
    try:
        yield
    except (BuildError, PyodideError):
        raise
    except Exception as err:
        raise vanished(err, root) or InternalError(where, err, root) from err


def vanished(err: Exception, root: Path) -> BuildError | None:
    """A file of the site that was there when the build listed it and gone when it read
    it (a `git checkout`, an editor saving by rename): no bug, nothing to report."""
    if not isinstance(err, FileNotFoundError) or not err.filename:
        return None
    try:
        path = Path(err.filename).resolve().relative_to(Path(root).resolve())
    except ValueError:
        return None  # not the site's: a file of the tool itself, a bug
    return BuildError(
        f"{path} went missing while the site was built (moved or deleted meanwhile); build again. " + LEFT.capitalize()
    )
