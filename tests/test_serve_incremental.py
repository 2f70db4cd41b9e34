"""`serve` rebuilds one edited lesson in place (commands/incremental.py): the page is
written at once; the search index and the print page follow before the next rebuild; an
edit others depend on (a new title: the neighbours' prev/next and the menus) builds the
whole site; the page is the one a whole build writes."""
from __future__ import annotations

import re
import time

from explorables.site_builder.commands.build import build_site
from explorables.site_builder.commands.serve import DevServer
from explorables.site_builder.output.assets import names_in
from explorables.site_builder.output.panels import kinds_of
from sections_site import make_site
from test_serve_builder import touch


def test_one_edited_lesson_is_rebuilt_in_place(tmp_path, capsys):
    content = make_site(tmp_path)
    dev = DevServer(content, port=0)
    assert dev.start()
    try:
        page = dev.out_dir / "basics" / "softmax.html"
        others = {p: p.stat().st_mtime_ns for p in dev.out_dir.rglob("*.html") if p != page}
        lesson = content / "basics" / "02-softmax.md"
        touch(lesson, lesson.read_text().replace("## Why", "Quokkas compute softmax.\n\n## Why"))
        capsys.readouterr()
        assert dev.check()
        said = capsys.readouterr().out
        assert re.search(r"Rebuilt basics/softmax.html in \d+ ms", said), said
        assert "Quokkas compute softmax." in page.read_text()
        changed = [p for p, stamp in others.items() if p.stat().st_mtime_ns != stamp]
        assert [p.name for p in changed] in ([], ["print.html"])  # no other page written
        # the shared files follow: the search index and the print page have the new words
        for _ in range(100):
            index = (dev.out_dir / "_explorables" / names_in(dev.out_dir)["search-index.js"]).read_text()
            if "quokkas" in index.lower() and "Quokkas" in (dev.out_dir / "print.html").read_text():
                break
            time.sleep(0.1)
        assert "quokkas" in index.lower()
        assert "Quokkas compute softmax." in (dev.out_dir / "print.html").read_text()
        # the page is the one a whole build of the site writes (but the search index's name:
        # the server writes the new index under the name its pages load)
        build_site(content, tmp_path / "whole", dev=True)
        plain = [re.sub(r"search-index\.[0-9a-f]+\.js", "search-index.js", p.read_text())
                 for p in (page, tmp_path / "whole" / "basics" / "softmax.html")]
        assert plain[0] == plain[1]

        # a new title shows in the neighbours' pager and the menus: the whole site is built
        touch(lesson, lesson.read_text().replace("title: Softmax", "title: Soft maximum"))
        assert dev.check()
        said = capsys.readouterr().out
        assert "Rebuilt" not in said and "Built" in said
        assert "Soft maximum" in (dev.out_dir / "basics" / "scores.html").read_text()
        # a mistake is reported by a whole build, and the page stays as it was
        before = page.read_text()
        touch(lesson, lesson.read_text() + "\n:::{attention-row} x\n:nope: 1\n:::\n")
        assert not dev.check()
        assert page.read_text() == before
    finally:
        dev.stop()


def test_an_edit_whose_figures_draw_other_panel_kinds_names_their_runtime(tmp_path, capsys):
    """A page's runtime carries the panel kinds its first frames draw (output/panels.py):
    an edit that changes them is built whole, so that the page names its new runtime."""
    content = make_site(tmp_path)
    dev = DevServer(content, port=0)
    assert dev.start()
    try:
        page = dev.out_dir / "basics" / "softmax.html"
        runtime = re.compile(r"js/explorables\.([a-z-]+)\.[0-9a-f]+\.js")
        assert "plane" in runtime.search(page.read_text()).group(1)
        lesson = content / "basics" / "02-softmax.md"
        touch(lesson, lesson.read_text().replace("{attention-row} explorer", "{attention-heatmap} explorer"))
        capsys.readouterr()
        assert dev.check()
        assert "Rebuilt" not in capsys.readouterr().out
        html = page.read_text()
        assert runtime.search(html).group(1) == "-".join(kinds_of(html)) == "cells-text-grid"
        # and an edit that keeps them is rebuilt in place
        touch(lesson, lesson.read_text().replace("## Why", "Quokkas.\n\n## Why"))
        assert dev.check()
        assert "Rebuilt basics/softmax.html" in capsys.readouterr().out
    finally:
        dev.stop()
