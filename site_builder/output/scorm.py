"""The manifest of a SCORM 1.2 package (``explorables bundle --scorm``): the offline
bundle, with ``imsmanifest.xml`` beside its index.html at the root of the zip, is what
a learning management system (Moodle, Canvas, Blackboard, Brightspace, Open edX)
imports as one activity.

The whole track is one SCO (a "sharable content object", the unit an LMS launches and
records): the bundle swaps its lessons in place and keeps one engine running, and the
score counts the exercises of every lesson, so the reader's session is the whole track.
The manifest lists:

- the organisation, with one item, the track, launching ``index.html`` (with the
  mastery score, if the author gives one: ``--mastery-score``);
- the lessons, in reading order, in the manifest's metadata (IEEE LOM, "HasPart"
  relations naming each lesson's page and title; in a site of several languages, the
  default language's: a lesson and its translations are one); at run time js/scorm.js
  reports each as an objective (``cmi.objectives``) with its status and score;
- one resource, ``adlcp:scormtype="sco"``, with every file of the package.

Identifiers come from the site's title, so a new version of the package keeps them and
an LMS that updates the activity keeps its learners' records.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import quote
from xml.etree import ElementTree as ET

from .assets import names_in

MANIFEST = "imsmanifest.xml"
IMSCP = "http://www.imsproject.org/xsd/imscp_rootv1p1p2"
ADLCP = "http://www.adlnet.org/xsd/adlcp_rootv1p2"
IMSMD = "http://www.imsglobal.org/xsd/imsmd_rootv1p2p1"
XML = "http://www.w3.org/XML/1998/namespace"
LAUNCH = "index.html"
_TRACK_START = "window.explorablesTrack = "
# What XML 1.0 allows in text: no C0 control but tab and newlines, no lone surrogate, no
# U+FFFE or U+FFFF. A title holding one (a YAML escape such as "\v") would make the
# manifest unreadable to every LMS: such characters are left out of it.
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")

ET.register_namespace("", IMSCP)
ET.register_namespace("adlcp", ADLCP)
ET.register_namespace("imsmd", IMSMD)


def lessons_of(site: Path) -> list[dict]:
    """The lessons of a built site, in reading order, from its track data (track.py):
    [{"url", "title", "exercises", "questions"}, ...]; [] when it has none."""
    name = names_in(site).get("track.js")
    if name is None:
        return []
    text = (site / "_explorables" / name).read_text(encoding="utf-8").strip()
    if not text.startswith(_TRACK_START):
        return []
    return json.loads(text[len(_TRACK_START) :].rstrip(";"))["lessons"]


def package_files(site: Path) -> list[str]:
    """Every file of the package but the manifest, as the manifest names them: paths
    from the package's root with '/', in order."""
    return sorted(
        path.relative_to(site).as_posix() for path in site.rglob("*") if path.is_file() and path.name != MANIFEST
    )


def manifest(
    site: Path,
    slug: str,
    title: str,
    language: str,
    description: str = "",
    languages: Sequence[str] = (),
    mastery_score: int | None = None,
) -> bytes:
    """imsmanifest.xml for the built bundle in ``site``; ``languages``: a site's in several,
    the default first (its lessons are listed; the others' are their translations);
    ``mastery_score``: the score (percent) that passes, which the LMS gives the package."""
    ids = f"explorables-{slug}"  # NCNames (xs:ID): a letter first, then letters, digits, '-'
    root = ET.Element(f"{{{IMSCP}}}manifest", {"identifier": f"MANIFEST-{ids}", "version": "1"})
    metadata = ET.SubElement(root, f"{{{IMSCP}}}metadata")
    ET.SubElement(metadata, f"{{{IMSCP}}}schema").text = "ADL SCORM"
    ET.SubElement(metadata, f"{{{IMSCP}}}schemaversion").text = "1.2"
    folders = tuple(f"{code}/" for code in languages[1:])
    lessons = [lesson for lesson in lessons_of(site) if not lesson["url"].startswith(folders)]
    metadata.append(_lom(title, language, description, lessons))

    organizations = ET.SubElement(root, f"{{{IMSCP}}}organizations", {"default": f"ORG-{ids}"})
    organization = ET.SubElement(organizations, f"{{{IMSCP}}}organization", {"identifier": f"ORG-{ids}"})
    ET.SubElement(organization, f"{{{IMSCP}}}title").text = _xml(title)
    item = ET.SubElement(
        organization,
        f"{{{IMSCP}}}item",
        {"identifier": f"ITEM-{ids}", "identifierref": f"RES-{ids}", "isvisible": "true"},
    )
    ET.SubElement(item, f"{{{IMSCP}}}title").text = _xml(title)
    if mastery_score is not None:  # cmi.student_data.mastery_score: js/scorm.js says passed at it
        ET.SubElement(item, f"{{{ADLCP}}}masteryscore").text = str(mastery_score)

    resources = ET.SubElement(root, f"{{{IMSCP}}}resources")
    resource = ET.SubElement(
        resources,
        f"{{{IMSCP}}}resource",
        {"identifier": f"RES-{ids}", "type": "webcontent", f"{{{ADLCP}}}scormtype": "sco", "href": LAUNCH},
    )
    for name in package_files(site):
        ET.SubElement(resource, f"{{{IMSCP}}}file", {"href": quote(name, safe="/")})  # a URI: ' ' is %20
    ET.indent(root, space=" ")
    return b'<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode").encode("utf-8") + b"\n"


def _lom(title: str, language: str, description: str, lessons: list[dict]) -> ET.Element:
    """The package's IEEE LOM metadata: its title and language, and a "HasPart" relation
    a lesson, naming its page and title, in reading order."""
    lom = ET.Element(f"{{{IMSMD}}}lom")
    general = ET.SubElement(lom, f"{{{IMSMD}}}general")
    _langstring(ET.SubElement(general, f"{{{IMSMD}}}title"), title, language)
    ET.SubElement(general, f"{{{IMSMD}}}language").text = language
    if description:
        _langstring(ET.SubElement(general, f"{{{IMSMD}}}description"), description, language)
    for lesson in lessons:
        relation = ET.SubElement(lom, f"{{{IMSMD}}}relation")
        kind = ET.SubElement(relation, f"{{{IMSMD}}}kind")
        _langstring(ET.SubElement(kind, f"{{{IMSMD}}}source"), "LOMv1.0", "x-none")
        _langstring(ET.SubElement(kind, f"{{{IMSMD}}}value"), "HasPart", "x-none")
        part = ET.SubElement(relation, f"{{{IMSMD}}}resource")
        ET.SubElement(part, f"{{{IMSMD}}}identifier").text = _xml(lesson["url"])
        _langstring(ET.SubElement(part, f"{{{IMSMD}}}description"), lesson["title"], language)
    return lom


def _langstring(parent: ET.Element, text: str, language: str) -> None:
    ET.SubElement(parent, f"{{{IMSMD}}}langstring", {f"{{{XML}}}lang": _xml(language)}).text = _xml(text)


def _xml(text: str) -> str:
    """``text`` without the characters XML 1.0 forbids."""
    return _NOT_XML.sub("", text)
