"""The search index of a large site, split (site_builder/output/search_files.py): a small
first file of the vocabulary and where each term's postings and each section's words
are, and parts loaded per query. js/search.js answers from the parts as it answers from
one file; a small site keeps its one file. (A site of tens of thousands of pages, its
first search's download and time: benchmarks/bench_build.py.)"""

from __future__ import annotations

import gzip
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from explorables.site_builder.commands.build import build_site
from explorables.site_builder.output import search_files
from explorables.site_builder.output.assets import names_in
from explorables.site_builder.output.search import read_script_value, script_value
from test_markdown_features import RELEVANCE

ROOT = Path(__file__).parent.parent
SEARCH_JS = ROOT / "static" / "js" / "search.js"

# Node: the first file as a page loads it; parts read from the asset folder when asked,
# each file's name and gzipped size noted; the queries answered by the split index's way.
RUN_SPLIT = r"""
globalThis.window = globalThis;
require(process.argv[2]);
const fs = require("fs"), path = require("path"), zlib = require("zlib");
const folder = process.argv[3];
const run = code => eval(code.replace(/document\.dispatchEvent.*/, ""));
run(fs.readFileSync(path.join(folder, process.argv[4]), "utf8"));
const index = window.explorables.searchIndex;
const queries = JSON.parse(fs.readFileSync(0, "utf8"));
(async () => {
  const out = [];
  for (const q of queries) {
    const loaded = [];
    const load = entry => {
      const file = entry[entry.length - 1];
      const text = fs.readFileSync(path.join(folder, file), "utf8");
      loaded.push([file, zlib.gzipSync(text).length]);
      run(text);
      return Promise.resolve(window.explorables.searchParts[entry[entry.length - 2]]);
    };
    const found = await window.explorables.search.querySplit(index, q, load, 8);
    out.push({urls: found.slice(0, 3).map(r => r.url), all: found.map(r => [r.url, r.excerpt, r.lesson]),
              loaded: loaded});
  }
  console.log(JSON.stringify(out));
})();
"""

RUN_ONE = r"""
globalThis.window = globalThis;
require(process.argv[2]);
const fs = require("fs");
eval(fs.readFileSync(process.argv[3], "utf8").replace(/document\.dispatchEvent.*/, ""));
const queries = JSON.parse(fs.readFileSync(0, "utf8"));
console.log(JSON.stringify(queries.map(q => window.explorables.search.query(window.explorables.searchIndex, q)
  .slice(0, 8).map(r => [r.url, r.excerpt, r.lesson]))));
"""


def node() -> str:
    found = shutil.which("node")
    assert found, "node is needed to run js/search.js"
    return found


@pytest.fixture(scope="module")
def sites(tmp_path_factory):
    """The track built twice: its index in one file, and split into many small parts."""
    one = build_site(ROOT / "content", tmp_path_factory.mktemp("one") / "_site").out_dir
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(search_files, "SPLIT_ABOVE", 0)
        patch.setattr(search_files, "PART_SIZE", 3000)
        patch.setattr(search_files, "DOCS_PER_PART", 7)
        split = build_site(ROOT / "content", tmp_path_factory.mktemp("split") / "_site").out_dir
    return one, split


def test_a_small_site_keeps_one_file(sites):
    one, _ = sites
    names = names_in(one)
    assert not [name for name in names if name.startswith("search/")]
    text = (one / "_explorables" / names["search-index.js"]).read_text(encoding="utf-8")
    assert read_script_value(text)["version"] == 1


def test_a_split_index_is_a_small_first_file_and_hashed_parts(sites):
    _, split = sites
    names = names_in(split)
    parts = sorted(name for name in names if name.startswith("search/"))
    assert len([p for p in parts if p.startswith("search/t")]) > 5 and len([p for p in parts if "/d" in p]) > 3
    text = (split / "_explorables" / names["search-index.js"]).read_text(encoding="utf-8")
    head = read_script_value(text)
    assert head["version"] == 2 and head["per"] == 7
    vocab = head["vocab"].split()  # one string, " term term ... term ", in the order of UTF-16 code units
    assert head["vocab"] == " " + " ".join(vocab) + " " and "softmax" in vocab
    assert vocab == sorted(vocab, key=lambda term: term.encode("utf-16-be"))
    assert [entry[0] for entry in head["terms"]] == sorted(entry[0] for entry in head["terms"])
    for entry in [*head["terms"], *head["docs"]]:  # each part named by its hashed name, there to load
        assert re.fullmatch(r"search/[td]\d+\.[0-9a-f]{8}\.js", entry[-1]), entry
        assert (split / "_explorables" / entry[-1]).is_file()
    page = (split / "index.html").read_text(encoding="utf-8")
    assert "search/t" not in page  # the pages name only the first file


