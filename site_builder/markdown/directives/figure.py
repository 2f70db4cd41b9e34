"""Figure directives: ``:::{attention-row} explorer`` with ``:option: value`` lines.

The options are validated by the figure's own spec (engine.figures); the render rule
computes the first state and scene with the same Python model the browser runs, and
embeds them in the page so the figure is drawn before Python has loaded.
"""

from __future__ import annotations

import ast
import json
import math
import re
import sys
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore

from ....engine.figures import FIGURES, OptionErrors
from ....engine.figures.base import not_plain
from ....engine.figures.kit.figure import described
from ....engine.locale import t
from ...authors.checks import stopped_or_missing
from ...authors.lines import author_frames
from ...authors.loader import failed, is_authors
from ...errors import SourceError
from ...output.svg import still
from ...quoting import clip, clip_quotes, quote
from .common import report, split_options
from .roles import page_figures

_ID = re.compile(r"^[A-Za-z][\w-]*$")
RESERVED_IDS = {"content"}  # ids the page layout uses


def expand(state: StateCore, index: int, name: str, argument: str) -> None:
    token = state.tokens[index]
    env = state.env
    fence_line = token.map[0] if token.map else 0  # (a directive's token has its lines)
    label = f"{{{name}}}"
    options, body, _ = split_options(token.content, fence_line + 1)

    def refuse_id(message: str, hint: str) -> None:  # at the figure id, after the name
        report(env, fence_line, len(token.markup) + len(label) + 2, f"{label}: figure id {message}", hint)

    fig_id = argument
    if not fig_id:
        count = env.setdefault("figure_count", {}).get(name, 0) + 1
        env["figure_count"][name] = count
        fig_id = f"{name}-{count}"
    elif fig_id in RESERVED_IDS:
        refuse_id(f"'{fig_id}' is taken by the page itself", "choose another id, e.g. 'explorer'")
    elif not _ID.match(fig_id):
        refuse_id(
            f"{quote(fig_id)} is not a simple name",
            "use letters, digits, '-' and '_', starting with a letter, e.g. ':::{attention-row} explorer'",
        )
        fig_id = clip(fig_id, 40)  # the later messages name it
    ids = env.setdefault("figure_ids", set())
    if fig_id in ids:
        refuse_id(f"'{fig_id}' is used twice on this page", "give each figure its own id")
    ids.add(fig_id)

    raw: dict[str, str] = {}
    lines = {}
    for opt in options:
        if opt.name in raw:
            report(
                env,
                opt.line,
                opt.name_col,
                f"{label} {fig_id}: option '{opt.name}' is given twice",
                "keep one of the two lines",
            )
            continue
        raw[opt.name] = opt.value
        lines[opt.name] = opt
    if body.strip():
        first = next(i for i, text in enumerate(body.split("\n")) if text.strip())
        report(
            env,
            fence_line + 1 + len(options) + first,
            1,
            f"{label} {fig_id}: unexpected text inside the figure directive: {quote(body.strip().splitlines()[0])}",
            "a figure takes only ':option: value' lines; put prose outside the ':::' fence",
        )

    caption = raw.pop("caption", None)  # the figure's caption: references.py numbers and renders it
    if caption and (role := _role_in_caption(caption)):
        where = lines["caption"]
        held = role.group(1)
        why = (
            "it is written once, beside the figure, and never changes"
            if held in ("value", "adjust", "try")
            else "a caption's words are plain Markdown, and the role would show as code"
        )
        report(
            env,
            where.line,
            where.value_col + role.start(),
            f"{label} {fig_id}: a caption cannot hold the role {{{held}}}: {why}",
            f"put the {{{held}}} in the prose around the figure, or write the caption's words plainly",
        )
        caption = None
    model = FIGURES[name]
    try:
        parsed = model.parse_options(raw)
    except OptionErrors as errs:
        for err in errs.errors:
            given = lines.get(err.option)
            known = model.option(err.option) is not None
            line0 = given.line if given else fence_line
            col = (given.value_col if known else given.name_col) if given else 1
            prefix = f"{label} {fig_id}: option '{err.option}': " if known else f"{label} {fig_id}: "
            report(
                env,
                line0,
                col,
                prefix + clip_quotes(err.message),
                _hint(model, err.option) if known else _unknown_hint(model),
            )
        token.type = "directive_error"
        env.setdefault("unmade_figures", set()).add(fig_id)  # the prose quoting it stays quiet (roles.py)
        return
    except Exception as err:  # an author's figure that reads its options with code of its own
        if not is_authors(model):
            raise
        if not failed(model):
            env.setdefault("errors", []).append(
                _authors_error(
                    err,
                    model,
                    {"figure": name, "id": fig_id, "line": env.get("line_offset", 0) + fence_line + 1},
                    env,
                    "reading its options",
                )
            )
        token.type = "directive_error"
        env.setdefault("unmade_figures", set()).add(fig_id)
        return
    token.type = "figure"
    token.meta = {
        "figure": name,
        "id": fig_id,
        "options": parsed,
        "line": env.get("line_offset", 0) + fence_line + 1,
        "caption": caption,
    }


