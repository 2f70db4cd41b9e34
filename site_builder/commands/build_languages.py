"""The read, parse and render stages of ``explorables build`` (build.py), once a language,
for a site with ``languages: [en, de, he]`` (structure/languages.py).

Each language is built as a site of its own: its lessons (content/ for the default,
content/CODE/ for each other), its words, its menus, numbering, print page, notices,
404 page and search index; the same figures, the same runtime and one engine serve them
all. A lesson of the default language that a language lacks is built into that
language's tree from the default's file, with a note in that language, and listed as a
warning (an error with ``--strict``). The other languages' pages are then moved under
their code (``de/``): their URLs and the way back to the site's root. The stages'
results are joined into one Parsed and one Rendered, which the write stage writes as it
writes any site; output/languages.py adds what the languages share.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace
from pathlib import Path

from ...engine import locale
from ..authors import keys
from ..errors import BuildError, SourceError
from ..output import languages as out
from ..pyodide.archive import engine_archive
from ..structure import languages, metadata, sections
from ..structure.config import config_path
from ..structure.files import read_sources
from ..structure.language import site_words
from .build_stages import Parsed, Read, Rendered, Run

# What each page is given that differs from one language to the next: in a site of
# several languages it goes with each page, not with what every page shares.
LANGUAGE_KEYS = ("config", "lessons", "site", "dir", "words")


@dataclass
class LanguageRun(Run):
    """A language's run: its content folder, the site's folder for messages, the same
    errors as the whole build."""

    site: Path | None = None

    @property
    def root(self) -> Path:
        return self.site or self.content.parent


@dataclass
class Tree:
    """One language of the site as built: where its lessons are, its pages' prefix."""

    code: str
    prefix: str  # "" for the default language, "de/" for the others
    run: Run
    read: Read
    parsed: Parsed | None = None
    rendered: Rendered | None = None
    fallbacks: set[str] = field(default_factory=set)  # page files (from its root) taken from the default

    @property
    def done(self) -> tuple[Parsed, Rendered]:
        """Its parse and render stages' results, once both have run."""
        assert self.parsed is not None and self.rendered is not None
        return self.parsed, self.rendered


def several(config) -> bool:
    """Whether the site has more than one language (else it is built as it always was)."""
    return len(config.languages) > 1


def stages(
    run: Run,
    read: Read,
    parse: Callable[..., Parsed],
    render: Callable[[Run, Read, Parsed], Rendered],
    only: tuple[str, ...] | None = None,
    strict: bool = False,
) -> tuple[Parsed, Rendered]:
    """Parse and render every language of the site (``only``: the default and those named),
    then join them: one Parsed and one Rendered for the write stage."""
    config = read.config
    codes = [code for code in config.languages[1:] if only is None or code in only]
    unknown = [code for code in only or () if code not in config.languages]
    if unknown:
        raise BuildError(f"--language {unknown[0]}: the site's languages are {', '.join(config.languages)} (site.yml)")
    default = Tree(config.language, "", run, read)
    run.errors.extend(languages.misplaced(read.sources, run.content, config.languages))
    run.errors.extend(languages.case_clashes(run.content, config.languages))
    failed: list[SourceError] = []  # every language's mistakes, reported together

    def attempt(stage: Callable[[], Rendered]) -> Rendered | None:
        try:
            return stage()
        except BuildError as err:
            if not err.errors:  # a message of its own, not an author's mistakes
                raise
            failed.extend(err.errors)
            return None

    _speak(read)
    default.parsed = parsed = parse(run, read)
    # a page parsed in the pool is small until rendered, and its rendering frees its whole
    # tokens (slim.py): kept for the stand-ins other languages make of it
    packed = {page.url: page.packed for page in parsed.pages}
    default.rendered = render(run, read, parsed)  # its mistakes first: site.yml's are among them
    trees = [default]
    missing: list[SourceError] = []
    for code in codes:
        tree = _read(run, read, code)
        _speak(tree.read)
        fallbacks = _fallbacks(tree, default, packed)
        tree.parsed = mine = parse(tree.run, tree.read, fallbacks)
        lacking = [_missing(page, code, tree, run) for page in fallbacks]
        missing += lacking
        if strict:  # an error, reported with the rest of the language's
            tree.run.errors.extend(lacking)
        tree.rendered = attempt(functools.partial(render, tree.run, tree.read, mine))
        trees.append(tree)
    _speak(read)  # the default language again, for the write stage
    if failed:
        failed.sort(key=lambda e: (Path(e.path).is_relative_to(run.content), str(e.path), e.line, e.col))
        raise BuildError(failed, root=run.root)
    skip = set(config.languages[1:])
    default.done[1].extras = [e for e in default.done[1].extras if e.relative_to(run.content).parts[0] not in skip]
    for tree in trees:
        _move(tree)
    default.done[0].warnings += languages.missing_folders(run.content, [config.language, *codes]) + missing
    return _join(trees, read)


