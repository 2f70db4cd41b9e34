"""Stage 4 of ``explorables build`` (build.py), write: the runtime, the engine and the
pages into a fresh folder beside the output, which the swap then puts in its place."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from ...engine.exercises import glyphs as exercise_glyphs
from ..errors import BuildError, SourceError, building
from ..output import assets as site_assets  # offline: a bundle's data scripts
from ..output import fonts, languages, offline, scripts, search_files, search_sections, serviceworker, track
from ..output.assets import ASSETS
from ..output.folder import MARKER
from ..output.images import copy_images
from ..output.printpage import PRINT_PAGE
from ..pyodide import release as pyodide
from ..pyodide import snapshot, stdlib
from ..pyodide.archive import with_files
from ..structure import metadata
from ..structure.config import _line_of, config_path
from ..structure.files import copy_tree
from ..structure.links import missing_targets
from .build_stages import Parsed, Read, Rendered, Run


def megabytes(size: int) -> str:
    """13_652_045 -> '13.7 MB' (decimal megabytes, as download sizes are given)."""
    return f"{size / 1e6:.1f} MB"


def write(run: Run, read: Read, parsed: Parsed, rendered: Rendered) -> Path:
    """Stage 4, write, into a fresh folder beside the output (returned; removed if the
    stage fails): the runtime's files and the engine archive under hashed names, the
    site's standard library, the snapshot, the search index, then the pages that name
    them with each page's math font cut to its glyphs, the author's files and Pyodide."""
    content, root, errors, config, bundle = run.content, run.root, run.errors, read.config, run.bundle
    common, renders, outputs = rendered.common, rendered.renders, rendered.outputs
    run.out_dir.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{run.out_dir.name}-build-", dir=run.out_dir.parent))
    try:
        with building(run.out_dir, root):
            assets = staging / ASSETS
            scripts.copy_static(assets)
            scripts.write_runtime(assets, bundle=bundle, dev=run.dev, scorm=run.scorm)
            build = site_assets.build_id({**_runtime_files(assets), "engine.zip": rendered.plain_engine})
            engine = with_files(rendered.plain_engine, [(site_assets.BUILD_FILE, build.encode("ascii"))])
            (assets / "engine.zip").write_bytes(engine)
            python_lib = stdlib.site_stdlib(pyodide.ensure_pyodide(run.pyodide_source))
            if not bundle:  # a bundle carries it in its Pyodide data
                (assets / "stdlib.zip").write_bytes(python_lib)
            common["engine_size"] = megabytes(pyodide.SITE_BYTES + len(python_lib) + len(engine))
            if config.snapshot and not run.dev and not bundle:  # serve rebuilds stay quick; a bundle carries files
                made = _snapshot(engine, python_lib, run.pyodide_source, config_path(content))
                if isinstance(made, SourceError):
                    parsed.warnings.append(made)
                else:
                    (assets / "snapshot.bin").write_bytes(made)  # readers who save data start cold (client.js)
            # each page its own math font, of the glyphs its math and its exercises' new problems
            # draw (fonts.py); a bundle's carried pages have no head to name theirs: one for all
            whole = (assets / fonts.MATH_FONT).read_bytes()
            (assets / fonts.MATH_FONT).unlink()
            if bundle:
                offline.write_data(assets, engine, python_lib, run.pyodide_source)
            languages.write_assets(assets, rendered, run.dev)  # a site in several: each one's words
            languages.write_first_frame(assets, rendered, bundle=bundle, dev=run.dev)  # its panel kinds, words
            track.write_track(assets, parsed.reading, config.language, read.words.messages, config.languages)
            names = site_assets.hash_folder(assets)
            names.update(search_files.write(assets, rendered.searched))  # one file, or split (large sites)
            names.update(languages.write_search(assets, rendered))  # a site in several: each one's own
            serviceworker.announce(names, config.offline, dev=run.dev, bundle=bundle)  # pages register sw.js
            shared = "".join([*rendered.bodies, exercise_glyphs()]) if bundle else None
            page_fonts = fonts.PageFonts(assets, whole, fonts.exercise_math, shared)
            if not run.dev:  # the search index is written: the pages' sections are read no more (serve's are)
                search_sections.READ.clear()
            render = languages.renderer(rendered, rendered.env, common, renders, build, names, page_fonts)
            if bundle:  # every page's content, carried for the bundle's page swaps
                drafts = {
                    name: render(name, "bundle/pages.js") for name in renders if name != PRINT_PAGE
                }  # no scripts: it opens as a file of its own
                names["bundle/pages.js"] = site_assets.add(assets, "bundle/pages.js", offline.pages_script(drafts))
            for name, text in outputs.items():
                (staging / name).parent.mkdir(parents=True, exist_ok=True)
                (staging / name).write_text(text, encoding="utf-8")
            for name in renders:  # each written once made: not every page held at once
                (staging / name).parent.mkdir(parents=True, exist_ok=True)
                if name == PRINT_PAGE:  # every lesson on one page: written as it is made
                    render(name, into=staging / name)
                    continue
                (staging / name).write_text(render(name), encoding="utf-8")
            for extra in rendered.extras:  # images and other files of the lessons
                copy_tree(extra, staging / extra.relative_to(content), content, errors)
            copy_images(parsed.pages, content, staging)  # images beside the lessons, referenced from Markdown
            metadata.copy_files(config, content, parsed.pages, staging)  # favicon, link preview images
            errors.extend(missing_targets(parsed.pages, staging))
            if errors:
                raise BuildError(errors, root=root)
            (staging / ".nojekyll").write_text("")  # GitHub Pages: serve _explorables/ as it is
            (staging / MARKER).write_text("Made by `explorables build`; the next build replaces this folder.\n")
            if not bundle:
                pyodide.vendor(assets / site_assets.PYODIDE, run.pyodide_source)
            serviceworker.write(staging, build, config, read.words, dev=run.dev, bundle=bundle)  # lists every file
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return staging


def _snapshot(engine: bytes, python_lib: bytes, pyodide_source: str | None, where: Path) -> bytes | SourceError:
    """The gzip-compressed memory snapshot of the engine (snapshot.py), or a warning
    at site.yml's `snapshot` line saying why there is none."""
    line = _line_of(where.read_text(encoding="utf-8"), "snapshot")
    try:
        return snapshot.make(pyodide.ensure_pyodide(pyodide_source), engine, python_lib)
    except snapshot.SnapshotError as err:
        return SourceError(where, line, 1, str(err), "install Node, or remove `snapshot: true` from site.yml")


def _runtime_files(assets: Path) -> dict[str, bytes]:
    """The browser runtime as copied into ``assets``: what the build id is made of."""
    return {
        path.relative_to(assets).as_posix(): path.read_bytes() for path in sorted(assets.rglob("*")) if path.is_file()
    }
