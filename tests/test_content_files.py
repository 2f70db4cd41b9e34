"""What the build reads from content/ and publishes (site_builder/structure/files.py):
nothing from outside the content folder or the site folder (a symbolic link leading out
is refused before anything is read or run), links that stay inside are followed, names
starting with a dot or an underscore are no lessons, and a file that is no UTF-8 text
or a folder named like a lesson, a page or site.yml is an error at its place."""
from __future__ import annotations

import pytest

from explorables.site_builder.commands.build import build_site
from explorables.site_builder.commands.cli import main
from explorables.site_builder.output.assets import names_in
from author_site import failed, fails_with
from test_build import write

FILE_MISTAKES = {
    "lesson not UTF-8": ({"02-b.md": b"---\ntitle: B\n---\nCaf\xe9 au lait\n"}, [
        "content/02-b.md:4:4: the file is not UTF-8 text (byte 0xe9 cannot be read)",
        "    save it as UTF-8 in your editor (e.g. iconv -f latin1 -t utf-8 FILE > NEW)"]),
    "site.yml not UTF-8": ({"site.yml": b"title: Caf\xe9\n"}, [
        "content/site.yml:1:11: the file is not UTF-8 text (byte 0xe9 cannot be read)"]),
    "site.yml a folder": ({"site.yml/x": b""}, [
        "content/site.yml: site.yml is a folder, but its name makes it a site config",
        "    rename the folder (e.g. site/) or move it out of the content folder"]),
    "a folder named like a lesson": ({"02-x.md/notes.txt": b""}, [
        "content/02-x.md: 02-x.md is a folder, but its name makes it a lesson",
        "    rename the folder (e.g. 02-x/) or move it out of the content folder"]),
    "a folder named like a page": ({"a.html/x.png": b""}, [
        "content/a.html: the folder a.html has the name of a page of the site", "    rename the folder"]),
}


@pytest.mark.parametrize("case", list(FILE_MISTAKES), ids=list(FILE_MISTAKES))
def test_every_file_mistake_names_its_place_and_keeps_the_previous_site(one_lesson_site, capsys, case):
    content, out = one_lesson_site
    fails_with(content, out, capsys, *FILE_MISTAKES[case])


def test_a_lesson_linked_from_outside_is_refused(one_lesson_site, tmp_path, capsys):
    """Pins a bug: a lesson that was a symlink to a file outside content/ was published."""
    content, out = one_lesson_site
    secret = write(tmp_path / "outside", {"secret.md": "token: hunter2\n"}) / "secret.md"
    (content / "02-secret.md").symlink_to(secret)
    assert failed(content, out, capsys) == (
        f"content/02-secret.md: 02-secret.md is a symbolic link to {secret}, which is outside the content folder; "
        f"the build publishes nothing from outside it\n"
        f"    copy the file into the content folder instead of linking to it\n"
        f"1 error; the previous site was left as it was.\n")


def test_linked_asset_files_and_folders_from_outside_are_refused(one_lesson_site, tmp_path, capsys):
    """Pins a bug: a symlinked file or folder among the assets was copied with its contents."""
    content, out = one_lesson_site
    outside = write(tmp_path / "outside", {"id_rsa": "KEY\n"})
    write(content / "images", {"a.txt": "fine\n"})
    (content / "images" / "key").symlink_to(outside / "id_rsa")
    (content / "keys").symlink_to(outside)
    assert failed(content, out, capsys).splitlines() == [
        f"content/images/key: key is a symbolic link to {outside / 'id_rsa'}, which is outside the content folder; "
        f"the build publishes nothing from outside it",
        "    copy the file into the content folder instead of linking to it",
        f"content/keys: keys is a symbolic link to {outside}, which is outside the content folder; "
        f"the build publishes nothing from outside it",
        "    copy the file into the content folder instead of linking to it",
        "2 errors; the previous site was left as it was."]
    assert not any("KEY" in p.read_text(errors="ignore") for p in out.rglob("*") if p.is_file() and p.stat().st_size < 10**5)


def test_links_that_stay_inside_the_content_folder_are_followed(one_lesson_site):
    content, out = one_lesson_site
    write(content / "images", {"a.txt": "picture\n"})
    (content / "images" / "b.txt").symlink_to(content / "images" / "a.txt")
    (content / "02-b.md").symlink_to(content / "01-a.md")
    build_site(content, out)
    assert (out / "images" / "b.txt").read_text() == "picture\n"
    assert "<p>Text.</p>" in (out / "b.html").read_text()


