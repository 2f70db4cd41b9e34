"""The pages' templates are compiled once and kept under the user's cache folder, as
Python keeps a module's bytecode: a build from the command line compiled every template
again (a fifth of a second of a small site's build), output/pages.py."""

from __future__ import annotations

import jinja2
import pytest

from explorables.site_builder.output import pages


@pytest.fixture
def cache_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    return tmp_path / "explorables" / "templates"


def _env(templates: dict[str, str]) -> jinja2.Environment:
    """An environment as a new process has it: nothing compiled in memory."""
    return jinja2.Environment(loader=jinja2.DictLoader(templates), bytecode_cache=pages._KeptTemplates())


def _compiled(monkeypatch) -> list[str]:
    made: list[str] = []
    real = jinja2.Environment.compile
    monkeypatch.setattr(
        jinja2.Environment,
        "compile",
        lambda self, source, name=None, *a, **k: made.append(name) or real(self, source, name, *a, **k),
    )
    return made


def test_a_new_process_takes_the_templates_compiled_by_the_last(cache_home, monkeypatch):
    made = _compiled(monkeypatch)
    assert _env({"page.html": "<p>{{ x }}</p>"}).get_template("page.html").render(x=1) == "<p>1</p>"
    assert made == ["page.html"] and len(list(cache_home.iterdir())) == 1
    assert _env({"page.html": "<p>{{ x }}</p>"}).get_template("page.html").render(x=2) == "<p>2</p>"
    assert made == ["page.html"]  # not compiled again


def test_an_edited_template_is_compiled_again(cache_home, monkeypatch):
    made = _compiled(monkeypatch)
    _env({"page.html": "<p>{{ x }}</p>"}).get_template("page.html")
    assert _env({"page.html": "<b>{{ x }}</b>"}).get_template("page.html").render(x=3) == "<b>3</b>"
    assert made == ["page.html", "page.html"]


def test_a_cache_that_cannot_be_written_is_passed_by(tmp_path, monkeypatch):
    (tmp_path / "explorables").write_text("a file where the folder would be")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert _env({"page.html": "{{ x }}!"}).get_template("page.html").render(x=4) == "4!"


def test_the_site_templates_are_kept(cache_home):
    env = pages.environment(lambda key, **values: key)
    pages._KEPT_TEMPLATES.kept.clear()  # (as a new process)
    env.get_template("lesson.html")
    assert any(cache_home.iterdir())
