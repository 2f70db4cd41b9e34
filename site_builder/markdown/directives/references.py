"""Numbered figures and equations, and references to them.

    :::{attention-row} explorer
    :caption: One query row: the weights of *chased*.
    :::

    $$ a_j = e^{s_j} / \\sum_l e^{s_l} $$ (softmax)

    As {numref}`explorer` shows, ... by {eq}`softmax`; [](#explorer) is a link too.
    Lesson 2's {numref}`02-attention-heatmap.md#table` is a figure of another lesson.

Figures are numbered in page order ("Figure 2"), live figures and images with a caption
(``:::{figure} img/x.png``, its id from ``:name:``) in one sequence; equations with a
label are numbered too ("(1)").
``{numref}`` writes "Figure N" as a link (or the author's words, ``%s`` standing for the
number: ``{numref}`Panel %s <explorer>```), ``{eq}`` writes "(N)", and a link with no
text to a figure, an equation or a heading gets "Figure N", "(N)" or the heading's
words. ``{numref}`02-lesson.md#figure``` refers to a figure of another lesson (by the
lesson's file name) with the number that lesson shows it under. A reference to nothing
is a build error at path:line:col with a "did you mean".
"""

from __future__ import annotations

import html
import os
import posixpath
import re
from typing import cast

from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from ....engine.figures.base import closest
from ....engine.locale import t
from ...errors import SourceError
from ...structure.links import ids_of
from .common import found_in, report, where

_LABELLED_SPLIT = "<"
_TAG = re.compile(r"\\tag(\*?)\s*\{([^{}]*)\}")


def _references_rule(state: StateCore) -> None:
    env = state.env
    figures: dict[str, int] = {}
    equations: dict[str, str] = {}  # label -> its number as shown, "(2)"
    headings: dict[str, str] = {}
    counted_figures = 0  # every live figure and every image with a caption, in page order
    for i, token in enumerate(state.tokens):
        if token.type == "image_figure_open":
            caption = _image_caption(state.tokens, i)
            if caption is None:
                continue
            counted_figures += 1
            if token.attrGet("id"):
                figures[str(token.attrGet("id"))] = counted_figures
            state.tokens[caption].attrJoin("class", "ex-caption")
            _number_caption(state.tokens, caption, counted_figures)
        elif token.type == "figure":
            counted_figures += 1
            figures[token.meta["id"]] = counted_figures
            token.meta["number"] = figures[token.meta["id"]]
            caption = token.meta.get("caption")
            if caption:
                children: list[Token] = []
                state.md.inline.parse(caption, state.md, env, children)
                token.meta["caption_tokens"] = children
        elif token.type == "math_block_label":
            tag = _TAG.search(token.content)  # an equation's own \tag is its number
            counted = sum(1 for shown in equations.values() if shown.startswith("(") and shown[1:-1].isdigit())
            shown = (
                (tag.group(2).strip() if tag.group(1) else f"({tag.group(2).strip()})") if tag else f"({counted + 1})"
            )
            equations[token.info] = shown
            token.meta = {**(token.meta or {}), "number": shown}
        elif token.type == "heading_open" and token.attrGet("id"):
            headings[str(token.attrGet("id"))] = state.tokens[i + 1].content
    env["figure_numbers"] = figures  # for references from other lessons (resolve_figure_refs)
    env["figure_total"] = counted_figures  # with numbering: site, the next page goes on from here
    referenced: set[str] = set()

    for parent in state.tokens:
        if parent.type != "inline" or not parent.children:
            continue
        children = parent.children
        for j, token in enumerate(children):
            if token.type == "prose_role" and token.meta["role"] in ("numref", "eq") and not token.meta.get("error"):
                _role(env, parent, token, figures, equations, referenced)
            elif (
                token.type == "link_open"
                and j + 1 < len(children)
                and children[j + 1].type == "link_close"
                and str(token.attrGet("href") or "").startswith("#")
            ):
                target = str(token.attrGet("href"))[1:]
                text = (
                    t("page.figure_number", n=figures[target])
                    if target in figures
                    else equations[target]
                    if target in equations
                    else headings.get(target)
                )
                if text is None:
                    if target and target not in ids_of(state.tokens, env):
                        continue  # an id the page does not have: the link check says so, at its column
                    line0, col = found_in(env, parent, f"[](#{target})")
                    report(
                        env,
                        line0,
                        col,
                        f"the link [](#{target}) has no text, and '{target}' is no figure, "
                        f"equation or heading to take it from",
                        "write the link's text: [words](#target)",
                    )
                    continue
                if target in figures:
                    referenced.add(target)
                    filler = Token("figure_number", "", 0)  # "Figure N", N written at render time
                    filler.meta = {"number": figures[target], "words": ""}
                else:
                    filler = Token("text", "", 0)
                filler.content = text
                children.insert(j + 1, filler)
                token.attrJoin("class", "ex-ref")
    for token in state.tokens:
        if token.type == "figure":
            token.meta["referenced"] = token.meta["id"] in referenced


