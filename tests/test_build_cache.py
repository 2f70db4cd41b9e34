"""The build cache (commands/cache.py): a build of an unchanged site into the folder that
holds it does nothing; each page's parse and body are kept, so an edit parses and
renders again what it must and no more, and the site is the one a build without the
cache writes; a change of the tool makes everything again."""
from __future__ import annotations

from pathlib import Path

import pytest

from explorables.site_builder.commands import build as build_module
from explorables.site_builder.commands import cache
from explorables.site_builder.commands.build import build_site
from sections_site import READING, make_site


@pytest.fixture
def counted(tmp_path, monkeypatch):
    """A site, a cache of its own, and the pages parsed and rendered by each build."""
    monkeypatch.setenv("EXPLORABLES_CACHE", str(tmp_path / "cache"))
    tool = cache.tool()  # the tool as it is now, whatever else changes its files meanwhile
    monkeypatch.setattr(cache, "tool", lambda: tool)
    calls = {"parse": [], "render": []}
    parse, render = build_module.parse_page, build_module.render_page

    def counting_parse(md, path, *args, **kwargs):
        calls["parse"].append(path.name)
        return parse(md, path, *args, **kwargs)

    def counting_render(md, page):
        calls["render"].append(page.path.name)
        return render(md, page)

    monkeypatch.setattr(build_module, "parse_page", counting_parse)
    monkeypatch.setattr(build_module, "render_page", counting_render)

    def build(out: str = "_site") -> dict[str, list[str]]:
        calls["parse"].clear()
        calls["render"].clear()
        build_site(content, tmp_path / out)
        return {name: sorted(found) for name, found in calls.items()}

    content = make_site(tmp_path)
    return content, tmp_path, build


def tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def stamps(folder: Path) -> dict[str, int]:
    return {p.relative_to(folder).as_posix(): p.stat().st_mtime_ns for p in folder.rglob("*") if p.is_file()}


def test_an_unchanged_site_is_not_built_again(counted):
    content, folder, build = counted
    first = build()
    assert len(first["parse"]) == len(READING) + 1 and len(first["render"]) == len(READING) + 1
    before = stamps(folder / "_site")
    assert build() == {"parse": [], "render": []}
    assert stamps(folder / "_site") == before  # not a file written
    (folder / "_site" / "intro.html").write_text("changed by hand")
    assert build() == {"parse": [], "render": []}  # built again, from the pages kept
    assert "changed by hand" not in (folder / "_site" / "intro.html").read_text()


def test_an_edit_makes_again_what_it_must(counted, monkeypatch):
    content, folder, build = counted
    build()
    lesson = content / "basics" / "02-softmax.md"
    lesson.write_text(lesson.read_text() + "\nOne more sentence.\n")
    assert build() == {"parse": ["02-softmax.md"], "render": ["02-softmax.md"]}
    assert "One more sentence." in (folder / "_site" / "basics" / "softmax.html").read_text()
    # a new title: the pages that show it (the pager of its neighbours, the menus) change
    lesson.write_text(lesson.read_text().replace("title: Softmax", "title: The softmax"))
    made = build()
    assert made["parse"] == ["02-softmax.md"] and len(made["render"]) == len(READING) + 1
    assert "The softmax" in (folder / "_site" / "basics" / "scores.html").read_text()  # its neighbour's pager
    assert "The softmax" in (folder / "_site" / "basics" / "index.html").read_text()
    # what the cache made is what a build without it makes
    monkeypatch.setenv("EXPLORABLES_CACHE", "off")
    build("_plain")
    assert tree(folder / "_site") == tree(folder / "_plain")


def test_a_change_of_the_tool_makes_everything_again(counted, monkeypatch):
    content, folder, build = counted
    build()
    tool = cache.tool()
    monkeypatch.setattr(cache, "tool", lambda: tool + "-changed")
    made = build()
    assert len(made["parse"]) == len(READING) + 1 and len(made["render"]) == len(READING) + 1


def test_the_tool_s_key_is_made_of_its_files(tmp_path):
    assert cache.hash_files([tmp_path]) == cache.hash_files([tmp_path])
    (tmp_path / "a.py").write_text("one")
    first = cache.hash_files([tmp_path])
    (tmp_path / "a.py").write_text("two")
    assert cache.hash_files([tmp_path]) != first
    assert {cache.BUILDER, cache.STATIC, cache.ENGINE} <= set(cache.TOOL_FOLDERS)


def test_a_cache_that_cannot_be_written_is_passed_by(counted, monkeypatch):
    content, folder, build = counted
    (folder / "cache").write_text("a file where the cache's folder would be")
    made = build()
    assert len(made["parse"]) == len(READING) + 1
    assert (folder / "_site" / "basics" / "softmax.html").is_file()
