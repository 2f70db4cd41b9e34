"""The math font cut down, at build time, to the glyphs the site's formulas use.

Noto Sans Math is 270 KB as woff2, most of a lesson's first frame; a site's formulas use
a few dozen characters. ``subset_math_font`` keeps those (as Chromium draws them: a
one-letter <mi> in mathematical italic, a ``mathvariant`` as its styled letter), the
radical sign that a root draws with no character written for it, and what the MATH
table needs to stretch them (fontTools keeps the variants and assemblies of the glyphs
it keeps). Should subsetting fail (no fontTools, a font it cannot read), the whole font
ships and the build warns.

Each page gets the subset of its own formulas (``PageFonts``), and of the statements
its exercises write in the browser: a lesson's first frame carries 6-7 KB of font, not
the whole track's, which grew with every lesson. A subset is named by its bytes, so
pages that draw the same characters share one file. Its ``@font-face`` is a small
stylesheet of its own beside it (``fonts/math.<hash>.css``), which the page's head
links, naming the font in ``data-ex-font``: the strict Content-Security-Policy allows no
inline style, and js/pages.js loads that font (as a FontFace) for a lesson it swaps in.
An offline bundle, whose carried pages have no head, gives every page the one subset
of the whole site.

The result is cached per user by the font's and the characters' digest, so that each
rebuild of ``explorables serve`` does not subset again.
"""

from __future__ import annotations

import hashlib
import html
import io
import os
import re
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

from ..pyodide.release import cache_dir
from . import assets as site_assets

MATH_FONT = Path("fonts") / "noto-sans-math.woff2"  # inside the assets folder
FACE = "fonts/math.css"  # a subset's @font-face, beside it (named by its content too)


def _family(css: str) -> str:
    """The family <math> is set in, named once in static/css/page.css (--ex-math-font)."""
    found = re.search(r'--ex-math-font: "([^"]+)"', css)
    if found is None:
        raise ValueError("static/css/page.css names no --ex-math-font")
    return found[1]


FAMILY = _family((site_assets.STATIC / "css/page.css").read_text("utf-8"))

_MATH = re.compile(r"<math\b.*?</math>", re.S)
_TOKEN = re.compile(r"<(mi|mn|mo|mtext|ms)\b([^>]*)>(.*?)</\1>", re.S)
_VARIANT = re.compile(r'mathvariant="([^"]+)"')
_TAG = re.compile(r"<[^>]+>")
_EXERCISE = re.compile(r'<div class="ex-exercise"[^>]* data-exercise="([^"]+)"')
# What the layout draws without a token to hold it: the radical sign of a square root or
# an n-th root (stretched to its content through the MATH table's variants of it).
_DRAWN_BY_LAYOUT = {"<msqrt": "\u221a", "<mroot": "\u221a"}

# Mathematical Alphanumeric Symbols (U+1D400...): where A, a and Greek capital alpha of
# each variant start, and the letters that live elsewhere (the "holes" of the block).
_LATIN = {
    "bold": 0x1D400,
    "italic": 0x1D434,
    "bold-italic": 0x1D468,
    "script": 0x1D49C,
    "bold-script": 0x1D4D0,
    "fraktur": 0x1D504,
    "double-struck": 0x1D538,
    "bold-fraktur": 0x1D56C,
    "sans-serif": 0x1D5A0,
    "bold-sans-serif": 0x1D5D4,
    "sans-serif-italic": 0x1D608,
    "sans-serif-bold-italic": 0x1D63C,
    "monospace": 0x1D670,
}
_GREEK = {
    "bold": 0x1D6A8,
    "italic": 0x1D6E2,
    "bold-italic": 0x1D71C,
    "bold-sans-serif": 0x1D756,
    "sans-serif-bold-italic": 0x1D790,
}
_GREEK_ORDER = "ΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡϴΣΤΥΦΧΨΩ∇αβγδεζηθικλμνξοπρςστυφχψω∂ϵϑϰϕϱϖ"
_HOLES = {
    ("italic", "h"): "\u210e",
    ("script", "B"): "\u212c",
    ("script", "E"): "\u2130",
    ("script", "F"): "\u2131",
    ("script", "H"): "\u210b",
    ("script", "I"): "\u2110",
    ("script", "L"): "\u2112",
    ("script", "M"): "\u2133",
    ("script", "R"): "\u211b",
    ("script", "e"): "\u212f",
    ("script", "g"): "\u210a",
    ("script", "o"): "\u2134",
    ("fraktur", "C"): "\u212d",
    ("fraktur", "H"): "\u210c",
    ("fraktur", "I"): "\u2111",
    ("fraktur", "R"): "\u211c",
    ("fraktur", "Z"): "\u2128",
    ("double-struck", "C"): "\u2102",
    ("double-struck", "H"): "\u210d",
    ("double-struck", "N"): "\u2115",
    ("double-struck", "P"): "\u2119",
    ("double-struck", "Q"): "\u211a",
    ("double-struck", "R"): "\u211d",
    ("double-struck", "Z"): "\u2124",
}


def styled(char: str, variant: str) -> str:
    """``char`` as Chromium draws it in ``mathvariant`` (e.g. x, italic -> U+1D465)."""
    if (variant, char) in _HOLES:
        return _HOLES[variant, char]
    if "A" <= char <= "Z" and variant in _LATIN:
        return chr(_LATIN[variant] + ord(char) - ord("A"))
    if "a" <= char <= "z" and variant in _LATIN:
        return chr(_LATIN[variant] + 26 + ord(char) - ord("a"))
    if char in _GREEK_ORDER and variant in _GREEK:
        return chr(_GREEK[variant] + _GREEK_ORDER.index(char))
    return char


