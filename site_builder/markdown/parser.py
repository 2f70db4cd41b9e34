"""The Markdown parser: CommonMark + tables, footnotes, front matter, math, directives."""

from __future__ import annotations

import html
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.renderer import RendererHTML
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from mdit_py_plugins.anchors import anchors_plugin
from mdit_py_plugins.colon_fence import colon_fence_plugin
from mdit_py_plugins.dollarmath import dollarmath_plugin
from mdit_py_plugins.footnote import footnote_plugin
from mdit_py_plugins.front_matter import front_matter_plugin

from ...engine.locale import direction
from ...engine.nowrap import keep_together, touching_after, touching_before
from ..errors import SourceError
from .authoring import authoring_plugin
from .directives.common import report
from .directives.plugin import directives_plugin
from .directives.roles import roles_plugin
from .front_matter import FRONT_MATTER as FRONT_MATTER  # (imported from here too)
from .front_matter import front_matter, headless_front_matter
from .math import MathError, tex_to_mathml


def _math_lines(state: StateCore) -> None:
    """Give inline math tokens their own source line and column (a paragraph spans many
    lines; its tokens know only its first), for error messages."""
    lines = state.env.get("lines") or []
    for token in state.tokens:
        if not (token.type == "inline" and token.children and token.map):
            continue
        content = token.content
        content_lines = content.split("\n")
        cursor = 0
        for child in token.children:
            if not child.type.startswith("math"):
                continue
            where = {"line0": token.map[0]}
            source = child.markup + child.content + child.markup
            at = content.find(source, cursor)
            if at >= 0:
                cursor = at + len(source)
                row = content.count("\n", 0, at)
                line0 = token.map[0] + row
                in_line = at - (content.rfind("\n", 0, at) + 1)
                # The source line holds the paragraph's line after its indentation.
                text = lines[line0] if 0 <= line0 < len(lines) else ""
                shift = text.find(content_lines[row]) if content_lines[row] else -1
                where = {"line0": line0, "col": max(shift, 0) + in_line + 1}
            child.meta = {**(child.meta or {}), **where}


def _unclosed_math(state: StateCore) -> None:
    """A '$$' left in a paragraph's text opened a display formula never closed (the
    Markdown reads it as text, and the page showed "$$ a+b"): an error at its place. A
    dollar written \\$ is no text yet here, and code is none."""
    for token in state.tokens:
        if token.type != "inline" or not token.map or not token.children:
            continue
        cursor = 0
        for child in token.children:
            if child.type != "text":
                continue
            at = token.content.find(child.content, cursor)
            cursor = at + len(child.content) if at >= 0 else cursor
            if "$$" not in child.content or at < 0:
                continue
            at += child.content.index("$$")
            line0 = token.map[0] + token.content.count("\n", 0, at)
            report(
                state.env,
                line0,
                _column(state.env, line0, token.content[at:].split("\n", 1)[0]),
                "this $$ opens a display formula that is never closed",
                "end the formula with $$ (a display formula may span lines, but no blank line); "
                "write \\$\\$ for two dollar signs",
            )


def _align_classes(state: StateCore) -> None:
    """Table alignment as classes (ex-align-left, ...), not style attributes, which a
    strict Content-Security-Policy (no 'unsafe-inline') refuses."""
    for token in state.tokens:
        if token.type in ("th_open", "td_open"):
            style = str(token.attrGet("style") or "")
            if style.startswith("text-align:"):
                del token.attrs["style"]
                token.attrJoin("class", "ex-align-" + style.split(":", 1)[1].strip())


def _collect_links(state: StateCore) -> None:
    """Remember each link's token and source line, for the build to check and rewrite
    links to other lessons once every page is parsed."""
    links = state.env.setdefault("links", [])
    for token in state.tokens:
        if token.type == "inline" and token.children and token.map:
            before: dict[str, int] = {}  # links of this paragraph so far, by address
            for child in token.children:
                if child.type == "link_open":
                    href = str(child.attrGet("href") or "")
                    child.meta = {**(child.meta or {}), "nth": before.get(href, 0)}  # for a message's column
                    before[href] = before.get(href, 0) + 1
                    links.append((child, token.map[0]))


# What the Unicode bidi algorithm breaks in right-to-left prose: a signed number (the
# minus of "−0.75" would land on the number's right) and a vector of numbers (the entries
# of "(1.19, 0.40)" would swap places).
_RTL_NUMBER = re.compile(
    r"(?<![\w.])(?:[\u2212-]\d[\d,]*(?:\.\d+)?%?"
    r"|\(\s*[\u2212-]?\d[\d.,]*%?(?:\s*[,;]\s*[\u2212-]?\d[\d.,]*%?)+\s*\))"
)


