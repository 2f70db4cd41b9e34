"""One site in several languages (site.yml ``languages: [en, de, he]``; issue 38): the key
and its mistakes, the layout (content/de/ mirrors content/, 01-intro.de.md is refused),
one tree of pages a language, the translations each page names (hreflang, sitemap,
switch), the missing translation (a note, a warning, an error with --strict), each
language's search index, the bundle's languages, the two-language starter, and the
engine's words switched in place. The browser's side: browser/test_languages_in_browser.py."""

from __future__ import annotations

import json
import re
import zipfile
from pathlib import Path

import pytest
from languages_site import LESSONS, make_site
from test_build import tree_digest

from explorables.engine import locale, runtime
from explorables.site_builder.authors import loader
from explorables.site_builder.commands.build import build_site
from explorables.site_builder.commands.bundle import bundle_site
from explorables.site_builder.commands.cli import main
from explorables.site_builder.commands.new import new_site
from explorables.site_builder.errors import BuildError
from explorables.site_builder.output.assets import names_in
from explorables.site_builder.structure.config import load_config
from explorables.site_builder.output.search import read_script_value

WARNINGS: list[str] = []  # of the build of ``built``


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """The three-language site, built once for the module."""
    content = make_site(tmp_path_factory.mktemp("languages") / "site")
    out = content.parent / "_site"
    WARNINGS[:] = build_site(content, out).warnings
    yield out
    loader.unload()


def page(out: Path, name: str) -> str:
    return (out / name).read_text(encoding="utf-8")


def manifest(html: str) -> dict:
    return json.loads(re.search(r'<script type="application/json" id="ex-build">(.*?)</script>', html).group(1))


# -- site.yml --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("yml", "expected"),
    [
        ("languages: [en, de]\nlanguage: en\n", "site.yml:2:1: both language and languages are given"),
        ("languages: [en, xx]\n", "site.yml:1:17: the language 'xx' has no catalogue"),
        ("languages: [en, German]\n", "site.yml:1:17: 'German' in languages is not a language code"),
        ("languages:\n  - en\n  - de\n  - de\n", "site.yml:4:5: the language 'de' is in languages twice"),
        ("languages: en\n", "site.yml:1:1: key 'languages' expects list"),
    ],
)
def test_a_mistake_in_languages_is_reported_at_its_place(tmp_path, yml, expected):
    site = tmp_path / "site.yml"
    site.write_text(yml, encoding="utf-8")
    _, errors = load_config(site)
    shown = [e.format(tmp_path) for e in errors]
    assert any(line.startswith(expected) for line in shown), shown


def test_a_language_with_words_of_the_sites_own_needs_no_shipped_catalogue(tmp_path):
    (tmp_path / "locales").mkdir()
    (tmp_path / "locales" / "fr.json").write_text('{"page.next": "Suivant"}', encoding="utf-8")
    (tmp_path / "site.yml").write_text("languages: [en, fr]\n", encoding="utf-8")
    config, errors = load_config(tmp_path / "site.yml")
    assert errors == [] and config.languages == ["en", "fr"] and config.language == "en"


def test_the_build_stops_on_a_mistake_in_languages_with_its_line(tmp_path, capsys):
    content = make_site(tmp_path / "site", site_yml="title: T\nlanguages: [en, de, klingon]\n")
    assert main(["build", str(content), "-o", str(tmp_path / "_site")]) == 1
    err = capsys.readouterr().err
    assert "site.yml:2:21: 'klingon' in languages is not a language code" in err


# -- the layout --------------------------------------------------------------------------


def test_a_translation_beside_its_lesson_is_refused_with_where_it_goes(tmp_path):
    lessons = {**LESSONS, "01-rows.de.md": LESSONS["de/01-rows.md"]}
    content = make_site(tmp_path / "site", lessons=lessons)
    with pytest.raises(BuildError) as caught:
        build_site(content, tmp_path / "_site")
    message = str(caught.value)
    assert "content/01-rows.de.md:1:1: 01-rows.de.md names its language in the file name" in message
    assert "move it to content/de/01-rows.md" in message


# -- one tree a language -----------------------------------------------------------------


