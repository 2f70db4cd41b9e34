"""What the last load of a site's figures folder could not make known (loader.py fills
it), for the lessons' "unknown directive" and "unknown exercise type" messages to point
at the cause, or to say nothing more when the cause is said already: one mistake, one
error."""

from __future__ import annotations

import re
from pathlib import Path

# What the last load could not make known, for the lessons' "unknown directive" and
# "unknown exercise type" messages to point at the cause: the modules that failed, and
# each name a module's class gives itself without being registered.
FAILED: list[Path] = []
MISSING: list[Path] = []  # the figures folder, when there is none
UNREGISTERED: dict[str, tuple[Path, int, str]] = {}  # name -> (file, line, class name)
FOLDER_FAILED: list[Path] = []  # the figures folder, when the build may not load it at all (outside the site)


def named_in_failed(name: str) -> bool:
    """Whether a module that could not be loaded gives some class the figure or
    exercise type name ``name`` (read from its text, which may not even parse): its
    error is reported already, and a lesson using the name needs no second one."""
    if FOLDER_FAILED:  # nothing of the folder was loaded: its error is the one to mend first
        return True
    quoted = re.compile(r"""["']""" + re.escape(name) + r"""["']""")  # name = "x", name: str = "x", NAME = "x"
    for path in FAILED:
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        if quoted.search(text) or _UNSAID.search(text):
            return True
    return False


# A class's name that is not written out (name = NAME, name = "dot-" + KIND): which names
# a failed module gives, the build cannot tell, so its error stands for them all.
_UNSAID = re.compile(r"""^[ \t]+name[ \t]*(?::[^=\n]*)?=[ \t]*(?!["'\s])""", re.MULTILINE)


def unknown_hint(name: str, root: Path | None, usual: str) -> str:
    """The hint for an unknown figure or exercise type ``name``: what the last load of
    the site's figures folder says of it (a class named so but not registered, a module
    that failed), else the ``usual`` hint."""

    def shown(path: Path) -> str:
        try:
            return path.relative_to(root).as_posix() if root else path.name
        except ValueError:
            return path.name

    if name in UNREGISTERED:
        path, line, cls = UNREGISTERED[name]
        return (
            f"{shown(path)}:{line} defines class {cls} with name '{name}' but does not register it: "
            f"put @register on the line above `class {cls}`"
        )
    if FAILED:
        return (
            f"if it is one of your own: {', '.join(shown(p) for p in FAILED)} could not be loaded (its "
            f"error is listed first). Else: {usual}"
        )
    if MISSING and "did you mean" not in usual:
        return (
            f"if it is one of your own: there is no folder {shown(MISSING[0])}/ to load it from (site.yml's "
            f"`figures:` names the folder). Else: {usual}"
        )
    return usual
