"""`explorables bundle --scorm`: a SCORM 1.2 package as learning management systems
import it. The manifest follows the SCORM 1.2 content packaging rules (the IMS CP and
ADL namespaces, schemaversion 1.2, unique identifiers, every identifierref resolving to
a resource, one SCO launching index.html, every file listed and every listed file in the
zip), the zip's entries have safe names, the lessons are listed in reading order, and
only a SCORM package's pages carry the SCORM runtime."""

from __future__ import annotations

import json
import re
import zipfile
from urllib.parse import unquote
from xml.etree import ElementTree as ET

import pytest
from scorm_site import EXERCISES, READING, TITLE, make_package

from explorables.site_builder.commands.bundle import _zip, entry_problem
from explorables.site_builder.commands.cli import main
from explorables.site_builder.errors import BuildError
from explorables.site_builder.output import scripts
from explorables.site_builder.output.assets import names_in
from explorables.site_builder.output.scorm import ADLCP, IMSCP, IMSMD, MANIFEST, lessons_of, manifest

CP = f"{{{IMSCP}}}"
MD = f"{{{IMSMD}}}"


@pytest.fixture(scope="module")
def package(tmp_path_factory):
    """(the zip, its entries' names, the parsed manifest, the unzipped folder)."""
    folder = tmp_path_factory.mktemp("scorm")
    made, unzipped = make_package(folder)
    with zipfile.ZipFile(made) as archive:
        names = archive.namelist()
        manifest = ET.fromstring(archive.read(MANIFEST))
    return made, names, manifest, unzipped


def test_the_manifest_and_the_launch_page_are_at_the_zip_s_root(package):
    _, names, manifest, _ = package
    assert MANIFEST in names and "index.html" in names
    assert manifest.tag == f"{CP}manifest"  # the IMS content packaging namespace SCORM 1.2 uses


def test_the_manifest_says_scorm_1_2(package):
    _, _, manifest, _ = package
    metadata = manifest.find(f"{CP}metadata")
    assert metadata.findtext(f"{CP}schema") == "ADL SCORM"
    assert metadata.findtext(f"{CP}schemaversion") == "1.2"


def test_identifiers_are_unique_and_every_reference_resolves(package):
    _, _, manifest, _ = package
    identifiers = [el.get("identifier") for el in manifest.iter() if el.get("identifier") is not None]
    assert len(identifiers) == len(set(identifiers)) >= 4  # manifest, organisation, item, resource
    assert all(re.fullmatch(r"[A-Za-z_][\w.-]*", name) for name in identifiers)  # XML IDs (NCNames)
    organizations = manifest.find(f"{CP}organizations")
    default = organizations.get("default")
    assert [org.get("identifier") for org in organizations.findall(f"{CP}organization")] == [default]
    resources = {res.get("identifier"): res for res in manifest.find(f"{CP}resources").findall(f"{CP}resource")}
    items = list(organizations.iter(f"{CP}item"))
    assert items and all(item.get("identifierref") in resources for item in items)
    assert organizations.find(f"{CP}organization").findtext(f"{CP}title") == TITLE


def test_the_track_is_one_sco_launching_index_html(package):
    _, _, manifest, _ = package
    (resource,) = manifest.find(f"{CP}resources").findall(f"{CP}resource")
    assert resource.get(f"{{{ADLCP}}}scormtype") == "sco"
    assert resource.get("type") == "webcontent"
    assert resource.get("href") == "index.html"
    assert manifest.find(f".//{CP}item/{{{ADLCP}}}masteryscore") is None  # completed, not passed, by default


def test_every_file_is_listed_and_every_listed_file_is_in_the_zip(package):
    _, names, manifest, _ = package
    (resource,) = manifest.find(f"{CP}resources").findall(f"{CP}resource")
    listed = [unquote(file.get("href")) for file in resource.findall(f"{CP}file")]
    assert len(listed) == len(set(listed))
    assert sorted(listed) == sorted(name for name in names if name != MANIFEST)
    assert resource.get("href") in listed


def test_the_zip_s_entry_names_are_safe(package):
    _, names, _, _ = package
    assert [name for name in names if entry_problem(name)] == []
    assert len(names) == len(set(names))


def test_the_lessons_are_listed_in_reading_order(package):
    _, _, manifest, unzipped = package
    parts = manifest.find(f"{CP}metadata").find(f"{MD}lom").findall(f"{MD}relation")
    assert [part.find(f"{MD}kind/{MD}value/{MD}langstring").text for part in parts] == ["HasPart", "HasPart"]
    assert [part.findtext(f"{MD}resource/{MD}identifier") for part in parts] == [EXERCISES, READING]
    assert [part.findtext(f"{MD}resource/{MD}description/{MD}langstring") for part in parts] == ["Scores", "Reading"]
    assert [lesson["url"] for lesson in lessons_of(unzipped)] == [EXERCISES, READING]


