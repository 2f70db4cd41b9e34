"""The track's data for the reader's progress: which pages are lessons, in reading order,
and the exercises and check-yourself questions each holds.

The build writes it as ``track.HASH.js`` in the site's asset folder, a classic script of
data that sets ``window.explorablesTrack``; the page's asset map names it (key
``track``), and js/progress.js loads it after the first frame, from a server and from an
offline bundle on disk alike (file:// pages may not fetch, but may load scripts)::

    window.explorablesTrack = {"lessons": [
      {"url": "02-attention-heatmap.html", "title": "Attention as a table",
       "exercises": ["heatmap-entropy", "ex-2"], "questions": ["q-1", "q-2"]}, ...],
      "words": {"en": {"page.progress_visited": "Visited", ...}}}

A lesson's ``url`` is its page key: its path from the site's root, as the build writes
it, which a new deploy keeps. In a site of several languages a lesson's copy in another
language's tree also names that ``language`` and, when the default language has the
same page, the ``lesson`` it translates (that page's key): the reader's progress is kept
by the lesson, so that what is solved in one language shows in every other::

    {"url": "de/02-attention-heatmap.html", "lesson": "02-attention-heatmap.html",
     "language": "de", "title": "Aufmerksamkeit als Tabelle", ...}
 An exercise is named by its id in the page (its ``:name:``,
or ``ex-`` and its place); a question by ``q-`` and its place among the page's questions,
which is how js/exercise.js names it when the reader opens its answer.

The words the progress marks say (``page.progress_*``, by language) come with it: they
are needed after the first frame only, so they do not swell every page's words block.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TypedDict

from ...engine import locale
from ..markdown.parser import Page

TRACK_FILE = "track.js"  # in the asset folder, before its name is hashed (assets.SCRIPT_KEYS["track"])
# What js/progress-marks.js says, from the tool's catalogues (and the site's own).
WORDS = (
    "page.progress_visited",
    "page.progress_complete",
    "page.progress_exercise",
    "page.progress_exercises",
    "page.progress_continue",
    "page.progress_solved",
    "page.progress_solved_first",
    "page.progress_forget",
    "page.progress_forget_ask",
    "page.progress_forget_yes",
    "page.progress_forget_no",
    "page.progress_forgotten",
)


class Lesson(TypedDict, total=False):
    url: str  # the page key: its path from the site's root ('basics/softmax.html')
    lesson: str  # in another language's tree: the default language's page key it translates
    language: str  # in another language's tree: its code ('de')
    title: str
    exercises: list[str]  # ids, in the page's order
    questions: list[str]  # 'q-1', 'q-2', ... in the page's order


def lesson_of(page: Page) -> Lesson:
    """What the reader's progress knows of one page: its key, title, exercises and questions."""
    exercises = [token.meta["id"] for token in page.tokens if token.type == "exercise_open"]
    questions = [f"q-{token.meta['number']}" for token in page.tokens if token.type == "question_open"]
    return {"url": page.url, "title": page.title, "exercises": exercises, "questions": questions}


def track_data(reading: list, language: str, messages: dict[str, str], languages: Sequence[str] = ()) -> dict:
    """{"lessons": [...], "words": {...}} for the pages prev/next walk (lessons and
    sections' pages, in reading order: ``Parsed.reading``); the site's own index is the
    start, not a lesson. The words are the site's ``messages`` in its ``language``, and
    the shipped catalogue's in any other language a page is written in. ``languages``:
    a site's in several (site.yml), whose trees (``de/``) hold translations."""
    pages = [entry.page for entry in reading if entry.page is not None]
    words = {language: {key: messages.get(key, locale.ENGLISH[key]) for key in WORDS}}
    for other in [*(page.env.get("language") or language for page in pages), *languages]:
        if other not in words:
            shipped = locale.resolve(other)[0]
            words[other] = {key: shipped[key] for key in WORDS}
    lessons = [lesson_of(page) for page in pages]
    return {"lessons": _translations(lessons, language, languages), "words": words}


def _translations(lessons: list[Lesson], language: str, languages: Sequence[str]) -> list[Lesson]:
    """``lessons`` with the ``language`` of each page in another language's tree (a page
    of ``de/``, its own or the default's stand-in) and the ``lesson`` of the default
    language it translates, when that language has the same page (``de/rows.html``:
    ``rows.html``)."""
    codes = {code + "/": code for code in languages if code != language}
    if not codes:
        return lessons
    tree = {lesson["url"]: next((c for c in codes if lesson["url"].startswith(c)), "") for lesson in lessons}
    defaults = {url for url, prefix in tree.items() if not prefix}
    found = []
    for lesson in lessons:
        prefix = tree[lesson["url"]]
        if not prefix:
            found.append(lesson)
            continue
        key = lesson["url"].removeprefix(prefix)
        ahead: Lesson = {"url": lesson["url"], "language": codes[prefix]}
        if key in defaults:
            ahead["lesson"] = key
        found.append({**ahead, **lesson})
    return found


def track_script(data: dict) -> str:
    """The classic script that hands ``data`` to the page."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return f"window.explorablesTrack = {text};\n"


def write_track(
    assets: Path, reading: list, language: str, messages: dict[str, str], languages: Sequence[str] = ()
) -> None:
    """Write the track's data into ``assets`` (the asset folder, before it is hashed)."""
    data = track_data(reading, language, messages, languages)
    (assets / TRACK_FILE).write_text(track_script(data), encoding="utf-8")
