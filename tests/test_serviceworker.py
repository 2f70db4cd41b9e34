"""The service worker a build writes (site_builder/output/serviceworker.py): sw.js at the
site's root lists every file of the site but itself with its digest, names the build id,
changes with any file, and is named in the pages' asset map only where pages register it
(a published site with `offline: true`); `offline: false` and a preview get the worker
that undoes an earlier one, a bundle none. In Chromium: tests/browser/test_offline.py."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from explorables.site_builder.commands.build import build_site
from explorables.site_builder.errors import BuildError
from explorables.site_builder.output import scripts, serviceworker
from explorables.site_builder.structure.config import load_config

LESSON = "---\ntitle: A\norder: 1\n---\nThe first text.\n\n![A dot](dot.svg)\n"
DOT = '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><circle cx="2" cy="2" r="2"/></svg>\n'


def manifest(page: Path) -> dict:
    found = re.search(r'<script type="application/json" id="ex-build">(.*?)</script>', page.read_text())
    return json.loads(found.group(1))


def make(folder: Path, site_yml: str = "", lesson: str = LESSON) -> Path:
    content = folder / "content"
    content.mkdir(parents=True, exist_ok=True)
    (content / "index.md").write_text("# Home\n")
    (content / "01-a.md").write_text(lesson)
    (content / "dot.svg").write_text(DOT)
    (folder / "site.yml").write_text('title: "Mine"\n' + site_yml)
    return content


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    content = make(tmp_path_factory.mktemp("offline"))
    build_site(content, content.parent / "_site")
    return content.parent / "_site"


def every_file(site: Path) -> dict[str, str]:
    return {
        p.relative_to(site).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in site.rglob("*")
        if p.is_file()
    }


def test_the_worker_lists_every_file_of_the_site_but_itself_with_its_digest(site):
    """All but sw.js and the files for the host (.nojekyll, the build's marker), which a
    reader never opens and a host need not serve."""
    data = serviceworker.read_data(site)
    files = every_file(site)
    assert {".nojekyll", ".explorables-site"} <= set(files)
    assert set(data["files"]) == set(files) - {"sw.js", ".nojekyll", ".explorables-site"}
    for path, digest in data["files"].items():
        assert len(digest) == serviceworker.DIGITS
        assert files[path].startswith(digest), path
    # what the reader needs offline: every page, the image, the runtime, the engine,
    # Python's standard library and Pyodide's own files
    listed = set(data["files"])
    assert {"index.html", "a.html", "404.html", "dot.svg", "print.html", "notices.html"} <= listed
    for plain in ("js/explorables.", "js/later.", "js/worker.", "engine.", "stdlib.", "explorables."):
        assert any(p.startswith("_explorables/" + plain) for p in listed), plain
    assert {"pyodide.asm.wasm", "pyodide.mjs", "pyodide.asm.mjs", "pyodide-lock.json"} <= {
        p.rsplit("/", 1)[1] for p in listed if "/pyodide/" in p
    }


def test_the_worker_names_the_build_and_the_pages_name_the_worker(site):
    data = serviceworker.read_data(site)
    page = manifest(site / "a.html")
    assert data["build"] == page["build"]
    assert data["version"].startswith(page["build"] + "-")
    assert page["assets"]["offline"] == "../sw.js"  # from the assets folder: the site's root
    assert manifest(site / "index.html")["assets"]["offline"] == "../sw.js"


def test_the_worker_brings_its_notes_words_in_every_language(tmp_path):
    """Not in every page's words block: the site's own words in its language (a site's
    locales/de.json corrects them), the shipped ones in the others."""
    content = make(tmp_path, "language: de\n")
    (tmp_path / "locales").mkdir()
    (tmp_path / "locales" / "de.json").write_text('{"page.offline_reload": "Jetzt neu laden"}')
    build_site(content, tmp_path / "_site")
    found = serviceworker.read_data(tmp_path / "_site")["words"]
    assert found["de"] == {
        "page.offline_ready": "Offline verfügbar: Diese Website ist in Ihrem Browser gespeichert.",
        "page.offline_update": "Eine neue Version dieser Website ist bereit.",
        "page.offline_reload": "Jetzt neu laden",
    }
    assert found["en"]["page.offline_reload"] == "Reload"
    assert found["he"]["page.offline_reload"] == "טעינה מחדש"
    assert "page.offline_ready" not in (tmp_path / "_site" / "a.html").read_text(encoding="utf-8")


def test_the_worker_s_code_is_a_script_that_runs(site, tmp_path):
    """Its data, then the code of static/js/serviceworker.js (minified), which Node parses."""
    text = (site / "sw.js").read_text()
    assert text.startswith("self.explorablesOffline = {")
    node = shutil.which("node")
    if node is None:
        pytest.fail("the tests need Node (CONTRIBUTING.md)")
    copy = tmp_path / "sw.js"
    copy.write_text(text)
    subprocess.run([node, "--check", str(copy)], check=True)
    assert "js/offline.js" in scripts.LATER  # registered after the first frame
    assert scripts.STYLES.index("css/offline.css") < scripts.STYLES.index("css/finish.css")


def test_a_take_over_that_never_comes_is_not_asked_for_again(site):
    """A reload of the only page open, a new deploy waiting: the worker asks it to take
    over and answers with a page that waits for it (it asks for nothing). If the new
    worker has not taken over after ten seconds, the page is answered from the version in
    hand, and that worker is not asked again: no reload after reload for ever. Another
    deploy waiting is asked. (tests/node/serviceworker_takeover.mjs runs sw.js in Node.)"""
    node = shutil.which("node")
    if node is None:
        pytest.fail("the tests need Node (CONTRIBUTING.md)")
    page = next(path for path in serviceworker.read_data(site)["files"] if path.endswith(".html"))
    script = Path(__file__).parent / "node" / "serviceworker_takeover.mjs"
    ran = subprocess.run([node, str(script), str(site / "sw.js"), f"https://example.org/{page}"],
                         capture_output=True, text=True, check=True)
    steps = [(s["at"], s["answer"], s["asked"]) for s in json.loads(ran.stdout)]
    assert steps == [
        (0, "wait", ["first take-over"]),
        (4_000, "wait", ["first take-over"]),
        (11_000, "kept", ["first take-over"]),
        (71_000, "kept", ["first take-over"]),
        (72_000, "wait", ["first take-over", "second take-over"]),
    ]


def test_a_changed_lesson_is_a_new_worker_with_the_same_build_id(tmp_path):
    content = make(tmp_path)
    build_site(content, tmp_path / "_site")
    before = serviceworker.read_data(tmp_path / "_site")
    again = tmp_path / "again"
    shutil.copytree(tmp_path / "_site", again)
    build_site(content, tmp_path / "_site")  # the same input: the same worker
    assert (tmp_path / "_site" / "sw.js").read_bytes() == (again / "sw.js").read_bytes()
    (content / "01-a.md").write_text(LESSON.replace("The first text.", "The second text."))
    build_site(content, tmp_path / "_site")
    after = serviceworker.read_data(tmp_path / "_site")
    assert after["build"] == before["build"]  # the runtime is the same
    assert after["version"] != before["version"]
    assert after["files"]["a.html"] != before["files"]["a.html"]
    assert after["files"]["dot.svg"] == before["files"]["dot.svg"]


@pytest.mark.parametrize("how", ["offline: false", "preview"])
def test_no_page_registers_a_worker_and_sw_js_undoes_an_earlier_one(tmp_path, how):
    content = make(tmp_path, "offline: false\n" if how == "offline: false" else "")
    build_site(content, tmp_path / "_site", dev=how == "preview")
    for page in ("index.html", "a.html"):
        assert "offline" not in manifest(tmp_path / "_site" / page)["assets"]
    data = serviceworker.read_data(tmp_path / "_site")
    assert data["files"] is None and data["version"] is None


def test_a_bundle_has_no_worker(tmp_path):
    content = make(tmp_path)
    build_site(content, tmp_path / "_site", bundle=True)
    assert not (tmp_path / "_site" / "sw.js").exists()
    assert "offline" not in manifest(tmp_path / "_site" / "a.html")["assets"]


def test_offline_is_on_by_default_and_must_be_true_or_false(tmp_path):
    content = make(tmp_path)
    assert load_config(tmp_path / "site.yml")[0].offline is True
    (tmp_path / "site.yml").write_text('title: "Mine"\noffline: sometimes\n')
    _, errors = load_config(tmp_path / "site.yml")
    assert [(e.line, e.message) for e in errors] == [(2, "key 'offline' expects bool, got 'sometimes'")]
    with pytest.raises(BuildError) as failed:
        build_site(content, tmp_path / "_site")
    assert str(failed.value).startswith("site.yml:2:1: key 'offline' expects bool, got 'sometimes'\n")
