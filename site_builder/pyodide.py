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
# sha256 of each core file as it is in that tarball: whatever the source (npm, a local
# folder, the cache), the files a site ships are checked against these.
CORE_SHA256 = {
    "pyodide.mjs": "6f1d60f7bf529beb300f0f47983c921d3982363640ba20af0e38efdddbc66109",
    "pyodide.asm.mjs": "f7cdc8ece80678ceb712f8e65ebe6d3a83203a180c399865f49612a051693635",
    "pyodide.asm.wasm": "cc36e3cab04fdfc9a63ff13eb52eae2b911bf46c025cc7b281f394bd3de1d5e6",
    "python_stdlib.zip": "fa1957e5777068fc4f7437f96d860ae2fbe9c19732ba06c84e004ec16dd7dd7a",
    "pyodide-lock.json": "5dc2fc119108bc148c7457dc86e7675b5c87e1cafd420b9c34c1eaef7b36c010",
}
CORE_FILES = tuple(CORE_SHA256)
_verified: dict[tuple[str, int, int], bool] = {}  # (path, size, mtime) of files already checked
ENV_VAR = "EXPLORABLES_PYODIDE"


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "explorables" / f"pyodide-{VERSION}"


def _integrity_of(path: Path) -> str:
    digest = hashlib.sha512(path.read_bytes()).digest()
    return "sha512-" + base64.b64encode(digest).decode("ascii")


def _has_core(folder: Path) -> bool:
    return all((folder / name).is_file() for name in CORE_FILES)


def verify(folder: Path) -> Path:
    """Check every core file in ``folder`` against its pinned sha256."""
    for name, expected in CORE_SHA256.items():
        path = folder / name
        stat = path.stat()
        key = (str(path), stat.st_size, stat.st_mtime_ns)
        if _verified.get(key):
            continue
        found = hashlib.sha256(path.read_bytes()).hexdigest()
        if found != expected:
            raise PyodideError(
                f"{path} is not the file of pyodide {VERSION} (sha256 {found}, expected {expected}). "
                f"Use an untouched copy: `npm pack pyodide@{VERSION}` and pass the .tgz with --pyodide, "
                f"or delete {cache_dir()} to fetch it again."
            )
        _verified[key] = True
    return folder


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
            if hasattr(tarfile, "data_filter"):  # Python 3.11.4 and newer
                archive.extractall(tmp, members=members, filter="data")
            else:
                archive.extractall(tmp, members=members)
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
        return verify(folder)
    if path.is_file() and path.name.endswith((".tgz", ".tar.gz")):
        cached = cache_dir()
        marker = cached / ".integrity"
        if _has_core(cached) and marker.is_file() and marker.read_text() == INTEGRITY:
            return verify(cached)
        return verify(_unpack(path, cached))
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
    marker = cached / ".integrity"
    if _has_core(cached) and marker.is_file() and marker.read_text() == INTEGRITY:
        return verify(cached)
    return verify(_npm_pack())


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
