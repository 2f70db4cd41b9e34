"""The math font ships cut down to the glyphs the site's formulas draw, and whole (with a
warning) when it cannot be cut."""
from __future__ import annotations

import json
import re
import unicodedata
from html.parser import HTMLParser
from pathlib import Path

import pytest
from fontTools import subset
from fontTools.ttLib import TTFont

from explorables.site_builder.output import fonts
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


def page_font(site: Path, page: Path) -> Path | None:
    """The font a page's head names: its linked @font-face's url()."""
    face = re.search(r'<link rel="stylesheet" href="([^"]+)" data-ex-font="([^"]+)">', page.read_text(encoding="utf-8"))
    if face is None:
        return None
    css = page.parent / face.group(1)
    font = css.parent / re.search(r'url\("([^"]+)"\)', css.read_text(encoding="utf-8")).group(1)
    assert font == page.parent / face.group(2)  # the font js/pages.js loads when it swaps the page in
    return font


def cmap(font: Path) -> set[str]:
    return {chr(code) for code in TTFont(font).getBestCmap()}


def test_each_page_s_font_covers_every_character_of_its_math(site):
    checked = 0
    for page in site.glob("*.html"):
        parser = MathText()
        parser.feed(page.read_text(encoding="utf-8"))
        needed = set()
        for token in parser.tokens:
            needed |= drawn(*token)
        if not needed:
            continue
        missing = sorted(needed - cmap(page_font(site, page)))
        assert not missing, f"{page.name}'s font lacks {[f'U+{ord(c):04X} {c}' for c in missing]}"
        checked += len(needed) > 20  # a lesson has formulas: the check checks something
    assert checked >= 5


def test_each_page_s_font_holds_exactly_its_characters_and_its_exercises(site):
    """A page's subset holds what its formulas draw and what its exercises' statements
    can draw after the build ("New numbers"), and nothing of the other pages."""
    whole, exercised = cmap(WHOLE), 0
    for page in sorted(site.glob("*.html")):
        html = page.read_text(encoding="utf-8")
        if "<math" not in html:
            continue
        wanted = fonts.math_characters([html, fonts.exercise_math(html)])
        font = page_font(site, page)
        assert font.read_bytes() == fonts.subset(WHOLE.read_bytes(), wanted), page.name  # made of these
        # (the layout's closure may keep a glyph or two more: > beside a stretched one)
        assert wanted & whole <= cmap(font) and len(cmap(font) - wanted - {" "}) <= 2, page.name
        exercised += 'data-exercise="' in html
        if 'data-exercise="scaled-score"' in html:  # a statement's own characters, written in the browser
            assert fonts.math_characters([fonts.exercise_math(html)]) - fonts.math_characters([html])
    assert exercised >= 3


def test_pages_with_other_formulas_get_other_fonts_and_the_same_share_one(tmp_path, monkeypatch):
    monkeypatch.setattr(fonts, "_cache", lambda: tmp_path / "cache")
    made = fonts.PageFonts(tmp_path, WHOLE.read_bytes(), lambda html: "")
    a = made("<p><math><mi>x</mi><mo>+</mo><mn>1</mn></math></p>")
    b = made("<p><math><mi>y</mi><mo>−</mo><mn>2</mn></math></p>")
    again = made("<h1>Other words</h1><math><mn>1</mn><mo>+</mo><mi>x</mi></math>")
    assert a != b and a == again
    assert made("<p>no formula</p>") is None
    assert sorted(p.name for p in (tmp_path / "fonts").iterdir()) == sorted(Path(n).name for n in (*a, *b))
    assert "𝑥" in cmap(tmp_path / a[1]) and "𝑦" not in cmap(tmp_path / a[1])  # italic x, not y
    assert "𝑦" in cmap(tmp_path / b[1])


