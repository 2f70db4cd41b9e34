"""The output folder (site_builder/output/folder.py): a build is staged beside it and
swapped in whole, so a failed build leaves the previous site byte for byte and a good
one leaves nothing stale; and a folder the build did not make, the content folder or
its parent is never replaced."""
from __future__ import annotations

import pytest

from explorables.site_builder.commands.build import build_site
from explorables.site_builder.commands.cli import main
from explorables.site_builder.errors import BuildError
from test_build import INTRO, LESSON, track, tree_digest


@pytest.fixture
def content(tmp_path):
    return track(tmp_path / "content")


def test_a_failed_build_leaves_the_previous_site_byte_for_byte(content, tmp_path, capsys):
    out = tmp_path / "_site"
    build_site(content, out)
    before = tree_digest(out)
    (content / "02-one-row.md").write_text(LESSON.replace(":temperature: 0.5", ":temperature: hot"))
    code = main(["build", str(content), "-o", str(out)])
    assert code == 1
    err = capsys.readouterr().err
    assert "02-one-row.md:10:15: {attention-row} explorer: option 'temperature': expected a number" in err
    assert "got 'hot'" in err
    assert tree_digest(out) == before
    assert [p.name for p in out.parent.iterdir() if p.name.startswith(".")] == []  # no staging left


def test_a_successful_rebuild_replaces_the_site(content, tmp_path):
    out = tmp_path / "_site"
    build_site(content, out)
    (out / "stale.html").write_text("old")
    (content / "01-intro.md").write_text(INTRO.replace("Hello.", "Hello again."))
    build_site(content, out)
    assert not (out / "stale.html").exists()
    assert "Hello again." in (out / "intro.html").read_text()


def test_building_into_the_content_folder_or_its_parent_is_refused(content, tmp_path):
    """Pins a bug: `-o content` replaced the lessons with the site, `-o .` moved the project."""
    before = tree_digest(content)
    for out in (content, content.parent):
        with pytest.raises(BuildError) as info:
            build_site(content, out)
        assert "building there would replace your lessons" in str(info.value)
    with pytest.raises(BuildError) as info:
        build_site(content, content / "site")
    assert "is inside the content folder" in str(info.value)
    build_site(content, content / "_site")  # a leading '_' is never copied as lesson files
    build_site(content, content / "_site")
    assert not (content / "_site" / "_site").exists()
    (content / "_site").rename(tmp_path / "moved")
    assert tree_digest(content) == before


def test_a_folder_the_build_did_not_make_is_never_replaced(content, tmp_path):
    out = tmp_path / "notes"
    out.mkdir()
    (out / "mine.txt").write_text("keep me")
    with pytest.raises(BuildError) as info:
        build_site(content, out)
    assert "already holds files that no build made" in str(info.value)
    assert (out / "mine.txt").read_text() == "keep me"
