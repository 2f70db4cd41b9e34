"""The catalogue keys an author's figure module writes out, checked in each language of
the site: ``Say("own.shares.title")``, ``t("own.shares.lead", ...)``, and any string
that is a key of the site's own words (a key kept in a constant counts).

In the site's language (loader.py, as each module loads) a key with no text stops the
build at the line that writes it. In each other language of a site in several
(commands/build_languages.py) the same: a key with no text in that language at all is an
error; one that has only the English text of ``locales/en.json`` is a warning at its
first use, naming the file to add it to (its pages would show English there)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from ..errors import SourceError
from ..structure.language import OWN_KEY

KEY_CALLS = ("Say", "t")  # the kit's ways to name a catalogue key: Say("own.x"), t("own.x", ...)
_KEY = re.compile(r"^[a-z_]+(\.[A-Za-z0-9_-]+)+$")  # what reads as a key, not as words


def written_keys(tree: ast.AST) -> list[tuple[str, ast.Constant]]:
    """The strings of the module that name a catalogue key, each with its node, in the
    order of the tree's walk: a key of the site's own words wherever it stands, and the first argument of
    ``Say`` or ``t``. A key put together while the module runs (an f-string) is looked up
    when it is shown instead."""
    pieces = {id(part) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for part in node.values}
    named = set()  # the first arguments of Say and t
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            func = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            if func in KEY_CALLS:
                named.add(id(node.args[0]))
    return [
        (node.value, node)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in pieces
        and (OWN_KEY.match(node.value) or (id(node) in named and _KEY.match(node.value)))
    ]


def check_keys(path: Path, tree: ast.AST, words) -> list[tuple[str, SourceError]]:
    """Every catalogue key the module writes out has a text in ``words`` (the site's
    language.Words). Returns each key with no text and its error, in the file's order."""
    errors = []
    for key, node in written_keys(tree):
        problem = words.key_problem(key)
        if problem:
            errors.append((key, SourceError(path, node.lineno, node.col_offset + 1, *problem)))
    return sorted(errors, key=lambda found: (found[1].line, found[1].col))


def check_language(modules, words) -> tuple[list[SourceError], list[SourceError]]:
    """(errors, warnings) of the keys the site's loaded figure ``modules`` write out, in
    another language of the site (``words``, its language.Words): a key with no text in
    it, and a key of the site's own words whose text there is the English one (a warning
    at its first use; its catalogue's own warning is then said at the uses instead)."""
    errors: list[SourceError] = []
    warnings: list[SourceError] = []
    here = f"locales/{words.catalogue.name}" if words.catalogue else f"locales/{words.language}.json"
    seen: set[str] = set()
    for module in modules:
        try:
            tree = ast.parse(module.path.read_bytes(), filename=str(module.path))
        except (SyntaxError, ValueError, OSError):
            continue  # it loaded for the site's language: changed since, it is read again next build
        problems = check_keys(module.path, tree, words)
        if problems:  # the build stops anyway: the lessons that show the figure report nothing more
            words.stand_in(key for key, _ in problems)
        errors += [error for _, error in problems]
        for key, node in sorted(written_keys(tree), key=lambda found: (found[1].lineno, found[1].col_offset)):
            source = words.sources.get(key)
            if key in seen or source is None or source[0] == words.catalogue:
                continue
            seen.add(key)
            warnings.append(
                SourceError(
                    module.path,
                    node.lineno,
                    node.col_offset + 1,
                    f"the key '{key}' has no '{words.language}' text in {here}: the '{words.language}' pages show "
                    f"its English text (locales/en.json)",
                    f'add "{key}": "…" to {here}',
                )
            )
    return errors, warnings
