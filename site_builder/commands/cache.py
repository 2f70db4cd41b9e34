"""The build cache: what an earlier build made, kept under the user's cache folder
(``$XDG_CACHE_HOME/explorables/build`` or ``~/.cache/explorables/build``; the
``EXPLORABLES_CACHE`` variable names another folder, or ``off``), so that a build does
only the work its changes need.

- **A built site.** A build records the key of what it was made from (every file of the
  site: its lessons, images, site.yml, its figures and words, and where each symbolic
  link among them points; the tool's own files; the build's options) and a listing of
  the folder it wrote. A build of the same key into a folder that still holds that
  listing does nothing at all.
- **Each page.** A page's parse (parse_page's Page) is kept under the key of its text,
  the site's other inputs (site.yml, figures, words, images) and the tool; its body
  (render_page's, with what rendering added to the page) under that key and a summary
  of what other pages may take from the site (every page's address, title, front
  matter, anchors and figure numbers). An edit of a lesson's text parses and renders
  that lesson again, and the others too only when what they may link to has changed.

Any change of the tool (a file of site_builder/, engine/, static/ or explorables/,
Python's version) changes every key. A cache that cannot be read or written is passed
by: the build then does the work.
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import sys
from pathlib import Path
from typing import Any

from ... import __version__
from ..authors.loader import watched
from ..disk import keep
from ..output.assets import STATIC, TEMPLATES
from ..pyodide.archive import ENGINE, TOP
from ..structure.config import config_path

BUILDER = Path(__file__).resolve().parents[1]  # site_builder/ (TEMPLATES is inside it)
TOOL_FOLDERS = (BUILDER, ENGINE, TOP, STATIC, TEMPLATES)  # the tool's own files: a change makes everything again
_KNOWN: dict[tuple, str] = {}  # a folder's listing (name, size, time; links) -> its files' hash, for this process


def folder() -> Path | None:
    """The cache's folder, or None when it is turned off."""
    setting = os.environ.get("EXPLORABLES_CACHE", "")
    if setting == "off":
        return None
    if setting:
        return Path(setting)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "explorables" / "build"


def _scan(roots: list[Path]) -> tuple[list[Path], dict[str, str]]:
    """Every file under ``roots`` (a root may be a file), names starting with '.' and
    Python's caches left out, sorted; and every symbolic link met on the way, by its path,
    with the path it holds (a link to nowhere is listed with the files: its text is all
    the key can know of it). A link to a folder is followed as the build follows one:
    while it stays inside its root, and never to a folder above it, which would list the
    same files again and again."""
    found: list[Path] = []
    links: dict[str, str] = {}

    def link(path: str) -> None:
        try:
            links[path] = os.readlink(path)
        except OSError:
            links[path] = ""

    def walk(top: str, inside: str, above: tuple[str, ...]) -> None:
        try:
            entries = list(os.scandir(top))
        except OSError:
            return
        for entry in entries:
            if entry.name.startswith("."):
                continue
            linked = entry.is_symlink()  # known from the listing: no call for a folder without links
            if linked:
                link(entry.path)
            try:
                is_dir = entry.is_dir()
            except OSError:
                is_dir = False
            if not is_dir:
                if not entry.name.endswith(".pyc"):
                    found.append(Path(entry.path))
            elif entry.name != "__pycache__":
                real = os.path.realpath(entry.path) if linked else os.path.join(above[-1], entry.name)
                if not linked or (real not in above and real.startswith(inside)):
                    walk(entry.path, inside, (*above, real))

    for root in roots:
        if root.is_symlink():
            link(str(root))
        if root.is_file():
            found.append(root)
            continue
        real = os.path.realpath(root)
        walk(str(root), os.path.join(real, ""), (real,))
    return sorted(found), links


def _files(roots: list[Path]) -> list[Path]:
    """Every file under ``roots``, as ``_scan`` lists them."""
    return _scan(roots)[0]


def hash_files(roots: list[Path]) -> str:
    """A hash of the names and bytes of every file under ``roots`` and of every symbolic
    link's path and target; a file is read again only when its size or time has changed
    since this process last read it. A link added, removed or pointed elsewhere changes
    the hash, even one that leads nowhere (which the build then reports)."""
    files, links = _scan(roots)
    listing = []
    for path in files:
        try:
            stat = path.stat()
            listing.append((str(path), stat.st_size, stat.st_mtime_ns))
        except OSError:  # a link to nowhere, or a file gone meanwhile
            listing.append((str(path), -1, -1))
    key = (tuple(listing), tuple(sorted(links.items())))
    if key not in _KNOWN:
        digest = hashlib.sha256()
        for name, _, _ in listing:
            digest.update(name.encode("utf-8", "surrogateescape") + b"\0")
            try:
                digest.update(Path(name).read_bytes())
            except OSError:
                digest.update(b"\1")
        for name, target in key[1]:
            digest.update(b"\2" + name.encode("utf-8", "surrogateescape") + b"\0")
            digest.update(target.encode("utf-8", "surrogateescape") + b"\0")
        _KNOWN[key] = digest.hexdigest()
    return _KNOWN[key]


