"""What a page embeds of each figure's first frame (site_builder/directives/figure.py,
first_frame): the engine's scene, lighter. The cells' arithmetic comes from the live
engine; a chart's curves are written with fewer digits, still far finer than a pixel;
the values are the engine's own."""
from __future__ import annotations

import json
import math
import re

from explorables.engine.figures import FIGURES
from explorables.site_builder.markdown.directives.figure import first_frame, initial

DATA = re.compile(r'<script type="application/json" class="ex-data">(.*?)</script>', re.S)


def close(a, b, tol):
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(close(a[k], b[k], tol) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(close(x, y, tol) for x, y in zip(a, b))
    if isinstance(a, float) or isinstance(b, float):
        return math.isclose(a, b, rel_tol=tol, abs_tol=tol)
    return a == b


def test_every_built_in_figure_s_first_frame_is_its_scene_lighter():
    for name, model in FIGURES.items():
        data = initial(name, model.parse_options({}))
        lean = first_frame(data)
        assert lean["state"] == data["state"], name
        assert lean["scene"]["values"] == data["scene"]["values"], name
        for full, light in zip(data["scene"]["panels"], lean["scene"]["panels"]):
            if full["kind"] == "cells":
                had = any(c.get("detail") for row in full["rows"] for c in row)
                assert light.get("detail_later", False) == had, (name, full["id"])
                strip = [[{k: v for k, v in c.items() if k != "detail"} for c in row] for row in full["rows"]]
                assert [[{k: v for k, v in c.items() if k != "detail"} for c in row] for row in light["rows"]] == strip
                assert all(c["detail"] == [] for row in light["rows"] for c in row if "detail" in c)
            elif full["kind"] == "chart":
                span = full["y"][1] - full["y"][0]
                for a, b in zip(full["series"], light["series"]):
                    assert all(abs(p[1] - q[1]) <= span * 1e-5 for p, q in zip(a["points"], b["points"]))
            else:
                assert light == full, (name, full["id"])
        assert len(json.dumps(lean)) <= len(json.dumps(data))


def test_the_heatmap_page_carries_no_cell_arithmetic(built_site):
    html = (built_site / "attention-heatmap.html").read_text(encoding="utf-8")
    scene = json.loads(DATA.search(html).group(1))["scene"]
    tables = [p for p in scene["panels"] if p["kind"] == "cells" and p.get("detail_later")]
    assert {p["id"] for p in tables} == {"table", "outputs"}
    assert "q·k = " not in html.split('class="ex-still"')[0]  # the arithmetic's words are gone