def test_a_failed_subset_gives_every_page_the_whole_font_with_one_warning(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(fonts, "_cache", lambda: tmp_path / "cache")
    monkeypatch.setattr(subset.Subsetter, "subset", lambda *a, **k: 1 / 0)
    made = fonts.PageFonts(tmp_path, WHOLE.read_bytes(), lambda html: "")
    a, b = made("<math><mi>x</mi></math>"), made("<math><mi>y</mi></math>")
    assert a == b
    assert (tmp_path / a[1]).read_bytes() == WHOLE.read_bytes()
    assert capsys.readouterr().err.count("ships whole") == 1


def test_a_root_keeps_its_radical_sign(site):
    """<msqrt> draws U+221A with no character written for it: a subset without it drew
    every square root of the track as its content alone (q·k/d instead of q·k/√d)."""
    assert "\u221a" in fonts.math_characters(["<math><msqrt><mi>d</mi></msqrt></math>"])
    assert "\u221a" in fonts.math_characters(["<math><mroot><mi>x</mi><mn>3</mn></mroot></math>"])
    assert "\u221a" not in fonts.math_characters(["<math><mfrac><mi>a</mi><mi>b</mi></mfrac></math>"])
    rooted = [page for page in site.glob("*.html") if "<msqrt" in page.read_text(encoding="utf-8")]
    assert rooted
    for page in rooted:
        assert "\u221a" in cmap(page_font(site, page)), page.name


def test_a_lesson_s_font_is_a_small_part_of_the_whole_font_and_keeps_its_math_table(site):
    cut = page_font(site, site / "attention-heatmap.html")
    assert cut.stat().st_size < 8_000  # the whole track's was 10.5 KB, and grew with every lesson
    font = TTFont(cut)
    assert "MATH" in font  # Chromium stretches brackets and radicals with it
    assert len(font.getGlyphOrder()) < len(TTFont(WHOLE).getGlyphOrder()) / 4


def test_a_page_with_formulas_names_the_font_its_head_links(site):
    """js/start.js fetches the font its page's head names (``font`` in #ex-build), with
    the stylesheet, so that it is there for the page's first layout, which then sets the
    formulas in it instead of asking the system for a fallback font character by
    character and setting them again when the font comes. The print page, made for
    printing and with no script, leaves it to its linked @font-face."""
    checked = 0
    for page in site.glob("*.html"):
        html = page.read_text(encoding="utf-8")
        head = re.search(r'<script type="application/json" id="ex-build">(.*?)</script>', html).group(1)
        wanted = "<math" in html and page.name != "print.html"
        font = page_font(site, page)
        named = font.relative_to(site / ASSETS).as_posix() if wanted else None
        assert json.loads(head).get("font") == named, page.name
        checked += wanted
    assert checked >= 5  # every lesson has formulas


def test_the_next_link_names_the_next_lesson_s_font(site):
    """js/pages.js loads it while the reader reads, beside the next lesson's page: set in
    it from the moment "Next" swaps that lesson in, with no second layout when it comes."""
    checked = 0
    for page in site.glob("*.html"):
        link = re.search(r'<a class="ex-next" rel="next" href="([^"]+)"(?: data-ex-font="([^"]+)")?>',
                         page.read_text(encoding="utf-8"))
        if link is None:
            continue
        font = page_font(site, page.parent / link.group(1))
        assert link.group(2) and page.parent / link.group(2) == font, page.name
        checked += 1
    assert checked >= 5


def test_an_offline_bundle_s_pages_share_one_font(tmp_path):
    """Its carried pages are swapped in without their heads: every page names the one
    subset of the whole site's math."""
    out = tmp_path / "bundle"
    build_site(ROOT / "content", out, bundle=True)
    pages = [page.read_text(encoding="utf-8") for page in out.glob("*.html")]
    named = {page_font(out, page) for page in out.glob("*.html") if "<math" in page.read_text(encoding="utf-8")}
    assert len(named) == 1
    assert fonts.math_characters(pages) & cmap(WHOLE) <= cmap(named.pop())


@pytest.mark.parametrize("variant", ["italic", "bold", "bold-italic"])
def test_styled_letters_are_the_ones_unicode_names(variant):
    for c in "AZaz" + "ΑΩαω":
        expected = drawn("mi", variant, c) - {c}
        assert {fonts.styled(c, variant)} == expected, (c, variant)


def test_a_failed_subset_ships_the_whole_font_with_a_warning(tmp_path, monkeypatch, capsys):
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
    monkeypatch.setattr(subset.Subsetter, "subset", lambda *a, **k: 1 / 0)  # would fail if called
    second = tmp_path / "b.woff2"
    second.write_bytes(WHOLE.read_bytes())
    assert fonts.subset_math_font(second, ["<math><mi>y</mi><mo>=</mo><mn>2</mn></math>"])
    assert second.read_bytes() == first.read_bytes()


def test_the_math_font_s_family_is_named_once_in_the_stylesheet(site):
    """The family <math> is set in is named once, as --ex-math-font in css/page.css: the
    page's @font-face (fonts.py) and the stylesheet's rules name it through it, and no
    other source of the runtime, the stylesheet or the builder spells it out."""
    page_css = (STATIC / "css" / "page.css").read_text(encoding="utf-8")
    assert re.findall(r'--ex-math-font: "([^"]+)"', page_css) == [fonts.FAMILY]
    assert page_css.count(fonts.FAMILY) == 1 and "font-family: var(--ex-math-font), math" in page_css
    sources = [*STATIC.rglob("*.js"), *STATIC.rglob("*.css"), *(STATIC.parent / "site_builder").rglob("*.py")]
    spelt = [path.name for path in sources if fonts.FAMILY in path.read_text(encoding="utf-8")]
    assert spelt == ["page.css"]
    faces = list((site / ASSETS / "fonts").glob("math.*.css"))
    assert faces and all(f'font-family: "{fonts.FAMILY}"' in face.read_text() for face in faces)
