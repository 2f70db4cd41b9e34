"""A large site's parsed pages are kept small between parsing and rendering (commands/
slim.py): every step after parsing reads of the small page what it would of the whole,
the whole page renders as parse_page made it, with what the whole-site steps changed in
the small one, and the track built in a pool is the track built in one process."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest
from test_build_parallel import pooled, site, tree

from explorables.site_builder.commands import cache, parallel, slim
from explorables.site_builder.commands.build import build_site
from explorables.site_builder.markdown.ids import id_clashes
from explorables.site_builder.markdown.parser import create_parser, parse_page, render_page
from explorables.site_builder.output.scripts import engine_needs
from explorables.site_builder.output.track import lesson_of
from explorables.site_builder.structure.links import page_ids

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted((ROOT / "tests" / "fixtures" / "markdown").glob("*.md")) + sorted((ROOT / "content").glob("*.md"))
# what the fixtures lack: ids written as attributes, raw HTML with ids, footnotes, links
MORE = """---
title: More
---
## Ids [here]{#own-id}

<div id="raw-block">raw</div>

A <span id="raw-inline">span</span>, a note[^1] and [a link](other.md#top).

[^1]: The note.
"""


def _parsed(source: Path, raw_html: bool):
    md = create_parser(raw_html=raw_html)
    text = source.read_text(encoding="utf-8") if source.suffix == ".md" else MORE
    return md, lambda: parse_page(md, source, source.stem, text, content_root=source.parent)


def _later(page) -> tuple:
    """What every step after parsing reads of a page's tokens."""
    page.url = f"{page.slug}.html"
    return (
        page_ids(page),
        [err.format(ROOT) for err in id_clashes(page)],
        engine_needs(page, page),
        lesson_of(page),
        cache.summary([page]),
    )


@pytest.mark.parametrize("raw_html", [False, True])
@pytest.mark.parametrize("source", [*SOURCES, Path("more.txt")], ids=lambda p: p.name)
def test_a_small_page_stands_for_the_whole(source, raw_html):
    md, parse = _parsed(source, raw_html)
    whole, small = parse(), slim.join(*slim.split(parse()))
    assert len(small.tokens) < len(whole.tokens)
    assert _later(small) == _later(whole)
    assert render_page(md, slim.whole(small)) == render_page(md, whole)
    assert [e.format(ROOT) for e in small.errors] == [e.format(ROOT) for e in whole.errors]


def test_what_the_build_changes_in_the_small_page_is_rendered():
    """Links are rewritten, and figures marked as referenced, in the small page the build
    holds: the whole page the worker renders has them."""
    md, parse = _parsed(Path("more.txt"), False)
    small = slim.join(*slim.split(parse()))
    (link, _), *_ = small.env["links"]
    link.attrSet("href", "other.html#top")
    assert 'href="other.html#top"' in render_page(md, slim.whole(small))


def test_a_small_page_is_a_fraction_of_the_whole(tmp_path):
    """What the build holds of a lesson of prose, a table and code until it is rendered."""
    rows = "\n".join(f"| word {i} | {i / 4} |" for i in range(8))
    prose = "\n\n".join(f"Paragraph {i} has *words* and $q_{i} k$ in it, and more words." for i in range(12))
    source = tmp_path / "prose.md"
    source.write_text(f"# Prose\n\n## Words\n\n{prose}\n\n| a | b |\n|---|---|\n{rows}\n\n```python\nx = 1\n```\n")
    _, parse = _parsed(source, False)
    small, rest = slim.split(parse())
    assert len(small) < len(pickle.dumps(parse())) / 3
    assert len(rest) < len(pickle.dumps(parse())) / 3  # (compressed)


def test_the_track_built_in_a_pool_is_the_serial_build(tmp_path, monkeypatch):
    monkeypatch.setattr(parallel, "SERIAL_BELOW", 10**9)
    build_site(ROOT / "content", tmp_path / "serial")
    run = pooled(ROOT / "content", tmp_path / "pooled", 2)
    assert run["used"] == [2, 2]
    serial, in_pool = tree(tmp_path / "serial"), tree(tmp_path / "pooled")
    assert sorted(set(serial) ^ set(in_pool)) == []
    assert [name for name in serial if serial[name] != in_pool[name]] == []


def test_a_pooled_build_kept_in_the_cache_builds_an_edit_alike(tmp_path, monkeypatch):
    """The build cache keeps a pooled build's pages small (both pickles): a rebuild after
    one lesson's edit takes the others from it, and writes what a build from nothing writes."""
    content = site(tmp_path / "site")
    monkeypatch.setenv("EXPLORABLES_CACHE", str(tmp_path / "cache"))
    pooled(content, tmp_path / "pooled", 2)
    lesson = content / "basics" / "10-part-0.md"
    lesson.write_text(lesson.read_text(encoding="utf-8") + "\nOne more sentence.\n", encoding="utf-8")
    run = pooled(content, tmp_path / "pooled", 2)
    assert run["used"] == [2, 2] and run["fed"] == 0  # the edited page in the pool, the others from the cache
    monkeypatch.setenv("EXPLORABLES_CACHE", "off")
    monkeypatch.setattr(parallel, "SERIAL_BELOW", 10**9)
    build_site(content, tmp_path / "serial")
    serial, in_pool = tree(tmp_path / "serial"), tree(tmp_path / "pooled")
    assert any(b"One more sentence." in page for page in in_pool.values())
    assert [name for name in serial if serial[name] != in_pool.get(name)] == []
