"""An author's own figures: the Python modules in a site's ``figures/`` folder.

Each ``*.py`` module there is loaded by its file location (as MkDocs loads hooks) with
the same public kit the built-in figures use, ``from explorables.figures import ...``.
A module may register figures and exercise types (subclasses of ``Exercise``, for the
``{exercise}`` directive); both are checked here the same way.
Before a module runs, its imports are read with ``ast`` and checked against the rule the
author guide states: the standard library, ``explorables.figures``,
``explorables.engine`` and the folder's other modules (``from . import helpers``),
nothing else (the browser's Python has nothing else). Then the module runs (after the
modules of the folder it imports), and every figure it registers is validated: its name
is new (no built-in is shadowed), its options' defaults are acceptable values, and its
first frame and each experiment compute and give JSON. An exercise type likewise: a new
name, a known answer kind, and problems that compute, read their own right answer and
give JSON. The modules then travel in the engine archive as the package
``explorables.site_figures``, which the browser's runtime imports beside the built-ins.

A module's words are keys of the site's catalogues (``Say("own.shares.title")``,
``t("own.shares.sum", ...)``; see language.py): every key written out in the module is
looked up before it runs, so a key with no text stops the build at the line that uses
it. The site's own words, in its language, go into the archive with the modules.

Every mistake is a SourceError with the author's file and line (the author's frame of a
traceback, never ours), so the build stops with exit 1 and the previous site stays. The
checks themselves are in checks.py (lines.py finds the lines they name) and what a
load gives in modules.py; this module loads, registers and unloads.
"""

from __future__ import annotations

import ast
import importlib.util
import re
import sys
import types
from pathlib import Path

from ...engine.exercises import EXERCISES, Exercise
from ...engine.figures import FIGURES, Figure
from ...engine.figures.kit.params import DeclarationError
from ...engine.locale import OWN
from ..errors import SourceError
from ..markdown.directives.names import TEACHING
from ..structure.config import config_path, load_config
from ..structure.files import outside
from .checks import check_imports, check_keys, siblings, validate
from .exercise_checks import validate_exercise
from .failures import FAILED, FOLDER_FAILED, MISSING, UNREGISTERED, named_in_failed, unknown_hint  # noqa: F401
from .guard import Refused, Stopped, fence_model, fenced, stopped
from .lines import author_column, author_line, class_line, column_at
from .modules import AuthorFigures, AuthorModule
from .rules import PACKAGE

_MODULE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def failed(model) -> bool:
    """Whether an author's figure comes from a module whose checks failed (its error is
    reported there already)."""
    return is_authors(model) and any(p.stem == type(model).__module__.rsplit(".", 1)[-1] for p in FAILED)


def is_authors(model) -> bool:
    """Whether a figure or exercise type comes from the site's figures folder."""
    return type(model).__module__.startswith(PACKAGE + ".")


def builtin() -> set[str]:
    """The names of the built-in figures (those defined in explorables.engine)."""
    return {n for n, f in FIGURES.items() if type(f).__module__.startswith("explorables.engine.")}


def builtin_exercises() -> set[str]:
    """The names of the built-in exercise types (those defined in explorables.engine)."""
    return {n for n, e in EXERCISES.items() if type(e).__module__.startswith("explorables.engine.")}


def _authors(registry: dict) -> list[str]:
    # what is registered now (an author's figures are, from their load on): the built-in
    # figures not imported yet are not authors' and stay unimported
    return [n for n, f in dict.items(registry) if type(f).__module__.startswith(PACKAGE + ".")]


def _directives() -> set[str]:
    """The names of the teaching directives ({question}, ...), which no figure may take."""
    return set(TEACHING)


