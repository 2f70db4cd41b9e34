"""An author's own figures: the Python modules in a site's ``figures/`` folder.

Each ``*.py`` module there is loaded by its file location (as MkDocs loads hooks) with
the same public kit the built-in figures use, ``from explorables.figures import ...``.
A module may register figures and exercise types (subclasses of ``Exercise``, for the
``{exercise}`` directive); both are checked here the same way.
Before a module runs, its imports are read with ``ast`` and checked against the rule the
author guide states: the standard library, ``explorables.figures`` and
``explorables.engine``, nothing else (the browser's Python has nothing else). Then the
module runs, and every figure it registers is validated: its name is new (no built-in
is shadowed), its options' defaults are acceptable values, and its first frame and each
experiment compute and give JSON. An exercise type likewise: a new name, a known answer
kind, and problems that compute, read their own right answer and give JSON. The modules then travel in the engine archive as the
package ``explorables.site_figures``, which the browser's runtime imports beside the
built-ins.

A module's words are keys of the site's catalogues (``Say("own.shares.title")``,
``t("own.shares.sum", ...)``; see language.py): every key written out in the module is
looked up before it runs, so a key with no text stops the build at the line that uses
it. The site's own words, in its language, go into the archive with the modules.

Every mistake is a SourceError with the author's file and line (the author's frame of a
traceback, never ours), so the build stops with exit 1 and the previous site stays.
"""
from __future__ import annotations

import ast
import copy
import difflib
import importlib.util
import json
import math
import re
import sys
import traceback
from dataclasses import dataclass, field
from pathlib import Path

from ..engine.exercises import EXERCISES, KINDS, Mistake, parse_seed
from ..engine.locale import OWN
from ..engine.figures import FIGURES
from .errors import SourceError
from .language import OWN_KEY

PACKAGE = "explorables.site_figures"  # the import name of an author's modules, here and in the browser
ALLOWED = ("explorables.figures", "explorables.engine")  # besides the standard library
_NAME = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")
_MODULE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
RULE = ("an author's figure may import the standard library, explorables.figures and explorables.engine, "
        "and nothing else (the reader's browser has nothing else)")


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
        init = ['"""The site\'s own figures (written by `explorables build`): importing this registers them."""',
                "from explorables.engine import locale",
                "WORDS = " + repr(dict(sorted((words or {}).items()))),
                "locale.own_words(WORDS)  # before the modules: their words are the site's",
                "from . import " + ", ".join(m.name for m in self.modules),
                "SOURCES = " + repr({m.name: m.path.name for m in self.modules})]
        return ([(f"{base}/__init__.py", ("\n".join(init) + "\n").encode())]
                + [(f"{base}/{m.name}.py", m.source) for m in self.modules])


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
    return [n for n, f in registry.items() if type(f).__module__.startswith(PACKAGE + ".")]


def _directives() -> set[str]:
    """The names of the teaching directives ({question}, ...), which no figure may take."""
    from .directives import TEACHING

    return set(TEACHING)


def unload() -> None:
    """Forget every author figure, exercise type and module of an earlier load (``serve``
    builds again)."""
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
        return found
    for path in sorted(found.folder.glob("*.py")):
        if path.name.startswith((".", "_")):
            continue
        module, errors = _load_module(path, words)
        found.errors.extend(errors)
        if module is not None and not errors:
            found.modules.append(module)
    return found  # the good modules stay registered, so lessons using them report nothing more


