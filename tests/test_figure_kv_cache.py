"""The kv-cache figure, its exercise type and lesson 7: options, events, scene, the
engine's numbers against an independent numpy reference, properties, experiments, a
golden first frame, and the numbers the lesson quotes.

The table's rows are decoded with a cache (one row a step, keys and values appended)
and must equal numpy's masked softmax of the whole table; decoding without a cache must
give the same rows. The counters are checked against the formulas written out here
again, and their growth: linear a step with the cache, quadratic without.
"""
from __future__ import annotations

import ast
import json
import re
from functools import partial

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorables.engine import runtime
from explorables.engine.exercises import EXERCISES
from explorables.engine.figures import FIGURES, FieldError
from explorables.engine.figures.kv_cache import maths
from explorables.figures import HINT
from figure_helpers import (ROOT, check_golden_split, control, is_num, lesson_as_built, lesson_figure, panel,
                            questions)
import figure_helpers

FIG = FIGURES["kv-cache"]
EXERCISE = EXERCISES["kv-cache-size"]
GOLDEN = ROOT / "tests" / "golden" / "kv_cache.json"
LESSON = ROOT / "content" / "07-generating-text.md"
PACKAGE = ROOT / "engine" / "figures" / "kv_cache"
EXPERIMENTS = [e.name for e in FIG.experiments]

first_state = partial(figure_helpers.first_state, FIG)
errors_of = partial(figure_helpers.errors_of, FIG)


def set_(state, name, value):
    return FIG.apply(state, {"type": "set", "name": name, "value": value})


def reference_weights(t: int) -> np.ndarray:
    """numpy's causal softmax(Q Kᵀ / √d_k) of the toy sentence's first t + 1 tokens."""
    Q, K, _ = (np.array(m) for m in maths.vectors())
    S = Q[: t + 1] @ K[: t + 1].T / np.sqrt(Q.shape[1])
    S[np.triu_indices(t + 1, 1)] = -np.inf
    E = np.exp(S - S.max(axis=1, keepdims=True))
    return E / E.sum(axis=1, keepdims=True)


def counts(t, L, D, g, d_k):
    """The multiply-adds written out again: (this step cached, without, totals cached, without)."""
    proj = D * D + 2 * D * g * d_k

    def cached(i):
        return L * (proj + 2 * (i + 1) * D)

    def full(i):
        return L * ((i + 1) * proj + (i + 1) * (i + 2) * D)

    return cached(t), full(t), sum(map(cached, range(t + 1))), sum(map(full, range(t + 1)))


# --- the package imports the public kit and engine alone ---------------------------------------


