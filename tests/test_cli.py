"""The command line: the figure manifest (text, JSON, the guide's Markdown), the version
a site asks for, and renamed names that keep working for one minor version."""
from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from explorables import __version__
from explorables.engine.figures import FIGURES
from explorables.figures import Experiment, Figure, Slider, Value, bars
from explorables.site_builder.authors import loader as authors
from explorables.site_builder.structure import config
from explorables.site_builder.commands import manifest
from explorables.site_builder.commands.cli import main
from figure_helpers import ROOT

FIGURES_MD = ROOT / "docs" / "figures.md"


def builtins():
    return [FIGURES[n] for n in sorted(authors.builtin())]


def test_figures_json_is_every_manifest(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no site here: the built-in figures only
    assert main(["figures", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["explorables"] == __version__
    assert [m["name"] for m in data["figures"]] == sorted(FIGURES)  # the built-ins (and any a test registered)
    assert authors.builtin() <= set(FIGURES)
    assert main(["figures", "attention-row", "--json"]) == 0
    one = json.loads(capsys.readouterr().out)
    assert one == json.loads(json.dumps(FIGURES["attention-row"].manifest(), default=str))
    assert {"name", "summary", "options", "params", "values", "experiments"} <= set(one)


def test_figures_prints_values_and_experiments(capsys):
    class Three(Figure):
        name = "three-test"
        summary = "A test figure."
        params = (Slider("a", "Score a", 1.0, lo=-2, hi=2, doc="The score of a."),)
        values = (Value("top", "percent", "The largest weight."),)
        experiments = (Experiment("up", "Raise a", set={"a": 2.0}, see="a wins."),)

        def draw(self, s, v):
            return [bars("w", [0.5])]

    text = manifest.text([Three()])
    assert text == (":::{three-test} ID\n  A test figure.\n  :a: a number from -2 to 2 (default: 1.0)\n"
                    "      The score of a.\n  values (window.explorables.figures[ID].values):\n    top: percent\n"
                    "        The largest weight.\n  experiments:\n    up: Raise a (sets a=2.0)\n\n")
    md = manifest.markdown([Three()])
    assert "| `a` | a number from -2 to 2 | 1.0 | The score of a. |" in md
    assert "| `top` | percent | The largest weight. |" in md and "- `up`: Raise a (sets `a` = 2.0)" in md


def test_docs_figures_md_is_up_to_date():
    """docs/figures.md is generated: `explorables figures --markdown > docs/figures.md`."""
    if FIGURES_MD.read_text() != manifest.markdown(builtins()):
        pytest.fail("docs/figures.md is out of date; regenerate it with "
                    "`explorables figures --markdown > docs/figures.md`")


def test_figures_markdown_is_what_the_docs_hold(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["figures", "--markdown"]) == 0
    assert capsys.readouterr().out == manifest.markdown([FIGURES[n] for n in sorted(FIGURES)])


# The versions a site asks for.

def _site(tmp_path: Path, yml: str) -> Path:
    (tmp_path / "content").mkdir()
    (tmp_path / "content" / "index.md").write_text("# Hi\n")
    (tmp_path / "site.yml").write_text(yml)
    return tmp_path


def test_a_build_with_another_version_says_which_and_what_the_site_needs(tmp_path, capsys, monkeypatch):
    site = _site(tmp_path, 'title: x\nexplorables: ">=0.3,<0.4"\n')
    monkeypatch.chdir(site)
    assert main(["build"]) == 1
    assert capsys.readouterr().err == (
        f"error: site.yml:2:1: this site needs Explorables >=0.3,<0.4, but this is Explorables {__version__}\n"
        f"    install a matching version: pip install 'explorables>=0.3,<0.4' (or change the range in site.yml "
        f"after reading CHANGELOG.md)\n1 error; nothing was written (there is no previous site).\n")
    assert not (site / "_site").exists()


def test_a_version_range_that_is_no_range_is_an_error(tmp_path):
    site = _site(tmp_path, "explorables: about 0.2\n")
    _, errors = config.load_config(site / "site.yml")
    assert [e.format(site) for e in errors] == [
        "site.yml:1:1: key 'explorables' expects a version range, got 'about 0.2'\n"
        '    write e.g. explorables: ">=0.2,<0.3"']


def test_a_matching_version_builds(tmp_path, capsys, monkeypatch):
    site = _site(tmp_path, 'explorables: ">=0.2,<0.3"\n')
    monkeypatch.chdir(site)
    assert main(["build"]) == 0


# Renamed names keep working for one minor version, with a warning naming the new one.

def test_a_renamed_site_yml_key_still_works_with_a_warning(tmp_path, monkeypatch):
    renamed = tuple(config.ConfigOption(o.name, o.type, o.default, o.doc, renamed_from="name" if o.name == "title"
                                        else "") for o in config.OPTIONS)
    monkeypatch.setattr(config, "OPTIONS", renamed)
    site = _site(tmp_path, "name: Old spelling\n")
    with pytest.warns(DeprecationWarning, match=r"site.yml:1: the site.yml key 'name' is now called 'title'"):
        loaded, errors = config.load_config(site / "site.yml")
    assert errors == [] and loaded.title == "Old spelling"


def test_a_renamed_option_still_works_with_a_warning():
    class Renamed(Figure):
        name = "renamed-test"
        params = (Slider("temperature", "T", 1.0, lo=0.1, hi=5, renamed_from="temp"),)

        def draw(self, s, v):
            return []

    fig = Renamed()
    with pytest.warns(DeprecationWarning, match="renamed-test: the option 'temp' is now called 'temperature'; "
                                                "write :temperature:"):
        assert fig.parse_options({"temp": "2"})["temperature"] == 2.0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert fig.parse_options({"temperature": "3"})["temperature"] == 3.0  # the new name: no warning


def test_a_renamed_kit_name_still_works_with_a_warning(monkeypatch):
    import explorables.figures as kit

    monkeypatch.setitem(kit.RENAMED, "BarChart", "bars")
    with pytest.warns(DeprecationWarning, match="explorables.figures.BarChart is now called bars"):
        assert kit.BarChart is kit.bars
    with pytest.raises(AttributeError):
        kit.NoSuchName


def test_the_cli_prints_deprecations_as_one_line(tmp_path, capsys, monkeypatch):
    renamed = tuple(config.ConfigOption(o.name, o.type, o.default, o.doc, renamed_from="name" if o.name == "title"
                                        else "") for o in config.OPTIONS)
    monkeypatch.setattr(config, "OPTIONS", renamed)
    site = _site(tmp_path, "name: Old\n")
    monkeypatch.chdir(site)
    assert main(["build"]) == 0
    err = capsys.readouterr().err
    assert err.startswith(f"warning: {site / 'site.yml'}:1: the site.yml key 'name' is now called 'title'")
    assert "DeprecationWarning" not in err


def test_a_reader_that_stops_reading_gets_no_traceback():
    """`explorables words de | head`: the pipe closes before the catalogue is written
    (made small here so that it always does)."""
    read, write = os.pipe()
    fcntl.fcntl(write, 1031, 4096)  # F_SETPIPE_SZ: a pipe smaller than the catalogue
    run = subprocess.Popen([sys.executable, "-m", "explorables.site_builder.commands.cli", "words", "de"], stdout=write,
                           stderr=subprocess.PIPE)
    os.close(write)
    assert os.read(read, 10).startswith(b"{")
    os.close(read)
    err = run.stderr.read().decode()
    assert run.wait() == 1 and err == ""


def test_serve_stopped_by_kill_removes_its_build_folder(tmp_path):
    """`kill` (SIGTERM) as Ctrl+C: the preview's private build folder goes with it."""
    (tmp_path / "content").mkdir()
    (tmp_path / "content" / "01-a.md").write_text("---\ntitle: A\n---\nHere.\n")
    (tmp_path / "tmp").mkdir()
    run = subprocess.Popen([sys.executable, "-m", "explorables.site_builder.commands.cli", "serve", "content", "--port", "0"],
                           cwd=tmp_path, env={**os.environ, "TMPDIR": str(tmp_path / "tmp")},
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        while "Serving" not in (line := run.stdout.readline()):
            assert line, run.stderr.read()
        assert any((tmp_path / "tmp").iterdir())  # the preview is built there
        run.terminate()
        assert run.wait(timeout=60) == 0
    finally:
        run.kill()
    assert not any((tmp_path / "tmp").iterdir())


def test_serve_on_a_busy_port_says_so_before_building(tmp_path, capsys):
    import socket

    from explorables.site_builder.commands.serve import DevServer

    (tmp_path / "content").mkdir()
    (tmp_path / "content" / "01-a.md").write_text("---\ntitle: A\n---\nHere.\n")
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    server = DevServer(tmp_path / "content", port=taken.getsockname()[1])
    try:
        assert server.start() is False
        out = capsys.readouterr()
        assert "cannot serve on 127.0.0.1:" in out.err and "pick another port with --port" in out.err
        assert "Built" not in out.out and not server.out_dir.exists()  # nothing was built first
    finally:
        server.stop()
        taken.close()


def test_figures_lists_the_exercise_types_and_explains_one_asked_for(capsys):
    """From an author's review: no command listed exercise types, and
    `explorables figures dot-2` said only that there was no such figure."""
    assert main(["figures"]) == 0
    last = capsys.readouterr().out.rstrip().splitlines()[-1]
    assert last.startswith("Exercise types, for :::{exercise} TYPE: ") and "scaled-score (number)" in last
    assert main(["figures", "scaled-score"]) == 0
    assert capsys.readouterr().out.startswith("'scaled-score' is an exercise type, not a figure: a lesson "
                                              "writes it as\n\n:::{exercise} scaled-score\n")