def tool() -> str:
    """The tool's key: its files, its version and Python's."""
    return _digest(__version__, sys.version, hash_files(list(TOOL_FOLDERS)))


def _digest(*parts: Any) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(repr(part).encode("utf-8", "surrogateescape") + b"\0")
    return digest.hexdigest()


def _listing(out_dir: Path) -> str:
    """The names, sizes and times of every file of a built site."""
    entries = []
    for top, dirs, files in os.walk(out_dir):
        dirs.sort()
        for name in sorted(files):
            try:
                stat = os.stat(os.path.join(top, name))
            except OSError:
                return ""
            entries.append((top, name, stat.st_size, stat.st_mtime_ns))
    return _digest(entries)


class Site:
    """One build's records: ``kept()`` says whether the site is built already, and
    ``built()`` records the site once it is; ``pages`` keeps each page's work."""

    def __init__(self, content: Path, out_dir: Path, options: dict, inputs: list[Path]) -> None:
        self.root = folder()
        self.out_dir = out_dir.resolve()
        content = content.resolve()
        self.tool = tool()
        lessons = [content]
        others = [path for path in inputs if path.exists()]
        self.site = hash_files(lessons + others)
        # what every page's parse may read besides its own text: all but the lessons' Markdown
        self.shared = _digest(
            self.tool, [(str(p), hash_files([p])) for p in _files([content, *others]) if p.suffix != ".md"]
        )
        self.key = _digest(self.tool, self.site, sorted((k, repr(v)) for k, v in options.items()))
        self.record = self.root / "sites" / (_digest(str(self.out_dir))[:32] + ".json") if self.root else None

    def kept(self) -> dict | None:
        """What the build of this key said, if the output folder still holds what it wrote."""
        if self.record is None:
            return None
        try:
            known = json.loads(self.record.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if known.get("key") != self.key or known.get("listing") != _listing(self.out_dir):
            return None
        return known.get("result")

    def built(self, result: dict) -> None:
        if self.record is None:
            return
        keep(self.record, json.dumps({"key": self.key, "listing": _listing(self.out_dir), "result": result}).encode())

    def parse_key(self, path: Path, text: str) -> str:
        return _digest("parse", self.shared, str(path), text)

    def get(self, key: str) -> Any:
        """What was put under ``key``, or None."""
        if self.root is None:
            return None
        try:
            return pickle.loads((self.root / "pages" / key[:2] / key).read_bytes())
        except Exception:  # missing, cut short, or from another version of a library: done again
            return None

    def put(self, key: str, data: bytes) -> None:
        if self.root is not None:
            keep(self.root / "pages" / key[:2] / key, data)


def summary(pages: list) -> str:
    """What a page's body may take from the other pages: their addresses, titles, front
    matter, anchors and figures' ids and numbers."""
    found = []
    for page in pages:
        ids = [
            (token.type, token.attrGet("id") or (token.meta or {}).get("id"))
            for token in page.tokens
            if token.attrGet("id") or (isinstance(token.meta, dict) and "id" in token.meta)
        ]
        found.append((str(page.path), page.url, page.title, repr(page.meta), page.env.get("figure_total"), ids))
    return _digest(found)


def render_key(store: Site, page, site_summary: str) -> str:
    return _digest(
        "render",
        store.parse_key(page.path, "\n".join(page.env.get("lines") or [])),
        site_summary,
        page.url,
        page.folder,
        page.env.get("figure_offset"),
    )


_CURRENT: list[Site | None] = [None]  # the build running in this process


def begin(content: Path, out_dir: Path, options: dict) -> Site | None:
    """The records of a build of ``content`` into ``out_dir`` with ``options`` (every
    argument of build_site), used by the stages until the next build; None when the
    cache is off or the site's settings cannot be read (the build then says why)."""
    _CURRENT[0] = None
    if folder() is None:
        return None
    try:
        config = config_path(content)
        _CURRENT[0] = Site(content, out_dir, options, [config, config.parent / "locales", *watched(content)])
    except Exception:
        return None
    return _CURRENT[0]


def current() -> Site | None:
    return _CURRENT[0]


def built(pages: int, figures: int, warnings: list[str]) -> None:
    """Record the site the running build has just put in place."""
    if _CURRENT[0] is not None:
        _CURRENT[0].built({"pages": pages, "figures": figures, "warnings": warnings})
