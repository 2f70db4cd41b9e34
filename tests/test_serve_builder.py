"""`explorables serve` builds in a kept process (site_builder/builder.py): an edit to a
lesson is built by the same warm process, an edit to a figure's Python by a fresh one
that imports it anew, and a process that died is replaced without losing the build."""
from __future__ import annotations

import os
import time

from explorables.site_builder.serve import DevServer
from author_site import lay_out
from figure_helpers import ROOT

SAMPLE = ROOT / "site_builder" / "starter" / "figures" / "softmax_bars.py"
LESSON = "---\ntitle: Mine\norder: 1\n---\n\nText.\n\n:::{softmax-bars} three\n:a: 1\n:::\n"


def touch(path, text):
    """Write ``text`` with a modification time the server's polling cannot miss."""
    path.write_text(text)
    later = time.time() + 2
    os.utime(path, (later, later))


def test_lessons_are_built_warm_and_figures_by_a_fresh_process(tmp_path):
    lay_out(tmp_path, "01-mine.md", LESSON, "softmax_bars.py", SAMPLE.read_text())
    dev = DevServer(tmp_path / "content", port=0)
    assert dev.start()
    try:
        page = dev.out_dir / "mine.html"
        warm = dev.builder.process.pid
        touch(tmp_path / "content" / "01-mine.md", LESSON.replace("Text.", "Edited text."))
        assert dev.check()
        assert "Edited text." in page.read_text() and dev.builder.process.pid == warm

        figure = tmp_path / "figures" / "softmax_bars.py"
        touch(figure, figure.read_text().replace("Softmax of three scores", "Three scores, edited"))
        assert dev.check()
        assert dev.builder.process.pid != warm  # the figure module is imported anew
        assert "Three scores, edited" in page.read_text()

        dev.builder.process.kill()  # a builder that died: the next edit is built all the same
        dev.builder.process.wait()
        touch(tmp_path / "content" / "01-mine.md", LESSON.replace("Text.", "Once more."))
        assert dev.check()
        assert "Once more." in page.read_text()
    finally:
        dev.stop()
    assert dev.builder.process is None
