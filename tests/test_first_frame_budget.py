"""Every page's first frame (the page, its stylesheet, the scripts its head loads and its
math font) stays within 60 KB gzipped, the bar the lessons are held to: the track as
published, and the track in three languages (English, German and Hebrew), whose pages
carry their translations' links, switch and words. Measured as
benchmarks/bench_languages.py measures it, with the shipped minified scripts
(tests/test_minify.py checks they are fresh)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from explorables.site_builder.authors import loader
from explorables.site_builder.commands.build import build_site
from explorables.site_builder.output import minify

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 60 * 1024
_spec = importlib.util.spec_from_file_location("bench_languages", ROOT / "benchmarks" / "bench_languages.py")
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)


def over(site: Path) -> dict[str, float]:
    sizes = {page.relative_to(site).as_posix(): bench.first_frame(site, page.relative_to(site).as_posix())
             for page in sorted(site.rglob("*.html"))
             if "_explorables" not in page.parts and page.name != "print.html"}  # (every lesson, for paper)
    assert len(sizes) > 8
    return {page: round(size / 1024, 1) for page, size in sizes.items() if size > LIMIT}


def stale() -> str:
    """Why a page may be over while it would not be once shipped: scripts edited since
    the minified artifact was made are minified by a larger fallback meanwhile."""
    scripts = minify.stale(minify.sources(minify.STATIC))
    return f"(stale minified scripts {scripts}: run python -m explorables.site_builder.output.minify)" if scripts else ""


def test_every_page_of_the_track_is_within_60_kb(built_site):
    assert over(built_site) == {}, stale()


def test_every_page_of_the_track_in_three_languages_is_within_60_kb(tmp_path):
    content = bench.lay_out(ROOT / "content", tmp_path / "site", languages=True)
    try:
        build_site(content, tmp_path / "out")
    finally:
        loader.unload()
    assert (tmp_path / "out" / "he" / "attention-lab.html").is_file()
    assert over(tmp_path / "out") == {}, stale()
