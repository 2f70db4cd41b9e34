"""What the engine's start needs from a built page and from the engine.

A served page that needs the engine names it in its head (the #ex-build manifest, with
the page's figures) and makes the worker there (js/start.js), before the body is parsed.
In the worker the figures load on demand (engine/figures/__init__.py): the page's own
before the engine says it is ready, any other when a step first asks for it."""
from __future__ import annotations

import json
import re
import subprocess
import sys

from explorables.engine.figures import FIGURES, modules
from explorables.site_builder.output.assets import plain_name

from conftest import ROOT


def head_of(html: str) -> str:
    return html[:html.index("</head>")]


def manifest(html: str) -> dict:
    found = re.search(r'<script type="application/json" id="ex-build">(.*?)</script>', html, re.S)
    return json.loads(found.group(1))


def test_a_page_with_figures_names_them_and_starts_the_engine_from_its_head(built_site):
    html = (built_site / "one-query-row.html").read_text()
    # the next lesson's figures too: the worker imports them first once it is ready
    assert manifest(html)["engine"] == {"figures": ["attention-row"], "next": ["attention-heatmap"]}
    assert manifest((built_site / "positional-encoding.html").read_text())["engine"] == {
        "figures": ["positional-encoding"], "next": ["rotary-positions"]}
    last = max((ROOT / "content").glob("0*.md")).stem.split("-", 1)[1] + ".html"  # 07-generating-text.md
    assert manifest((built_site / last).read_text())["engine"]["next"] == []  # the last lesson
    head = head_of(html)
    scripts = re.findall(r"<script([^>]*) src=\"([^\"]+)\"", head)
    start = [(attrs, src) for attrs, src in scripts if plain_name(src.rsplit("/", 1)[-1]) == "start.js"]
    assert len(start) == 1
    attrs, src = start[0]
    # parser-blocking, so it runs before the body is parsed; after the manifest it reads
    assert "async" not in attrs and "defer" not in attrs
    assert head.index('id="ex-build"') < head.index(src) and head.index('id="ex-words"') < head.index(src)
    assert (built_site / src).is_file()


def test_a_page_without_figures_or_exercises_asks_for_no_engine(built_site):
    for name in ("index.html", "notices.html", "404.html"):
        assert "engine" not in manifest((built_site / name).read_text()), name


def test_every_built_in_figure_lives_in_the_module_named_after_it():
    """load() finds a figure by its name (attention-row -> attention_row) without
    importing every other figure first."""
    builtin = {name: type(model).__module__ for name, model in FIGURES.items()
               if type(model).__module__.startswith("explorables.engine.figures.")}
    assert len(builtin) >= 5
    for name, module in builtin.items():
        short = name.replace("-", "_")
        assert short in modules() and module.startswith(f"explorables.engine.figures.{short}"), (name, module)


ON_DEMAND = r"""
import json, sys
import explorables.engine.runtime as runtime
from explorables.engine import figures
before = sorted(figures.FIGURES.loaded())
runtime.prepare(["attention-row"])
prepared = sorted(figures.FIGURES.loaded())
request = json.loads(sys.stdin.read())
answer = json.loads(runtime.handle(json.dumps(request)))
after_step = sorted(figures.FIGURES.loaded())
unknown = runtime.step("no-such-figure", {}, {"type": "patch", "patch": {}})
warmed = []
while True:
    more = runtime.warm()
    warmed.append(len(figures.unloaded()))
    if not more:
        break
print(json.dumps({"before": before, "prepared": prepared, "answer": answer, "after_step": after_step,
                  "unknown": unknown, "warmed": warmed, "left": figures.unloaded()}))
"""


def as_the_worker(code: str, given: str = "") -> dict:
    """What ``code`` prints (JSON), run in a fresh Python (which imports each figure when
    it is first asked for, as the browser's worker does), ``given`` on its stdin."""
    run = subprocess.run([sys.executable, "-c", code], input=given, capture_output=True, text=True,
                         cwd=ROOT, check=True)
    return json.loads(run.stdout)


