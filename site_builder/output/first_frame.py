"""What a served page loads before its first frame, and what waits for js/later.js.

- The runtime carries the panel kinds the page's figures draw, no others (panels.py).
- The page's words (the ``ex-words`` block) are those the first frame's scripts, the
  engine's worker and the numbers read; the words only js/later.js's scripts read come
  first in js/later.js (one a language: ``js/later.de.js``, which the German pages' asset
  map names); the engine's words the shipped catalogue already has are left out (the
  engine has them: engine/locale.py ``use``).
- In a site of several languages, js/languages.js comes in js/later.js too, and the
  runtime carries js/languages-early.js, which holds a switch clicked before it comes.

An offline bundle (and so a SCORM package) keeps every word and script in its pages and
runtime: it is read from disk, where nothing is fetched late. A preview keeps every word.
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

from ...engine import locale
from . import panels, scripts
from .assets import STATIC
from .minify import minified

EARLY = "js/languages-early.js"
LANGUAGES = "js/languages.js"
ALWAYS = ("number.", "own.")  # numbers.js reads number.* by a name it makes; own.*: the engine


def later_file(code: str, default: str) -> str:
    """js/later.js of the default language, js/later.CODE.js of another."""
    return scripts.LATER_FILE if code == default else f"js/later.{code}.js"


@functools.cache
def _texts() -> tuple[frozenset[str], frozenset[str]]:
    """What the scripts of the first frame (with the worker's and js/start.js) quote, and
    what those of js/later.js quote: every text between two quote marks, once."""

    def read(names) -> frozenset[str]:  # minified: a key a comment names is not read
        text = "".join(minified(name, (STATIC / name).read_text(encoding="utf-8")) for name in names)
        return frozenset(re.split(r"[\"']", text)[1:-1])

    first = read((*scripts.RUNTIME, *panels.SCRIPTS, scripts.START_FILE, "js/worker.js", EARLY, "js/bundle.js"))
    return first, read((*scripts.LATER, *scripts.SCORM_LATER, LANGUAGES))


def _named(key: str, quoted: frozenset[str]) -> bool:
    """Whether a script names ``key`` whole, in quotes (a key holds no quote mark)."""
    return key in quoted


def split(block: str) -> tuple[str, dict[str, str]]:
    """A page's words block (JSON) -> (the block its first frame needs, the words only
    js/later.js's scripts read). A word no script names is the engine's: left out where
    the shipped catalogue has it as it is."""
    data = json.loads(block)
    first_text, later_text = _texts()
    shipped = locale.resolve(data["language"])[0]
    first, later = {}, {}
    for key, text in data["messages"].items():
        if key.startswith(ALWAYS) or _named(key, first_text):
            first[key] = text
        elif _named(key, later_text):
            later[key] = text
        elif shipped.get(key) != text:
            first[key] = text
    data["messages"] = first
    return json.dumps(data, ensure_ascii=False, sort_keys=True).replace("</", "<\\/"), later


def words_piece(language: str, words: dict[str, str]) -> str:
    """js/later.js's first piece: the words of ``language`` the page left out, taken while
    the page still speaks it (a reader who changed language has that language's whole)."""
    given = json.dumps(words, ensure_ascii=False, sort_keys=True).replace("</", "<\\/")
    code = (
        "(function (words, more) { if (words.language !== %s) return;"
        " for (const key in more) if (!(key in words.messages)) words.messages[key] = more[key]; })"
        "(window.explorables.words, %s);"
    )
    return scripts.LATER_PIECE % (code % (json.dumps(language), given))


def write(assets: Path, rendered, *, bundle: bool, dev: bool) -> None:
    """Into ``assets`` (before its files are named by their content): each page's runtime
    of its panel kinds, each language's js/later.js, and in a site of several languages
    the runtime's early switch; each page's words block cut to its first frame's."""
    if bundle:
        return
    renders, common = rendered.renders, rendered.common
    scripts.write_panels(assets, renders, bundle=bundle, dev=dev)
    trees = getattr(rendered, "languages", None) or []
    later = (assets / scripts.LATER_FILE).read_text(encoding="utf-8")
    if trees:
        text = scripts.join_scripts(STATIC, (LANGUAGES,), minify=not dev)
        later = scripts.LATER_PIECE % text.rstrip() + later
        early = ";\n" + scripts.join_scripts(STATIC, (EARLY,), minify=not dev)
        for runtime in sorted((assets / "js").glob("explorables*.js")):
            runtime.write_text(runtime.read_text(encoding="utf-8") + early, encoding="utf-8")
    if dev:
        (assets / scripts.LATER_FILE).write_text(later, encoding="utf-8")
        return
    languages = [(tree.code, tree.words, tree.names) for tree in trees] or [(None, common["words"], None)]
    for code, block, names in languages:
        first, words = split(block)
        language = json.loads(block)["language"]
        name = scripts.LATER_FILE if code is None else later_file(code, trees[0].code)
        (assets / name).write_text(words_piece(language, words) + later, encoding="utf-8")
        if names is None:
            common["words"] = first
        else:
            for page in names:
                renders[page][1]["words"] = first
