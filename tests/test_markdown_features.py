"""Authoring features beyond CommonMark: highlighted code, GFM/MyST basics, image
figures, the table of contents, site metadata and search (docs/markdown.md)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from explorables.site_builder.markdown.parser import create_parser, parse_page, render_page
from explorables.site_builder.output.search import read_script_value


def render(tmp_path: Path, text: str, name: str = "page.md"):
    source = tmp_path / name
    source.write_text(text, encoding="utf-8")
    md = create_parser()
    page = parse_page(md, source, source.stem)
    return render_page(md, page), page


def test_a_question_s_title_holds_its_own_words_not_the_page_s_footnotes(tmp_path):
    """Pins an author's finding: every {question} summary held the page's footnote list,
    so ids such as fn1 were written twice."""
    html, page = render(tmp_path, "A claim[^1].\n\n::::{question} Why is *it* $x^2$?\nBecause.\n::::\n\n"
                                  "[^1]: the source.\n")
    assert page.errors == []
    summary = re.search(r"<summary>(.*?)</summary>", html, re.S).group(1)
    assert "footnote" not in summary and "<em>it</em>" in summary and "<math" in summary
    assert html.count('id="fn1"') == 1


# ---- 1. highlighted code

def test_code_is_highlighted_with_classes_only(tmp_path):
    html, page = render(tmp_path, "```python\nx = max(1, 2)  # c\n```\n")
    assert '<span class="nb">max</span>' in html
    assert '<span class="c1"># c</span>' in html
    assert "style=" not in html
    assert page.errors == [] and page.env.get("warnings", []) == []


def test_unknown_language_is_a_warning_with_its_place(tmp_path):
    html, page = render(tmp_path, "Text\n\n```klingon\nqapla'\n```\n")
    assert page.errors == []
    [warning] = page.env["warnings"]
    assert (warning.line, warning.col) == (3, 4)
    assert "unknown language 'klingon'" in warning.message
    assert "qapla&#x27;" in html or "qapla'" in html
    assert "did you mean" not in warning.hint


def test_a_misspelt_language_is_named(tmp_path):
    _, page = render(tmp_path, "Text\n\n```pyhton\nx = 1\n```\n")
    [warning] = page.env["warnings"]
    assert warning.hint.startswith("did you mean 'python'? use a Pygments name")


def test_line_numbers_and_emphasis_both_spellings(tmp_path):
    braces, _ = render(tmp_path, '```python {lineno-start=5 emphasize-lines="1,3-4"}\na\nb\nc\nd\n```\n')
    directive, _ = render(tmp_path, "```{code-block} python\n:lineno-start: 5\n:emphasize-lines: 1,3-4\na\nb\nc\nd\n```\n")
    for html in (braces, directive):
        assert re.findall(r'data-line="(\d+)"', html) == ["5", "6", "7", "8"]
        assert len(re.findall("ex-line-em", html)) == 3
        assert '<span class="ex-line" data-line="6">' in html


def test_bad_code_options_are_errors_with_file_line_col(tmp_path):
    _, page = render(tmp_path, 'Intro\n\n```python {emphasize-lines="two"}\nx\n```\n')
    [error] = page.errors
    assert (error.line, error.col) == (3, 4) and "emphasize-lines" in error.message
    _, page = render(tmp_path, "```{code-block} python\n:linenumbers:\nx\n```\n")
    [error] = page.errors
    assert (error.line, error.col) == (2, 2) and ":linenumbers:" in error.message


def test_build_reports_the_warning_and_succeeds(tmp_path):
    from explorables.site_builder.commands.build import build_site
    content = tmp_path / "content"
    content.mkdir()
    (content / "01-a.md").write_text("---\ntitle: A\n---\n\n```klingon\nx\n```\n", encoding="utf-8")
    result = build_site(content, tmp_path / "_site", bundle=True)
    assert any(w.startswith("content/01-a.md:5:4: unknown language 'klingon'") for w in result.warnings), result.warnings


# ---- 2. GFM and MyST basics

def test_tasklist_deflist_linkify(tmp_path):
    html, page = render(tmp_path, "- [ ] a\n- [x] b\n\nTerm\n: Meaning\n\nSee https://example.org/x.\n")
    assert 'type="checkbox"' in html and 'checked="checked"' in html
    assert "<dt>Term</dt>" in html and "<dd>Meaning</dd>" in html
    assert '<a href="https://example.org/x">https://example.org/x</a>.' in html
    assert page.errors == []


def test_linkify_leaves_code_and_math_alone(tmp_path):
    html, _ = render(tmp_path, "`https://a.org` and $x$ and https://b.org\n")
    assert "<code>https://a.org</code>" in html
    assert html.count("<a ") == 1


def test_extensions_are_enabled_in_one_place():
    """Every authoring extension is switched on by authoring_plugin, nowhere else."""
    source = (Path(__file__).parent.parent / "site_builder" / "markdown" / "parser.py").read_text()
    for name in ("tasklists_plugin", "deflist_plugin", "attrs_plugin", "\"linkify\"", "highlight_plugin", "toc_plugin"):
        assert name not in source, f"{name} is set up outside site_builder/markdown/authoring.py"
    assert "md.use(authoring_plugin)" in source


# ---- 3. images

def _png(path: Path, width: int, height: int) -> None:
    import struct
    import zlib
    raw = b"".join(b"\x00" + b"\x10\x20\x30" * width for _ in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
                     + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def test_image_sizes_are_read_from_the_files(tmp_path):
    from explorables.site_builder.output.images import image_size
    _png(tmp_path / "a.png", 640, 360)
    assert image_size(tmp_path / "a.png") == (640, 360)
    (tmp_path / "b.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 300 150"></svg>')
    assert image_size(tmp_path / "b.svg") == (300, 150)
    (tmp_path / "c.svg").write_text('<svg width="120px" height="80" viewBox="0 0 3 2"></svg>')
    assert image_size(tmp_path / "c.svg") == (120, 80)
    # GIF and a minimal baseline JPEG header
    (tmp_path / "d.gif").write_bytes(b"GIF89a" + (33).to_bytes(2, "little") + (17).to_bytes(2, "little") + b"\0" * 8)
    assert image_size(tmp_path / "d.gif") == (33, 17)
    jpeg = b"\xff\xd8" + b"\xff\xe0\x00\x04\x00\x00" + b"\xff\xc0\x00\x11\x08" + (90).to_bytes(2, "big") \
        + (160).to_bytes(2, "big") + b"\x03" + b"\0" * 12
    (tmp_path / "e.jpg").write_bytes(jpeg)
    assert image_size(tmp_path / "e.jpg") == (160, 90)


def test_figure_scales_height_with_width(tmp_path):
    _png(tmp_path / "img" / "wide.png", 800, 200)
    html, page = render(tmp_path, ":::{figure} img/wide.png\n:alt: A wide strip\n:width: 400\nCaption.\n:::\n")
    assert page.errors == []
    assert '<img src="img/wide.png" alt="A wide strip" width="400" height="100" loading="lazy"' in html
    assert ('<figcaption class="ex-caption">\n<p><span class="ex-caption-number">Figure 1.</span> Caption.</p>\n'
            '</figcaption>') in html  # numbered with the live figures


@pytest.mark.parametrize("text, where, words", [
    (":::{figure} img/none.png\n:alt: x\n:::\n", (1, 13), "does not exist"),
    ("Intro\n\n:::{figure} img/ok.png\nCaption\n:::\n", (3, 13), "needs alt text"),
    (":::{figure} img/ok.png\n:alt:\n:::\n", (2, 6), "needs alt text"),
    (":::{figure} img/ok.png\n:alt: x\n:width: wide\n:::\n", (3, 9), "whole number of pixels"),
    (":::{figure} img/ok.png\n:alt: x\n:align: middle\n:::\n", (3, 9), "left, center or right"),
    (":::{figure} img/ok.png\n:alt: x\n:size: 3\n:::\n", (3, 2), "unknown option ':size:'"),
    (":::{figure} ../outside.png\n:alt: x\n:::\n", (1, 13), "outside the content folder"),
    (":::{figure}\n:alt: x\n:::\n", (1, 12), "needs the image's path"),
    ("Text ![gone](img/gone.png)\n", (1, 14), "image 'img/gone.png' does not exist"),  # at its path
])
def test_image_mistakes_are_errors_with_file_line_col(tmp_path, text, where, words):
    _png(tmp_path / "img" / "ok.png", 10, 10)
    _png(tmp_path.parent / "outside.png", 10, 10)
    _, page = render(tmp_path, text)
    assert page.errors, "expected an error"
    error = page.errors[0]
    assert (error.line, error.col) == where and words in error.message, error.format()
    assert str(error.path).endswith("page.md") and error.hint


def test_build_copies_referenced_images_and_fails_on_a_missing_one(tmp_path):
    from explorables.site_builder.commands.build import build_site
    from explorables.site_builder.errors import BuildError
    content = tmp_path / "content"
    _png(content / "diagram.png", 30, 20)  # beside the lesson, not in a folder
    (content / "01-a.md").write_text("---\ntitle: A\n---\n\n:::{figure} diagram.png\n:alt: A diagram\nIt.\n:::\n")
    result = build_site(content, tmp_path / "_site", bundle=True)
    assert (result.out_dir / "diagram.png").read_bytes() == (content / "diagram.png").read_bytes()
    assert 'src="diagram.png"' in (result.out_dir / "a.html").read_text()
    (content / "diagram.png").unlink()
    with pytest.raises(BuildError) as caught:
        build_site(content, tmp_path / "_site", bundle=True)
    assert "01-a.md:5:13: {figure}: image file 'diagram.png' does not exist" in str(caught.value)


# ---- 4. headings and the table of contents

def test_toc_lists_h2_and_h3_from_four_headings(tmp_path):
    text = "".join(f"## Part {n}\n\ntext\n\n### Detail `{n}`\n\n" for n in range(1, 3))
    html, page = render(tmp_path, "Intro.\n\n" + text)
    assert html.startswith('<nav class="ex-toc" aria-label="On this page">\n<details>\n<summary>On this page</summary>')
    assert re.findall(r'<li class="ex-toc-h(\d)"><a href="#([^"]+)">([^<]+)</a>', html) == [
        ("2", "part-1", "Part 1"), ("3", "detail-1", "Detail 1"), ("2", "part-2", "Part 2"), ("3", "detail-2", "Detail 2")]
    assert "style=" not in html


def test_no_toc_for_a_short_lesson(tmp_path):
    html, page = render(tmp_path, "## One\n\n## Two\n\n## Three\n")
    assert "ex-toc" not in html and len(page.env["toc"]) == 3


def test_each_h2_of_the_text_opens_a_part_up_to_the_next(tmp_path):
    html, _ = render(tmp_path, "Intro.\n\n## One\n\nA.\n\n### Inner\n\nB.\n\n> ## Quoted\n\n## Two\n\nC.[^1]\n\n[^1]: Note.\n")
    assert html.index("<p>Intro.</p>") < html.index('<div class="ex-part">')  # before the first h2: no part
    parts = re.findall(r'<div class="ex-part">\n(.*?)</div>\n(?=<div class="ex-part">|$)', html, re.S)
    assert len(parts) == 2, html
    assert 'id="one"' in parts[0] and 'id="inner"' in parts[0] and 'id="quoted"' in parts[0]
    assert 'id="two"' in parts[1] and "footnote" in parts[1]  # the notes close the last part
    assert html.count('<div class="ex-part">') == 2


def test_heading_ids_are_stable_and_unique(tmp_path):
    text = "## Softmax, again!\n\n## Softmax, again!\n\n## Why √d?\n"
    first, _ = render(tmp_path, text)
    second, _ = render(tmp_path, "Some new text above.\n\n" + text)
    ids = re.findall(r'<h2 id="([^"]+)"', first)
    assert ids == re.findall(r'<h2 id="([^"]+)"', second)  # text above does not move them
    assert len(set(ids)) == 3 and ids[0] == "softmax-again"
    assert 'aria-label="Link to this section: Softmax, again!"' in first


# ---- 7. site metadata

def _site(tmp_path, site_yml: str, lesson_front: str = "") -> Path:
    content = tmp_path / "content"
    content.mkdir(exist_ok=True)
    (content / "site.yml").write_text(site_yml, encoding="utf-8")
    (content / "01-a.md").write_text(f"---\ntitle: A <lesson>\nsummary: The summary.\n{lesson_front}---\n\nText.\n",
                                     encoding="utf-8")
    (content / "02-b.md").write_text("---\ntitle: B\n---\n\nText.\n", encoding="utf-8")
    return content


def test_sitemap_and_open_graph_with_a_url(tmp_path):
    from explorables.site_builder.commands.build import build_site
    content = _site(tmp_path, 'title: "Site & co"\nurl: https://example.org/att\nfavicon: icon.svg\n',
                    "description: For previews & search.\nimage: img/preview.png\n")
    (content / "icon.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"/>')
    _png(content / "img" / "preview.png", 12, 6)
    out = build_site(content, tmp_path / "_site", bundle=True).out_dir
    sitemap = (out / "sitemap.xml").read_text()
    assert re.findall(r"<loc>([^<]+)</loc>", sitemap) == [
        "https://example.org/att/index.html", "https://example.org/att/a.html", "https://example.org/att/b.html"]
    page = (out / "a.html").read_text()
    assert '<meta name="description" content="For previews &amp; search.">' in page
    assert '<meta property="og:title" content="A &lt;lesson&gt;">' in page
    assert '<meta property="og:site_name" content="Site &amp; co">' in page
    assert '<meta property="og:url" content="https://example.org/att/a.html">' in page
    assert '<meta property="og:image" content="https://example.org/att/img/preview.png">' in page
    assert '<link rel="icon" href="icon.svg" type="image/svg+xml">' in page
    assert (out / "icon.svg").is_file() and (out / "img" / "preview.png").is_file()
    # a lesson without a description falls back to its summary, then the site's
    assert '<meta name="description"' not in (out / "b.html").read_text()


def test_no_sitemap_without_a_url_and_summary_as_description(tmp_path):
    from explorables.site_builder.commands.build import build_site
    out = build_site(_site(tmp_path, "title: S\ndescription: The site.\n"), tmp_path / "_site", bundle=True).out_dir
    assert not (out / "sitemap.xml").exists()
    page = (out / "a.html").read_text()
    assert '<meta name="description" content="The summary.">' in page and "og:url" not in page
    assert '<meta name="description" content="The site.">' in (out / "b.html").read_text()
    assert '<link rel="icon" href="data:image/svg+xml' in page


@pytest.mark.parametrize("site_yml, front, words", [
    ("title: S\nurl: example.org\n", "", "site.yml:2:1: url must be the site's web address"),
    ("title: S\nfavicon: nope.svg\n", "", "site.yml:2:1: favicon file 'nope.svg' does not exist"),
    ("title: S\nfavicon: icon.txt\n", "", "site.yml:2:1: favicon 'icon.txt' is not an icon file"),
    ("title: S\n", "image: img/none.png\n", "01-a.md:4:1: front matter image 'img/none.png' does not exist"),
])
def test_metadata_mistakes_are_errors(tmp_path, site_yml, front, words):
    from explorables.site_builder.commands.build import build_site
    from explorables.site_builder.errors import BuildError
    with pytest.raises(BuildError) as caught:
        build_site(_site(tmp_path, site_yml, front), tmp_path / "_site", bundle=True)
    assert words in str(caught.value)


def test_a_site_yml_beside_content_is_the_file_named(tmp_path):
    """As `explorables new` lays a site out: site.yml beside content/, not in it."""
    from explorables.site_builder.commands.build import build_site
    from explorables.site_builder.errors import BuildError
    content = _site(tmp_path, "")
    (content / "site.yml").unlink()
    (tmp_path / "site.yml").write_text("title: S\n\nfavicon: nope.svg\n", encoding="utf-8")
    with pytest.raises(BuildError) as caught:
        build_site(content, tmp_path / "_site", bundle=True)
    assert str(caught.value).startswith("site.yml:3:1: favicon file 'nope.svg' does not exist")


def test_built_track_has_no_style_attribute_or_inline_script(tmp_path):
    """What a strict Content-Security-Policy needs of every page of the real track."""
    from explorables.site_builder.commands.build import build_site
    root = Path(__file__).parent.parent
    out = build_site(root / "content", tmp_path / "_site", bundle=True).out_dir
    pages = sorted(out.glob("*.html"))
    assert len(pages) >= 6
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert not re.search(r"<[^>]+\sstyle\s*=", text), f"{page.name} has a style attribute"
        assert "<style" not in text, page.name
        for script in re.findall(r"<script\b([^>]*)>", text):
            assert "src=" in script or 'type="application/json"' in script, f"{page.name}: inline <script{script}>"


# ---- 6. search

RELEVANCE = [  # query -> the section it must return first (over the track in content/)
    ("softmax", "attention-heatmap.html#a-softmax-on-every-row"),  # a formula's name
    ("temperature", "one-query-row.html#temperature"),  # a word in one heading
    ("square root", "attention-heatmap.html#the-square-root-of-d_k-measured"),
    ("causal mask", "attention-heatmap.html#masks"),
    ("concatenate", "two-heads.html#joining-the-heads-concatenate-then-w_o"),
    ("identical heads", "two-heads.html#identical-heads-add-nothing"),
    ("peaked", "attention-heatmap.html#peaked-and-flat-rows"),
    # not the table's section, whose cells' tooltips say "entropy" once a row
    ("entropy", "attention-heatmap.html#peaked-and-flat-rows"),
    ("break the tie", "attention-lab.html#a-set-until-something-breaks-the-tie"),
    ("first frame", "attention-lab.html#reading-the-first-frame"),
    ("base", "positional-encoding.html#what-the-base-changes"),
    ("projections", "attention-lab.html#temperature-and-the-scale-of-the-projections"),
    ("hiding the future", "one-query-row.html#hiding-the-future"),
    ("query length", "one-query-row.html#the-length-of-the-query-matters-too"),
    ("prerequisites", "index.html#notation-and-prerequisites"),
    ("recipe", "one-query-row.html#the-recipe"),
    ("several heads cost", "two-heads.html#what-several-heads-cost"),
    ("clock", "positional-encoding.html#every-pair-of-dimensions-is-a-clock"),
    ("dashed arrow", "one-query-row.html#the-recipe"),  # words of a figure's caption
    ("embeddings", "attention-lab.html"),  # a lesson's title: its top
    ("one query row", "one-query-row.html"),
    ("masks", "attention-heatmap.html#masks"),  # plurals
    ("contexts", "attention-lab.html#the-same-word-in-two-contexts"),
    ("outputs", "attention-heatmap.html#one-output-per-token"),
    ("positions", "positional-encoding.html#a-code-for-every-position"),
    ("tempreature", "one-query-row.html#temperature"),  # typos
    ("rotaton", "positional-encoding.html#moving-k-steps-is-a-fixed-rotation"),
    ("concatnate", "two-heads.html#joining-the-heads-concatenate-then-w_o"),
    ("softmx", "attention-heatmap.html#a-softmax-on-every-row"),
    ("entorpy", "attention-heatmap.html#peaked-and-flat-rows"),  # two letters swapped: one edit
    ("d_k", "attention-heatmap.html#the-square-root-of-d_k-measured"),  # d_k as dₖ, not d and k
    ("temper", "one-query-row.html#temperature"),  # a word still being typed
]

RUN_QUERIES = """
globalThis.window = globalThis;
require(process.argv[2]);
const fs = require("fs");
eval(fs.readFileSync(process.argv[3], "utf8").replace(/document\\.dispatchEvent.*/, ""));
const queries = JSON.parse(fs.readFileSync(0, "utf8"));
const out = queries.map(q => window.explorables.search.query(window.explorables.searchIndex, q).slice(0, 3).map(r => r.url));
console.log(JSON.stringify(out));
"""


def run_queries(index_file: Path, queries: list[str], tmp_path: Path) -> list[list[str]]:
    """Run js/search.js's ranking under Node over a built index."""
    import json
    import shutil
    import subprocess
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    script = tmp_path / "run_queries.js"
    script.write_text(RUN_QUERIES)
    search_js = Path(__file__).parent.parent / "static" / "js" / "search.js"
    done = subprocess.run([node, str(script), str(search_js), str(index_file)], input=json.dumps(queries),
                          capture_output=True, text=True, check=True, timeout=60)
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def track_index(tmp_path_factory) -> Path:
    from explorables.site_builder.commands.build import build_site
    root = Path(__file__).parent.parent
    out = build_site(root / "content", tmp_path_factory.mktemp("track") / "_site", bundle=True).out_dir
    from explorables.site_builder.output.assets import names_in
    from explorables.site_builder.commands.build import ASSETS
    return out / ASSETS / names_in(out)["search-index.js"]


