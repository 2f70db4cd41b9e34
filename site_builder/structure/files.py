"""What the build may read and how it reads it: nothing from outside the content folder,
every file as UTF-8 text, YAML without aliases or deep nesting (quoting.py cuts every
quoted value in a message to a readable length).

Each check returns SourceErrors (never raises on an author's mistake), so the build can
report every problem of a run together.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import yaml

from ..errors import SourceError
from ..quoting import clip, quoted
from .active_svg import active_message

YAML_DEPTH = 20  # lists and mappings inside each other in front matter or site.yml


def _where(link: Path) -> str:
    try:
        return os.readlink(link)
    except OSError:
        return "?"


def outside(path: Path, root: Path, what: str = "content folder") -> SourceError | None:
    """An error if ``path`` (a link, or inside a linked folder) resolves outside ``root``
    (the ``what``), or points nowhere. ``root`` must be resolved."""
    if path.is_symlink() and not path.exists():
        return SourceError(
            path,
            0,
            0,
            f"{path.name} is a symbolic link to {_where(path)}, which does not exist",
            "remove the link, or point it at a file inside the content folder",
        )
    real = path.resolve()
    if real != root and root not in real.parents:
        named = next((p for p in (path, *path.parents) if p.is_symlink()), None)
        if named is None:
            return SourceError(
                path,
                0,
                0,
                f"{path.name} is outside the {what} (it is {real}); the build reads nothing from outside it",
                f"move it into the {what}",
            )
        return SourceError(
            named,
            0,
            0,
            f"{named.name} is a symbolic link to {real}, which is outside the {what}; "
            f"the build publishes nothing from outside it",
            f"copy the file into the {what} instead of linking to it",
        )
    return None


def looped(entry: Path, above: tuple[Path, ...]) -> SourceError | None:
    """An error if the folder ``entry`` is (a link to) one of the real folders ``above``
    it: following it would read the same folders again and again."""
    real = entry.resolve()
    if real not in above:
        return None
    return SourceError(
        entry,
        0,
        0,
        f"{entry.name} is a symbolic link to {real}, a folder that holds the link itself",
        "remove the link; it would read the folder again inside itself, forever",
    )


# Characters a published file's name may not hold: a backslash (which an unzipper on
# Windows reads as a folder: x\..\..\evil.txt writes outside its folder), a colon (a
# drive, C:evil), control characters.
UNSAFE_FILE_NAME = re.compile(r"[\\:\x00-\x1f\x7f]")


def shown_name(name: str) -> str:
    """A file's name in quotes for a message, its control characters written as escapes."""
    return quoted("".join(c if c.isprintable() else repr(c)[1:-1] for c in name))


def unsafe_file_name(entry: Path) -> SourceError | None:
    """An error if the name of a file or folder the site publishes holds a character an
    unzipper or another system reads as part of a path."""
    found = list(dict.fromkeys(UNSAFE_FILE_NAME.findall(entry.name)))
    if not found:
        return None
    shown = ", ".join("a backslash" if c == "\\" else "':'" if c == ":" else repr(c) for c in found)
    return SourceError(
        entry,
        0,
        0,
        f"the name {shown_name(entry.name)} holds {shown}, which other systems read "
        f"as part of a path (unzipped, it could land outside its folder)",
        "rename it with letters, digits, '-', '_' and '.' only",
    )


