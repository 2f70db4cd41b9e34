"""A site laid out as `explorables new` makes it (site.yml, content/, figures/) with one
author's module and one lesson, and a build that breaks it: shared by the tests of
authors' figures and exercise types.

tests/ is no package, so the tests import this module at the top level."""
from __future__ import annotations

from pathlib import Path

from explorables.site_builder.commands.cli import main


def lay_out(folder: Path, lesson_file: str, lesson: str, module_file: str, source: str) -> Path:
    """``folder`` as a site whose figures/ holds ``module_file`` and content/ one lesson."""
    (folder / "content").mkdir()
    (folder / "figures").mkdir()
    (folder / "site.yml").write_text('title: "Mine"\n')
    (folder / "content" / "index.md").write_text("# Mine\n")
    (folder / "content" / lesson_file).write_text(lesson)
    (folder / "figures" / module_file).write_text(source)
    return folder


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
