"""A page's runtime carries the panel and control kinds its first frames draw, no others
(site_builder/output/panels.py): a page whose figures draw cells and text only gets no
plane, no chart, no bars, no Play; a page with no figure gets none; every other kind is
one file (js/panels.js) the runtime loads when a figure needs it; an offline bundle
carries all."""

from __future__ import annotations

import json
import re

from explorables.site_builder.output import panels
from explorables.site_builder.output import scripts as runtime_files
from explorables.site_builder.output.assets import names_in

PLANE = "panels.plane="  # how the plane's script registers itself, minified


def runtime_of(site, page: str) -> str:
    (src,) = re.findall(r'<script defer src="([^"]+/js/explorables\.[^"]+)"', (site / page).read_text())
    return (site / page).parent.joinpath(src).read_text()


def data(kinds) -> str:
    scene = {"panels": [{"kind": kind, "id": f"p{i}"} for i, kind in enumerate(kinds)]}
    return f'<script type="application/json" class="ex-data">{json.dumps({"figure": "f", "scene": scene})}</script>'


def test_the_kinds_a_page_draws_are_read_from_its_build_time_scenes():
    body = data(["text", "cells"]) + "<p>prose</p>" + data(["chart", "select"])
    assert panels.kinds_of(body) == ["plane", "cells", "chart", "text"]  # a chart draws through a plane
    controls = data([]).replace('"panels": []', '"panels": [], "controls": [{"kind": "play"}, {"kind": "slider"}]')
    assert panels.kinds_of(controls) == ["play"]  # the slider is in every runtime
    assert panels.kinds_of("<p>no figure</p>") == []
    assert panels.set_file(["cells", "text"]) == "js/explorables.cells-text.js"


def test_a_page_of_cells_loads_no_plane_and_a_page_of_planes_does(built_site):
    heatmap = runtime_of(built_site, "attention-heatmap.html")
    lab = runtime_of(built_site, "attention-lab.html")
    plain = runtime_of(built_site, "index.html")
    assert "panels.cells=" in heatmap and PLANE not in heatmap and "panels.chart=" not in heatmap
    assert PLANE in lab and "panels.steps=" in lab
    assert "panels.cells=" not in plain and PLANE not in plain
    for text in (heatmap, lab, plain):  # the kinds it lacks: stand-ins until js/panels.js comes, before boot.js
        assert 0 < text.index(panels.lazy_line()) < text.index('"DOMContentLoaded"')
    assert len(heatmap) < 0.8 * len(lab)
    names = names_in(built_site)
    every = (built_site / "_explorables" / names[panels.LAZY_FILE]).read_text()
    assert all(f'panels["{kind}"]' in every for kind in panels.GROUPS) and PLANE in every
    assert all(f'controls["{kind}"]' in every for kind in panels.CONTROLS) and "controls.play=" in every
    assert f'"panels": "{names[panels.LAZY_FILE]}"' in (built_site / "attention-heatmap.html").read_text()
    assert "js/explorables.cells-text-grid.js" in names and "js/explorables.js" in names
    assert "controls.grid=" in heatmap and "controls.play=" not in heatmap and "controls.grid=" not in lab


def test_an_offline_bundle_carries_every_kind_in_its_one_runtime():
    bundled = runtime_files.BUNDLE_RUNTIME
    assert set(panels.SCRIPTS) <= set(bundled) and not set(panels.SCRIPTS) & set(runtime_files.RUNTIME)
    assert bundled.index("js/core.js") < bundled.index(panels.SCRIPTS[0]) < bundled.index("js/boot.js")
    assert bundled.index("js/controls.js") < bundled.index("js/controls/play.js") < bundled.index("js/boot.js")
