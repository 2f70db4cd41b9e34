"""A small site for the SCORM package's tests (tests/test_scorm.py and
tests/browser/test_scorm.py): a front page, a lesson with two exercises and a lesson
with none but a long text and a question, which a reader completes by reading it to
the end. ``make_package`` bundles it with --scorm and unzips it.

tests/ is no package, so the tests import this module at the top level."""

from __future__ import annotations

import zipfile
from pathlib import Path

from author_site import write_site

from explorables.site_builder.commands.cli import main

TITLE = "Sums by hand"
EXERCISES = "scores.html"  # page keys: the build drops the number that orders them
READING = "reading.html"

LESSONS = {
    "index.md": "# Sums by hand\n\nStart with [the scores](01-scores.md).\n",
    "01-scores.md": """---
title: Scores
order: 1
---
A score is a dot product, scaled.

:::{exercise} scaled-score
:seed: 4
:::

:::{exercise} softmax-weight
:seed: 3
:::
""",
    "02-reading.md": "---\ntitle: Reading\norder: 2\n---\n"
    + "".join(f"Paragraph {n} of a lesson read to its end, with no exercise in it.\n\n" for n in range(1, 61))
    + "::::{question} What completes this lesson?\nReading it to the end.\n::::\n\nThe end.\n",
}


def make_package(folder: Path) -> tuple[Path, Path]:
    """The site written into ``folder``/site, bundled as a SCORM package by the command
    a teacher types, and unzipped into ``folder``/package: (the zip, the unzipped folder)."""
    site = write_site(folder / "site", site_yml=f'title: "{TITLE}"\n', lessons=LESSONS)
    package = folder / "sums-scorm.zip"
    assert main(["bundle", str(site / "content"), "--scorm", "-o", str(package)]) == 0
    with zipfile.ZipFile(package) as archive:
        archive.extractall(folder / "package")
    return package, folder / "package"
