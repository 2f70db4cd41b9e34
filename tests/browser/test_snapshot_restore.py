"""A site built with `snapshot: true`: the reader's worker restores Python from the
build's memory snapshot and the figure goes live from it; a corrupt snapshot still goes
live, by a cold start. Each test is a cold start of its own (what is tested is how the
engine starts), in a fresh browser context. Needs Node to make the snapshot."""
from __future__ import annotations

import gzip
import os
import shutil

import pytest

from conftest import ROOT, Guard, serve_folder
from explorables.site_builder.pyodide import release as pyodide, snapshot
from explorables.site_builder.output.assets import names_in
from helpers import assert_matches_cpython, open_figure

pytestmark = pytest.mark.skipif(snapshot.node() is None, reason="making a snapshot needs node")

FIG = "explorer"
PAGE = "one-query-row.html"


@pytest.fixture(scope="module")
def snapshot_site(tmp_path_factory):
    """content/ built with `snapshot: true`."""
    from explorables.site_builder.commands.build import build_site

    folder = tmp_path_factory.mktemp("snapshot")
    shutil.copytree(ROOT / "content", folder / "content")
    config = folder / "content" / "site.yml"
    config.write_text(config.read_text(encoding="utf-8") + "snapshot: true\n", encoding="utf-8")
    result = build_site(folder / "content", folder / "_site")
    assert not [w for w in result.warnings if "snapshot" in w], result.warnings
    return folder / "_site"


def served(site):
    server = serve_folder(site)
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


REPORT = "() => window.explorables.ready.then(() => window.explorables.client.timings.worker)"
SAVE_DATA = """
Object.defineProperty(Navigator.prototype, "connection",
  { configurable: true, get() { return { saveData: true, effectiveType: "4g", addEventListener() {} }; } });
"""


def start(browser, base, browser_context_args):
    """A cold page of the lesson, live; (page, guard, the worker's start report)."""
    context = browser.new_context(**browser_context_args)
    page = context.new_page()
    guard = Guard(page, base)
    open_figure(page, base + PAGE, FIG)
    return page, guard, page.evaluate(REPORT)


def test_the_build_writes_a_gzip_compressed_snapshot_the_page_names_the_same_each_time(snapshot_site):
    names = names_in(snapshot_site)
    name = names["snapshot.bin"]
    assert f'"snapshot": "{name}"' in (snapshot_site / PAGE).read_text()
    shipped = (snapshot_site / "_explorables" / name).read_bytes()
    assert len(gzip.decompress(shipped)) > 16 * 2**20  # the whole heap, with the engine imported
    # the same engine makes the same bytes: a reader keeps the snapshot cached across deploys
    engine, python_lib = ((snapshot_site / "_explorables" / names[name]).read_bytes()
                          for name in ("engine.zip", "stdlib.zip"))
    assert snapshot._make(pyodide.ensure_pyodide(), engine, python_lib) == shipped  # made again, not from the cache


def test_the_figure_goes_live_from_the_snapshot(browser, snapshot_site, browser_context_args):
    server, base = served(snapshot_site)
    try:
        page, guard, report = start(browser, base, browser_context_args)
        assert report["snapshot"] is True, report
        page.locator("figure#explorer .ex-cells button").nth(5).click()  # "." asks
        assert assert_matches_cpython(page, FIG, "attention-row")["query"] == 5
        guard.check()
        page.context.close()
    finally:
        server.shutdown()


def test_a_corrupt_snapshot_starts_python_cold_and_goes_live(browser, snapshot_site, browser_context_args,
                                                              tmp_path):
    site = tmp_path / "_site"
    shutil.copytree(snapshot_site, site)
    target = site / "_explorables" / names_in(site)["snapshot.bin"]
    target.write_bytes(gzip.compress(os.urandom(2**20)))  # inflates, but is no snapshot
    server, base = served(site)
    try:
        page, guard, report = start(browser, base, browser_context_args)
        said = [e for e in guard.errors if "the snapshot could not be restored" in e]
        assert len(said) == 1 and "magic" in said[0], guard.errors  # the console says why, once
        guard.errors = [e for e in guard.errors if e not in said]
        assert report["snapshot"] is False and "magic" in report["snapshotError"], report
        page.locator("figure#explorer .ex-cells button").nth(5).click()
        assert assert_matches_cpython(page, FIG, "attention-row")["query"] == 5
        guard.check()
        page.context.close()
    finally:
        server.shutdown()


def test_a_reader_who_saves_data_starts_python_without_the_snapshot(browser, snapshot_site, browser_context_args):
    server, base = served(snapshot_site)
    try:
        context = browser.new_context(**browser_context_args)
        context.add_init_script(SAVE_DATA)
        page = context.new_page()
        guard = Guard(page, base)
        asked: list[str] = []
        context.on("request", lambda r: asked.append(r.url))
        page.goto(base + PAGE)
        page.locator("figure#explorer").get_by_role("button", name="Start the interactive figures").click()
        page.locator("figure#explorer.ex-live").wait_for()
        report = page.evaluate(REPORT)
        assert report["snapshot"] is False and report["snapshotError"] == "", report
        assert not [url for url in asked if "/snapshot." in url], asked
        assert any("/engine." in url for url in asked)  # the worker's requests are seen
        guard.check()
        context.close()
    finally:
        server.shutdown()
