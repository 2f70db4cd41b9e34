"""The tool's words in other languages (engine/locale.py, site_builder/language.py):
every key the code names exists in each shipped catalogue, German numbers are written
with a decimal comma, a German build says the German words, a right-to-left build is
marked so, and a language with no catalogue falls back to English with a warning."""
from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest

from explorables.engine import locale
from explorables.figures import FieldError, Words, parse_number
from explorables.figures import num, pct, quote, vec
from explorables.site_builder.commands.build import build_site
from explorables.site_builder.commands.cli import main
from explorables.site_builder.errors import BuildError

from author_site import write_site

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ("en", "de", "he")
# A key is named in code as a string literal: t("page.next"), ex.t("runtime.copy"),
# Say("figure.attention_row.title"), ...
KEY = re.compile(r"""["']((?:page|runtime|figure|number|exercise)(?:\.[a-z_0-9]+)+)["']""")
SOURCES = [*(ROOT / "site_builder" / "templates").glob("*.html"), *(ROOT / "static" / "js").rglob("*.js"),
           *(ROOT / "engine").rglob("*.py"), *(ROOT / "site_builder").rglob("*.py")]


def keys_in_code() -> dict[str, Path]:
    """Keys written whole in the sources, and the keys the built-in figures' words.py
    declare under their prefix (``say = Words("figure.kv_cache")``, loaded on import)."""
    found = dict.fromkeys(sorted(Words.declared), ROOT / "engine" / "figures")
    prefixes = {key.rsplit(".", 1)[0] for key in Words.declared}
    for path in SOURCES:
        for key in KEY.findall(path.read_text(encoding="utf-8")):
            if key not in prefixes:  # Words("figure.kv_cache") names a prefix, not a key
                found.setdefault(key, path)
    return found


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


@pytest.fixture(autouse=True)
def english_after():
    yield
    locale.use("en")


def test_the_code_names_keys_in_every_kind_of_source():
    used = keys_in_code()
    kinds = {path.suffix for path in used.values()}
    assert {".html", ".js", ".py"} <= kinds, kinds  # the scan sees templates, JS and Python
    assert len(used) > 60


@pytest.mark.parametrize("language", SHIPPED)
def test_every_key_the_code_names_is_in_the_shipped_catalogue(language):
    catalogue = locale.catalogue(language)
    missing = {key: str(path.relative_to(ROOT)) for key, path in keys_in_code().items() if key not in catalogue}
    assert missing == {}


@pytest.mark.parametrize("language", SHIPPED)
def test_a_shipped_catalogue_is_complete_and_keeps_the_english_fields(language):
    catalogue = locale.catalogue(language)
    assert set(catalogue) == set(locale.ENGLISH)
    assert locale.resolve(language)[1] == []
    for key, text in locale.ENGLISH.items():
        assert fields(catalogue[key]) == fields(text), key
        assert catalogue[key].strip() or key == "number.group", key


def test_every_catalogue_key_is_used_somewhere():
    used = keys_in_code()
    assert sorted(set(locale.ENGLISH) - set(used) - set(locale.NUMBER_KEYS)) == []


def test_german_writes_a_decimal_comma_grouping_and_a_typographic_minus():
    assert (num(-1234.5), pct(0.05), pct(0.5), vec([0.5, -1])) == ("−1234.50", "5.0%", "50%", "(0.50, −1.00)")
    locale.use("de")
    assert num(-1234.5) == "−1234,50"  # four digits stay ungrouped, as in English
    assert num(123456.789, 1) == "123.456,8"
    assert num(-0.001) == "0,00"  # no negative zero
    assert (pct(0.05), pct(0.5), pct(0.0)) == ("5,0\u00a0%", "50\u00a0%", "0\u00a0%")
    assert vec([0.5, -1]) == "(0,50; −1,00)"
    assert quote("bank") == "„bank“"  # German quotation marks around a token


