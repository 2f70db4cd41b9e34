"""Measure the site search: index size and query time, for the track and a big site.

    python benchmarks/bench_search.py [--lessons 200]

Builds content/ (the track) and a generated site of N lessons (the track's lessons
repeated, each copy with its own title and a few words of its own, figures included),
then prints the index's size (raw and gzipped, as a server would send it), the time to
build it, and the query time of js/search.js under Node: mean and worst over a list of
queries (whole words, a word being typed, typos), after one warm-up run.
"""
from __future__ import annotations

import argparse
import gzip
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from explorables.site_builder.output import search  # noqa: E402
from explorables.site_builder.output.assets import names_in  # noqa: E402
from explorables.site_builder.commands.build import ASSETS, build_site  # noqa: E402

QUERIES = ["softmax", "temperature", "square root", "causal mask", "concatenate", "identical heads",
           "break the tie", "rotation", "clock", "query length", "tempreature", "rotaton", "softm", "t",
           "several heads cost", "dashed arrow", "positions", "embeddings", "one query row", "zzzz"]

TIME_QUERIES = """
globalThis.window = globalThis;
require(process.argv[2]);
const fs = require("fs");
eval(fs.readFileSync(process.argv[3], "utf8").replace(/document\\.dispatchEvent.*/, ""));
const index = window.explorables.searchIndex, queries = JSON.parse(process.argv[4]);
const search = window.explorables.search;
const t0 = performance.now(); search.query(index, "warm up"); const first = performance.now() - t0;
const times = queries.map(q => { const t = performance.now(); for (let i = 0; i < 20; i++) search.query(index, q);
                                 return (performance.now() - t) / 20; });
console.log(JSON.stringify({first, mean: times.reduce((a, b) => a + b) / times.length, max: Math.max(...times),
                            docs: index.docs.length, terms: Object.keys(index.terms).length}));
"""


def generated(folder: Path, count: int) -> Path:
    lessons = sorted((ROOT / "content").glob("0*.md"))
    folder.mkdir(parents=True)
    shutil.copy(ROOT / "content" / "site.yml", folder / "site.yml")
    # a link to a lesson of the track goes to the first copy of it (to some copy, when
    # fewer pages than the track's lessons are made): the build refuses links to no lesson
    copies = {lesson.name: f"{k % count + 1:03d}-lesson-{k % count + 1}.md" for k, lesson in enumerate(lessons)}
    linked = re.compile("|".join(re.escape(name) for name in copies))
    for n in range(count):
        text = linked.sub(lambda m: copies[m.group()], lessons[n % len(lessons)].read_text(encoding="utf-8"))
        text = re.sub(r"^title: (.*)$", lambda m: f"title: {m.group(1)} ({n + 1})", text, count=1, flags=re.M)
        text = re.sub(r"^order: \d+$", f"order: {n + 1}", text, count=1, flags=re.M)
        text += f"\n## Notes on topic{n}\n\nA paragraph with words of its own: lesson{n} example{n * 7} case{n % 13}.\n"
        (folder / f"{n + 1:03d}-lesson-{n + 1}.md").write_text(text, encoding="utf-8")
    return folder


def measure(name: str, content: Path, work: Path) -> None:
    start = time.perf_counter()
    out = build_site(content, work / f"{name}-site", bundle=True).out_dir
    build = time.perf_counter() - start
    index_file = out / ASSETS / names_in(out)["search-index.js"]
    raw = index_file.read_bytes()
    script = work / "time.js"
    script.write_text(TIME_QUERIES)
    done = subprocess.run(["node", str(script), str(ROOT / "static" / "js" / "search.js"), str(index_file),
                           json.dumps(QUERIES)], capture_output=True, text=True, check=True)
    t = json.loads(done.stdout)
    print(f"{name:<14} {t['docs']:>6} sections {t['terms']:>6} terms  index {len(raw) / 1024:8.1f} KiB "
          f"(gzip {len(gzip.compress(raw, 9)) / 1024:7.1f} KiB)  query mean {t['mean']:6.2f} ms  "
          f"worst {t['max']:6.2f} ms  first {t['first']:6.2f} ms  (site build {build:5.1f} s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lessons", type=int, default=200)
    args = parser.parse_args()
    if not shutil.which("node"):
        sys.exit("node is needed to time js/search.js")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        measure("track", ROOT / "content", work)
        measure(f"{args.lessons} lessons", generated(work / "many", args.lessons), work)
    print(f"(fields weighted {search.BOOST}; queries: {len(QUERIES)}, each run 20 times)")


if __name__ == "__main__":
    main()