def read_source(path: Path, root: Path) -> tuple[str | None, list[SourceError]]:
    """The text of a source file (lesson or site.yml), or the errors that keep it from
    being read: a folder, a dangling link, a link out of the content folder, bytes that
    are not UTF-8. A UTF-8 byte-order mark is dropped."""
    problem = outside(path, root)
    if problem:
        return None, [problem]
    if path.is_dir():
        return None, [
            SourceError(
                path,
                0,
                0,
                f"{path.name} is a folder, but its name makes it a "
                f"{'site config' if path.name == 'site.yml' else 'lesson'}",
                f"rename the folder (e.g. {path.stem}/) or move it out of the content folder",
            )
        ]
    if not path.is_file():
        return None, [
            SourceError(
                path, 0, 0, f"{path.name} is not a regular file", "lessons and site.yml must be plain text files"
            )
        ]
    try:
        data = path.read_bytes()
    except OSError as err:
        return None, [
            SourceError(
                path, 0, 0, f"{path.name} cannot be read ({err.strerror or err})", "check the file's permissions"
            )
        ]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        col = err.start - (data.rfind(b"\n", 0, err.start) + 1) + 1
        return None, [
            SourceError(
                path,
                line,
                col,
                f"the file is not UTF-8 text (byte 0x{data[err.start]:02x} cannot be read)",
                "save it as UTF-8 in your editor (e.g. iconv -f latin1 -t utf-8 FILE > NEW)",
            )
        ]
    if text.startswith("\ufeff"):
        text = text[1:]
    return text.replace("\r\n", "\n").replace("\r", "\n"), []


class _Loader(yaml.SafeLoader):
    """YAML's safe loader without aliases (one 366-byte alias bomb expands to 35 MB), with
    a bound on nesting, and refusing a key given twice (YAML would keep the last quietly)."""

    def compose_node(self, parent, index):
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise yaml.MarkedYAMLError(
                None, None, "aliases (*name) are not allowed; write the value out", event.start_mark
            )
        depth = getattr(self, "_depth", 0)
        if depth >= YAML_DEPTH:
            raise yaml.MarkedYAMLError(
                None, None, f"values nest more than {YAML_DEPTH} levels deep", self.peek_event().start_mark
            )
        self._depth = depth + 1
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth = depth

    def construct_mapping(self, node, deep=False):
        seen = set()
        for key_node, _ in node.value:
            key = key_node.value if isinstance(key_node, yaml.ScalarNode) else None
            if key is not None and key in seen:
                raise yaml.MarkedYAMLError(
                    None, None, f"'{clip(key, 40)}' is given twice; YAML would keep this one", key_node.start_mark
                )
            seen.add(key)
        return super().construct_mapping(node, deep)


def load_yaml(text: str):
    """yaml.safe_load, refusing aliases, deep nesting and repeated keys (raises
    yaml.YAMLError). Read by libyaml where PyYAML has it (a front matter in a tenth of
    the time); a text it refuses, or whose nodes break a rule, is read again by the
    loader above, which says where and why."""
    if _FAST is not None:
        loader = _FAST(text)
        try:
            node = loader.get_single_node()
            if node is None or _plain(node, set(), 0):
                return None if node is None else loader.construct_document(node)
        except yaml.YAMLError:
            pass
        finally:
            loader.dispose()
    return yaml.load(text, Loader=_Loader)


_FAST = getattr(yaml, "CSafeLoader", None)  # with SafeLoader's constructor and resolver


def _plain(node, seen: set[int], depth: int) -> bool:
    """No node met twice (an alias), none nested YAML_DEPTH deep, no key given twice."""
    if id(node) in seen or depth >= YAML_DEPTH:
        return False
    seen.add(id(node))
    if isinstance(node, yaml.MappingNode):
        keys = [key.value for key, _ in node.value if isinstance(key, yaml.ScalarNode)]
        if len(keys) != len(set(keys)):
            return False
        return all(_plain(key, seen, depth + 1) and _plain(value, seen, depth + 1) for key, value in node.value)
    if isinstance(node, yaml.SequenceNode):
        return all(_plain(item, seen, depth + 1) for item in node.value)
    return True


# Where PyYAML notices a mistake is often a line or more past it (at the end of the
# text, for a quote never closed); for these it also marks where the mistake began,
# which is where the author has to look.
_BEGUN = {
    "while scanning a quoted scalar": (
        "a quoted value is never closed",
        "end it with the same quote mark it starts with, on the same line",
    ),
    "while scanning a simple key": ("this line has no ':' after its key", "write `key: value`"),
    "while parsing a flow sequence": ("a '[' list is never closed", "end it with ']'"),
    "while parsing a flow mapping": ("a '{' mapping is never closed", "end it with '}'"),
}
YAML_HINT = "write one `key: value` per line"


