"""The math font ships cut down to the glyphs the site's formulas draw, and whole (with a
warning) when it cannot be cut."""
from __future__ import annotations

import json
import re
import unicodedata
from html.parser import HTMLParser
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont

from explorables.site_builder.output import fonts
from explorables.site_builder.output.assets import names_in
from explorables.site_builder.commands.build import ASSETS, STATIC, build_site

ROOT = Path(__file__).resolve().parent.parent
WHOLE = STATIC / "fonts" / "noto-sans-math.woff2"


class MathText(HTMLParser):
    """Each token of each <math>: (tag, mathvariant, text)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.depth = 0
        self.token = None
        self.tokens = []

    def handle_starttag(self, tag, attrs):
        if tag == "math":
            self.depth += 1
        elif self.depth and tag in ("mi", "mn", "mo", "mtext", "ms"):
            self.token = [tag, dict(attrs).get("mathvariant"), ""]

    def handle_endtag(self, tag):
        if tag == "math":
            self.depth -= 1
        elif self.token and tag == self.token[0]:
            self.tokens.append(tuple(self.token))
            self.token = None

    def handle_data(self, data):
        if self.token:
            self.token[2] += data


def drawn(tag, variant, text):
    """The characters Chromium asks the font for, named through Unicode's own names."""
    out = {c for c in text if not c.isspace()}
    if variant is None and tag == "mi" and len(text) == 1:
        variant = "italic"
    if variant in ("italic", "bold", "bold-italic"):
        for c in text:
            name = unicodedata.name(c, "")
            if c == "h" and variant == "italic":
                out.add("\u210e")  # PLANCK CONSTANT stands for the italic h
            elif name.startswith(("LATIN ", "GREEK ")) and " LETTER " in name:
                case = "CAPITAL" if "CAPITAL" in name else "SMALL"
                letter = name.split(" LETTER ")[1]
                out.add(unicodedata.lookup(f"MATHEMATICAL {variant.upper().replace('-', ' ')} {case} {letter}"))
    return out


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("fonts") / "_site"
    build_site(ROOT / "content", out)
    return out


def test_the_subset_font_covers_every_character_of_the_built_pages_math(site):
    needed = set()
    for page in site.glob("*.html"):
        parser = MathText()
        parser.feed(page.read_text(encoding="utf-8"))
        for token in parser.tokens:
            needed |= drawn(*token)
    assert len(needed) > 20  # the lessons have formulas: the check checks something
    cmap = TTFont(site / ASSETS / names_in(site)["fonts/noto-sans-math.woff2"]).getBestCmap()
    missing = sorted(c for c in needed if ord(c) not in cmap)
    assert not missing, f"the subset font lacks {[f'U+{ord(c):04X} {c}' for c in missing]}"


def test_a_root_keeps_its_radical_sign(site):
    """<msqrt> draws U+221A with no character written for it: a subset without it drew
    every square root of the track as its content alone (q·k/d instead of q·k/√d)."""
    assert "\u221a" in fonts.math_characters(["<math><msqrt><mi>d</mi></msqrt></math>"])
    assert "\u221a" in fonts.math_characters(["<math><mroot><mi>x</mi><mn>3</mn></mroot></math>"])
    assert "\u221a" not in fonts.math_characters(["<math><mfrac><mi>a</mi><mi>b</mi></mfrac></math>"])
    assert any("<msqrt" in page.read_text(encoding="utf-8") for page in site.glob("*.html"))
    cmap = TTFont(site / ASSETS / names_in(site)["fonts/noto-sans-math.woff2"]).getBestCmap()
    assert 0x221A in cmap


def test_the_subset_is_a_small_part_of_the_whole_font_and_keeps_its_math_table(site):
    subset = site / ASSETS / names_in(site)["fonts/noto-sans-math.woff2"]
    assert subset.stat().st_size < WHOLE.stat().st_size / 4
    font = TTFont(subset)
    assert "MATH" in font  # Chromium stretches brackets and radicals with it
    assert len(font.getGlyphOrder()) < len(TTFont(WHOLE).getGlyphOrder()) / 4


def test_a_page_with_formulas_names_the_font_its_stylesheet_names(site):
    """js/start.js fetches the font its page's head names (``font`` in #ex-build), with
    the stylesheet, so that it is there for the page's first layout, which then sets the
    formulas in it instead of asking the system for a fallback font character by
    character and setting them again when the font comes. The print page, made for
    printing and with no script, leaves it to its stylesheet."""
    names = names_in(site)
    css = (site / ASSETS / names["explorables.css"]).read_text(encoding="utf-8")
    named = re.findall(r"url\(\"?(fonts/noto-sans-math\.[0-9a-f]+\.woff2)\"?\)", css)
    assert set(named) == {names["fonts/noto-sans-math.woff2"]}
    checked = 0
    for page in site.glob("*.html"):
        html = page.read_text(encoding="utf-8")
        head = re.search(r'<script type="application/json" id="ex-build">(.*?)</script>', html).group(1)
        wanted = "<math" in html and page.name != "print.html"
        assert json.loads(head).get("font") == (names["fonts/noto-sans-math.woff2"] if wanted else None), page.name
        checked += wanted
    assert checked >= 5  # every lesson has formulas


@pytest.mark.parametrize("variant", ["italic", "bold", "bold-italic"])
def test_styled_letters_are_the_ones_unicode_names(variant):
    for c in "AZaz" + "ΑΩαω":
        expected = drawn("mi", variant, c) - {c}
        assert {fonts.styled(c, variant)} == expected, (c, variant)


def test_a_failed_subset_ships_the_whole_font_with_a_warning(tmp_path, monkeypatch, capsys):
    from fontTools import subset

    font = tmp_path / "noto-sans-math.woff2"
    font.write_bytes(WHOLE.read_bytes())
    monkeypatch.setattr(fonts, "_cache", lambda: tmp_path / "cache")

    def broken(self, *args, **kwargs):
        raise RuntimeError("no glyphs today")

    monkeypatch.setattr(subset.Subsetter, "subset", broken)
    assert fonts.subset_math_font(font, ["<math><mi>x</mi></math>"]) is False
    assert font.read_bytes() == WHOLE.read_bytes()
    assert "ships whole" in capsys.readouterr().err


def test_a_subset_is_reused_from_the_cache(tmp_path, monkeypatch):
    monkeypatch.setattr(fonts, "_cache", lambda: tmp_path / "cache")
    first = tmp_path / "a.woff2"
    first.write_bytes(WHOLE.read_bytes())
    assert fonts.subset_math_font(first, ["<math><mi>y</mi><mo>=</mo><mn>2</mn></math>"])
    assert len(list((tmp_path / "cache").iterdir())) == 1
    from fontTools import subset

    monkeypatch.setattr(subset.Subsetter, "subset", lambda *a, **k: 1 / 0)  # would fail if called
    second = tmp_path / "b.woff2"
    second.write_bytes(WHOLE.read_bytes())
    assert fonts.subset_math_font(second, ["<math><mi>y</mi><mo>=</mo><mn>2</mn></math>"])
    assert second.read_bytes() == first.read_bytes()
