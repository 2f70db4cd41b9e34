"""Obtain the pinned Pyodide release, verify it, cache it per user, vendor it into sites.

Where it comes from, in order:
1. a local copy named by ``--pyodide PATH`` or ``EXPLORABLES_PYODIDE`` (an unpacked
   ``package/`` folder or the npm ``.tgz``), for machines with no network;
2. the per-user cache (``$XDG_CACHE_HOME/explorables`` or ``~/.cache/explorables``);
3. ``npm pack pyodide@VERSION``, whose tarball is checked against the pinned hash before
   it is unpacked into the cache.

Only the core files a site needs are vendored (CORE_FILES); the engine is pure Python,
so no wheels are needed.
"""
from __future__ import annotations

import base64
import hashlib
import os
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path

from .errors import PyodideError

VERSION = "314.0.7"
# npm "integrity" of pyodide-314.0.7.tgz (sha512 of the tarball, base64).
INTEGRITY = "sha512-0YvXxEhfEdpLfb/XkM2BFAeMROq0iMUX2bzzH9pOttyMcWkwq+HbE5uyuGD82LN7y2q+SNvi/6V5JEsOlD2R1A=="
CORE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
ENV_VAR = "EXPLORABLES_PYODIDE"


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "explorables" / f"pyodide-{VERSION}"


def _integrity_of(path: Path) -> str:
    digest = hashlib.sha512(path.read_bytes()).digest()
    return "sha512-" + base64.b64encode(digest).decode("ascii")


def _has_core(folder: Path) -> bool:
    return all((folder / name).is_file() for name in CORE_FILES)


def _unpack(tgz: Path, dest: Path) -> Path:
    """Check the tarball's hash, then unpack its ``package/`` folder into ``dest``."""
    found = _integrity_of(tgz)
    if found != INTEGRITY:
        raise PyodideError(
            f"{tgz} is not pyodide {VERSION}: its sha512 is {found}, expected {INTEGRITY}. "
            f"Download it again with `npm pack pyodide@{VERSION}`."
        )
    dest.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=dest.parent) as tmp:
        with tarfile.open(tgz) as archive:
            members = [m for m in archive.getmembers()
                       if m.isfile() and m.name.startswith("package/") and ".." not in m.name]
            archive.extractall(tmp, members=members, filter="data")
        if dest.exists():
            shutil.rmtree(dest)
        (Path(tmp) / "package" / ".integrity").write_text(INTEGRITY)
        os.replace(Path(tmp) / "package", dest)
    return dest


def _from_local(path: Path) -> Path:
    if path.is_dir():
        folder = path / "package" if (path / "package").is_dir() else path
        if not _has_core(folder):
            missing = [n for n in CORE_FILES if not (folder / n).is_file()]
            raise PyodideError(
                f"{path} does not hold Pyodide's core files (missing: {', '.join(missing)}). "
                f"Point {ENV_VAR} at the unpacked npm package folder or at pyodide-{VERSION}.tgz."
            )
        return folder
    if path.is_file() and path.name.endswith((".tgz", ".tar.gz")):
        cached = cache_dir()
        marker = cached / ".integrity"
        if _has_core(cached) and marker.is_file() and marker.read_text() == INTEGRITY:
            return cached
        return _unpack(path, cached)
    raise PyodideError(f"{ENV_VAR} / --pyodide points at {path}, which is neither a folder nor a .tgz file.")


def _npm_pack() -> Path:
    npm = shutil.which("npm")
    if npm is None:
        raise PyodideError(
            f"Pyodide {VERSION} is not in the cache ({cache_dir()}) and npm is not installed to fetch it.\n"
            f"Either install Node.js/npm and build again, or on a machine with npm run\n"
            f"    npm pack pyodide@{VERSION}\n"
            f"and pass the file: explorables build --pyodide pyodide-{VERSION}.tgz "
            f"(or set {ENV_VAR}=/path/to/pyodide-{VERSION}.tgz)."
        )
    with tempfile.TemporaryDirectory() as tmp:
        result = subprocess.run([npm, "pack", f"pyodide@{VERSION}", "--silent"], cwd=tmp,
                                capture_output=True, text=True)
        tgz = Path(tmp) / f"pyodide-{VERSION}.tgz"
        if result.returncode != 0 or not tgz.is_file():
            raise PyodideError(
                f"`npm pack pyodide@{VERSION}` failed: {result.stderr.strip() or result.stdout.strip()}\n"
                f"With no network, fetch pyodide-{VERSION}.tgz elsewhere and pass it with --pyodide "
                f"or {ENV_VAR}."
            )
        return _unpack(tgz, cache_dir())


def ensure_pyodide(local: str | os.PathLike | None = None) -> Path:
    """The folder holding Pyodide's core files, obtaining them if needed."""
    local = local or os.environ.get(ENV_VAR)
    if local:
        return _from_local(Path(local).expanduser())
    cached = cache_dir()
    if _has_core(cached) and (cached / ".integrity").is_file():
        return cached
    return _npm_pack()


def vendor(dest: Path, local: str | os.PathLike | None = None) -> None:
    """Copy the core files into ``dest`` (a site's assets/pyodide folder)."""
    source = ensure_pyodide(local)
    dest.mkdir(parents=True, exist_ok=True)
    for name in CORE_FILES:
        target = dest / name
        src = source / name
        try:
            os.link(src, target)  # same disk: no copy of 13 MB per build
        except OSError:
            shutil.copy2(src, target)
