"""What every test of a figure model needs: a first state from options, the option
errors, panels and controls of a scene by name, the golden first frame, and the figure
directive of a lesson.

tests/ is no package, so the tests import this module at the top level, as they import
engine_reference: ``from figure_helpers import panel, check_golden``.
"""
from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest

from explorables.engine.figures import OptionErrors
from explorables.engine.figures.kit import schema

ROOT = Path(__file__).resolve().parent.parent
TOL = 1e-9  # floats of a golden scene may differ by this much
ROLES = set(schema.ROLES)  # the colour roles, declared in the kit's schema
SHAPES = {"circle", "diamond", "ring", "square"}  # SCENE.md's point shapes


# --- options and scenes ----------------------------------------------------------------------


def first_state(fig, **options):
    """The figure's first state for options written as an author writes them (text)."""
    return fig.initial_state(fig.parse_options({k: str(v) for k, v in options.items()}))


def errors_of(fig, options: dict) -> list[tuple[str, str]]:
    """(option, message) of every error the options get, in order."""
    with pytest.raises(OptionErrors) as info:
        fig.parse_options(options)
    return [(e.option, e.message) for e in info.value.errors]


def panel(scene, panel_id):
    (found,) = [p for p in scene["panels"] if p["id"] == panel_id]
    return found


def control(scene, name):
    (found,) = [c for c in scene["controls"] if c["name"] == name]
    return found


def is_num(x) -> bool:
    """A finite int or float, as SCENE.md asks of every number (a bool is not one)."""
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def texts(obj):
    """Every string in a scene."""
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for value in obj.values():
            yield from texts(value)
    elif isinstance(obj, list):
        for value in obj:
            yield from texts(value)


def links(obj):
    """Every "link" in a scene."""
    if isinstance(obj, dict):
        if "link" in obj:
            yield obj["link"]
        for value in obj.values():
            yield from links(value)
    elif isinstance(obj, list):
        for value in obj:
            yield from links(value)


# --- the golden first frame ------------------------------------------------------------------


def close_enough(new, old, path="scene", tol: float = TOL):
    """The first difference between two JSON trees (floats to ``tol``), or None."""
    if isinstance(old, bool) or isinstance(new, bool):
        return None if new is old else f"{path}: {new!r} != {old!r}"
    if isinstance(old, (int, float)) and isinstance(new, (int, float)):
        return None if abs(new - old) <= tol else f"{path}: {new!r} != {old!r}"
    if isinstance(old, dict) and isinstance(new, dict):
        if set(old) != set(new):
            return f"{path}: keys {sorted(new)} != {sorted(old)}"
        for key in old:
            diff = close_enough(new[key], old[key], f"{path}.{key}", tol)
            if diff:
                return diff
        return None
    if isinstance(old, list) and isinstance(new, list):
        if len(old) != len(new):
            return f"{path}: {len(new)} items != {len(old)}"
        for n, (a, b) in enumerate(zip(new, old)):
            diff = close_enough(a, b, f"{path}[{n}]", tol)
            if diff:
                return diff
        return None
    return None if new == old else f"{path}: {new!r} != {old!r}"


def check_golden(scene: dict, golden: Path) -> None:
    """Compare a scene with its golden file, reviewed by hand. On a mismatch the new scene
    is written beside it as NAME.new.json and the test fails; if the new scene is right,
    move it over the old file."""
    fresh = golden.with_suffix(".new.json")
    old = json.loads(golden.read_text(encoding="utf-8")) if golden.exists() else None
    diff = "no golden file yet" if old is None else close_enough(scene, old)
    if diff:
        fresh.parent.mkdir(exist_ok=True)
        fresh.write_text(json.dumps(scene, indent=1, ensure_ascii=False, allow_nan=False) + "\n",
                         encoding="utf-8")
        pytest.fail(f"the first frame changed ({diff}); review {fresh.relative_to(ROOT)}")
    if fresh.exists():
        fresh.unlink()


# --- goldens split: structure apart from wording ----------------------------------------------

STRUCTURAL_KEYS = {"kind", "id", "name", "role", "link", "shape", "anchor", "align", "mark", "near", "type"}
NUMBERISH = re.compile(r"^[\s\d.,:;%()\[\]+\-\u2212×/=·|≈<>~]*$")  # '0.45', '(1.00, −0.50)', '27%'
WORD = "…"  # what a piece of wording becomes in the structural golden


def split_scene(scene):
    """A scene as (structure, words): every text that is wording (not an id, a role, a
    number written out) is replaced by WORD in the structure and listed, once, in order,
    in the words. A reworded message changes only the words; marks, channels and
    numbers change only the structure."""
    words: list[str] = []

    def walk(node, key=None):
        if isinstance(node, dict):
            return {k: walk(v, k) for k, v in node.items()}
        if isinstance(node, list):
            return [walk(v, key) for v in node]
        if isinstance(node, str) and key not in STRUCTURAL_KEYS and not NUMBERISH.match(node):
            if node not in words:
                words.append(node)
            return WORD
        return node

    return walk(scene), words


