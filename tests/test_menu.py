"""The menu of a large site: a page carries its own section open and every other section
folded to one entry leading to its page; a level longer than a page should carry shows
the entries about the reader's and a "…" entry for the rest, so that a lesson's page
weighs what it weighs in a small site. (The small site with sections: test_sections.py.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from explorables.site_builder.commands.build import build_site
from explorables.site_builder.output.pages import MENU_AROUND, MENU_LESSONS, MENU_SECTIONS

LESSON = "---\ntitle: Lesson {n}\norder: {n}\n---\n## Words\n\nThe text of lesson {n}, with $q \\cdot k$.\n"


def make_site(folder: Path, sections: int, long: int = 1) -> Path:
    """``sections`` folders of one lesson each, the first holding ``long`` lessons."""
    content = folder / "content"
    content.mkdir(parents=True)
    (content / "site.yml").write_text("title: Menu\n")
    (content / "index.md").write_text("---\ntitle: Menu\n---\nEvery part.\n")
    for s in range(1, sections + 1):
        part = content / f"{s:03d}-part"
        part.mkdir()
        (part / "index.md").write_text(f"---\ntitle: Part {s}\norder: {s}\n---\nPart {s}.\n")
        for n in range(1, (long if s == 1 else 1) + 1):
            (part / f"{n:03d}-lesson-{n}.md").write_text(LESSON.format(n=n))
    return content


def nav_of(html: str) -> str:
    return html[html.index('<nav class="ex-nav') : html.index("</nav>")]


@pytest.fixture(scope="module")
def sites(tmp_path_factory):
    small, large = tmp_path_factory.mktemp("small"), tmp_path_factory.mktemp("large")
    build_site(make_site(small, 2, long=3), small / "_site")
    build_site(make_site(large, MENU_SECTIONS * 3, long=MENU_LESSONS + 10), large / "_site")
    return small / "_site", large / "_site"


def test_other_sections_are_one_entry_each_leading_to_their_page(sites):
    small, _ = sites
    nav = nav_of((small / "001-part" / "lesson-1.html").read_text())
    assert nav.count("<details") == 2  # the phone's fold and the reader's section
    assert re.findall(r'<li class="ex-nav-section ex-nav-folded"><a href="([^"]+)">([^<]+)</a>', nav) == [
        ("../002-part/index.html", "Part 2")
    ]
    assert "../002-part/lesson-1.html" not in nav  # its lessons are on its page
    listed = (small / "002-part" / "index.html").read_text()
    assert 'href="../002-part/lesson-1.html"' in listed.split("</header>", 1)[1]


def test_a_long_level_shows_the_entries_about_the_reader_s_and_leads_to_the_rest(sites):
    _, large = sites
    here = f"{1 + MENU_AROUND:03d}"  # the last part whose window starts at the first
    nav = nav_of((large / f"{here}-part" / "lesson-1.html").read_text())
    folded = re.findall(r'ex-nav-folded"><a href="\.\./(\d+)-part/index.html"', nav)
    around = sorted([*folded, here])
    assert len(around) == 2 * MENU_AROUND + 1 and around[0] == "001" and here in around
    more = re.findall(r'<li class="ex-nav-more"><a href="([^"]+)" aria-label="Overview: ([^"]+)">…</a>', nav)
    assert more == [("../index.html", "Menu")]  # only after: the window starts at the first part
    middle = nav_of((large / "020-part" / "lesson-1.html").read_text())
    kept = re.findall(r'href="\.\./(\d+)-part/index.html"', middle)
    assert sorted(set(kept)) == [f"{n:03d}" for n in range(20 - MENU_AROUND, 20 + MENU_AROUND + 1)]
    assert middle.count('class="ex-nav-more"') == 2
    # a section with more lessons than a page carries: the reader's and its neighbours
    lessons = nav_of((large / "001-part" / "lesson-1.html").read_text())
    assert lessons.count('class="ex-nav-number"') == 2 * MENU_AROUND + 1
    assert 'href="../001-part/index.html" aria-label="Overview: Part 1">…</a>' in lessons


def test_a_lesson_weighs_in_a_large_site_what_it_weighs_in_a_small_one(sites):
    small, large = sites
    a = len((small / "002-part" / "lesson-1.html").read_bytes())
    b = len((large / "002-part" / "lesson-1.html").read_bytes())
    assert b <= 1.1 * a, (a, b)
    front = (large / "index.html").read_text()
    assert front.count('href="036-part/index.html"') >= 1  # the front page lists every part
