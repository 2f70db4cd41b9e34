"""Roles: prose bound to a figure on the same page.

    cat gets {value}`explorer.weights[1]:percent` of the weight
    at a temperature of {adjust}`explorer.temperature`
    {try}`explorer.sharpen` or {try}`Cool it down <explorer.sharpen>`

- ``{value}`` is a live number: one of the figure's named values (``Value``), written at
  build time from the figure's first state in the value's own format and rewritten in
  the browser whenever the reader changes the figure. ``name[i]`` picks one element of a
  list or vector, ``name[i][j]`` one cell of a table (row, then column), ``name[h][i][j]``
  one cell of one of several tables; ``:percent`` (or ``:decimal``, ``:integer``) writes it another way.
  ``words <figure.value>`` gives the words a screen reader hears before the new number.
- ``{adjust}`` is an adjustable number: a slider parameter of the figure (``Slider``),
  written in the sentence; the reader drags it sideways or uses the arrow keys.
- ``{try}`` is a button that runs one of the figure's experiments.

An inline rule reads ``{role}`content``` into a ``prose_role`` token; a core rule after
the inline stage resolves it (role_targets.py) against the page's figures (which may come later on the
page), reporting an unknown figure, value, parameter or experiment at path:line:col
with a "did you mean". References (``{numref}``, ``{eq}``) are resolved by
``references.py`` from the same tokens.
"""

from __future__ import annotations

import html
import json
import re

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline

from ....engine.figures import FIGURES
from ....engine.locale import t
from ...authors.loader import is_authors
from .common import report, where
from .references import references_plugin, render_numref  # numbered figures and equations
from .role_targets import near, resolve
from .role_targets import write as write  # (imported from here too)

ROLES = ("value", "adjust", "try", "numref", "eq")
_ROLE = re.compile(r"\{([a-z][\w-]*)\}(`+)")
_RANGE = ("min", "max", "step", "digits", "log", "log_steps")  # what an {adjust} reads of its slider's control


# --- reading: an inline rule -------------------------------------------------------------


def _role_rule(state: StateInline, silent: bool) -> bool:
    if state.src[state.pos] != "{":
        return False
    match = _ROLE.match(state.src, state.pos)
    if match is None:
        return False
    ticks = match.group(2)
    end = state.src.find(ticks, match.end())
    if end < 0:
        return False
    if not silent:
        token = state.push("prose_role", "", 0)
        token.meta = {
            "role": match.group(1),
            "content": state.src[match.end() : end].strip(),
            "pos": state.pos,
            "raw": state.src[state.pos : end + len(ticks)],
        }
    state.pos = end + len(ticks)
    return True


# --- resolving: a core rule after the inline stage ---------------------------------------


def page_figures(state: StateCore) -> dict[str, dict]:
    """Figure id -> {figure, options, state, values, scene} for every figure of the page (no scene
    for a figure whose first frame could not be drawn: its render says why)."""
    cache = state.env.setdefault("figure_models", {})
    for token in state.tokens:
        if token.type == "figure" and token.meta["id"] not in cache:
            model = FIGURES[token.meta["figure"]]
            try:
                first = model.initial_state(token.meta["options"])
                scene = model.scene(first)
            except Exception as err:  # the figure's own render reports it (an author's bug too)
                if not isinstance(err, ValueError) and not is_authors(model):
                    raise
                cache[token.meta["id"]] = {"figure": token.meta["figure"], "state": {}, "values": {}}
                continue
            # the scene too: the figure's render embeds it (directives/figure.py) without drawing it again
            cache[token.meta["id"]] = {
                "figure": token.meta["figure"],
                "options": token.meta["options"],
                "state": first,
                "values": scene.get("values") or {},
                "scene": scene,
            }
    return cache


def _roles_rule(state: StateCore) -> None:
    env = state.env
    figures = page_figures(state)
    for parent in state.tokens:
        if parent.type != "inline" or not parent.children:
            continue
        for token in parent.children:
            if token.type != "prose_role":
                continue
            role, content = token.meta["role"], token.meta["content"]
            line0, col = where(env, parent, token)
            token.meta["line0"], token.meta["col"] = line0, col
            if role not in ROLES:
                hint = near(role, ROLES)
                report(
                    env,
                    line0,
                    col,
                    f"unknown role '{{{role}}}'",
                    (hint + " " if hint else "") + f"known roles: {', '.join(ROLES)}",
                )
                token.meta["error"] = True
                continue
            if role in ("numref", "eq"):
                continue  # references.py
            resolved = resolve(env, figures, role, content, line0, col)
            if resolved is None:
                token.meta["error"] = True
            else:
                token.meta.update(resolved)


# --- rendering ---------------------------------------------------------------------------


def _attrs(pairs: dict) -> str:
    return "".join(f' {k}="{html.escape(str(v), quote=True)}"' for k, v in pairs.items() if v is not None)


def _render_role(self, tokens, idx, options, env) -> str:
    meta = tokens[idx].meta
    role = meta["role"]
    if meta.get("error"):
        return f"<code>{html.escape(meta['raw'])}</code>"
    if role == "value" and meta.get("first"):  # the first frame's number, as the text describes it: not live
        return html.escape(meta["text"])
    if role == "value":
        attrs = {
            "class": "ex-value",
            "data-figure": meta["figure_id"],
            "data-value": meta["name"],
            "data-index": meta["index"],
            "data-format": meta["format"],
            "data-digits": meta["digits"],
            "data-say": meta["say"],
        }
        return f"<span{_attrs(attrs)}>{html.escape(meta['text'])}</span>"
    if role == "adjust":
        c = meta["control"]
        attrs = {
            "class": "ex-adjust",
            "role": "slider",
            "tabindex": "0",
            "aria-label": meta["label"],
            "aria-valuemin": c["min"],
            "aria-valuemax": c["max"],
            "aria-valuenow": c["value"],
            "aria-valuetext": meta["text"],
            "data-figure": meta["figure_id"],
            "data-param": meta["name"],
            "data-control": json.dumps({k: c[k] for k in _RANGE if k in c}, separators=(",", ":")),
            "title": t("page.adjust_title", label=meta["label"]),
        }
        return f"<span{_attrs(attrs)}>{html.escape(meta['text'])}</span>"
    if role == "try":
        attrs = {
            "type": "button",
            "class": "ex-try",
            "data-figure": meta["figure_id"],
            "data-experiment": meta["name"],
            "aria-controls": meta["figure_id"],
            "title": meta["title"] or None,
        }
        return f"<button{_attrs(attrs)}>{html.escape(meta['words'])}</button>"
    if meta.get("figure_ref"):  # {numref}: references.py
        return render_numref(meta, env)
    return meta.get("html") or f"<code>{html.escape(meta['raw'])}</code>"  # {eq}: references.py


def roles_plugin(md: MarkdownIt) -> None:
    md.inline.ruler.before("backticks", "prose_role", _role_rule)
    md.core.ruler.after("inline", "prose_roles", _roles_rule)
    md.add_render_rule("prose_role", _render_role)
    references_plugin(md)