def _clash(name: str, first, path: Path, line: int) -> list[SourceError]:
    """The figure ``name`` registered by ``path`` (its class at ``line``) and, before it,
    by ``first``'s module: one of the two was just given that name, which one the build
    cannot tell, so it is said at both classes. Both modules count as failed: a lesson
    using a figure of either says nothing more until the names differ (the other
    module's figures would be checked against the wrong class)."""
    other = path.parent / (type(first).__module__.rsplit(".", 1)[-1] + ".py")
    try:
        other_line = class_line(ast.parse(other.read_text(encoding="utf-8")), type(first).__name__)
    except (OSError, SyntaxError, ValueError):
        other_line = 1
    FAILED.append(other)
    return [
        SourceError(
            where,
            at,
            1,
            f"the figure name '{name}' is defined in {also.name} of the figures folder too",
            "give each figure its own name",
        )
        for where, at, also in ((other, other_line, path), (path, line, other))
    ]


def _unregistered(module, path: Path, tree: ast.Module) -> dict[str, tuple[Path, int, str]]:
    """The names of the figures and exercise types the module's own classes give
    themselves without being registered (``@register`` forgotten)."""
    found = {}
    for value in vars(module).values():
        if not (isinstance(value, type) and value.__module__ == module.__name__):
            continue
        name = value.__dict__.get("name")
        if not isinstance(name, str) or not name:
            continue
        registry = EXERCISES if issubclass(value, Exercise) else FIGURES if issubclass(value, Figure) else None
        if registry is not None and type(registry.get(name)) is not value:
            found[name] = (path, class_line(tree, value.__name__), value.__name__)
    return found


def unload() -> None:
    """Forget every author figure, exercise type and module of an earlier load (``serve``
    builds again)."""
    FAILED.clear()
    FOLDER_FAILED.clear()
    MISSING.clear()
    UNREGISTERED.clear()
    for registry in (FIGURES, EXERCISES):
        for name in _authors(registry):
            del registry[name]
    for module in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
        del sys.modules[module]


def load(folder: Path, words=None) -> AuthorFigures:
    """Load, check and validate every module of ``folder`` (a missing folder: none).
    With the site's ``words`` (language.Words), every catalogue key a module writes out
    is checked first (``Words.key_problem``)."""
    unload()
    found = AuthorFigures(Path(folder))
    if not found.folder.is_dir():
        MISSING.append(found.folder)
        return found
    package = types.ModuleType(PACKAGE)  # what `from . import helpers` in a module imports from
    package.__path__, package.__package__ = [], PACKAGE  # only the modules loaded below
    sys.modules[PACKAGE] = package
    paths = [p for p in sorted(found.folder.glob("*.py")) if not p.name.startswith((".", "_"))]
    for path in _imported_first(paths):
        module, errors = _load_module(path, words)
        if module is not None:
            setattr(package, path.stem, sys.modules.get(f"{PACKAGE}.{path.stem}"))
        found.errors.extend(errors)
        if module is not None and not errors:
            found.modules.append(module)
        elif errors:
            FAILED.append(path)
    vars(package)["SOURCES"] = {m.name: m.path.name for m in found.modules}  # as the archive's package has it
    return found  # the good modules stay registered, so lessons using them report nothing more


def _imported_first(paths: list[Path]) -> list[Path]:
    """The modules in the order that loads each after the folder's modules it imports
    (in name order otherwise; a module that cannot be read keeps its place)."""
    by_name = {p.stem: p for p in paths}
    needs = {}
    for path in paths:
        try:
            tree = ast.parse(path.read_bytes())
        except (SyntaxError, ValueError, OSError):
            tree = ast.Module(body=[], type_ignores=[])
        needs[path.stem] = [name for _, name in siblings(tree) if name in by_name]
    order: list[Path] = []
    seen: set[str] = set()

    def visit(name: str) -> None:
        if name in seen:
            return  # loaded already, or on the way (a cycle: Python's own import decides)
        seen.add(name)
        for other in needs[name]:
            visit(other)
        order.append(by_name[name])

    for path in paths:
        visit(path.stem)
    return order