def _load_module(path: Path, words=None) -> tuple[AuthorModule | None, list[SourceError]]:
    if not _MODULE.match(path.stem):
        return None, [SourceError(path, 1, 1, f"{path.name} is not a Python module name",
                                  "name the file with letters, digits and _ only, e.g. softmax_bars.py")]
    source = path.read_bytes()
    try:
        text = source.decode("utf-8")
        tree = ast.parse(text, filename=str(path))
    except UnicodeDecodeError as err:
        return None, [SourceError(path, 1, 1, f"the file is not UTF-8 text ({err.reason})", "save it as UTF-8")]
    except SyntaxError as err:
        return None, [SourceError(path, err.lineno or 1, err.offset or 1, f"syntax error: {err.msg}",
                                  "fix the line (the figure module must run under Python 3.11 and newer)")]
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
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as err:  # the author's code raised: report it at the author's line
        del sys.modules[spec.name]
        FIGURES.clear()
        FIGURES.update(before)
        EXERCISES.clear()
        EXERCISES.update(before_exercises)
        line = author_line(err, path)
        return None, [SourceError(path, line, 1, f"the module raised {type(err).__name__} when imported: {err}",
                                  "fix the line; the build imports every module in the figures folder")]
    added = [n for n in FIGURES if n not in before or FIGURES[n] is not before[n]]
    errors = []
    for figure_name in added:
        model = FIGURES[figure_name]
        line = class_line(tree, type(model).__name__)
        if figure_name in builtins or figure_name in _directives():
            errors.append(SourceError(path, line, 1, f"the figure name '{figure_name}' is a built-in figure's",
                                      "give your figure a name of its own, e.g. 'my-" + figure_name + "'"))
            if figure_name in before:
                FIGURES[figure_name] = before[figure_name]
            else:
                del FIGURES[figure_name]
        elif figure_name in before and type(before[figure_name]).__module__.startswith(PACKAGE + "."):
            errors.append(SourceError(path, line, 1, f"the figure name '{figure_name}' is defined in another "
                                      f"module of the figures folder too", "give each figure its own name"))
            FIGURES[figure_name] = before[figure_name]
        else:
            errors.extend(validate(model, path, tree))
    added_types = [n for n in EXERCISES if n not in before_exercises or EXERCISES[n] is not before_exercises[n]]
    for type_name in added_types:
        model = EXERCISES[type_name]
        line = class_line(tree, type(model).__name__)
        if type_name in builtin_types:
            errors.append(SourceError(path, line, 1, f"the exercise type '{type_name}' is a built-in type's",
                                      "give your exercise type a name of its own, e.g. 'my-" + type_name + "'"))
            EXERCISES[type_name] = before_exercises[type_name]
        elif type_name in before_exercises:
            errors.append(SourceError(path, line, 1, f"the exercise type '{type_name}' is defined in another "
                                      f"module of the figures folder too", "give each exercise type its own name"))
            EXERCISES[type_name] = before_exercises[type_name]
        else:
            errors.extend(validate_exercise(model, path, tree))
    kept = [n for n in added_types if n not in before_exercises]
    return AuthorModule(path, name, source, added, kept), key_errors + errors


def check_imports(path: Path, tree: ast.AST) -> list[SourceError]:
    """Every import of the module is the standard library, the kit or the engine."""
    errors = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level:
            errors.append(SourceError(path, node.lineno, node.col_offset + 1,
                                      "a relative import is not allowed in a figure module",
                                      f"{RULE}; import from explorables.figures instead"))
            continue
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""]
            if node.module == "explorables":  # from explorables import figures, engine
                names = [f"explorables.{alias.name}" for alias in node.names]
        else:
            continue
        for name in names:
            if not allowed(name):
                errors.append(SourceError(path, node.lineno, node.col_offset + 1,
                                          f"the figure module imports '{name}', which it may not", RULE))
    return errors


KEY_CALLS = ("Say", "t")  # the kit's ways to name a catalogue key: Say("own.x"), t("own.x", ...)
_KEY = re.compile(r"^[a-z_]+(\.[A-Za-z0-9_-]+)+$")  # what reads as a key, not as words


def check_keys(path: Path, tree: ast.AST, words) -> list[tuple[str, SourceError]]:
    """Every catalogue key the module writes out has a text: a string that is a key of
    the site's own words (``"own.shares.title"``, wherever it stands, so a key kept in a
    constant counts), and the first argument of ``Say`` or ``t``. A key put together
    while the module runs (an f-string) is looked up when it is shown instead. Returns
    each key with no text and its error."""
    pieces = {id(part) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for part in node.values}
    named = set()  # the first arguments of Say and t
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            func = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            if func in KEY_CALLS:
                named.add(id(node.args[0]))
    errors = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Constant) and isinstance(node.value, str)) or id(node) in pieces:
            continue
        if OWN_KEY.match(node.value) or (id(node) in named and _KEY.match(node.value)):
            problem = words.key_problem(node.value)
            if problem:
                errors.append((node.value, SourceError(path, node.lineno, node.col_offset + 1, *problem)))
    return sorted(errors, key=lambda found: (found[1].line, found[1].col))


