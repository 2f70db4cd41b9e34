# fmt: off
# Laid out by hand: tests/test_figure_kv_cache.py holds the package, words aside, to 250 lines.
"""The ``kv-cache`` figure: generating text one token at a time. Under the causal mask earlier
keys and values never change, so a decoder keeps them (the KV cache) and computes one row a
step; without it each step runs the prefix again. Counters: L layers of width D = h·d_k.
"""
from explorables.figures import (Choice, Experiment, Figure, Option, OptionError, Play, Slider, Toggle, Value, num,
                                 register)  # isort: skip_file

from . import scene, words as W
from .maths import LAST, TOKENS, cache_bytes, decode, divisors, kv_heads, recompute, step_cost, vectors


def step_message(s: dict) -> str:
    L, D, g, d_k = s["layers"], s["heads"] * s["d_k"], kv_heads(s), s["d_k"]
    return W.X_STEP[2].format(more=W.count(L * 2 * D), token=W.size(cache_bytes(1, L, g, d_k, s["bytes"])))


def off_message(s: dict) -> str:
    cost = [s["layers"] * step_cost(LAST, s["heads"] * s["d_k"], kv_heads(s), s["d_k"], c) for c in (True, False)]
    return W.X_OFF[2].format(n=LAST, full=W.count(cost[1]), cached=W.count(cost[0]), ratio=num(cost[1] / cost[0], 1))


def share_message(s: dict) -> str:
    memory = [W.size(cache_bytes(s["context"], s["layers"], g, s["d_k"], s["bytes"]))
              for g in (s["heads"], kv_heads(s), 1)]
    return W.X_SHARE[2].format(h=s["heads"], g=kv_heads(s), N=W.count(s["context"]), before=memory[0],
                               after=memory[1], one=memory[2])


EXPERIMENTS = (
    Experiment("step", W.X_STEP[0], W.X_STEP[1], set={"t": 0, "cache": True}, see=step_message),
    Experiment("no-cache", W.X_OFF[0], W.X_OFF[1], set={"t": LAST, "cache": False}, see=off_message),
    Experiment("share", W.X_SHARE[0], W.X_SHARE[1], set={"t": LAST, "share": "grouped"}, see=share_message,
               run=lambda s: s.update(groups=max(g for g in divisors(s["heads"]) if g <= 8))),
)


@register
class KVCache(Figure, words=W):
    """The causal table filling row by row, the kept keys and values, and what they cost."""

    name = "kv-cache"
    params = (
        Play("playing", W.PLAY, False, help=W.PLAY_HELP, near="table", interval=900, steps="t"),
        Slider("t", W.T, 0, lo=0, hi=LAST, integer=True, doc=W.DOC_T, near="table"),
        Toggle("cache", W.CACHE, True, doc=W.DOC_CACHE, near="kept"),
        Slider("layers", W.LAYERS, 32, lo=1, hi=128, integer=True, doc=W.DOC_LAYERS, near="counts"),
        Slider("heads", W.HEADS, 32, lo=1, hi=128, integer=True, doc=W.DOC_HEADS, near="counts"),
        Slider("d_k", W.DK, 128, lo=8, hi=256, integer=True, doc=W.DOC_DK, near="counts"),
        Choice("share", W.SHARE, "none", choices=W.SHARE_CHOICES, doc=W.DOC_SHARE, near="memory"),
        Choice("groups", W.GROUPS, 8, choices=lambda s: [(g, str(g)) for g in divisors(s["heads"])],
               doc=W.DOC_GROUPS, near="memory"),
        Choice("bytes", W.BYTES, 2, choices=W.BYTES_CHOICES, doc=W.DOC_BYTES, near="memory"),
    )
    extra_options = (Option("context", "int", 4096, W.DOC_CONTEXT, min=1, max=500_000),)
    values = (*(Value(name, "integer", W.DOCS[name]) for name in W.INTEGERS),
              *(Value(name, "text", W.DOCS[name], announce=W.SAY_MEMORY if name == "context_text" else "")
                for name in W.TEXTS),
              Value("ratio", "decimal", W.DOCS["ratio"], digits=1), Value("cache", "bool", W.DOC_CACHE),
              Value("weights", "matrix", W.DOCS["weights"]), Value("outputs", "matrix", W.DOCS["outputs"]),
              Value("playing", "bool", W.DOCS["playing"]))
    experiments = EXPERIMENTS

    def check_options(self, values: dict) -> None:
        if not str(values["groups"]).strip().isdigit() or int(values["groups"]) < 1:
            raise OptionError("groups", f"expected a whole number of groups (a divisor of :heads:), got "
                                        f"{values['groups']!r}")

    def setup(self, state: dict, options: dict) -> dict:
        state.update(context=int(options["context"]), groups=int(state["groups"]))
        return self.changed(state, "heads")

    def changed(self, state: dict, name: str) -> dict:
        if name == "heads":  # the groups divide the heads: keep the largest that does, up to the old g
            state["groups"] = max(g for g in divisors(state["heads"]) if g <= state["groups"])
        return state

    def compute(self, state: dict) -> dict:
        t, L, h, d_k = state["t"], state["layers"], state["heads"], state["d_k"]
        D, g, size = h * d_k, kv_heads(state), state["bytes"]
        Q, K, V = vectors()
        rows = (decode if state["cache"] else recompute)(Q, K, V, t + 1)
        square = [[0.0] * len(TOKENS) for _ in range(LAST - t)]  # the rows not generated yet

        def table(name: str) -> list:  # the rows' weights or scores, 0 right of the diagonal
            return [getattr(row, name) + [0.0] * (LAST - i) for i, row in enumerate(rows)] + square
        step = {c: L * step_cost(t, D, g, d_k, c) for c in (True, False)}
        total = {c: L * sum(step_cost(i, D, g, d_k, c) for i in range(t + 1)) for c in (True, False)}
        out = {"t": t, "n": t + 1, "D": D, "kv_heads": g, "cache": state["cache"], "playing": state["playing"],
               "step_cached": step[True], "step_full": step[False], "total_cached": total[True],
               "total_full": total[False], "ratio": total[False] / total[True],
               "cache_bytes": cache_bytes(t + 1, L, g, d_k, size), "token_bytes": cache_bytes(1, L, g, d_k, size),
               "context_bytes": cache_bytes(state["context"], L, g, d_k, size),
               "weights": table("weights"), "scores": table("scores"), "outputs": [row.output for row in rows],
               "context": state["context"]}
        out.update({name: W.size(out[name[:-5] + "_bytes"]) if name[:-5] + "_bytes" in out else
                    W.count(out[name[:-5]]) for name in W.TEXTS})
        return out

    def draw(self, state: dict, v: dict) -> list[dict]:
        return [scene.table(state, v), scene.kept(state, v), scene.counts(state, v), scene.memory(state, v)]

    def status(self, state: dict, v: dict) -> str:
        return W.STATUS.format(t=v["t"], word=TOKENS[v["t"]], n=v["n"], cached=v["step_cached_text"],
                               full=v["step_full_text"], memory=v["cache_text"])

    def controls(self, state: dict, v: dict) -> list[dict]:
        shown = [p for p in self.params if p.name != "groups" or state["share"] == "grouped"]
        return [*(p.control_dict(state) for p in shown), self.experiment_control(state, near="table")]
