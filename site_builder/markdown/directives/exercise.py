"""Numeric exercises graded by the engine's exercise types (engine/exercises.py).

    :::{exercise} softmax-weight
    :seed: 3
    :name: softmax-drill
    Optional words before the problem, in Markdown.
    :::

The exercise's id, and its key in the page's address, is its ``:name:`` or else ``ex-``
and its place among the page's exercises (``ex-2``).

The build makes the problem from the seed with the exercise type and writes its
statement (text and MathML, in the notation of the site's language) into the page, with
a field, a **Check** button and a **New numbers** button. The page grades nothing
itself: static/js/exercise.js sends every answer, and every request for a fresh problem
(a new seed, or one given in the page's address as ``#ex-2=417``), to the engine in its
worker, so the answer reader of engine/exercises.py is the only one. The types are the
built-in ones and those the site's figures/ folder registers (site_builder/authors/loader.py). The data the page
carries says which type, which seed and which language. Unknown types and bad seeds
are errors at path:line:col.
"""

from __future__ import annotations

import html
import json
import re
import sys
import traceback
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from ....engine.exercises import EXERCISES, SEED_LIMIT, SeedError, parse_seed, uses_decimal_comma
from ....engine.figures.base import closest
from ....engine.locale import t
from ...authors.guard import Stopped
from ...authors.loader import PACKAGE, failed, named_in_failed, unknown_hint
from ...authors.sanitise import clean
from .common import parse_body, report, split_options

_NAME = re.compile(r"^[A-Za-z][\w-]*$")
_RESERVED = re.compile(r"^ex-\d+$")  # the ids of unnamed exercises


def expand(state: StateCore, index: int, name: str, argument: str) -> int:
    token = state.tokens[index]
    env = state.env
    fence = token.map[0] if token.map else 0  # (a directive's token has its lines)
    exercise = EXERCISES.get(argument)
    if exercise is None and argument and named_in_failed(argument):  # its module's error is listed already
        token.type = "directive_error"
        return 1
    if exercise is None:
        close = closest(argument, EXERCISES)
        what = f"unknown exercise type '{argument}'" if argument else "no exercise type after {exercise}"
        content = env.get("content_root")
        report(
            env,
            fence,
            len(token.markup) + len("{exercise}") + 2,
            f"{{exercise}}: {what}",
            unknown_hint(
                argument,
                content.parent if content is not None else None,
                (f"did you mean '{close}'? " if close else "") + f"types: {', '.join(EXERCISES)}",
            ),
        )
        token.type = "directive_error"
        return 1
    options, body, body_line0 = split_options(token.content, fence + 1)
    seed = 1
    number = env["exercise_count"] = env.get("exercise_count", 0) + 1
    ident = f"ex-{number}"
    for opt in options:
        if opt.name == "name":
            taken = env.setdefault("exercise_names", {})
            if not _NAME.match(opt.value) or _RESERVED.match(opt.value):
                report(
                    env,
                    opt.line,
                    opt.value_col,
                    f"{{exercise}}: the name {opt.value!r} cannot be an id",
                    ":name: softmax-drill (a letter, then letters, digits, '-' or '_'; not ex- and a number)",
                )
            elif opt.value in taken:
                report(
                    env,
                    opt.line,
                    opt.value_col,
                    f"{{exercise}}: the name '{opt.value}' is taken by the exercise on line {taken[opt.value]}",
                    "give each exercise a name of its own",
                )
            else:
                taken[opt.value] = opt.line + 1
                ident = opt.value
            continue
        if opt.name != "seed":
            report(
                env,
                opt.line,
                opt.name_col,
                f"{{exercise}}: unknown option '{opt.name}'",
                "an exercise takes ':seed: N' (a whole number), ':name: an-id' (its key in the page's "
                "address) and Markdown before the problem",
            )
            continue
        try:
            seed = parse_seed(opt.value)
        except SeedError:
            report(
                env,
                opt.line,
                opt.value_col,
                f"{{exercise}}: seed must be a whole number from 0 to {SEED_LIMIT - 1}, got {opt.value!r}",
                ":seed: 3",
            )
    language = env.get("language") or "en"
    try:
        problem = exercise.problem(seed, uses_decimal_comma(language))
    except Exception as err:  # an author's type that fails for this seed (the build tried a few)
        if failed(exercise):  # it failed for those too: its module's error says so, once
            token.type = "directive_error"
            return 1
        if isinstance(err, Stopped):
            said, fix = f"making the problem of seed {seed} {err.text}{_where(err)}", err.fix
        else:
            said = f"failed to make the problem of seed {seed}: {type(err).__name__}: {err}{_where(err)}"
            fix = "fix the type, or choose another :seed:"
        report(
            env,
            fence,
            len(token.markup) + len("{exercise}") + 2,
            f"{{exercise}}: the exercise type '{exercise.name}' {said}",
            fix,
        )
        token.type = "directive_error"
        return 1
    # An author's type writes its own HTML: only MathML and plain text formatting reach the
    # page (sanitise.py), whatever else it holds (the built-in types' statements pass unchanged).
    problem = dict(problem, statement=clean(str(problem["statement"])))
    data = {"type": exercise.name, "seed": seed, "language": language}
    opening = Token("exercise_open", "div", 1)
    opening.block = True
    opening.map = token.map
    opening.meta = {"id": ident, "number": number, "data": data, "problem": problem, "line": fence + 1}
    statement = Token("exercise_statement", "div", 0)
    statement.block = True
    statement.meta = dict(opening.meta)
    closing = Token("exercise_close", "div", -1)
    closing.block = True
    closing.meta = dict(opening.meta)
    intro = parse_body(state, body, body_line0) if body.strip() else []
    state.tokens[index : index + 1] = [opening, *intro, statement, closing]
    return 1


