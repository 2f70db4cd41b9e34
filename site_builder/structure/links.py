"""Links between lessons: ``[next](02-attention-lab.md#scores)`` becomes a link to the
page ``attention-lab.html#scores``. A link to a lesson that does not exist, or to an
anchor (heading or figure id) its page does not have, is a build error at the link's
line and column; so is any other link within the site that leads to no file the site
writes (``nope.html``, ``files/handout.pdf`` missing), checked once the site is laid out."""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import MutableMapping
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from ...engine.figures.base import closest
from ..errors import SourceError
from ..quoting import clip, quote

LAYOUT_IDS = {"content"}  # ids every page's layout has
_HTML_ID = re.compile(r"""\sid=["']([^"']+)["']""")


def page_ids(page) -> set[str]:
    """Every id a reader can land on in a page (``ids_of`` its tokens)."""
    return ids_of(page.tokens, page.env)


def ids_of(tokens, env: MutableMapping[str, Any]) -> set[str]:
    """Every id a reader can land on in a page's ``tokens``: headings, figures, images,
    exercises, equations, ids written as attributes (``[words]{#id}``), footnotes (in
    ``env``), raw HTML."""
    ids = set(LAYOUT_IDS)
    for token in tokens:
        if token.type in ("heading_open", "image_figure_open") and token.attrGet("id"):
            ids.add(str(token.attrGet("id")))
        elif token.type in ("figure", "exercise_open"):
            ids.add(token.meta["id"])
        elif token.type == "math_block_label":
            ids.add(token.info)
        elif token.type in ("html_block", "html_inline"):
            ids.update(_HTML_ID.findall(token.content))
        for child in token.children or ():
            if child.type == "html_inline":
                ids.update(_HTML_ID.findall(child.content))
            elif child.attrGet("id"):
                ids.add(str(child.attrGet("id")))
    footnotes = (env.get("footnotes") or {}).get("list") or {}
    for number in range(1, len(footnotes) + 1):
        ids.update({f"fn{number}", f"fnref{number}"})
    return ids


def _position(page, line0: int, href: str, nth: int = 0) -> tuple[int, int]:
    """Where the link to ``href`` stands, from the line its paragraph starts on: the
    ``nth`` one of its paragraph with that address (0: the first)."""
    lines = page.env.get("lines") or []
    for text in (href, unquote(href), href.split("#")[0]):
        if not text:
            continue
        left = nth
        for number in range(line0, min(line0 + 200, len(lines))):
            at = lines[number].find(text)
            while at >= 0 and left:
                left -= 1
                at = lines[number].find(text, at + len(text))
            if at >= 0:
                return number + 1, at + 1
    return line0 + 1, 1


def _in_content(page, content: Path, name: str) -> str | None:
    """A path written in ``page`` as a path from content/ ('basics/softmax.md'), or None
    when it leads out of content/."""
    folder = getattr(page, "folder", "")
    joined = posixpath.normpath(posixpath.join(folder, name)) if folder else posixpath.normpath(name)
    return None if joined == ".." or joined.startswith("../") else joined


def _relative(url: str, page) -> str:
    """A page's URL (from the site's root) as written in ``page``: from its own folder."""
    folder = getattr(page, "folder", "")
    return posixpath.relpath(url, folder) if folder else url


