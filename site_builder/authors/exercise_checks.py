"""The checks of an author's exercise type (loader.py registers it): its name, answer
kind, tolerance and mistakes, then its problems for a few seeds. Each mistake is a
SourceError at the author's line."""

from __future__ import annotations

import ast
import json
import math
from pathlib import Path

from ...engine.exercises import KINDS, Mistake, parse_seed
from ...engine.figures.base import closest
from ..errors import SourceError
from .checks import _NAME
from .guard import Stopped, fenced, stopped
from .lines import attribute_line, author_column, author_line, class_line, param_line

CHECKED_SEEDS = range(8)  # the seeds an exercise type is tried with at build time (1 is the default)


def validate_exercise(model, path: Path, tree: ast.AST) -> list[SourceError]:
    """A registered exercise type: its name, answer kind, tolerance and mistakes, then its
    problems for a few seeds, as the page and the reader's browser will make them: each
    computes, gives JSON, is written as HTML (which the page cleans: sanitise.py), and is graded right when
    the right answer is typed. Each mistake at the author's line."""
    where = class_line(tree, type(model).__name__)
    label = f"exercise type '{model.name}'"

    def error(message: str, fix: str, line: int = where, column: int = 1) -> list[SourceError]:
        return [SourceError(path, line, column, f"{label}: {message}" if model.name else message, fix)]

    if not isinstance(model.name, str) or not _NAME.match(model.name):
        return error(
            f"the exercise type name {model.name!r} is not a directive argument",
            "use lower-case words joined by '-', e.g. name = \"dot-product\"",
        )
    if model.kind not in KINDS:
        close = closest(str(model.kind), KINDS)
        return error(
            f"kind {model.kind!r} is not an answer kind",
            (f"did you mean '{close}'? " if close else "") + "kind is one of number, percent, vector",
            attribute_line(tree, type(model).__name__, "kind", where),
        )
    tolerance = model.tolerance
    if isinstance(tolerance, bool) or not isinstance(tolerance, (int, float)) or not 0 < tolerance < math.inf:
        return error(
            f"tolerance must be a number above 0, got {tolerance!r}",
            "e.g. tolerance = 0.01: an answer within 0.01 of the right one is right",
            attribute_line(tree, type(model).__name__, "tolerance", where),
        )
    if not isinstance(model.mistakes, (tuple, list)) or not all(isinstance(m, Mistake) for m in model.mistakes):
        return error(
            "mistakes must be a tuple of Mistake(name, hint, value)",
            'e.g. mistakes = (Mistake("forgot-sqrt-d", "You did not divide by √d_k.", lambda p: ...),)',
            attribute_line(tree, type(model).__name__, "mistakes", where),
        )
    for seed in CHECKED_SEEDS:
        try:
            with fenced():  # a mistake's value too: it is the author's code
                p = model.generate(parse_seed(seed))
                answer = model.solve(p)
                shape = _shape(answer)
                if shape is None:
                    return error(
                        f"solve gave {answer!r} for seed {seed}, not a number or a list of numbers",
                        "return a float, or a list of floats for a vector",
                    )
                if (model.kind == "vector") != (shape > 0):
                    return error(
                        f"kind is {model.kind!r} but solve gave {answer!r} for seed {seed}",
                        'a vector answer is a list of numbers, and kind = "vector"; any other answer is one number',
                    )
                for mistake in model.mistakes:
                    if _shape(mistake.value(p)) != shape:
                        return error(
                            f"the mistake '{mistake.name}' gives {mistake.value(p)!r} for seed {seed}, "
                            "not an answer of the same form as solve's",
                            "a mistake's value is the answer that mistake gives",
                            param_line(tree, mistake.name, where),
                        )
                for comma in (False, True):
                    problem = model.problem(seed, comma)
                    json.dumps(problem, allow_nan=False)
                    if not isinstance(problem["statement"], str) or not problem["statement"].strip():
                        return error(
                            f"statement gave {problem['statement']!r} for seed {seed}",
                            "return the problem as HTML text, e.g. with mathml, eq, mvec and plain",
                        )
                typed = _typed(answer)
                if not model.grade(seed, typed).ok:
                    return error(
                        f"its own right answer {typed} is not graded right for seed {seed}",
                        "check solve and close (the answer is compared within the tolerance)",
                    )
        except Exception as caught:
            err = stopped(caught) or caught
            if isinstance(err, Stopped):
                return error(f"making the problem of seed {seed} {err.text}", err.fix, author_line(err, path, where))
            line = author_line(err, path, where)
            return error(
                f"making the problem of seed {seed} raised {type(err).__name__}: {err}",
                "generate, solve and statement must work for every seed",
                line,
                author_column(err, path, line),
            )
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