_CAPTION_ROLE = re.compile(r"\{(value|adjust|try|numref|eq)\}`")  # the prose's roles (roles.py): a caption has none


def _role_in_caption(caption: str) -> re.Match | None:
    return _CAPTION_ROLE.search(caption)


def _hint(model, option: str) -> str:
    opt = model.option(option)
    return f"{opt.name}: {opt.doc}" if opt and opt.doc else ""


def _unknown_hint(model) -> str:
    return f"`explorables figures {model.name}` lists its options"


def initial(name: str, options: dict) -> dict:
    """The first state and scene of a figure, as embedded in the page."""
    model = FIGURES[name]
    state = model.initial_state(options)
    return {"figure": name, "state": state, "scene": model.scene(state)}


def first_frame(data: dict) -> dict:
    """What the page embeds of a figure's first state and scene: all of it, except each
    cell's arithmetic (its ``detail`` lines), which the engine gives once it is live;
    a chart's curves are written with fewer digits (see below). The values are the
    engine's, every digit: what the prose quotes of them must equal what it computes.

    The arithmetic is the heaviest part of a table's scene (a 12 x 12 table's is about
    4 KB of the page compressed) and a reader needs it only when asking for it. A cells
    panel that had some says so with ``"detail_later": true``, and its cells keep an
    empty ``detail``, so that the same cells take the focus before and after."""
    panels = []
    for panel in data["scene"].get("panels") or []:
        rows = panel.get("rows") if panel.get("kind") == "cells" else None
        if rows and any(cell.get("detail") for row in rows for cell in row):
            panel = dict(
                panel,
                detail_later=True,
                rows=[[dict(cell, detail=[]) if "detail" in cell else cell for cell in row] for row in rows],
            )
        if panel.get("kind") == "chart" and panel.get("series"):
            panel = dict(panel, series=[_rounded_series(panel, series) for series in panel["series"]])
        panels.append(panel)
    return dict(data, scene=dict(data["scene"], panels=panels)) if "panels" in data["scene"] else data


def _digits(domain) -> int:
    """Decimals that keep a coordinate to 1/100,000 of its axis: far finer than a pixel."""
    try:
        span = abs(float(domain[1]) - float(domain[0]))
    except (TypeError, ValueError, IndexError):
        return 17
    return max(0, 5 - math.floor(math.log10(span))) if span > 0 and math.isfinite(span) else 17


def _rounded_series(panel: dict, series: dict) -> dict:
    """A chart's curve with its points rounded far below a pixel (their 17 digits were
    half of a chart's scene); the engine's own scenes keep every digit."""
    points = series.get("points")
    if not isinstance(points, list):
        return series
    dx, dy = _digits(panel.get("x")), _digits(panel.get("y"))

    def point(p):
        if isinstance(p, list) and len(p) == 2 and all(isinstance(v, float) for v in p):
            return [round(p[0], dx), round(p[1], dy)]
        return p

    return dict(series, points=[point(p) for p in points])