def test_the_split_index_answers_as_the_one_file_does(sites, tmp_path):
    one, split = sites
    queries = [q for q, _ in RELEVANCE] + ["zzzqqq", "the of and"]
    script = tmp_path / "one.js"
    script.write_text(RUN_ONE)
    whole = one / "_explorables" / names_in(one)["search-index.js"]
    done = subprocess.run([node(), str(script), str(SEARCH_JS), str(whole)], input=json.dumps(queries),
                          capture_output=True, text=True, check=True, timeout=60)
    expected = json.loads(done.stdout)
    script = tmp_path / "split.js"
    script.write_text(RUN_SPLIT)
    folder = split / "_explorables"
    done = subprocess.run([node(), str(script), str(SEARCH_JS), str(folder), names_in(split)["search-index.js"]],
                          input=json.dumps(queries), capture_output=True, text=True, check=True, timeout=60)
    got = json.loads(done.stdout)
    assert [g["all"] for g in got] == expected  # the same results, in the same order, with the same words
    wrong = [(q, want, g["urls"]) for (q, want), g in zip(RELEVANCE, got) if not g["urls"] or g["urls"][0] != want]
    assert not wrong
    # a query loads the parts of its terms and of its results, not the index
    total = sum(len(gzip.compress(p.read_bytes())) for p in (folder / "search").iterdir())
    first = got[[q for q, _ in RELEVANCE].index("softmx")]["loaded"]
    assert 0 < sum(size for _, size in first) < total / 3, first
    assert got[-1]["loaded"] == [] and got[-1]["urls"] == []  # stop words only: nothing to load


# Node: how often a query of the split index reads the vocabulary (a large site's is long):
# each reading of the index's vocabulary text counted, the queries answered the split way.
RUN_READS = r"""
globalThis.window = globalThis;
require(process.argv[2]);
const fs = require("fs"), path = require("path");
const folder = process.argv[3];
const run = code => eval(code.replace(/document\.dispatchEvent.*/, ""));
run(fs.readFileSync(path.join(folder, process.argv[4]), "utf8"));
const index = window.explorables.searchIndex;
let reads = 0;
const vocab = index.vocab;
Object.defineProperty(index, "words", { get() { reads += 1; return vocab; }, set() {} });
const load = entry => {
  run(fs.readFileSync(path.join(folder, entry[entry.length - 1]), "utf8"));
  return Promise.resolve(window.explorables.searchParts[entry[entry.length - 2]]);
};
(async () => {
  const out = {};
  for (const q of JSON.parse(fs.readFileSync(0, "utf8"))) {
    reads = 0;
    const found = await window.explorables.search.querySplit(index, q, load, 8);
    out[q] = [reads, found.length];
  }
  console.log(JSON.stringify(out));
})();
"""


def test_a_query_of_the_split_index_finds_its_terms_once(sites, tmp_path):
    """The terms a query stands for are found once, for the parts to load and for the
    ranking: a typo's search of the vocabulary was once done twice (a fifth of a first
    search's processor time on 2,000 pages): a second finding would read it again."""
    _, split = sites
    script = tmp_path / "reads.js"
    script.write_text(RUN_READS)
    folder = split / "_explorables"
    queries = ["softmax", "softmx", "softmx temperture"]
    done = subprocess.run([node(), str(script), str(SEARCH_JS), str(folder), names_in(split)["search-index.js"]],
                          input=json.dumps(queries), capture_output=True, text=True, check=True, timeout=60)
    reads = json.loads(done.stdout)
    assert all(reads[q][1] > 0 for q in queries)  # each answered
    # js/search.js's vocabOf reads the text twice (is it there, then it): once for the
    # split view, then once a word, whether the word is a term or a typo
    assert {q: r for q, (r, _) in reads.items()} == {"softmax": 4, "softmx": 4, "softmx temperture": 6}


# Node: a one-file index made up in the script of the terms given, a section a term; each
# query's terms (the URLs of the sections found), and the edit distances asked for.
RUN_TYPOS = r"""
globalThis.window = globalThis;
require(process.argv[2]);
const given = JSON.parse(require("fs").readFileSync(0, "utf8"));
const index = {docs: [], lessons: [["L", ""]], terms: {}};
given.terms.forEach((term, d) => { index.docs.push([0, "", term, ""]); index.terms[term] = [d, 10]; });
const S = window.explorables.search;
console.log(JSON.stringify({found: given.queries.map(q => S.query(index, q + " ").map(r => r.url).sort()),
                            distances: given.pairs.map(([a, b, max]) => S.distance(a, b, max))}));
"""


