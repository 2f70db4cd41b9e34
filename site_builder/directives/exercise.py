"""Numeric exercises graded by the engine's exercise types (engine/exercises.py).

    :::{exercise} softmax-weight
    :seed: 3
    Optional words before the problem, in Markdown.
    :::

The build makes the problem from the seed with the exercise type, writes its statement
(numbers and math) into the page, and embeds the answer, the tolerance and the value of
each known mistake with its hint, so the page grades the reader's answer without
Python. Unknown types and bad seeds are errors at path:line:col.
"""
from __future__ import annotations

import difflib
import html
import json

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from ...engine.exercises import EXERCISES, FORMS
from .common import parse_body, report, split_options
from ...engine.locale import t


def expand(state: StateCore, index: int, name: str, argument: str) -> int:
    token = state.tokens[index]
    env = state.env
    fence = token.map[0]
    exercise = EXERCISES.get(argument)
    if exercise is None:
        close = difflib.get_close_matches(argument, EXERCISES, n=1)
        what = f"unknown exercise type '{argument}'" if argument else "{exercise} needs an exercise type"
        report(env, fence, len(token.markup) + len("{exercise}") + 2, f"{{exercise}}: {what}",
               (f"did you mean '{close[0]}'? " if close else "") + f"types: {', '.join(EXERCISES)}")
        token.type = "directive_error"
        return 1
    options, body, body_line0 = split_options(token.content, fence + 1)
    seed = 1
    for opt in options:
        if opt.name != "seed":
            report(env, opt.line, opt.name_col, f"{{exercise}}: unknown option '{opt.name}'",
                   "an exercise takes ':seed: N' (a whole number) and Markdown before the problem")
        elif not opt.value.isdigit():
            report(env, opt.line, opt.value_col, f"{{exercise}}: seed must be a whole number, got {opt.value!r}",
                   ":seed: 3")
        else:
            seed = int(opt.value)
    number = env["exercise_count"] = env.get("exercise_count", 0) + 1
    problem = exercise.generate(seed)
    answer = exercise.solve(problem)
    data = {"type": exercise.name, "seed": seed, "kind": exercise.kind, "tolerance": exercise.tolerance,
            "answer": answer, "n": len(answer) if isinstance(answer, list) else 2,
            "mistakes": [{"name": m.name, "hint": m.hint, "value": m.value(problem)} for m in exercise.mistakes]}
    opening = Token("exercise_open", "section", 1)
    opening.block = True
    opening.map = token.map
    opening.meta = {"id": f"ex-{number}", "number": number, "data": data, "type": exercise.name}
    closing = Token("exercise_close", "section", -1)
    closing.block = True
    closing.meta = dict(opening.meta)
    intro = parse_body(state, body, body_line0) if body.strip() else []
    statement = parse_body(state, exercise.statement(problem), fence)
    state.tokens[index:index + 1] = [opening, *intro, *statement, closing]
    return 1


def _open(self, tokens, idx, options, env) -> str:
    meta = tokens[idx].meta
    return (f'<section class="ex-exercise" id="{meta["id"]}" data-exercise="{meta["type"]}" '
            f'aria-labelledby="{meta["id"]}-label">\n'
            f'<p class="ex-exercise-label" id="{meta["id"]}-label">Exercise {meta["number"]}</p>\n')


def _close(self, tokens, idx, options, env) -> str:
    meta = tokens[idx].meta
    form = FORMS[meta["data"]["kind"]].format(n=meta["data"]["n"], example="1.2, \u22120.4")
    payload = json.dumps(meta["data"], allow_nan=False, separators=(",", ":"))
    payload = payload.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    field = f'{meta["id"]}-answer'
    return (f'<form class="ex-answer" novalidate>\n'
            f'<label for="{field}">{html.escape(t("page.your_answer"))}</label> '
            f'<input id="{field}" type="text" inputmode="decimal" autocomplete="off" spellcheck="false" '
            f'placeholder="{html.escape(form, quote=True)}"> '
            f'<button type="submit">{html.escape(t("page.check"))}</button>\n</form>\n'
            f'<p class="ex-feedback" role="status" aria-live="polite"></p>\n'
            f'<script type="application/json" class="ex-exercise-data">{payload}</script>\n'
            f"</section>\n")


def add_render_rules(md: MarkdownIt) -> None:
    md.add_render_rule("exercise_open", _open)
    md.add_render_rule("exercise_close", _close)