def test_hebrew_isolates_each_number_as_a_left_to_right_run():
    """In a right-to-left sentence a bare "−0.50" would show its minus on the right and
    "(1.19, 0.40)" its entries swapped; each number, vector and percentage is one
    left-to-right isolate (LRI ... PDI), and a pasted isolate still reads as the number."""
    locale.use("he")
    lri, pdi = "\u2066", "\u2069"
    assert num(-1234.5) == lri + "−1234.50" + pdi
    assert num(123456.789, 1) == lri + "123,456.8" + pdi  # decimal point, comma grouping
    assert vec([1.19, -0.4]) == lri + "(1.19,\u00a0−0.40)" + pdi  # one isolate, kept on one line
    assert pct(0.5) == lri + "50%" + pdi
    assert quote("bank") == '"\u2068bank\u2069"'
    assert parse_number(lri + "−0.75" + pdi, "x") == -0.75
    assert locale.t("figure.attention_row.sharpen_title") == "טמפרטורה נמוכה מחדדת את הבחירה"


def test_a_typed_decimal_comma_is_read_in_german_only():
    with pytest.raises(FieldError, match="must be a number, got '0,5'"):
        parse_number("0,5", "x")
    locale.use("de")
    assert parse_number("0,5", "x") == 0.5
    assert parse_number("−1,25", "x") == -1.25
    with pytest.raises(FieldError) as info:
        parse_number("", "x")
    assert info.value.message == "x ist leer: Geben Sie eine Zahl ein, etwa 0,5"


def test_direction_of_languages():
    assert [locale.direction(x) for x in ("ar", "he-IL", "fa", "ur", "de", "en")] == ["rtl"] * 4 + ["ltr"] * 2


# --- builds ------------------------------------------------------------------------------

LESSON_1 = """---
title: Eine Frage
order: 1
---

Die Temperatur ist {value}`explorer.temperature`.

:::{attention-row} explorer
:query: chased
:temperature: 1.5
:::

::::{question} Warum?
Darum.
::::
"""
LESSON_2 = """---
title: Zweite Lektion
order: 2
---

Nur Text.
"""


def make_site(tmp_path: Path, language: str, own: dict | None = None) -> Path:
    return write_site(tmp_path / "site", site_yml=f"title: Test\nlanguage: {language}\n",
                      lessons={"01-eine-frage.md": LESSON_1, "02-zweite.md": LESSON_2},
                      locales=None if own is None else {language: own})


def first_frame(html: str, figure: str = "explorer") -> dict:
    block = re.search(rf'<figure[^>]*id="{figure}".*?<script type="application/json" class="ex-data">(.*?)</script>',
                      html, re.S)
    return json.loads(block.group(1).replace("<\\/", "</"))


def words_block(html: str) -> dict:
    return json.loads(re.search(r'<script type="application/json" id="ex-words">(.*?)</script>', html).group(1))


def stats_of(scene: dict) -> dict:
    for panel in scene["panels"]:
        if panel.get("id") == "stats":
            return dict(panel["items"])
    raise AssertionError("no stats panel")


def test_a_german_build_says_the_german_words_and_writes_decimal_commas(tmp_path):
    site = make_site(tmp_path, "de")
    result = build_site(site / "content", tmp_path / "out")
    assert result.warnings == []
    html = (tmp_path / "out" / "eine-frage.html").read_text(encoding="utf-8")
    assert '<html lang="de" dir="ltr">' in html
    assert "Lektion 1 von 2" in html and "<span>Weiter</span> Zweite Lektion" in html
    assert 'aria-label="Vorige und nächste Lektion"' in html and "Zur Lektion springen" in html
    assert '<span class="ex-question-label">Prüfen Sie sich</span>' in html  # words of the directives too
    data = first_frame(html)
    stats = stats_of(data["scene"])
    assert stats["Temperatur"] == "1,50"  # the figure's own words are German too
    assert re.fullmatch(r"\(−?\d,\d\d; −?\d,\d\d\)", stats["Neuer Vektor"])
    assert data["scene"]["title"] == "Aufmerksamkeit erkunden: eine Abfragezeile"
    assert '<span class="ex-value"' in html and ">1,50<" in html  # the live number in the prose
    words = words_block(html)
    assert words["language"] == "de" and words["messages"]["runtime.starting"] == "Python startet…"
    assert not any(key.startswith("page.") for key in words["messages"])  # the pages' words stay in the HTML
    second = (tmp_path / "out" / "zweite.html").read_text(encoding="utf-8")
    assert "<span>Zurück</span> Eine Frage" in second
    assert num(-0.5) == "−0.50"  # the engine speaks English again after the build


