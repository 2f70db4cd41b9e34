"""The site's own files under ``_explorables/``, named by their content.

GitHub Pages serves every file with ``Cache-Control: max-age=600``, and a site cannot
change that: for ten minutes after a deploy, a browser may keep any file it fetched
before. Were the engine archive always ``engine.zip``, a reader could get the new HTML
with the old engine, or the old scripts with the new worker. So every file the build
writes under ``_explorables/`` carries the first digits of the sha256 of its bytes in
its name (``explorables.css`` -> ``explorables.3f2a9c1d.css``): a new file is a new
address, which no cache has seen, and a rebuild of the same input writes the same names.

- The HTML names the files through one Jinja helper, ``asset("explorables.css")``.
- The scripts that load other files (the engine's worker, the engine archive, Pyodide,
  the search index, an offline bundle's data) find them in one map the page carries in
  its head (``<script type="application/json" id="ex-build">``), under keys that are not
  file names (``worker``, ``engine``, ...): they never build a file name themselves.
- CSS ``url()``s are rewritten to the hashed names of the files they point at.
- Pyodide is not renamed: it lives in a folder named by its version
  (``pyodide/314.0.7/``), whose files never change.

The **build id** names the runtime of a build: the browser scripts, the engine archive
and the Pyodide version. The page carries it beside the map, and the engine archive
carries it in ``explorables/BUILD``; the page compares the two when the engine starts.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path, PurePosixPath

from ..pyodide import release as pyodide

PACKAGE = Path(__file__).resolve().parents[2]  # explorables/ when installed; the checkout in development
STATIC = PACKAGE / "static"  # the browser runtime, copied into every site
TEMPLATES = Path(__file__).resolve().parents[1] / "templates"  # the pages' Jinja templates
ASSETS = "_explorables"  # the site's own files; an author's folder of any other name can sit beside it
DIGITS = 8  # hex digits of the sha256 in a hashed name
PYODIDE = f"pyodide/{pyodide.VERSION}/"  # Pyodide's folder inside the assets folder
BUILD_FILE = "explorables/BUILD"  # the build id inside the engine archive

# What the page's scripts load, by key: the map the page carries names these files.
SCRIPT_KEYS = {
    "worker": "js/worker.js",
    "later": "js/later.js",
    "panels": "js/panels.js",  # the panel kinds a page's first frames do not draw (panels.py)
    "engine": "engine.zip",
    "stdlib": "stdlib.zip",  # Python's standard library, modules compiled ahead (site_builder/pyodide/stdlib.py)
    "snapshot": "snapshot.bin",  # only with `snapshot: true` (site_builder/pyodide/snapshot.py)
    "search": "search-index.js",
    "track": "track.js",  # the lessons, their exercises and questions (track.py), for progress.js
    "offline": "sw.js",  # the service worker, at the site's root (serviceworker.py), for offline.js
    "bundle-worker": "bundle/worker-source.js",
    "bundle-engine": "bundle/engine-data.js",
    "bundle-pyodide": "bundle/pyodide-data.js",
}

_HASHED = re.compile(rf"^(?P<stem>.+)\.(?P<digest>[0-9a-f]{{{DIGITS}}})(?P<suffix>\.[^./]+)$")
_URL = re.compile(r"""url\(\s*(["']?)([^"')\s]+)\1\s*\)""")


def hashed_name(name: str, data: bytes) -> str:
    """'js/core.js' and its bytes -> 'js/core.1a2b3c4d.js'."""
    path = PurePosixPath(name)
    digest = hashlib.sha256(data).hexdigest()[:DIGITS]
    return str(path.with_name(f"{path.stem}.{digest}{path.suffix}"))


def plain_name(hashed: str) -> str | None:
    """'js/core.1a2b3c4d.js' -> 'js/core.js'; None for a name without a hash."""
    path = PurePosixPath(hashed)
    match = _HASHED.match(path.name)
    if not match:
        return None
    return str(path.with_name(match["stem"] + match["suffix"]))


def build_id(runtime: dict[str, bytes]) -> str:
    """The id of a build's runtime: a digest of its files' names and bytes, and of the
    Pyodide version. Equal for equal input; 12 hex digits."""
    digest = hashlib.sha256(f"pyodide {pyodide.VERSION}\n".encode())
    for name in sorted(runtime):
        digest.update(f"{name} {hashlib.sha256(runtime[name]).hexdigest()}\n".encode())
    return digest.hexdigest()[:12]


def hash_folder(folder: Path) -> dict[str, str]:
    """Rename every file under ``folder`` (the assets folder), except Pyodide's, to its
    hashed name; CSS ``url()``s first point at the hashed names of what they load.
    Returns {plain name: hashed name}, both relative to ``folder``."""
    names: dict[str, str] = {}
    files = sorted(p for p in folder.rglob("*") if p.is_file() and not _in_pyodide(p, folder))
    styles = [p for p in files if p.suffix == ".css"]
    for path in [p for p in files if p.suffix != ".css"] + styles:  # what CSS names is named first
        name = path.relative_to(folder).as_posix()
        css = path.suffix == ".css"
        data = _rewrite_css(path.read_text(encoding="utf-8"), name, names).encode() if css else path.read_bytes()
        names[name] = hashed_name(name, data)
        target = folder / names[name]
        target.parent.mkdir(parents=True, exist_ok=True)
        if css:
            target.write_bytes(data)
            path.unlink()
        else:
            path.replace(target)  # renamed: its bytes are not written again
    return names


def add(folder: Path, name: str, data: bytes) -> str:
    """Write ``data`` under ``folder`` with its hashed name; returns that name."""
    hashed = hashed_name(name, data)
    target = folder / hashed
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)
    return hashed


def script_map(names: dict[str, str]) -> dict[str, str]:
    """The map the page carries: key -> hashed name, for the files the scripts load."""
    found = {key: names[name] for key, name in SCRIPT_KEYS.items() if name in names}
    found["pyodide"] = PYODIDE
    return found


def names_in(site: Path, folder: str = "_explorables") -> dict[str, str]:
    """{plain name: hashed name} of a built site's assets, read from the files
    themselves (for tests and tools: no map file is published)."""
    root = Path(site) / folder
    names = {}
    for path in sorted(root.rglob("*")):
        if path.is_file() and not _in_pyodide(path, root):
            hashed = path.relative_to(root).as_posix()
            names[plain_name(hashed) or hashed] = hashed
    return names


def _in_pyodide(path: Path, folder: Path) -> bool:
    return path.relative_to(folder).parts[0] == "pyodide"


def _rewrite_css(css: str, name: str, names: dict[str, str]) -> str:
    """Every url() of ``css`` (at ``name``) that points at an asset, to its hashed name."""
    base = PurePosixPath(name).parent

    def replace(match: re.Match) -> str:
        quote, url = match.group(1), match.group(2)
        if ":" in url or url.startswith(("/", "#")):
            return match.group(0)
        target = _normal(base / url)
        if target not in names:
            return match.group(0)
        relative = _relative(names[target], base)
        return f"url({quote}{relative}{quote})"

    return _URL.sub(replace, css)


def _normal(path: PurePosixPath) -> str:
    parts: list[str] = []
    for part in path.parts:
        if part == "..":
            if parts:
                parts.pop()
        elif part not in (".", ""):
            parts.append(part)
    return "/".join(parts)


def _relative(target: str, base: PurePosixPath) -> str:
    up = len([p for p in base.parts if p not in (".", "")])
    return "../" * up + target
