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

The build writes them (``build_site(bundle=True)`` calls ``write_data`` and
``pages_script``), under hashed names like every asset, and the page's asset map names
them for js/bundle.js. The pipeline here: build the site into a temporary folder, zip it
(or copy it with ``--folder``), then swap the result in, so that a failed bundle leaves
the previous one untouched.
"""
from __future__ import annotations

import base64
import json
import os
import re
import shutil
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

from . import pyodide
from .build import ASSETS, STATIC, build_site
from .output import swap
from .config import config_path, load_config
from .errors import BuildError

_BODY = re.compile(r"<body[^>]*>(.*)</body>", re.S)
_TITLE = re.compile(r"<title>(.*?)</title>", re.S)
_ASSETS = re.compile(r'<body[^>]*\sdata-assets="([^"]*)"')


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


def bundle_site(content: Path, output: Path | None = None, *, folder: Path | None = None,
                pyodide_source: str | None = None) -> BundleResult:
    content = Path(content).resolve()
    config, _ = load_config(config_path(content))
    slug = site_slug(config.title)
    with tempfile.TemporaryDirectory(prefix=".explorables-bundle-") as tmp:
        # Build: the site, its pages loading the bundle's scripts, with the pages, the
        # worker, the engine and Pyodide as classic scripts of data.
        site = Path(tmp) / slug
        result = build_site(content, site, pyodide_source=pyodide_source, bundle=True)
        # Write and swap: a zip (or a folder) made beside its target, then moved in place.
        if folder is not None:
            target = Path(folder).resolve()
            _refuse_foreign(target)
            staging = Path(tempfile.mkdtemp(prefix=f".{target.name}-", dir=_parent(target)))
            shutil.rmtree(staging)
            shutil.copytree(site, staging)
            (staging / ".explorables-bundle").write_text("Made by `explorables bundle`; the next bundle replaces it.\n")
            swap(staging, target)  # the build's own swap: the old folder back if it fails
            size = sum(p.stat().st_size for p in target.rglob("*") if p.is_file())
        else:
            target = Path(output).resolve() if output else Path.cwd() / f"{slug}.zip"
            fd, partial = tempfile.mkstemp(prefix=f".{target.name}-", suffix=".partial", dir=_parent(target))
            os.close(fd)
            try:
                _zip(site, Path(partial), slug)
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


def write_data(assets: Path, engine: bytes, python_lib: bytes, pyodide_source: str | None) -> None:
    """The worker's code, the engine archive and Pyodide (with ``python_lib``, the site's
    standard library: stdlib.py) as classic scripts of data, in ``assets``/bundle/ under
    their plain names (the build hashes them with the rest)."""
    data = assets / "bundle"
    data.mkdir(exist_ok=True)
    (data / "worker-source.js").write_bytes(_data_script("workerSource", (STATIC / "js" / "worker.js").read_text(encoding="utf-8")))
    (data / "engine-data.js").write_bytes(_data_script("engine", base64.b64encode(engine).decode("ascii")))
    (data / "pyodide-data.js").write_bytes(_data_script("pyodide", _pyodide_files(pyodide_source, python_lib)))


def pages_script(pages: dict[str, str]) -> bytes:
    """``bundle/pages.js``: each page's title, body and assets' path (data-assets), by its
    path from the site's root ('index.html', 'basics/softmax.html'): sections' pages too."""
    return _data_script("pages", _pages(pages))


def _pages(pages: dict[str, str]) -> dict[str, dict[str, str]]:
    found = {}
    for name in sorted(pages):
        html = pages[name]
        body, title = _BODY.search(html), _TITLE.search(html)
        if body is None:
            continue
        assets = _ASSETS.search(html)
        found[name] = {"title": _unescape(title.group(1)) if title else Path(name).stem, "body": body.group(1),
                       "assets": _unescape(assets.group(1)) if assets else "../" * name.count("/") + ASSETS + "/"}
    return found


def _unescape(text: str) -> str:
    import html
    return html.unescape(text.strip())


def _pyodide_files(source: str | None, python_lib: bytes) -> dict[str, str]:
    folder = pyodide.ensure_pyodide(source)
    return {
        "loader": (folder / "pyodide.mjs").read_text(encoding="utf-8"),
        "asm": (folder / "pyodide.asm.mjs").read_text(encoding="utf-8"),
        "lock": (folder / "pyodide-lock.json").read_text(encoding="utf-8"),
        "wasm": base64.b64encode((folder / "pyodide.asm.wasm").read_bytes()).decode("ascii"),
        "stdlib": base64.b64encode(python_lib).decode("ascii"),
    }


def _data_script(key: str, value) -> bytes:
    """A classic script that adds ``value`` to window.explorablesBundle under ``key``."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    return ("(window.explorablesBundle = window.explorablesBundle || {})." + key + " = " + text + ";\n").encode("utf-8")


def _zip(site: Path, target: Path, slug: str) -> None:
    """The site under one top folder named ``slug``; text compressed, the rest stored."""
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as archive:
        for path in sorted(site.rglob("*")):
            if path.is_file():
                name = f"{slug}/{path.relative_to(site).as_posix()}"
                info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
                info.external_attr = 0o644 << 16
                archive.writestr(info, path.read_bytes(), zipfile.ZIP_DEFLATED)


def _refuse_foreign(target: Path) -> None:
    if target.is_file():
        raise BuildError(f"{target} is a file, not a folder: choose another folder for --folder")
    if target.is_dir() and any(target.iterdir()) and not (target / ".explorables-bundle").exists():
        raise BuildError(f"{target} already holds files that no bundle made; the bundle replaces the folder whole, "
                         f"so it will not touch this one: choose another folder, or empty it first")