def _speak(read: Read) -> None:
    """The engine speaks the language of ``read`` (first frames, numbers, own words)."""
    locale.own_words(read.words.own)
    locale.use(read.config.language, read.words.messages)


def _read(run: Run, read: Read, code: str) -> Tree:
    """Stage 1 for one more language: its words and its lessons' text. The site's figures
    were read with the default language; the keys they write out are checked in this one
    too (authors/keys.py)."""
    content = run.content / code
    given = {f.name: getattr(run, f.name) for f in fields(run)} | {"content": content, "errors": []}
    lrun = LanguageRun(**given, site=run.root)  # its own errors: each language's render reports its own
    errors = lrun.errors
    words = site_words(code, config_path(run.content))
    errors.extend(words.errors)
    mistakes, uses = keys.check_language(read.own.modules, words)  # the site's figures' words in it
    errors.extend(mistakes)
    english = {key for key, (file, _) in words.sources.items() if file != words.catalogue}
    if english and len(uses) == len(english):  # each key said where it is used, not in one line for all
        words.warnings = [w for w in words.warnings if w is not words.stay_english]
    words.warnings += uses
    sources, warnings = sections.sources(content, run.out_dir, errors) if content.is_dir() else ([], [])
    errors.extend(languages.misplaced(sources, content, read.config.languages))
    texts = read_sources(sources, content, errors)
    config = replace(read.config, language=code, favicon="")  # the favicon is the site's: checked once
    mine = replace(read, config=config, words=words, sources=sources, texts=texts, warnings=warnings)
    return Tree(code, f"{code}/", lrun, mine)


def _fallbacks(tree: Tree, default: Tree, packed: dict) -> list:
    """The default language's pages ``tree`` has no file for, as pages of its own (their
    links resolved already; a file of its folder's name, which does not exist), whole:
    ``packed``, each page's tokens as parsing left them ({url: slim.Packed or None})."""
    assert default.parsed is not None
    have = {path.relative_to(tree.run.content).as_posix() for path in tree.read.sources}
    found = []
    for page in default.parsed.pages:
        rel = page.path.relative_to(default.run.content).as_posix()
        if rel in have:
            continue
        twin = copy.copy(page)
        twin.packed = packed.get(page.url)
        twin.path = tree.run.content / rel
        twin.env = {**page.env, "links": [], "original": page.path}
        twin.meta = {k: v for k, v in page.meta.items() if k != "image"}  # its preview image is the default's
        twin.errors, twin.warnings = [], []
        tree.fallbacks.add(page.url)
        found.append(twin)
    return found


def _missing(page, code: str, tree: Tree, run: Run) -> SourceError:
    original = page.env["original"]
    where = page.path.relative_to(run.root).as_posix()
    return SourceError(
        original,
        1,
        1,
        f"no '{code}' translation of this lesson ({where} does not exist): the '{code}' pages show it "
        f"as it is, with a note",
        f"translate it into {where}",
    )


