"""A lesson or a section may not take a name the build gives a file of its own: the built
page would silently replace the lesson, or the build would fail writing it. The names
come from one list (structure/reserved.py), which a built site is checked against."""
from __future__ import annotations

from pathlib import Path

import pytest
from sections_site import make_site

from explorables.site_builder.commands.build import build_site
from explorables.site_builder.errors import BuildError
from explorables.site_builder.output.assets import ASSETS
from explorables.site_builder.output.folder import MARKER
from explorables.site_builder.output.printpage import PRINT_PAGE
from explorables.site_builder.structure import reserved

INDEX = "---\ntitle: Part\n---\nA section.\n"
NAMES = "index, 404, notices, print, sitemap, search-index, sw"


def build_error(content: Path, out: Path) -> str:
    with pytest.raises(BuildError) as info:
        build_site(content, out)
    return str(info.value)


@pytest.mark.parametrize("name, url", [
    ("03-print.md", "print.html"),
    ("404.md", "404.html"),
    ("02-notices.md", "notices.html"),
    ("05_sitemap.md", "sitemap.html"),
    ("search-index.md", "search-index.html"),
    ("07-Print.md", "print.html"),  # page names are lower case
])
def test_a_lesson_named_like_a_page_of_the_build_is_refused(tmp_path, name, url):
    content = make_site(tmp_path)
    (content / name).write_text("---\ntitle: Mine\n---\nMy own page.\n", encoding="utf-8")
    text = build_error(content, tmp_path / "out")
    stem = Path(name).stem
    assert text == (f"content/{name}: the file name {name} makes the page {url}, a name the build gives a page of "
                    f"its own ({NAMES})\n    rename the file, e.g. {stem}-page.md\n"
                    "1 error; nothing was written (there is no previous site).")


def test_a_lesson_of_a_section_may_take_such_a_name(tmp_path):
    content = make_site(tmp_path)
    (content / "basics" / "03-print.md").write_text("---\ntitle: Printing\n---\nOn paper.\n", encoding="utf-8")
    build_site(content, tmp_path / "out")
    assert "On paper." in (tmp_path / "out" / "basics" / "print.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("folder, url", [
    ("intro.html", "intro.html"),  # beside 01-intro.md
    ("print.html", "print.html"),
    ("Print.HTML", "Print.HTML"),  # the same file on a disk that ignores case
    ("notices.html", "notices.html"),
    ("404.html", "404.html"),
    ("index.html", "index.html"),
    ("sitemap.xml", "sitemap.xml"),
    ("_explorables", None),  # private: not a section, and the build's own folder stays its own
    ("basics/softmax.html", "basics/softmax.html"),  # beside basics/02-softmax.md
    ("basics/index.html", "basics/index.html"),
])
def test_a_section_folder_named_like_a_page_of_the_build_is_one_clear_error(tmp_path, folder, url):
    content = make_site(tmp_path)
    (content / folder).mkdir()
    (content / folder / "index.md").write_text(INDEX, encoding="utf-8")
    if url is None:
        build_site(content, tmp_path / "out")
        assert not (tmp_path / "out" / folder / "index.html").exists()
        return
    text = build_error(content, tmp_path / "out")
    stem = Path(folder).name.rsplit(".", 1)[0]
    assert text == (f"content/{folder}: the section folder {folder}/ has the name of a page the build writes ({url})\n"
                    f"    rename the folder, e.g. {stem}/\n"
                    "1 error; nothing was written (there is no previous site).")


def test_a_built_site_writes_at_its_top_only_the_reserved_names(tmp_path):
    content = make_site(tmp_path)
    (content.parent / "site.yml").write_text("title: Sections\nurl: https://example.org/s/\n", encoding="utf-8")
    build_site(content, tmp_path / "out")
    lessons = {"intro.html", "basics", "advanced"}  # the author's
    written = {p.name for p in (tmp_path / "out").iterdir()} - lessons
    assert written <= set(reserved.WRITTEN)
    assert {"index.html", "404.html", "notices.html", "sitemap.xml"} <= written
    assert {PRINT_PAGE, MARKER, ASSETS} <= set(reserved.WRITTEN)
    assert any(p.name.startswith("search-index.") for p in (tmp_path / "out" / ASSETS).iterdir())
