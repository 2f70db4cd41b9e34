"""What the build may read and how it reads it: nothing from outside the content folder,
every file as UTF-8 text, YAML without aliases or deep nesting, and every quoted value in
a message cut to a readable length.

Each check returns SourceErrors (never raises on an author's mistake), so the build can
report every problem of a run together.
"""
from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import yaml

from .errors import SourceError

QUOTE_LIMIT = 60  # characters of an author's or reader's value quoted in a message
YAML_DEPTH = 20  # lists and mappings inside each other in front matter or site.yml


def clip(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` if short; else its first ``limit`` characters, '…' and the full length."""
    text = str(text)
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text)} characters)"


def quoted(text: str, limit: int = QUOTE_LIMIT) -> str:
    """Text in single quotes, or its first ``limit`` characters and its length."""
    text = str(text)
    if len(text) <= limit:
        return f"'{text}'"
    return f"'{text[:limit]}…' ({len(text)} characters)"


def quote(value) -> str:
    """A value as a message quotes it: repr for short values, a clipped repr otherwise."""
    text = repr(value)
    if len(text) <= QUOTE_LIMIT + 2:
        return text
    return f"{text[:QUOTE_LIMIT]}… ({len(text)} characters)"


_QUOTED = re.compile(r"'([^'\n]{%d,})'" % (QUOTE_LIMIT + 1))


def clip_quotes(message: str) -> str:
    """A message made elsewhere (the engine's) with every long quoted value clipped."""
    return _QUOTED.sub(lambda m: f"'{m.group(1)[:QUOTE_LIMIT]}…' ({len(m.group(1))} characters)", message)


def _where(link: Path) -> str:
    try:
        return os.readlink(link)
    except OSError:
        return "?"


def outside(path: Path, root: Path, what: str = "content folder") -> SourceError | None:
    """An error if ``path`` (a link, or inside a linked folder) resolves outside ``root``
    (the ``what``), or points nowhere. ``root`` must be resolved."""
    if path.is_symlink() and not path.exists():
        return SourceError(path, 0, 0, f"{path.name} is a symbolic link to {_where(path)}, which does not exist",
                           "remove the link, or point it at a file inside the content folder")
    real = path.resolve()
    if real != root and root not in real.parents:
        named = next((p for p in (path, *path.parents) if p.is_symlink()), None)
        if named is None:
            return SourceError(path, 0, 0, f"{path.name} is outside the {what} (it is {real}); the build reads "
                               f"nothing from outside it",
                               f"move it into the {what}")
        return SourceError(named, 0, 0, f"{named.name} is a symbolic link to {real}, which is outside the {what}; "
                           f"the build publishes nothing from outside it",
                           f"copy the file into the {what} instead of linking to it")
    return None


def read_source(path: Path, root: Path) -> tuple[str | None, list[SourceError]]:
    """The text of a source file (lesson or site.yml), or the errors that keep it from
    being read: a folder, a dangling link, a link out of the content folder, bytes that
    are not UTF-8. A UTF-8 byte-order mark is dropped."""
    problem = outside(path, root)
    if problem:
        return None, [problem]
    if path.is_dir():
        return None, [SourceError(path, 0, 0, f"{path.name} is a folder, but its name makes it a "
                                  f"{'site config' if path.name == 'site.yml' else 'lesson'}",
                                  f"rename the folder (e.g. {path.stem}/) or move it out of the content folder")]
    if not path.is_file():
        return None, [SourceError(path, 0, 0, f"{path.name} is not a regular file",
                                  "lessons and site.yml must be plain text files")]
    try:
        data = path.read_bytes()
    except OSError as err:
        return None, [SourceError(path, 0, 0, f"{path.name} cannot be read ({err.strerror or err})",
                                  "check the file's permissions")]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        col = err.start - (data.rfind(b"\n", 0, err.start) + 1) + 1
        return None, [SourceError(path, line, col, f"the file is not UTF-8 text (byte 0x{data[err.start]:02x} "
                                  f"cannot be read)", "save it as UTF-8 in your editor "
                                  "(e.g. iconv -f latin1 -t utf-8 FILE > NEW)")]
    if text.startswith("\ufeff"):
        text = text[1:]
    return text.replace("\r\n", "\n").replace("\r", "\n"), []


class _Loader(yaml.SafeLoader):
    """YAML's safe loader without aliases (one 366-byte alias bomb expands to 35 MB) and
    with a bound on nesting."""

    def compose_node(self, parent, index):
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise yaml.MarkedYAMLError(None, None, "aliases (*name) are not allowed; write the value out",
                                       event.start_mark)
        depth = getattr(self, "_depth", 0)
        if depth >= YAML_DEPTH:
            raise yaml.MarkedYAMLError(None, None, f"values nest more than {YAML_DEPTH} levels deep",
                                       self.peek_event().start_mark)
        self._depth = depth + 1
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth = depth


def load_yaml(text: str):
    """yaml.safe_load, refusing aliases and deep nesting (raises yaml.YAMLError)."""
    return yaml.load(text, Loader=_Loader)  # noqa: S506 (a SafeLoader subclass)


def yaml_problem(err: yaml.YAMLError) -> tuple[int, int, str]:
    """(line, col, short reason) of a YAML error, for a message."""
    mark = getattr(err, "problem_mark", None)
    line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
    return line, col, clip(str(getattr(err, "problem", None) or err).split("\n")[0], 120)


def copy_tree(source: Path, dest: Path | None, root: Path, errors: list[SourceError]) -> None:
    """Copy an author's folder of images and files into the site (``dest`` None: only
    check it). Links are followed only while they stay inside the content folder; a link
    out of it, a link to nowhere and a link loop are errors (and nothing of theirs is
    copied)."""
    def walk(folder: Path, target: Path | None, above: tuple[Path, ...]) -> None:
        if target is not None:
            target.mkdir(parents=True, exist_ok=True)
        for entry in sorted(folder.iterdir()):
            problem = outside(entry, root)
            if problem:
                errors.append(problem)
                continue
            if entry.is_dir():
                real = entry.resolve()
                if real in above:
                    errors.append(SourceError(entry, 0, 0, f"{entry.name} is a symbolic link to {real}, "
                                              f"a folder that holds the link itself",
                                              "remove the link; it would copy the folder forever"))
                    continue
                walk(entry, None if target is None else target / entry.name, (*above, real))
            elif entry.is_file() and target is not None:
                try:
                    shutil.copyfile(entry, target / entry.name)
                except OSError as err:
                    errors.append(SourceError(entry, 0, 0, f"{entry.name} cannot be copied into the site "
                                              f"({err.strerror or err})", "check the file's permissions"))

    walk(source, dest, (source.resolve(),))