def test_each_language_has_its_tree_the_default_at_the_root(built):
    for name in ("index.html", "rows.html", "shares.html", "heads.html", "print.html", "notices.html", "404.html"):
        assert (built / name).is_file() and (built / "de" / name).is_file() and (built / "he" / name).is_file(), name
    assert not (built / "en").exists()
    assert sorted(p.name for p in built.glob("_explorables")) == ["_explorables"]  # one runtime for all
    assert not list((built / "de").glob("_explorables"))
    for tree, lang, direction in (("", "en", "ltr"), ("de/", "de", "ltr"), ("he/", "he", "rtl")):
        html = page(built, f"{tree}rows.html")
        assert f'<html lang="{lang}" dir="{direction}">' in html
        assert 'href="' + "../" * tree.count("/") + "_explorables/explorables." in html
    # the menus, numbering and words are the language's own
    de = page(built, "de/rows.html")
    assert 'href="../de/shares.html">Anteile am Gewicht</a>' in de and "Lektion 1 von 3" in de
    assert '<a class="ex-site-title" href="../de/index.html">' in de
    assert 'href="../de/print.html">' in de and 'href="../de/notices.html">' in de
    assert "Weiter" in de and "Next" not in de
    assert "שיעור 1 מתוך 3" in page(built, "he/rows.html")
    # one figures/ folder, its words from locales/: German in the German tree
    assert "Gewichte" in page(built, "de/shares.html") and "Weights" in page(built, "shares.html")
    # every tree's pages name the same engine: the reader's engine is the same in every language
    engines = {manifest(page(built, f"{tree}rows.html"))["assets"]["engine"] for tree in ("", "de/", "he/")}
    builds = {manifest(page(built, f"{tree}rows.html"))["build"] for tree in ("", "de/", "he/")}
    assert len(engines) == 1 and len(builds) == 1
    archive = zipfile.ZipFile(built / "_explorables" / engines.pop())
    assert {"explorables/engine/locales/de.json", "explorables/engine/locales/he.json"} <= set(archive.namelist())


def test_every_page_links_its_translations(built):
    html = page(built, "de/rows.html")
    assert '<link rel="alternate" hreflang="en" href="https://example.org/course/rows.html">' in html
    assert '<link rel="alternate" hreflang="de" href="https://example.org/course/de/rows.html">' in html
    assert '<link rel="alternate" hreflang="he" href="https://example.org/course/he/rows.html">' in html
    assert '<link rel="alternate" hreflang="x-default" href="https://example.org/course/rows.html">' in html
    # a lesson German lacks: its German stand-in is no translation
    heads = page(built, "heads.html")
    assert 'hreflang="he" href="https://example.org/course/he/heads.html"' in heads
    assert 'hreflang="de"' not in heads.split("</head>")[0]


def test_the_language_switch_leads_to_the_same_lesson_in_each_language(built):
    html = page(built, "he/shares.html")
    switch = html.split('<details class="ex-languages"', 1)[1].split("</details>", 1)[0]
    assert 'data-language="he" data-dir="rtl"' in switch
    links = re.findall(r'<a href="([^"]+)" hreflang="(\w+)" lang="\w+" data-words="([^"]+)"', switch)
    assert [(href, code) for href, code, _ in links] == [
        ("../shares.html", "en"),
        ("../de/shares.html", "de"),
        ("../he/shares.html", "he"),
    ]
    for _, code, words in links:  # each language's words, for the engine on the way there
        assert re.fullmatch(rf"\.\./_explorables/words/{code}\.[0-9a-f]+\.js", words)
        assert (built / "he" / words).is_file()
    assert ">English</a>" in switch and ">Deutsch</a>" in switch and ">עברית</a>" in switch
    # the lesson German lacks: the switch says so, in German, and leads to the stand-in
    heads = page(built, "heads.html").split('<details class="ex-languages"', 1)[1]
    assert '<a href="de/heads.html" hreflang="de"' in heads and "Deutsch <small>(noch nicht übersetzt)</small>" in heads


