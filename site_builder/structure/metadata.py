"""Site metadata: description and Open Graph tags in every page's head, the favicon,
and sitemap.xml.

- ``url`` in site.yml (the address the site is published at, e.g.
  https://example.org/attention/) turns on sitemap.xml and absolute ``og:url`` /
  ``og:image`` addresses.
- A lesson's front matter ``description`` (else its ``summary``, else the site's
  description) fills ``<meta name="description">`` and ``og:description``; its
  ``image`` (a file beside the lessons) becomes ``og:image`` when ``url`` is set.
- ``favicon`` in site.yml names an icon file in content/ (.svg, .png or .ico);
  without it the site uses its built-in dot.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from urllib.parse import quote
from xml.sax.saxutils import escape

from markupsafe import Markup
from markupsafe import escape as html_escape

from ..errors import SourceError
from .config import config_path

DEFAULT_ICON = (
    "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E"
    "%3Ccircle cx='8' cy='8' r='6' fill='%236b46c1'/%3E%3C/svg%3E"
)
ICON_TYPES = {".svg": "image/svg+xml", ".png": "image/png", ".ico": "image/x-icon"}


def _base(config) -> str:
    url = getattr(config, "url", "") or ""
    return url if not url or url.endswith("/") else url + "/"


def page_url(page) -> str:
    """The page's file in the site: index.html, SLUG.html or FOLDER/SLUG.html."""
    if page is None:
        return "index.html"
    return getattr(page, "url", "") or ("index.html" if page.slug == "index" else f"{page.slug}.html")


def address(page) -> str:
    """The page's file as a web address writes it: its non-ASCII letters percent-encoded
    (größen/übung.html -> gr%C3%B6%C3%9Fen/%C3%BCbung.html), as a sitemap must have it.
    (A name with characters an address reserves is refused: sections.unsafe_name.)"""
    return quote(page_url(page), safe="/")


def meta_tags(config, page, root: str = "") -> Markup:
    """The head tags of one page (``page`` is None for the site's own pages)."""
    meta = page.meta if page is not None else {}
    description = meta.get("description") or meta.get("summary") or config.description
    title = page.title if page is not None and page_url(page) != "index.html" else config.title
    tags = []
    if description:
        tags.append(f'<meta name="description" content="{html_escape(description)}">')
    tags.append(f'<meta property="og:title" content="{html_escape(title)}">')
    tags.append(f'<meta property="og:site_name" content="{html_escape(config.title)}">')
    tags.append(f'<meta property="og:type" content="{"article" if meta else "website"}">')
    if description:
        tags.append(f'<meta property="og:description" content="{html_escape(description)}">')
    base = _base(config)
    if base and page is not None:
        tags.append(f'<meta property="og:url" content="{html_escape(base + address(page))}">')
        tags.append(f'<link rel="canonical" href="{html_escape(base + address(page))}">')
    if base and meta.get("image"):
        tags.append(f'<meta property="og:image" content="{html_escape(base + meta["image"])}">')
    favicon = getattr(config, "favicon", "")
    if favicon:
        kind = ICON_TYPES.get(Path(favicon).suffix.lower(), "")
        tags.append(f'<link rel="icon" href="{html_escape(root + favicon)}" type="{kind}">')
    else:
        tags.append(f'<link rel="icon" href="{DEFAULT_ICON}">')
    return Markup("\n".join(tags))


def check(config, content: Path, pages) -> list[SourceError]:
    """Mistakes in the metadata settings, each at its line of site.yml or the lesson."""
    errors = []
    site = config_path(content)
    text = site.read_text(encoding="utf-8", errors="replace").split("\n") if site.is_file() else []

    def line_of(key, lines=text):
        return next((i + 1 for i, line in enumerate(lines) if line.split(":", 1)[0].strip() == key), 1)

    url = getattr(config, "url", "")
    if url and not re.match(r"^https?://[^/\s]+(/\S*)?$", url):
        errors.append(
            SourceError(
                site,
                line_of("url"),
                1,
                f"url must be the site's web address, got '{url}'",
                "e.g. url: https://example.org/attention/",
            )
        )
    favicon = getattr(config, "favicon", "")
    if favicon:
        file = (content / favicon).resolve()
        if Path(favicon).suffix.lower() not in ICON_TYPES:
            errors.append(
                SourceError(
                    site,
                    line_of("favicon"),
                    1,
                    f"favicon '{favicon}' is not an icon file",
                    "use an .svg, .png or .ico file in the content folder",
                )
            )
        elif content.resolve() not in file.parents or not file.is_file():
            errors.append(
                SourceError(
                    site,
                    line_of("favicon"),
                    1,
                    f"favicon file '{favicon}' does not exist",
                    f"looked for {file}; the path is relative to the content folder",
                )
            )
    for page in pages:
        image = page.meta.get("image")
        if image and not (content / image).resolve().is_file():
            lines = page.env.get("lines") or []
            errors.append(
                SourceError(
                    page.path,
                    line_of("image", lines),
                    1,
                    f"front matter image '{image}' does not exist",
                    "the path is relative to the content folder, e.g. img/preview.png",
                )
            )
    return errors


def copy_files(config, content: Path, pages, staging: Path) -> None:
    """Copy the favicon and the preview images to their place in the site."""
    names = [getattr(config, "favicon", "")] + [p.meta.get("image", "") for p in pages]
    for name in filter(None, names):
        target = staging / name
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(content / name, target)


def sitemap(config, pages, alternates: dict[str, list[tuple[str, str]]] | None = None) -> str | None:
    """sitemap.xml listing the index and every lesson, or None without ``url``. In a site
    of several languages (``alternates``: a page's file -> its translations, [(hreflang,
    file)]) every page of each language, and each one's translations as xhtml:link."""
    base = _base(config)
    if not base:
        return None
    if alternates is None:
        urls = [base + "index.html"] + [base + address(p) for p in pages if page_url(p) != "index.html"]
        entries = "".join(f"  <url><loc>{escape(u)}</loc></url>\n" for u in urls)
        return (
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' + entries + "</urlset>\n"
        )
    entries = ""
    for page in pages:
        if page.env.get("original"):  # a language's stand-in for a lesson it lacks: the original is listed
            continue
        links = "".join(
            f'    <xhtml:link rel="alternate" hreflang="{escape(code)}" href="{escape(base + quote(url, safe="/"))}"/>'
            "\n"
            for code, url in alternates.get(page_url(page), [])
        )
        entries += f"  <url>\n    <loc>{escape(base + address(page))}</loc>\n{links}  </url>\n"
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n'
        + entries
        + "</urlset>\n"
    )
