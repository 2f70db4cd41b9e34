"""An author's own figure's words in every language of a site in several (issue 38): a key
the figure writes out with no text in one of the site's languages is reported where the
figure writes it (``figures/shares.py:LINE:COL``) with the file to add it to, in each
language, not only the default: an error when the language has no text for it at all,
a warning when its pages would show the English text of ``locales/en.json``."""

from __future__ import annotations

import json

import pytest
from languages_site import LESSONS, make_site

from explorables.site_builder.authors import loader
from explorables.site_builder.commands.build import build_site
from explorables.site_builder.errors import BuildError

TWO = {key: text for key, text in LESSONS.items() if not key.startswith("he/")}
LEAD = "figures/shares.py:32:28"  # where shares.py writes t("own.shares.lead", ...)


@pytest.fixture(autouse=True)
def _forget_the_figures():
    yield
    loader.unload()


def drop(site, code: str, key: str) -> None:
    """Take ``key`` out of the site's locales/CODE.json."""
    path = site / "locales" / f"{code}.json"
    words = json.loads(path.read_text(encoding="utf-8"))
    del words[key]
    path.write_text(json.dumps(words, ensure_ascii=False), encoding="utf-8")


def shown(errors, root) -> list[str]:
    return [e.format(root) for e in errors]


def test_a_key_german_lacks_is_a_warning_where_the_figure_writes_it(tmp_path):
    content = make_site(tmp_path / "site", site_yml="title: T\nlanguages: [en, de]\n", lessons=TWO)
    drop(content.parent, "de", "own.shares.lead")
    warnings = shown(build_site(content, tmp_path / "_site").warnings, content.parent)
    assert (
        f"{LEAD}: the key 'own.shares.lead' has no 'de' text in locales/de.json: the 'de' pages show its English "
        'text (locales/en.json)\n    add "own.shares.lead": "…" to locales/de.json'
    ) in warnings
    assert not [w for w in warnings if "own words have no 'de' text" in w]  # said where it is used instead
    assert "führt mit" not in (tmp_path / "_site" / "de" / "shares.html").read_text(encoding="utf-8")


def test_a_key_the_second_language_has_no_text_for_stops_the_build_at_its_use(tmp_path):
    """The site's default is German; English, its second language, lacks a key German has."""
    content = make_site(tmp_path / "site", site_yml="title: T\nlanguages: [de, en]\n", lessons=_swapped(TWO))
    drop(content.parent, "en", "own.shares.lead")
    with pytest.raises(BuildError) as caught:
        build_site(content, tmp_path / "_site")
    assert shown(caught.value.errors, content.parent) == [
        f"{LEAD}: the key 'own.shares.lead' has no text in locales/en.json\n"
        '    did you mean \'own.shares.title\'? add "own.shares.lead": "…" to locales/en.json'
    ]
    assert not (tmp_path / "_site").exists()


def test_each_language_is_checked_and_a_key_said_once_a_language(tmp_path):
    content = make_site(tmp_path / "site")  # three languages; locales/he.json does not exist
    drop(content.parent, "de", "own.shares.tie")
    warnings = shown(build_site(content, tmp_path / "_site").warnings, content.parent)
    about = [w.split("\n")[0] for w in warnings if w.startswith("figures/shares.py")]
    assert sum("'own.shares.tie' has no 'de' text" in w for w in about) == 1
    assert sum("'own.shares.tie' has no 'he' text" in w for w in about) == 1  # its first use only
    assert sum("has no 'de' text" in w for w in about) == 1
    assert sum("has no 'he' text" in w for w in about) == 10  # every key of the figure, at its first use
    assert "figures/shares.py:19:31: the key 'own.shares.tie' has no 'de' text in locales/de.json" in about[0]


def _swapped(lessons: dict[str, str]) -> dict[str, str]:
    """The lessons of a site whose default is German: German at the root, English in en/."""
    out = {}
    for key, text in lessons.items():
        if key == "de/index.md":
            out["index.md"] = "---\ntitle: Willkommen\n---\n\nZwei Lektionen.\n"
        elif key.startswith("de/"):
            out[key.removeprefix("de/")] = text
        elif "/" not in key and "heads" not in key:
            out["en/" + key] = text
    return out
