"""``explorables new DIR``: a working site to start from.

It writes the layout ``explorables build`` reads: ``site.yml`` (every key, each under
its docstring, generated from the declarations in config.py), ``content/`` with an
index page and two lessons (one with a built-in figure, one with the site's own),
``figures/softmax_bars.py`` (the sample figure of the author guide), a ``.gitignore``
and ``.github/workflows/pages.yml``, which publishes the site on GitHub Pages. The
starter files are package data in ``starter/``.

With ``languages`` (``--languages en,de``) the site is in several languages
(structure/languages.py): site.yml names them, and each language after the first has a
folder of content/ that mirrors it, its lessons translated where the starter has them
in that language (``starter/content-LANG/``), else the English ones to translate.

A folder that holds anything is refused unless ``force`` is given, and even then no
file that exists is overwritten: only the missing starter files are added.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from ... import __version__
from ..structure.config import documented_config

STARTER = Path(__file__).resolve().parent.parent / "starter"
# (where the file goes in the new site, where it is in starter/)
COPIED = (
    ("content/index.md", "content/index.md"),
    ("content/01-one-query-row.md", "content/01-one-query-row.md"),
    ("content/02-softmax-of-three.md", "content/02-softmax-of-three.md"),
    ("figures/softmax_bars.py", "figures/softmax_bars.py"),
    (".gitignore", "gitignore"),  # package data keeps no dotfiles: renamed on the way out
)
BUILD_COMMAND = "explorables build"  # what the Pages workflow runs; the tests run the same


class NewSiteError(Exception):
    """``new`` cannot write here; the message says what to do instead."""


@dataclass
class NewSite:
    folder: Path
    written: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)  # the author's files, left as they were


def minor() -> str:
    """'0.2' for Explorables 0.2.x."""
    return ".".join(__version__.split(".")[:2])


def version_range() -> str:
    """The versions a new site asks for in site.yml: this minor version, e.g. '>=0.2,<0.3'."""
    major, minor_part = (int(x) for x in __version__.split(".")[:2])
    return f">={major}.{minor_part},<{major}.{minor_part + 1}"


def pages_workflow(install: str | None = None, note: str | None = None) -> str:
    """The GitHub Pages workflow; by default it installs this minor version, pinned."""
    install = install or f'"explorables=={minor()}.*"'
    note = note or (
        "Pinned to one minor version: a new minor version may change things; read CHANGELOG.md before moving the pin."
    )
    text = (STARTER / "pages.yml").read_text(encoding="utf-8")
    return text.replace("__INSTALL_NOTE__", note).replace("__INSTALL__", install)


def title_of(folder: Path) -> str:
    """'my-lessons' -> 'My lessons'."""
    words = folder.resolve().name.replace("_", " ").replace("-", " ").strip()
    return words[:1].upper() + words[1:] if words else "My lessons"


def starter_files(title: str, languages: tuple[str, ...] | None = None) -> dict[str, bytes]:
    """Every file of a new site, by its path in the site."""
    settings: dict = {"title": title, "explorables": version_range()}
    if languages and len(languages) > 1:
        settings["languages"] = list(languages)
    files = {"site.yml": documented_config(settings).encode()}
    for target, source in COPIED:
        files[target] = (STARTER / source).read_bytes()
    for code in (languages or ())[1:]:  # each other language: content/ mirrored in content/CODE/
        translated = STARTER / f"content-{code}"
        for target, source in COPIED:
            if target.startswith("content/"):
                name = Path(source).name
                mine = translated / name
                files[f"content/{code}/{name}"] = (mine if mine.is_file() else STARTER / source).read_bytes()
    # the home page is titled as the site is (json.dumps: a YAML string whatever it holds)
    files["content/index.md"] = files["content/index.md"].replace(
        b"title: My lessons\n", f"title: {json.dumps(title, ensure_ascii=False)}\n".encode(), 1
    )
    files[".github/workflows/pages.yml"] = pages_workflow().encode()
    return files


def new_site(
    folder: Path, *, force: bool = False, title: str | None = None, languages: tuple[str, ...] | None = None
) -> NewSite:
    """Write a new site into ``folder``; never overwrite a file that is there. ``languages``:
    a site in several, the default first."""
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise NewSiteError(f"{folder} is a file; name a new folder: explorables new my-lessons")
    if folder.is_dir() and any(folder.iterdir()) and not force:
        present = sorted(p.name for p in folder.iterdir())
        shown = ", ".join(present[:5]) + (", ..." if len(present) > 5 else "")
        raise NewSiteError(
            f"{folder} is not empty (it holds {shown}); name a new folder, or pass --force "
            f"to add the starter files that are missing (no file of yours is overwritten)"
        )
    result = NewSite(folder)
    if languages:
        problem = _languages_problem(languages)
        if problem:
            raise NewSiteError(problem)
    for relative, data in starter_files(title or title_of(folder), languages).items():
        target = folder / relative
        if target.exists() or target.is_symlink():
            result.kept.append(relative)
            continue
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            with open(target, "xb") as handle:  # "x": never replace a file that appeared meanwhile
                handle.write(data)
        except (FileExistsError, NotADirectoryError):  # a file of the author's where a folder goes
            result.kept.append(relative)
            continue
        result.written.append(relative)
    return result


def _languages_problem(languages: tuple[str, ...]) -> str:
    """What is wrong with ``--languages``, or "": codes, each once, each with its words."""
    from ...engine import locale  # noqa: PLC0415
    from ..structure.language import is_language_tag, suggest_language  # noqa: PLC0415

    shipped = sorted(p.stem for p in locale.LOCALES.glob("*.json"))
    for code in languages:
        if not is_language_tag(code):
            guess = suggest_language(code)
            return f"--languages: '{code}' is not a language code" + (f"; did you mean '{guess}'?" if guess else "")
        if not locale.catalogue(code):
            return (
                f"--languages: '{code}' has no words shipped ({', '.join(shipped)} have); start with those, then "
                f"add locales/{locale.base_language(code)}.json (explorables words {code}) and the language in site.yml"
            )
    if len({locale.base_language(code) for code in languages}) < len(languages):
        return "--languages: a language is named twice"
    return ""
