"""An author's site laid out as `explorables new` makes it (site.yml, content/, figures/,
locales/), written from arguments, and a build that breaks it: shared by the tests of
authors' figures, exercise types, words and catalogues. The ``author_site`` fixture
(tests/conftest.py) writes one into the test's folder and forgets what its build
registered afterwards. And for a content folder built once (``one_lesson_site``), a
build that fails: ``failed`` and ``fails_with``, which runs one row of a mistake table.

tests/ is no package, so the tests import this module at the top level."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

from explorables.site_builder.commands.cli import main


def write_site(folder: Path, *, site_yml: str = 'title: "Mine"\n', lessons: dict[str, str | bytes] | None = None,
               figures: dict[str, str] | None = None, locales: dict[str, dict | str] | None = None,
               copy: Path | None = None) -> Path:
    """Write an author's site into ``folder`` and return it: ``copy`` (a folder copied
    first, e.g. a fixture's figures/ and locales/), site.yml, content/ with ``lessons``
    (file name -> text; a name may hold a folder), figures/ with ``figures`` (module
    file -> source) and locales/ with ``locales`` (code -> words, written as JSON, or
    the file's text as it is)."""
    folder = Path(folder)
    if copy is not None:
        shutil.copytree(copy, folder)
    (folder / "content").mkdir(parents=True, exist_ok=True)
    (folder / "site.yml").write_text(site_yml, encoding="utf-8")
    for place, files in (("content", lessons), ("figures", figures)):
        if files is None:
            continue
        (folder / place).mkdir(exist_ok=True)
        for name, text in files.items():
            path = folder / place / name
            path.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(text, bytes):
                path.write_bytes(text)
            else:
                path.write_text(text, encoding="utf-8")
    if locales is not None:
        (folder / "locales").mkdir(exist_ok=True)
        for code, words in locales.items():
            text = words if isinstance(words, str) else json.dumps(words, ensure_ascii=False, indent=1)
            (folder / "locales" / f"{code}.json").write_text(text, encoding="utf-8")
    return folder


def lay_out(folder: Path, lesson_file: str, lesson: str, module_file: str, source: str) -> Path:
    """``folder`` as a site whose figures/ holds ``module_file`` and content/ one lesson."""
    return write_site(folder, lessons={"index.md": "# Mine\n", lesson_file: lesson}, figures={module_file: source})


# The lesson of ``one_lesson_site`` (tests/conftest.py): a content folder built once.
ONE_LESSON = "---\ntitle: A\norder: 1\n---\nText.\n"


def failed(content: Path, out: Path, capsys) -> str:
    """Build through the command line; assert exit 1 and the previous site untouched;
    return what was printed."""
    from test_build import tree_digest

    before = tree_digest(out)
    code = main(["build", str(content), "-o", str(out)])
    err = capsys.readouterr().err
    assert code == 1, err
    assert "Traceback" not in err
    assert tree_digest(out) == before
    return err.removeprefix("error: ")


def fails_with(content: Path, out: Path, capsys, files: dict[str, bytes], expected: list) -> None:
    """Write ``files`` (a name ending in "/x" with no bytes: only its folder) into the
    built ``content``; the build fails at every line of ``expected``, keeps the previous
    site, and prints no line longer than 500 characters."""
    for name, data in files.items():
        path = content / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if not name.endswith("/x") or data:
            path.write_bytes(data)
    printed = failed(content, out, capsys)
    lines = printed.splitlines()
    for expect in expected:
        if isinstance(expect, bytes):
            expect = expect.decode()
        assert expect.replace("\u2026", "…") in lines, f"{expect!r} not in {lines}"
    assert all(len(line) <= 500 for line in lines)


def files_of(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def broken(site: Path, capsys, name: str, source: str) -> str:
    """Build once (good), write a broken module ``name``, build again (from the site's
    folder): the error text, with the site unchanged and no traceback."""
    assert main(["build"]) == 0
    before = files_of(site / "_site")
    (site / "figures" / name).write_text(source)
    capsys.readouterr()
    assert main(["build"]) == 1
    assert files_of(site / "_site") == before
    err = capsys.readouterr().err
    assert "Traceback" not in err and "the previous site was left as it was." in err
    return err
