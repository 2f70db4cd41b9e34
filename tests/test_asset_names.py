"""Content-hashed asset names: every file the build writes under _explorables/ (except
Pyodide, under its version's folder) is named by its bytes, the pages name exactly those
files, and a rebuild of the same input writes the same bytes under the same names."""
from __future__ import annotations

import hashlib
import io
import json
import re
import zipfile
from pathlib import Path

import pytest

from explorables.site_builder.output import assets
from explorables.site_builder.pyodide import release as pyodide
from explorables.site_builder.commands.build import ASSETS, build_site

from conftest import ROOT

HASHED = re.compile(r"\.([0-9a-f]{8})\.[^./]+$")


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    return build_site(ROOT / "content", tmp_path_factory.mktemp("hashed") / "_site").out_dir


def own_files(site: Path) -> list[Path]:
    folder = site / ASSETS
    return sorted(p for p in folder.rglob("*") if p.is_file() and p.relative_to(folder).parts[0] != "pyodide")


def outputs(site: Path) -> dict[Path, str]:
    """Every HTML, CSS and JS file of the site, as text."""
    return {p: p.read_text(encoding="utf-8") for p in sorted(site.rglob("*"))
            if p.is_file() and p.suffix in (".html", ".css", ".js")}


def manifest(html: str) -> dict:
    found = re.search(r'<script type="application/json" id="ex-build">(.*?)</script>', html, re.S)
    assert found, "the page carries no asset map"
    return json.loads(found.group(1))


def tree(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_every_asset_is_named_by_its_content(site):
    files = own_files(site)
    assert len(files) >= 7  # the CSS, the runtime, the worker, the font, its licence, the engine, the index
    for path in files:
        found = HASHED.search(path.name)
        assert found, f"{path.relative_to(site)} has no hash in its name"
        assert found.group(1) == hashlib.sha256(path.read_bytes()).hexdigest()[:8], path.name


def test_every_asset_is_named_by_a_page_a_stylesheet_or_the_asset_map(site):
    texts = outputs(site)
    html = "".join(t for p, t in texts.items() if p.suffix == ".html")
    named = set(re.findall(r'(?:src|href)="_explorables/([^"]+)"', html))
    for path, text in texts.items():  # a url() is relative to its stylesheet's folder
        if path.suffix == ".css":
            folder = path.parent.relative_to(site / ASSETS).as_posix()
            named |= {f"{folder}/{url}".removeprefix("./") for url in re.findall(r'url\("?([^")]+)"?\)', text)}
    named |= set(manifest((site / "index.html").read_text())["assets"].values())
    for path in own_files(site):
        name = path.relative_to(site / ASSETS).as_posix()
        assert name in named, f"nothing names {name}"


def test_no_output_names_an_asset_by_its_plain_name(site):
    plain = {assets.plain_name(p.relative_to(site / ASSETS).as_posix()) for p in own_files(site)}
    plain |= {"js/livereload.js", "bundle/pages.js", "bundle/engine-data.js", "bundle/worker-source.js",
              "bundle/pyodide-data.js"}
    for path, text in outputs(site).items():
        text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)  # comments may speak of files
        text = re.sub(r"(?m)^\s*//.*$", "", text)
        for name in plain:
            base = name.rsplit("/", 1)[-1]
            pattern = r"""["'(/=]""" + re.escape(base) + r"""["')?#]"""
            assert not re.search(pattern, text), f"{path.relative_to(site)} names {base}"


def test_each_page_links_the_face_of_its_own_hashed_font(site):
    """The math font is each page's own subset: its head links a small stylesheet (named
    by its content) whose @font-face loads the font (named by its content); the site's
    stylesheet declares no font of its own."""
    names = assets.names_in(site)
    assert "@font-face" not in (site / ASSETS / names["explorables.css"]).read_text()
    fonts = set()
    for page in sorted(site.glob("*.html")):
        linked = re.findall(r'<link rel="stylesheet" href="_explorables/(fonts/math\.[0-9a-f]{8}\.css)" '
                            r'data-ex-font="_explorables/fonts/([^"]+)">', page.read_text(encoding="utf-8"))
        if "<math" not in page.read_text(encoding="utf-8"):
            assert linked == [], page.name
            continue
        assert len(linked) == 1, page.name
        face = (site / ASSETS / linked[0][0]).read_text()
        font = re.fullmatch(r'@font-face \{ font-family: "Explorables Math"; src: url\("(noto-sans-math\.[0-9a-f]{8}'
                            r'\.woff2)"\) format\("woff2"\); font-display: swap; \}\n', face)
        assert font, face
        assert (site / ASSETS / "fonts" / font.group(1)).is_file()
        assert linked[0][1] == font.group(1)  # js/pages.js loads it for a swap
        fonts.add(font.group(1))
    assert len(fonts) >= 5  # the lessons' formulas differ: so do their fonts


