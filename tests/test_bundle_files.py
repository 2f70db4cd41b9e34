"""explorables bundle: what the zip holds, Pyodide carried once and intact, atomic writes."""
from __future__ import annotations

import base64
import hashlib
import json
import re
import zipfile

import pytest

from explorables.site_builder.pyodide import release as pyodide, stdlib
from explorables.site_builder.output.assets import names_in, plain_name
from explorables.site_builder.commands.bundle import bundle_site, site_slug
from explorables.site_builder.commands.cli import main
from explorables.site_builder.errors import BuildError

from conftest import ROOT


def data_of(script: str, key: str):
    match = re.fullmatch(r"\(window\.explorablesBundle = window\.explorablesBundle \|\| \{\}\)\." + key +
                         r" = (.*);\n", script, re.S)
    assert match, script[:200]
    return json.loads(match.group(1))


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    out = tmp_path_factory.mktemp("bundle") / "attention.zip"
    result = bundle_site(ROOT / "content", out)
    with zipfile.ZipFile(out) as archive:
        names = archive.namelist()
        files = {name: archive.read(name) for name in names}
    return result, files


def test_the_zip_holds_one_folder_named_after_the_site(bundle):
    result, files = bundle
    tops = {name.split("/")[0] for name in files}
    assert tops == {site_slug("Attention, by hand")} == {"attention-by-hand"}
    top = "attention-by-hand/"
    for page in ("index.html", "one-query-row.html", "attention-heatmap.html"):
        assert top + page in files
    lessons = len(list((ROOT / "content").glob("0*.md")))  # one figure each, and the index
    assert result.pages == lessons + 1 and result.figures == lessons


def asset_name(files: dict[str, bytes], plain: str) -> str:
    """The zip entry of an asset of the bundle, by its plain name (the build hashes names)."""
    found = [name for name in files if name.startswith("attention-by-hand/_explorables/")
             and plain_name(name.split("/_explorables/", 1)[1]) == plain]
    assert len(found) == 1, (plain, found)
    return found[0]


def asset(files: dict[str, bytes], plain: str) -> bytes:
    return files[asset_name(files, plain)]


def test_pyodide_is_carried_once_and_intact(bundle):
    _, files = bundle
    assert not [n for n in files if "/pyodide/" in n], "Pyodide shipped as files as well as data"
    data = data_of(asset(files, "bundle/pyodide-data.js").decode(), "pyodide")
    carried = {
        "pyodide.mjs": data["loader"].encode(), "pyodide.asm.mjs": data["asm"].encode(),
        "pyodide-lock.json": data["lock"].encode(), "pyodide.asm.wasm": base64.b64decode(data["wasm"]),
    }
    for name, body in carried.items():
        assert hashlib.sha256(body).hexdigest() == pyodide.CORE_SHA256[name], name
    # the standard library as every site ships it: modules compiled ahead (stdlib.py)
    assert base64.b64decode(data["stdlib"]) == stdlib.site_stdlib(pyodide.ensure_pyodide())


def test_every_page_is_carried_for_swapping_in_place(bundle):
    _, files = bundle
    pages = data_of(asset(files, "bundle/pages.js").decode(), "pages")
    html = sorted(n.split("/")[-1] for n in files if n.count("/") == 1 and n.endswith(".html"))
    html.remove("print.html")  # no engine: it opens as a file of its own, never swapped in
    assert sorted(pages) == html
    assert pages["one-query-row.html"]["title"] == "One query row · Attention, by hand"
    assert 'id="explorer"' in pages["one-query-row.html"]["body"]
    page = files["attention-by-hand/one-query-row.html"].decode()
    named = [name.split("attention-by-hand/")[1] for name in
             (asset_name(files, "bundle/pages.js"), asset_name(files, "js/explorables.js"))]
    assert page.index(named[0]) < page.index(named[1])  # the content first, then the runtime that reads it
    runtime = asset(files, "js/explorables.js").decode()
    assert "window.explorablesBundle" in runtime  # the bundle's part of the runtime is in it


def test_the_worker_and_engine_are_carried_as_scripts(bundle):
    _, files = bundle
    worker = data_of(asset(files, "bundle/worker-source.js").decode(), "workerSource")
    assert worker == (ROOT / "static" / "js" / "worker.js").read_text()
    engine = base64.b64decode(data_of(asset(files, "bundle/engine-data.js").decode(), "engine"))
    assert engine == asset(files, "engine.zip")


def test_a_bundle_starts_its_engine_from_the_runtime_not_from_the_head(bundle):
    """A served site's pages make the engine's worker from js/start.js in their head; a
    bundle's worker is made from a Blob by its runtime, with the files it carries: it
    neither loads nor carries start.js."""
    _, files = bundle
    assert not [name for name in files if plain_name(name.rsplit("/", 1)[-1]) == "start.js"]
    lesson = files["attention-by-hand/one-query-row.html"].decode()
    assert "start." not in "".join(re.findall(r"<script[^>]*>", lesson))


def test_a_bundle_leaves_the_math_font_to_its_stylesheet(bundle):
    """A page opened from disk cannot fetch a font ahead (fonts are fetched with CORS):
    its head names none."""
    _, files = bundle
    lesson = files["attention-by-hand/one-query-row.html"].decode()
    assert "<math" in lesson and '"font":' not in lesson


def test_a_failed_bundle_leaves_the_previous_one(tmp_path):
    content = tmp_path / "content"
    content.mkdir()
    (content / "01-a.md").write_text("---\ntitle: A\n---\n:::{attention-row} x\n:temperature: 0\n:::\n")
    target = tmp_path / "old.zip"
    target.write_bytes(b"previous bundle")
    with pytest.raises(BuildError):
        bundle_site(content, target)
    assert target.read_bytes() == b"previous bundle"
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".partial")] == []


def test_the_folder_form_refuses_a_folder_of_other_files(tmp_path):
    foreign = tmp_path / "mine"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("keep me")
    assert main(["bundle", str(ROOT / "content"), "--folder", str(foreign)]) == 1
    assert (foreign / "notes.txt").read_text() == "keep me"


def test_the_folder_form_writes_a_runnable_folder(tmp_path, capsys):
    target = tmp_path / "lessons"
    assert main(["bundle", str(ROOT / "content"), "--folder", str(target)]) == 0
    assert (target / "index.html").is_file() and "bundle/pyodide-data.js" in names_in(target)
    out = capsys.readouterr().out
    lessons = len(list((ROOT / "content").glob("0*.md")))
    assert f"Bundled {lessons + 1} pages with {lessons} figures" in out
    assert "Copy the folder anywhere" in out and "Unzip" not in out
    assert main(["bundle", str(ROOT / "content"), "--folder", str(target)]) == 0  # its own folder: replaced


def test_a_zip_and_a_folder_at_once_are_refused(tmp_path, capsys):
    """Pins an author's finding: `bundle -o x.zip --folder out` wrote the folder and
    silently no zip."""
    with pytest.raises(SystemExit) as exit_:
        main(["bundle", str(ROOT / "content"), "-o", str(tmp_path / "x.zip"), "--folder", str(tmp_path / "out")])
    assert exit_.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err
    assert not (tmp_path / "out").exists() and not (tmp_path / "x.zip").exists()
