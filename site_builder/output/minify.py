"""The runtime's scripts minified ahead of time, with their local names shortened.

Every lesson's first frame loads the runtime (js/explorables.js), and a page must stay
within 60 KB gzip-compressed before its first frame. rjsmin, which runs in the build,
only drops comments and spaces; a minifier that also renames each function's locals
(terser, a Node program) makes the runtime about an eighth smaller compressed (25.0 KB
-> 21.8 KB). Authors' machines need no Node for that: the scripts are minified once,
here, and shipped with the package as ``runtime-minified.json``, which holds for each
script of static/ its minified text and the sha256 of the source it was made from.

The build (scripts.join_scripts) uses a script's minified text only while its source
still has that sha256; any other script (an edited one) is minified by rjsmin as
before, so a stale artifact makes a page a little larger, never wrong. Each script is a
self-contained IIFE, so each is minified on its own and joined afterwards in any order
a build needs (the served runtime, an offline bundle's, the scripts loaded later).

After changing a script in static/, make it again (needs Node and npm, which fetches
the pinned terser into the user's cache once)::

    python -m explorables.site_builder.output.minify

tests/test_minify.py fails, naming the scripts, while any of them is stale.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import rjsmin

from ..pyodide.ahead import kept, remake, sha
from .assets import STATIC

ARTIFACT = Path(__file__).resolve().parent.parent / "runtime-minified.json"
TERSER = "5.51.4"
# What terser does: compress and rename locals, nothing that needs a newer browser than the
# runtime's own code does; top-level names are untouched (each script is one IIFE).
OPTIONS = {"ecma": 2019, "compress": {"passes": 2}, "mangle": True, "format": {"comments": False}}

# node -e SCRIPT TERSER_DIR OPTIONS: reads {name: source} on stdin, writes {name: minified} to stdout.
NODE_SCRIPT = r"""
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
const [dir, given] = process.argv.slice(1);
const require = createRequire(dir + "/");
const { minify } = require("terser");
const sources = JSON.parse(readFileSync(0, "utf8"));
const options = JSON.parse(given);
const out = {};
for (const name of Object.keys(sources).sort()) out[name] = (await minify(sources[name], options)).code;
process.stdout.write(JSON.stringify(out));
"""


def _read(artifact: Path) -> dict:
    """The artifact's scripts: name -> {"source": sha256, "text": minified}; none if they
    were made by another terser or with other options."""
    made = json.loads(artifact.read_text(encoding="utf-8"))
    if made.get("terser") != TERSER or made.get("options") != OPTIONS:
        return {}
    return made.get("scripts", {})


def _artifact() -> dict:
    try:
        return kept(ARTIFACT, _read)
    except (OSError, ValueError, AttributeError):
        return {}


def minified(name: str, source: str) -> str:
    """``source`` (the script static/``name``) minified: the artifact's text when it was
    made from this very source, rjsmin's otherwise."""
    kept = _artifact().get(name)
    if kept and kept.get("source") == sha(source):
        return kept["text"]
    return rjsmin.jsmin(source)


def sources(static: Path) -> dict[str, str]:
    """Every script of static/ a build may minify (the preview's live reload is never
    minified): name -> source."""
    return {
        path.relative_to(static).as_posix(): path.read_text(encoding="utf-8")
        for path in sorted((static / "js").rglob("*.js"))
        if path.name != "livereload.js"
    }


def stale(scripts: dict[str, str]) -> list[str]:
    """The scripts of ``scripts`` that the artifact does not hold minified as they are."""
    shipped = _artifact()
    return sorted(name for name, source in scripts.items() if shipped.get(name, {}).get("source") != sha(source))


def terser_dir() -> Path:
    """The pinned terser, installed by npm into the user's cache on first use."""
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "explorables"
    where = cache / f"terser-{TERSER}"
    if not (where / "node_modules" / "terser" / "package.json").exists():
        npm = shutil.which("npm")
        if not npm:
            raise SystemExit("Minifying the runtime needs npm (and Node 18 or later) on PATH.")
        where.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [npm, "install", "--prefix", str(where), "--no-audit", "--no-fund", "--ignore-scripts", f"terser@{TERSER}"],
            check=True,
            stdout=subprocess.DEVNULL,
        )
    return where


def make(scripts: dict[str, str], node: str, terser: Path) -> str:
    """The artifact's text for ``scripts``, minified by terser (installed in ``terser``) in Node."""
    done = subprocess.run(
        [node, "--input-type=module", "-e", NODE_SCRIPT, str(terser), json.dumps(OPTIONS)],
        input=json.dumps(scripts),
        capture_output=True,
        text=True,
    )
    if done.returncode:  # terser names the script, line and column it could not read
        raise SystemExit(f"terser failed:\n{done.stderr.strip()}")
    texts = json.loads(done.stdout)
    made = {name: {"source": sha(source), "text": texts[name]} for name, source in sorted(scripts.items())}
    return json.dumps({"terser": TERSER, "options": OPTIONS, "scripts": made}, indent=1, sort_keys=True) + "\n"


def main() -> int:
    return remake(
        ARTIFACT,
        sources(STATIC),
        stale,
        lambda scripts, node: make(scripts, node, terser_dir()),
        doing="Minifying the runtime",
        done="Minified {n} scripts",
    )


if __name__ == "__main__":
    sys.exit(main())
