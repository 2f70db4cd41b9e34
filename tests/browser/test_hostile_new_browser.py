"""Today's new surface in Chromium, as a hostile or unlucky reader's browser holds it:
the reader's progress (static/js/progress.js) with a store it did not write.

A valid store of 4.6 MB (40,000 lessons the track does not have: another site's
leftovers under the same key, a tool's mistake, or planted) is read at every load and
kept for ever: progress.js keeps every lesson it finds, and copies and writes the whole
store at each change. Measured on this machine with tests/browser's Chromium, a lesson
of three screens read with the mouse wheel: a 460 ms task at load and eight tasks of
300-590 ms during fifteen wheel steps (none with an empty store). The test says what a fix
must hold (the store stops carrying what the track cannot use), not how fast it runs."""

from __future__ import annotations

import json

import pytest
from helpers import fresh_reader, progress_shown, served_site, write_content

STORAGE = "explorables-progress /"  # localStorage's key for a site served at the root
LONG = "---\ntitle: Long read\norder: 1\n---\n" + "".join(
    f"## Part {n}\n\n" + "A paragraph to read, line after line, with nothing to solve. " * 12 + "\n\n"
    for n in range(1, 13)
)


@pytest.fixture(scope="module")
def site_url(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hostile")
    write_content(folder, {"site.yml": 'title: "Hostile"\n', "index.md": "# Hostile\n\nOne lesson.\n",
                           "01-long-read.md": LONG})
    yield from served_site(folder)


@pytest.fixture
def reader(browser, site_url):
    yield from fresh_reader(browser, site_url)


def test_a_huge_store_of_lessons_the_track_does_not_have_is_not_carried_on(reader, site_url):
    page = reader
    junk = {
        "v": 1,
        "last": "",
        "lessons": {
            f"junk-{n}.html": {
                "visited": 1,
                "read": 0.5,
                "exercises": {"e": {"solved": False, "tries": 1}},
                "questions": {},
            }
            for n in range(40_000)
        },
    }
    # in the store before the page's first script runs (a page of this site open before would write its own)
    page.add_init_script(f"localStorage.setItem({json.dumps(STORAGE)}, {json.dumps(json.dumps(junk))})")
    page.goto(site_url + "long-read.html")
    progress_shown(page)
    page.mouse.move(600, 400)
    while not page.evaluate("() => scrollY + innerHeight >= document.documentElement.scrollHeight - 2"):
        y = page.evaluate("() => scrollY")
        page.mouse.wheel(0, 400)  # a reader reads on: each step of 1/20 read is a change, saved
        page.wait_for_function("y => scrollY > y", arg=y)
    page.wait_for_function("() => window.explorables.progress.status('long-read.html').read === 1")
    kept = page.evaluate("key => localStorage.getItem(key)", STORAGE)
    lessons = json.loads(kept)["lessons"]
    assert lessons["long-read.html"]["read"] == 1  # the reader's own progress is kept
    assert len(kept) < 64_000, f"the store still carries {len(lessons):,} lessons, {len(kept):,} characters"
