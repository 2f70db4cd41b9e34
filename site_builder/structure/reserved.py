"""The names the build writes at the top of a site, in one list: a lesson, a section
folder or an author's folder may not take one of them (or a page name the same as one
of theirs), or the built file would silently replace the author's page or fail to be
written. tests/test_reserved_names.py checks that a built site writes nothing else."""

from __future__ import annotations

from pathlib import PurePosixPath

# Every file and folder the build writes at the site's top (output/pages, printpage,
# notices, metadata's sitemap, assets, folder's marker); the search index and the bundle's
# data are inside _explorables/.
WRITTEN = (
    "index.html",
    "404.html",
    "notices.html",
    "print.html",
    "sitemap.xml",
    ".nojekyll",
    ".explorables-site",
    "_explorables",
    "search-index.js",
    "sw.js",  # the service worker (output/serviceworker.py)
)

# The page names (a lesson's file name without its number and .md) that would write one of
# them, or a page of the same name beside it: 'print' for print.html, 'sitemap' for sitemap.xml.
PAGE_NAMES = tuple(dict.fromkeys(PurePosixPath(name).stem for name in WRITTEN if not name.startswith((".", "_"))))


def reserved_page(slug: str) -> bool:
    """Whether a page named ``slug`` at the top of the site is one the build writes itself."""
    return slug.lower() in PAGE_NAMES
