"""The build's output folder: refused when replacing it would lose an author's files,
and replaced whole (a staging folder swapped in) so that a failed build leaves the
previous site as it was; and the author's folders of images and files that go into it."""

from __future__ import annotations

import os
import shutil
from collections.abc import Collection
from pathlib import Path

from ..errors import BuildError, SourceError
from ..structure.files import copy_tree, looped, outside, unsafe_file_name

MARKER = ".explorables-site"  # written into every built site: the next build may replace it


def check_output(content: Path, out_dir: Path) -> None:
    """Refuse an output folder whose replacement would lose an author's files."""
    fix = "choose another output folder with -o, e.g. -o _site"
    if out_dir == content or out_dir in content.parents:
        raise BuildError(
            f"the output folder {out_dir} holds the content folder {content}; "
            f"building there would replace your lessons: {fix}"
        )
    if content in out_dir.parents:
        top = out_dir.relative_to(content).parts[0]
        if not top.startswith(("_", ".")):
            raise BuildError(
                f"the output folder {out_dir} is inside the content folder, where it would be "
                f"copied into the next build as lesson files; {fix}, or name it with a leading '_'"
            )
    if out_dir.is_dir() and any(out_dir.iterdir()) and not (out_dir / MARKER).exists():
        raise BuildError(
            f"{out_dir} already holds files that no build made; the build replaces its output "
            f"folder whole, so it will not touch this one: {fix}, or empty the folder first"
        )
    if out_dir.exists() and not out_dir.is_dir():
        raise BuildError(f"{out_dir} is a file, not a folder: {fix}")


def swap(staging: Path, out_dir: Path) -> None:
    os.chmod(staging, 0o755)
    for stale in out_dir.parent.glob(f".{out_dir.name}-old-*"):  # left by a build that was killed
        shutil.rmtree(stale, ignore_errors=True)
    if not out_dir.exists():
        os.replace(staging, out_dir)
        return
    old = out_dir.with_name(f".{out_dir.name}-old-{os.getpid()}")
    os.replace(out_dir, old)
    try:
        os.replace(staging, out_dir)
    except BaseException:
        os.replace(old, out_dir)  # put the previous site back
        shutil.rmtree(staging, ignore_errors=True)
        raise
    shutil.rmtree(old, ignore_errors=True)


def author_folders(
    content: Path, out_dir: Path, outputs: Collection[str], errors: list[SourceError], sections: tuple[str, ...] = ("",)
) -> list[Path]:
    """The author's folders of images and files, at the top of content/ and in every
    section, copied into the site at the same place. Names that start with '.' or '_'
    are private (and _explorables/ is the site's own); a section is not copied (its
    pages are built); a folder named like a page of the site is an error."""
    folders = []
    for section in sections:
        for extra in sorted((content / section).iterdir()):
            if extra.name.startswith((".", "_")) or extra.suffix == ".md" or extra == out_dir:
                continue
            if not extra.is_dir():
                continue  # files beside the lessons are not published
            rel = extra.relative_to(content).as_posix()
            if rel in sections or (extra / "index.md").is_file():
                continue  # a section: built, or refused by the walk of sections (which said why)
            parent = extra.parent.resolve()
            problem = outside(extra, content) or looped(extra, (*parent.parents, parent)) or unsafe_file_name(extra)
            if problem:
                if problem not in errors:  # a section's folder the walk of sections refused already
                    errors.append(problem)
                continue
            copy_tree(extra, None, content, errors)  # every link inside it checked before anything is written
            if rel in outputs or extra.name in (MARKER, ".nojekyll"):
                errors.append(
                    SourceError(
                        extra, 0, 0, f"the folder {rel} has the name of a page of the site", "rename the folder"
                    )
                )
                continue
            folders.append(extra)
    return folders