def _where(err: Exception) -> str:
    """' (figures/dot.py:12)': the deepest line of an author's module in the traceback."""
    for frame in reversed(traceback.extract_tb(err.__traceback__)):
        module = sys.modules.get(PACKAGE + "." + Path(frame.filename).stem)
        if module is not None and getattr(module, "__file__", None) == frame.filename:
            return f" ({Path(frame.filename).name}:{frame.lineno})"
    return ""


def _open(self, tokens, idx, options, env) -> str:
    meta = tokens[idx].meta
    # a labelled group (a div: a labelled section would be a region landmark, and a page,
    # or the print page of the whole track, may hold many; landmarks must be few and apart)
    return (
        f'<div class="ex-exercise" id="{meta["id"]}" data-exercise="{meta["data"]["type"]}" '
        f'role="group" aria-labelledby="{meta["id"]}-label">\n'
        f'<p class="ex-exercise-label" id="{meta["id"]}-label">'
        f"{html.escape(t('page.exercise_number', n=meta['number']))}</p>\n"
    )


def _statement(self, tokens, idx, options, env) -> str:
    # The engine's own HTML, cleaned (expand): text escaped, numbers in MathML, each formula kept
    # on the line of the text touching it ("),") as in the lesson's prose (engine/exercises.py).
    return f'<p class="ex-problem">{tokens[idx].meta["problem"]["statement"]}</p>\n'


def _close(self, tokens, idx, options, env) -> str:
    meta = tokens[idx].meta
    payload = json.dumps(meta["data"], allow_nan=False, separators=(",", ":"))
    payload = payload.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    field = f"{meta['id']}-answer"
    form = html.escape(meta["problem"]["form"], quote=True)
    return (
        f'<form class="ex-answer" novalidate>\n'
        f'<label for="{field}">{html.escape(t("page.your_answer"))}</label> '
        f'<input id="{field}" type="text" inputmode="decimal" autocomplete="off" spellcheck="false" '
        f'placeholder="{form}"> '
        f'<button type="submit">{html.escape(t("page.check"))}</button> '
        f'<button type="button" class="ex-new-numbers">{html.escape(t("page.new_numbers"))}</button>\n'
        f'<span class="ex-pending"></span>\n</form>\n'
        f'<p class="ex-feedback" role="status" aria-live="polite"></p>\n'
        f'<script type="application/json" class="ex-exercise-data">{payload}</script>\n'
        f"</div>\n"
    )


# An exercise's live part as _close writes it: its form, its feedback and its data for
# static/js/exercise.js. print.html loads no runtime, so there a form would only submit
# itself as a plain GET (the page reloads at its top, the answer lost).
def add_render_rules(md: MarkdownIt) -> None:
    md.add_render_rule("exercise_open", _open)
    md.add_render_rule("exercise_statement", _statement)
    md.add_render_rule("exercise_close", _close)