def test_the_figure_imports_only_the_public_kit_and_engine_and_stays_short():
    lines = 0
    for path in sorted(PACKAGE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 0:
                assert node.module.split(".")[:2] in (["explorables", "figures"], ["explorables", "engine"]) \
                    or node.module in ("__future__", "math"), (path.name, node.module)
                assert not node.module.startswith("explorables.engine.figures"), (path.name, node.module)
            elif isinstance(node, ast.Import):
                assert all(a.name in ("math",) for a in node.names), path.name
        if path.name != "words.py":
            lines += len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= 250
    source = (ROOT / "engine" / "exercises" / "kv_cache_size.py").read_text(encoding="utf-8")
    imports = [n for n in ast.walk(ast.parse(source)) if isinstance(n, (ast.Import, ast.ImportFrom))]
    assert {getattr(n, "module", None) or n.names[0].name for n in imports} == {"__future__", "random",
                                                                                 "explorables.figures"}


# --- options ------------------------------------------------------------------------------


def test_defaults():
    state = first_state()
    assert {k: state[k] for k in ("t", "cache", "layers", "heads", "d_k", "share", "groups", "bytes",
                                  "context", "playing")} == {
        "t": 0, "cache": True, "layers": 32, "heads": 32, "d_k": 128, "share": "none", "groups": 8, "bytes": 2,
        "context": 4096, "playing": False}
    assert json.loads(json.dumps(state, allow_nan=False)) == state
    assert [o.name for o in FIG.options] == ["t", "cache", "layers", "heads", "d_k", "share", "groups", "bytes",
                                            "context"]
    assert all(o.doc.strip() for o in FIG.options)


@pytest.mark.parametrize("options, expected", [
    ({"t": "8"}, [("t", "expected an integer from 0 to 7, got '8'")]),
    ({"layers": "0"}, [("layers", "expected an integer from 1 to 128, got '0'")]),
    ({"d_k": "4"}, [("d_k", "expected an integer from 8 to 256, got '4'")]),
    ({"share": "all"}, [("share", "expected one of none, grouped, one, got 'all'")]),
    ({"bytes": "3"}, [("bytes", "expected one of 4, 2, 1, got '3'")]),
    ({"groups": "two"}, [("groups", "expected a whole number of groups (a divisor of :heads:), got 'two'")]),
    ({"context": "0"}, [("context", "expected an integer from 1 to 500000, got '0'")]),
])
def test_option_errors_have_exact_text(options, expected):
    assert errors_of(options) == expected


def test_options_set_the_first_state_and_reset_returns_to_them():
    state = first_state(t=3, cache="false", layers=12, heads=12, d_k=64, share="grouped", groups=4, bytes=4,
                        context=1024)
    assert (state["t"], state["cache"], state["heads"], state["groups"], state["context"]) == (3, False, 12, 4, 1024)
    moved = FIG.patch(state, {"t": 6, "layers": 2})
    assert FIG.apply(moved, {"type": "action", "name": "reset"}) == state


# --- events -------------------------------------------------------------------------------


def test_play_ticks_and_wraps():
    state = set_(first_state(), "playing", True)
    play = control(FIG.scene(state), "playing")
    assert play["kind"] == "play" and play["event"] == {"type": "action", "name": "tick"} and play["interval"] > 0
    seen = []
    for _ in range(10):
        state = FIG.apply(state, play["event"])
        seen.append(state["t"])
    assert seen == [1, 2, 3, 4, 5, 6, 7, 0, 1, 2]


def test_fewer_heads_keep_a_group_count_that_divides_them():
    state = set_(set_(first_state(), "share", "grouped"), "heads", 12)
    assert state["groups"] == 6  # 8 does not divide 12: the largest divisor up to 8
    groups = control(FIG.scene(state), "groups")
    assert [o["value"] for o in groups["options"]] == ["1", "2", "3", "4", "6", "12"]
    assert FIG.scene(state)["values"]["kv_heads"] == 6
    assert "groups" not in {c["name"] for c in FIG.scene(set_(state, "share", "none"))["controls"]}


@pytest.mark.parametrize("name, value, message", [
    ("t", 9, "Token t must be a whole number from 0 to 7, got 9"),
    ("t", "x", "Token t must be a number, got 'x'"),
    ("layers", 0, "Layers L must be a whole number from 1 to 128, got 0"),
    ("groups", 5, "groups must be one of 1, 2, 4, 8, 16, 32, got '5'"),
    ("cache", "maybe", "cache must be true or false, got 'maybe'"),
])
def test_bad_input_is_refused_with_exact_text(name, value, message):
    state = first_state()
    with pytest.raises(FieldError) as info:
        set_(state, name, value)
    assert info.value.message == message
    assert runtime.step("kv-cache", state, {"type": "set", "name": name, "value": value}) == {
        "ok": False, "error": message, "field": name}


# --- the scene against numpy and the formulas ------------------------------------------------


def check_scene(scene, state):
    json.dumps(scene, allow_nan=False)
    t, v = state["t"], scene["values"]
    L, h, d_k = state["layers"], state["heads"], state["d_k"]
    g = {"none": h, "grouped": state["groups"], "one": 1}[state["share"]]
    ref = reference_weights(t)
    got = np.array(v["weights"])
    assert got.shape == (8, 8)
    assert np.allclose(got[: t + 1, : t + 1], ref, atol=1e-12, rtol=0)
    assert not got[t + 1:].any() and not np.triu(got, 1).any()
    assert (v["step_cached"], v["step_full"], v["total_cached"], v["total_full"]) == counts(t, L, h * d_k, g, d_k)
    assert v["cache_bytes"] == 2 * (t + 1) * L * g * d_k * state["bytes"]
    assert v["context_bytes"] == 2 * state["context"] * L * g * d_k * state["bytes"]
    assert all(is_num(x) for x in (v["ratio"], v["cache_bytes"], v["step_full"]))

    table = panel(scene, "table")
    assert table["active_row"] == t and len(table["rows"]) == 8
    for i, row in enumerate(table["rows"]):
        for j, cell in enumerate(row):
            if j <= i <= t:
                assert cell["text"] == f"{ref[i, j]:.2f}" and cell["tone"] == round(ref[i, j], 3)
                score = float(np.array(maths.vectors()[0][i]) @ np.array(maths.vectors()[1][j]) / 2)
                assert cell["detail"][0].startswith(f"s = q·k ÷ √4 = {score:.2f}".replace("-", "−"))
                assert not cell.get("muted")
            else:
                assert cell.get("text", "") == "" and cell["muted"] is True and "detail" not in cell
    kept = panel(scene, "kept")
    words = [cell.get("text", "") for cell in kept["rows"][0]]
    assert kept["rows"][1] == kept["rows"][0] or [c.get("text", "") for c in kept["rows"][1]] == words
    expected = ["kept" if state["cache"] else "again"] * t + ["new"] + [""] * (7 - t)
    assert words == expected
    items = dict(panel(scene, "counts")["items"])
    assert items["This token, with the cache"] == v["step_cached_text"]
    assert dict(panel(scene, "memory")["items"])[f"Up to token {t}"] == v["cache_text"]


@settings(max_examples=40, deadline=None)
@given(t=st.integers(0, 7), cache=st.booleans(), L=st.integers(1, 128), h=st.sampled_from([1, 2, 8, 12, 32, 64]),
       d_k=st.integers(8, 256), share=st.sampled_from(["none", "grouped", "one"]), size=st.sampled_from([1, 2, 4]))
def test_scene_invariants_everywhere(t, cache, L, h, d_k, share, size):
    state = FIG.patch(first_state(), {"heads": h, "t": t, "cache": cache, "layers": L, "d_k": d_k, "share": share,
                                      "bytes": size})
    check_scene(FIG.scene(state), state)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 9).flatmap(lambda n: st.tuples(*(
    st.lists(st.lists(st.floats(-3, 3), min_size=3, max_size=3), min_size=n, max_size=n) for _ in range(3)))))
