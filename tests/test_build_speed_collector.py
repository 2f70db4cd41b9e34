"""A build runs Python's collector of young objects every GC_YOUNG allocations, not every
700 (commands/build.py): a build makes millions of small objects and few cycles. The
process's own setting is given back afterwards, whether the build worked or failed."""

from __future__ import annotations

import gc

import pytest

from explorables.site_builder.commands import build
from explorables.site_builder.errors import BuildError


@pytest.fixture
def seen(monkeypatch, tmp_path):
    found: list[tuple[int, int, int]] = []
    monkeypatch.setattr(build.cache, "begin", lambda *args: None)
    before = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    yield found
    gc.set_threshold(*before)


def test_a_build_collects_young_objects_less_often_and_restores_the_setting(seen, monkeypatch, tmp_path):
    monkeypatch.setattr(build, "_pipeline", lambda *args, **kwargs: seen.append(gc.get_threshold()) or "built")
    assert build.build_site(tmp_path / "content", tmp_path / "site") == "built"
    assert seen == [(build.GC_YOUNG, 10, 10)]
    assert gc.get_threshold() == (700, 10, 10)


def test_a_failed_build_restores_the_setting_too(seen, monkeypatch, tmp_path):
    def fail(*args, **kwargs):
        seen.append(gc.get_threshold())
        raise BuildError("no")

    monkeypatch.setattr(build, "_pipeline", fail)
    with pytest.raises(BuildError):
        build.build_site(tmp_path / "content", tmp_path / "site")
    assert seen == [(build.GC_YOUNG, 10, 10)] and gc.get_threshold() == (700, 10, 10)
