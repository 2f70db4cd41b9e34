"""Images with a caption: ``:::{figure} img/attention.png`` (MyST's figure).

    :::{figure} img/attention.png
    :alt: A grid of attention weights, brightest on the diagonal
    :width: 480
    :align: center
    The caption, in Markdown.
    :::

``:alt:`` is required (write what the image shows); ``:width:`` is in CSS pixels (the
height follows the file's proportions); ``:align:`` is left, center or right. A missing
file or a missing ``:alt:`` stops the build with file:line:col. The image gets
``width``/``height`` from the file and ``loading="lazy"``; it is copied with the site.
``{image}`` is the same without a caption.
"""

from __future__ import annotations

from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from ...output import images
from .common import found_in, known_options, parse_body, report, split_options

OPTIONS = {
    "alt": "what the image shows, for readers who cannot see it",
    "width": "its width in CSS pixels, e.g. 480",
    "align": "left, center or right",
    "name": "an id to link to, e.g. heatmap-photo",
}
ALIGN = ("left", "center", "right")


def expand(state: StateCore, index: int, name: str, argument: str) -> int:
    token = state.tokens[index]
    env = state.env
    line0 = token.map[0] if token.map else 0  # (a directive's token has its lines)
    label = f"{{{name}}}"
    arg_col = len(token.markup) + len(label) + 2
    options, body, body_line0 = split_options(token.content, line0 + 1)
    listed = "options: " + "; ".join(f":{k}: {v}" for k, v in OPTIONS.items())
    values = known_options(env, options, OPTIONS, lambda option: f"{label}: unknown option ':{option}:'", listed)
    token.type = "directive_error"
    if not argument:
        report(
            env,
            line0,
            arg_col - 1,
            f"{label} needs the image's path after the name",
            f"e.g. ':::{label} img/attention.png' (relative to this Markdown file)",
        )
        return 1
    alt = values.get("alt")
    if alt is None or not alt.value.strip():
        report(
            env,
            alt.line if alt else line0,
            alt.value_col if alt else arg_col,
            f"{label} {argument}: the image needs alt text",
            "add a line ':alt: what the image shows' under the fence",
        )
    found = images.resolve(env, argument)
    if found is None:
        report(
            env,
            line0,
            arg_col,
            f"{label}: '{argument}' is not a file of the site",
            "images are files beside the lessons, e.g. img/attention.png; web addresses are not fetched",
        )
        return 1
    file, url = found
    if not url:
        report(
            env,
            line0,
            arg_col,
            f"{label}: '{argument}' is outside the content folder",
            "move the image into the content folder, e.g. content/img/",
        )
        return 1
    if not file.is_file():
        report(
            env,
            line0,
            arg_col,
            f"{label}: image file '{argument}' does not exist",
            f"looked for {file}; the path is relative to this Markdown file",
        )
        return 1
    size = images.image_size(file)
    if size is None:
        problem = images.size_problem(file)
        report(
            env,
            line0,
            arg_col,
            f"{label}: cannot read the size of '{argument}'" + (f": {problem}" if problem else ""),
            "save the image again from an image editor"
            if problem
            else "use a PNG, JPEG, GIF, WebP or SVG (with width and height or a viewBox)",
        )
        return 1
    width, height = size
    if "width" in values:
        text = values["width"].value.strip().removesuffix("px")
        if not text.isdigit() or int(text) == 0:
            report(
                env,
                values["width"].line,
                values["width"].value_col,
                f"{label} {argument}: width must be a whole number of pixels, got '{values['width'].value}'",
                ":width: 480",
            )
        else:
            width, height = int(text), max(1, round(height * int(text) / width))
    align = values["align"].value.strip() if "align" in values else "center"
    if align not in ALIGN:
        report(
            env,
            values["align"].line,
            values["align"].value_col,
            f"{label} {argument}: align must be left, center or right, got '{align}'",
            ":align: center",
        )
        align = "center"
    env.setdefault("images", []).append((file, url))

    opening = Token("image_figure_open", "figure", 1)
    opening.attrSet("class", f"ex-image ex-align-{align}")
    if "name" in values:
        opening.attrSet("id", values["name"].value.strip())
    opening.map = token.map
    opening.block = True
    img = Token("image_img", "img", 0)
    img.block = True
    for key, value in (
        ("src", images.page_src(env, url)),
        ("alt", alt.value.strip() if alt else ""),
        ("width", str(width)),
        ("height", str(height)),
        ("loading", "lazy"),
        ("decoding", "async"),
    ):
        img.attrSet(key, value)
    tokens = [opening, img]
    if name == "figure" and body.strip():
        caption_open = Token("image_caption_open", "figcaption", 1)
        caption_open.block = True
        caption_close = Token("image_caption_close", "figcaption", -1)
        caption_close.block = True
        tokens += [caption_open, *parse_body(state, body, body_line0), caption_close]
    closing = Token("image_figure_close", "figure", -1)
    closing.block = True
    state.tokens[index : index + 1] = [*tokens, closing]
    return 2  # the caption may hold directives too


def image_sizes_rule(state: StateCore) -> None:
    """Plain Markdown images ``![alt](img/x.png)``: size from the file, lazy, copied."""
    for block in state.tokens:
        if block.type != "inline" or not block.children:
            continue
        for child in block.children:
            if child.type != "image":
                continue
            src = str(child.attrGet("src") or "")
            found = images.resolve(state.env, src)
            if found is None:
                continue
            file, url = found
            line0, col = found_in(state.env, block, f"]({src}")
            if not url or not file.is_file():
                report(
                    state.env,
                    line0,
                    col + 2 if col > 1 else 1,
                    f"image '{src}' does not exist" if url else f"image '{src}' is outside the content folder",
                    "the path is relative to this Markdown file, e.g. img/attention.png",
                )
                continue
            state.env.setdefault("images", []).append((file, url))
            child.attrSet("src", images.page_src(state.env, url))
            size = images.image_size(file)
            problem = "" if size else images.size_problem(file)
            if problem:
                report(
                    state.env,
                    line0,
                    col + 2 if col > 1 else 1,
                    f"cannot read the size of image '{src}': {problem}",
                    "save the image again from an image editor",
                )
            if size:
                child.attrSet("width", str(size[0]))
                child.attrSet("height", str(size[1]))
            child.attrSet("loading", "lazy")
