"""The builder end to end: pages, assets, relative URLs, author errors. (The output
folder's staged swap: test_output_folder.py; Pyodide's release: test_pyodide_release.py.)"""
from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from explorables.site_builder.pyodide import release as pyodide
from explorables.site_builder.output.assets import names_in
from explorables.site_builder.commands.build import build_site, slug_of
from explorables.site_builder.commands.cli import main
from explorables.site_builder.errors import BuildError
from engine_archive import unpack_for_cpython

LESSON = """---
title: One row
order: 2
summary: Six words, one question.
---
Some words with $q \\cdot k$.

:::{attention-row} explorer
:query: cat
:temperature: 0.5
:::

::::{question} Why?
Because $1 > 0$.
::::
"""

INTRO = """---
title: First things
order: 1
---
Hello.
"""


def write(folder: Path, files: dict[str, str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def tree_digest(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def track(folder: Path) -> Path:
    """A small track in ``folder``: site.yml, an index, an intro and a lesson with a figure."""
    return write(folder, {"site.yml": "title: Test track\n", "index.md": "Welcome.\n",
                          "02-one-row.md": LESSON, "01-intro.md": INTRO})


@pytest.fixture
def content(tmp_path):
    return track(tmp_path / "content")


def test_slugs_drop_the_order_prefix():
    assert slug_of(Path("01-one-query-row.md")) == "one-query-row"
    assert slug_of(Path("heat_map.md")) == "heat-map"


def test_build_writes_pages_assets_and_figure_data(content, tmp_path):
    out = tmp_path / "_site"
    result = build_site(content, out)
    assert result.pages == 3 and result.figures == 1
    for name in ("index.html", "intro.html", "one-row.html", ".nojekyll",
                 *(f"_explorables/pyodide/{pyodide.VERSION}/{n}" for n in pyodide.SITE_FILES)):
        assert (out / name).is_file(), name
    assert {"explorables.css", "js/worker.js", "engine.zip", "stdlib.zip"} <= set(names_in(out))
    html = (out / "one-row.html").read_text()
    data = re.search(r'<script type="application/json" class="ex-data">(.*?)</script>', html, re.S).group(1)
    payload = json.loads(data)
    assert payload["figure"] == "attention-row"
    assert payload["state"]["temperature"] == 0.5
    assert payload["scene"]["values"]["temperature"] == 0.5
    assert "<math" in html and "<details class=\"ex-question\">" in html


def test_lessons_are_ordered_with_previous_and_next_links(content, tmp_path):
    out = tmp_path / "_site"
    build_site(content, out)
    index = (out / "index.html").read_text()
    assert index.index("intro.html") < index.index("one-row.html")
    intro = (out / "intro.html").read_text()
    assert 'rel="next" href="one-row.html"' in intro and 'rel="prev"' not in intro
    row = (out / "one-row.html").read_text()
    assert 'rel="prev" href="intro.html"' in row and "Lesson 2 of 2" in row


def test_every_url_in_the_site_is_relative(content, tmp_path):
    out = tmp_path / "_site"
    build_site(content, out)
    for page in out.glob("*.html"):
        html = page.read_text()
        for tag, url in re.findall(r'<(\w+)\s[^>]*?(?:href|src)="([^"]*)"', html):
            if tag == "a" and url.startswith("https://"):
                continue  # a link out of the site (the notices' sources): followed, never loaded
            assert not url.startswith(("/", "http:", "https:", "//")), f"{page.name}: <{tag}> {url}"
    for script in (out / "_explorables" / "js").rglob("*.js"):
        # The bundle's worker names Pyodide's indexURL in the reserved .invalid domain
        # (RFC 2606): it must be absolute and is never fetched, every file being given.
        text = script.read_text().replace("https://pyodide.invalid/", "")
        # XML namespaces (the statement cleaner tells HTML, MathML and SVG apart) are names
        # written as URLs, never fetched.
        text = re.sub(r'"http://www\.w3\.org/(1999/xhtml|1998/Math/MathML|2000/svg)"', "", text)
        assert "https://" not in text and "http://" not in text, script.name


def test_engine_archive_imports_on_its_own(content, tmp_path):
    out = tmp_path / "_site"
    build_site(content, out)
    unpacked = tmp_path / "unpacked"
    unpack_for_cpython(out / "_explorables" / names_in(out)["engine.zip"], unpacked)
    code = ("import json, explorables.engine.runtime as r, explorables.engine.figures as f; fig = f.FIGURES['attention-row'];"
            "s = fig.initial_state(fig.parse_options({}));"
            "print(json.loads(r.handle(json.dumps({'figure': 'attention-row', 'state': s,"
            "'event': {'type': 'set', 'name': 'temperature', 'value': 2}})))['ok'])")
    result = subprocess.run([sys.executable, "-S", "-c", code], cwd=unpacked, capture_output=True, text=True,
                            env={"PYTHONPATH": str(unpacked), "PATH": "/usr/bin:/bin"})
    assert result.stdout.strip() == "True", result.stderr


def test_all_errors_of_a_run_are_reported_together(tmp_path):
    content = write(tmp_path / "content", {
        "site.yml": "title: T\nraw_htm: true\n",
        "01-bad.md": (
            "---\ntitle: Bad\nordr: 1\n---\n"
            "Text.\n\n"
            ":::{attention-row} explorer\n"
            ":temprature: 2\n"
            ":causal: maybe\n"
            ":::\n\n"
            ":::{atention-row} other\n:::\n\n"
            "Math $\\frac{a}{$ here.\n"
        ),
    })
    with pytest.raises(BuildError) as info:
        build_site(content, tmp_path / "_site")
    lines = str(info.value).splitlines()
    assert lines[0] == "content/01-bad.md:3:1: unknown front matter key 'ordr'"
    assert lines[1] == "    did you mean 'order'?"
    assert lines[2].startswith("content/01-bad.md:8:2: {attention-row} explorer: unknown option 'temprature'")
    assert "did you mean 'temperature'?" in lines[2]
    assert lines[3] == "    `explorables figures attention-row` lists its options"
    assert lines[4] == ("content/01-bad.md:9:10: {attention-row} explorer: option 'causal': "
                        "expected true or false, got 'maybe'")
    assert lines[6] == "content/01-bad.md:12:4: unknown directive '{atention-row}'"
    assert lines[7] == ("    did you mean '{attention-row}'? `explorables figures` lists every figure "
                        "and its options")
    assert lines[8] == ("content/01-bad.md:15:6: cannot read the TeX '\\frac{a}{': the '{' after '\\frac{a}' "
                        "is never closed; add '}' where its group ends (or write \\{ to show a brace)")
    assert lines[10] == "content/site.yml:2:1: unknown key 'raw_htm'"
    assert lines[11] == "    did you mean 'raw_html'?"
    assert lines[12] == "6 errors; nothing was written (there is no previous site)."  # a first build
    assert not (tmp_path / "_site").exists()


def test_duplicate_figure_ids_and_prose_inside_a_figure_are_errors(tmp_path):
    content = write(tmp_path / "content", {"01-a.md": (
        ":::{attention-row} fig\n:::\n\n"
        ":::{attention-row} fig\nsome prose\n:::\n")})
    with pytest.raises(BuildError) as info:
        build_site(content, tmp_path / "_site")
    text = str(info.value)
    assert "content/01-a.md:4:20: {attention-row}: figure id 'fig' is used twice on this page" in text
    assert "content/01-a.md:5:1: {attention-row} fig: unexpected text inside the figure directive: 'some prose'" in text


def test_a_question_without_a_question_is_an_error(tmp_path):
    content = write(tmp_path / "content", {"01-a.md": "Intro.\n\n:::{question}\nThe answer.\n:::\n"})
    with pytest.raises(BuildError) as info:
        build_site(content, tmp_path / "_site")
    assert str(info.value).startswith("content/01-a.md:3:14: {question} needs the question after the name")


def test_raw_html_is_escaped_unless_the_site_allows_it(tmp_path):
    content = write(tmp_path / "content", {"01-a.md": "<script>alert(1)</script>\n"})
    build_site(content, tmp_path / "a")
    assert "<script>alert(1)" not in (tmp_path / "a" / "a.html").read_text()
    (content / "site.yml").write_text("raw_html: true\n")
    build_site(content, tmp_path / "b")
    assert "<script>alert(1)</script>" in (tmp_path / "b" / "a.html").read_text()


def test_site_title_is_escaped_in_templates(tmp_path):
    content = write(tmp_path / "content", {"site.yml": 'title: "<i>Hi</i>"\n', "01-a.md": "Text.\n"})
    build_site(content, tmp_path / "_site")
    assert "&lt;i&gt;Hi&lt;/i&gt;" in (tmp_path / "_site" / "a.html").read_text()


def test_a_missing_content_folder_says_what_to_do(tmp_path, capsys):
    assert main(["build", str(tmp_path / "nowhere"), "-o", str(tmp_path / "out")]) == 1
    assert "does not exist" in capsys.readouterr().err


def test_two_files_with_one_slug_are_an_error(tmp_path):
    """Pins a bug: 01-intro.md and 02-intro.md silently wrote one intro.html."""
    content = write(tmp_path / "content", {"01-intro.md": "A\n", "02-intro.md": "B\n", "03-index.md": "C\n"})
    with pytest.raises(BuildError) as info:
        build_site(content, tmp_path / "_site")
    text = str(info.value)
    assert "content/02-intro.md:1:1: 02-intro.md and 01-intro.md would both be written to intro.html" in text
    assert "content/03-index.md:1:1: the file name 03-index.md makes the page index.html" in text


def test_markup_in_tex_text_stays_text_and_links_are_refused(tmp_path):
    """Pins a bug: $\\text{<script>...}$ reached the page as a script with raw HTML off."""
    content = write(tmp_path / "content", {"01-a.md": "Safe $\\text{<script>alert(1)</script> & more}$ here.\n"})
    build_site(content, tmp_path / "_site")
    html = (tmp_path / "_site" / "a.html").read_text()
    assert "<script>alert" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    (content / "01-a.md").write_text("Bad $\\href{javascript:alert(1)}{x}$.\n")
    with pytest.raises(BuildError) as info:
        build_site(content, tmp_path / "_site")
    assert "content/01-a.md:1:5: the TeX '\\href{javascript:alert(1)}{x}' sets 'href'" in str(info.value)


def test_figure_data_survives_script_breaking_text(tmp_path):
    """Pins a bug: a token holding '<!--' made the embedded JSON unreadable."""
    content = write(tmp_path / "content", {"01-a.md": (
        ":::{attention-row} odd\n:tokens: a <!--b </script> c&d e .\n:query: a\n"
        ":queries: 1,0; 0,1; 1,1; 0,0; 1,0; 0,1\n:keys: 1,0; 0,1; 1,1; 0,0; 1,0; 0,1\n"
        ":values: 1,0; 0,1; 1,1; 0,0; 1,0; 0,1\n:::\n")})
    build_site(content, tmp_path / "_site")
    html = (tmp_path / "_site" / "a.html").read_text()
    data = re.search(r'<script type="application/json" class="ex-data">(.*?)</script>', html, re.S).group(1)
    assert "<" not in data and ">" not in data
    assert json.loads(data)["state"]["tokens"] == ["a", "<!--b", "</script>", "c&d", "e", "."]


def test_the_figures_command_lists_every_directive_and_its_options(capsys):
    assert main(["figures"]) == 0
    out = capsys.readouterr().out
    from explorables.engine.figures import FIGURES
    for name, model in FIGURES.items():
        assert f":::{{{name}}} ID" in out
        for option in model.options:
            assert f"  :{option.name}: {option.expected()}" in out
    assert ":causal: true or false (default: false)" in out
    assert main(["figures", "atention-row"]) == 1
    assert "did you mean 'attention-row'?" in capsys.readouterr().err


def test_the_runtime_is_one_minified_script_joined_in_order(tmp_path):
    """Pages load one script: the runtime's files joined in order (each an IIFE, so
    joining changes nothing else), minified; what the first frame does not need (copy
    buttons, search, exercises) is a second joined file the runtime loads later, and the
    worker is minified too. A preview keeps them all readable."""
    import re

    from explorables.site_builder.commands import build
    from explorables.site_builder.output import panels
    from explorables.site_builder.output import scripts as runtime_files
    from explorables.site_builder.output.minify import minified
    from explorables.site_builder.output.assets import names_in

    for name in (*runtime_files.BUNDLE_RUNTIME, *runtime_files.LATER):  # joining is safe only for self-contained scripts
        text = re.sub(r"/\*.*?\*/", "", (build.STATIC / name).read_text(), flags=re.S).strip()
        assert text.startswith("(function () {") and text.endswith("})();"), name
    assert not set(runtime_files.LATER) & set(runtime_files.BUNDLE_RUNTIME)
    content = tmp_path / "content"
    content.mkdir()
    (content / "01-a.md").write_text("# A\n\n:::{attention-row} explorer\n:::\n", encoding="utf-8")
    for dev in (False, True):
        out = tmp_path / f"site-{dev}"
        build.build_site(content, out, dev=dev)
        names = names_in(out)
        html = (out / "a.html").read_text()
        scripts = re.findall(r'<script defer src="([^"]+)"', html)
        own = "js/explorables.plane-cells-bars-steps-text-grid.js"  # the runtime with its figure's kinds (panels.py)
        assert scripts == [f"_explorables/{names[own]}"]
        assert f'"later": "{names["js/later.js"]}"' in html  # in the page's asset map
        for joined, files in (("js/explorables.js", runtime_files.RUNTIME), ("js/later.js", runtime_files.LATER),
                              ("js/worker.js", ("js/worker.js",)), ("js/start.js", ("js/start.js",))):
            text = (out / "_explorables" / names[joined]).read_text()
            parts = {n: (build.STATIC / n).read_text() for n in files}
            if dev:
                assert all(part in text for part in parts.values()), joined
            elif joined == "js/later.js":  # each script a function, run one per task
                pieces = [runtime_files.LATER_PIECE % minified(n, part).rstrip() for n, part in parts.items()]
                assert text.endswith("".join(pieces) + runtime_files.LATER_RUN), joined  # after the later words
            else:
                texts = [minified(n, part) for n, part in parts.items()]
                if joined == "js/explorables.js":  # the stand-ins of the kinds it lacks, before boot.js
                    texts[2] += "\n;\n" + panels.lazy_line().removesuffix(";\n")
                assert text == ";\n".join(texts) + "\n", joined
                assert len(text) < 0.8 * sum(map(len, parts.values())), joined
        allowed = {"js/explorables.js", "js/later.js", "js/worker.js", "js/scrollers.js",  # (print.html's)
                   "js/start.js",  # the engine's early start, in the head
                   own, panels.LAZY_FILE,  # the page's kinds; all of them, loaded when needed
                   *(("js/livereload.js",) if dev else ())}
        assert {n for n in names if n.startswith("js/")} == allowed
        assert not [f for f in (out / "_explorables").rglob("*") if f.is_dir() and not any(f.iterdir())]  # nor folders