def resolve_links(pages, content: Path, unread: tuple[str, ...] = ()) -> list[SourceError]:
    """Rewrite links to lesson files into page URLs; report the broken ones. Paths are
    relative to the page's own file (as in any Markdown editor). Links to the ``unread``
    files (already reported as unreadable; paths from content/) are left alone."""
    by_file = {
        page.path.relative_to(content).as_posix() if page.path.is_relative_to(content) else page.path.name: page
        for page in pages
    }
    by_url = {_url(page): page for page in pages}
    ids = {_url(page): page_ids(page) for page in pages}
    names = ", ".join(sorted(by_file))
    errors: list[SourceError] = []
    for page in pages:
        for token, line0 in page.env.get("links", []):
            href = token.attrGet("href") or ""
            parts = urlsplit(href)
            if parts.scheme or parts.netloc or parts.query:
                continue
            written = unquote(parts.path).removeprefix("./")
            target_name = _in_content(page, content, written) if written else ""
            anchor = unquote(parts.fragment)
            if not written:
                target = page
            elif written.endswith(".md"):
                target = by_file.get(target_name) if target_name else None
                if target is None:
                    if target_name and (target_name in unread or (content / target_name).is_file()):
                        continue  # a Markdown file shipped as a file among the assets
                    line, col = _position(page, line0, href, (token.meta or {}).get("nth", 0))
                    errors.append(
                        SourceError(
                            page.path,
                            line,
                            col,
                            f"the link {quote(clip(href, 80))} names no lesson",
                            f"lessons: {clip(names, 200)}",
                        )
                    )
                    continue
                token.attrSet("href", _relative(_url(target), page) + (f"#{parts.fragment}" if parts.fragment else ""))
            elif target_name in by_url:
                target = by_url[target_name]
            else:
                continue
            if anchor and anchor not in ids[_url(target)]:
                line, col = _position(page, line0, href, (token.meta or {}).get("nth", 0))
                known = ", ".join(sorted(ids[_url(target)] - LAYOUT_IDS)) or "none"
                close = closest(anchor, sorted(ids[_url(target)] - LAYOUT_IDS))
                errors.append(
                    SourceError(
                        page.path,
                        line,
                        col,
                        f"the link {quote(clip(href, 80))} names no heading "
                        f"or figure '{clip(anchor)}' in {target.path.name}",
                        (f"did you mean '#{close}'? " if close else "") + f"ids on that page: {clip(known, 200)}",
                    )
                )
    return errors


def _url(page) -> str:
    return getattr(page, "url", "") or f"{page.slug}.html"


def missing_targets(pages, staging: Path) -> list[SourceError]:
    """Every link of the pages that stays within the site (no scheme, no host) and leads
    to no file of the laid-out site ``staging``: a page written with an old name
    (``02-softmax.html``), a file not in content/. Its lesson's file names a page too."""
    present = _laid_out(staging)
    written: list[str] = []  # the site's files, for the hint of a broken link: listed at the first one
    by_file = {posixpath.join(getattr(page, "folder", ""), page.path.stem): page for page in pages}
    errors: list[SourceError] = []
    for page in pages:
        folder = getattr(page, "folder", "")
        for token, line0 in page.env.get("links", []):
            href = token.attrGet("href") or ""
            parts = urlsplit(href)
            path = unquote(parts.path)
            if parts.scheme or parts.netloc or not path or path.startswith("/"):
                continue  # another site, this page's own anchors, or the server's root: not the build's to know
            target = posixpath.normpath(posixpath.join(folder, path))
            if target == ".." or target.startswith("../") or target in present or (staging / target).exists():
                continue  # (a path through a linked folder is not in ``present``: asked of the disk)
            written = written or sorted(p.relative_to(staging).as_posix() for p in staging.rglob("*") if p.is_file())
            lesson = by_file.get(target.removesuffix(".html")) if target.endswith(".html") else None
            if lesson is not None:
                source = posixpath.relpath(
                    posixpath.join(getattr(lesson, "folder", ""), lesson.path.name), folder or "."
                )
                hint = (
                    f"the lesson {source} is written as {_relative(_url(lesson), page)}: link its file, "
                    f"[...]({source}), and the build writes the page's address"
                )
            else:
                close = closest(target, written, 0.85)
                hint = (
                    f"did you mean '{_relative(close, page)}'? " if close else ""
                ) + "link a lesson by its .md file, or put the file in a folder of content/ (it is copied as it is)"
            line, col = _position(page, line0, href, (token.meta or {}).get("nth", 0))
            errors.append(
                SourceError(
                    page.path, line, col, f"the link {quote(clip(href, 80))} leads to no page or file of the site", hint
                )
            )
    return errors


def _laid_out(staging: Path) -> set[str]:
    """Every file and folder of the laid-out site, as paths from its root ("." for the root):
    one walk of the folder, which every link is then checked against."""
    present = {"."}
    for folder, folders, files in os.walk(staging):
        here = Path(folder).relative_to(staging).as_posix()
        present.update(name if here == "." else f"{here}/{name}" for name in (*folders, *files))
    return present