def test_only_a_scorm_package_carries_the_scorm_runtime(package, tmp_path):
    _, _, _, unzipped = package
    later = (unzipped / "_explorables" / names_in(unzipped)["js/later.js"]).read_text(encoding="utf-8")
    assert "LMSInitialize" in later and "cmi.suspend_data" in later
    site = tmp_path / "assets"
    site.mkdir()
    scripts.write_runtime(site, bundle=True, dev=False)  # a plain bundle's (and a site's) runtime
    assert not any("LMSInitialize" in path.read_text(encoding="utf-8") for path in site.rglob("*.js"))


def test_a_scorm_package_is_named_for_the_site_by_default(package, tmp_path, monkeypatch, capsys):
    made, _, _, _ = package
    content = made.parent / "site" / "content"
    monkeypatch.chdir(tmp_path)
    assert main(["bundle", str(content), "--scorm", "--folder", "unzipped"]) == 0
    assert (tmp_path / "unzipped" / MANIFEST).is_file() and (tmp_path / "unzipped" / "index.html").is_file()
    assert "SCORM package" in capsys.readouterr().out
    assert main(["bundle", str(content), "--scorm"]) == 0
    assert (tmp_path / "sums-by-hand-scorm.zip").is_file()


def fake_site(folder, lessons: list[dict]):
    """A built site's files as the manifest reads them: its track's data and index.html."""
    (folder / "_explorables").mkdir()
    (folder / "_explorables" / "track.0123abcd.js").write_text(
        "window.explorablesTrack = " + json.dumps({"lessons": lessons}) + ";\n", encoding="utf-8"
    )
    (folder / "index.html").write_text("<!doctype html>", encoding="utf-8")
    return folder


def test_a_mastery_score_goes_to_the_lms_in_the_manifest(tmp_path):
    site = fake_site(tmp_path, [{"url": "a.html", "title": "A", "exercises": ["ex-1"], "questions": []}])
    made = ET.fromstring(manifest(site, "a", "A", "en", mastery_score=80))
    (item,) = made.iter(f"{CP}item")
    assert item.findtext(f"{{{ADLCP}}}masteryscore") == "80"
    assert [child.tag for child in item] == [f"{CP}title", f"{{{ADLCP}}}masteryscore"]  # SCORM 1.2's order


@pytest.mark.parametrize("value", ["101", "-1", "eighty", "80.5"])
def test_a_mastery_score_is_a_whole_percentage(value, capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["bundle", "content", "--scorm", "--mastery-score", value])
    assert stopped.value.code == 2
    assert f"'{value}' is no percentage: give a whole number from 0 to 100" in capsys.readouterr().err


def test_a_mastery_score_is_for_a_scorm_package(tmp_path, capsys):
    assert main(["bundle", str(tmp_path), "--mastery-score", "80"]) == 2
    assert "--mastery-score is for a SCORM package: add --scorm" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []  # nothing was built


def test_a_site_in_several_languages_lists_the_default_language_s_lessons(tmp_path):
    """A lesson and its translations are one lesson: the manifest names the default
    language's page (js/scorm.js counts them as one too)."""
    lessons = [
        {"url": url, "title": title, "exercises": ["ex-1"], "questions": []}
        for url, title in [
            ("rows.html", "Rows"),
            ("heads.html", "Heads"),
            ("de/rows.html", "Zeilen"),
            ("de/heads.html", "Köpfe"),
            ("deep/dive.html", "A section"),
        ]
    ]
    made = ET.fromstring(manifest(fake_site(tmp_path, lessons), "rows", "Rows", "en", "", ["en", "de"]))
    parts = made.find(f"{CP}metadata").find(f"{MD}lom").findall(f"{MD}relation")
    assert [part.findtext(f"{MD}resource/{MD}identifier") for part in parts] == [
        "rows.html",
        "heads.html",
        "deep/dive.html",  # a folder whose name starts like a language's is no translation
    ]


def test_the_manifest_leaves_out_what_xml_forbids(tmp_path):
    lessons = [{"url": "a.html", "title": "Lesson\x01 one\ufffe", "exercises": [], "questions": []}]
    made = ET.fromstring(manifest(fake_site(tmp_path, lessons), "a", "Attention\vexplained\x1b[31m", "en"))
    assert made.find(f".//{CP}organization/{CP}title").text == "Attentionexplained[31m"
    assert made.find(f".//{MD}relation/{MD}resource/{MD}description/{MD}langstring").text == "Lesson one"


@pytest.mark.parametrize("first, second", [("DE/index.html", "de/index.html"), ("caf\u00e9.html", "cafe\u0301.html")])
def test_a_package_never_holds_two_names_for_one_file(tmp_path, first, second):
    """Unzipped on Windows or macOS, names that differ only in case (or in how an accent is
    written) are one file: the second would replace the first."""
    for name in (first, second):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(name, encoding="utf-8")
    with pytest.raises(BuildError, match="differ only in case"):
        _zip(tmp_path, tmp_path.parent / "out.zip", "")
    assert not (tmp_path.parent / "out.zip").exists()
