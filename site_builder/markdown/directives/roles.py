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
the inline stage resolves it against the page's figures (which may come later on the
page), reporting an unknown figure, value, parameter or experiment at path:line:col
with a "did you mean". References (``{numref}``, ``{eq}``) are resolved by
``references.py`` from the same tokens.
"""
from __future__ import annotations

import html
import json
import re
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token

from ....engine.figures import FIGURES
from ....engine.figures.base import closest
from ....engine.figures.kit.params import Slider
from ....engine.figures.kit.text import Say, num, pct, vec
from ....engine.figures.kit.text import spoken as in_words
from ....engine.locale import t
from ...authors.loader import is_authors
from .common import report, where
from .references import references_plugin, render_numref  # numbered figures and equations

ROLES = ("value", "adjust", "try", "numref", "eq")
_ROLE = re.compile(r"\{([a-z][\w-]*)\}(`+)")
_VALUE = re.compile(r"^([A-Za-z][\w-]*)\.([A-Za-z_]\w*)((?:\[\d+\]){0,3})(?::([a-z]+))?(?::(first))?$")
_TARGET = re.compile(r"^([A-Za-z][\w-]*)\.([A-Za-z][\w-]*)$")
_LABELLED = re.compile(r"^(.*?)\s*<([^<>]+)>$", re.S)
_RANGE = ("min", "max", "step", "digits", "log", "log_steps")  # what an {adjust} reads of its slider's control
ELEMENT_FORMATS = ("percent", "decimal", "integer")  # how one element may be rewritten


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
        token.meta = {"role": match.group(1), "content": state.src[match.end():end].strip(),
                      "pos": state.pos, "raw": state.src[state.pos:end + len(ticks)]}
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
            cache[token.meta["id"]] = {"figure": token.meta["figure"], "options": token.meta["options"],
                                       "state": first, "values": scene.get("values") or {}, "scene": scene}
    return cache


def _near(name: str, known) -> str:
    close = closest(name, known)
    return f"did you mean '{close}'?" if close else ""


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
                hint = _near(role, ROLES)
                report(env, line0, col, f"unknown role '{{{role}}}'",
                       (hint + " " if hint else "") + f"known roles: {', '.join(ROLES)}")
                token.meta["error"] = True
                continue
            if role in ("numref", "eq"):
                continue  # references.py
            resolved = _resolve(env, figures, role, content, line0, col)
            if resolved is None:
                token.meta["error"] = True
            else:
                token.meta.update(resolved)


def _figure(env, figures, role, fig_id, line0, col) -> dict | None:
    """The page's figure ``fig_id``, or None: reported when there is no such figure, not
    when its directive failed or its first frame could not be drawn (that error says why;
    one mistake, one message)."""
    if fig_id in figures:
        return figures[fig_id] if "scene" in figures[fig_id] else None
    if fig_id in env.get("unmade_figures", ()):
        return None
    hint = _near(fig_id, figures)
    known = f"figures on this page: {', '.join(sorted(figures))}" if figures else "this page has no figure"
    report(env, line0, col, f"{{{role}}}: no figure '{fig_id}' on this page", f"{hint} {known}".strip())
    return None


def _resolve(env, figures, role, content, line0, col) -> dict | None:
    if role == "value":
        spoken = ""  # what a screen reader hears before the number: "cat's weight <explorer.weights[1]>"
        labelled = _LABELLED.match(content)
        if labelled:
            spoken, content = labelled.group(1).strip(), labelled.group(2).strip()
        match = _VALUE.match(content)
        if match is None:
            report(env, line0, col, f"{{value}}: cannot read {content!r}",
                   "write the figure id and a value name, e.g. {value}`explorer.entropy`, "
                   "{value}`explorer.weights[1]:percent` or, the first frame's number only, "
                   "{value}`explorer.weights[1]:percent:first`")
            return None
        fig_id, name, index, fmt, first = match.groups()
        if fmt == "first" and not first:  # `explorer.entropy:first`: the first frame's number, no format
            fmt, first = None, "first"
        fig = _figure(env, figures, role, fig_id, line0, col)
        if fig is None:
            return None
        model = FIGURES[fig["figure"]]
        spec = next((v for v in model.values if v.name == name), None)
        if spec is None:
            names = [v.name for v in model.values]
            hint = _near(name, names) or (f"its values: {', '.join(names)};" if names else
                                          f"{fig['figure']} declares no values (values = (Value(...),) in its class);")
            report(env, line0, col, f"{{value}}: figure '{fig_id}' ({fig['figure']}) has no value '{name}'",
                   f"{hint} `explorables figures {fig['figure']}` lists them with their formats")
            return None
        if fmt is not None and fmt not in ELEMENT_FORMATS:
            hint = _near(fmt, ELEMENT_FORMATS)
            report(env, line0, col, f"{{value}}: unknown format '{fmt}'",
                   f"{hint} formats: {', '.join(ELEMENT_FORMATS)}".strip())
            return None
        raw = fig["values"].get(name)
        indices = [int(i) for i in re.findall(r"\d+", index)]
        if not indices and spec.format in ("list", "matrix"):
            report(env, line0, col, f"{{value}}: '{name}' is a list; a sentence quotes one of its elements",
                   f"pick one by its position from 0, e.g. {{value}}`{fig_id}.{name}[1]`"
                   + (f" or, in a table, {{value}}`{fig_id}.{name}[1][2]` (row, then column)"
                      if spec.format == "matrix" else ""))
            return None
        element = raw
        for depth, i in enumerate(indices):
            written = "".join(f"[{j}]" for j in indices[:depth + 1])
            if not isinstance(element, (list, tuple)):
                report(env, line0, col, f"{{value}}: '{name}{written[:written.rfind('[')]}' is a single "
                       f"{spec.format if depth == 0 else 'number'}, not a list", f"drop the {written[written.rfind('['):]}")
                return None
            if i >= len(element):
                report(env, line0, col, f"{{value}}: '{name}{written[:written.rfind('[')]}' has {len(element)} "
                       f"elements, so [{i}] is past its end", f"positions run from 0 to {len(element) - 1}")
                return None
            element = element[i]
        if indices and isinstance(element, (list, tuple)):
            report(env, line0, col, f"{{value}}: '{name}{index}' is a row of {len(element)} numbers; a sentence "
                   "quotes one of them", f"add its position, e.g. {{value}}`{fig_id}.{name}{index}[0]`")
            return None
        format_ = fmt or ("decimal" if indices else spec.format)
        where_ = " ".join(str(i) for i in indices)
        say = (f"{spoken} {{}}" if spoken else in_words(spec.announce)
               or (f"{name} {where_}: {{}}" if indices else f"{name}: {{}}"))
        return {"figure_id": fig_id, "name": name, "index": ",".join(map(str, indices)) if indices else None,
                "format": format_, "digits": spec.digits, "text": write(element, format_, spec.digits), "say": say,
                "first": bool(first)}

    if role == "adjust":
        match = _TARGET.match(content)
        if match is None:
            report(env, line0, col, f"{{adjust}}: cannot read {content!r}",
                   "write the figure id and a slider's name, e.g. {adjust}`explorer.temperature`")
            return None
        fig_id, name = match.groups()
        fig = _figure(env, figures, role, fig_id, line0, col)
        if fig is None:
            return None
        model = FIGURES[fig["figure"]]
        sliders = [p for p in model.params if isinstance(p, Slider) and p.control]
        param = next((p for p in sliders if p.name == name), None)
        if param is None:
            hint = _near(name, [p.name for p in sliders])
            listed = ", ".join(p.name for p in sliders) or "none"
            report(env, line0, col, f"{{adjust}}: figure '{fig_id}' ({fig['figure']}) has no number control '{name}'",
                   f"{hint} its number controls: {listed}".strip())
            return None
        # the control as the first frame's scene declares it (kit/params.py Slider.control_dict);
        # prose.js takes each later scene's control of the same name
        control = next((c for c in fig["scene"].get("controls", ()) if c.get("name") == name), None)
        control = control or param.control_dict(fig["state"])
        return {"figure_id": fig_id, "name": name, "control": control,
                "label": in_words(param.label) if isinstance(param.label, (str, Say)) else name,
                "text": num(control["value"], control["digits"])}

    # role == "try"
    words = ""
    target = content
    labelled = _LABELLED.match(content)
    if labelled:
        words, target = labelled.group(1).strip(), labelled.group(2).strip()
    match = _TARGET.match(target)
    if match is None:
        report(env, line0, col, f"{{try}}: cannot read {content!r}",
               "write the figure id and an experiment, e.g. {try}`explorer.sharpen` "
               "or {try}`Cool it down <explorer.sharpen>`")
        return None
    fig_id, name = match.groups()
    fig = _figure(env, figures, role, fig_id, line0, col)
    if fig is None:
        return None
    model = FIGURES[fig["figure"]]
    experiment = next((e for e in model.experiments if e.name == name), None)
    if experiment is None:
        hint = _near(name, [e.name for e in model.experiments])
        listed = ", ".join(e.name for e in model.experiments) or "none"
        report(env, line0, col, f"{{try}}: figure '{fig_id}' ({fig['figure']}) has no experiment '{name}'",
               f"{hint} its experiments: {listed}".strip())
        return None
    return {"figure_id": fig_id, "name": name, "words": words or in_words(experiment.label),
            "title": in_words(experiment.title)}


def write(raw: Any, format_: str, digits: int) -> str:
    """A value written for people; mirrors kit.values.Value.text (and prose.js)."""
    if format_ == "percent":
        return pct(raw)
    if format_ == "decimal":
        return num(raw, digits)
    if format_ == "integer":
        return str(int(raw))
    if format_ == "vector":
        return vec(raw, digits)
    if format_ == "bool":
        return "on" if raw else "off"
    return str(raw)


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
        attrs = {"class": "ex-value", "data-figure": meta["figure_id"], "data-value": meta["name"],
                 "data-index": meta["index"], "data-format": meta["format"], "data-digits": meta["digits"],
                 "data-say": meta["say"]}
        return f"<span{_attrs(attrs)}>{html.escape(meta['text'])}</span>"
    if role == "adjust":
        c = meta["control"]
        attrs = {"class": "ex-adjust", "role": "slider", "tabindex": "0", "aria-label": meta["label"],
                 "aria-valuemin": c["min"], "aria-valuemax": c["max"], "aria-valuenow": c["value"],
                 "aria-valuetext": meta["text"], "data-figure": meta["figure_id"], "data-param": meta["name"],
                 "data-control": json.dumps({k: c[k] for k in _RANGE if k in c}, separators=(",", ":")),
                 "title": t("page.adjust_title", label=meta["label"])}
        return f"<span{_attrs(attrs)}>{html.escape(meta['text'])}</span>"
    if role == "try":
        attrs = {"type": "button", "class": "ex-try", "data-figure": meta["figure_id"],
                 "data-experiment": meta["name"], "aria-controls": meta["figure_id"], "title": meta["title"] or None}
        return f"<button{_attrs(attrs)}>{html.escape(meta['words'])}</button>"
    if meta.get("figure_ref"):  # {numref}: references.py
        return render_numref(meta, env)
    return meta.get("html") or f"<code>{html.escape(meta['raw'])}</code>"  # {eq}: references.py


def roles_plugin(md: MarkdownIt) -> None:
    md.inline.ruler.before("backticks", "prose_role", _role_rule)
    md.core.ruler.after("inline", "prose_roles", _roles_rule)
    md.add_render_rule("prose_role", _render_role)
    references_plugin(md)
