"""``explorables new``: a site that builds at once, never at the cost of an author's file,
and the GitHub Pages workflows (the one `new` writes and this repository's own)."""
from __future__ import annotations

import subprocess

import pytest
import yaml

from explorables import __version__
from explorables.site_builder.authors import loader as authors
from explorables.site_builder.commands.cli import main
from explorables.site_builder.structure.config import OPTIONS, SiteConfig, load_config
from explorables.site_builder.commands.new import BUILD_COMMAND, STARTER, pages_workflow, version_range
from figure_helpers import ROOT

OFFICIAL = ("actions/checkout", "actions/setup-python", "actions/configure-pages", "actions/upload-pages-artifact",
            "actions/deploy-pages")
EXPECTED = ["site.yml", "content/index.md", "content/01-one-query-row.md", "content/02-softmax-of-three.md",
            "figures/softmax_bars.py", ".gitignore", ".github/workflows/pages.yml"]


@pytest.fixture(autouse=True)
def _forget_author_figures():
    yield
    authors.unload()


def test_new_writes_a_site_that_builds(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["new", "my-lessons"]) == 0
    out = capsys.readouterr().out
    assert "cd my-lessons && explorables serve" in out
    site = tmp_path / "my-lessons"
    assert sorted(str(p.relative_to(site)) for p in site.rglob("*") if p.is_file()) == sorted(EXPECTED)
    monkeypatch.chdir(site)
    assert main(BUILD_COMMAND.split()[1:]) == 0
    assert "Built 3 pages with 2 figures" in capsys.readouterr().out
    lesson = (site / "_site" / "softmax-of-three.html").read_text()
    assert 'data-figure="softmax-bars"' in lesson and 'data-figure="attention-row"' not in lesson
    assert 'data-figure="attention-row"' in (site / "_site" / "one-query-row.html").read_text()
    assert (site / ".gitignore").read_text().splitlines()[1] == "_site/"
    # what build and bundle write is kept out of the repository; the site's own files are not
    made = ["_site/index.html", "._site-build-x/a.html", "figures/__pycache__/x.pyc", "my-lessons.zip"]
    subprocess.run(["git", "init", "-q", str(site)], check=True)
    checked = subprocess.run(["git", "-C", str(site), "check-ignore", *made, "content/index.md", "site.yml",
                              "content/files/handout.zip"], capture_output=True, text=True)
    assert checked.stdout.split() == made


def test_the_sample_figure_is_the_guides(tmp_path):
    """One source: the sample `new` writes (which the kit's tests use) is the guide's figure."""
    sample = (STARTER / "figures" / "softmax_bars.py").read_text()
    guide = (ROOT / "docs" / "writing-a-figure.md").read_text()
    assert f"```python\n{sample}```" in guide
    assert len(sample.splitlines()) <= 40


def test_site_yml_documents_every_key_and_asks_for_this_minor_version(tmp_path):
    main(["new", str(tmp_path / "s")])
    text = (tmp_path / "s" / "site.yml").read_text()
    for option in OPTIONS:
        assert f"\n{option.name}: " in text, option.name
        first_words = " ".join(option.doc.split()[:4])
        assert first_words in " ".join(line.lstrip("# ") for line in text.splitlines()), option.name
    config, errors = load_config(tmp_path / "s" / "site.yml")
    assert errors == [] and config.explorables == version_range() == ">=0.2,<0.3"
    assert config.title == "S"
    assert [f for f in SiteConfig.__dataclass_fields__] == [o.name for o in OPTIONS]