def _load_module(path: Path, words=None) -> tuple[AuthorModule | None, list[SourceError]]:
    if not _MODULE.match(path.stem):
        return None, [
            SourceError(
                path,
                1,
                1,
                f"{path.name} is not a Python module name",
                "name the file with letters, digits and _ only, e.g. softmax_bars.py",
            )
        ]
    source = path.read_bytes()
    try:
        text = source.decode("utf-8")
        tree = ast.parse(text, filename=str(path))
    except UnicodeDecodeError as err:  # at the bad byte, as a lesson's is
        line = source.count(b"\n", 0, err.start) + 1
        col = len(source[source.rfind(b"\n", 0, err.start) + 1 : err.start].decode("utf-8", "replace")) + 1
        return None, [
            SourceError(
                path,
                line,
                col,
                f"the file is not UTF-8 text (byte 0x{source[err.start]:02x} cannot be read)",
                "save it as UTF-8 in your editor (e.g. iconv -f latin1 -t utf-8 FILE > NEW)",
            )
        ]
    except SyntaxError as err:
        return None, [
            SourceError(
                path,
                err.lineno or 1,
                err.offset or 1,
                f"syntax error: {err.msg}",
                "fix the line (the figure module must run under Python 3.11 and newer)",
            )
        ]
    errors = check_imports(path, tree)
    if errors:
        return None, errors
    problems = check_keys(path, tree, words) if words is not None else []
    if any(not key.startswith(OWN) for key, _ in problems):
        return None, [error for _, error in problems]
    if problems:  # the build stops anyway: the module loads with stand-ins, so that lessons report nothing more
        words.stand_in(key for key, _ in problems)
    key_errors = [error for _, error in problems]

    # Run: the module registers its figures; note what it added or replaced.
    before = dict(FIGURES)
    before_exercises = dict(EXERCISES)
    builtins = builtin()
    builtin_types = builtin_exercises()
    name = path.stem
    spec = importlib.util.spec_from_file_location(f"{PACKAGE}.{name}", path)
    assert spec is not None  # a .py file's location always gives one
    module = importlib.util.module_from_spec(spec)  # its name, __file__ and __spec__, as imported
    module.__cached__ = None  # type: ignore[attr-defined]
    # Compiled from the text just read, never through a bytecode cache: the import system
    # would write figures/__pycache__ into the author's repository and, for an edit that
    # keeps the file's size within the same second (a 1 changed to a 2 while serve runs),
    # run the module as it was before the edit.
    code = compile(text, str(path), "exec", dont_inherit=True)
    sys.modules[spec.name] = module
    try:
        with fenced():  # a time limit, imports checked as it runs, sys.exit an error
            exec(code, module.__dict__)
    except Exception as err:  # the author's code raised: report it at the author's line
        del sys.modules[spec.name]
        FIGURES.clear()
        FIGURES.update(before)
        EXERCISES.clear()
        EXERCISES.update(before_exercises)
        err = stopped(err) or err  # a refusal a standard module wrapped (pydoc's ErrorDuringImport) is said as itself
        line = author_line(err, path)
        if isinstance(err, Stopped):
            return None, [
                SourceError(
                    path,
                    line,
                    column_at(tree, line),
                    f"the module {err.text}" + ("" if isinstance(err, Refused) else " when imported"),
                    err.fix,
                )
            ]
        if isinstance(err, DeclarationError):  # a parameter no figure could use: said as the kit says it
            return None, [
                SourceError(path, line, column_at(tree, line, ("Slider", "Field", "Choice")), str(err), err.fix)
            ]
        return None, [
            SourceError(
                path,
                line,
                author_column(err, path, line),
                f"the module raised {type(err).__name__} when imported: {err}",
                "fix the line; the build imports every module in the figures folder",
            )
        ]
    added = [n for n in FIGURES if n not in before or FIGURES[n] is not before[n]]
    added_types = [n for n in EXERCISES if n not in before_exercises or EXERCISES[n] is not before_exercises[n]]
    for model in {id(m): m for m in [*(FIGURES[n] for n in added), *(EXERCISES[n] for n in added_types)]}.values():
        fence_model(model)  # every later call into it, from the checks, the lessons or print.html, is fenced too
    errors = []
    for figure_name in added:
        model = FIGURES[figure_name]
        line = class_line(tree, type(model).__name__)
        if figure_name in builtins or figure_name in _directives():
            errors.append(
                SourceError(
                    path,
                    line,
                    1,
                    f"the figure name '{figure_name}' is a built-in figure's",
                    "give your figure a name of its own, e.g. 'my-" + figure_name + "'",
                )
            )
            if figure_name in before:
                FIGURES[figure_name] = before[figure_name]
            else:
                del FIGURES[figure_name]
        elif figure_name in before and type(before[figure_name]).__module__.startswith(PACKAGE + "."):
            errors.extend(_clash(figure_name, before[figure_name], path, line))
            FIGURES[figure_name] = before[figure_name]
        else:
            errors.extend(validate(model, path, tree))
    for type_name in added_types:
        model = EXERCISES[type_name]
        line = class_line(tree, type(model).__name__)
        if type_name in builtin_types:
            errors.append(
                SourceError(
                    path,
                    line,
                    1,
                    f"the exercise type '{type_name}' is a built-in type's",
                    "give your exercise type a name of its own, e.g. 'my-" + type_name + "'",
                )
            )
            EXERCISES[type_name] = before_exercises[type_name]
        elif type_name in before_exercises:
            other = type(before_exercises[type_name]).__module__.rsplit(".", 1)[-1] + ".py"
            errors.append(
                SourceError(
                    path,
                    line,
                    1,
                    f"the exercise type '{type_name}' is defined in {other} of the figures folder too",
                    "give each exercise type its own name",
                )
            )
            EXERCISES[type_name] = before_exercises[type_name]
        else:
            errors.extend(validate_exercise(model, path, tree))
    kept = [n for n in added_types if n not in before_exercises]
    UNREGISTERED.update(_unregistered(module, path, tree))
    return AuthorModule(path, name, source, added, kept), key_errors + errors