def _image_caption(tokens, index: int) -> int | None:
    """The index of the caption's opening token of the image figure opened at ``index``."""
    depth = 0
    for j in range(index + 1, len(tokens)):
        kind = tokens[j].type
        if kind == "image_caption_open" and depth == 0:
            return j
        if kind == "image_figure_open":
            depth += 1
        elif kind == "image_figure_close":
            if depth == 0:
                return None
            depth -= 1
    return None


def _number_caption(tokens, caption: int, number: int) -> None:
    """'Figure N.' at the start of an image's caption, inside its first paragraph."""
    mark = Token("figure_caption_number", "", 0)  # written at render time, as the page numbers it
    mark.meta = {"number": number}
    for j in range(caption + 1, len(tokens)):
        if tokens[j].type == "image_caption_close":
            break
        if tokens[j].type == "inline":
            tokens[j].children = [mark, *(tokens[j].children or [])]
            return
    opening = Token("figure_caption_number", "", 0)
    opening.block = True
    opening.meta = {"number": number}
    tokens.insert(caption + 1, opening)


def _role(env, parent, token, figures, equations, referenced) -> None:
    role, content = token.meta["role"], token.meta["content"]
    words = ""
    target = content
    if content.endswith(">") and _LABELLED_SPLIT in content:
        words, target = content[:-1].rsplit(_LABELLED_SPLIT, 1)
        words, target = words.strip(), target.strip()
    if role == "numref" and "#" in target and target.split("#", 1)[0].endswith(".md"):
        lesson, figure = target.split("#", 1)  # a figure of another lesson: resolved by the build
        line0, col = where(env, parent, token)
        token.meta["figure_ref"] = {
            "lesson": lesson,
            "target": figure,
            "number": None,
            "words": words,
            "line0": line0,
            "col": col,
        }
        env.setdefault("figure_refs", []).append(token.meta)
        return
    table: dict = figures if role == "numref" else equations
    what = "figure" if role == "numref" else "labelled equation"
    if role == "numref" and target in env.get("unmade_figures", ()):
        token.meta["error"] = True  # its directive failed, and that error says why: one mistake, one message
        return
    if target not in table:
        line0, col = where(env, parent, token)
        close = closest(target, list(table))
        listed = ", ".join(table) or "none"
        report(
            env,
            line0,
            col,
            f"{{{role}}}: no {what} '{target}' on this page",
            (f"did you mean '{close}'? " if close else "") + f"{what}s here: {listed}",
        )
        token.meta["error"] = True
        return
    number = table[target]
    if role == "numref":
        referenced.add(target)
        token.meta["figure_ref"] = {"target": target, "number": number, "words": words}
        return  # written at render time: with site numbering the page's offset is known then
    else:
        text = words.replace("%s", number.strip("()")) if words else number
    token.meta["html"] = f'<a class="ex-ref" href="#{html.escape(target, quote=True)}">{html.escape(text)}</a>'


def figure_number(env: dict, number: int) -> int:
    """A figure's number as shown: its place on the page, after the figures of the lessons
    before it when the site numbers figures across lessons (build.py sets the offset)."""
    return number + int(env.get("figure_offset", 0))


def _figure_text(env: dict, number: int, words: str) -> str:
    shown = figure_number(env, number)
    return words.replace("%s", str(shown)) if words else t("page.figure_number", n=shown)


def render_numref(meta: dict, env: dict) -> str:
    ref = meta["figure_ref"]
    if "lesson" in ref:  # another lesson's figure, numbered as that lesson numbers it
        if ref["number"] is None:  # not resolved: only a whole build knows the other lessons
            return f"<code>{html.escape(meta['raw'])}</code>"
        text = _figure_text({"figure_offset": ref["offset"]}, ref["number"], ref["words"])
        return f'<a class="ex-ref" href="{html.escape(ref["href"], quote=True)}">{html.escape(text)}</a>'
    return (
        f'<a class="ex-ref" href="#{html.escape(ref["target"], quote=True)}">'
        f"{html.escape(_figure_text(env, ref['number'], ref['words']))}</a>"
    )