def allowed(module: str) -> bool:
    top = module.split(".")[0]
    if top == "explorables":
        return any(module == a or module.startswith(a + ".") for a in ALLOWED)
    return top in sys.stdlib_module_names


def validate(model, path: Path, tree: ast.AST) -> list[SourceError]:
    """A registered figure's spec and first frame: each mistake at the author's line."""
    where = class_line(tree, type(model).__name__)
    label = f"figure '{model.name}'"
    if not _NAME.match(model.name or ""):
        return [SourceError(path, where, 1, f"the figure name {model.name!r} is not a directive name",
                            "use lower-case words joined by '-', e.g. name = \"softmax-bars\"")]
    errors = []
    for option in model.options:
        default = option.default
        text = " ".join(map(str, default)) if isinstance(default, (list, tuple)) else default
        text = str(text).lower() if isinstance(text, bool) else text
        try:
            option.parse(text)
        except ValueError as err:
            errors.append(SourceError(path, param_line(tree, option.name, where), 1,
                                      f"{label}: the default of '{option.name}' is not one of its own values: "
                                      f"{getattr(err, 'message', err)}",
                                      "change the default or the range so that the default lies inside it"))
    for experiment in getattr(model, "experiments", ()):
        for key in experiment.set:
            if model.param(key) is None:
                errors.append(SourceError(path, param_line(tree, experiment.name, where), 1,
                                          f"{label}: the experiment '{experiment.name}' sets '{key}', which is "
                                          f"not a parameter", "set only names listed in params"))
    if errors:
        return errors
    # Draw the first frame and run each experiment, as the page and a reader will.
    try:
        state = model.initial_state(model.parse_options({}))
        json.dumps(model.scene(state), allow_nan=False)
        for experiment in getattr(model, "experiments", ()):
            json.dumps(model.scene(model.apply(copy.deepcopy(state), {"type": "action", "name": experiment.name})),
                       allow_nan=False)
    except Exception as err:
        return [SourceError(path, author_line(err, path, where), 1,
                            f"{label}: drawing its first frame raised {type(err).__name__}: {err}",
                            "the first frame and each experiment must compute and give plain numbers")]
    return []


CHECKED_SEEDS = range(8)  # the seeds an exercise type is tried with at build time (1 is the default)
_UNSAFE = re.compile(r"<\s*(script|style|iframe|object|embed)\b|\s(style|on[a-z]+)\s*=", re.IGNORECASE)


