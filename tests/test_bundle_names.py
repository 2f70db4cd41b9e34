"""Every name a bundle's zip holds stays inside the zip's folder on every system: a file
of content/ whose name an unzipper reads as a path (a backslash, a drive, a control
character) is refused where it is, and the zip checks each entry's name before it is
written, whatever made the file."""
from __future__ import annotations

import os
import zipfile
from pathlib import Path

import pytest
from sections_site import make_site

from explorables.site_builder.commands.build import build_site
from explorables.site_builder.commands.bundle import _check_names, _zip, bundle_site, entry_problem
from explorables.site_builder.errors import BuildError
from explorables.site_builder.output.images import copy_images

LAST = "1 error; nothing was written (there is no previous site)."
HINT = "    rename it with letters, digits, '-', '_' and '.' only\n"


@pytest.mark.parametrize("name, problem", [
    ("/etc/evil", "it is an absolute path"),
    ("", "it is an absolute path"),
    ("site/../../evil.txt", "it holds an empty, '.' or '..' part, which leads out of its folder"),
    ("site/a/../../../evil.txt", "it holds an empty, '.' or '..' part, which leads out of its folder"),
    ("site//evil.txt", "it holds an empty, '.' or '..' part, which leads out of its folder"),
    ("site/./evil.txt", "it holds an empty, '.' or '..' part, which leads out of its folder"),
    ("site/x\\..\\..\\evil.txt", "it holds a backslash, which an unzipper on Windows reads as a folder"),
    ("C:/evil.txt", "it holds ':', which Windows reads as a drive (C:) or a stream"),
    ("site/c:evil.txt", "it holds ':', which Windows reads as a drive (C:) or a stream"),
    ("site/file.txt:stream", "it holds ':', which Windows reads as a drive (C:) or a stream"),
    ("site/evil\x00.txt", "it holds a control character"),
    ("site/line\nbreak.txt", "it holds a control character"),
    ("site/del\x7f.txt", "it holds a control character"),
])
def test_an_unsafe_entry_name_is_named(name, problem):
    assert entry_problem(name) == problem


@pytest.mark.parametrize("name", ["site/index.html", "site/_explorables/a.1234.js", "site/größen/übung.html",
                                  "site/files/notes..txt", "site/.nojekyll"])
def test_a_safe_entry_name_passes(name):
    assert entry_problem(name) == ""


@pytest.mark.parametrize("name, said", [
    ("x\\..\\..\\..\\evil.txt", "'lessons/files/x\\..\\..\\..\\evil.txt': it holds a backslash, which an unzipper "
                               "on Windows reads as a folder"),
    ("c:evil.txt", "'lessons/files/c:evil.txt': it holds ':', which Windows reads as a drive (C:) or a stream"),
    ("bell\x07.txt", "'lessons/files/bell\\x07.txt': it holds a control character"),
])
def test_the_zip_checks_every_name_before_it_is_written(tmp_path, name, said):
    site = tmp_path / "site"
    (site / "files").mkdir(parents=True)
    (site / "index.html").write_text("<p>hi</p>")
    (site / "files" / name).write_text("evil")
    target = tmp_path / "out.zip"
    with pytest.raises(BuildError) as info:
        _zip(site, target, "lessons")
    assert str(info.value) == (f"the bundle would hold a file named {said}; rename the file in the content folder "
                               "(nothing was written)")


def test_a_zip_of_safe_names_holds_them_all(tmp_path):
    site = tmp_path / "site"
    (site / "größen").mkdir(parents=True)
    (site / "größen" / "übung.html").write_text("ü")
    (site / "index.html").write_text("<p>hi</p>")
    _zip(site, tmp_path / "out.zip", "lessons")
    with zipfile.ZipFile(tmp_path / "out.zip") as archive:
        assert sorted(archive.namelist()) == ["lessons/größen/übung.html", "lessons/index.html"]


@pytest.mark.parametrize("folder, name, shown, chars", [
    ("files", "x\\..\\..\\..\\evil.txt", "'x\\..\\..\\..\\evil.txt'", "a backslash"),
    ("files", "a\\b", "'a\\b'", "a backslash"),
    ("files", "C:evil.txt", "'C:evil.txt'", "':'"),
    ("files", "tab\tname.txt", "'tab\\tname.txt'", "'\\t'"),
    ("files", "esc\x1b.txt", "'esc\\x1b.txt'", "'\\x1b'"),
    ("basics/img", "x\\..\\evil.svg", "'x\\..\\evil.svg'", "a backslash"),
    ("files/x\\..\\deep", "ok.txt", "'x\\..\\deep'", "a backslash"),  # a folder's name
    ("we\\ird", "ok.txt", "'we\\ird'", "a backslash"),  # an author's folder at the top
])
def test_a_content_file_named_like_a_path_is_refused_where_it_is(tmp_path, folder, name, shown, chars):
    content = make_site(tmp_path)
    (content / folder).mkdir(parents=True, exist_ok=True)
    (content / folder / name).write_text("evil")
    with pytest.raises(BuildError) as info:
        build_site(content, tmp_path / "out")
    bad = folder.split("/")[-1] if name == "ok.txt" else name
    where = "/".join(folder.split("/")[:-1] + [bad]) if name == "ok.txt" else f"{folder}/{name}"
    assert str(info.value) == (f"content/{where}: the name {shown} holds {chars}, which other systems read as part "
                               f"of a path (unzipped, it could land outside its folder)\n{HINT}{LAST}")
    assert not (tmp_path / "out").exists()


def test_a_bundle_of_such_a_site_leaves_the_previous_zip(tmp_path):
    content = make_site(tmp_path)
    (content / "files").mkdir()
    (content / "files" / "x\\..\\..\\..\\evil.txt").write_text("evil")
    target = tmp_path / "old.zip"
    target.write_bytes(b"previous bundle")
    with pytest.raises(BuildError, match=r"content/files/x\\\.\.\\\.\.\\\.\.\\evil\.txt: the name"):
        bundle_site(content, target)
    assert target.read_bytes() == b"previous bundle"
    assert not any(p.name.endswith(".partial") for p in Path(tmp_path).iterdir())
    assert os.listdir(tmp_path / "content" / "files") == ["x\\..\\..\\..\\evil.txt"]


@pytest.mark.parametrize("name", ["x\\..\\evil.txt", "c:evil.txt", "bell\x07.txt"])
def test_the_folder_form_checks_the_same_names(tmp_path, name):
    site = tmp_path / "site"
    (site / "files").mkdir(parents=True)
    (site / "files" / name).write_text("evil")
    with pytest.raises(BuildError, match=r"^the bundle would hold a file named 'lessons/files/"):
        _check_names(site, "lessons")


@pytest.mark.parametrize("name", ["x\\..\\evil.png", "c:evil.png", "tab\tname.png"])
def test_an_image_copied_on_its_own_is_checked_too(tmp_path, name):
    content = tmp_path / "content"
    content.mkdir()
    (content / name).write_bytes(b"png")

    class Page:
        env = {"images": [(content / name, name)]}
    with pytest.raises(BuildError) as info:
        copy_images([Page()], content, tmp_path / "site")
    assert str(info.value).startswith(f"content/{name}: the name ")
    assert not (tmp_path / "site" / name).exists()
