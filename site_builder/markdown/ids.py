"""Ids a page gives twice: a figure's, an image's or an exercise's that is also a
heading's anchor, and an equation label or an attribute id that the page already uses."""

from __future__ import annotations

from markdown_it.token import Token

from ..errors import SourceError
from .directives.common import found_in


def id_clashes(page) -> list[SourceError]:
    """A figure, an image or an exercise whose id is also a heading's anchor, or an
    image's or exercise's that of a figure. (Two figures with one id are reported, once,
    by the figure directive.)"""
    headings = {t.attrGet("id") for t in page.tokens if t.type == "heading_open" and t.attrGet("id")}
    figures = {t.meta["id"] for t in page.tokens if t.type == "figure"}
    errors = []
    for token in page.tokens:
        if token.type == "figure" and token.meta["id"] in headings:
            errors.append(
                SourceError(
                    page.path,
                    token.meta["line"],
                    1,
                    f"figure id '{token.meta['id']}' is also the id of a heading on this page",
                    "give the figure another id (the word after the directive name)",
                )
            )
        elif token.type == "image_figure_open" and token.attrGet("id") in headings | figures:
            fence = (token.map[0] if token.map else 0) + page.env.get("line_offset", 0)
            lines = page.env.get("lines") or []
            line = next(
                (i + 1 for i in range(fence, min(fence + 20, len(lines))) if lines[i].strip().startswith(":name:")),
                fence + 1,
            )
            errors.append(
                SourceError(
                    page.path,
                    line,
                    1,
                    f"image name '{token.attrGet('id')}' is also the id of a heading or a figure on this page",
                    "give the image another :name:",
                )
            )
        elif token.type == "exercise_open" and token.meta["id"] in headings | figures:
            errors.append(
                SourceError(
                    page.path,
                    token.meta["line"],
                    1,
                    f"exercise id '{token.meta['id']}' is also the id of a heading or figure on this page",
                    "give the exercise another :name:",
                )
            )
    return errors + _label_clashes(page, headings, figures)


def _label_clashes(page, headings: set[str], figures: set[str]) -> list[SourceError]:
    """An equation's label, or an id written as an attribute (``[words]{#id}``,
    ``![alt](a.png){#id}``), that the page already uses: a heading's, a figure's, an
    exercise's, an image's, or one written before it. A link or a reference to it would
    land on the first."""
    seen = {**dict.fromkeys(headings, "a heading"), **dict.fromkeys(figures, "a figure")}
    seen.update({t.meta["id"]: "an exercise" for t in page.tokens if t.type == "exercise_open"})
    seen.update(
        {str(t.attrGet("id")): "an image" for t in page.tokens if t.type == "image_figure_open" and t.attrGet("id")}
    )
    errors = []

    for token in page.tokens:
        before: dict[str, int] = {}  # ids of this block so far: where each stands is found past those

        def where(text: str, token: Token = token, before: dict[str, int] = before) -> tuple[int, int]:
            line0, col = found_in(page.env, token, text, before.get(text, 0))
            before[text] = before.get(text, 0) + 1
            return page.env.get("line_offset", 0) + line0 + 1, col

        if token.type == "math_block_label":
            line, col = where(f"({token.info})")
            if token.info in seen:
                errors.append(
                    SourceError(
                        page.path,
                        line,
                        col,
                        f"the equation label '{token.info}' is already the id of {seen[token.info]} on this page",
                        "give the equation a label of its own: a link or {eq} to it would land on the other",
                    )
                )
            else:
                seen[token.info] = f"the equation on line {line}"
        for child in token.children or ():
            ident = str(child.attrGet("id") or "") if child.type != "html_inline" else ""
            if not ident or child.type == "figure_number":
                continue
            line, col = where("{#" + ident)
            if ident in seen:
                errors.append(
                    SourceError(
                        page.path,
                        line,
                        col,
                        f"the id '{ident}' is already the id of {seen[ident]} on this page",
                        "give it an id of its own: a link to it would land on the other",
                    )
                )
            else:
                seen[ident] = f"the {{#{ident}}} on line {line}"
    return errors