def validate_exercise(model, path: Path, tree: ast.AST) -> list[SourceError]:
    """A registered exercise type: its name, answer kind, tolerance and mistakes, then its
    problems for a few seeds, as the page and the reader's browser will make them: each
    computes, gives JSON, is written as HTML the page may show, and is graded right when
    the right answer is typed. Each mistake at the author's line."""
    where = class_line(tree, type(model).__name__)
    label = f"exercise type '{model.name}'"

    def error(message: str, fix: str, line: int = where) -> list[SourceError]:
        return [SourceError(path, line, 1, f"{label}: {message}" if model.name else message, fix)]

    if not isinstance(model.name, str) or not _NAME.match(model.name):
        return error(f"the exercise type name {model.name!r} is not a directive argument",
                     "use lower-case words joined by '-', e.g. name = \"dot-product\"")
    if model.kind not in KINDS:
        close = difflib.get_close_matches(str(model.kind), KINDS, n=1)
        return error(f"kind {model.kind!r} is not an answer kind",
                     (f"did you mean '{close[0]}'? " if close else "") + "kind is one of number, percent, vector",
                     attribute_line(tree, type(model).__name__, "kind", where))
    tolerance = model.tolerance
    if isinstance(tolerance, bool) or not isinstance(tolerance, (int, float)) or not 0 < tolerance < math.inf:
        return error(f"tolerance must be a number above 0, got {tolerance!r}",
                     "e.g. tolerance = 0.01: an answer within 0.01 of the right one is right",
                     attribute_line(tree, type(model).__name__, "tolerance", where))
    if not isinstance(model.mistakes, (tuple, list)) or not all(isinstance(m, Mistake) for m in model.mistakes):
        return error("mistakes must be a tuple of Mistake(name, hint, value)",
                     'e.g. mistakes = (Mistake("forgot-sqrt-d", "You did not divide by √d_k.", lambda p: ...),)',
                     attribute_line(tree, type(model).__name__, "mistakes", where))
    for seed in CHECKED_SEEDS:
        try:
            p = model.generate(parse_seed(seed))
            answer = model.solve(p)
            shape = _shape(answer)
            if shape is None:
                return error(f"solve gave {answer!r} for seed {seed}, not a number or a list of numbers",
                             "return a float, or a list of floats for a vector")
            if (model.kind == "vector") != (shape > 0):
                return error(f"kind is {model.kind!r} but solve gave {answer!r} for seed {seed}",
                             "a vector answer is a list of numbers, and kind = \"vector\"; "
                             "any other answer is one number")
            for mistake in model.mistakes:
                if _shape(mistake.value(p)) != shape:
                    return error(f"the mistake '{mistake.name}' gives {mistake.value(p)!r} for seed {seed}, "
                                 "not an answer of the same form as solve's",
                                 "a mistake's value is the answer that mistake gives", param_line(tree, mistake.name, where))
            for comma in (False, True):
                problem = model.problem(seed, comma)
                json.dumps(problem, allow_nan=False)
                if not isinstance(problem["statement"], str) or not problem["statement"].strip():
                    return error(f"statement gave {problem['statement']!r} for seed {seed}",
                                 "return the problem as HTML text, e.g. with mathml, eq, mvec and plain")
                if _UNSAFE.search(problem["statement"]):
                    return error(f"the statement for seed {seed} holds a script, a style or an event attribute",
                                 "write words and MathML only (the pages allow no inline style or script)")
            typed = _typed(answer)
            if not model.grade(seed, typed).ok:
                return error(f"its own right answer {typed} is not graded right for seed {seed}",
                             "check solve and close (the answer is compared within the tolerance)")
        except Exception as err:
            return error(f"making the problem of seed {seed} raised {type(err).__name__}: {err}",
                         "generate, solve and statement must work for every seed",
                         author_line(err, path, where))
    return []


def _shape(answer) -> int | None:
    """0 for one finite number, n for a list of n finite numbers, None for anything else."""
    def number(x) -> bool:
        return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)
    if number(answer):
        return 0
    if isinstance(answer, list) and answer and all(number(x) for x in answer):
        return len(answer)
    return None


def _typed(answer) -> str:
    """The right answer as a reader would type it."""
    if isinstance(answer, list):
        return "(" + ", ".join(repr(float(x)) for x in answer) + ")"
    return repr(float(answer))


def author_line(err: BaseException, path: Path, fallback: int = 1) -> int:
    """The line of the author's file where ``err`` was raised (the deepest such frame)."""
    if isinstance(err, SyntaxError) and err.filename == str(path):
        return err.lineno or fallback
    frames = [f for f in traceback.extract_tb(err.__traceback__) if Path(f.filename) == path]
    return frames[-1].lineno if frames else fallback


def class_line(tree: ast.AST, class_name: str) -> int:
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == class_name:
            return node.lineno
    return 1


def attribute_line(tree: ast.AST, class_name: str, attribute: str, fallback: int) -> int:
    """The line where the class ``class_name`` sets ``attribute`` (``kind = ...``)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == class_name:
            for statement in node.body:
                targets = statement.targets if isinstance(statement, ast.Assign) else (
                    [statement.target] if isinstance(statement, ast.AnnAssign) else [])
                if any(isinstance(t, ast.Name) and t.id == attribute for t in targets):
                    return statement.lineno
    return fallback


def param_line(tree: ast.AST, name: str, fallback: int) -> int:
    """The line of a call whose first argument is the string ``name`` (a Slider, an Experiment)."""
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant)
                and node.args[0].value == name):
            return node.lineno
    return fallback


def watched(content: Path) -> list[Path]:
    """The site's figures folder, for ``serve`` to rebuild when a figure module changes."""
    from .config import config_path, load_config

    config, _ = load_config(config_path(Path(content)))
    return [Path(content).resolve().parent / config.figures]