def test_cached_and_uncached_rows_are_equal(qkv):
    """Keeping the keys and values changes no row: decoding with the cache gives the rows
    of the whole causal table computed again, to the last bits."""
    Q, K, V = qkv
    with_cache, without = maths.decode(Q, K, V, len(Q)), maths.recompute(Q, K, V, len(Q))
    for a, b in zip(with_cache, without):
        assert np.allclose(a.weights, b.weights, atol=1e-12, rtol=0)
        assert np.allclose(a.output, b.output, atol=1e-12, rtol=0)


@settings(max_examples=60, deadline=None)
@given(D=st.integers(1, 512), g=st.integers(1, 16), d_k=st.integers(1, 128), i=st.integers(0, 5000))
def test_a_step_grows_linearly_with_the_cache_and_quadratically_without(D, g, d_k, i):
    cached = [maths.step_cost(i + k, D, g, d_k, True) for k in range(3)]
    full = [maths.step_cost(i + k, D, g, d_k, False) for k in range(3)]
    assert cached[1] - cached[0] == cached[2] - cached[1] == 2 * D  # each token reads one more key
    assert (full[2] - full[1]) - (full[1] - full[0]) == 2 * D  # a constant second difference: n²
    assert full[0] == (i + 1) * maths.projection(D, g, d_k) + (i + 1) * (i + 2) * D >= cached[0]


def test_the_first_frame_and_the_last_token():
    state = first_state()
    check_scene(FIG.scene(state), state)
    last = set_(state, "t", 7)
    v = FIG.scene(last)["values"]
    assert (v["cache_text"], v["token_text"], v["context_text"]) == ("4 MiB", "512 KiB", "2 GiB")
    assert v["token_bytes"] == 524_288 and v["context_bytes"] == 2 ** 31
    assert v["step_cached_text"] == "1.61 × 10⁹"


# --- experiments ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", EXPERIMENTS)
def test_each_experiment_sets_the_controls_and_says_what_to_look_for(name):
    state = set_(first_state(), "layers", 3)
    new = FIG.apply(state, {"type": "action", "name": name})
    assert new["experiment"] == name and new["message"] != HINT and new["layers"] == 32
    scene = FIG.scene(new)
    assert control(scene, "experiments")["message"] == new["message"]
    check_scene(scene, new)
    after = set_(new, "t", 2)
    assert after["experiment"] is None and after["message"] == HINT


def test_experiment_messages_quote_the_engine():
    start = first_state()
    msg = FIG.apply(start, {"type": "action", "name": "step"})["message"]
    assert msg.startswith("Press Play, or move the token slider")
    assert "2·L·D = 2.62 × 10⁵ a token" in msg and "by 512 KiB a token" in msg
    state = FIG.apply(start, {"type": "action", "name": "no-cache"})
    c, f, _, _ = counts(7, 32, 4096, 32, 128)
    assert state["cache"] is False and f"{f / c:.1f} times as many" in state["message"]
    assert "At token 7 this step costs 1.29 × 10¹⁰ multiply-adds instead of 1.61 × 10⁹" in state["message"]
    state = FIG.apply(start, {"type": "action", "name": "share"})
    assert (state["share"], state["groups"]) == ("grouped", 8)
    assert "after 4096 tokens, 2 GiB becomes 512 MiB" in state["message"] and "gives 64 MiB" in state["message"]