def _rtl_numbers(state: StateCore) -> None:
    """In a right-to-left language, each such number of a paragraph's text becomes one
    isolated left-to-right run (<bdi dir="ltr">), so it reads as written."""
    if direction(state.env.get("language", "en")) != "rtl":
        return
    for before, token in zip(state.tokens, state.tokens[1:], strict=False):
        if token.type != "inline" or not token.children or before.type != "paragraph_open":
            continue
        children = []
        for child in token.children:
            if child.type != "text" or not _RTL_NUMBER.search(child.content):
                children.append(child)
                continue
            at = 0
            for match in _RTL_NUMBER.finditer(child.content):
                if match.start() > at:
                    children.append(_text_token(child.content[at : match.start()]))
                run = Token("ltr_number", "", 0)
                run.content = match.group()
                children.append(run)
                at = match.end()
            if at < len(child.content):
                children.append(_text_token(child.content[at:]))
        token.children = children


def _text_token(content: str) -> Token:
    token = Token("text", "", 0)
    token.content = content
    return token


def _column(env: Mapping, line0: int, content: str) -> int:
    """1-based column of the math's opening `$` on its first line (1 if not found)."""
    lines = env.get("lines") or []
    first = content.strip().split("\n")[0]
    for text in lines[line0 : line0 + 50]:
        at = text.find(first) if first else -1
        if at >= 0:
            return max(1, text.rfind("$", 0, at + 1) + 1 if "$" in text[: at + 1] else at + 1)
        line0 += 1
    return 1


_INLINE_MATH = ("math_inline", "math_inline_double")


def _glued(token: Token) -> bool:
    """Whether the text touching ``token`` goes on its line: an inline formula, or a
    {try} button ("({try}`turn it on <...>`)"), each laid out as one box a line may break
    around even before a full stop or after an opening bracket."""
    return token.type in _INLINE_MATH or (token.type == "prose_role" and (token.meta or {}).get("role") == "try")


def _text_parts(tokens: list[Token], idx: int) -> tuple[str, str, str]:
    """A text token's content in three: what touches the inline formula (or button)
    before it, the rest, and what touches the one after it ("),", " and the sum ", "(")."""
    text = tokens[idx].content
    head = touching_after(text) if idx > 0 and _glued(tokens[idx - 1]) else ""
    text = text[len(head) :]
    tail = touching_before(text) if idx + 1 < len(tokens) and _glued(tokens[idx + 1]) else ""
    return head, text[: len(text) - len(tail)], tail


# A formula that ends with a relation ("$T =$"), followed by the number that completes it.
_ENDS_IN_RELATION = re.compile(r"(=|<|>|\\approx|\\leq?|\\geq?|\\neq|\\sim)\s*$")


def _relation_with_its_number(state: StateCore) -> None:
    """In "at $T =$ {adjust}`...`", a formula ending with a relation and the live number that
    completes it, after one space or line end, share a line (each is a box a line may break beside,
    and a no-break space does not stop that)."""
    for token in state.tokens:
        if token.type != "inline" or not token.children:
            continue
        kids, out, i = token.children, [], 0
        while i < len(kids):
            if (
                kids[i].type in _INLINE_MATH
                and _ENDS_IN_RELATION.search(kids[i].content)
                and i + 2 < len(kids)
                and (kids[i + 1].type == "softbreak" or (kids[i + 1].type == "text" and kids[i + 1].content == " "))
                and kids[i + 2].type == "prose_role"
                and (kids[i + 2].meta or {}).get("role") in ("value", "adjust")
            ):
                opening, closing = Token("html_inline", "", 0), Token("html_inline", "", 0)
                opening.content, closing.content = '<span class="ex-nowrap">', "</span>"
                out += [opening, *kids[i : i + 3], closing]
                i += 3
                continue
            out.append(kids[i])
            i += 1
        token.children = out


def _touching(tokens: list[Token], idx: int) -> tuple[str, str]:
    """The escaped text touching token ``idx`` before and after it, for its line."""
    before = _text_parts(tokens, idx - 1)[2] if idx > 0 and tokens[idx - 1].type == "text" else ""
    after = _text_parts(tokens, idx + 1)[0] if idx + 1 < len(tokens) and tokens[idx + 1].type == "text" else ""
    return escapeHtml(before), escapeHtml(after)


def _render_text(self, tokens, idx, options, env) -> str:
    """Text, less what an inline formula beside it takes onto its line (_math_renderer)."""
    return escapeHtml(_text_parts(tokens, idx)[1])


