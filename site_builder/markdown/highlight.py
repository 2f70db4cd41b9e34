"""Build-time syntax highlighting of code blocks with Pygments.

Two spellings, both MyST's:

    ```python {lineno-start=1 emphasize-lines="2,3"}
    ...
    ```

    ```{code-block} python
    :lineno-start: 1
    :emphasize-lines: 2,3
    ...
    ```

The output carries CSS classes only (Pygments' short token classes such as ``k`` or
``s``; no style attributes, which a strict Content-Security-Policy forbids). Each line
is a ``span.ex-line``; numbered blocks give it ``data-line`` (drawn by CSS, so copying
the code never copies the numbers) and emphasized lines add ``ex-line-em``. The
colours live in explorables.css, one palette for each colour scheme. An unknown
language is a warning (``env["warnings"]``) and the block is shown as plain text.
"""

from __future__ import annotations

import html
import re
import shlex
from collections.abc import MutableMapping
from functools import lru_cache
from typing import Any

from markdown_it import MarkdownIt
from pygments import highlight as _pygmentize
from pygments.formatters import HtmlFormatter
from pygments.lexers import get_all_lexers, get_lexer_by_name
from pygments.util import ClassNotFound

from ...engine.figures.base import closest
from ..errors import SourceError
from .directives.common import known_options, report, split_options

_BRACES = re.compile(r"^(\S*)\s*(?:\{(.*)\})?\s*$")
_DIRECTIVE = re.compile(r"^\{(code-block|code|sourcecode)\}\s*(\S*)\s*$")
_OPTIONS = {"lineno-start", "emphasize-lines", "linenos", "caption"}
_FORMATTER = HtmlFormatter(nowrap=True)


def warn(env: MutableMapping[str, Any], line0: int, col: int, message: str, hint: str = "") -> None:
    """Record a warning: the build goes on, and prints it with file:line:col."""
    env.setdefault("warnings", []).append(
        SourceError(env.get("path", "<string>"), env.get("line_offset", 0) + line0 + 1, col, message, hint)
    )


def _lines_spec(text: str) -> set[int]:
    """'2,4-6' -> {2, 4, 5, 6}; raises ValueError on anything else."""
    lines: set[int] = set()
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        first, _, last = part.partition("-")
        start, stop = int(first), int(last or first)
        if start < 1 or stop < start:
            raise ValueError(part)
        lines.update(range(start, stop + 1))
    return lines


def _fence_options(token, env) -> tuple[str, dict[str, str], str]:
    """The language, the options and the code of a fence (either spelling)."""
    info = token.info.strip()
    line0 = token.map[0] if token.map else 0
    directive = _DIRECTIVE.match(info)
    if directive:
        options, body, _ = split_options(token.content, line0 + 1)
        listed = f"options: {', '.join(sorted(_OPTIONS))}"
        known = known_options(env, options, _OPTIONS, lambda name: f"{{code-block}} has no option ':{name}:'", listed)
        values = {name: option.value for name, option in known.items()}
        return directive.group(2), values, body.lstrip("\n") if options else token.content
    match = _BRACES.match(info)
    if not match:
        return info.split()[0] if info else "", {}, token.content
    language, raw = match.group(1), match.group(2) or ""
    values = {}
    try:
        words = shlex.split(raw)
    except ValueError:
        words = raw.split()
    for word in words:
        name, _, value = word.partition("=")
        if name not in _OPTIONS:
            report(
                env,
                line0,
                len(token.markup) + 1,
                f"code block option '{name}' is unknown",
                f'options: {", ".join(sorted(_OPTIONS))}, e.g. ```python {{lineno-start=1 emphasize-lines="2,3"}}',
            )
            continue
        values[name] = value
    return language, values, token.content


@lru_cache(maxsize=64)
def _lexer(language: str):
    """Pygments' lexer of ``language``, found once a build (finding it imports and searches
    Pygments' list of lexers: longer than highlighting a short block)."""
    return get_lexer_by_name(language, stripnl=False, ensurenl=False)


def _prepare(token, env: dict) -> dict:
    """Read a code block's language and options, reporting mistakes (at parse time)."""
    language, options, code = _fence_options(token, env)
    line0 = token.map[0] if token.map else 0
    lexer = None
    if language:
        try:
            lexer = _lexer(language)
        except ClassNotFound:
            close = closest(language.lower(), [a for _, aliases, _, _ in get_all_lexers() for a in aliases], 0.8)
            warn(
                env,
                line0,
                len(token.markup) + 1,
                f"unknown language '{language}' in a code block; shown as plain text",
                (f"did you mean '{close}'? " if close else "")
                + "use a Pygments name such as python, javascript, bash, json, text",
            )
    code = code[:-1] if code.endswith("\n") else code

    start = None
    if "lineno-start" in options or "linenos" in options:
        try:
            start = int(options.get("lineno-start") or 1)
        except ValueError:
            report(
                env,
                line0,
                len(token.markup) + 1,
                f"lineno-start must be a whole number, got '{options['lineno-start']}'",
                "e.g. lineno-start=1",
            )
            start = 1
    emphasized: set[int] = set()
    if options.get("emphasize-lines"):
        try:
            emphasized = _lines_spec(options["emphasize-lines"])
        except ValueError:
            report(
                env,
                line0,
                len(token.markup) + 1,
                f"emphasize-lines must list line numbers, got '{options['emphasize-lines']}'",
                'e.g. emphasize-lines="2,4-6" (counting from the first line of the block)',
            )
    return {
        "language": language,
        "lexer": lexer,
        "code": code,
        "start": start,
        "emphasized": emphasized,
        "options": options,
    }


def render_code(token, env: dict) -> str:
    prepared = (token.meta or {}).get("code") or _prepare(token, env)
    language, lexer, code = prepared["language"], prepared["lexer"], prepared["code"]
    start, emphasized, options = prepared["start"], prepared["emphasized"], prepared["options"]
    body = _pygmentize(code, lexer, _FORMATTER) if lexer else html.escape(code)
    lines = body.split("\n")
    if lexer and lines and lines[-1] == "" and len(lines) > len(code.split("\n")):
        lines.pop()
    out = []
    for number, text in enumerate(lines, start=1):
        classes = "ex-line ex-line-em" if number in emphasized else "ex-line"
        data = f' data-line="{start + number - 1}"' if start is not None else ""
        out.append(f'<span class="{classes}"{data}>{text}</span>')
    language_class = f" language-{html.escape(language)}" if language else ""
    numbered = " ex-numbered" if start is not None else ""
    caption = options.get("caption")
    pre = f'<pre class="ex-code{numbered}"><code class="highlight{language_class}">' + "\n".join(out) + "</code></pre>"
    if caption:
        return f'<figure class="ex-code-figure">{pre}<figcaption>{html.escape(caption)}</figcaption></figure>\n'
    return f'<div class="ex-code-block">{pre}</div>\n'


def _check_rule(state) -> None:
    for token in state.tokens:
        if token.type in ("fence", "code_block"):
            token.meta = {**(token.meta or {}), "code": _prepare(token, state.env)}


def highlight_plugin(md: MarkdownIt) -> None:
    """Render fenced and indented code blocks highlighted."""

    def fence(self, tokens, idx, options, env) -> str:
        return render_code(tokens[idx], env)

    md.core.ruler.push("code_blocks", _check_rule)  # mistakes reported at parse time, with the others
    md.add_render_rule("fence", fence)
    md.add_render_rule("code_block", fence)  # indented code: plain text, same block and copy button
