"""Links between lessons: ``[next](02-attention-lab.md#scores)`` becomes a link to the
page ``attention-lab.html#scores``. A link to a lesson that does not exist, or to an
anchor (heading or figure id) its page does not have, is a build error at the link's
line and column."""
from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

from .errors import SourceError
from .safety import clip, quote

LAYOUT_IDS = {"content"}  # ids every page's layout has
_HTML_ID = re.compile(r"""\sid=["']([^"']+)["']""")


def page_ids(page) -> set[str]:
    """Every id a reader can land on in a page: headings, figures, footnotes, raw HTML."""
    ids = set(LAYOUT_IDS)
    for token in page.tokens:
        if token.type == "heading_open" and token.attrGet("id"):
            ids.add(token.attrGet("id"))
        elif token.type == "figure":
            ids.add(token.meta["id"])
        elif token.type in ("html_block", "html_inline"):
            ids.update(_HTML_ID.findall(token.content))
        for child in token.children or ():
            if child.type == "html_inline":
                ids.update(_HTML_ID.findall(child.content))
    footnotes = (page.env.get("footnotes") or {}).get("list") or {}
    for number in range(1, len(footnotes) + 1):
        ids.update({f"fn{number}", f"fnref{number}"})
    return ids


def _position(page, line0: int, href: str) -> tuple[int, int]:
    lines = page.env.get("lines") or []
    for text in (href, unquote(href), href.split("#")[0]):
        for number in range(line0, min(line0 + 200, len(lines))):
            at = lines[number].find(text) if text else -1
            if at >= 0:
                return number + 1, at + 1
    return line0 + 1, 1


def resolve_links(pages, content: Path, unread: tuple[str, ...] = ()) -> list[SourceError]:
    """Rewrite links to lesson files into page URLs; report the broken ones. Links to
    the ``unread`` files (already reported as unreadable) are left alone."""
    by_file = {page.path.name: page for page in pages}
    by_url = {f"{page.slug}.html": page for page in pages}
    ids = {page.slug: page_ids(page) for page in pages}
    names = ", ".join(sorted(by_file))
    errors: list[SourceError] = []
    for page in pages:
        for token, line0 in page.env.get("links", []):
            href = token.attrGet("href") or ""
            parts = urlsplit(href)
            if parts.scheme or parts.netloc or parts.query:
                continue
            target_name = unquote(parts.path).removeprefix("./")
            anchor = unquote(parts.fragment)
            if not target_name:
                target = page
            elif target_name.endswith(".md"):
                target = by_file.get(target_name)
                if target is None:
                    if target_name in unread or (content / target_name).is_file():
                        continue  # a Markdown file shipped as a file among the assets
                    line, col = _position(page, line0, href)
                    errors.append(SourceError(page.path, line, col, f"the link {quote(clip(href, 80))} names no "
                                              f"lesson", f"lessons: {clip(names, 200)}"))
                    continue
                token.attrSet("href", f"{target.slug}.html" + (f"#{parts.fragment}" if parts.fragment else ""))
            elif target_name in by_url:
                target = by_url[target_name]
            else:
                continue
            if anchor and anchor not in ids[target.slug]:
                line, col = _position(page, line0, href)
                known = ", ".join(sorted(ids[target.slug] - LAYOUT_IDS)) or "none"
                errors.append(SourceError(page.path, line, col, f"the link {quote(clip(href, 80))} names no heading "
                                          f"or figure '{clip(anchor)}' in {target.path.name}",
                                          f"ids on that page: {clip(known, 200)}"))
    return errors
