"""The track's data for the reader's progress (site_builder/output/track.py): every lesson
and section page in reading order, with its exercises and questions by the ids the
page gives them, written as a hashed classic script that each page's asset map names."""

from __future__ import annotations

import json
import re

import pytest
import sections_site

from explorables.site_builder.commands.build import build_site
from explorables.site_builder.output import track
from explorables.site_builder.output.assets import names_in

EXERCISES = """---
title: Softmax
order: 2
---
## Why

:::{exercise} softmax-weight
:seed: 2
:name: constructor
:::

::::{question} What do the weights add up to?
One.
::::

:::{exercise} output-vector
:seed: 5
:::

::::{question} And with the mask?
Still one.
::::

:::{exercise} softmax-weight
:seed: 4
:name: hasOwnProperty
:::
"""


def track_of(site) -> dict:
    """The data the built site's track script hands the page, read as the browser would."""
    name = names_in(site)["track.js"]
    script = (site / "_explorables" / name).read_text(encoding="utf-8")
    match = re.fullmatch(r"window\.explorablesTrack = (.*);\n", script, re.S)
    assert match, script[:200]
    return json.loads(match.group(1))


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    folder = tmp_path_factory.mktemp("track")
    content = sections_site.make_site(folder)
    (content / "basics" / "02-softmax.md").write_text(EXERCISES, encoding="utf-8")
    (content / "01-intro.md").write_text(
        "---\ntitle: Intro\norder: 1\n---\n::::{question} Why?\nBecause.\n::::\n", encoding="utf-8"
    )
    build_site(content, folder / "_site")
    return folder / "_site"


def test_every_lesson_and_section_page_is_listed_in_reading_order(site):
    lessons = track_of(site)["lessons"]
    assert [lesson["url"] for lesson in lessons] == sections_site.READING
    assert [lesson["title"] for lesson in lessons] == [
        "Intro",
        "Basics",
        "Scores",
        "Softmax",
        "Advanced",
        "Heads",
        "Deeper",
        "More",
    ]
    assert "index.html" not in [lesson["url"] for lesson in lessons]  # the start, not a lesson


def test_exercises_and_questions_are_named_as_the_page_names_them(site):
    lessons = {lesson["url"]: lesson for lesson in track_of(site)["lessons"]}
    softmax = lessons["basics/softmax.html"]
    assert softmax["exercises"] == ["constructor", "ex-2", "hasOwnProperty"]
    assert softmax["questions"] == ["q-1", "q-2"]
    assert lessons["intro.html"] == {"url": "intro.html", "title": "Intro", "exercises": [], "questions": ["q-1"]}
    assert lessons["basics/scores.html"]["exercises"] == lessons["basics/scores.html"]["questions"] == []
    html = (site / "basics" / "softmax.html").read_text(encoding="utf-8")
    for ident in softmax["exercises"]:
        assert f'class="ex-exercise" id="{ident}"' in html
    assert html.count('<details class="ex-question">') == len(softmax["questions"])


def test_each_page_names_the_track_script_in_its_asset_map(site):
    name = names_in(site)["track.js"]
    assert re.fullmatch(r"track\.[0-9a-f]+\.js", name)
    for page in ("index.html", "intro.html", "basics/softmax.html"):
        html = (site / page).read_text(encoding="utf-8")
        manifest = json.loads(re.search(r'<script type="application/json" id="ex-build">(.*?)</script>', html).group(1))
        assert manifest["assets"]["track"] == name


def test_the_track_script_changes_with_the_lessons_and_nothing_else(site, tmp_path):
    """Its name is its content's hash: a page's new exercise is a new file."""
    content = sections_site.make_site(tmp_path)
    (content / "basics" / "02-softmax.md").write_text(EXERCISES, encoding="utf-8")
    (content / "01-intro.md").write_text(
        "---\ntitle: Intro\norder: 1\n---\n::::{question} Why?\nBecause.\n::::\n", encoding="utf-8"
    )
    build_site(content, tmp_path / "same")
    assert names_in(tmp_path / "same")["track.js"] == names_in(site)["track.js"]
    (content / "01-intro.md").write_text("---\ntitle: Intro\norder: 1\n---\nNo question now.\n", encoding="utf-8")
    build_site(content, tmp_path / "changed")
    assert names_in(tmp_path / "changed")["track.js"] != names_in(site)["track.js"]
    assert track_of(tmp_path / "changed")["lessons"][0]["questions"] == []


def test_the_marks_words_come_with_it_in_the_site_s_language(site, tmp_path):
    """They are needed after the first frame only: not in every page's words block."""
    words = track_of(site)["words"]
    assert list(words) == ["en"] and set(words["en"]) == set(track.WORDS)
    assert words["en"]["page.progress_exercises"] == "{solved} of {total} exercises"
    content = tmp_path / "content"
    content.mkdir()
    (content / "site.yml").write_text("title: Fortschritt\nlanguage: de\n", encoding="utf-8")
    (content / "01-eins.md").write_text("---\ntitle: Eins\n---\nText.\n", encoding="utf-8")
    build_site(content, tmp_path / "_site")
    german = track_of(tmp_path / "_site")["words"]
    assert list(german) == ["de"] and german["de"]["page.progress_visited"] == "Besucht"
    html = (tmp_path / "_site" / "eins.html").read_text(encoding="utf-8")
    assert "page.progress_" not in html and "Besucht" not in html
