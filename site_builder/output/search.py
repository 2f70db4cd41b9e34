"""Site search: an index built with the site, searched in the page by js/search.js.

The index is one classic script, ``search-index.HASH.js`` in the site's asset folder, that
sets ``window.explorables.searchIndex``; the page loads it on the first use of the
search box, which works from a server and from an offline bundle alike (file:// pages
may not fetch, but may load scripts).

A document is a section of a lesson: its intro (before the first heading, with the
lesson's title and summary) or an h2/h3 and the text under it, with the captions and
titles of the figures and images in it. Words (letters and digits of any script) are
lower-cased, stripped of accents, stop words dropped and plurals folded (``stem``,
which js/search.js mirrors). Each term maps to postings ``[doc, weight, doc, weight,
...]``: a BM25 weight of the term in the section's fields (title 10, heading 8,
captions 3, text 1), precomputed as an integer, so the page only sums them (times the
term's idf) and handles prefixes and typos.
"""

from __future__ import annotations

import json
import re
import unicodedata

from .search_sections import SUB, SUB_END, SUP, SUP_END, sections_of

STOP = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "for",
        "from",
        "has",
        "have",
        "in",
        "into",
        "is",
        "it",
        "its",
        "of",
        "on",
        "or",
        "that",
        "the",
        "this",
        "to",
        "was",
        "were",
        "will",
        "with",
        "which",
        "we",
        "you",
        "your",
        "our",
        "can",
        "not",
    ]
)
BOOST = {"heading": 8.0, "title": 10.0, "caption": 3.0, "text": 1.0}
K1, B = 1.2, 0.75
EXCERPT = 110  # characters of text kept per section, shown under a result


_UNMARKED = str.maketrans({SUB: "", SUB_END: "", SUP: "^", SUP_END: " "})


class _Marks(dict):
    """The table for str.translate that drops marks (accents, Hebrew points): a character's
    Unicode category is looked up the first time a text has it, then kept."""

    def __missing__(self, code: int) -> int | None:
        self[code] = None if unicodedata.category(chr(code)).startswith("M") else code
        return self[code]


_MARKS = _Marks()
_WORD = re.compile(r"[^\W_]+")


def words(text: str) -> list[str]:
    """Runs of letters and digits of any script ("attention", "קשב", "0"), lower-cased,
    without accents or Hebrew points (marks, after NFKD), as js/search.js reads a query.
    A subscript is part of its letter's word, written "d_k", "dₖ" (NFKD: "dk") or marked
    (SUB ... SUB_END); a superscript is a word of its own."""
    text = unicodedata.normalize("NFKD", text.lower().translate(_UNMARKED)).replace("_", "")
    if not text.isascii():  # an ASCII text has no marks
        text = text.translate(_MARKS)
    return _WORD.findall(text)


def stem(word: str) -> str:
    """Fold plurals: 'queries' -> 'query', 'matches' -> 'match', 'keys' -> 'key'."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith("es") and word[:-2].endswith(("x", "ch", "sh", "ss")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


_TERMS: dict[str, str] = {}  # word -> its term ("" for a stop word), each word stemmed once


def terms(text: str) -> list[str]:
    found = words(text)
    for word in set(found).difference(_TERMS):
        _TERMS[word] = "" if word in STOP else stem(word)
    return [term for term in map(_TERMS.__getitem__, found) if term]


def build_index(pages: list[tuple]) -> dict:
    """``pages``: (url, title, summary, rendered body[, label]) per page, in the site's
    order; ``label`` names the page in the results ('Basics › Softmax'; default: its title)."""
    docs = []
    counted = []  # each section's terms in each field (not its text: a large site's would all be held)
    for lesson, (url, title, summary, body, *_) in enumerate(pages):
        for number, section in enumerate(sections_of(body)):
            if number == 0:
                text = f"{summary} {section['text']}"
                if not text.strip() and not title:
                    continue
                docs.append([lesson, "", url, section["text"][:EXCERPT]])
                fields = {"title": title, "heading": "", "caption": section["caption"], "text": text}
            else:
                docs.append([lesson, section["heading"], f"{url}#{section['id']}", section["text"][:EXCERPT]])
                heading, caption = section["heading"], section["caption"]
                fields = {"title": "", "heading": heading, "caption": caption, "text": section["text"]}
            counted.append({name: terms(value) for name, value in fields.items()})
    average = {name: max(1.0, sum(len(c[name]) for c in counted) / max(1, len(counted))) for name in BOOST}
    postings: dict[str, list[int]] = {}
    for doc, fields_terms in enumerate(counted):
        scores: dict[str, float] = {}
        for name, found in fields_terms.items():
            if not found:
                continue
            norm = K1 * (1 - B + B * len(found) / average[name])
            tf: dict[str, int] = {}
            for term in found:
                tf[term] = tf.get(term, 0) + 1
            for term, count in tf.items():
                scores[term] = scores.get(term, 0.0) + BOOST[name] * count * (K1 + 1) / (count + norm)
        for term, score in scores.items():
            postings.setdefault(term, []).extend([doc, max(1, round(score * 10))])
    return {
        "version": 1,
        "lessons": [[(rest or [title])[0], url] for url, title, _, _, *rest in pages],
        "docs": docs,
        "terms": dict(sorted(postings.items(), key=_utf16)),
    }


def _utf16(item: tuple[str, list[int]]) -> bytes:
    """A term's order as JavaScript's "<" compares strings: by UTF-16 code units (which
    differs from code points' past U+FFFF), for js/search.js to find terms by halving."""
    return item[0].encode("utf-16-be")


_JS_STRING = str.maketrans(
    {"\\": "\\\\", "'": "\\'", "\n": "\\n", "\r": "\\r", "\u2028": "\\u2028", "\u2029": "\\u2029"}
)
_UNESCAPED = {"n": "\n", "r": "\r", "u2028": "\u2028", "u2029": "\u2029"}
_PARSED = re.compile(r"JSON\.parse\('((?:[^'\\]|\\.)*)'\)")


def script_value(value) -> str:
    """``value`` as a JavaScript expression: ``JSON.parse('...')`` of its JSON, which V8
    reads about a third faster than the same data written as an object literal (the first
    file and the largest part of a 20,000-page site's index: 20-21 ms -> 14-15 ms in
    Node, for 0.1 % more bytes gzipped). "<" is escaped, so the text never closes a
    script element."""
    data = json.dumps(value, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
    return "JSON.parse('" + data.translate(_JS_STRING) + "')"


def read_script_value(text: str):
    """The value of the first ``script_value`` in ``text`` (a search file's script)."""
    found = _PARSED.search(text)
    if found is None:
        raise ValueError("no JSON.parse('...') in the script")
    data = re.sub(r"\\(u2028|u2029|.)", lambda m: _UNESCAPED.get(m.group(1), m.group(1)), found.group(1))
    return json.loads(data)


def index_script(index: dict) -> str:
    """The index as a classic script (works from file:// where fetch is refused)."""
    return (
        "(window.explorables = window.explorables || {}).searchIndex = " + script_value(index) + ";\n"
        "document.dispatchEvent(new Event('explorables:search-index'));\n"
    )