def test_a_link_loop_among_the_assets_is_an_error(one_lesson_site, capsys):
    content, out = one_lesson_site
    write(content / "images", {"a.txt": "x\n"})
    (content / "images" / "again").symlink_to(content / "images")
    assert failed(content, out, capsys).splitlines()[0] == (
        f"content/images/again: again is a symbolic link to {content / 'images'}, a folder that holds the link itself")


def test_a_dangling_lesson_link_is_an_error(one_lesson_site, capsys):
    content, out = one_lesson_site
    (content / "03-gone.md").symlink_to("/nowhere/gone.md")
    assert failed(content, out, capsys).splitlines()[:2] == [
        "content/03-gone.md: 03-gone.md is a symbolic link to /nowhere/gone.md, which does not exist",
        "    remove the link, or point it at a file inside the content folder"]


def test_content_assets_is_an_author_folder_like_any_other(one_lesson_site):
    """Pins a bug: content/assets/ failed the build with FileExistsError."""
    content, out = one_lesson_site
    write(content / "assets", {"pic.svg": "<svg/>"})
    build_site(content, out)
    assert (out / "assets" / "pic.svg").read_text() == "<svg/>"
    core = names_in(out)["js/explorables.js"]
    assert (out / "_explorables" / core).is_file() and (out / ".nojekyll").is_file()
    assert f'src="_explorables/{core}"' in (out / "a.html").read_text()


def test_figures_from_outside_the_site_folder_are_never_run(one_lesson_site, tmp_path, capsys):
    """An author's figures are Python that the build runs: a figures folder, or a module in
    it, that leads out of the site folder is refused before anything is imported."""
    content, out = one_lesson_site
    outside = write(tmp_path.parent / f"{tmp_path.name}-elsewhere", {"evil.py": "raise SystemExit('ran')\n"})
    (content.parent / "figures").mkdir()
    (content.parent / "figures" / "evil.py").symlink_to(outside / "evil.py")
    assert failed(content, out, capsys).splitlines()[0] == (
        f"figures/evil.py: evil.py is a symbolic link to {outside / 'evil.py'}, which is outside the site folder; "
        f"the build publishes nothing from outside it")
    (content.parent / "figures" / "evil.py").unlink()
    (content / "site.yml").write_text(f"figures: ../{outside.name}\n")
    assert failed(content, out, capsys).splitlines()[:2] == [  # said at the line that names the folder
        f"content/site.yml:1:10: figures: {outside.name} is outside the site folder (it is {outside}); the build "
        f"reads nothing from outside it", "    move it into the site folder"]


def test_a_site_yml_inside_content_beside_the_one_read_is_named(one_lesson_site, capsys):
    content, out = one_lesson_site
    (content.parent / "site.yml").write_text('title: "Outer"\n')
    (content / "site.yml").write_text('title: "Inner"\n')
    assert main(["build", str(content), "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert ("warning: content/site.yml:1:1: this site.yml is not read: the one beside the content folder is\n"
            "    move what it says into that one, and delete this one") in err
    assert "<title>" in (out / "index.html").read_text() and "Outer" in (out / "index.html").read_text()


def test_names_starting_with_a_dot_or_underscore_are_not_lessons(one_lesson_site):
    """Pins an author's finding: `content/.draft.md` was published as a lesson, and an
    editor's lock file (a link to nowhere named `.#01-a.md`) stopped the build."""
    content, out = one_lesson_site
    (content / ".draft.md").write_text("---\ntitle: Secret draft\n---\n\nNot yet.\n")
    (content / "_aside.md").write_text("---\ntitle: Put aside\n---\n\nLater.\n")
    (content / ".#01-a.md").symlink_to("author@laptop.4242:1700000000")
    write(content / "images", {"a.txt": "picture\n", ".DS_Store": "junk", ".#a.txt": "lock"})
    build_site(content, out)
    assert not (out / ".draft.html").exists() and not (out / "_aside.html").exists()
    assert "Secret draft" not in (out / "a.html").read_text() and "Put aside" not in (out / "a.html").read_text()
    assert sorted(p.name for p in (out / "images").iterdir()) == ["a.txt"]