def _render_figure(self, tokens, idx, options, env) -> str:
    meta = tokens[idx].meta
    drawn = env.get("figure_models", {}).get(meta["id"])  # by the roles rule (roles.page_figures)
    try:
        if drawn and "scene" in drawn and (drawn["figure"], drawn["options"]) == (meta["figure"], meta["options"]):
            data = {"figure": meta["figure"], "state": drawn["state"], "scene": drawn["scene"]}
        else:
            data = initial(meta["figure"], meta["options"])
        model = FIGURES[meta["figure"]]
        if model.subject:  # what the page's prose holds when the reader changes it (static/js/prose.js)
            data = dict(data, subject=list(model.subject))
        frame = first_frame(data)
        try:
            payload = json.dumps(frame, allow_nan=False, ensure_ascii=False, separators=(",", ":"))
        except (TypeError, ValueError):  # nan, a set: the figure's bug with these options, not a refused option
            if not failed(model):  # else its module's checks said so already
                env.setdefault("errors", []).append(
                    SourceError(
                        env.get("path", "<string>"),
                        meta["line"],
                        1,
                        f"{{{meta['figure']}}} {meta['id']}: with these options its first frame holds what the "
                        f"page cannot show: {not_plain(data['scene']) or not_plain(frame)}",
                        "look in the figure's compute and draw for a "
                        "division by zero, log(0) or an overflow that these options cause",
                    )
                )
            return ""
    except ValueError as err:
        env.setdefault("errors", []).append(
            SourceError(
                env.get("path", "<string>"),
                meta["line"],
                1,
                f"{{{meta['figure']}}} {meta['id']}: {clip_quotes(str(err))}",
            )
        )
        return ""
    except Exception as err:  # a bug of an author's figure (a word missing, a division by zero): theirs to fix
        model = FIGURES[meta["figure"]]
        if not is_authors(model):
            raise
        if failed(model):
            return ""  # its module's checks failed on this already: one mistake, one message
        env.setdefault("errors", []).append(_authors_error(err, model, meta, env))
        return ""
    # Inside <script> the text must never hold "</script" or "<!--": escape the
    # characters themselves, which JSON.parse reads back unchanged. (Other characters are
    # written as they are, in the page's UTF-8: "\u2192" is six bytes, "→" three.)
    payload = payload.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    title = data["scene"].get("title") or meta["figure"]
    return (
        f'<figure class="ex-figure" id="{meta["id"]}" data-figure="{meta["figure"]}">\n'
        f'<script type="application/json" class="ex-data">{payload}</script>\n'
        f'<noscript><p class="ex-noscript">{_esc(t("page.noscript", title=title))}</p></noscript>\n'
        f"{still(data['scene'])}\n"
        f"</figure>\n"
    )


def _authors_error(err: Exception, model, meta: dict, env, doing: str = "drawing its first frame") -> SourceError:
    """What an author's figure raised ``doing`` its work with the directive's options, at
    the directive, naming the module's line (a declared Value that compute does not
    give: the line of its ``Value(...)``)."""
    module = sys.modules.get(type(model).__module__)
    path = Path(getattr(module, "__file__", "") or ".")
    label = f"{{{meta['figure']}}} {meta['id']}: {doing}"
    try:
        tree = ast.parse(path.read_bytes())
    except (OSError, SyntaxError, ValueError):
        tree = ast.Module(body=[], type_ignores=[])
    said = stopped_or_missing(err, model, path, tree, 0, label)
    if said is not None and said.line:
        return SourceError(
            env.get("path", "<string>"), meta["line"], 1, f"{said.message} ({path.name}:{said.line})", said.hint
        )
    frames = author_frames(err, path)
    where = f" ({path.name}:{frames[-1].lineno})" if frames else ""
    return SourceError(
        env.get("path", "<string>"),
        meta["line"],
        1,
        f"{label} raised {clip_quotes(described(err))}{where}",
        "fix the figure module at that line",
    )


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


SCENE_LIMIT = 2_000_000  # bytes of a figure's first frame in the page: above it, a phone may not load the page


def _sizes(state: StateCore) -> None:
    """Warn of a figure whose first frame, as the page embeds it, is above SCENE_LIMIT
    (a figure with 100,000 points: 13.5 MB in the lesson and as much again in print.html),
    at its directive."""
    drawn = page_figures(state)  # drawn there once, for the prose and the render alike
    for token in state.tokens:
        if token.type != "figure" or "scene" not in drawn.get(token.meta["id"], {}):
            continue
        data = drawn[token.meta["id"]]
        try:
            frame = first_frame({"figure": data["figure"], "state": data["state"], "scene": data["scene"]})
            size = len(json.dumps(frame, allow_nan=False, ensure_ascii=False, separators=(",", ":")).encode())
        except (TypeError, ValueError):
            continue  # the render says what the page cannot show
        if size > SCENE_LIMIT:
            state.env.setdefault("warnings", []).append(
                SourceError(
                    state.env.get("path", "<string>"),
                    token.meta["line"],
                    1,
                    f"{{{token.meta['figure']}}} {token.meta['id']}: its first frame is {size / 1e6:.1f} MB "
                    f"of the page (and as much again in print.html); a phone may not load a page this big",
                    f"draw fewer points or marks with these options: keep a figure's first frame under "
                    f"{SCENE_LIMIT / 1e6:g} MB (docs/writing-a-figure.md)",
                )
            )


def add_render_rules(md: MarkdownIt) -> None:
    md.core.ruler.push("figure_sizes", _sizes)
    md.add_render_rule("figure", _render_figure)
    md.add_render_rule("directive_error", lambda self, tokens, idx, options, env: "")
