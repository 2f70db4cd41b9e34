"""A small site with sections, written into a temporary folder by the section tests
(build, browser and bundle): a lesson at the top, two sections (one with a section
inside it), a live figure and a numbered image in a section's lesson."""
from __future__ import annotations

from pathlib import Path

DOT = ('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20" viewBox="0 0 40 20">'
       '<circle cx="10" cy="10" r="8"/></svg>')

FILES = {
    "site.yml": "title: Sections\n",
    "index.md": "---\ntitle: Welcome\n---\nStart with the [introduction](01-intro.md).\n",
    "01-intro.md": "---\ntitle: Intro\norder: 1\n---\nFirst words. Then [softmax](basics/02-softmax.md#why).\n",
    "basics/index.md": "---\ntitle: Basics\norder: 2\nsummary: The first steps.\n---\nWhat attention computes.\n",
    "basics/02-softmax.md": (
        "---\ntitle: Softmax\norder: 2\n---\n## Why\n\n"
        ":::{figure} img/dot.svg\n:alt: A black dot\n:name: dot\nA dot, for scale.\n:::\n\n"
        ":::{attention-row} explorer\n:caption: One query row.\n:::\n\n"
        "See {numref}`dot` and {numref}`explorer`; [](#explorer) again. Back to [scores](01-scores.md).\n"),
    "basics/01-scores.md": ("---\ntitle: Scores\norder: 1\n---\nScores first. Back to [the intro](../01-intro.md).\n\n"
                            "![a dot](img/dot.svg)\n"),
    "basics/img/dot.svg": DOT,
    "advanced/index.md": "---\ntitle: Advanced\norder: 3\n---\nFurther on.\n",
    "advanced/01-heads.md": "---\ntitle: Heads\norder: 1\n---\nSeveral heads.\n",
    "advanced/deeper/index.md": "---\ntitle: Deeper\norder: 2\n---\nDeeper still.\n",
    "advanced/deeper/01-more.md": "---\ntitle: More\n---\nMore of it.\n",
}

# The pages prev/next walk, from the first lesson on (the site's index is the start).
READING = ["intro.html", "basics/index.html", "basics/scores.html", "basics/softmax.html", "advanced/index.html",
           "advanced/heads.html", "advanced/deeper/index.html", "advanced/deeper/more.html"]


def make_site(folder: Path) -> Path:
    """Write the site's content/ into ``folder``; return the content folder."""
    content = Path(folder) / "content"
    for name, text in FILES.items():
        path = content / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return content
