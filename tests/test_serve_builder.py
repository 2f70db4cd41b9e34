"""`explorables serve` builds in a kept process (site_builder/commands/warm.py): an edit to a
lesson is built by the same warm process, an edit to a figure's Python by a fresh one
that imports it anew, and a process that died is replaced without losing the build.
What it watches: the files a link points at, and no dot file."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from explorables.site_builder.commands.serve import DevServer
from author_site import lay_out
from figure_helpers import ROOT
from test_build import write

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


def test_the_kept_process_answers_as_the_command_line_would(tmp_path):
    """Exit codes as the command line's (an error's message on standard error), and a
    process that dies in the middle of a build replaced by a one-off run."""
    from explorables.site_builder.commands.warm import Builder

    builder = Builder()
    try:
        code, out, err = builder.run(["--version"])
        assert code == 0 and out.strip() and not err
        code, out, err = builder.run(["build", str(tmp_path / "nowhere")])
        assert code != 0 and "nowhere" in err
        pid = builder.process.pid
        builder.process.send_signal(signal.SIGINT)  # Ctrl+C in serve's terminal: the server stops it, not the key
        assert builder.run(["--version"])[0] == 0 and builder.process.pid == pid
        builder.process.kill()  # dead between two builds: started again
        builder.process.wait()
        assert builder.run(["--version"])[0] == 0 and builder.process.pid != pid
        builder.process.stdout.close()  # no answer to the next build: a one-off run gives it
        code, out, _ = builder.run(["--version"])
        assert code == 0 and out.strip() and builder.process is None
    finally:
        builder.stop()


@pytest.mark.parametrize("ends, code, err", [("sys.exit()", 0, ""), ("sys.exit('no site here')", 1, "no site here"),
                                             ("os.write(1, b'stray\\n') and 0", 0, "")])
def test_the_replies_keep_the_standard_output_and_python_s_exit_codes(ends, code, err):
    """A build that ends with sys.exit() succeeded and one that exits with a message failed
    and says it, as from the command line; bytes written to the standard output by other
    means than Python's sys.stdout (a program a build runs) go to standard error and
    leave the replies whole."""
    script = ("import os, sys\nfrom explorables.site_builder.commands import warm_main as builder, cli\n"
              f"def main(args):\n    return {ends}\ncli.main = main\nbuilder.main()\n")
    done = subprocess.run([sys.executable, "-c", script], input='["build"]\n["build"]\n',
                          capture_output=True, text=True, timeout=60)
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["code"] for r in replies] == [code, code]
    assert all(r["err"].strip() == err for r in replies)
    assert ("stray" in done.stderr) == ("stray" in ends)


def test_serve_watches_links_and_leaves_dot_files_out(tmp_path):
    from explorables.site_builder.commands.serve import snapshot

    write(tmp_path / "content", {"01-a.md": "x", ".swp": "y"})
    write(tmp_path / "content" / ".git", {"HEAD": "z"})
    (tmp_path / "content" / "gone.md").symlink_to(tmp_path / "nowhere.md")
    (tmp_path / "content" / ".#01-a.md").symlink_to("author@laptop")
    stamps = snapshot([tmp_path / "content"])
    assert sorted(Path(p).name for p in stamps) == ["01-a.md", "gone.md"]
