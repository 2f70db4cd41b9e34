"""``explorables bundle``: the site as one zip that runs from disk, with no server.

A teacher unzips it anywhere and a reader double-clicks ``index.html``. Pages opened
from disk (file://) may not fetch files, load module scripts or start module workers,
so the bundle carries what the served site fetches as *classic scripts of data*:

- ``bundle/pages.js``: every page's title and content, so that a link swaps the lesson
  in place and Python, started once per opened bundle, keeps running (js/bundle.js);
- ``bundle/pyodide-data.js``: the five Pyodide core files (base64 where binary), once
  per bundle, read once per opening, when the first figure starts the engine;
- ``bundle/engine-data.js``: the engine archive; ``bundle/worker-source.js``: the
  worker's code, which the page starts from a Blob.

The build writes them (``build_site(bundle=True)`` calls output/offline.py), under
hashed names like every asset, and the page's asset map names them for js/bundle.js.
The pipeline here: build the site into a temporary folder, zip it (or copy it with
``--folder``), then swap the result in, so that a failed bundle leaves the previous one
untouched.

With ``--scorm`` the bundle is a SCORM 1.2 package for a learning management system:
its files at the zip's root with ``imsmanifest.xml`` beside index.html (output/scorm.py),
and its later scripts ending with js/scorm.js, which reports the reader's progress to
the LMS and does nothing when the bundle is opened from disk.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from ..errors import BuildError
from ..output import scorm as scorm_package
from ..output.folder import swap
from ..output.zipped import write_zip
from ..structure.config import config_path, load_config
from .build import build_site


@dataclass
class BundleResult:
    path: Path  # the zip, or the folder
    pages: int
    figures: int
    bytes: int  # size of the zip, or of the folder's files


def site_slug(title: str) -> str:
    """'Attention, step by step' -> 'attention-step-by-step' (the zip's and folder's name)."""
    slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")
    return slug or "lessons"


def bundle_site(
    content: Path,
    output: Path | None = None,
    *,
    folder: Path | None = None,
    pyodide_source: str | None = None,
    scorm: bool = False,
    mastery_score: int | None = None,
    languages: tuple[str, ...] | None = None,  # of a site in several: the default and these (None: every one)
) -> BundleResult:
    content = Path(content).resolve()
    config, _ = load_config(config_path(content))
    slug = site_slug(config.title)
    top = "" if scorm else slug  # a SCORM package's manifest and index.html are at the zip's root
    with tempfile.TemporaryDirectory(prefix=".explorables-bundle-") as tmp:
        # Build: the site, its pages loading the bundle's scripts, with the pages, the
        # worker, the engine and Pyodide as classic scripts of data.
        site = Path(tmp) / slug
        result = build_site(content, site, pyodide_source=pyodide_source, bundle=True, scorm=scorm, languages=languages)
        if scorm:
            (site / scorm_package.MANIFEST).write_bytes(
                scorm_package.manifest(
                    site, slug, config.title, config.language, config.description, config.languages, mastery_score
                )
            )
        # Write and swap: a zip (or a folder) made beside its target, then moved in place.
        if folder is not None:
            target = Path(folder).resolve()
            _refuse_foreign(target)
            _check_names(site, target.name)  # the same names as a zip's, on a disk of any system
            staging = Path(tempfile.mkdtemp(prefix=f".{target.name}-", dir=_parent(target)))
            shutil.rmtree(staging)
            shutil.copytree(site, staging)
            (staging / ".explorables-bundle").write_text("Made by `explorables bundle`; the next bundle replaces it.\n")
            swap(staging, target)  # the build's own swap: the old folder back if it fails
            size = sum(p.stat().st_size for p in target.rglob("*") if p.is_file())
        else:
            default = f"{slug}-scorm.zip" if scorm else f"{slug}.zip"
            target = Path(output).resolve() if output else Path.cwd() / default
            fd, partial = tempfile.mkstemp(prefix=f".{target.name}-", suffix=".partial", dir=_parent(target))
            os.close(fd)
            try:
                _zip(site, Path(partial), top)
                os.chmod(partial, 0o644)
                os.replace(partial, target)
            except BaseException:
                Path(partial).unlink(missing_ok=True)
                raise
            size = target.stat().st_size
    return BundleResult(path=target, pages=result.pages, figures=result.figures, bytes=size)


def _parent(target: Path) -> Path:
    target.parent.mkdir(parents=True, exist_ok=True)
    return target.parent


def entry_problem(name: str) -> str:
    """What makes ``name`` unsafe as the name of an entry of a zip, or "": an unzipper
    writes an entry where its name says, so the name must stay inside the zip's folder
    on every system (no absolute path, no '..', no backslash, no drive, no control
    character)."""
    if not name or name.startswith("/"):
        return "it is an absolute path"
    if re.search(r"[\x00-\x1f\x7f]", name):
        return "it holds a control character"
    if "\\" in name:
        return "it holds a backslash, which an unzipper on Windows reads as a folder"
    if ":" in name:
        return "it holds ':', which Windows reads as a drive (C:) or a stream"
    if any(part in ("", ".", "..") for part in name.split("/")):
        return "it holds an empty, '.' or '..' part, which leads out of its folder"
    return ""


def _check_names(site: Path, slug: str) -> None:
    """A BuildError for the first file of ``site`` whose name under the folder ``slug``
    (at the zip's root if "") is unsafe, or names the same file as another's where case
    and Unicode normalisation do not count (Windows and macOS: one would replace the other)."""
    seen: dict[str, str] = {}
    for path in sorted(site.rglob("*")):
        name = _entry(site, path, slug)
        problem = entry_problem(name)
        if problem:
            raise BuildError(
                f"the bundle would hold a file named '{_shown(name)}': {problem}; rename the "
                f"file in the content folder (nothing was written)"
            )
        same = unicodedata.normalize("NFC", name).casefold()
        if same in seen:
            raise BuildError(
                f"the bundle would hold both '{_shown(seen[same])}' and '{_shown(name)}', which differ only in "
                f"case or in how a letter is written: unzipped on Windows or macOS, one would replace the other; "
                f"rename one of them in the content folder (nothing was written)"
            )
        seen[same] = name


def _shown(name: str) -> str:
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in name)


def _entry(site: Path, path: Path, slug: str) -> str:
    name = path.relative_to(site).as_posix()
    return f"{slug}/{name}" if slug else name


def _zip(site: Path, target: Path, slug: str) -> None:
    """The site under one top folder named ``slug`` (at the zip's root if ""); each file
    compressed (output/zipped.py). Every entry's name is checked before anything is written
    (entry_problem)."""
    _check_names(site, slug)
    write_zip(target, ((_entry(site, path, slug), path) for path in sorted(site.rglob("*")) if path.is_file()))


def _refuse_foreign(target: Path) -> None:
    if target.is_file():
        raise BuildError(f"{target} is a file, not a folder: choose another folder for --folder")
    if target.is_dir() and any(target.iterdir()) and not (target / ".explorables-bundle").exists():
        raise BuildError(
            f"{target} already holds files that no bundle made; the bundle replaces the folder whole, "
            f"so it will not touch this one: choose another folder, or empty it first"
        )
