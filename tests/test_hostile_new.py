"""Today's new surface tried as a careless or hostile author would: SCORM packages
(site_builder/output/scorm.py, commands/bundle.py) and sites in several languages
(structure/languages.py). Each test fails on the code it was written against and says
what a fix must hold, not how to make it.

- A title holding a character XML 1.0 forbids (a C0 control such as a vertical tab or
  an escape, or the noncharacter U+FFFE, all valid YAML escapes in a quoted string)
  builds, and the package's imsmanifest.xml is then not well-formed: every LMS parses
  the manifest first, so the import fails with no word from the build.
- A section folder named like one of the site's languages in another case (content/DE/
  beside languages: [en, de]) builds a site holding DE/index.html and de/index.html, and a
  SCORM package with both entries: a case-insensitive file system (Windows, macOS, where
  teachers and LMS admins unzip) keeps one of the two, so a page silently replaces
  another, as a folder named Print.HTML/ would have before the last round refused it."""

from __future__ import annotations

import xml.etree.ElementTree as ET
import zipfile

import pytest
from author_site import write_site

from explorables.site_builder.commands.cli import main

LESSON = "---\ntitle: {title}\norder: 1\n---\n\nText.\n"


@pytest.mark.parametrize(
    "site_yml, lesson_title, where",
    [
        ('title: "Attention\\vexplained"\n', "One", "site.yml:1"),
        ('title: "Attention \\x1b[31mred"\n', "One", "site.yml:1"),
        ('title: "Attention\\ufffe"\n', "One", "site.yml:1"),
        ('title: "Attention"\n', '"Lesson\\x01one"', "content/01-one.md:2"),
    ],
    ids=["vertical-tab-in-site-title", "escape-in-site-title", "noncharacter-in-site-title", "control-in-lesson"],
)
def test_a_scorm_manifest_is_well_formed_xml_whatever_the_titles(
    tmp_path, monkeypatch, capsys, site_yml, lesson_title, where
):
    site = write_site(
        tmp_path / "site",
        site_yml=site_yml,
        lessons={"index.md": "# Home\n", "01-one.md": LESSON.format(title=lesson_title)},
    )
    monkeypatch.chdir(site)
    code = main(["bundle", "--scorm"])
    err = capsys.readouterr().err
    assert "Traceback" not in err
    if code:  # refused: at the title, with its line
        assert f"error: {where}:" in err, err
        return
    (package,) = site.glob("*-scorm.zip")
    manifest = zipfile.ZipFile(package).read("imsmanifest.xml")
    ET.fromstring(manifest)  # an LMS reads the manifest first: not well-formed, and the import fails


def test_a_section_named_like_a_language_in_another_case_is_refused(tmp_path, monkeypatch, capsys):
    site = write_site(
        tmp_path / "site",
        site_yml='title: "Mine"\nlanguages: [en, de]\n',
        lessons={
            "index.md": "# Home\n",
            "01-a.md": LESSON.format(title="A"),
            "DE/index.md": "---\ntitle: Delaware\n---\n\n# Delaware\n",  # a section about Delaware
            "DE/01-x.md": LESSON.format(title="Delaware"),
            "de/index.md": "# Start\n",
            "de/01-a.md": LESSON.format(title="A auf Deutsch"),
            "de/DE/index.md": "---\ntitle: Delaware\n---\n\n# Delaware\n",
            "de/DE/01-x.md": LESSON.format(title="Delaware"),
        },
    )
    monkeypatch.chdir(site)
    code = main(["build"])
    err = capsys.readouterr().err
    built = sorted(p.relative_to(site / "_site").as_posix() for p in (site / "_site").rglob("*"))
    same = sorted({name for name in built if sum(other.lower() == name.lower() for other in built) > 1})
    assert code == 1 and "content/DE" in err, f"built {same}, which one folder cannot hold on Windows or macOS"


def test_no_bundle_holds_two_entries_that_differ_only_in_case(tmp_path, monkeypatch, capsys):
    """However the site came to hold them: what a bundle writes, one entry a name on every
    file system (the checks of each entry's name, commands/bundle.py, say no more)."""
    site = write_site(
        tmp_path / "site",
        site_yml='title: "Mine"\nlanguages: [en, de]\n',
        lessons={
            "index.md": "# Home\n",
            "DE/index.md": "---\ntitle: Delaware\n---\n\n# Delaware\n",
            "DE/01-x.md": LESSON.format(title="Delaware"),
            "de/index.md": "# Start\n",
        },
    )
    monkeypatch.chdir(site)
    code = main(["bundle", "--scorm"])
    capsys.readouterr()
    if code:
        return  # refused before a package was written
    (package,) = site.glob("*-scorm.zip")
    names = zipfile.ZipFile(package).namelist()
    assert sorted(n for n in names if sum(o.lower() == n.lower() for o in names) > 1) == []
