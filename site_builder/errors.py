"""Errors an author can meet, each naming the file, line and column and how to fix it."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass
class SourceError:
    """One mistake in one source file. ``line`` and ``col`` count from 1."""

    path: Path | str
    line: int
    col: int
    message: str
    hint: str = ""

    def format(self, root: Path | None = None) -> str:
        path = Path(self.path)
        if root is not None:
            try:
                path = path.relative_to(root)
            except ValueError:
                pass
        text = f"{path}:{self.line}:{self.col}: {self.message}"
        if self.hint:
            text += f"\n    {self.hint}"
        return text


class BuildError(Exception):
    """A build that cannot finish. Holds every SourceError found in the run."""

    def __init__(self, errors: list[SourceError] | str, root: Path | None = None):
        if isinstance(errors, str):
            self.errors: list[SourceError] = []
            text = errors
        else:
            self.errors = list(errors)
            count = len(self.errors)
            lines = [e.format(root) for e in self.errors]
            text = "\n".join(lines) + f"\n{count} error{'s' if count != 1 else ''}; the previous site was left as it was."
        super().__init__(text)


class PyodideError(Exception):
    """Pyodide could not be obtained; the message says exactly what to do."""