_KEY_LINE = re.compile(r"""^[^\s#'"-][^:]*:(?:\s+|$)""")


def _culprit(text: str, upto: int) -> tuple[int, int, str, str] | None:
    """The first top-level line before line ``upto`` that YAML reads on into the next
    ones, so that it reports the mistake there: a key with no ':' (its words join the
    next line's key) or a quote not closed on its line (a quoted value may go on for
    lines). Front matter and site.yml write neither on purpose."""
    for number, line in enumerate(text.split("\n")[: max(0, upto - 1)], 1):
        if not line.strip() or line.lstrip().startswith("#") or line[0] in " \t-":
            continue
        match = _KEY_LINE.match(line)
        if not match:
            return number, 1, "this line has no ':' after its key", "write `key: value`"
        value = line[match.end() :]
        if value[:1] in ("'", '"') and value[0] not in value[1:]:
            return (
                number,
                match.end() + 1,
                "a quoted value is never closed",
                "end it with the same quote mark it starts with, on the same line",
            )
    return None


def yaml_problem(err: yaml.YAMLError, text: str = "") -> tuple[int, int, str, str]:
    """(line, col, short reason, how to fix it) of a YAML error in ``text``, for a message."""
    context_mark = getattr(err, "context_mark", None)
    begun = _BEGUN.get(getattr(err, "context", None) or "")
    if begun and context_mark is not None:
        return context_mark.line + 1, context_mark.column + 1, *begun
    mark = getattr(err, "problem_mark", None)
    line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
    culprit = _culprit(text, line)
    if culprit:
        return culprit
    problem = clip(str(getattr(err, "problem", None) or err).split("\n")[0], 120)
    hint = "keep one of them" if problem.endswith("YAML would keep this one") else YAML_HINT
    if problem == "mapping values are not allowed here":
        before = (text.split("\n")[line - 1] if 0 < line <= text.count("\n") + 1 else "")[: col - 1]
        if ": " in before.strip():  # a second ': ' on the line, inside the value
            problem = "the value holds ': ', which YAML reads as another key"
            hint = f'put the value in quotes: {before.split(": ", 1)[0].strip()}: "..."'
    return line, col, problem, hint


def copy_tree(source: Path, dest: Path | None, root: Path, errors: list[SourceError]) -> None:
    """Copy an author's folder of images and files into the site (``dest`` None: only
    check it). Links are followed only while they stay inside the content folder; a link
    out of it, a link to nowhere and a link loop are errors (and nothing of theirs is
    copied)."""

    def walk(folder: Path, target: Path | None, above: tuple[Path, ...]) -> None:
        if target is not None:
            target.mkdir(parents=True, exist_ok=True)
        for entry in sorted(folder.iterdir()):
            if entry.name.startswith(".") or (entry.name.startswith("_") and entry.is_dir()):
                continue  # an editor's lock or swap file, .DS_Store, a folder put aside: never published
            problem = outside(entry, root) or unsafe_file_name(entry) or (entry.is_dir() and looped(entry, above))
            if problem:
                errors.append(problem)
                continue
            if entry.is_dir():
                walk(entry, None if target is None else target / entry.name, (*above, entry.resolve()))
            elif entry.is_file() and entry.suffix.lower() == ".svg" and (active := active_message(entry)):
                errors.append(SourceError(entry, *active))  # an SVG that would run code
            elif entry.is_file() and target is not None:
                try:
                    shutil.copyfile(entry, target / entry.name)
                except OSError as err:
                    errors.append(
                        SourceError(
                            entry,
                            0,
                            0,
                            f"{entry.name} cannot be copied into the site ({err.strerror or err})",
                            "check the file's permissions",
                        )
                    )

    walk(source, dest, (*source.resolve().parents, source.resolve()))


def read_sources(sources: list[Path], content: Path, errors: list) -> dict[Path, str]:
    """Every lesson of ``sources`` that could be read, by path (``read_source``); what
    could not be read goes into ``errors``."""
    texts: dict[Path, str] = {}
    for path in sources:
        text, problems = read_source(path, content)
        errors.extend(problems)
        if text is not None:
            texts[path] = text
    return texts