def _math_renderer(display: bool):
    def render(self, tokens, idx, options, env) -> str:
        token = tokens[idx]
        try:
            mathml = tex_to_mathml(token.content, display)
        except MathError as err:
            meta = token.meta or {}
            line0 = token.map[0] if token.map else meta.get("line0", 0)
            col = meta["col"] if "col" in meta and not token.map else _column(env, line0, token.content)
            report(env, line0, col, str(err), "math is TeX between $...$ (inline) or $$...$$ (display)")
            mathml = html.escape(token.content)
        if display:
            return f'<div class="ex-math">{mathml}</div>\n'
        # The text touching the formula goes on its line: ". The square" never starts one.
        before, after = _touching(tokens, idx)
        return keep_together(before, mathml, after)

    return render


def create_parser(raw_html: bool = False) -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": raw_html, "typographer": True})
    md.enable(["table", "strikethrough", "replacements", "smartquotes"])
    md.use(front_matter_plugin)
    md.use(footnote_plugin)
    md.use(colon_fence_plugin)
    # Pandoc's rule, which tells math from money: no space just inside the dollars and no
    # digit right after the closing one ("$5 and $x" is text); \$ is a literal dollar.
    md.use(dollarmath_plugin, double_inline=True, allow_digits=False, allow_space=False)
    md.use(anchors_plugin, min_level=2, max_level=3, permalink=True, permalinkSymbol="#")
    md.use(directives_plugin)
    md.use(authoring_plugin)
    md.core.ruler.after("inline", "math_lines", _math_lines)
    md.core.ruler.after("math_lines", "unclosed_math", _unclosed_math)
    md.core.ruler.after("unclosed_math", "align_classes", _align_classes)
    md.core.ruler.after("align_classes", "collect_links", _collect_links)
    md.core.ruler.after("collect_links", "rtl_numbers", _rtl_numbers)
    md.add_render_rule(
        "ltr_number", lambda self, tokens, idx, options, env: f'<bdi dir="ltr">{html.escape(tokens[idx].content)}</bdi>'
    )
    for name in _INLINE_MATH:
        md.add_render_rule(name, _math_renderer(display=False))
    md.add_render_rule("text", _render_text)
    for name in ("math_block", "math_block_label"):
        md.add_render_rule(name, _math_renderer(display=True))
    md.use(roles_plugin)  # {value}, {adjust}, {try}, {numref}, {eq}: prose bound to the page
    role_rule = cast(RendererHTML, md.renderer).rules["prose_role"]

    def render_role(self, tokens, idx, options, env) -> str:
        out = role_rule(tokens, idx, options, env)  # bound to the renderer already
        if not _glued(tokens[idx]):
            return out
        before, after = _touching(tokens, idx)
        return keep_together(before, out, after)

    md.add_render_rule("prose_role", render_role)
    md.core.ruler.push("relation_with_its_number", _relation_with_its_number)  # after the roles' rule
    return md


@dataclass
class Page:
    """One parsed Markdown file."""

    path: Path
    slug: str
    meta: dict[str, Any]
    tokens: list
    env: dict[str, Any]
    errors: list[SourceError] = field(default_factory=list)
    warnings: list[SourceError] = field(default_factory=list)
    folder: str = ""  # its section's folder under content/ ('' at the top, 'basics', 'basics/more')
    url: str = ""  # its page in the site, relative to the site's root: 'basics/softmax.html'
    packed: Any = None  # a small page's whole tokens, until it is rendered (commands/slim.py)

    @property
    def title(self) -> str:
        return self.meta.get("title") or self.slug.replace("-", " ").capitalize()


def parse_page(
    md: MarkdownIt,
    path: Path,
    slug: str,
    text: str | None = None,
    *,
    content_root: Path | None = None,
    language: str = "en",
) -> Page:
    """Parse one lesson. ``text`` is its content as the build read it; without it the
    file is read here (a UTF-8 byte-order mark is dropped). ``content_root`` is the
    content folder (default: the file's own folder): image paths in the site are
    relative to it. ``language`` is the site's (site.yml): exercises write their numbers
    in its notation."""
    if text is None:
        text = path.read_text(encoding="utf-8").removeprefix("\ufeff")
    env: dict[str, Any] = {"path": path, "errors": [], "warnings": [], "lines": text.split("\n"), "language": language}
    if content_root is not None:
        env["content_root"] = content_root
    tokens = md.parse(text, env)
    meta = front_matter(tokens, path, env)
    headless_front_matter(tokens, text, env)
    return Page(path=path, slug=slug, meta=meta, tokens=tokens, env=env, errors=env["errors"], warnings=env["warnings"])


def render_page(md: MarkdownIt, page: Page) -> str:
    """HTML of the page body; render-time errors (math, figures) join page.errors."""
    return md.renderer.render(page.tokens, md.options, page.env)