def test_a_hebrew_build_is_right_to_left_and_needs_no_fallback(tmp_path):
    site = make_site(tmp_path, "he")
    result = build_site(site / "content", tmp_path / "out")
    assert result.warnings == []  # the shipped catalogue has every word
    html = (tmp_path / "out" / "eine-frage.html").read_text(encoding="utf-8")
    assert '<html lang="he" dir="rtl">' in html
    assert "שיעור 1 מתוך 2" in html and "<span>הבא</span> Zweite Lektion" in html
    assert '<span class="ex-question-label">בדקו את עצמכם</span>' in html
    stats = stats_of(first_frame(html)["scene"])
    assert stats["טמפרטורה"] == "\u20661.50\u2069"
    assert re.fullmatch("\u2066" + r"\(−?\d\.\d\d,\u00a0−?\d\.\d\d\)" + "\u2069", stats["וקטור חדש"])
    assert words_block(html)["dir"] == "rtl" and words_block(html)["messages"]["runtime.starting"] == "Python עולה…"
    # The still: a formula-only line is a left-to-right run; a Hebrew SVG label a right-to-left isolate.
    assert re.search(r'<span class="ex-still-detail"><bdi dir="ltr">\u2066[\d.−]+\u2069 ÷ √2 = ', html)
    assert re.search('<text class="nm"[^>]*>\u2067[a-z]+ החדשה\u2069</text>', html)


def test_the_engine_archive_holds_english_and_the_site_s_catalogue_only():
    """A site's archive carries English (the fallback) and its own language, not every
    language that ships: a Hebrew site's archive grows by the Hebrew catalogue alone."""
    import io
    import zipfile
    import zlib

    from explorables.site_builder.pyodide.archive import engine_archive

    def catalogues(language):
        with zipfile.ZipFile(io.BytesIO(engine_archive(language=language))) as archive:
            return sorted(n.rsplit("/", 1)[1] for n in archive.namelist() if "/locales/" in n)
    assert catalogues("en") == ["en.json"]
    assert catalogues("he-IL") == ["en.json", "he.json"]
    assert catalogues("fr") == ["en.json"]
    hebrew = (ROOT / "engine" / "locales" / "he.json").read_bytes()
    one_catalogue = len(zlib.compress(hebrew, 9))
    assert len(engine_archive(language="he")) - len(engine_archive()) < 1.1 * one_catalogue


def test_a_hebrew_lesson_isolates_the_signed_numbers_and_vectors_its_author_wrote(tmp_path):
    """In right-to-left prose a bare "−0.75" shows its minus on the right and the entries
    of "(1.19, 0.40)" swap; the build makes each one a left-to-right <bdi>, and leaves
    plain numbers, headings and English pages alone."""
    site = make_site(tmp_path, "he")
    (site / "content" / "02-zweite.md").write_text(
        "---\ntitle: שני\norder: 2\n---\n\n## שלב 3-1\n\nהמשקל יורד ל-−0.75 והווקטור (1.19, 0.40) זז; "
        "עם 12 מילים ו-45% מהמשקל, x-1 ו-a-1.\n", encoding="utf-8")
    build_site(site / "content", tmp_path / "out")
    html = (tmp_path / "out" / "zweite.html").read_text(encoding="utf-8")
    paragraph = re.search(r"<p>(המשקל.*?)</p>", html).group(1)
    assert paragraph == ('המשקל יורד ל-<bdi dir="ltr">−0.75</bdi> והווקטור <bdi dir="ltr">(1.19, 0.40)</bdi> זז; '
                         "עם 12 מילים ו-45% מהמשקל, x-1 ו-a-1.")
    assert "<bdi" not in re.search(r"<h2.*?</h2>", html).group(0)
    english = make_site(tmp_path / "en", "en")
    (english / "content" / "02-zweite.md").write_text("---\ntitle: Two\n---\n\nIt falls to −0.75.\n",
                                                       encoding="utf-8")
    build_site(english / "content", tmp_path / "out-en")
    assert "<bdi" not in (tmp_path / "out-en" / "zweite.html").read_text(encoding="utf-8")


def test_a_right_to_left_build_is_marked_rtl(tmp_path):
    site = make_site(tmp_path, "ar", own={"page.next": "التالي", "page.previous": "السابق"})
    result = build_site(site / "content", tmp_path / "out")
    html = (tmp_path / "out" / "eine-frage.html").read_text(encoding="utf-8")
    assert '<html lang="ar" dir="rtl">' in html and "<span>التالي</span>" in html
    assert words_block(html)["dir"] == "rtl"
    assert len(result.warnings) == 1 and "page.skip" in result.warnings[0]