def test_pyodide_lives_in_its_versions_folder(site):
    folder = site / ASSETS / "pyodide" / pyodide.VERSION
    assert sorted(p.name for p in folder.iterdir()) == sorted(pyodide.SITE_FILES)  # the stdlib goes apart
    assert [p.name for p in (site / ASSETS / "pyodide").iterdir()] == [pyodide.VERSION]
    assert manifest((site / "index.html").read_text())["assets"]["pyodide"] == f"pyodide/{pyodide.VERSION}/"


def test_every_page_and_the_engine_carry_one_build_id(site):
    ids = {manifest(text)["build"] for p, text in outputs(site).items() if p.suffix == ".html"}
    assert len(ids) == 1 and re.fullmatch(r"[0-9a-f]{12}", next(iter(ids)))
    engine = site / ASSETS / assets.names_in(site)["engine.zip"]
    with zipfile.ZipFile(io.BytesIO(engine.read_bytes())) as archive:
        assert archive.read(assets.BUILD_FILE).decode() == next(iter(ids))


def test_the_same_input_builds_the_same_bytes(site, tmp_path):
    again = build_site(ROOT / "content", tmp_path / "_site").out_dir
    assert tree(again) == tree(site)


def test_names_and_build_id_change_only_with_what_they_hold(tmp_path):
    content = tmp_path / "content"
    content.mkdir()
    (content / "01-a.md").write_text("---\ntitle: A\n---\n:::{attention-row} x\n:::\n")
    first = build_site(content, tmp_path / "one").out_dir
    (content / "01-a.md").write_text("---\ntitle: A\n---\nA new sentence.\n\n:::{attention-row} x\n:::\n")
    second = build_site(content, tmp_path / "two").out_dir
    one, two = assets.names_in(first), assets.names_in(second)
    changed = sorted(name for name in one if one[name] != two[name])
    assert changed == ["search-index.js"]  # the words of the lesson; the runtime is the same
    build = manifest((first / "a.html").read_text())["build"]
    assert manifest((second / "a.html").read_text())["build"] == build

    figures = tmp_path / "figures"
    figures.mkdir()
    (figures / "nothing.py").write_text('"""A module of the site\'s own figures that adds none."""\n')
    third = build_site(content, tmp_path / "three").out_dir
    three = assets.names_in(third)
    assert three["engine.zip"] != two["engine.zip"]  # the site's own figures are in the engine
    assert manifest((third / "a.html").read_text())["build"] != build


def test_a_preview_names_its_hashed_live_reload_script(tmp_path):
    out = build_site(ROOT / "content", tmp_path / "_preview", dev=True).out_dir
    names = assets.names_in(out)
    assert f'src="_explorables/{names["js/livereload.js"]}"' in (out / "index.html").read_text()


def test_a_published_site_has_no_live_reload_script(site):
    assert "js/livereload.js" not in assets.names_in(site)


def test_hashed_and_plain_names():
    name = assets.hashed_name("js/core.js", b"x")
    assert name == f"js/core.{hashlib.sha256(b'x').hexdigest()[:8]}.js"
    assert assets.plain_name(name) == "js/core.js"
    assert assets.plain_name("js/core.js") is None
    assert assets.plain_name("engine.0123abcd.zip") == "engine.zip"


def test_css_urls_point_at_hashed_names_relative_to_the_stylesheet():
    names = {"fonts/a.woff2": "fonts/a.11111111.woff2"}
    css = 'a{src:url("../fonts/a.woff2")} b{src:url(data:x)} c{src:url(fonts/missing.woff2)}'
    assert assets._rewrite_css(css, "css/site.css", names) == (
        'a{src:url("../fonts/a.11111111.woff2")} b{src:url(data:x)} c{src:url(fonts/missing.woff2)}')
    assert assets._rewrite_css("x{src:url('fonts/a.woff2')}", "site.css", names) == \
        "x{src:url('fonts/a.11111111.woff2')}"
