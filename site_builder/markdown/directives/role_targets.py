"""What a role in prose stands for (roles.py reads the roles and renders them): the
figure it names on the page, and its value, slider parameter or experiment, checked and
written in the figure's first state; a mistake is reported at path:line:col with a "did
you mean"."""

from __future__ import annotations

import re
from typing import Any

from ....engine.figures import FIGURES
from ....engine.figures.base import closest
from ....engine.figures.kit.params import Slider
from ....engine.figures.kit.text import Say, num
from ....engine.figures.kit.text import spoken as in_words
from ....engine.figures.kit.values import Value
from .common import report

_VALUE = re.compile(r"^([A-Za-z][\w-]*)\.([A-Za-z_]\w*)((?:\[\d+\]){0,3})(?::([a-z]+))?(?::(first))?$")
_TARGET = re.compile(r"^([A-Za-z][\w-]*)\.([A-Za-z][\w-]*)$")
_LABELLED = re.compile(r"^(.*?)\s*<([^<>]+)>$", re.S)
ELEMENT_FORMATS = ("percent", "decimal", "integer")  # how one element may be rewritten


def near(name: str, known) -> str:
    close = closest(name, known)
    return f"did you mean '{close}'?" if close else ""


def _page_figure(env, figures, role, fig_id, line0, col) -> dict | None:
    """The page's figure ``fig_id``, or None: reported when there is no such figure, not
    when its directive failed or its first frame could not be drawn (that error says why;
    one mistake, one message)."""
    if fig_id in figures:
        return figures[fig_id] if "scene" in figures[fig_id] else None
    if fig_id in env.get("unmade_figures", ()):
        return None
    hint = near(fig_id, figures)
    known = f"figures on this page: {', '.join(sorted(figures))}" if figures else "this page has no figure"
    report(env, line0, col, f"{{{role}}}: no figure '{fig_id}' on this page", f"{hint} {known}".strip())
    return None


def _read(env, figures, role, pattern, content, line0, col, example: str, labelled: bool = True):
    """(the words before a <target>, the target's match, the page's figure it names), or
    None with the error reported: "{value}`cat's weight <explorer.weights[1]>`" reads
    "cat's weight" and the target, whose first part is the figure's id."""
    words, target = "", content
    found = _LABELLED.match(content) if labelled else None
    if found:
        words, target = found.group(1).strip(), found.group(2).strip()
    match = pattern.match(target)
    if match is None:
        report(env, line0, col, f"{{{role}}}: cannot read {content!r}", example)
        return None
    fig = _page_figure(env, figures, role, match.group(1), line0, col)
    return None if fig is None else (words, match, fig)