def test_golden_first_frame():
    """The lesson's first frame, reviewed by hand (see test_figure_positional_encoding)."""
    check_golden_split(FIG.scene(first_state(t=5)), GOLDEN)


# --- the exercise type ----------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(1, 40))
def test_the_exercise_solves_and_its_mistakes_are_told_apart(seed):
    p = EXERCISE.generate(seed)
    assert p == EXERCISE.generate(seed) and p["h"] % p["g"] == 0 and p["g"] < p["h"]
    right = 2 * p["n"] * p["L"] * p["g"] * p["d_k"] * p["b"] / 2 ** 20
    assert EXERCISE.solve(p) == right
    assert EXERCISE.grade(seed, f"{right:.2f}", False).ok
    wrong = {"one-of-k-and-v": right / 2, "heads-not-groups": right * p["h"] / p["g"], "one-layer": right / p["L"],
             "megabytes": right * 2 ** 20 / 10 ** 6}
    for name, answer in wrong.items():
        verdict = EXERCISE.grade(seed, f"{answer:.4f}", False)
        assert not verdict.ok and verdict.mistake == name, (name, verdict)
    statement = EXERCISE.problem(seed, True)["statement"]
    assert f"<mn>{p['n']}</mn>" in statement and "MiB" in statement


# --- the lesson quotes the engine -------------------------------------------------------------


def test_the_lesson_places_the_figure_and_asks():
    text, options = lesson_figure(LESSON, FIG, "kv")
    assert re.search(r"^order: 7$", text, re.M) and options["caption"] and options["t"] == "5"
    assert questions(text) >= 3
    assert re.search(r"^:::\{exercise\} kv-cache-size$", text, re.M)
    assert "{numref}`kv`" in text


def test_the_lesson_states_the_engine_numbers():
    text = re.sub(r"\s+", " ", lesson_as_built(LESSON))
    v = FIG.scene(first_state(t=5))["values"]
    per_token = maths.cache_bytes(1, 32, 32, 128, 2)
    grouped = FIG.scene(FIG.apply(first_state(), {"type": "action", "name": "share"}))["values"]
    one = FIG.scene(FIG.patch(first_state(), {"share": "one"}))["values"]
    assert per_token == 524_288 and v["token_text"] == "512 KiB" and v["context_text"] == "2 GiB"
    assert (grouped["context_text"], one["context_text"]) == ("512 MiB", "64 MiB")
    D = 4096
    crossing = 3 * D // 2  # the row's 2nD overtakes the projections' 3D² (nothing shared)
    assert crossing == 6144
    assert maths.step_cost(crossing - 1, D, 32, 128, True) == 2 * maths.projection(D, 32, 128)
    claims = [
        "$2 \\cdot 32 \\cdot 4096 \\cdot 2 = 524{,}288$ bytes, 512 KiB",
        "A context of 4,096 tokens takes 2 GiB",
        "2 GiB of 4,096 tokens become 512 MiB, and with one pair for all heads ($g = 1$), 64 MiB",
        "overtakes the projections at $n = 3D/2 = 6{,}144$ tokens",
        f"the cache of {{numref}}`kv` after 4,096 tokens takes {v['context_text']}",
        f"its query reads {v['n']} keys counting its own",
        f"spends {v['step_cached_text']} multiply-adds on the step",
    ]
    for claim in claims:
        assert claim in text, claim


# --- the same numbers under Pyodide ------------------------------------------------------------


@pytest.mark.pyodide
def test_the_figure_agrees_under_pyodide(pyodide_node, tmp_path):
    """The first frame and a reader's events, run by the engine archive's modules under
    Pyodide (Node, no browser), give the CPython numbers within 1e-12 and the same words."""
    inputs = {"figure": "kv-cache", "options": {"t": "2", "heads": "12", "share": "grouped"},
              "events": [{"type": "set", "name": "t", "value": "7"}, {"type": "action", "name": "tick"},
                         {"type": "set", "name": "cache", "value": False}, {"type": "action", "name": "share"},
                         {"type": "set", "name": "groups", "value": "5"}, {"type": "patch", "patch": {"d_k": 64}}]}
    in_cpython = figure_helpers.agrees_under_pyodide(pyodide_node, tmp_path, inputs)
    assert [s["ok"] for s in in_cpython["steps"]] == [True, True, True, True, False, True]
    assert in_cpython["first"]["values"]["kv_heads"] == 6  # 8 groups do not divide 12 heads
    assert in_cpython["steps"][3]["state"]["groups"] == 6  # nor does the experiment give them 8
