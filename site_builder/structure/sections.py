"""A site's pages as a tree of sections: every folder of content/ with an index.md is a
section holding its lessons and sections in order; the top folder is the site itself.
Prev/next walk the tree in reading order; URLs follow the folders."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import SourceError
from . import reserved
from .files import looped, outside, shown_name

if TYPE_CHECKING:  # the parser imports the whole Markdown stack, which the tree does not need to run
    from ..markdown.parser import Page


def slug_of(path: Path) -> str:
    """'01-one-query-row.md' -> 'one-query-row'."""
    return re.sub(r"^\d+[-_]", "", path.stem).lower().replace("_", "-")


LAST = 10**6  # the order of a lesson or section that gives none: after the others, by name


@dataclass(eq=False)
class Lesson:
    slug: str
    title: str
    summary: str
    order: int
    url: str  # relative to the site's root: 'softmax.html', 'basics/softmax.html'
    page: Page
    section: Section | None = None  # the section (folder) it belongs to
    position: int = 0  # its place among its section's lessons, from 1


@dataclass(eq=False)
class Section:
    """A folder of content/ with an index.md: its page, its lessons and sections in
    reading order. The site itself is the section of folder ''."""

    folder: str  # '' for the site, 'basics', 'basics/more'
    page: Page | None = None  # the parsed index.md
    parent: Section | None = None
    items: list = field(default_factory=list)  # Lesson and Section, ordered by order then name
    position: int = 0
    prefix: str = ""  # the folder of its language's pages, 'de/' (none for the default language)

    @property
    def title(self) -> str:
        if self.page is not None and self.page.meta.get("title"):
            return self.page.meta["title"]
        return slug_of(Path(self.folder.rsplit("/", 1)[-1] or "index")).replace("-", " ").capitalize()

    @property
    def summary(self) -> str:
        return self.page.meta.get("summary", "") if self.page is not None else ""

    @property
    def order(self) -> int:
        return self.page.meta.get("order", LAST) if self.page is not None else LAST

    @property
    def url(self) -> str:
        return self.prefix + (f"{self.folder}/index.html" if self.folder else "index.html")

    @property
    def section(self) -> Section | None:
        return self.parent

    @property
    def lesson_pages(self) -> list:
        return [item.page for item in self.items if isinstance(item, Lesson)]

    def lessons(self) -> list[Lesson]:
        return [item for item in self.items if isinstance(item, Lesson)]

    def sections(self) -> list[Section]:
        return [item for item in self.items if isinstance(item, Section)]

    def all_sections(self) -> list[Section]:
        found = [self]
        for child in self.sections():
            found += child.all_sections()
        return found

    def holds(self, folder: str | None) -> bool:
        """Whether a page of ``folder`` is in this section (or one inside it)."""
        return folder is not None and (folder == self.folder or folder.startswith(self.folder + "/"))

    def reading_order(self) -> list:
        """The pages prev/next walk: each lesson, and each section's page followed by
        what it holds. (The site's own index is the start, outside the walk.)"""
        walk = []
        for item in self.items:
            walk.append(item)
            if isinstance(item, Section):
                walk += item.reading_order()
        return [item for item in walk if item.page is not None]


def lessons_in(folder: Path) -> list[Path]:
    """The Markdown files of ``folder`` that are lessons: not those whose names start
    with '.' or '_' (an editor's lock or swap file, a draft put aside), as with folders."""
    return sorted(p for p in folder.glob("*.md") if not p.name.startswith((".", "_")))


# Endings of Markdown files other than '.md': a lesson saved with one of them was left out
# of the site without a word
MARKDOWN_ENDINGS = {".md", ".markdown", ".mdown", ".mkd", ".mkdn", ".mdwn"}


def misnamed_lessons(folder: Path) -> list[SourceError]:
    """An error for each Markdown file of ``folder`` that is no lesson only for its
    ending: 'lesson.MD', 'lesson.markdown'."""
    return [
        SourceError(
            path,
            0,
            0,
            f"the file {shown_name(path.name)} is not read as a lesson: only a name ending in '.md' is",
            f"rename it to {path.stem}.md, or move it out of {folder.name or 'content'}/ if it is no lesson",
        )
        for path in sorted(folder.iterdir())
        if path.suffix.lower() in MARKDOWN_ENDINGS
        and path.suffix != ".md"
        and not path.name.startswith((".", "_"))
        and path.is_file()
    ]


SECTION_DEPTH = 32  # sections inside each other; deeper is surely a mistake (a link, a script gone wrong)
# Characters a web address cannot hold as they are: a page or section named with one would
# need percent-encoding in every link, the menu, the search and the sitemap. Refused instead
# (non-ASCII letters are fine: browsers encode them, and links are written as they are).
UNSAFE = re.compile(r'[\s"#%<>?\[\\\]^`{|}\x00-\x1f\x7f]')


def unsafe_name(path: Path, what: str) -> SourceError | None:
    """An error if the name of ``path`` (a lesson file, a section folder: ``what``) holds
    characters a web address cannot hold as they are."""
    found = list(dict.fromkeys(UNSAFE.findall(path.name)))
    if not found:
        return None
    shown = ", ".join(
        "a space" if c == " " else repr(c) if not c.isprintable() or c.isspace() else f"'{c}'" for c in found
    )
    return SourceError(
        path,
        0,
        0,
        f"the {what} name {shown_name(path.name)} holds {shown}, which a web address "
        f"cannot hold as it is (links to its page would lead nowhere)",
        "rename it with letters, digits, '-' and '_' only, e.g. 02-first-steps",
    )


def sources(
    content: Path, out_dir: Path, errors: list[SourceError], skip: tuple[str, ...] = ()
) -> tuple[list[Path], list[SourceError]]:
    """The Markdown files of the site: those at the top of content/ and those of every
    section, a folder with an index.md (sections nest, up to SECTION_DEPTH). A folder of
    Markdown files with no index.md is copied as files, with a warning. A section linked
    to a folder that holds it, a name a web address cannot hold, and a section named like
    a page the build writes are errors. The folders of content/ named in ``skip`` (the
    other languages' lessons: structure/languages.py) are not walked."""
    warnings: list[SourceError] = []
    found: list[Path] = []
    # (folder, the real folders above it and itself, its depth), walked in reading order
    stack: list[tuple[Path, tuple[Path, ...], int]] = [(content, (content.resolve(),), 0)]
    while stack:
        folder, above, depth = stack.pop()
        lessons = lessons_in(folder)
        errors += misnamed_lessons(folder)
        for lesson in lessons:
            problem = unsafe_name(lesson, "lesson")
            if problem:
                errors.append(problem)
            else:
                found.append(lesson)
        pages = {f"{slug_of(p)}.html" for p in lessons} | {"index.html"}  # a folder of these names is no section
        pages |= set(reserved.WRITTEN) if not depth else set()
        inside = []
        for sub in sorted(folder.iterdir()):
            if not sub.is_dir() or sub.name.startswith((".", "_")) or sub.resolve() == out_dir:
                continue
            if not depth and sub.name in skip:
                continue
            rel = sub.relative_to(content).as_posix()
            if not (sub / "index.md").is_file():
                if lessons_in(sub):
                    warnings.append(
                        SourceError(
                            sub,
                            0,
                            0,
                            f"the folder {rel}/ holds Markdown files but no index.md, "
                            f"so it is published as files, not read as a section",
                            f"add {rel}/index.md (title, order, summary) to make it a section",
                        )
                    )
                continue
            problem = outside(sub, content) or looped(sub, above) or unsafe_name(sub, "section folder")
            if problem is None and sub.name.lower() in pages:  # Print.HTML/ is print.html on macOS and Windows
                problem = SourceError(
                    sub,
                    0,
                    0,
                    f"the section folder {rel}/ has the name of a page the build writes ({rel})",
                    f"rename the folder, e.g. {Path(sub.name).stem}/",
                )
            if problem is None and depth + 1 > SECTION_DEPTH:
                problem = SourceError(
                    sub,
                    0,
                    0,
                    f"sections nest more than {SECTION_DEPTH} levels deep here",
                    "put fewer sections inside each other (a symbolic link or a script may have made these folders)",
                )
            if problem:
                errors.append(problem)
                continue
            inside.append((sub, (*above, sub.resolve()), depth + 1))
        stack.extend(reversed(inside))
    return found, warnings


def tree(pages) -> Section:
    """The tree of sections, each holding its lessons and sections by order, then name."""
    folders = sorted({page.folder for page in pages} | {""}, key=lambda f: (f.count("/"), f))
    tree: dict[str, Section] = {}
    for folder in folders:
        parent = tree.get(folder.rsplit("/", 1)[0] if "/" in folder else "") if folder else None
        tree[folder] = Section(folder, parent=parent)
        if parent is not None:
            parent.items.append(tree[folder])
    for page in pages:
        section = tree[page.folder]
        if page.slug == "index":
            section.page = page
        else:
            section.items.append(
                Lesson(
                    page.slug,
                    page.title,
                    page.meta.get("summary", ""),
                    page.meta.get("order", 0),
                    page.url,
                    page,
                    section,
                )
            )

    def key(item):
        if isinstance(item, Lesson):
            return (item.page.meta.get("order", LAST), item.slug)
        return (item.order, item.folder.rsplit("/", 1)[-1])

    for section in tree.values():
        section.items.sort(key=key)
        for position, lesson in enumerate(section.lessons(), start=1):
            lesson.position = position
        for position, child in enumerate(section.sections(), start=1):
            child.position = position
    return tree[""]


def root_of(page) -> str:
    """The way from a page back to the site's root: '' at the top, '../' one folder down."""
    return "../" * (page.folder.count("/") + 1) if page.folder else ""


def order_ties(lessons_pages) -> list[SourceError]:
    """Two lessons with the same ``order``: a warning that says which one comes first."""
    warnings = []
    for before, after in itertools.pairwise(lessons_pages):
        order = after.meta.get("order")
        if order is not None and before.meta.get("order") == order:
            lines = after.env.get("lines") or []
            line = next((i + 1 for i, text in enumerate(lines[:100]) if re.match(r"order\s*:", text)), 1)
            warnings.append(
                SourceError(
                    after.path,
                    line,
                    1,
                    f"order {order} is also the order of "
                    f"{before.path.name}; {before.path.name} comes first (by page name)",
                    "give each lesson its own order",
                )
            )
    return warnings


def slug_clashes(pages) -> list[SourceError]:
    """Two files that would write the same page, or a lesson that would be its folder's index."""
    errors: list[SourceError] = []
    seen: dict[str, Path] = {}
    for page in pages:
        where = "the track's front page" if not page.folder else f"the page of the section {page.folder}/"
        if not page.folder and page.slug != "index" and reserved.reserved_page(page.slug):
            errors.append(
                SourceError(
                    page.path,
                    0,
                    0,
                    f"the file name {page.path.name} makes the page {page.url}, "
                    f"a name the build gives a page of its own ({', '.join(reserved.PAGE_NAMES)})",
                    f"rename the file, e.g. {page.path.stem}-page.md",
                )
            )
        elif page.slug == "index" and page.path.stem != "index":
            errors.append(
                SourceError(
                    page.path,
                    1,
                    1,
                    f"the file name {page.path.name} makes the page {page.url}, which is {where}",
                    "rename the file, e.g. 03-overview.md",
                )
            )
        elif page.url in seen:
            errors.append(
                SourceError(
                    page.path,
                    1,
                    1,
                    f"{page.path.name} and {seen[page.url].name} would both be written to {page.url}",
                    "rename one of the two files",
                )
            )
        else:
            seen[page.url] = page.path
    return errors