def math_characters(pages: Iterable[str]) -> set[str]:
    """Every character the formulas (<math>) of these HTML pages draw, as drawn."""
    chars: set[str] = set()
    for page in pages:
        for formula in _MATH.findall(page):
            chars.update(char for tag, char in _DRAWN_BY_LAYOUT.items() if tag in formula)
            for tag, attrs, inner in _TOKEN.findall(formula):
                text = html.unescape(_TAG.sub("", inner))
                chars.update(text)
                variant = _VARIANT.search(attrs)
                if variant:
                    chars.update(styled(c, variant.group(1)) for c in text)
                elif tag == "mi" and len(text) == 1:
                    chars.add(styled(text, "italic"))  # a one-letter <mi> is italic
    return {c for c in chars if not c.isspace() or c == " "}


def exercise_math(html: str) -> str:
    """MathML holding every character the statements of the page's exercises can draw
    after the build ("New numbers", a seed in the address), in either notation."""
    from ...engine.exercises import EXERCISES, glyphs, mathml, mn, mvec  # noqa: PLC0415  (the engine, when needed)

    kinds = set(_EXERCISE.findall(html))
    if not kinds:
        return ""
    if not all(kind in EXERCISES for kind in kinds):  # (each looked up, no more imported than they need)
        return glyphs()  # a type the engine does not list: every statement it knows
    numbers = mn(-0.123456789, False) + mn(1.5, True) + mvec([1, 2], True) + mvec([1, 2], False)
    statements = (
        EXERCISES[kind].statement(EXERCISES[kind].generate(1), comma)
        for kind in sorted(kinds)
        for comma in (False, True)
    )
    return "".join(statements) + mathml(numbers, "<mn>0123456789</mn>")


def subset_math_font(font: Path, pages: Iterable[str]) -> bool:
    """Replace ``font`` (a woff2) by its subset for ``pages``' math; False, with a warning
    on stderr, when it ships whole."""
    original = font.read_bytes()
    try:
        font.write_bytes(subset(original, math_characters(pages)))
    except Exception as err:
        _warn(font.name, original, err)
        return False
    return True


def subset(original: bytes, chars: set[str]) -> bytes:
    """The woff2 ``original`` cut to ``chars`` (and a space); from the cache when it was
    cut so before. Raises whatever fontTools raises when it cannot."""
    text = "".join(sorted(chars | {" "}))
    digest = hashlib.sha256(original + text.encode("utf-8")).hexdigest()[:24]
    cached = _cache() / f"math-{digest}.woff2"
    if cached.is_file():
        return cached.read_bytes()
    from fontTools import subset as cutter  # noqa: PLC0415  (here: a broken fontTools ships the font whole)

    options = cutter.Options()
    options.flavor = "woff2"
    options.layout_features = ["*"]  # the math features: ssty, flac, dtls, rtlm
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]  # the names, the copyright and the licence
    options.hinting = False  # a third of the bytes; Chromium's rasterizers do without
    options.notdef_outline = True
    options.glyph_names = False
    loaded = cutter.load_font(io.BytesIO(original), options)
    subsetter = cutter.Subsetter(options)
    subsetter.populate(text=text)
    subsetter.subset(loaded)
    out = io.BytesIO()
    cutter.save_font(loaded, out, options)
    data = out.getvalue()
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
        staging = cached.with_suffix(f".{os.getpid()}.tmp")
        staging.write_bytes(data)
        staging.replace(cached)
    except OSError:
        pass  # no cache: the next build subsets again
    return data


class PageFonts:
    """page's HTML -> (its @font-face stylesheet, its font), both hashed names inside
    ``assets``, written on first use; None for a page without formulas. ``dynamic(html)``
    gives MathML of what the page writes after the build (its exercises' new problems).
    With ``shared`` (an offline bundle) every page gets the subset for that text."""

    def __init__(self, assets: Path, whole: bytes, dynamic: Callable[[str], str], shared: str | None = None):
        self.assets, self.whole, self.dynamic, self.shared = assets, whole, dynamic, shared
        self.made: dict[frozenset[str], tuple[str, str]] = {}
        self.failed = False

    def __call__(self, html: str) -> tuple[str, str] | None:
        if "<math" not in html:
            return None
        text = self.shared if self.shared is not None else html + self.dynamic(html)
        chars = frozenset(math_characters([text]))
        if self.failed:
            chars = frozenset()  # the whole font: one file for every page
        if chars not in self.made:
            self.made[chars] = self._write(chars)
        return self.made[chars]

    def _write(self, chars: frozenset[str]) -> tuple[str, str]:
        data = self.whole
        if not self.failed:
            try:
                data = subset(self.whole, set(chars))
            except Exception as err:
                _warn(MATH_FONT.name, self.whole, err)
                self.failed, data = True, self.whole
        font = site_assets.add(self.assets, MATH_FONT.as_posix(), data)
        face = (
            f'@font-face {{ font-family: "{FAMILY}"; src: url("{Path(font).name}") format("woff2"); '
            f"font-display: swap; }}\n"
        )
        return site_assets.add(self.assets, FACE, face.encode("utf-8")), font


def _warn(name: str, original: bytes, err: Exception) -> None:
    print(
        f"warning: the math font {name} ships whole ({len(original) // 1024} KB): subsetting it "
        f"failed ({type(err).__name__}: {err}); install fonttools with brotli "
        f"(pip install 'fonttools[woff]')",
        file=sys.stderr,
    )


def _cache() -> Path:
    return cache_dir() / "fonts"