def _move(tree: Tree) -> None:
    """Put a language's pages under its prefix: their files, their URLs, their folders
    (as the write stage checks links against the site laid out) and the way back to the
    site's root. The default language's stay where they are."""
    assert tree.parsed is not None and tree.rendered is not None
    prefix = tree.prefix
    rendered = tree.rendered
    for name, (_template, variables) in rendered.renders.items():
        if name in tree.fallbacks:
            variables["body"] = out.fallback_note(tree.read.words, tree.read.config.languages[0]) + variables["body"]
    if not prefix:
        return
    up = "../" * prefix.count("/")
    for page in tree.parsed.pages:
        page.url = prefix + page.url
        page.folder = (prefix + page.folder).rstrip("/")
        move_files(page, prefix)
    for section in tree.parsed.site.all_sections():
        section.prefix = prefix
        for lesson in section.lessons():
            lesson.url = prefix + lesson.url
    moved = {}
    for name, (template, variables) in rendered.renders.items():
        root = variables.get("root", "")
        variables["root"] = root if root.startswith("/") else up + root
        moved[prefix + name] = (template, variables)
    rendered.renders = moved
    rendered.searched = [(prefix + url, *rest) for url, *rest in rendered.searched if url not in tree.fallbacks]
    rendered.outputs = {}  # the sitemap is the whole site's


def move_files(page, prefix: str) -> None:
    """The files a page of a language's tree names, under its prefix: its images, its
    preview image (beside the language's lessons)."""
    page.env["images"] = [(file, prefix + url) for file, url in page.env.get("images", [])]
    if page.meta.get("image"):
        page.meta["image"] = prefix + page.meta["image"]


def _join(trees: list[Tree], read: Read) -> tuple[Parsed, Rendered]:
    """One Parsed and one Rendered of every language: every page is given its language's
    words, menus and switch; the engine archive carries every language's words."""
    default = trees[0]
    assert default.parsed is not None and default.rendered is not None
    first = default.rendered
    shared = {key: value for key, value in first.common.items() if key not in LANGUAGE_KEYS}
    by_code = {tree.code: tree for tree in trees}
    renders: dict[str, tuple[str, dict]] = {}
    for tree in trees:
        assert tree.rendered is not None and tree.parsed is not None
        own = {key: tree.done[1].common[key] for key in LANGUAGE_KEYS}
        own["config"] = replace(read.config, language=tree.code)
        own["words"] = out.page_words(tree.read.words, default.read.words, tree.done[1].common["words"])
        for name, (template, variables) in tree.done[1].renders.items():
            key = name.removeprefix(tree.prefix)
            variables.update(own)
            variables.update(out.page_languages(key, tree, by_code, read.config, variables))
            variables["t"] = tree.read.words.t
            renders[name] = (template, variables)
    pages = [page for tree in trees for page in tree.done[0].pages]
    outputs = {k: v for k, v in first.outputs.items() if k != "sitemap.xml"}
    sitemap = metadata.sitemap(read.config, pages, out.sitemap_alternates(trees))
    if sitemap:
        outputs["sitemap.xml"] = sitemap
    own_files = read.own.archive_files(read.words.own)
    spoken = {locale.base_language(code) for code in (tree.code for tree in trees)} - {
        "en",
        locale.base_language(read.config.language),
    }
    words_files = [
        (f"explorables/engine/locales/{code}.json", (locale.LOCALES / f"{code}.json").read_bytes())
        for code in sorted(spoken)
        if (locale.LOCALES / f"{code}.json").is_file()
    ]
    rendered = Rendered(
        first.env,
        shared,
        renders,
        outputs,
        [body for tree in trees for body in tree.done[1].bodies],
        first.searched,
        [extra for tree in trees for extra in tree.done[1].extras],
        engine_archive([*own_files, *words_files], read.config.language),
        sum(tree.done[1].figures for tree in trees),
        sum(tree.done[1].pages_written for tree in trees),
    )
    rendered.languages = [
        out.LanguageOutput(
            tree.code,
            tree.prefix,
            tree.done[1].searched,
            out.page_words(tree.read.words, default.read.words, tree.done[1].common["words"]),
            frozenset(tree.done[1].renders),
            tree.run.content,
            tree.read.words,
            tree.done[0].md,
            frozenset(tree.fallbacks),
        )
        for tree in trees
    ]
    parsed = replace(
        default.parsed,
        pages=pages,
        reading=[entry for tree in trees for entry in tree.done[0].reading],
        warnings=[w for tree in trees for w in tree.done[0].warnings],
    )
    return parsed, rendered
