"""Time a whole build against MkDocs on the same generated pages, with peak memory.

    pip install -e .[bench]
    python benchmarks/bench_build.py [--pages 200 2000] [--runs 3] [--alone 20000] [--baseline REV]

Writes N pages of Markdown: sections (folders of twenty lessons, each with an index.md),
paragraphs with inline and display math, a code block, a table, links to the previous
lesson, to an anchor of the section's page and to the site's front page, and one page in
twenty a built-in figure (``attention-row``). MkDocs gets the same Markdown files with a
config of its own (its navigation made from the folders; math and figure blocks stay text).

What is timed: the whole command in a child process, from the interpreter's start to its
exit (imports included), `explorables build` against `mkdocs build`, runs interleaved
(Explorables, MkDocs, Explorables, ...) so that the machine's load falls on both alike.
Explorables' build links the Pyodide core files from the user's cache (os.link, no copy):
its fixed cost is printed as the time of a one-page site. Processor time (user and
system) and peak memory (the maximum resident set) are the child's, from os.wait4's
rusage: on a machine other programs share, the processor time moves less than the wall.
``--alone N`` times Explorables alone at N pages (MkDocs' time grows past what a
benchmark can wait for there). ``--baseline REV`` also times the tool as it was at the git
revision REV (its files from ``git archive``, laid out as an import path), its runs
interleaved with the working tree's: the before and after of a change, in one run.

The tools' modules are imported from their bytecode, as installed packages are (MkDocs'
in site-packages; Explorables' kept under the benchmark's folder, compiled by the first,
untimed run; ``--no-bytecode``: as the environment has it).

Each timed Explorables build starts from an empty build cache (EXPLORABLES_CACHE, a fresh
folder). Then, at each size: a rebuild of the unchanged site with the cache of a build
before it, a rebuild after one lesson's text was edited, the same edit in `explorables
serve` (its kept build process rebuilding the one page), the size of one lesson's page
(the same Markdown at every size: the menu must not grow it), and a reader's first
search (js/search.js under Node): what it downloads, gzipped, and when it answers.
"""

from __future__ import annotations

import argparse
import importlib.util
import io
import json
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parent.parent

PER_SECTION = 20  # lessons in each folder
FIGURE_EVERY = 20  # one page in twenty has a figure

WORDS = ["attention", "query", "key", "value", "softmax", "weight", "score", "token", "vector", "matrix", "row",
         "column", "head", "layer", "position", "sentence", "product", "average", "temperature", "mask", "scale",
         "dimension", "embedding", "sum"]


def _words(n: int, count: int) -> str:
    return " ".join(WORDS[(n * 7 + i * 3 + i * i) % len(WORDS)] for i in range(count))


def lesson(n: int, section: int, first: bool) -> str:
    """The Markdown of lesson ``n`` (from 0) of folder ``section``; about 5 KB, like a real one."""
    prev = "" if first else f"See the [previous lesson](lesson-{n - 1:05d}.md#the-table) first. "
    figure = (f"\n:::{{attention-row}} row{n}\n:caption: One row of attention in lesson {n}.\n:query: chased\n"
              f":temperature: 1\n:::\n" if n % FIGURE_EVERY == FIGURE_EVERY - 1 else "")
    rows = "\n".join(f"| {WORDS[(n + i) % len(WORDS)]} | {i * 0.25:.2f} | {(n * i) % 97} |" for i in range(6))
    paragraphs = "\n\n".join(f"{_words(n + k, 60).capitalize()}, with $q_{k} \\cdot k_{k} / \\sqrt{{d_k}}$ "
                             f"as the score of word {k} and {_words(n * k, 25)}." for k in range(3))
    return f"""---
title: Lesson {n + 1} on {WORDS[n % len(WORDS)]}
order: {n + 1}
summary: Lesson {n + 1} reads {_words(n, 12)}.
---

{prev}The [section's page](index.md#overview) says where this lesson stands; the
[front page](../index.md) lists every section. Lesson {n + 1} works term{n} out by hand.

## The scores

{paragraphs}

$$
a_{{ij}} = \\frac{{e^{{s_{{ij}}}}}}{{\\sum_l e^{{s_{{il}}}}}}
$$

### A worked case

{_words(n + 3, 80).capitalize()}.
{figure}
## The table

| word | weight | count |
|---|---|---|
{rows}

## The code

```python
def softmax(scores):
    top = max(scores)
    weights = [math.exp(s - top) for s in scores]
    total = sum(weights)
    return [w / total for w in weights]  # lesson {n + 1}
```

{_words(n + 5, 70).capitalize()}.
"""