def test_the_sitemap_lists_each_pages_translations(built):
    sitemap = page(built, "sitemap.xml")
    assert 'xmlns:xhtml="http://www.w3.org/1999/xhtml"' in sitemap
    entry = sitemap.split("<loc>https://example.org/course/de/rows.html</loc>", 1)[1].split("</url>", 1)[0]
    assert '<xhtml:link rel="alternate" hreflang="en" href="https://example.org/course/rows.html"/>' in entry
    assert '<xhtml:link rel="alternate" hreflang="he" href="https://example.org/course/he/rows.html"/>' in entry
    assert '<xhtml:link rel="alternate" hreflang="x-default" href="https://example.org/course/rows.html"/>' in entry
    assert "<loc>https://example.org/course/de/heads.html</loc>" not in sitemap  # a stand-in, not a translation


# -- a missing translation ------------------------------------------------------------------


def test_a_missing_translation_falls_back_with_a_note_and_a_warning(built):
    html = page(built, "de/heads.html")
    assert '<p class="ex-untranslated" role="note" lang="de">Diese Lektion ist noch nicht übersetzt' in html
    assert "Several heads look at once." in html and '<html lang="de"' in html
    assert "ex-untranslated" not in page(built, "he/heads.html") + page(built, "heads.html")
    # a German link to the lesson it lacks leads to the stand-in
    assert '<a href="heads.html">Köpfe</a>' in page(built, "de/index.html")
    missing = [w for w in WARNINGS if "translation" in w]
    assert missing == [
        "content/03-heads.md:1:1: no 'de' translation of this lesson (content/de/03-heads.md does not exist): "
        "the 'de' pages show it as it is, with a note\n    translate it into content/de/03-heads.md"
    ]


def test_strict_makes_a_missing_translation_an_error(tmp_path, capsys):
    content = make_site(tmp_path / "site", lessons={k: v for k, v in LESSONS.items() if k != "he/02-shares.md"})
    out = tmp_path / "_site"
    assert main(["build", str(content), "-o", str(out), "--strict"]) == 1
    err = capsys.readouterr().err
    assert err.count("content/03-heads.md:1:1: no 'de' translation of this lesson") == 1
    assert err.count("content/02-shares.md:1:1: no 'he' translation of this lesson") == 1
    assert not out.exists()
    assert main(["build", str(content), "-o", str(out)]) == 0  # without it: a warning
    assert "warning: content/03-heads.md:1:1: no 'de' translation" in capsys.readouterr().err


# -- search -----------------------------------------------------------------------------


def search_index(out: Path, name: str) -> dict:
    html = page(out, name)
    script = (out / name).parent / ("../" * name.count("/")) / "_explorables" / manifest(html)["assets"]["search"]
    text = script.read_text(encoding="utf-8")
    return read_script_value(text)


def test_each_languages_search_index_holds_only_its_pages(built):
    for tree, titles in (
        ("", {"Welcome", "Rows of attention", "Shares of weight", "Several heads"}),
        ("de/", {"Willkommen", "Zeilen der Aufmerksamkeit", "Anteile am Gewicht"}),  # not the English stand-in
        ("he/", {"ברוכים הבאים", "שורות של קשב", "חלקי המשקל", "כמה ראשים"}),
    ):
        index = search_index(built, f"{tree}rows.html")
        assert {label for label, _ in index["lessons"]} == titles, tree
        assert all(url.startswith(tree) for _, url in index["lessons"])
        if tree:
            assert all(not url.startswith(("de/", "he/")) or url.startswith(tree) for _, url in index["lessons"])
    assert (
        manifest(page(built, "de/heads.html"))["assets"]["search"]
        == manifest(page(built, "de/rows.html"))["assets"]["search"]
    )


# -- a site in one language, as it was ---------------------------------------------------------