def watched(content: Path) -> list[Path]:
    """The site's figures folder, for ``serve`` to rebuild when a figure module changes."""
    config, _ = load_config(config_path(Path(content)))
    return [Path(content).resolve().parent / config.figures]


def own_figures(folder: Path, site: Path, errors: list[SourceError], words):
    """The site's own figures, unless the folder, or a module in it, leads out of the
    site folder: the build runs that Python, and it runs nothing from elsewhere. The
    catalogue keys they write out are checked against the site's ``words``."""
    problems = []
    if folder.exists() or folder.is_symlink():
        problem = outside(folder, site.resolve(), "site folder")
        if problem:
            problems.append(problem)
        elif folder.is_dir():
            problems += [
                p for p in (outside(path, site.resolve(), "site folder") for path in sorted(folder.glob("*.py"))) if p
            ]
    if problems:
        unload()
        for problem in problems:
            if Path(problem.path) == folder:  # the folder itself: said at site.yml's `figures:` that names it
                FOLDER_FAILED.append(folder)
                problem.path, problem.line, problem.col = _figures_line(site)
                problem.message = f"figures: {problem.message}"
            else:
                FAILED.append(Path(problem.path))
        errors.extend(problems)
        return AuthorFigures(folder)
    return load(folder, words)


def _figures_line(site: Path) -> tuple[Path, int, int]:
    """Where site.yml sets ``figures:`` (its file, line and the column of its value)."""
    path = config_path(site / "content")
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return path, 0, 0
    for number, text in enumerate(lines, 1):
        found = re.match(r"^figures\s*:\s*", text)
        if found:
            return path, number, found.end() + 1
    return path, 0, 0
