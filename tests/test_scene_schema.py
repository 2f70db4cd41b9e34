"""The scene format is declared once (engine/figures/kit/schema.py): every built-in
figure's scenes hold to it, every field the renderer's scripts read is declared in it,
and engine/figures/SCENE.md's field tables are written from it."""
from __future__ import annotations

import copy
import json
import re

import pytest

from explorables.engine.figures import FIGURES
from explorables.engine.figures.kit import schema
from explorables.engine.figures.kit.hooks import Misused
from explorables.figures import Figure, Slider
from figure_helpers import ROOT, first_state

JS = ROOT / "static" / "js"
BUILT_IN = sorted(name for name, fig in FIGURES.items() if type(fig).__module__.startswith("explorables.engine"))


def scenes_of(fig):
    """The first frame, and the scene after each of the figure's experiments."""
    state = first_state(fig)
    yield "first frame", fig.scene(state)
    for experiment in getattr(fig, "experiments", ()):
        yield experiment.name, fig.scene(fig.apply(copy.deepcopy(state), {"type": "action", "name": experiment.name}))


@pytest.mark.parametrize("name", BUILT_IN)
def test_every_built_in_scene_holds_to_the_schema(name):
    for moment, scene in scenes_of(FIGURES[name]):
        schema.check_scene(json.loads(json.dumps(scene)))  # as the page gets it (tuples become lists)


GOLDENS = sorted(p for p in (ROOT / "tests" / "golden").glob("*.json") if "." not in p.stem)  # not NAME.words


@pytest.mark.parametrize("golden", GOLDENS, ids=lambda p: p.stem)
def test_the_golden_first_frames_hold_to_it(golden):
    schema.check_scene(json.loads(golden.read_text(encoding="utf-8")))


def test_a_field_the_renderer_does_not_read_or_of_the_wrong_type_is_named_where_it_is():
    scene = {"panels": [{"kind": "plane", "id": "keys", "x": [-1, 1], "y": [-1, 1],
                         "marks": [{"kind": "point", "x": 0, "y": 0, "colour": "red"}]}],
             "controls": [], "values": {}}
    with pytest.raises(schema.SceneError, match=r"scene.panels\[0\] \(plane 'keys'\).marks\[0\] \(point\): "
                                                r"no field 'colour' is read"):
        schema.check_scene(scene)
    scene["panels"][0]["marks"][0] = {"kind": "point", "x": "0", "y": 0}
    with pytest.raises(schema.SceneError, match=r"marks\[0\] \(point\).x is '0', not number"):
        schema.check_scene(scene)
    scene["panels"][0]["marks"][0] = {"kind": "dot", "x": 0, "y": 0}
    with pytest.raises(schema.SceneError, match="no mark kind 'dot'"):
        schema.check_scene(scene)
    scene["panels"][0]["marks"] = []
    scene["controls"] = [{"kind": "slider", "name": "t", "label": "T", "min": 0, "max": 1, "value": 0.5}]
    with pytest.raises(schema.SceneError, match=r"controls\[0\] \(slider\): step missing"):
        schema.check_scene(scene)


def test_the_kit_checks_the_scene_it_makes_and_names_the_draw_hook():
    class Colours(Figure):
        name = "colours"
        params = (Slider("a", "a", 0.5),)

        def draw(self, s, v):
            return [{"kind": "plane", "id": "p", "x": [0, 1], "y": [0, 1],
                     "marks": [{"kind": "point", "x": s["a"], "y": 0, "colour": "red"}]}]

    with pytest.raises(Misused) as info:
        Colours().scene({"a": 0.5})
    assert "colours's scene: scene.panels[0] (plane 'p').marks[0] (point): no field 'colour' is read" in str(info.value)
    assert info.value.filename == __file__ and info.value.line > 0  # where draw is defined


