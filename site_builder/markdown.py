"""The Markdown parser: CommonMark + tables, footnotes, front matter, math, directives."""
from __future__ import annotations

import difflib
import html
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from mdit_py_plugins.anchors import anchors_plugin
from mdit_py_plugins.colon_fence import colon_fence_plugin
from mdit_py_plugins.dollarmath import dollarmath_plugin
from mdit_py_plugins.footnote import footnote_plugin
from mdit_py_plugins.front_matter import front_matter_plugin

from .directives import directives_plugin
from .directives.roles import roles_plugin
from .directives.common import report
from .errors import SourceError
from .math import MathError, tex_to_mathml

# Front matter keys a lesson may use: name -> (type, what it is for)
FRONT_MATTER = {
    "title": (str, "the lesson's title"),
    "order": (int, "its place in the track (1, 2, ...)"),
    "summary": (str, "one sentence shown in the list of lessons"),
}


def _math_lines(state: StateCore) -> None:
    """Give inline math tokens the source line of their paragraph, for error messages."""
    for token in state.tokens:
        if token.type == "inline" and token.children and token.map:
            for child in token.children:
                if child.type.startswith("math"):
                    child.meta = {**(child.meta or {}), "line0": token.map[0]}


def _column(env: dict, line0: int, content: str) -> int:
    """1-based column of the math's opening `$` on its first line (1 if not found)."""
    lines = env.get("lines") or []
    first = content.strip().split("\n")[0]
    for text in lines[line0:line0 + 50]:
        at = text.find(first) if first else -1
        if at >= 0:
            return max(1, text.rfind("$", 0, at + 1) + 1 if "$" in text[:at + 1] else at + 1)
        line0 += 1
    return 1


def _math_renderer(display: bool):
    def render(self, tokens, idx, options, env) -> str:
        token = tokens[idx]
        try:
            mathml = tex_to_mathml(token.content, display)
        except MathError as err:
            line0 = token.map[0] if token.map else (token.meta or {}).get("line0", 0)
            report(env, line0, _column(env, line0, token.content), str(err),
                   "math is TeX between $...$ (inline) or $$...$$ (display)")
            return html.escape(token.content)
        return f'<div class="ex-math">{mathml}</div>\n' if display else mathml
    return render


def create_parser(raw_html: bool = False) -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": raw_html, "typographer": True})
    md.enable(["table", "strikethrough", "replacements", "smartquotes"])
    md.use(front_matter_plugin)
    md.use(footnote_plugin)
    md.use(colon_fence_plugin)
    md.use(dollarmath_plugin, double_inline=True, allow_digits=False)
    md.use(anchors_plugin, min_level=2, max_level=3, permalink=True, permalinkSymbol="#")
    md.use(directives_plugin)
    md.core.ruler.after("inline", "math_lines", _math_lines)
    for name in ("math_inline", "math_inline_double"):
        md.add_render_rule(name, _math_renderer(display=False))
    for name in ("math_block", "math_block_label"):
        md.add_render_rule(name, _math_renderer(display=True))
    md.use(roles_plugin)  # {value}, {adjust}, {try}, {numref}, {eq}: prose bound to the page
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

    @property
    def title(self) -> str:
        return self.meta.get("title") or self.slug.replace("-", " ").capitalize()


def _front_matter(tokens, path: Path, env: dict) -> dict[str, Any]:
    if not tokens or tokens[0].type != "front_matter":
        return {}
    token = tokens[0]
    try:
        data = yaml.safe_load(token.content) or {}
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        report(env, (mark.line + 1) if mark else 0, (mark.column + 1) if mark else 1,
               f"front matter is not valid YAML: {getattr(err, 'problem', err)}", "write one `key: value` per line")
        return {}
    if not isinstance(data, dict):
        report(env, 1, 1, "front matter must be `key: value` lines")
        return {}
    lines = token.content.split("\n")
    meta: dict[str, Any] = {}
    for key, value in data.items():
        line0 = 1 + next((i for i, text in enumerate(lines) if text.split(":", 1)[0].strip() == str(key)), 0)
        spec = FRONT_MATTER.get(key)
        if spec is None:
            close = difflib.get_close_matches(str(key), FRONT_MATTER, n=1)
            hint = f"did you mean '{close[0]}'?" if close else f"known keys: {', '.join(FRONT_MATTER)}"
            report(env, line0, 1, f"unknown front matter key '{key}'", hint)
            continue
        kind, doc = spec
        if kind is str and isinstance(value, (int, float)) and not isinstance(value, bool):
            value = str(value)
        if not isinstance(value, kind) or isinstance(value, bool):
            report(env, line0, len(str(key)) + 3,
                   f"front matter '{key}' expects {'an integer' if kind is int else 'text'}, got {value!r}",
                   f"{key}: {doc}")
            continue
        meta[key] = value
    return meta


def parse_page(md: MarkdownIt, path: Path, slug: str) -> Page:
    text = path.read_text(encoding="utf-8")
    env: dict[str, Any] = {"path": path, "errors": [], "lines": text.split("\n")}
    tokens = md.parse(text, env)
    meta = _front_matter(tokens, path, env)
    return Page(path=path, slug=slug, meta=meta, tokens=tokens, env=env, errors=env["errors"])


def render_page(md: MarkdownIt, page: Page) -> str:
    """HTML of the page body; render-time errors (math, figures) join page.errors."""
    return md.renderer.render(page.tokens, md.options, page.env)