def test_search_relevance_over_the_track(track_index, tmp_path):
    assert len(RELEVANCE) >= 20
    results = run_queries(track_index, [q for q, _ in RELEVANCE], tmp_path)
    wrong = [(q, want, got[:2]) for (q, want), got in zip(RELEVANCE, results) if not got or got[0] != want]
    assert not wrong, "\n".join(f"{q!r}: wanted {w}, got {g}" for q, w, g in wrong)


def test_search_finds_nothing_for_nonsense_and_stop_words(track_index, tmp_path):
    assert run_queries(track_index, ["zzzqqq", "the of and", ""], tmp_path) == [[], [], []]


def test_index_is_a_classic_script_of_sections(track_index):
    text = track_index.read_text(encoding="utf-8")
    assert text.startswith("(window.explorables = window.explorables || {}).searchIndex = JSON.parse('{")
    assert read_script_value(text)["version"] == 1
    assert "</script" not in text.lower()


def test_python_and_javascript_fold_words_alike(tmp_path):
    import json
    import shutil
    import subprocess
    from explorables.site_builder.output.search import stem, words
    sample = ("Queries matches keys Heads boxes wishes classes status axis Déjà-vu softmax's "
              "מנגנון הקשב, שָׁלוֹם: α·β x₁")  # Hebrew (with points), Greek, subscripts
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    search_js = Path(__file__).parent.parent / "static" / "js" / "search.js"
    code = (f"globalThis.window = globalThis; require({json.dumps(str(search_js))});"
            f"const s = window.explorables.search;"
            f"console.log(JSON.stringify(s.words({json.dumps(sample)}).map(s.stem)));")
    done = subprocess.run([node, "-e", code], capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == [stem(w) for w in words(sample)]
    assert [stem(w) for w in ("queries", "matches", "keys", "heads", "status", "axis")] == \
        ["query", "match", "key", "head", "status", "axis"]
    assert words("מנגנון הקשב, שָׁלוֹם") == ["מנגנון", "הקשב", "שלום"]  # a Hebrew site is searchable too


def test_indented_code_gets_the_same_block(tmp_path):
    html, page = render(tmp_path, "Text\n\n    x = <b>\n    y\n")
    assert html.endswith('<div class="ex-code-block"><pre class="ex-code"><code class="highlight">'
                         '<span class="ex-line">x = &lt;b&gt;</span>\n<span class="ex-line">y</span></code></pre></div>\n')


def test_a_heading_s_formula_is_in_its_id_and_its_table_of_contents_entry(tmp_path):
    """Pins a bug: "## Joining the heads: concatenate, then $W_O$" got the id
    "joining-the-heads-concatenate-then-" and "W_O" in the table of contents."""
    from explorables.site_builder.commands.build import build_site
    content = tmp_path / "content"
    content.mkdir()
    (content / "01-a.md").write_text("---\ntitle: A\n---\n\n" + "".join(
        f"## Part {n}\n\nText.\n\n" for n in range(3)) + "## Then $W_O$\n\nText.\n\n## The root of $d_k$, measured\n")
    page = (build_site(content, tmp_path / "_site", bundle=True).out_dir / "a.html").read_text()
    assert '<h2 id="then-w_o">' in page and '<h2 id="the-root-of-d_k-measured">' in page
    toc = page.split('<nav class="ex-toc"')[1].split("</nav>")[0]
    assert '<a href="#then-w_o">Then <math' in toc and "W_O" not in toc


def test_search_snippets_read_a_formula_as_a_line_of_text():
    """Pins a reader's finding: snippets had holes where a formula was ("the keys as the
    rows of . The transpose"). A formula reads as one line: scripts in Unicode where they
    have one, else between marks js/search.js shows as <sub> and <sup> (a reader's
    finding: "W_O", "xₜW_Q^h" in snippets)."""
    from explorables.site_builder.output import search
    from explorables.site_builder.markdown.math import tex_to_mathml
    said = {tex: search.sections_of(f"<p>Here {tex_to_mathml(tex, False)}.</p>")[0]["text"]
            for tex in ("K^T", "q \\cdot k / \\sqrt{d_k}", "(0.20, -1.50)", "b^{-2i/D}", "\\frac{a}{b} = 1", "W_O",
                        "x_t W_Q^h")}
    sub, sup = (search.SUB, search.SUB_END), (search.SUP, search.SUP_END)
    assert said == {"K^T": "Here Kᵀ.", "q \\cdot k / \\sqrt{d_k}": "Here q·k/√dₖ.", "(0.20, -1.50)": "Here (0.20, −1.50).",
                    "b^{-2i/D}": f"Here b{sup[0]}−2i/D{sup[1]}.", "\\frac{a}{b} = 1": "Here a/b = 1.",
                    "W_O": f"Here W{sub[0]}O{sub[1]}.", "x_t W_Q^h": f"Here xₜW{sub[0]}Q{sub[1]}{sup[0]}h{sup[1]}."}
    # searched as before: a subscript part of its letter's word, a superscript a word of its own
    assert search.words(said["W_O"]) == ["here", "wo"] == search.words("here W_O")
    assert search.words(said["x_t W_Q^h"]) == ["here", "xtwq", "h"]


def test_an_attribute_the_page_leaves_out_is_a_warning_at_its_block(tmp_path):
    """`{width=300}` after an image was dropped without a word (only id and class are
    written); it is still dropped, and now said."""
    html, page = render(tmp_path, "Text [w]{.note #here} and\n[x]{.note style=\"color: red\" width=3}.\n")
    assert page.errors == []
    [warning] = page.env["warnings"]
    assert (warning.line, warning.col) == (2, 4)
    assert warning.message == ("{.note style=\"color: red\" width=3}: style, width are not written into the page; "
                               "only {#id} and {.class} are")
    assert 'id="here"' in html and "style=" not in html and "width=" not in html


def test_braces_after_code_are_code_not_attributes(tmp_path):
    _, page = render(tmp_path, "Write `if (ready){count=0}` or `arr[i]`{x=1} or `f(x)`{.note}.\n")
    assert [w.message for w in page.env.get("warnings", [])] == [
        "{x=1}: x is not written into the page; only {#id} and {.class} are"]
