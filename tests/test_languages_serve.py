"""`serve` in a site of several languages (tests/languages_site.py: English, German,
Hebrew; one lesson missing in German): an edited German lesson is rebuilt in place in
German (commands/incremental.py, incremental_languages.py), as a whole build writes it;
the German search index and print page follow it, the other languages' stay as they
were; a split German index is written anew with parts and keys of its own; an edit of
an English lesson German shows as its stand-in builds the whole site (both pages)."""

from __future__ import annotations

import re
import time

from languages_site import make_site
from test_serve_builder import touch

from explorables.site_builder.authors import loader
from explorables.site_builder.commands import incremental
from explorables.site_builder.commands.build import build_site
from explorables.site_builder.commands.serve import DevServer
from explorables.site_builder.output import search_files
from explorables.site_builder.output.assets import ASSETS, names_in
from explorables.site_builder.output.search import read_script_value

INDEXES = ("search-index.js", "search-index.de.js", "search-index.he.js")


def indexes(out) -> dict[str, str]:
    names = names_in(out)
    return {name: (out / ASSETS / names[name]).read_text() for name in INDEXES}


def followed(check, seconds: float = 10) -> bool:
    """``check()`` becomes true once the server has caught up (after its answer)."""
    for _ in range(int(seconds * 10)):
        if check():
            return True
        time.sleep(0.1)
    return check()


def test_a_german_lesson_is_rebuilt_in_place_with_its_index_and_print_page(tmp_path, capsys):
    content = make_site(tmp_path / "site")
    dev = DevServer(content, port=0)
    assert dev.start()
    try:
        out = dev.out_dir
        page = out / "de" / "shares.html"
        others = {p: p.stat().st_mtime_ns for p in out.rglob("*.html") if p != page}
        before = indexes(out)
        lesson = content / "de" / "02-shares.md"
        touch(lesson, lesson.read_text().replace("Die Softmax", "Quokkas rechnen mit. Die Softmax"))
        capsys.readouterr()
        assert dev.check()
        said = capsys.readouterr().out
        assert re.search(r"Rebuilt de/shares.html in \d+ ms", said), said
        assert "Quokkas rechnen mit." in page.read_text()
        changed = [p.relative_to(out).as_posix() for p, stamp in others.items() if p.stat().st_mtime_ns != stamp]
        assert changed in ([], ["de/print.html"])  # no other page written
        assert followed(lambda: "quokkas" in indexes(out)["search-index.de.js"].lower())
        assert followed(lambda: "Quokkas rechnen mit." in (out / "de" / "print.html").read_text())
        after = indexes(out)
        assert after["search-index.js"] == before["search-index.js"]  # the other languages' as they were
        assert after["search-index.he.js"] == before["search-index.he.js"]
        assert "Quokkas" not in (out / "print.html").read_text()
        # the page is the one a whole build writes (but the indexes' names, which the server keeps)
        build_site(content, tmp_path / "whole", dev=True)
        plain = [
            re.sub(r"search-index\.(de\.)?[0-9a-f]+\.js", "search-index.js", p.read_text())
            for p in (page, tmp_path / "whole" / "de" / "shares.html")
        ]
        assert plain[0] == plain[1]
        assert re.search(r"search-index\.de\.[0-9a-f]+\.js", page.read_text())  # it names the German index

        # an English lesson German shows as its stand-in: the whole site, both pages
        heads = content / "03-heads.md"
        touch(heads, heads.read_text().replace("Several heads look", "Emus look. Several heads look"))
        assert dev.check()
        said = capsys.readouterr().out
        assert "Rebuilt" not in said and "Built" in said
        assert "Emus look." in (out / "heads.html").read_text()
        assert "Emus look." in (out / "de" / "heads.html").read_text()
    finally:
        dev.stop()


def test_a_split_german_index_is_written_anew_with_parts_of_its_own(tmp_path, monkeypatch):
    monkeypatch.setattr(search_files, "SPLIT_ABOVE", 0)
    monkeypatch.setattr(search_files, "PART_SIZE", 200)
    monkeypatch.setattr(search_files, "DOCS_PER_PART", 2)
    content = make_site(tmp_path / "site")
    out = tmp_path / "_site"
    try:
        build_site(content, out, dev=True)  # as `serve`'s kept build process builds
        english = indexes(out)["search-index.js"]
        lesson = content / "de" / "01-rows.md"
        lesson.write_text(lesson.read_text().replace("Ein Wort fragt", "Quokkas fragen. Ein Wort fragt"))
        assert re.fullmatch(r"Rebuilt de/rows.html in \d+ ms.", incremental.rebuild(content, out, lesson) or "")
        incremental.catch_up()
    finally:
        incremental._KEPT[0] = None  # the site kept for `serve` is this test's: forgotten
        loader.unload()
    first = indexes(out)["search-index.de.js"]
    assert "searchIndex = JSON.parse(" in first, first[:200]
    head = read_script_value(first)
    parts = [entry[-1] for entry in head["terms"]]
    keys = [entry[1] for entry in head["terms"]]
    assert all(key.startswith("de-t") for key in keys) and all(p.startswith("search/de/") for p in parts)
    term = next(entry for entry in reversed(head["terms"]) if entry[0] <= "quokkas")
    text = (out / ASSETS / term[-1]).read_text()
    assert '"quokka"' in text and f'["{term[1]}"]' in text  # the new word (stemmed), in a part the first file names
    assert indexes(out)["search-index.js"] == english  # English unchanged
