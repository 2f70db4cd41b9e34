"""Section folders and lesson files whose names a web address cannot hold as they are
(#, %, ?, spaces, quotes, brackets) are refused, naming the file and the characters;
non-ASCII letters are fine. A section linked to a folder above it is one error (not a
site 40 levels deep), and sections nest at most SECTION_DEPTH levels."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from sections_site import make_site

from explorables.site_builder.commands.build import build_site
from explorables.site_builder.errors import BuildError
from explorables.site_builder.structure.sections import SECTION_DEPTH

INDEX = "---\ntitle: Part\n---\nA section.\n"
LESSON = "---\ntitle: A lesson\n---\nSome words.\n"
HINT = "    rename it with letters, digits, '-' and '_' only, e.g. 02-first-steps\n"
LAST = "1 error; nothing was written (there is no previous site)."


def build_error(content: Path, out: Path) -> str:
    with pytest.raises(BuildError) as info:
        build_site(content, out)
    return str(info.value)


@pytest.mark.parametrize("name, shown", [
    ("a#b", "'#'"),
    ("50%", "'%'"),
    ("why?", "'?'"),
    ("two words", "a space"),
    ('say "hi"', "a space, '\"'"),
    ("<b>", "'<', '>'"),
    ("a{1}", "'{', '}'"),
    ("x|y^z", "'|', '^'"),
    ("tab\there", "'\\t'"),
    ("[draft]", "'[', ']'"),
])
@pytest.mark.parametrize("kind", ["section folder", "lesson"])
def test_a_name_a_web_address_cannot_hold_is_refused(tmp_path, name, shown, kind):
    content = make_site(tmp_path)
    if kind == "lesson":
        path = content / "basics" / f"03-{name}.md"
        path.write_text(LESSON, encoding="utf-8")
    else:
        path = content / "basics" / name
        path.mkdir()
        (path / "index.md").write_text(INDEX, encoding="utf-8")
    text = build_error(content, tmp_path / "out")
    written = path.name.replace("\t", "\\t")
    assert text == (f"content/basics/{path.name}: the {kind} name '{written}' holds {shown}, which a web address "
                    f"cannot hold as it is (links to its page would lead nowhere)\n{HINT}{LAST}")


@pytest.mark.parametrize("folder, lesson, url", [
    ("größen", "01-übung.md", "größen/übung.html"),
    ("日本語", "01-テスト.md", "日本語/テスト.html"),
    ("café", "01-crème_brûlée.md", "café/crème-brûlée.html"),
])
def test_non_ascii_letters_in_names_still_build_and_link(tmp_path, folder, lesson, url):
    content = make_site(tmp_path)
    (content / folder).mkdir()
    (content / folder / "index.md").write_text(INDEX + f"\nOn to [the lesson]({lesson}).\n", encoding="utf-8")
    (content / folder / lesson).write_text(LESSON, encoding="utf-8")
    build_site(content, tmp_path / "out")
    assert "Some words." in (tmp_path / "out" / url).read_text(encoding="utf-8")


# Section loops: a link to a folder above it, at any depth.

@pytest.mark.parametrize("link, target", [
    ("basics/loop", ".."),  # to the content folder
    ("basics/loop", "."),  # to its own section
    ("advanced/deeper/up", "../.."),
    ("advanced/deeper/up", ".."),
    ("advanced/deeper/self", "../deeper"),
])
def test_a_section_linked_to_a_folder_above_it_is_one_error(tmp_path, link, target):
    content = make_site(tmp_path)
    os.symlink(target, content / link)
    text = build_error(content, tmp_path / "out")
    real = (content / link).resolve()
    assert text == (f"content/{link}: {Path(link).name} is a symbolic link to {real}, a folder that holds the link "
                    f"itself\n    remove the link; it would read the folder again inside itself, forever\n{LAST}")
    assert not (tmp_path / "out").exists()


def test_a_linked_section_outside_the_content_folder_is_reported_once(tmp_path):
    content = make_site(tmp_path)
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "index.md").write_text(INDEX, encoding="utf-8")
    os.symlink(tmp_path / "elsewhere", content / "basics" / "more")
    text = build_error(content, tmp_path / "out")
    assert text == (f"content/basics/more: more is a symbolic link to {tmp_path / 'elsewhere'}, which is outside the "
                    "content folder; the build publishes nothing from outside it\n"
                    f"    copy the file into the content folder instead of linking to it\n{LAST}")


def test_a_linked_section_inside_the_content_folder_is_read_as_a_section(tmp_path):
    content = make_site(tmp_path)
    os.symlink("../advanced/deeper", content / "basics" / "again")
    build_site(content, tmp_path / "out")
    assert (tmp_path / "out" / "basics" / "again" / "more.html").is_file()
    assert (tmp_path / "out" / "advanced" / "deeper" / "more.html").is_file()


def nest(content: Path, depth: int) -> Path:
    folder = content
    for level in range(depth):
        folder = folder / f"s{level}"
        folder.mkdir()
        (folder / "index.md").write_text(f"---\ntitle: Level {level}\n---\nDown.\n", encoding="utf-8")
    return folder


@pytest.mark.parametrize("depth", [SECTION_DEPTH + 1, 300])
def test_sections_nested_too_deep_are_one_clear_error(tmp_path, depth):
    content = make_site(tmp_path)
    nest(content, depth)
    text = build_error(content, tmp_path / "out")
    deepest = "/".join(f"s{level}" for level in range(SECTION_DEPTH + 1))
    assert text == (f"content/{deepest}: sections nest more than {SECTION_DEPTH} levels deep here\n"
                    "    put fewer sections inside each other (a symbolic link or a script may have made these "
                    f"folders)\n{LAST}")


def test_sections_as_deep_as_the_limit_build(tmp_path):
    content = make_site(tmp_path)
    nest(content, SECTION_DEPTH)
    build_site(content, tmp_path / "out")
    deepest = "/".join(f"s{level}" for level in range(SECTION_DEPTH))
    assert (tmp_path / "out" / deepest / "index.html").is_file()
