"""What an offline bundle carries as classic scripts of data (see commands/bundle.py): a
page opened from disk (file://) may not fetch files, load module scripts or start module
workers, so the build writes the worker's code, the engine archive, Pyodide and every
page's content as scripts that add themselves to ``window.explorablesBundle``.
"""

from __future__ import annotations

import base64
import html
import json
import re
from pathlib import Path

from ..pyodide import release as pyodide
from .assets import ASSETS, STATIC

_BODY = re.compile(r"<body[^>]*>(.*)</body>", re.S)
_TITLE = re.compile(r"<title>(.*?)</title>", re.S)
_ASSETS = re.compile(r'<body[^>]*\sdata-assets="([^"]*)"')


def write_data(assets: Path, engine: bytes, python_lib: bytes, pyodide_source: str | None) -> None:
    """The worker's code, the engine archive and Pyodide (with ``python_lib``, the site's
    standard library: stdlib.py) as classic scripts of data, in ``assets``/bundle/ under
    their plain names (the build hashes them with the rest)."""
    data = assets / "bundle"
    data.mkdir(exist_ok=True)
    (data / "worker-source.js").write_bytes(
        _data_script("workerSource", (STATIC / "js" / "worker.js").read_text(encoding="utf-8"))
    )
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
        found[name] = {
            "title": _unescape(title.group(1)) if title else Path(name).stem,
            "body": body.group(1),
            "assets": _unescape(assets.group(1)) if assets else "../" * name.count("/") + ASSETS + "/",
        }
    return found


def _unescape(text: str) -> str:
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
