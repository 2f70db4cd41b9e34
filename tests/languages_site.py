"""A site in three languages (site.yml ``languages: [en, de, he]``), for the tests of
test_languages*.py and browser/test_languages*.py: English, German and Hebrew lessons,
one figures/ folder (the guide's own figure with its words in locales/), and one lesson,
heads, missing in German. ``served`` builds it once for the browser tests' process, with
a lesson of exercises more and its search index split into small parts."""

from __future__ import annotations

from pathlib import Path

import pytest
from author_site import write_site

from explorables.site_builder.authors import loader
from explorables.site_builder.commands.build import build_site
from explorables.site_builder.output import search_files

ROOT = Path(__file__).resolve().parents[1]
WORDS = ROOT / "tests" / "fixtures" / "words"  # figures/shares.py and locales/{en,de}.json

SITE_YML = "title: Three languages\nlanguages: [en, de, he]\nurl: https://example.org/course/\n"

ROW = ":::{{attention-row}} row\n:query: {query}\n:::\n"
SHARES = ":::{shares} anteile\n:a: 3\n:::\n"


def lesson(title: str, order: int, text: str, figure: str = "") -> str:
    return f"---\ntitle: {title}\norder: {order}\n---\n\n{text}\n\n{figure}"


LESSONS = {
    "index.md": "---\ntitle: Welcome\n---\n\nThree lessons about attention: [rows](01-rows.md).\n",
    "01-rows.md": lesson("Rows of attention", 1, "One word asks, every word answers.", ROW.format(query="chased")),
    "02-shares.md": lesson("Shares of weight", 2, "Softmax shares the weight out.", SHARES),
    "03-heads.md": lesson("Several heads", 3, "Several heads look at once."),
    "de/index.md": "---\ntitle: Willkommen\n---\n\nDrei Lektionen: [Zeilen](01-rows.md), [Köpfe](03-heads.md).\n",
    "de/01-rows.md": lesson(
        "Zeilen der Aufmerksamkeit", 1, "Ein Wort fragt, alle antworten.", ROW.format(query="chased")
    ),
    "de/02-shares.md": lesson("Anteile am Gewicht", 2, "Die Softmax verteilt das Gewicht.", SHARES),
    "he/index.md": "---\ntitle: ברוכים הבאים\n---\n\nשלושה שיעורים על קשב.\n",
    "he/01-rows.md": lesson("שורות של קשב", 1, "מילה אחת שואלת, כל המילים עונות.", ROW.format(query="chased")),
    "he/02-shares.md": lesson("חלקי המשקל", 2, "הסופטמקס מחלק את המשקל.", SHARES),
    "he/03-heads.md": lesson("כמה ראשים", 3, "כמה ראשים מסתכלים יחד."),
}


def make_site(folder: Path, site_yml: str = SITE_YML, lessons: dict[str, str] | None = None) -> Path:
    """Write the site into ``folder`` (which must not exist); returns its content folder."""
    site = write_site(folder, site_yml=site_yml, lessons=lessons or LESSONS, copy=WORDS)
    return site / "content"


DRILLS = """---
title: {title}
order: 4
---
{text}

:::{{exercise}} softmax-weight
:seed: 2
:name: weight
:::

:::{{exercise}} softmax-weight
:seed: 4
:name: again
:::
"""
BROWSER_LESSONS = {  # a lesson of two exercises in English and German (Hebrew shows the English)
    **LESSONS,
    "04-drills.md": DRILLS.format(title="Drills", text="Two exercises."),
    "de/04-drills.md": DRILLS.format(title="Übungen", text="Zwei Übungen."),
}
_SERVED: dict[str, tuple[str, Path]] = {}


def served(tmp_path_factory) -> tuple[str, Path]:
    """The site of BROWSER_LESSONS, built and served once for the test process (the
    browser modules share it: one build, one origin): (its address, its site folder).
    Its search index is split in every language (into parts of a few lessons each)."""
    if not _SERVED:
        from conftest import serve_folder  # noqa: PLC0415 (the browser tests' conftest, not the others')

        content = make_site(tmp_path_factory.mktemp("languages-served") / "site", lessons=BROWSER_LESSONS)
        try:
            with pytest.MonkeyPatch.context() as patch:
                patch.setattr(search_files, "SPLIT_ABOVE", 0)
                patch.setattr(search_files, "PART_SIZE", 200)
                patch.setattr(search_files, "DOCS_PER_PART", 2)
                build_site(content, content.parent / "_site")
        finally:
            loader.unload()  # the author's figures, which the build registered: the server needs none
        server = serve_folder(content.parent / "_site")  # a daemon: it ends with the process
        _SERVED["site"] = (f"http://127.0.0.1:{server.server_address[1]}/", content.parent)
    return _SERVED["site"]
