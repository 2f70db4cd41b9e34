"""Obtain the pinned Pyodide release, verify it, cache it per user, vendor it into sites.

Where it comes from, in order:
1. a local copy named by ``--pyodide PATH`` or ``EXPLORABLES_PYODIDE`` (an unpacked
   ``package/`` folder or the npm ``.tgz``), for machines with no network;
2. the per-user cache (``$XDG_CACHE_HOME/explorables`` or ``~/.cache/explorables``);
3. the npm registry's tarball (TARBALL_URL), downloaded with the standard library: no
   Node or npm is needed to build;
4. ``npm pack pyodide@VERSION``, where the download failed (a proxy npm knows about).
Every tarball is checked against the pinned sha512 before it is unpacked into the
cache; when every source fails, the error lists what each one said.

Only the core files a site needs are vendored (CORE_FILES); the engine is pure Python,
so no wheels are needed.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import shutil
import subprocess
import tarfile
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

from ..disk import keep
from ..errors import PyodideError

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
# Their sizes in bytes (fixed by the hashes above): what a reader downloads to start
# Python, said on the data-saving "Start" button before anything is fetched.
CORE_BYTES = {
    "pyodide.mjs": 17931,
    "pyodide.asm.mjs": 1250344,
    "pyodide.asm.wasm": 9598218,
    "python_stdlib.zip": 2545637,
    "pyodide-lock.json": 119077,
}
# What a site carries in its Pyodide folder: the standard library goes as the site's own
# (stdlib.py: with modules compiled ahead), which the worker names to loadPyodide.
SITE_FILES = tuple(name for name in CORE_FILES if name != "python_stdlib.zip")
SITE_BYTES = sum(CORE_BYTES[name] for name in SITE_FILES)
# The core files checked so far, by their identity (device, inode, size, time): the sha256
# each was found to have. The cache's are also kept in its RECORD, for the next process: a
# build of a small site hashed Pyodide's 13 MB anew every time, a tenth of its time; a site
# vendors them as links, whose digests its offline worker's list then takes from here.
_verified: dict[tuple[int, int, int, int], str] = {}
RECORD = ".verified"  # in the cache folder: {name: [device, inode, size, time, sha256]}
RACY = 2  # seconds: a file written as recently as this is hashed again by the next process
_tarballs: dict[tuple[str, int, int], str] = {}  # (path, size, mtime) of a named tarball -> its integrity
ENV_VAR = "EXPLORABLES_PYODIDE"
TARBALL_URL = f"https://registry.npmjs.org/pyodide/-/pyodide-{VERSION}.tgz"
DOWNLOAD_TIMEOUT = 60  # seconds without a byte before the download gives up


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "explorables" / f"pyodide-{VERSION}"


def _integrity_of(path: Path) -> str:
    digest = hashlib.sha512(path.read_bytes()).digest()
    return "sha512-" + base64.b64encode(digest).decode("ascii")


def _has_core(folder: Path) -> bool:
    return all((folder / name).is_file() for name in CORE_FILES)


def identity(stat: os.stat_result) -> tuple[int, int, int, int]:
    """A file's device, inode, size and modification time: what a write changes, unless
    it keeps the size and sets the time back (``cp -p`` of a file of the same size over
    it, ``touch -r``); see verify."""
    return stat.st_dev, stat.st_ino, stat.st_size, stat.st_mtime_ns


def checked(stat: os.stat_result) -> str | None:
    """The sha256 of a core file verified in this process (or recorded in the cache) that
    ``stat`` is, a site's link to it included; None for any other file."""
    return _verified.get(identity(stat))


def verify(folder: Path) -> Path:
    """Check every core file in ``folder`` against its pinned sha256. The cache's files
    are hashed once: while their identities are those its record names, with the hashes
    pinned now, they are taken as the files checked then (a file written over in place
    with its size and time kept is not seen: delete the cache folder to check it again).
    A file written in the last RACY seconds is not recorded: a write within the same tick
    of the clock would keep its time."""
    own = folder.resolve() == cache_dir().resolve()
    record = _read_record(folder) if own else {}
    seen = {}
    for name, expected in CORE_SHA256.items():
        path = folder / name
        key = identity(path.stat())
        seen[name] = [*key, expected]
        if _verified.get(key) == expected or record.get(name) == seen[name]:
            _verified[key] = expected
            continue
        found = hashlib.sha256(path.read_bytes()).hexdigest()
        if found != expected:
            raise PyodideError(
                f"{path} is not the file of pyodide {VERSION} (sha256 {found}, expected {expected}). "
                f"Use an untouched copy: download {TARBALL_URL} and pass the .tgz with --pyodide, "
                f"or delete {cache_dir()} to fetch it again."
            )
        _verified[key] = expected
        if time.time_ns() - key[3] < RACY * 1_000_000_000:
            del seen[name]
    if own and record != seen:  # (a cache that cannot be written is checked again next time)
        keep(folder / RECORD, json.dumps(seen).encode("utf-8"))
    return folder