def test_a_language_with_no_catalogue_falls_back_to_english_and_warns(tmp_path):
    site = make_site(tmp_path, "fr")
    result = build_site(site / "content", tmp_path / "out")
    total = len(locale.ENGLISH)
    assert result.warnings == [
        f"site.yml:2:1: the language 'fr' has no catalogue: {total} of {total} words stay English "
        f"(number.decimal, number.group, number.group_min, number.percent, number.list, page.skip, page.nav, "
        f"page.lesson_of and {total - 8} more)\n"
        f"    add them to locales/fr.json (`explorables words fr` lists every key with its English text)"]
    html = (tmp_path / "out" / "eine-frage.html").read_text(encoding="utf-8")
    assert '<html lang="fr" dir="ltr">' in html and "Lesson 1 of 2" in html


def test_a_site_catalogue_that_lacks_keys_names_exactly_those(tmp_path):
    own = {key: text for key, text in locale.catalogue("de").items() if key not in ("page.next", "runtime.copy")}
    site = make_site(tmp_path, "nl", own=own)
    result = build_site(site / "content", tmp_path / "out")
    assert len(result.warnings) == 1
    assert "the language 'nl' lacks some words: 2 of" in result.warnings[0]
    assert "(page.next, runtime.copy)" in result.warnings[0]
    html = (tmp_path / "out" / "eine-frage.html").read_text(encoding="utf-8")
    assert "Lektion 1 von 2" in html and "<span>Next</span>" in html


def test_a_site_catalogue_with_an_unknown_key_or_a_stray_field_stops_the_build(tmp_path):
    site = make_site(tmp_path, "nl", own={"page.next": "Volgende", "page.nxet": "x",
                                          "page.lesson_of": "Les {n} van {totaal}"})
    (tmp_path / "out").mkdir()
    with pytest.raises(BuildError) as info:
        build_site(site / "content", tmp_path / "out")
    text = str(info.value)
    assert "locales/nl.json:3:1: unknown key 'page.nxet'" in text
    assert "locales/nl.json:4:1: the text of 'page.lesson_of' has a field the English one has not: 'totaal'" in text
    assert list((tmp_path / "out").iterdir()) == []  # nothing written


def test_the_words_command_prints_a_catalogue_to_translate(capsys):
    assert main(["words", "de"]) == 0
    assert json.loads(capsys.readouterr().out)["page.next"] == "Weiter"
    assert main(["words", "sv"]) == 0
    out = capsys.readouterr()
    assert json.loads(out.out)["page.next"] == "Next" and "have no 'sv' text yet" in out.err


def test_a_page_carries_only_the_figure_words_the_site_changed(tmp_path):
    """The engine ships the catalogues, so a page's words block leaves out the figures'
    own words it already has: an English or German page stays small, and a word the site
    corrects still reaches the worker, over the shipped catalogue."""
    own = {**locale.catalogue("de"), "figure.attention_row.stat_entropy": "Entropie H"}
    for language, extra in (("en", None), ("de", None), ("de", own)):
        site = make_site(tmp_path / f"{language}{extra is not None}", language, own=extra)
        build_site(site / "content", tmp_path / f"out-{language}{extra is not None}")
        html = (tmp_path / f"out-{language}{extra is not None}" / "eine-frage.html").read_text(encoding="utf-8")
        messages = words_block(html)["messages"]
        figure_words = {k: v for k, v in messages.items() if k.count(".") >= 2}
        assert figure_words == ({"figure.attention_row.stat_entropy": "Entropie H"} if extra else {})
        assert "runtime.starting" in messages and "runtime.presets" in messages  # what the page's JS says
        locale.use(language, messages)  # as the worker does with the block
        assert locale.t("figure.attention_row.title") == locale.catalogue(language)["figure.attention_row.title"]
        shipped = locale.catalogue(language)["figure.attention_row.stat_entropy"]
        assert locale.t("figure.attention_row.stat_entropy") == ("Entropie H" if extra else shipped)
    assert len(json.dumps(messages, ensure_ascii=False)) < 8000