def resolve(env, figures, role, content, line0, col) -> dict | None:
    if role == "value":
        # spoken: what a screen reader hears before the number: "cat's weight <explorer.weights[1]>"
        example = (
            "write the figure id and a value name, e.g. {value}`explorer.entropy`, {value}`explorer.weights[1]:percent`"
            " or, the first frame's number only, {value}`explorer.weights[1]:percent:first`"
        )
        read = _read(env, figures, role, _VALUE, content, line0, col, example)
        if read is None:
            return None
        spoken, match, fig = read
        fig_id, name, index, fmt, first = match.groups()
        if fmt == "first" and not first:  # `explorer.entropy:first`: the first frame's number, no format
            fmt, first = None, "first"
        model = FIGURES[fig["figure"]]
        spec = next((v for v in model.values if v.name == name), None)
        if spec is None:
            names = [v.name for v in model.values]
            hint = near(name, names) or (
                f"its values: {', '.join(names)};"
                if names
                else f"{fig['figure']} declares no values (values = (Value(...),) in its class);"
            )
            report(
                env,
                line0,
                col,
                f"{{value}}: figure '{fig_id}' ({fig['figure']}) has no value '{name}'",
                f"{hint} `explorables figures {fig['figure']}` lists them with their formats",
            )
            return None
        if fmt is not None and fmt not in ELEMENT_FORMATS:
            hint = near(fmt, ELEMENT_FORMATS)
            report(
                env,
                line0,
                col,
                f"{{value}}: unknown format '{fmt}'",
                f"{hint} formats: {', '.join(ELEMENT_FORMATS)}".strip(),
            )
            return None
        raw = fig["values"].get(name)
        indices = [int(i) for i in re.findall(r"\d+", index)]
        if not indices and spec.format in ("list", "matrix"):
            report(
                env,
                line0,
                col,
                f"{{value}}: '{name}' is a list; a sentence quotes one of its elements",
                f"pick one by its position from 0, e.g. {{value}}`{fig_id}.{name}[1]`"
                + (
                    f" or, in a table, {{value}}`{fig_id}.{name}[1][2]` (row, then column)"
                    if spec.format == "matrix"
                    else ""
                ),
            )
            return None
        element = raw
        for depth, i in enumerate(indices):
            written = "".join(f"[{j}]" for j in indices[: depth + 1])
            if not isinstance(element, (list, tuple)):
                report(
                    env,
                    line0,
                    col,
                    f"{{value}}: '{name}{written[: written.rfind('[')]}' is a single "
                    f"{spec.format if depth == 0 else 'number'}, not a list",
                    f"drop the {written[written.rfind('[') :]}",
                )
                return None
            if i >= len(element):
                report(
                    env,
                    line0,
                    col,
                    f"{{value}}: '{name}{written[: written.rfind('[')]}' has {len(element)} "
                    f"elements, so [{i}] is past its end",
                    f"positions run from 0 to {len(element) - 1}",
                )
                return None
            element = element[i]
        if indices and isinstance(element, (list, tuple)):
            report(
                env,
                line0,
                col,
                f"{{value}}: '{name}{index}' is a row of {len(element)} numbers; a sentence quotes one of them",
                f"add its position, e.g. {{value}}`{fig_id}.{name}{index}[0]`",
            )
            return None
        format_ = fmt or ("decimal" if indices else spec.format)
        where_ = " ".join(str(i) for i in indices)
        say = (
            f"{spoken} {{}}"
            if spoken
            else in_words(spec.announce) or (f"{name} {where_}: {{}}" if indices else f"{name}: {{}}")
        )
        return {
            "figure_id": fig_id,
            "name": name,
            "index": ",".join(map(str, indices)) if indices else None,
            "format": format_,
            "digits": spec.digits,
            "text": write(element, format_, spec.digits),
            "say": say,
            "first": bool(first),
        }

    if role == "adjust":
        example = "write the figure id and a slider's name, e.g. {adjust}`explorer.temperature`"
        read = _read(env, figures, role, _TARGET, content, line0, col, example, labelled=False)
        if read is None:
            return None
        _, match, fig = read
        fig_id, name = match.groups()
        model = FIGURES[fig["figure"]]
        sliders = [p for p in model.params if isinstance(p, Slider) and p.control]
        param = next((p for p in sliders if p.name == name), None)
        if param is None:
            hint = near(name, [p.name for p in sliders])
            listed = ", ".join(p.name for p in sliders) or "none"
            report(
                env,
                line0,
                col,
                f"{{adjust}}: figure '{fig_id}' ({fig['figure']}) has no number control '{name}'",
                f"{hint} its number controls: {listed}".strip(),
            )
            return None
        # the control as the first frame's scene declares it (kit/params.py Slider.control_dict);
        # prose.js takes each later scene's control of the same name
        control = next((c for c in fig["scene"].get("controls", ()) if c.get("name") == name), None)
        control = control or param.control_dict(fig["state"])
        return {
            "figure_id": fig_id,
            "name": name,
            "control": control,
            "label": in_words(param.label) if isinstance(param.label, (str, Say)) else name,
            "text": num(control["value"], control["digits"]),
        }

    # role == "try"
    example = (
        "write the figure id and an experiment, e.g. {try}`explorer.sharpen` or {try}`Cool it down <explorer.sharpen>`"
    )
    read = _read(env, figures, role, _TARGET, content, line0, col, example)
    if read is None:
        return None
    words, match, fig = read
    fig_id, name = match.groups()
    model = FIGURES[fig["figure"]]
    experiment = next((e for e in model.experiments if e.name == name), None)
    if experiment is None:
        hint = near(name, [e.name for e in model.experiments])
        listed = ", ".join(e.name for e in model.experiments) or "none"
        report(
            env,
            line0,
            col,
            f"{{try}}: figure '{fig_id}' ({fig['figure']}) has no experiment '{name}'",
            f"{hint} its experiments: {listed}".strip(),
        )
        return None
    return {
        "figure_id": fig_id,
        "name": name,
        "words": words or in_words(experiment.label),
        "title": in_words(experiment.title),
    }


def write(raw: Any, format_: str, digits: int) -> str:
    """A value written for people: the kit's own ``Value.text`` (prose.js is its twin)."""
    return Value("", format_, "", digits).text(raw)