def test_new_refuses_a_folder_that_holds_files(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("mine")
    assert main(["new", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err == (f"error: {tmp_path} is not empty (it holds notes.txt); name a new folder, or pass --force to add "
                   f"the starter files that are missing (no file of yours is overwritten)\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_force_adds_what_is_missing_and_overwrites_nothing(tmp_path, capsys):
    (tmp_path / "content").mkdir()
    (tmp_path / "content" / "index.md").write_text("# My own index\n")
    (tmp_path / "site.yml").write_text("title: Mine\n")
    (tmp_path / ".github").write_text("a file where a folder would go")
    assert main(["new", str(tmp_path), "--force"]) == 0
    out = capsys.readouterr().out
    assert (tmp_path / "content" / "index.md").read_text() == "# My own index\n"
    assert (tmp_path / "site.yml").read_text() == "title: Mine\n"
    assert (tmp_path / ".github").read_text() == "a file where a folder would go"
    assert f"kept  {tmp_path}/content/index.md (yours: not overwritten)" in out
    assert f"kept  {tmp_path}/.github/workflows/pages.yml" in out
    assert (tmp_path / "figures" / "softmax_bars.py").is_file()


def test_new_refuses_a_file(tmp_path, capsys):
    (tmp_path / "x").write_text("")
    assert main(["new", str(tmp_path / "x")]) == 1
    assert "is a file" in capsys.readouterr().err


@pytest.mark.parametrize("which", ["new", "repository"])
def test_the_pages_workflow_uses_the_official_actions_and_deploys_only_the_default_branch(which):
    text = pages_workflow() if which == "new" else (ROOT / ".github" / "workflows" / "pages.yml").read_text()
    flow = yaml.safe_load(text)
    triggers = flow.get("on", flow.get(True))  # YAML 1.1 reads a bare `on` as true
    assert set(triggers) == {"push", "pull_request", "workflow_dispatch"}  # never pull_request_target
    steps = [s for job in flow["jobs"].values() for s in job["steps"]]
    used = [s["uses"].split("@")[0] for s in steps if "uses" in s]
    for action in OFFICIAL:
        assert action in used, action
    build = next(s for s in steps if s.get("name") == "Build the site")
    assert build["run"].startswith(BUILD_COMMAND + " ")  # the command the tests run (test_install, test_new)
    # with the address Pages gives, once known (configure-pages runs first)
    assert build["env"]["SITE_URL"] == "${{ steps.pages.outputs.base_url }}"
    assert build["run"].endswith('${SITE_URL:+--url "$SITE_URL/"}')
    configure = next(s for s in steps if s.get("uses", "").startswith("actions/configure-pages"))
    assert configure["id"] == "pages" and steps.index(configure) < steps.index(build)
    default_branch = "github.event_name != 'pull_request' && github.ref_name == github.event.repository.default_branch"
    assert flow["jobs"]["deploy"]["if"] == default_branch
    assert all(s["if"] == default_branch for s in flow["jobs"]["build"]["steps"]
               if s.get("uses", "").split("@")[0] in ("actions/configure-pages", "actions/upload-pages-artifact"))
    assert flow["permissions"] == {"contents": "read"}
    assert flow["jobs"]["deploy"]["permissions"] == {"pages": "write", "id-token": "write"}
    assert "secrets." not in text
    assert "Pull requests build without secrets" in text and "never deploy" in text
    upload = next(s for s in steps if s.get("uses", "").startswith("actions/upload-pages-artifact"))
    assert upload["with"]["path"] == "_site"
    install = next(s["run"] for s in steps if s.get("name") == "Install Explorables")
    if which == "new":
        minor = ".".join(__version__.split(".")[:2])
        assert install == f'python -m pip install "explorables=={minor}.*"'
    else:
        assert install == "python -m pip install ."
        assert text == pages_workflow(install=".", note=text.split("      # ", 1)[1].split("\n", 1)[0])


def test_the_guide_lists_every_site_yml_key_and_front_matter_key():
    from explorables.site_builder.markdown.parser import FRONT_MATTER

    guide = (ROOT / "docs" / "your-own-site.md").read_text()
    for option in OPTIONS:
        default = option.default if option.default != "" else "(empty)"
        shown = str(default).lower() if isinstance(default, bool) else default
        assert f"| `{option.name}` | " in guide and (f"`{shown}`" in guide or shown == "(empty)"), option.name
    for key in FRONT_MATTER:
        assert f"| `{key}` |" in guide, key


def test_the_figure_guide_covers_the_kit():
    from explorables.figures import FORMATS

    guide = (ROOT / "docs" / "writing-a-figure.md").read_text()
    for name in ("Slider(", "Toggle(", "Choice(", "Hidden(", "Value(", "Experiment(", "plane(", "bars(", "cells(",
                 "chart(", "steps(", "text(", "points(", "arrows(", "lines(", "polygon(", "labels(", "circles(",
                 "heading(", "FieldError(", "renamed_from"):
        assert name in guide, name
    for fmt in FORMATS:
        assert f"`{fmt}`" in guide, fmt


def test_the_printed_command_works_for_a_folder_with_spaces_and_the_home_page_has_the_title(
        tmp_path, monkeypatch, capsys):
    """Pins an author's finding: `new "My Site 2"` printed `cd My Site 2 && explorables
    serve` (too many arguments for cd, pasted), and `--title` did not reach the home page,
    which stayed "My lessons"."""
    monkeypatch.chdir(tmp_path)
    assert main(["new", "My Site 2", "--title", 'Waves: "by hand"']) == 0
    out = capsys.readouterr().out
    command = next(line.strip() for line in out.splitlines() if "explorables serve" in line)
    assert command == "cd 'My Site 2' && explorables serve"
    made = subprocess.run(["bash", "-c", command.replace("explorables serve", "pwd")], capture_output=True, text=True)
    assert made.returncode == 0 and made.stdout.strip().endswith("/My Site 2")
    monkeypatch.chdir(tmp_path / "My Site 2")
    assert main(["build"]) == 0
    home = (tmp_path / "My Site 2" / "_site" / "index.html").read_text(encoding="utf-8")
    assert "<title>Waves: &#34;by hand&#34;</title>" in home or "<title>Waves: &quot;by hand&quot;</title>" in home
