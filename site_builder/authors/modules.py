"""What loading a site's figures folder gives (loader.py): each module that loaded
cleanly, with the figures and exercise types it registered, and how the engine archive
carries them to the browser, as the package ``explorables.site_figures``."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..errors import SourceError
from .rules import PACKAGE


@dataclass
class AuthorModule:
    path: Path  # the author's file
    name: str  # its module name under PACKAGE
    source: bytes
    figures: list[str] = field(default_factory=list)  # the figure names it registered
    exercises: list[str] = field(default_factory=list)  # the exercise types it registered


@dataclass
class AuthorFigures:
    folder: Path
    modules: list[AuthorModule] = field(default_factory=list)
    errors: list[SourceError] = field(default_factory=list)

    @property
    def names(self) -> dict[str, Path]:
        """Each author figure's name and the file that defines it."""
        return {name: m.path for m in self.modules for name in m.figures}

    @property
    def exercise_names(self) -> dict[str, Path]:
        """Each author exercise type's name and the file that defines it."""
        return {name: m.path for m in self.modules for name in m.exercises}

    def archive_files(self, words: dict[str, str] | None = None) -> list[tuple[str, bytes]]:
        """The modules as the engine archive carries them, with a package that imports them
        after handing the engine the site's own ``words`` (in the site's language)."""
        if not self.modules:
            return []
        base = PACKAGE.replace(".", "/")
        # Each module imported on its own: one that fails in the browser when it imported at
        # build time (a module the browser lacks, named while it runs) takes down its own
        # figures and exercises, whose steps say why (engine/runtime.py), not the engine.
        init = [
            '"""The site\'s own figures (written by `explorables build`): importing this registers them."""',
            "import importlib",
            "from explorables.engine import locale",
            "WORDS = " + repr(dict(sorted((words or {}).items()))),
            "locale.own_words(WORDS)  # before the modules: their words are the site's",
            "SOURCES = " + repr({m.name: m.path.name for m in self.modules}),
            "MADE = " + repr({m.name: sorted(m.figures + m.exercises) for m in self.modules}),
            "FAILED = {}  # module -> the exception its import raised here",
            "for _name in SOURCES:",
            "    try:",
            "        importlib.import_module(__name__ + '.' + _name)",
            "    except Exception as _err:",
            "        FAILED[_name] = _err",
        ]
        return [(f"{base}/__init__.py", ("\n".join(init) + "\n").encode())] + [
            (f"{base}/{m.name}.py", m.source) for m in self.modules
        ]