def _read_record(folder: Path) -> dict:
    try:
        record = json.loads((folder / RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return record if isinstance(record, dict) else {}


def _unpack(tgz: Path, dest: Path, found: str | None = None) -> Path:
    """Check the tarball's hash (``found``, where the caller has it already), then unpack
    its ``package/`` folder into ``dest``."""
    found = found or _integrity_of(tgz)
    if found != INTEGRITY:
        raise PyodideError(
            f"{tgz} is not pyodide {VERSION}: its sha512 is {found}, expected {INTEGRITY}. "
            f"Download it again from {TARBALL_URL} (or with `npm pack pyodide@{VERSION}`)."
        )
    dest.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=dest.parent) as tmp:
        with tarfile.open(tgz) as archive:
            members = [
                m for m in archive.getmembers() if m.isfile() and m.name.startswith("package/") and ".." not in m.name
            ]
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
        found = _named_tarball(path)  # the file named is the one used, even with a warm cache
        cached = cache_dir()
        marker = cached / ".integrity"
        if _has_core(cached) and marker.is_file() and marker.read_text() == INTEGRITY:
            return verify(cached)
        return verify(_unpack(path, cached, found))
    if not path.exists():
        raise PyodideError(
            f"{ENV_VAR} / --pyodide points at {path}, which does not exist. "
            f"Pass pyodide-{VERSION}.tgz (from {TARBALL_URL}) or its unpacked package folder."
        )
    raise PyodideError(f"{ENV_VAR} / --pyodide points at {path}, which is neither a folder nor a .tgz file.")


def _named_tarball(path: Path) -> str:
    """The integrity of the tarball an author named, once per version of the file; a
    PyodideError naming the file when it is not the pinned release's tarball."""
    stat = path.stat()
    key = (str(path.resolve()), stat.st_size, stat.st_mtime_ns)
    found = _tarballs.get(key)
    if found is None:
        found = _tarballs[key] = _integrity_of(path)
    if found == INTEGRITY:
        return found
    fix = f"Download {TARBALL_URL} (or run `npm pack pyodide@{VERSION}`) and pass that file."
    if not tarfile.is_tarfile(path):
        raise PyodideError(
            f"{ENV_VAR} / --pyodide points at {path}, which is not a tarball (a .tgz archive) at all. {fix}"
        )
    held = _version_in(path)
    what = f"it holds pyodide {held}" if held else "its contents differ"
    raise PyodideError(
        f"{ENV_VAR} / --pyodide points at {path}, which is not the tarball of pyodide {VERSION}: "
        f"{what} (sha512 {found}, expected {INTEGRITY}). {fix}"
    )


def _version_in(path: Path) -> str:
    """The version a tarball's ``package/package.json`` names, or "" if there is none."""
    try:
        with tarfile.open(path) as archive:
            member = archive.extractfile("package/package.json")
            data = json.loads(member.read(1 << 20)) if member else {}
        return str(data.get("version", "")) if data.get("name") == "pyodide" else ""
    except (tarfile.TarError, KeyError, OSError, ValueError, AttributeError):
        return ""


def _download(url: str = "") -> Path:
    """Fetch the registry's tarball with urllib, check it, unpack it into the cache."""
    url = url or TARBALL_URL
    cache = cache_dir()
    cache.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=cache.parent) as tmp:
        tgz = Path(tmp) / f"pyodide-{VERSION}.tgz"
        try:
            with urllib.request.urlopen(url, timeout=DOWNLOAD_TIMEOUT) as response, open(tgz, "wb") as out:
                shutil.copyfileobj(response, out, length=1 << 20)
        except (urllib.error.URLError, OSError, ValueError) as err:
            reason = getattr(err, "reason", None) or err
            raise PyodideError(f"downloading {url} failed: {reason}") from None
        return _unpack(tgz, cache)


def _npm_pack() -> Path:
    npm = shutil.which("npm")
    if npm is None:
        raise PyodideError("npm is not installed, so `npm pack` could not fetch it either")
    with tempfile.TemporaryDirectory() as tmp:
        result = subprocess.run(
            [npm, "pack", f"pyodide@{VERSION}", "--silent"], cwd=tmp, capture_output=True, text=True
        )
        tgz = Path(tmp) / f"pyodide-{VERSION}.tgz"
        if result.returncode != 0 or not tgz.is_file():
            raise PyodideError(
                f"`npm pack pyodide@{VERSION}` failed: "
                f"{result.stderr.strip() or result.stdout.strip() or 'no tarball written'}"
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
    failures = []
    for source in (_download, _npm_pack):  # looked up now, so that tests can stand in for them
        try:
            return verify(source())
        except PyodideError as err:
            failures.append(str(err))
    said = "\n".join(f"  - {text}" for text in failures)
    raise PyodideError(
        f"Pyodide {VERSION} is not in the cache ({cached}) and could not be fetched:\n{said}\n"
        f"On a machine with network, download {TARBALL_URL}\n"
        f"(or run `npm pack pyodide@{VERSION}`) and pass the file: "
        f"explorables build --pyodide pyodide-{VERSION}.tgz\n"
        f"(or set {ENV_VAR}=/path/to/pyodide-{VERSION}.tgz)."
    )


def vendor(dest: Path, local: str | os.PathLike | None = None) -> None:
    """Copy the core files a site carries (SITE_FILES) into ``dest`` (its assets/pyodide folder)."""
    source = ensure_pyodide(local)
    dest.mkdir(parents=True, exist_ok=True)
    for name in SITE_FILES:
        target = dest / name
        src = source / name
        try:
            os.link(src, target)  # same disk: no copy of 13 MB per build
        except OSError:
            shutil.copy2(src, target)