def generate(folder: Path, pages: int) -> Path:
    """A site of ``pages`` Markdown files (index pages counted) in ``folder``."""
    if folder.exists():
        shutil.rmtree(folder)
    docs = folder / "docs"
    docs.mkdir(parents=True)
    (folder / "site.yml").write_text('title: "Benchmark"\ndescription: "Generated lessons."\n', encoding="utf-8")
    (docs / "index.md").write_text("---\ntitle: Benchmark\nsummary: Generated lessons.\n---\n\n"
                                   "Every section of the benchmark.\n\n## Overview\n\nThe sections follow.\n",
                                   encoding="utf-8")
    written, n, section = 1, 0, 0
    while written < pages:
        here = docs / f"{section + 1:04d}-part-{section + 1}"
        here.mkdir()
        (here / "index.md").write_text(f"---\ntitle: Part {section + 1}\norder: {section + 1}\n"
                                       f"summary: Part {section + 1} of the benchmark.\n---\n\n"
                                       f"## Overview\n\n{_words(section, 40).capitalize()}.\n", encoding="utf-8")
        written += 1
        for k in range(min(PER_SECTION, pages - written)):
            (here / f"lesson-{n:05d}.md").write_text(lesson(n, section, k == 0), encoding="utf-8")
            n, written = n + 1, written + 1
        section += 1
    (folder / "mkdocs.yml").write_text("site_name: Benchmark\ndocs_dir: docs\nsite_dir: mkdocs-site\n"
                                       "theme: mkdocs\n", encoding="utf-8")
    return folder


def timed(command: list[str], cwd: Path, cache: Path | None = None,
          tool: dict[str, str] | None = None) -> tuple[float, float, float]:
    """Run ``command``; its wall time (s), processor time (s: user and system, which the
    other programs of a busy machine change less) and peak memory (MB). Explorables'
    build cache is the folder ``cache``, or a fresh one (a build from nothing); ``tool``,
    the environment that runs another version of it (``baseline``)."""
    fresh = None
    if cache is None:
        fresh = cache = Path(tempfile.mkdtemp(prefix="bench-cache-"))
    env = {**os.environ, "EXPLORABLES_CACHE": str(cache), **BYTECODE, **(tool or {})}
    if BYTECODE:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    start = time.perf_counter()
    child = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(child.pid, 0)
    elapsed = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    errors = child.stderr.read().decode(errors="replace") if child.stderr else ""
    if child.stderr:
        child.stderr.close()
    if fresh is not None:
        shutil.rmtree(fresh, ignore_errors=True)
    if child.returncode:
        raise SystemExit(f"{' '.join(command)} failed ({child.returncode}):\n{errors[-3000:]}")
    return elapsed, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


# Where the children keep the modules' bytecode (PYTHONPYCACHEPREFIX): as an installed
# package has it, which pip compiles, and MkDocs' has in site-packages. Without it, a
# machine that sets PYTHONDONTWRITEBYTECODE (or a read-only checkout) compiles
# Explorables' 200 modules again at every start (0.13 s); ``--no-bytecode`` measures that.
BYTECODE: dict[str, str] = {}


def explorables(site: Path) -> list[str]:
    return [sys.executable, "-m", "explorables.site_builder.commands.cli", "build", "docs", "-o", "_site"]


MKDOCS = [sys.executable, "-m", "mkdocs", "build", "--quiet"]


def baseline(revision: str, work: Path) -> dict[str, str]:
    """The environment that runs the tool as it was at git ``revision``: its files laid
    out under ``work`` as the installed package is (explorables/ holding engine/,
    site_builder/, static/ and docs/), first on the import path."""
    archive = subprocess.run(["git", "-C", str(REPOSITORY), "archive", "--format=tar", revision],
                             capture_output=True, check=True).stdout
    tree, package = work / f"tree-{revision}", work / f"path-{revision}" / "explorables"
    with tarfile.open(fileobj=io.BytesIO(archive)) as files:
        files.extractall(tree, filter="data")
    shutil.copytree(tree / "explorables", package)
    for folder in ("engine", "site_builder", "static", "docs"):
        (package / folder).symlink_to(tree / folder, target_is_directory=True)
    return {"PYTHONPATH": str(package.parent)}


