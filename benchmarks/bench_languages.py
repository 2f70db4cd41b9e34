"""What a site in several languages costs: its build, and each language's first frame.

    python benchmarks/bench_languages.py [--runs 3] [--content content]

Builds the track (content/) as it is, in one language, and the same lessons as a site
in three (``languages: [en, de, he]``, each lesson copied into content/de/ and
content/he/: the words around them are German and Hebrew, the lessons' text stays as it
is), each with the build cache turned off, and prints the median time of each and the
pages written. Then, for a lesson of each language's tree, its first frame as the build
wrote it: the page, the stylesheet and the scripts its head loads, each gzipped (level 6),
and the math font its font stylesheet names (woff2, as it is), as bench_lifecycle.py
counts what the page asks for before its first frame; beside the same lesson of the
one-language site; and the largest first frames of all the three-language site's pages
(the limit is 60 KB), and every lesson's of the one-language site. ``--terser`` minifies the
scripts edited since runtime-minified.json was made as it will (the build falls back to
rjsmin for them, which is larger).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import shutil
import statistics
import tempfile
import time
from pathlib import Path

os.environ["EXPLORABLES_CACHE"] = "off"  # every build does all its work

from explorables.site_builder.authors import loader
from explorables.site_builder.commands.build import build_site
from explorables.site_builder.output import minify

ROOT = Path(__file__).resolve().parents[1]
LANGUAGES = ("en", "de", "he")


def lay_out(content: Path, folder: Path, languages: bool) -> Path:
    """The track's lessons in ``folder``/content, with its site.yml beside; in three
    languages with ``languages``."""
    shutil.copytree(content, folder / "content", ignore=shutil.ignore_patterns("site.yml", "_*", ".*"))
    site = (content / "site.yml").read_text(encoding="utf-8") if (content / "site.yml").is_file() else ""
    site = "\n".join(line for line in site.splitlines() if not line.startswith("language:"))
    if languages:
        site += f"\nlanguages: [{', '.join(LANGUAGES)}]\n"
        for code in LANGUAGES[1:]:
            (folder / "content" / code).mkdir()
            for lesson in (folder / "content").glob("*.md"):
                shutil.copy2(lesson, folder / "content" / code / lesson.name)
    (folder / "site.yml").write_text(site, encoding="utf-8")
    return folder / "content"


def timed(content: Path, out: Path, runs: int) -> tuple[float, int]:
    times, pages = [], 0
    for _ in range(runs):
        shutil.rmtree(out, ignore_errors=True)
        started = time.perf_counter()
        pages = build_site(content, out).pages
        times.append(time.perf_counter() - started)
        loader.unload()
    return statistics.median(times), pages


def first_frame(site: Path, page: str) -> int:
    """Gzipped bytes of ``page`` and what its head loads before the figures are drawn."""
    html = (site / page).read_text(encoding="utf-8")
    head = html.split("</head>", 1)[0]
    loaded = re.findall(r'<link rel="stylesheet" href="([^"]+)"', head) + re.findall(
        r'<script[^>]* src="([^"]+)"', head
    )
    files = [site / page] + [(site / page).parent / href for href in loaded]
    fonts = [
        css.parent / url
        for css in files
        if css.suffix == ".css" and "/fonts/" in css.as_posix()
        for url in re.findall(r'url\("([^"]+)"\)', css.read_text(encoding="utf-8"))
    ]  # the page's math font: woff2 is compressed already
    return sum(len(gzip.compress(path.read_bytes(), 6)) for path in files) + sum(f.stat().st_size for f in fonts)


def fresh_minified() -> None:
    """Edited scripts minified by terser, as the shipped artifact will hold them once made
    again (the build falls back to rjsmin for a stale one, which is larger)."""
    shipped = minify._artifact()
    scripts = minify.sources(minify.STATIC)
    stale = {name: scripts[name] for name in minify.stale(scripts)}
    if stale:
        made = json.loads(minify.make(stale, shutil.which("node") or "node", minify.terser_dir()))["scripts"]
        whole = {**shipped, **made}
        minify._artifact = lambda: whole


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--content", default=str(ROOT / "content"))
    parser.add_argument(
        "--terser", action="store_true", help="minify edited scripts as runtime-minified.json would (needs Node)"
    )
    args = parser.parse_args()
    if args.terser:
        fresh_minified()
    with tempfile.TemporaryDirectory(prefix="bench-languages-") as tmp:
        one = lay_out(Path(args.content), Path(tmp) / "one", languages=False)
        three = lay_out(Path(args.content), Path(tmp) / "three", languages=True)
        one_time, one_pages = timed(one, Path(tmp) / "one" / "_site", args.runs)
        three_time, three_pages = timed(three, Path(tmp) / "three" / "_site", args.runs)
        print(f"{'site':<24}{'pages':>8}{'build (median)':>18}")
        print(f"{'one language':<24}{one_pages:>8}{one_time:>16.2f} s")
        print(f"{'three languages':<24}{three_pages:>8}{three_time:>16.2f} s")
        lesson = sorted(
            p.name
            for p in (Path(tmp) / "one" / "_site").glob("*.html")
            if p.stem not in {"index", "404", "notices", "print"}
        )[0]
        print(f"\nfirst frame of {lesson}, gzipped (HTML, stylesheet, head scripts; math font as it is):")
        print(f"  {'one language':<30}{first_frame(Path(tmp) / 'one' / '_site', lesson) / 1024:>8.1f} KB")
        for code in LANGUAGES:
            page = lesson if code == LANGUAGES[0] else f"{code}/{lesson}"
            size = first_frame(Path(tmp) / "three" / "_site", page)
            print(f"  {page:<30}{size / 1024:>8.1f} KB")
        one_site = Path(tmp) / "one" / "_site"
        print("\nthe first frame of every lesson of the one-language site:")
        for page in sorted(
            p.name for p in one_site.glob("*.html") if p.stem not in {"index", "404", "notices", "print"}
        ):
            print(f"  {page:<30}{first_frame(one_site, page) / 1024:>8.1f} KB")
        site = Path(tmp) / "three" / "_site"
        every = sorted(
            (
                (first_frame(site, path.relative_to(site).as_posix()), path.relative_to(site).as_posix())
                for path in site.rglob("*.html")
                if path.stem != "print" and not path.relative_to(site).as_posix().startswith("_")
            ),
            reverse=True,
        )
        print(f"\nthe largest first frames of the {len(every)} pages in three languages:")
        over = sum(size > 60 * 1024 for size, _ in every)
        for size, page in every[: max(10, over + 1)]:
            print(f"  {page:<30}{size / 1024:>8.1f} KB{'  over 60 KB' if size > 60 * 1024 else ''}")


if __name__ == "__main__":
    main()