# The renderer's scripts, and what each variable in them stands for: its fields are read
# as VARIABLE.field (a method call, VARIABLE.name(...), is no field).
READERS = {
    "marks/point.js": {"m": [("mark", "point")]},
    "marks/arrow.js": {"m": [("mark", "arrow")]},
    "marks/line.js": {"m": [("mark", "line")]},
    "marks/polygon.js": {"m": [("mark", "polygon")]},
    "marks/circle.js": {"m": [("mark", "circle")]},
    "marks/label.js": {"m": [("mark", k) for k in schema.MARKS]},
    "panels/plane.js": {"state.spec": [("panel", "plane"), ("panel", "chart")], "next": [("panel", "plane")],
                        "s": [("panel", "plane"), ("panel", "chart")], "m": [("mark", k) for k in schema.MARKS]},
    "panels/chart.js": {"spec": [("panel", "chart")], "s": [("element", "series")]},
    "panels/bars.js": {"next": [("panel", "bars")], "bar": [("element", "bar")]},
    "panels/cells.js": {"next": [("panel", "cells")], "cell": [("element", "cell")]},
    "panels/steps.js": {"next": [("panel", "steps")], "step": [("element", "step")]},
    "panels/text.js": {"next": [("panel", "text")]},
    "controls.js": {"spec": [("control", k) for k in schema.CONTROLS], "next": [("control", k) for k in schema.CONTROLS],
                    "cell": [("element", "field")], "o": [("element", "option")]},
    "controls/number.js": {"spec": [("control", "number")], "next": [("control", "number")]},
    "controls/grid.js": {"next": [("control", "grid")], "row": [("element", "row")], "cell": [("element", "field")]},
    "controls/play.js": {"next": [("control", "play")], "current": [("control", "play")]},
}
NOT_FIELDS = {"length", "map", "some", "forEach", "filter", "find", "concat", "slice", "indexOf", "join",
              "parentElement", "classList", "dataset", "textContent"}  # a variable that is also a DOM element


def declared(readers) -> set[str]:
    out = set()
    for group, kind in readers:
        fields = schema.ELEMENTS[kind] if group == "element" else schema.fields_of(group, kind)
        out |= {f.rstrip("?") for f in fields}
    return out


@pytest.mark.parametrize("script", sorted(READERS))
def test_every_field_the_renderer_reads_is_declared(script):
    source = re.sub(r"/\*.*?\*/|//[^\n]*", "", (JS / script).read_text(encoding="utf-8"), flags=re.S)
    unknown = {}
    for variable, readers in READERS[script].items():
        read = set(re.findall(rf"(?<![\w.]){re.escape(variable)}\.([a-z_]\w*)\b(?!\s*\()", source))
        assert read, f"{script} reads nothing through {variable}: the table above is out of date"
        for field in read:
            if field not in declared(readers) and field not in NOT_FIELDS:
                unknown.setdefault(variable, []).append(field)
    assert unknown == {}, f"{script} reads fields no scene declares: {unknown}"


def test_scene_md_lists_the_fields_as_declared():
    doc = (ROOT / "engine" / "figures" / "SCENE.md").read_text(encoding="utf-8")
    assert schema.reference() in doc, "write SCENE.md's Fields section anew from schema.reference()"


def test_the_colour_roles_are_listed_as_declared_and_styled_in_both_schemes():
    """The colour roles are declared once (schema.ROLES): the author guide and SCENE.md
    carry the table written from it, and the stylesheet gives every role a colour in
    the light scheme and in the dark one."""
    table = schema.roles_table()
    for doc in (ROOT / "engine" / "figures" / "SCENE.md", ROOT / "docs" / "writing-a-figure.md"):
        assert table in doc.read_text(encoding="utf-8"), f"write {doc.name}'s roles table anew from roles_table()"
    css = (ROOT / "static" / "css" / "page.css").read_text(encoding="utf-8")
    for role in schema.ROLES:
        assert len(re.findall(rf"--ex-{role}: #[0-9a-f]{{6}};", css)) == 2, role
