"""A site in several languages built in a pool writes what one process writes: a
language's stand-in for a lesson it lacks (the default language's page, with a note)
keeps the page's whole text, though a pooled build keeps the default's pages small until
they are rendered and frees their tokens then (commands/slim.py)."""

from __future__ import annotations

from languages_site import BROWSER_LESSONS, make_site
from test_build_parallel import pooled, tree

from explorables.site_builder.commands import parallel
from explorables.site_builder.commands.build import build_site


def test_a_pooled_site_in_several_languages_is_the_serial_one(tmp_path, monkeypatch):
    content = make_site(tmp_path / "site", lessons=BROWSER_LESSONS)
    monkeypatch.setenv("EXPLORABLES_CACHE", "off")
    monkeypatch.setattr(parallel, "SERIAL_BELOW", 10**9)
    build_site(content, tmp_path / "serial")
    run = pooled(content, tmp_path / "pooled", 2)
    assert run["error"] is None and run["used"]
    serial, in_pool = tree(tmp_path / "serial"), tree(tmp_path / "pooled")
    assert b"Several heads look at once." in in_pool["de/heads.html"]  # German lacks it: the English stands in
    assert b"Two exercises." in in_pool["he/drills.html"]
    assert sorted(set(serial) ^ set(in_pool)) == []
    assert [name for name in serial if serial[name] != in_pool[name]] == []