def _row(pages: int, name: str, results: list[tuple[float, float, float]]) -> str:
    times = [t for t, _, _ in results]
    median, cpu = statistics.median(times), statistics.median(c for _, c, _ in results)
    memory = max(m for _, _, m in results)
    return (f"{pages:>7} | {name:<11} | {min(times):8.2f} s | {median:8.2f} s | {cpu:8.2f} s "
            f"| {1000 * median / pages:8.2f} ms | {memory:6.0f} MB | {', '.join(f'{t:.2f}' for t in times)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pages", type=int, nargs="+", default=[200, 2000],
                        help="site sizes timed against MkDocs (default: 200 2000)")
    parser.add_argument("--runs", type=int, default=3,
                        help="runs of each tool at each size (default: 3; one past 10,000 pages)")
    parser.add_argument("--alone", type=int, nargs="*", default=[],
                        help="site sizes timed for Explorables alone, e.g. 20000")
    parser.add_argument("--no-mkdocs", action="store_true", help="time Explorables alone at every size")
    parser.add_argument("--keep", type=Path, help="write the sites here and keep them (default: a temporary folder)")
    parser.add_argument("--baseline", metavar="REV",
                        help="also time the tool at this git revision, interleaved (e.g. HEAD~3)")
    parser.add_argument("--no-bytecode", action="store_true",
                        help="leave the modules' bytecode as the environment has it (see BYTECODE)")
    args = parser.parse_args(argv)
    with_mkdocs = not args.no_mkdocs and _has_mkdocs()
    if not with_mkdocs and not args.no_mkdocs:
        print("MkDocs is not installed (pip install -e .[bench]): timing Explorables alone", file=sys.stderr)
    work = args.keep or Path(tempfile.mkdtemp(prefix="bench-build-"))
    before = baseline(args.baseline, work) if args.baseline else None
    if not args.no_bytecode:  # compiled by the first run (the one-page site's), as pip would at install
        BYTECODE["PYTHONPYCACHEPREFIX"] = str(work / "bytecode")
    print("  pages | tool        |  wall best | wall median | cpu median |    per page | peak RSS | runs (s)")
    try:
        one = generate(work / "one", 1)
        timed(explorables(one), one)  # (compiles the modules, if the environment left them uncompiled)
        if before is not None:
            timed(explorables(one), one, tool=before)
        fixed = [timed(explorables(one), one) for _ in range(args.runs)]
        print(_row(1, "Explorables", fixed), "(fixed cost: a one-page site)")
        sizes = [(n, with_mkdocs) for n in args.pages] + [(n, False) for n in args.alone]
        for pages, against in sizes:
            site = generate(work / f"site-{pages}", pages)
            ours: list[tuple[float, float, float]] = []
            theirs: list[tuple[float, float, float]] = []
            earlier: list[tuple[float, float, float]] = []
            for _ in range(args.runs if pages < 10000 else 1):
                if before is not None:
                    earlier.append(timed(explorables(site), site, tool=before))
                ours.append(timed(explorables(site), site))
                if against:
                    theirs.append(timed(MKDOCS, site))
            print(_row(pages, "Explorables", ours), f"(a lesson's page: {_lesson_size(site)})", flush=True)
            if before is not None:
                ratio = statistics.median(t for t, _, _ in ours) / statistics.median(t for t, _, _ in earlier)
                cpu = statistics.median(c for _, c, _ in ours) / statistics.median(c for _, c, _ in earlier)
                print(_row(pages, args.baseline[:11], earlier),
                      f"(the working tree: {ratio:.2f}x its wall, {cpu:.2f}x its cpu)", flush=True)
            if against:
                ratio = statistics.median(t for t, _, _ in ours) / statistics.median(t for t, _, _ in theirs)
                cpu = statistics.median(c for _, c, _ in ours) / statistics.median(c for _, c, _ in theirs)
                print(_row(pages, "MkDocs", theirs), f"(Explorables: {ratio:.2f}x MkDocs, cpu {cpu:.2f}x)", flush=True)
            if pages < 10000:  # (past it, the cached rebuilds would take the benchmark minutes more)
                _rebuilds(site, pages)
                _serve_edits(site, pages)
            _first_search(site)
            if not args.keep:
                shutil.rmtree(site)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    return 0


def _rebuilds(site: Path, pages: int) -> None:
    """Explorables' rebuilds with its cache: of the unchanged site, and after one
    lesson's text was edited."""
    cache = Path(tempfile.mkdtemp(prefix="bench-cache-"))
    try:
        timed(explorables(site), site, cache)  # the build that fills the cache
        print(_row(pages, "  unchanged", [timed(explorables(site), site, cache)]), "(rebuild, cached)", flush=True)
        lesson = sorted((site / "docs").glob("*/lesson-*.md"))[0]
        lesson.write_text(lesson.read_text(encoding="utf-8") + "\nOne more sentence.\n", encoding="utf-8")
        print(_row(pages, "  one edit", [timed(explorables(site), site, cache)]), "(rebuild, cached)", flush=True)
    finally:
        shutil.rmtree(cache, ignore_errors=True)


SAVES_APART = 2.0  # s between two edits: an author's saves, for the process to bring the shared files up to date


