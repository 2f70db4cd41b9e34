"""print.html holds its exercises on paper (site_builder/output/printpage.py).

On print.html an exercise's Check button submitted its form as a plain GET: the page
reloaded as print.html? at its top and the answer was lost (the page runs no exercise
script). Exercises are now on paper there: the problem, a blank line, no form.
"""
from __future__ import annotations

import re
from pathlib import Path

from explorables.site_builder.output.printpage import BLANK, on_paper

CONTENT = Path(__file__).resolve().parent.parent / "content"
# every lesson of the track, in order: "01-one-query-row.md" is the page one-query-row.html
LESSONS = [path.stem.split("-", 1)[1] for path in sorted(CONTENT.glob("[0-9]*.md"))]


def _exercises(html: str) -> list[str]:
    return re.findall(r'<div class="ex-exercise".*?\n</div>\n', html, re.S)


def test_print_html_has_no_exercise_form_to_submit(built_site):
    printed = (built_site / "print.html").read_text(encoding="utf-8")
    lessons = [(built_site / f"{name}.html").read_text(encoding="utf-8") for name in LESSONS]
    on_lessons = [block for html in lessons for block in _exercises(html)]
    on_paper_ = _exercises(printed)
    assert len(on_paper_) == len(on_lessons) >= 3
    assert "<form" not in printed and "<input" not in printed
    assert 'type="submit"' not in printed and "ex-exercise-data" not in printed and "ex-new-numbers" not in printed
    for live, paper in zip(on_lessons, on_paper_):
        assert '<form class="ex-answer"' in live  # the lesson keeps its live exercise
        problem = re.search(r'<p class="ex-problem">.*?</p>\n', live, re.S).group()
        assert problem in paper  # the question and its numbers, as the lesson shows them
        form = re.search(r'placeholder="([^"]*)"', live).group(1)
        assert f'<p class="ex-answer-line">Your answer: <span aria-hidden="true">{BLANK}</span> <small>({form})</small></p>' \
            in paper
        label = re.search(r'aria-labelledby="([^"]*)"', paper).group(1)
        assert re.search(rf'<p class="ex-exercise-label" id="{label}">Exercise \d+</p>', paper)
        assert label.startswith(tuple(f"{name}--" for name in LESSONS))


def test_on_paper_leaves_everything_but_an_exercise_s_live_part_alone(built_site):
    row = (built_site / "one-query-row.html").read_text(encoding="utf-8")
    body = row.split("<main", 1)[1]
    paper = on_paper(body)
    assert on_paper(paper) == paper
    lives, papers = _exercises(body), _exercises(paper)
    assert len(papers) == len(lives) >= 1
    for live, printed in zip(lives, papers, strict=True):
        body, paper = body.replace(live, "", 1), paper.replace(printed, "", 1)
    assert paper == body  # everything but the exercises' live parts is left as it was

