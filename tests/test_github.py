"""On a GitHub Actions runner the build's errors and warnings are also printed as
workflow commands (site_builder/commands/github.py), so that a pull request shows
each one on its file and line; anywhere else the output is as it was."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_build import write

from explorables.site_builder.commands.github import command
from explorables.site_builder.commands.cli import main

BROKEN = "---\ntitle: Broken\n---\n\nText and $\\frac{a}{$ here.\n"
WARNED = "---\ntitle: Warned\n---\n\nText.\n\n```klingon\nqapla'\n```\n"


@pytest.fixture
def repository(tmp_path, monkeypatch):
    """A checkout whose site is in its folder site/, built from there, as a workflow runs it."""
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_WORKSPACE", str(tmp_path))
    site = tmp_path / "site"
    write(site, {"site.yml": "title: Annotated\n"})
    monkeypatch.chdir(site)
    return site


def commands(out: str) -> list[str]:
    return [line for line in out.splitlines() if line.startswith("::")]


def test_each_error_is_placed_on_its_file_line_and_column(repository, capsys):
    write(repository / "content", {"01-broken.md": BROKEN, "02-also.md": BROKEN.replace("Text", "More text")})
    assert main(["build"]) == 1
    out, err = capsys.readouterr()
    said = [line.removeprefix("error: ") for line in err.splitlines() if ".md:" in line]
    places = [line.split(": ", 1)[0].rsplit(":", 2) for line in said]  # as the terminal says them
    assert [p[0] for p in places] == ["content/01-broken.md", "content/02-also.md"]
    assert commands(out) == [
        f"::error file=site/{path},line={line},col={col},title=explorables::"
        f"cannot read the TeX '\\frac{{a}}{{': the '{{' after '\\frac{{a}}' is never closed; add '}}' where its "
        f"group ends (or write \\{{ to show a brace)%0Amath is TeX between $...$ (inline) or $$...$$ (display)"
        for path, line, col in places
    ]
    assert places[0][1:] == ["5", "10"] and places[1][1:] == ["5", "15"]


def test_a_warning_is_placed_and_the_build_goes_on(repository, capsys):
    write(repository / "content", {"01-warned.md": WARNED})
    assert main(["build"]) == 0
    out, err = capsys.readouterr()
    assert "warning: content/01-warned.md:7:4: unknown language 'klingon'" in err
    [placed] = commands(out)
    assert placed.startswith("::warning file=site/content/01-warned.md,line=7,col=4,title=explorables::"
                             "unknown language 'klingon'")
    assert "Built 2 pages" in out


def test_a_failure_with_no_place_is_said_to_the_run(repository, capsys):
    (repository / "content").mkdir()
    assert main(["build"]) == 1
    out, err = capsys.readouterr()
    [placed] = commands(out)
    assert placed.startswith("::error title=explorables::") and "holds no Markdown lessons" in placed
    assert placed.removeprefix("::error title=explorables::") in err


def test_off_a_runner_nothing_more_is_printed(repository, capsys, monkeypatch):
    monkeypatch.delenv("GITHUB_ACTIONS")
    write(repository / "content", {"01-broken.md": BROKEN, "02-warned.md": WARNED})
    assert main(["build"]) == 1
    out, err = capsys.readouterr()
    assert commands(out) == [] and "content/01-broken.md:5:10" in err


def test_a_command_escapes_what_would_end_its_parts(tmp_path, monkeypatch):
    """A message's '%' and line breaks, and a path's ':' and ',', would end or cut the
    command: they are written as GitHub reads them back."""
    monkeypatch.setenv("GITHUB_WORKSPACE", str(tmp_path))
    text = "content/a,b:c.md:3:2: 50% of it\n    add 1,5; then:\n    look again"
    assert command("error", text, tmp_path) == (
        "::error file=content/a%2Cb%3Ac.md,line=3,col=2,title=explorables::50%25 of it%0Aadd 1,5; then:%0Alook again"
    )
    # a hint of several lines, its later ones not indented, stays with its message
    assert command("error", "content/x.md:1:1: oops\n    first\nsecond", tmp_path).endswith("::oops%0Afirst%0Asecond")
    outside = Path("/elsewhere/figures/x.py")  # a path not under the checkout is given from it all the same
    assert command("warning", f"{outside}:1:1: hmm", tmp_path).startswith(
        "::warning file=" + "../" * len(tmp_path.resolve().parts[1:]) + "elsewhere/figures/x.py,line=1,col=1,"
    )


def test_a_bundle_that_fails_is_placed_too(repository, capsys):
    write(repository / "content", {"01-broken.md": BROKEN})
    assert main(["bundle"]) == 1
    [placed] = commands(capsys.readouterr().out)
    assert placed.startswith("::error file=site/content/01-broken.md,line=5,col=10,title=explorables::cannot read")