def test_a_site_with_one_language_in_languages_is_built_as_with_language(tmp_path):
    lessons = {name: text for name, text in LESSONS.items() if name.startswith("de/")}
    lessons = {name.removeprefix("de/"): text for name, text in lessons.items()}
    lessons["index.md"] = "# Willkommen\n"
    one = make_site(tmp_path / "one", site_yml="title: T\nlanguages: [de]\n", lessons=lessons)
    plain = make_site(tmp_path / "plain", site_yml="title: T\nlanguage: de\n", lessons=lessons)
    build_site(one, tmp_path / "one" / "_site")
    build_site(plain, tmp_path / "plain" / "_site")
    assert tree_digest(tmp_path / "one" / "_site") == tree_digest(tmp_path / "plain" / "_site")
    html = page(tmp_path / "plain" / "_site", "rows.html")
    assert "ex-languages" not in html and 'rel="alternate"' not in html
    assert not [name for name in names_in(tmp_path / "plain" / "_site") if "languages" in name or "words/" in name]


# -- the bundle and the starter -------------------------------------------------------------


def test_a_bundle_carries_every_language_or_those_named(tmp_path):
    content = make_site(tmp_path / "site")
    every = bundle_site(content, folder=tmp_path / "every")
    assert (every.path / "de" / "rows.html").is_file() and (every.path / "he" / "rows.html").is_file()
    named = bundle_site(content, folder=tmp_path / "german", languages=("de",))
    assert (named.path / "rows.html").is_file() and (named.path / "de" / "rows.html").is_file()
    assert not (named.path / "he").exists()
    switch = page(named.path, "de/rows.html").split('<details class="ex-languages"', 1)[1].split("</details>")[0]
    assert 'hreflang="he"' not in switch and 'hreflang="en"' in switch
    with pytest.raises(BuildError, match="--language fr: the site's languages are en, de, he"):
        bundle_site(content, folder=tmp_path / "french", languages=("fr",))


def test_new_writes_a_site_in_two_languages(tmp_path, capsys):
    made = new_site(tmp_path / "mine", languages=("en", "de"))
    assert "content/de/01-one-query-row.md" in made.written
    site_yml = (tmp_path / "mine" / "site.yml").read_text(encoding="utf-8")
    assert 'languages: ["en", "de"]' in site_yml and "\nlanguage:" not in site_yml
    assert "Eine Zeile Aufmerksamkeit" in (tmp_path / "mine" / "content" / "de" / "01-one-query-row.md").read_text()
    result = build_site(tmp_path / "mine" / "content", tmp_path / "mine" / "_site")
    assert not [w for w in result.warnings if "translation" in w]
    assert (tmp_path / "mine" / "_site" / "de" / "one-query-row.html").is_file()
    assert main(["new", str(tmp_path / "wrong"), "--languages", "en,Deutsch"]) == 1
    assert "--languages: 'Deutsch' is not a language code; did you mean 'de'?" in capsys.readouterr().err


# -- the engine ---------------------------------------------------------------------------


def test_the_engine_speaks_the_words_it_is_sent_without_starting_again():
    try:
        answer = json.loads(runtime.handle(json.dumps({"words": {"language": "de", "messages": {}}})))
        assert answer == {"ok": True, "language": "de"}
        assert locale.t("figure.reset") == "Zurücksetzen" and locale.localized("-12345.5") == "−12.345,5"
        runtime.handle(json.dumps({"words": {"language": "en", "messages": {"own.x.title": "Mine"}}}))
        assert locale.t("figure.reset") == "Reset" and locale.t("own.x.title") == "Mine"
    finally:
        locale.own_words({})
        locale.use("en")


def test_a_section_a_language_lacks_falls_back_whole(tmp_path):
    lessons = {
        **LESSONS,
        "basics/index.md": "---\ntitle: Basics\n---\n\nThe basics.\n",
        "basics/01-dot.md": "---\ntitle: Dot\n---\n\nA dot: ![dot](img/dot.svg)\n",
        "basics/img/dot.svg": '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>',
    }
    content = make_site(tmp_path / "site", lessons=lessons)
    out = tmp_path / "_site"
    result = build_site(content, out)
    html = page(out, "de/basics/dot.html")
    assert "ex-untranslated" in html and '<img src="img/dot.svg"' in html
    assert (out / "de" / "basics" / "img" / "dot.svg").is_file()  # its image beside it, in the German tree
    assert 'href="../../de/basics/index.html"' in html  # the German menu holds the section
    assert sum("no 'de' translation" in w for w in result.warnings) == 3  # heads, basics/index, basics/dot