def check_golden_split(scene: dict, golden: Path) -> None:
    """``check_golden`` on the structure (golden NAME.json) and on the words
    (NAME.words.json) of a scene, each compared and rewritten for review on its own."""
    structure, words = split_scene(scene)
    failures = []
    for data, path in ((structure, golden), (words, golden.with_name(golden.stem + ".words.json"))):
        try:
            check_golden(data, path)
        except pytest.fail.Exception as err:
            failures.append(str(err))
    if failures:
        pytest.fail("; ".join(failures))


# --- the lesson ------------------------------------------------------------------------------


def lesson_figure(lesson: Path, fig, figure_id: str) -> tuple[str, dict[str, str]]:
    """The lesson's text and the options of its ``:::{fig.name} figure_id`` directive,
    which must be there and pass the figure's own checks."""
    text = lesson.read_text(encoding="utf-8")
    pattern = rf"^:::\{{{re.escape(fig.name)}\}} {re.escape(figure_id)}\n((?::\w+: .*\n)*):::$"
    block = re.search(pattern, text, re.M)
    assert block, f"{lesson.name} has no {fig.name} figure with the id {figure_id!r}"
    options = dict(re.findall(r"^:(\w+): (.*)$", block.group(1), re.M))
    fig.parse_options({k: v for k, v in options.items() if k != "caption"})  # the page's, not the figure's
    return text, options


def questions(text: str) -> int:
    """How many check-yourself questions a lesson asks."""
    return len(re.findall(r"^::::\{question\} \S", text, re.M))


def lesson_roles(lesson: Path) -> list[dict]:
    """Every role of the lesson as the build resolves it (its ``raw`` source, ``role``,
    figure id, value name, ``index`` and the ``text`` written at build time)."""
    from explorables.site_builder.markdown.parser import create_parser, parse_page

    md = create_parser(raw_html=False)
    page = parse_page(md, lesson, lesson.stem)
    assert page.errors == [], page.errors
    return [token.meta for parent in page.tokens if parent.type == "inline"
            for token in parent.children or [] if token.type == "prose_role"]


def lesson_as_built(lesson: Path) -> str:
    """The lesson's Markdown with every live and adjustable number replaced by the number
    the build writes for it (the engine's, for the figure's first state): a quoted
    number that is a role is checked through the role."""
    text = lesson.read_text(encoding="utf-8")
    for meta in lesson_roles(lesson):
        if meta["role"] in ("value", "adjust"):
            text = text.replace(meta["raw"], meta["text"], 1)
        elif meta["role"] == "try":
            text = text.replace(meta["raw"], meta["words"], 1)
    return text


def agrees_under_pyodide(pyodide_node, tmp_path: Path, inputs: dict) -> dict:
    """Run a figure's first frame and a reader's events (``inputs``: figure, options,
    events) in CPython and, from the engine archive as the worker imports it, under
    Pyodide in Node (``pyodide_node``, the conftest fixture); assert the two agree (numbers
    within 1e-12, words equal) and return the CPython run, for a test's own checks."""
    import importlib.util

    from explorables.site_builder.pyodide.archive import engine_archive
    from test_engine_pyodide import NODE_DIR, _compare

    (tmp_path / "engine.zip").write_bytes(engine_archive())
    spec = importlib.util.spec_from_file_location("figure_checks", NODE_DIR / "figure_checks.py")
    assert spec is not None and spec.loader is not None
    checks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(checks)
    in_cpython = json.loads(json.dumps(checks.main(inputs), allow_nan=False))
    run = pyodide_node.run(NODE_DIR / "figure_checks.py", inputs, archive=tmp_path / "engine.zip")
    assert run.ok, f"node failed:\n{run.error[-3000:]}"
    in_pyodide = run.result
    assert (in_pyodide["platform"], in_pyodide["python"]) == ("emscripten", [3, 14])
    for key in ("platform", "python", "site_figures"):
        del in_pyodide[key], in_cpython[key]
    mismatches: list[str] = []
    _compare("result", in_pyodide, in_cpython, mismatches)
    assert not mismatches, f"{len(mismatches)} differences, first ones:\n" + "\n".join(mismatches[:20])
    return in_cpython


PUBLIC = ("__future__", "typing", "explorables.figures", "explorables.engine", "explorables.engine.exercises")


def outside_the_public_kit(paths) -> list[str]:
    """The imports of ``paths`` (an author's figure and exercise modules) that reach past
    the public kit and engine, or past math and random, as ``file: module``."""
    import ast

    found = []
    for path in paths:
        for node in ast.walk(ast.parse(Path(path).read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module not in PUBLIC:
                found.append(f"{Path(path).name}: {node.module}")
            elif isinstance(node, ast.Import):
                found += [f"{Path(path).name}: {a.name}" for a in node.names if a.name not in ("math", "random")]
    return found


def lines_words_aside(package: Path) -> int:
    """The lines of a figure package, its words.py left out."""
    return sum(len(p.read_text(encoding="utf-8").splitlines()) for p in package.glob("*.py") if p.name != "words.py")
