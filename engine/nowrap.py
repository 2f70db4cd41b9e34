"""An inline formula kept on one line with the text touching it: "(", "),", ". The".

Chromium lays an inline formula out as one box, like an image, and may break the line
right after it even before a full stop (". The square ...") and right before it after an
opening bracket; a word joiner (U+2060) beside the formula does not stop it. So the text
touching a formula (up to the nearest space a line may break at) is kept with it in a
span the stylesheet sets with white-space: nowrap (.ex-nowrap): no character is added to
the text that search and copying read. The build uses it for the lessons' formulas
(site_builder/markdown.py) and exercises use it for their problems (exercises.py), so a
problem drawn anew in the browser is set as the built one.
"""

from __future__ import annotations

import re

_BREAKS = " \t\r\n\u1680\u2000-\u2006\u2008-\u200b\u205f\u3000"  # not the no-break spaces
_TOUCHING_AFTER = re.compile(f"^[^{_BREAKS}]+")
_TOUCHING_BEFORE = re.compile(f"[^{_BREAKS}]+$")
_INLINE_MATH = re.compile(f'([^{_BREAKS}<>]*)(<math\\b(?![^>]*display="block")[^>]*>.*?</math>)([^{_BREAKS}<>]*)', re.S)


def touching_after(text: str) -> str:
    """The start of ``text`` that touches a formula before it: "." of ". The square", say."""
    match = _TOUCHING_AFTER.match(text)
    return match.group() if match else ""


def touching_before(text: str) -> str:
    """The end of ``text`` that touches a formula after it: "(" of "the sum (", say."""
    match = _TOUCHING_BEFORE.search(text)
    return match.group() if match else ""


def keep_together(before: str, mathml: str, after: str) -> str:
    """An inline formula and the HTML touching it, on one line."""
    return f'<span class="ex-nowrap">{before}{mathml}{after}</span>' if before or after else mathml


def keep_formulas_with_text(html: str) -> str:
    """HTML whose inline formulas stay on the line of the text touching them ("),", "(")."""
    return _INLINE_MATH.sub(lambda m: keep_together(*m.groups()), html)