def resolve_figure_refs(pages) -> list:
    """Give every ``{numref}`02-lesson.md#figure``` its lesson's page, its number and that
    page's offset (call after the build has set each page's ``figure_offset``); a lesson
    or figure that does not exist is an error at the reference."""
    by_path = {page.path.resolve(): page for page in pages}
    errors = []
    for page in pages:
        for meta in page.env.get("figure_refs", []):
            ref = meta["figure_ref"]
            other = by_path.get((page.path.parent / ref["lesson"]).resolve())  # relative, as links are
            if other is None:
                here = [os.path.relpath(p, page.path.parent) for p in by_path]
                close = closest(ref["lesson"], here)
                errors.append(
                    SourceError(
                        page.path,
                        ref["line0"] + 1,
                        ref["col"],
                        f"{{numref}}: no lesson '{ref['lesson']}'",
                        (f"did you mean '{close}'? " if close else "")
                        + "write the lesson's file name: {numref}`02-lesson.md#figure-id`",
                    )
                )
                continue
            numbers = other.env.get("figure_numbers") or {}
            if ref["target"] not in numbers:
                close = closest(ref["target"], list(numbers))
                errors.append(
                    SourceError(
                        page.path,
                        ref["line0"] + 1,
                        ref["col"],
                        f"{{numref}}: no figure '{ref['target']}' in {ref['lesson']}",
                        (f"did you mean '{close}'? " if close else "")
                        + f"figures there: {', '.join(numbers) or 'none'}",
                    )
                )
                continue
            url = getattr(other, "url", f"{other.slug}.html")  # under its section's folder
            folder = getattr(page, "folder", "") or "."
            ref.update(
                number=numbers[ref["target"]],
                offset=int(other.env.get("figure_offset", 0)),
                href=f"{posixpath.relpath(url, folder)}#{ref['target']}",
            )
            for token in other.tokens:  # a referenced figure shows its number on its own page
                if token.type == "figure" and token.meta["id"] == ref["target"]:
                    token.meta["referenced"] = True
    return errors


def references_plugin(md: MarkdownIt) -> None:
    md.core.ruler.push("prose_references", _references_rule)  # after the headings get their ids
    rules = cast(RendererHTML, md.renderer).rules
    figure_rule = rules["figure"]
    math_rule = rules.get("math_block_label")

    def render_figure(self, tokens, idx, options, env) -> str:
        out = figure_rule(tokens, idx, options, env)
        meta = tokens[idx].meta
        if not out or not (meta.get("caption_tokens") or meta.get("referenced")):
            return out
        caption = self.renderInline(meta.get("caption_tokens") or [], options, env)
        figcaption = (
            f'<figcaption class="ex-caption"><span class="ex-caption-number">'
            f"{html.escape(t('page.figure_number', n=figure_number(env, meta['number'])))}"
            f"{'.' if caption else ''}</span>{' ' + caption if caption else ''}</figcaption>\n"
        )
        end = out.rfind("</figure>")
        return out[:end] + figcaption + out[end:]

    def render_equation(self, tokens, idx, options, env) -> str:
        assert math_rule is not None  # registered only when there is one (below)
        out = math_rule(tokens, idx, options, env)
        token = tokens[idx]
        if 'class="ex-eq-number"' in out:  # its own \tag gives the number
            return out.replace(
                '<div class="ex-math">',
                f'<div class="ex-math ex-equation" id="{html.escape(token.info, quote=True)}">',
                1,
            )
        label = html.escape(token.info, quote=True)
        number = f'<span class="ex-eq-number">{token.meta["number"]}</span>'
        if out.startswith('<div class="ex-math">') and out.rstrip().endswith("</div>"):
            body = out.rstrip()[len('<div class="ex-math">') : -len("</div>")]
            return f'<div class="ex-math ex-equation" id="{label}">{body}{number}</div>\n'
        return f'<div class="ex-math ex-equation" id="{label}">{out}{number}</div>\n'

    md.add_render_rule("figure", render_figure)
    md.add_render_rule(
        "figure_number",
        lambda self, tokens, idx, options, env: html.escape(
            _figure_text(env, tokens[idx].meta["number"], tokens[idx].meta["words"])
        ),
    )
    md.add_render_rule(
        "figure_caption_number",
        lambda self, tokens, idx, options, env: (
            f'<span class="ex-caption-number">'
            f"{html.escape(t('page.figure_number', n=figure_number(env, tokens[idx].meta['number'])))}.</span> "
        ),
    )
    if math_rule is not None:
        md.add_render_rule("math_block_label", render_equation)