def test_in_the_worker_a_figure_not_imported_before_ready_answers_its_first_step():
    """As the worker runs it: importing the runtime imports no figure, prepare() the
    page's, and a step for another figure imports it and answers as an eager engine
    does; warm() imports the rest one by one."""
    model = FIGURES["attention-heatmap"]
    state = model.initial_state(model.parse_options({}))
    request = {"figure": "attention-heatmap", "state": state, "event": {"type": "patch", "patch": {}}}
    eager = json.loads(json.dumps(model.scene(model.patch(state, {}))))
    out = as_the_worker(ON_DEMAND, json.dumps(request))
    assert out["before"] == []
    assert out["prepared"] == ["attention-row"]
    assert out["answer"]["ok"] is True and out["answer"]["scene"] == eager
    assert out["after_step"] == ["attention-heatmap", "attention-row"]
    assert out["unknown"] == {"ok": False, "error": "unknown figure 'no-such-figure'"}
    assert out["left"] == []


def test_an_exercise_type_registered_beside_its_figure_is_found_before_the_figure_is_imported():
    """kv-cache-size is registered by the kv-cache figure's package: a page with the
    exercise and not the figure (an author's lesson) gets fresh numbers at once, before
    the worker has imported the figure on its own."""
    code = ("import json\nimport explorables.engine.runtime as r\nfrom explorables.engine import figures\n"
            "before = figures.FIGURES.loaded()\n"
            "answer = json.loads(r.handle(json.dumps({'exercise': 'kv-cache-size', 'seed': 3, 'language': 'en'})))\n"
            "print(json.dumps({'before': before, 'answer': answer}))")
    out = as_the_worker(code)
    assert out["before"] == []
    assert out["answer"]["ok"] is True and out["answer"]["statement"], out["answer"]


def test_warming_imports_one_module_at_a_time_the_next_pages_first():
    """The worker warms the next page's figures first (warm(names) until it says none
    is left), then every other (warm(None)), one module a call."""
    code = ("import json, sys\nimport explorables.engine.runtime as r\nfrom explorables.engine import figures\n"
            "r.prepare(['attention-row'])\nleft = [len(figures.unloaded())]\n"
            "more = r.warm(['positional-encoding'])\n"
            "first = 'explorables.engine.figures.positional_encoding' in sys.modules\n"
            "left.append(len(figures.unloaded()))\n"
            "while r.warm(None):\n    left.append(len(figures.unloaded()))\n"
            "left.append(len(figures.unloaded()))\n"
            "print(json.dumps({'left': left, 'first': first, 'more': more}))")
    out = as_the_worker(code)
    total = len(modules())
    assert out["first"] is True and out["more"] is False  # the next page has one figure
    assert out["left"] == list(range(total - 1, -1, -1)), out


def test_rehearsing_draws_each_of_the_next_pages_figures_once_and_swallows_failures():
    """rehearse(names) answers one figure of the next page a call, from its default
    options (importing its module if need be), on the road a reader's first move takes
    (the scene without the cells' arithmetic), says whether some are left, never draws
    one twice, and leaves a figure's failure to be reported on its own page."""
    code = ("import json\nimport explorables.engine.runtime as r\nfrom explorables.engine import figures\n"
            "from explorables.engine.figures.kit import marks\n"
            "drawn = []\n"
            "def spy(name, fail=False):\n"
            "    model = figures.load(name); scene = model.scene\n"
            "    def counted(state):\n"
            "        drawn.append([name, marks._LEAN.get()])\n"
            "        if fail: raise RuntimeError('broken')\n"
            "        return scene(state)\n"
            "    model.scene = counted\n"
            "spy('positional-encoding'); spy('attention-row', fail=True)\n"
            "names = ['positional-encoding', 'no-such-figure', 'attention-row']\n"
            "more = []\n"
            "for _ in range(5):\n    more.append(r.rehearse(names))\n"
            "print(json.dumps({'drawn': drawn, 'more': more}))")
    out = as_the_worker(code)
    assert out["drawn"] == [["positional-encoding", True], ["attention-row", True]]
    assert out["more"] == [True, True, False, False, False]
