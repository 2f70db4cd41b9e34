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
it, which a new deploy keeps. An exercise is named by its id in the page (its ``:name:``,
or ``ex-`` and its place); a question by ``q-`` and its place among the page's questions,
which is how js/exercise.js names it when the reader opens its answer.

The words the progress marks say (``page.progress_*``, by language) come with it: they
are needed after the first frame only, so they do not swell every page's words block.
"""

from __future__ import annotations

import json
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


class Lesson(TypedDict):
    url: str  # the page key: its path from the site's root ('basics/softmax.html')
    title: str
    exercises: list[str]  # ids, in the page's order
    questions: list[str]  # 'q-1', 'q-2', ... in the page's order


def lesson_of(page: Page) -> Lesson:
    """What the reader's progress knows of one page: its key, title, exercises and questions."""
    exercises = [token.meta["id"] for token in page.tokens if token.type == "exercise_open"]
    questions = [f"q-{token.meta['number']}" for token in page.tokens if token.type == "question_open"]
    return {"url": page.url, "title": page.title, "exercises": exercises, "questions": questions}


def track_data(reading: list, language: str, messages: dict[str, str]) -> dict:
    """{"lessons": [...], "words": {...}} for the pages prev/next walk (lessons and
    sections' pages, in reading order: ``Parsed.reading``); the site's own index is the
    start, not a lesson. The words are the site's ``messages`` in its ``language``, and
    the shipped catalogue's in any other language a page is written in."""
    pages = [entry.page for entry in reading if entry.page is not None]
    words = {language: {key: messages.get(key, locale.ENGLISH[key]) for key in WORDS}}
    for page in pages:
        other = page.env.get("language") or language
        if other not in words:
            shipped = locale.resolve(other)[0]
            words[other] = {key: shipped[key] for key in WORDS}
    return {"lessons": [lesson_of(page) for page in pages], "words": words}


def track_script(data: dict) -> str:
    """The classic script that hands ``data`` to the page."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return f"window.explorablesTrack = {text};\n"


def write_track(assets: Path, reading: list, language: str, messages: dict[str, str]) -> None:
    """Write the track's data into ``assets`` (the asset folder, before it is hashed)."""
    (assets / TRACK_FILE).write_text(track_script(track_data(reading, language, messages)), encoding="utf-8")