def _serve_edits(site: Path, pages: int, edits: int = 3) -> None:
    """`explorables serve` on the site: one lesson's text edited, then the server's check
    (what it does after each poll: the watched files looked at, the lesson rebuilt by its
    kept build process and written), timed until the page on disk holds the edit. The
    poll's own wait (0.5 s) is not counted; the edits are SAVES_APART apart, as an
    author's saves are (after answering, the process brings the search index and the
    print page up to date, which a save at once would wait for)."""
    from explorables.site_builder.commands.serve import DevServer

    dev = DevServer(site / "docs", port=0)
    try:
        if not dev.start():
            raise SystemExit("serve could not build the site")
        times = []
        for n, lesson in enumerate(sorted((site / "docs").glob("*/lesson-*.md"))[1: 1 + edits]):
            marker = f"Edited for the benchmark, number {n}."
            time.sleep(SAVES_APART)
            start = time.perf_counter()
            lesson.write_text(lesson.read_text(encoding="utf-8") + f"\n{marker}\n", encoding="utf-8")
            if not dev.check():
                raise SystemExit(f"serve did not rebuild {lesson.name}")
            times.append(time.perf_counter() - start)
            page = dev.out_dir / lesson.parent.name / f"{lesson.stem}.html"
            if marker not in page.read_text(encoding="utf-8"):
                raise SystemExit(f"serve's page {page} does not hold the edit")
        print(f"{pages:>7} |   serve edit | {min(times) * 1000:7.0f} ms | {statistics.median(times) * 1000:8.0f} ms "
              f"| (a lesson's text edited -> its page written, the kept build process; runs "
              f"{', '.join(f'{t * 1000:.0f}' for t in times)} ms)", flush=True)
    finally:
        dev.stop()


def _lesson_size(site: Path) -> str:
    """The size of the first lesson's page (the same Markdown at every size)."""
    page = site / "_site" / "0001-part-1" / "lesson-00000.html"
    return f"{page.stat().st_size / 1000:.1f} KB" if page.is_file() else "-"


FIRST_SEARCH = r"""
globalThis.window = globalThis;
require(process.argv[2]);
const fs = require("fs"), path = require("path"), zlib = require("zlib");
const folder = process.argv[3];
const loaded = [];  // the files' texts, gzipped once the answer is in (not timed)
const run = file => {
  const text = fs.readFileSync(path.join(folder, file), "utf8");
  loaded.push(text);
  eval(text.replace(/document\.dispatchEvent.*/, ""));
};
const start = performance.now(), cpu = process.cpuUsage();
run(process.argv[4]);
const index = window.explorables.searchIndex;
const query = process.argv[5];
const found = index.version === 2
  ? window.explorables.search.querySplit(index, query, e => {  // each part loaded once, as js/search.js's part()
      const key = e[e.length - 2];
      if (!(window.explorables.searchParts || {})[key]) run(e[e.length - 1]);
      return Promise.resolve(window.explorables.searchParts[key]); }, 8)
  : Promise.resolve(window.explorables.search.query(index, query).slice(0, 8));
found.then(r => { const ms = performance.now() - start, used = process.cpuUsage(cpu);
  const kb = loaded.reduce((sum, text) => sum + zlib.gzipSync(text).length, 0) / 1000;
  console.log(JSON.stringify({ms: ms, cpu: (used.user + used.system) / 1000, kb: kb, files: loaded.length,
                              results: r.length})); });
"""


def _first_search(site: Path) -> None:
    """A reader's first search on the site: what it downloads (gzipped) and how long
    Node takes to read the files and answer (js/search.js, the index as the site has it):
    the wall time, and the processor time, which a busy machine's other programs change less
    (Node's compiling and collecting threads included)."""
    node = shutil.which("node")
    assets = site / "_site" / "_explorables"
    first = sorted(assets.glob("search-index.*.js"))
    if node is None or not first:
        return
    script = site / "first-search.js"
    script.write_text(FIRST_SEARCH, encoding="utf-8")
    search_js = Path(__file__).resolve().parent.parent / "static" / "js" / "search.js"
    for query in ["attention", "softmax temperature", "sentense"]:  # a common word, two, a typo
        done = subprocess.run([node, str(script), str(search_js), str(assets), first[0].name, query],
                              capture_output=True, text=True, check=True)
        found = json.loads(done.stdout)
        print(f"        first search '{query}': {found['kb']:.0f} KB gzipped in {found['files']} files, "
              f"answered in {found['ms']:.0f} ms, {found['cpu']:.0f} ms of processor time ({found['results']} results)",
              flush=True)


def _has_mkdocs() -> bool:
    return importlib.util.find_spec("mkdocs") is not None


if __name__ == "__main__":
    sys.exit(main())
