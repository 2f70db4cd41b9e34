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
from explorables.site_builder.errors import BuildError
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


def test_a_dangling_link_fails_the_build_as_without_the_cache(counted, monkeypatch):
    """Pins a bug: a link to nowhere added after a build went unseen (the site was taken
    as built), where a build without the cache fails on it."""
    content, folder, build = counted
    build()
    before = tree(folder / "_site")
    (content / "03-x.md").symlink_to("nowhere.md")
    with pytest.raises(BuildError) as cached:
        build()
    assert tree(folder / "_site") == before  # the last good site, untouched
    monkeypatch.setenv("EXPLORABLES_CACHE", "off")
    with pytest.raises(BuildError) as plain:
        build()
    assert str(cached.value) == str(plain.value)
    assert "03-x.md is a symbolic link to nowhere.md, which does not exist" in str(cached.value)


def test_a_link_to_a_section_added_after_a_build_is_built(counted, monkeypatch):
    """Pins a bug: a link standing for a section, added after a build, was not followed,
    so the site was taken as built without it."""
    content, folder, build = counted
    build()
    (content / "again").symlink_to("basics")
    made = build()
    assert "index.md" in made["parse"] and "02-softmax.md" in made["parse"]
    assert (folder / "_site" / "again" / "index.html").is_file()
    assert (folder / "_site" / "again" / "softmax.html").is_file()
    monkeypatch.setenv("EXPLORABLES_CACHE", "off")
    build("_plain")
    assert tree(folder / "_site") == tree(folder / "_plain")


def test_an_edit_inside_a_linked_folder_is_built(counted):
    """Pins a bug: a file reached only through a linked folder was not part of the key."""
    content, folder, build = counted
    shared = content / ".shared"  # a hidden folder: read only through the link
    shared.mkdir()
    (shared / "index.md").write_text("---\ntitle: Shared\norder: 4\n---\nFirst words.\n")
    (content / "shared").symlink_to(".shared")
    build()
    assert "First words." in (folder / "_site" / "shared" / "index.html").read_text()
    (shared / "index.md").write_text("---\ntitle: Shared\norder: 4\n---\nOther words.\n")
    assert build()["parse"] == ["index.md"]
    assert "Other words." in (folder / "_site" / "shared" / "index.html").read_text()


def test_a_link_is_part_of_the_key_and_a_loop_ends(tmp_path):
    """Each link's path and the path it holds are part of the key; a link to a folder is
    followed while it stays inside the folder hashed, and never back into a folder above it."""
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "one.md").write_text("one")
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "one.md").write_text("one")
    first = cache.hash_files([tmp_path])
    (tmp_path / "gone.md").symlink_to("nowhere.md")
    dangling = cache.hash_files([tmp_path])
    assert dangling != first
    (tmp_path / "gone.md").unlink()
    (tmp_path / "gone.md").symlink_to("elsewhere.md")
    assert cache.hash_files([tmp_path]) not in (first, dangling)
    (tmp_path / "gone.md").unlink()
    (tmp_path / "link").symlink_to("a")
    to_a = cache.hash_files([tmp_path])
    assert tmp_path / "link" / "one.md" in cache._files([tmp_path])
    (tmp_path / "link").unlink()
    (tmp_path / "link").symlink_to("b")  # the same names and bytes, another folder
    assert cache.hash_files([tmp_path]) != to_a
    (tmp_path / "a" / "up").symlink_to("..")  # a loop: listed, not followed
    (tmp_path / "out").symlink_to("/")  # out of the folder: listed, not followed
    files = cache._files([tmp_path])
    assert not any(p.is_relative_to(tmp_path / "a" / "up") for p in files)
    assert not any(p.is_relative_to(tmp_path / "out") for p in files)
