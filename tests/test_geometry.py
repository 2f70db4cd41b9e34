"""The drawings' geometry is declared once, in static/js/geometry.js: the runtime runs it,
the stills (site_builder/output/svg.py) read the same object, and no copy of a padding
or a radius is left in either."""
from __future__ import annotations

import json
import re
import subprocess

from explorables.site_builder.output import assets, svg
from explorables.site_builder.output.geometry import GEOMETRY, read_geometry
from figure_helpers import ROOT

JS = assets.STATIC / "js"


def test_the_runtime_and_the_stills_read_one_object():
    # what Node makes of the script is what the build parsed
    node = subprocess.run(["node", "-e", "globalThis.window = {explorables: {}};"
                           f"require({str(JS / 'geometry.js')!r});"
                           "process.stdout.write(JSON.stringify(window.explorables.geometry))"],
                          capture_output=True, text=True, check=True)
    assert json.loads(node.stdout) == GEOMETRY == read_geometry()
    assert svg.PAD == GEOMETRY["pad"]


def test_a_still_draws_points_with_the_declared_radii(tmp_path):
    plane = {"kind": "plane", "id": "p", "x": [-1, 1], "y": [-1, 1], "square": True,
             "marks": [{"kind": "point", "id": "a", "x": 0, "y": 0, "role": "query"},
                       {"kind": "point", "id": "b", "x": 0.5, "y": 0.5, "role": "key", "draggable": True}]}
    radii = [float(r) for r in re.findall(r'<circle[^>]* r="([\d.]+)"', svg.plane_svg(plane))]
    assert radii == [GEOMETRY["point"], GEOMETRY["point_drag"]]
    # another declared radius is drawn (the file is the one place to change it)
    other = tmp_path / "geometry.js"
    other.write_text((JS / "geometry.js").read_text().replace('"point": 5', '"point": 6'))
    assert read_geometry(other)["point"] == 6


def test_no_copy_of_the_geometry_is_left():
    copies = []
    for folder in ("site_builder", "static", "engine"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix in (".py", ".js") and re.search(r"as in (plane|cells|bars|label|point)\.js",
                                                         path.read_text(encoding="utf-8")):
                copies.append(str(path.relative_to(ROOT)))
    assert copies == []
    plane = (JS / "panels" / "plane.js").read_text()
    assert not re.search(r"\bPAD = \d", plane) and "G.pad" in plane
    point = (JS / "marks" / "point.js").read_text()
    assert "? 7 : 5" not in point
