"""The search index (search.py) as the files a reader downloads.

A small site has one classic script, ``search-index.HASH.js``, as it always had. Past
``SPLIT_ABOVE`` characters the index is split, so that a reader's first search on a
site of tens of thousands of pages downloads a few hundred kilobytes, not the whole:

- the first file (still ``search-index.HASH.js``, the one the pages name) holds the
  vocabulary, which part holds each term's postings (parts of consecutive terms, cut at
  about ``PART_SIZE`` characters: a term's part is the last whose first term is not after
  it), and which part holds each section's words (``DOCS_PER_PART`` sections a part).
  The vocabulary is one string, " term term ... term ", its terms in the order of their
  UTF-16 code units (search.build_index's): V8 reads the 38,000 terms of a 20,000-page
  site so in 1.5 ms, as a list of strings in 8-12 ms, and js/search.js finds a term in
  it by halving, with no string made a term;
- each part is a classic script under ``search/`` that adds itself to
  ``window.explorables.searchParts[key]``: js/search.js loads the parts of the terms a
  query stands for, then those of the results it shows. Scripts, not fetch: a bundle
  opened from file:// may load them.

The postings of a part are delta-coded (each document as its distance from the one
before), which keeps a common word's list short.

A site in several languages has an index a language (output/languages.py). Each other
language's is written the same way, its first file ``search-index.de.HASH.js`` and its
parts under ``search/de/``, keyed ``de-t0``, ``de-d0``: a reader who changes language
in place keeps the parts already loaded, and none is taken for another language's.
"""

from __future__ import annotations

import json
from pathlib import Path

from . import assets as site_assets
from .search import build_index, index_script, script_value

SPLIT_ABOVE = 400_000  # characters of the one-file index past which it is split
PART_SIZE = 60_000  # characters of postings a part holds, about
DOCS_PER_PART = 200  # sections whose words one part holds
FIRST = "search-index.js"


def part_script(key: str, value) -> str:
    """A part as a classic script: it adds itself to ``explorables.searchParts``."""
    return (
        "(function (ex) { (ex.searchParts = ex.searchParts || {})["
        + json.dumps(key)
        + "] = "
        + script_value(value)
        + "; })(window.explorables = window.explorables || {});\n"
    )


def _gaps(postings: list[int]) -> list[int]:
    """[doc, weight, doc, weight, ...] with each doc as its distance from the one before."""
    out, last = [], 0
    for at in range(0, len(postings), 2):
        out += [postings[at] - last, postings[at + 1]]
        last = postings[at]
    return out


def split(index: dict, language: str = "") -> tuple[dict, dict[str, str]]:
    """The first file's data and {part's plain file name: its script} of ``index``;
    ``language``: another language's, whose parts' keys and files are its own."""
    tag, folder = (f"{language}-", f"search/{language}/") if language else ("", "search/")
    files: dict[str, str] = {}
    terms: list[list[str]] = []  # [first term, key, file] of each part of postings
    part: dict[str, list[int]] = {}
    size = 0

    def close() -> None:
        nonlocal part, size
        if part:
            key = f"{tag}t{len(terms)}"
            name = f"{folder}t{len(terms)}.js"
            files[name] = part_script(key, part)
            terms.append([next(iter(part)), key, name])
        part, size = {}, 0

    for term, postings in index["terms"].items():
        if size >= PART_SIZE:
            close()
        part[term] = _gaps(postings)
        size += len(term) + 4 * len(postings) + 4
    close()
    labels = [label for label, _ in index["lessons"]]
    docs: list[list[str]] = []
    for first in range(0, len(index["docs"]), DOCS_PER_PART):
        key = f"{tag}d{len(docs)}"
        name = f"{folder}d{len(docs)}.js"
        chunk = [[labels[d[0]], *d[1:]] for d in index["docs"][first : first + DOCS_PER_PART]]
        files[name] = part_script(key, chunk)
        docs.append([key, name])
    head = {
        "version": 2,
        "n": len(index["docs"]),
        "vocab": " " + " ".join(index["terms"]) + " ",
        "terms": terms,
        "docs": docs,
        "per": DOCS_PER_PART,
    }
    return head, files


def write(assets: Path, pages: list[tuple], first: str = FIRST, language: str = "") -> dict[str, str]:
    """Write the search index of ``pages`` (search.build_index's) into the asset folder
    under hashed names, once the others have theirs: {plain name: hashed name}. The
    first file names its parts by their hashed names, relative to the asset folder.
    Another ``language``'s index: its ``first`` file ("search-index.de.js") and parts of
    its own."""
    index = build_index(pages)
    whole = index_script(index)
    if len(whole) <= SPLIT_ABOVE:
        return {first: site_assets.add(assets, first, whole.encode("utf-8"))}
    head, files = split(index, language)
    names = {name: site_assets.add(assets, name, text.encode("utf-8")) for name, text in files.items()}
    for entry in [*head["terms"], *head["docs"]]:
        entry[-1] = names[entry[-1]]
    names[first] = site_assets.add(assets, first, index_script(head).encode("utf-8"))
    return names
