"""The site's service worker, ``sw.js`` at the site's root: a published site is kept in
the reader's browser after the first visit and works offline (static/js/serviceworker.js
says how; static/js/offline.js registers it).

Its address never changes (a browser looks for a new worker at the same address); its
bytes name the build id and a digest of every file of the site, so a new deploy of
anything, a lesson's text too, is a new worker, which takes the new version's files
without mixing them with the old. It lists every file of the built site but itself and
the host's dotfiles, each with the first digits of its sha256, which the worker checks
before it keeps a file.

A published site with ``offline: false`` and the preview of ``explorables serve`` get a
worker with no files, which undoes an earlier one (a reader who visited the site before
it turned offline reading off gets the pages from the network again); their pages
register nothing. An offline bundle (file://) gets none.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from ...engine import locale
from ..pyodide import release as pyodide
from .assets import STATIC
from .minify import minified

FILE = "sw.js"  # at the site's root: its scope is the whole site, at / or under /repo/
SOURCE = "js/serviceworker.js"  # under static/
DIGITS = 16  # hex digits of each file's sha256 the worker checks
# The page's asset map names the worker under this key, relative to the assets folder
# (js/offline.js registers what it names; no key: nothing to register).
KEY_NAME = "../" + FILE
# What the page says of it (js/offline.js), in the catalogues (engine/locales/*.json)
WORDS = ("page.offline_ready", "page.offline_update", "page.offline_reload")


def wanted(offline: bool, *, dev: bool, bundle: bool) -> bool:
    """Whether the pages register the worker: a published site with ``offline: true``."""
    return offline and not dev and not bundle


def announce(names: dict[str, str], offline: bool, *, dev: bool, bundle: bool) -> None:
    """Name the worker in the pages' asset map (``names``, plain name -> name under
    the assets folder) when they are to register it."""
    if wanted(offline, dev=dev, bundle=bundle):
        names[FILE] = KEY_NAME


def write(site: Path, build: str, config, words, *, dev: bool, bundle: bool) -> None:
    """Write ``sw.js`` into the finished ``site``: the worker with every file and the
    words of its notes (``words``: the site's, in its language), or the one that undoes
    an earlier worker (``offline: false`` in ``config``, a preview); none in a bundle."""
    if bundle:
        return
    data: dict[str, object]
    if wanted(config.offline, dev=dev, bundle=bundle):
        files = site_files(site)
        digest = hashlib.sha256("".join(f"{path} {files[path]}\n" for path in sorted(files)).encode())
        version = f"{build}-{digest.hexdigest()[:12]}"
        notes = notes_words(config.language, words.messages)
        data = {"build": build, "version": version, "files": files, "words": notes}
    else:
        data = {"build": build, "version": None, "files": None}
    source = (STATIC / SOURCE).read_text(encoding="utf-8")
    code = source if dev else minified(SOURCE, source)
    (site / FILE).write_text(worker_text(data, code), encoding="utf-8")


def notes_words(language: str, messages: dict[str, str]) -> dict[str, dict[str, str]]:
    """The notes' words (``page.offline_*``), by language: the site's own in its language,
    the shipped catalogues' in every other (a page written in another language, a site in
    several). They come with the worker's answers, needed only then: not in every page's
    words block."""
    found = {language: {key: messages.get(key, locale.ENGLISH[key]) for key in WORDS}}
    for path in sorted(locale.LOCALES.glob("*.json")):
        if path.stem not in found:
            shipped = locale.resolve(path.stem)[0]
            found[path.stem] = {key: shipped[key] for key in WORDS}
    return found


def site_files(site: Path) -> dict[str, str]:
    """{path from the site's root: first DIGITS hex digits of its sha256} of every file
    in ``site`` a reader may open: all but the worker itself and the files for the host
    (``.nojekyll``, the build's marker), which a host need not serve (one the worker
    could not fetch would keep the whole site from being cached)."""
    found = {}
    for path in sorted(site.rglob("*")):
        name = path.relative_to(site).as_posix()
        if path.is_file() and name != FILE and not any(part.startswith(".") for part in name.split("/")):
            found[name] = _digest(path, name)
    if len(_DIGESTS) > 4 * len(found) + 1000:  # a long ``serve``: the files of old builds go
        _DIGESTS.clear()
    return found


_DIGESTS: dict[tuple, str] = {}  # (name in the site, file's identity, size, time) -> digest, for this process


def _digest(path: Path, name: str) -> str:
    """The first DIGITS hex digits of a file's sha256, read again only when the file has
    changed since this process read it: Pyodide's files, linked to its cache, are the same
    files in every build of every site, and their sha256 is known once they are verified."""
    stat = path.stat()
    key = (name, *pyodide.identity(stat))
    if key not in _DIGESTS:
        known = pyodide.checked(stat)
        _DIGESTS[key] = (known or hashlib.sha256(path.read_bytes()).hexdigest())[:DIGITS]
    return _DIGESTS[key]


def worker_text(data: dict, code: str) -> str:
    """The worker's script: its data, then its code."""
    text = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return f"self.explorablesOffline = {text};\n{code}"


def read_data(site: Path) -> dict:
    """The data a built site's ``sw.js`` carries (for tests and tools)."""
    text = (Path(site) / FILE).read_text(encoding="utf-8")
    first = text.split("\n", 1)[0]
    return json.loads(first.removeprefix("self.explorablesOffline = ").removesuffix(";"))