def osa(a: str, b: str) -> int:
    """Edit distance of a and b, a swap of two neighbours one edit (each letter moved once)."""
    d = [[i + j if i * j == 0 else 0 for j in range(len(b) + 1)] for i in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
    return d[len(a)][len(b)]


def test_typos_are_the_terms_near_enough_that_start_alike(tmp_path):
    """A word not in the vocabulary stands for each term one edit from it (two from eight
    letters on) that starts with its first letter, its second or the two swapped: the
    same terms as a comparison with every term finds, among thousands that share their
    beginnings (which js/search.js passes over a beginning at a time)."""
    import random

    from explorables.site_builder.output.search import STOP, stem

    rng = random.Random(7)
    letters = "abcdeo0129θ"
    terms = sorted({"".join(rng.choice(letters) for _ in range(rng.randint(1, 11))) for _ in range(3000)})
    terms = [t for t in terms if stem(t) == t and t not in STOP]

    def typo(term: str) -> str:
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(len(term) + 1)
            term = rng.choice([term[:at] + rng.choice(letters) + term[at:], term[:at] + term[at + 1:],
                               term[:at] + term[at + 1: at + 2] + term[at: at + 1] + term[at + 2:]])
        return term

    queries = [q for q in {typo(rng.choice(terms)) for _ in range(200)}
               if len(q) >= 4 and q not in terms and stem(q) == q and q not in STOP]
    pairs = [[typo(a), a, rng.randint(0, 3)] for a in rng.sample(terms, 200)]
    script = tmp_path / "typos.js"
    script.write_text(RUN_TYPOS)
    done = subprocess.run([node(), str(script), str(SEARCH_JS)], capture_output=True, text=True, check=True,
                          input=json.dumps({"terms": terms, "queries": queries, "pairs": pairs}), timeout=60)
    got = json.loads(done.stdout)

    def near(word: str) -> list[str]:
        most = 2 if len(word) >= 8 else 1
        return sorted(t for t in terms if abs(len(t) - len(word)) <= most and (
            t[0] == word[0] or t[1:2] == word[1] or (t[:1] == word[1] and t[1:2] == word[0])) and osa(word, t) <= most)

    expected = [near(q) for q in queries]  # (each a comparison with every term: computed once)
    assert len(queries) > 150 and sum(1 for found in expected if found) > 80
    assert got["found"] == expected
    assert got["distances"] == [min(osa(a, b), most + 1) for a, b, most in pairs]


# Node: a split index made up in the script, of ``n`` sections that all hold "word" with the
# same weight and "other" in every third; the best 8 of querySplit, and all of them by query().
RUN_TIES = r"""
globalThis.window = globalThis;
require(process.argv[2]);
const n = 50000, word = [], other = [], docs = [];
for (let d = 0; d < n; d++) {
  word.push(d === 0 ? 0 : 1, 5);  // the gaps between documents, as a part holds them
  if (d % 3 === 2) other.push(other.length ? 3 : 2, 7);
  docs.push(["L", "", "d" + d, ""]);
}
const index = {version: 2, n: n, vocab: ["other", "word"], terms: [["other", "t0", "t0.js"]], docs: [["d0", "d0.js"]],
               per: n};
const parts = {t0: {other: other, word: word}, d0: docs};
const S = window.explorables.search;
(async () => {
  const best = q => S.querySplit(index, q, e => Promise.resolve(parts[e[e.length - 2]]), 8)
    .then(found => found.map(r => [r.url, r.score]));
  const plain = {docs: docs.map((d, k) => [0, "", "d" + k, ""]), lessons: [["L", ""]], terms: {}};
  plain.terms.word = docs.flatMap((_, d) => [d, 5]);
  console.log(JSON.stringify({word: await best("word"), both: await best("word other"), partly: await best("word zzzz"),
                              all: S.query(plain, "word").length}));
})();
"""


def test_the_best_of_many_equal_sections_come_in_their_order(tmp_path):
    """Of tens of thousands of sections scored alike, the first ones by number are the
    best eight (querySplit keeps the best, not sorting every one); one-file queries rank all."""
    script = tmp_path / "ties.js"
    script.write_text(RUN_TIES)
    done = subprocess.run([node(), str(script), str(SEARCH_JS)], capture_output=True, text=True, check=True,
                          timeout=60)
    found = json.loads(done.stdout)
    assert [url for url, _ in found["word"]] == [f"d{d}" for d in range(8)]
    assert len({score for _, score in found["word"]}) == 1
    assert [url for url, _ in found["both"]] == [f"d{d}" for d in range(2, 24, 3)]  # those with both words first
    assert found["both"][0][1] > found["word"][0][1]
    assert [url for url, _ in found["partly"]] == [f"d{d}" for d in range(8)]  # an unknown word: the rest count half
    assert found["partly"][0][1] == found["word"][0][1] / 2
    assert found["all"] == 50000


def test_a_search_file_s_data_reads_back_the_same_in_node_and_in_python():
    """Search files carry their data as JSON.parse('...') (read faster than an object
    literal): every character JSON may hold comes through, and "<" never closes a script."""
    value = {"q": "it's a \\ \"quote\" </script> \n\r \u2028\u2029 é ∑", "n": [1, 2.5, None, True, -0.0]}
    text = "x = " + script_value(value) + ";"
    assert "</" not in text and read_script_value(text) == value
    done = subprocess.run([node(), "-e", "const " + text + " console.log(JSON.stringify(x));"],
                          capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == value
