"""What the build reads beside the lessons, checked before anything is written: the
site's own figures (their folder and modules inside the site folder), the author's
folders of images and files, and ids a page gives twice."""
from __future__ import annotations

from pathlib import Path

from ..authors import loader as authors
from ..markdown.directives.common import found_in
from ..errors import SourceError
from ..output.folder import MARKER
from .files import copy_tree, outside


def author_folders(content: Path, out_dir: Path, outputs: dict[str, str], errors: list[SourceError],
                    sections: tuple[str, ...] = ("",)) -> list[Path]:
    """The author's folders of images and files, at the top of content/ and in every
    section, copied into the site at the same place. Names that start with '.' or '_'
    are private (and _explorables/ is the site's own); a section is not copied (its
    pages are built); a folder named like a page of the site is an error."""
    folders = []
    for section in sections:
        for extra in sorted((content / section).iterdir()):
            if extra.name.startswith((".", "_")) or extra.suffix == ".md" or extra == out_dir:
                continue
            if not extra.is_dir():
                continue  # files beside the lessons are not published
            rel = extra.relative_to(content).as_posix()
            if rel in sections:
                continue
            problem = outside(extra, content)
            if problem:
                errors.append(problem)
                continue
            copy_tree(extra, None, content, errors)  # every link inside it checked before anything is written
            if rel in outputs or extra.name in (MARKER, ".nojekyll"):
                errors.append(SourceError(extra, 0, 0, f"the folder {rel} has the name of a page of the site",
                                          "rename the folder"))
                continue
            folders.append(extra)
    return folders


def own_figures(folder: Path, site: Path, errors: list[SourceError], words):
    """The site's own figures, unless the folder, or a module in it, leads out of the
    site folder: the build runs that Python, and it runs nothing from elsewhere. The
    catalogue keys they write out are checked against the site's ``words``."""
    problems = []
    if folder.exists() or folder.is_symlink():
        problem = outside(folder, site.resolve(), "site folder")
        if problem:
            problems.append(problem)
        elif folder.is_dir():
            problems += [p for p in (outside(path, site.resolve(), "site folder") for path in sorted(folder.glob("*.py")))
                         if p]
    if problems:
        errors.extend(problems)
        return authors.AuthorFigures(folder)
    return authors.load(folder, words)


def id_clashes(page) -> list[SourceError]:
    """A figure, an image or an exercise whose id is also a heading's anchor, or an
    image's or exercise's that of a figure. (Two figures with one id are reported, once,
    by the figure directive.)"""
    headings = {t.attrGet("id") for t in page.tokens if t.type == "heading_open" and t.attrGet("id")}
    figures = {t.meta["id"] for t in page.tokens if t.type == "figure"}
    errors = []
    for token in page.tokens:
        if token.type == "figure" and token.meta["id"] in headings:
            errors.append(SourceError(page.path, token.meta["line"], 1,
                                      f"figure id '{token.meta['id']}' is also the id of a heading on this page",
                                      "give the figure another id (the word after the directive name)"))
        elif token.type == "image_figure_open" and token.attrGet("id") in headings | figures:
            fence = (token.map[0] if token.map else 0) + page.env.get("line_offset", 0)
            lines = page.env.get("lines") or []
            line = next((i + 1 for i in range(fence, min(fence + 20, len(lines)))
                         if lines[i].strip().startswith(":name:")), fence + 1)
            errors.append(SourceError(page.path, line, 1, f"image name '{token.attrGet('id')}' is also the id of a "
                                      f"heading or a figure on this page", "give the image another :name:"))
        elif token.type == "exercise_open" and token.meta["id"] in headings | figures:
            errors.append(SourceError(page.path, token.meta["line"], 1,
                                      f"exercise id '{token.meta['id']}' is also the id of a heading or figure "
                                      "on this page", "give the exercise another :name:"))
    return errors + _label_clashes(page, headings, figures)


def _label_clashes(page, headings: set[str], figures: set[str]) -> list[SourceError]:
    """An equation's label, or an id written as an attribute (``[words]{#id}``,
    ``![alt](a.png){#id}``), that the page already uses: a heading's, a figure's, an
    exercise's, an image's, or one written before it. A link or a reference to it would
    land on the first."""
    seen = {**{i: "a heading" for i in headings}, **{i: "a figure" for i in figures}}
    seen.update({t.meta["id"]: "an exercise" for t in page.tokens if t.type == "exercise_open"})
    seen.update({str(t.attrGet("id")): "an image" for t in page.tokens
                 if t.type == "image_figure_open" and t.attrGet("id")})
    errors = []

    for token in page.tokens:
        before: dict[str, int] = {}  # ids of this block so far: where each stands is found past those

        def where(text: str) -> tuple[int, int]:
            line0, col = found_in(page.env, token, text, before.get(text, 0))
            before[text] = before.get(text, 0) + 1
            return page.env.get("line_offset", 0) + line0 + 1, col

        if token.type == "math_block_label":
            line, col = where(f"({token.info})")
            if token.info in seen:
                errors.append(SourceError(page.path, line, col, f"the equation label '{token.info}' is already "
                                          f"the id of {seen[token.info]} on this page",
                                          "give the equation a label of its own: a link or {eq} to it would "
                                          "land on the other"))
            else:
                seen[token.info] = f"the equation on line {line}"
        for child in token.children or ():
            ident = str(child.attrGet("id") or "") if child.type != "html_inline" else ""
            if not ident or child.type == "figure_number":
                continue
            line, col = where("{#" + ident)
            if ident in seen:
                errors.append(SourceError(page.path, line, col, f"the id '{ident}' is already the id of "
                                          f"{seen[ident]} on this page",
                                          "give it an id of its own: a link to it would land on the other"))
            else:
                seen[ident] = f"the {{#{ident}}} on line {line}"
    return errors
