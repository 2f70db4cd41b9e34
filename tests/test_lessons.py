"""The lesson track as a whole: its order, the notation box every lesson links, the
"How to use this figure" blocks, and every number the lessons state that the figure
tests do not already check, computed here with the engine or the figures' own models.

Claims are compared with line breaks and indents folded into single spaces.
"""
from __future__ import annotations

import math
import re
import struct

import pytest

from explorables import engine
from explorables.engine.figures import FIGURES
from explorables.engine.figures import attention_heatmap as hm
from explorables.engine.figures import attention_lab as lab
from explorables.engine.figures.attention_heatmap import presets as hm_presets
from explorables.engine.figures.sentences import sentence
from explorables.figures import num
from explorables.site_builder.markdown.parser import create_parser, parse_page, render_page
from figure_helpers import ROOT, first_state, lesson_as_built

CONTENT = ROOT / "content"
NOTATION = "index.html#notation-and-prerequisites"
TRACK = [(p.name, int(p.name[:2])) for p in sorted(CONTENT.glob("0*.md"))]  # file, its place in the track


def flat(m):
    return [x for row in m for x in row]


def text_of(name: str) -> str:
    return " ".join((CONTENT / name).read_text(encoding="utf-8").split())


def has(name: str, *claims: str) -> None:
    text = text_of(name)
    for claim in claims:
        assert " ".join(claim.split()) in text, f"{name}: {claim}"


def rendered(name: str) -> str:
    md = create_parser(raw_html=False)
    page = parse_page(md, CONTENT / name, "index" if name == "index.md" else name)
    assert page.errors == []
    return render_page(md, page)


# --- the track ------------------------------------------------------------------------------------


def test_the_track_runs_row_table_lab_heads_position():
    for name, order in TRACK:
        assert re.search(rf"^order: {order}$", (CONTENT / name).read_text(encoding="utf-8"), re.M), name


@pytest.mark.parametrize("name, previous", [
    ("02-attention-heatmap.md", "In the first lesson one token asked its question"),
    ("03-attention-lab.md", "In the first two lessons the queries, keys and values were given by hand"),
    ("04-two-heads.md", "In the lab every token produced one weighted average"),
    ("05-positional-encoding.md", "Lessons 2 and 3 used a *position tag*"),
])
def test_each_lesson_opens_from_the_one_before(name, previous):
    body = (CONTENT / name).read_text(encoding="utf-8").split("---", 2)[2].strip()
    assert body.startswith(previous)


def test_lessons_refer_to_one_another_by_their_place_in_the_track():
    """Regression: "a later lesson", "the previous lesson" went stale when the order changed."""
    topics = dict((order, name) for name, order in TRACK)
    for name, order in TRACK:
        text = text_of(name)
        assert "previous lesson" not in text and "later lesson" not in text, name
        for n in map(int, re.findall(r"[Ll]essons? (\d)", text)):
            assert n in topics and n != order, (name, n)


def test_the_notation_box_exists_and_defines_what_the_lessons_assume():
    html = rendered("index.md")
    assert 'id="notation-and-prerequisites"' in html
    box = html.split('id="notation-and-prerequisites"', 1)[1].split("<h2", 1)[0]
    for term in ("Token", "Transpose", "Row vectors", "Entropy", "temperature", "width of the model"):
        assert term in box, term
    source = text_of("index.md")
    for symbol in ("$w_0, \\dots, w_{n-1}$", "$t$ and $u$ are positions", "$r$ names one head", "$d_v$",
                   "$\\omega$", "$\\alpha$", "$W_O$", "$M$: a mask", "$R_k$", "$\\theta_i$", "$e(w)$", "$p_t$"):
        assert symbol in source, symbol
    assert f"($\\omega = {hm.OMEGA}$ in lesson 2, ${engine.OMEGA}$ in lesson 3)" in source
    # the track list comes after the body: the box must not sit between "The track" and it
    assert html.rindex("<h2") == html.index('id="the-track"') - len("<h2 ")


def test_one_notation_across_the_track():
    """Corrects: lesson 2 counting tokens from 1, s for a position and for a score, h for the
    number of heads and for one head, M for a mask and for a rotation, and the toy tags'
    angle per step written as two bare numbers."""
    lessons = {name: text_of(name) for name, _ in TRACK}
    assert "q_1, \\dots, q_n" not in lessons["02-attention-heatmap.md"]
    assert "$q_0, \\dots, q_{n-1}$" in lessons["02-attention-heatmap.md"]
    assert not re.search(r"PE\(s\)|e_s\b|\$s = t|at \$s =", lessons["05-positional-encoding.md"])
    assert "M_k" not in lessons["05-positional-encoding.md"] and "$R_k$" in lessons["05-positional-encoding.md"]
    assert not re.search(r"Head \$h\$|\^h\b|\^h_", lessons["04-two-heads.md"])
    assert "$\\omega = 0.5$ radian per word" in lessons["02-attention-heatmap.md"]
    assert hm.OMEGA == 0.5
    assert "$p_t = (\\sin \\omega t, \\cos \\omega t)$" in lessons["03-attention-lab.md"]
    assert "This tag turns $\\omega = 0.6$ radian a step" in lessons["03-attention-lab.md"]
    assert "half a radian" not in lessons["02-attention-heatmap.md"] and engine.OMEGA == 0.6


@pytest.mark.parametrize("name", [name for name, _ in TRACK])
def test_every_lesson_links_the_notation_box(name):
    assert f'href="{NOTATION}"' in rendered(name)


@pytest.mark.parametrize("name", [name for name, _ in TRACK])
def test_every_figure_has_a_folded_how_to_use_block(name):
    source = (CONTENT / name).read_text(encoding="utf-8")
    figures = re.findall(r"^:::\{([\w-]+)\} ", source, re.M)
    assert sum(f in FIGURES for f in figures) == 1
    assert "\n:::{details} How to use this figure\n" in source
    assert '<details class="ex-details">\n<summary>How to use this figure</summary>' in rendered(name)


def test_a_details_block_without_summary_or_body_is_an_error_with_its_line(tmp_path):
    source = tmp_path / "bad.md"
    source.write_text("Text.\n\n:::{details}\n:::\n", encoding="utf-8")
    md = create_parser(raw_html=False)
    errors = parse_page(md, source, "bad").errors
    assert [(e.line, e.message) for e in errors] == [
        (3, "{details} needs a summary after the name"), (3, "{details} has nothing to fold")]


@pytest.mark.parametrize("name", [name for name, _ in TRACK])
def test_no_figure_is_left_with_a_bare_number(name):
    """Pins a reader's finding: lesson 1's figure, referenced from the text, ended with
    "Figure 1" and nothing after it."""
    captions = re.findall(r'<figcaption class="ex-caption">(.*?)</figcaption>', rendered(name), re.S)
    assert all(not c.endswith("</span>") for c in captions), captions


EXERCISES_TAUGHT = {  # each lesson's engine-graded exercises, for the skills it teaches, in order
    "01-one-query-row.md": ["scaled-score", "softmax-weight"],
    "02-attention-heatmap.md": ["output-vector"],
    "03-attention-lab.md": ["projected-score"],
    "04-two-heads.md": ["head-concat"],
    "05-positional-encoding.md": ["offset-similarity"],
    "06-rotary-positions.md": ["rotary-score"],
    "07-generating-text.md": ["kv-cache-size"],
    "08-cross-attention.md": ["residual-sum"],
}


@pytest.mark.parametrize("name", [name for name, _ in TRACK])
def test_every_lesson_has_an_exercise_on_what_it_has_taught(name):
    """Lessons 4 and 5 had none, and lesson 3's asked for a softmax weight, lesson 1's skill."""
    source = (CONTENT / name).read_text(encoding="utf-8")
    assert re.findall(r"^:::\{exercise\} ([\w-]+)$", source, re.M) == EXERCISES_TAUGHT[name]
    html = rendered(name)
    assert html.count('<div class="ex-exercise"') == len(EXERCISES_TAUGHT[name])
    # after the body: in the check-yourself section
    assert html.index('<div class="ex-exercise"') > html.index('id="check-yourself"')


@pytest.mark.parametrize("name", [name for name, _ in TRACK])
def test_every_figure_is_captioned_numbered_and_referred_to_by_its_number(name):
    source = (CONTENT / name).read_text(encoding="utf-8")
    ids = [i for kind, i in re.findall(r"^:::\{([\w-]+)\} ([\w-]+)$", source, re.M) if kind in FIGURES]
    html = rendered(name)
    captions = re.findall(r'<figcaption class="ex-caption">(.*?)</figcaption>', html, re.S)
    assert len(captions) == len(ids) >= 1
    for n, (figure, caption) in enumerate(zip(ids, captions), 1):
        assert caption.startswith(f'<span class="ex-caption-number">Figure {n}.</span> ') and len(caption) > 60
        assert f'<a class="ex-ref" href="#{figure}">Figure {n}</a>' in html, figure
    prose = re.sub(r":::\{details\}.*?\n:::\n", "", source, flags=re.S).split("## Check yourself")[0]
    assert "the figure" not in " ".join(prose.split())  # the prose says which: "Figure 1"


def test_the_track_is_shorter():
    """The five lessons held 8,959 words before the review; they now say more in fewer.
    The references cover heads and the table in about 825 words of prose; ours add worked
    problems, the cost derivation and the measured experiments, and stay under 2,600."""
    words = {name: len(lesson_as_built(CONTENT / name).split()) for name, _ in TRACK[:5]}  # roles as read
    assert sum(words.values()) < 7400, words
    assert words["04-two-heads.md"] + words["02-attention-heatmap.md"] < 2600, words


# --- lesson 1: one query row ----------------------------------------------------------------------

ROW = FIGURES["attention-row"]


def test_lesson_1_entropy_and_scaling_numbers():
    has("01-one-query-row.md",
        f"$\\ln 6 = {num(engine.entropy([1 / 6] * 6))}$ when six words share it evenly",
        f"raw dot products of {math.sqrt(64):.0f} are ordinary",
        f"the factor is only $\\sqrt{{2}} \\approx {math.sqrt(2):.2f}$")


def test_lesson_1_scaling_keys_and_query_is_a_temperature():
    """Corrects: "lowering the temperature and lengthening the vectors are the same move"."""
    s = first_state(ROW)
    q, K, V = s["q"][2], s["k"], s["v"]

    def weights(query, keys, T):
        return engine.attention([query], keys, V, temperature=T).weights[0]

    twice = lambda v: [2 * x for x in v]  # noqa: E731
    base = weights(q, K, 1.0)
    assert weights(q, [twice(k) for k in K], 1.0) == pytest.approx(weights(q, K, 0.5), abs=1e-12)
    assert weights(twice(q), K, 1.0) == pytest.approx(weights(q, K, 0.5), abs=1e-12)
    both = weights(twice(q), [twice(k) for k in K], 1.0)
    assert both == pytest.approx(weights(q, K, 0.25), abs=1e-12)
    assert both != pytest.approx(weights(q, K, 0.5), abs=1e-3) and base != both
    has("01-one-query-row.md",
        "Multiplying every key by $c$ multiplies every score by $c$, exactly as dividing $T$ by $c$ does",
        "Doubling both the query and the keys multiplies the scores by 4, like $T = 0.25$")


def test_lesson_1_the_gaps_between_the_scores_grow_as_t_falls_while_the_scores_stay():
    """Corrects: "gaps between scores grow" beside "scores never move"."""
    s = first_state(ROW)
    scores = engine.attention([s["q"][2]], s["k"], s["v"]).scores[0]
    gap = max(scores) - min(scores)
    assert gap / 0.1 > gap / 1.0
    has("01-one-query-row.md", "The scores $s_j$ in the score row never move with $T$",
        "gaps between the $s_j / T$ grow")


def test_lesson_1_temperature_is_a_teaching_dial_with_two_limits():
    """Corrects: "language models use it when they pick the next word" (that temperature divides
    the output logits), and states both limits: 1/m as T grows, one-hot (ties split) as T -> 0."""
    s = first_state(ROW)
    scores = engine.attention([s["q"][2]], s["k"], s["v"]).scores[0]
    assert engine.softmax(scores, temperature=1e6) == pytest.approx([1 / 6] * 6, abs=1e-5)
    visible = [j <= 2 for j in range(6)]
    assert engine.softmax(scores, temperature=1e6, mask=visible)[:3] == pytest.approx([1 / 3] * 3, abs=1e-5)
    cold = engine.softmax(scores, temperature=1e-3)
    assert max(cold) == pytest.approx(1.0) and cold.index(max(cold)) == scores.index(max(scores))
    assert engine.softmax([1.0, 1.0, 0.2], temperature=1e-3) == pytest.approx([0.5, 0.5, 0.0], abs=1e-9)
    has("01-one-query-row.md", "Attention itself has no such dial: its only divisor is the fixed $\\sqrt{d_k}$",
        "its output scores over the whole vocabulary", "Here $T$ is a teaching dial",
        "as $T$ grows the row tends to an even $1/m$ over the $m$ keys it may read",
        "as $T \\to 0$ it becomes one-hot on the top score", "a tie for the top splits the weight evenly")
    assert "language models use it when they pick the next word" not in text_of("01-one-query-row.md")


def test_lesson_1_says_the_layer_adds_its_output_back():
    has("01-one-query-row.md", "A real layer does not put $o$ in the place of the token's vector $x$",
        "the token leaves the layer as $x + o\\,W_O$")


def test_the_entropy_and_the_temperature_rule_are_each_stated_once():
    """Entropy was defined three times and "temperature equals score scale" said four times;
    each is stated in lesson 1 and referred back to after."""
    lessons = {name: text_of(name) for name, _ in TRACK}
    box = text_of("index.md")
    assert "\\ln a_j" not in box and "defined in lesson 1" in box
    assert sum("-\\sum_j a" in text for text in lessons.values()) == 1
    assert "H = -\\sum_j a_j \\ln a_j" in lessons["01-one-query-row.md"]
    assert "as defined in lesson 1" in lessons["02-attention-heatmap.md"]
    assert "exactly as dividing $T$ by $c$ does" in lessons["01-one-query-row.md"]
    assert "the rule of lesson 1" in lessons["03-attention-lab.md"]
    assert "by the rule of lesson 1 acts as a temperature" in lessons["04-two-heads.md"]
    assert "how do the two tables compare" not in lessons["03-attention-lab.md"]


def test_lesson_1_adding_a_constant_changes_no_weight():
    s = first_state(ROW)
    scores = engine.attention([s["q"][2]], s["k"], s["v"]).scores[0]
    assert engine.softmax([x + 5 for x in scores]) == pytest.approx(engine.softmax(scores), abs=1e-12)
    has("01-one-query-row.md", "Adding 5 to every score of a row: what happens to the weights? Nothing.")


def test_lesson_1_says_what_the_track_leaves_out():
    """Corrects: the promise that later lessons add the feed-forward network, residuals
    and normalisation (lesson 8 now does: lesson 1 sends the reader there). Per layer and model width D: attention's W_Q, W_K, W_V, W_O hold
    4 D^2 numbers, a feed-forward network of hidden width 4 D holds 2 * 4 D^2."""
    D = 512
    attention_params, ffn_params = 4 * D * D, 2 * D * (4 * D)
    assert ffn_params / (attention_params + ffn_params) == pytest.approx(2 / 3)
    has("01-one-query-row.md", "hidden layer is about 4 times as wide as the model",
        "holds about two thirds of a layer's parameters", "Lesson 8 puts attention in that block")
    assert "The later lessons add these pieces" not in text_of("01-one-query-row.md")


def test_lesson_1_mask_and_encoders():
    """Corrects: "they have not been written yet" (training feeds the whole text at once)
    and "classify or translate it, leave the mask off" (a translation decoder is causal)."""
    has("01-one-query-row.md", "In training the whole text is fed in at once",
        "such as the encoders used to classify text, leave the mask off")
    assert "translate" not in text_of("01-one-query-row.md")


# --- lesson 2: the table --------------------------------------------------------------------------

HEAT = FIGURES["attention-heatmap"]


def heat_result(**patch):
    state = dict(first_state(HEAT), **patch)
    return hm.result(state)


def test_lesson_2_rows_add_up_to_1_and_columns_to_anything_up_to_n():
    """The question asks what a column can add up to (it used to ask which of the two add
    up to 1, which the body had just said); its columns are the figure's first table."""
    r = heat_result()
    assert all(math.isclose(sum(row), 1.0) for row in r.weights)
    columns = [sum(row[j] for row in r.weights) for j in range(len(r.weights))]
    assert max(columns) == columns[2] and min(columns) == columns[0]  # dog, the first "the"
    has("02-attention-heatmap.md", "Every row of weights adds up to 1. What can a column add up to?",
        f"the column of *dog* adds up to {num(columns[2])}, that of the first *the* to {num(columns[0])}.")


def test_lesson_2_entropy_bounds_under_the_causal_mask():
    """Corrects: "A row that puts all its weight on one key has H = 0" with no mask in sight."""
    free = heat_result()
    assert min(free.entropy) > 0  # without a mask no row reaches 0
    masked = heat_result(causal=True)
    assert masked.entropy[0] == 0
    for i, H in enumerate(masked.entropy):
        assert H <= math.log(i + 1) + 1e-12
    has("02-attention-heatmap.md", "which only a mask can force",
        "under the causal mask row $i$ reads $i + 1$ keys, so its entropy is at most $\\ln(i + 1)$",
        "The weights are non-negative and add up to 1")


def test_lesson_2_masks_with_minus_infinity_or_the_format_s_minimum():
    """Corrects: "a large finite negative number, such as -10^9": it does not fit in fp16, whose
    largest number is 65,504; a finite value matters only for a row masked whole (NaN with -inf)."""
    r = heat_result()
    scores = r.scores[2]
    visible = [j <= 2 for j in range(len(scores))]
    fp16_max = struct.unpack("<e", struct.pack("<H", 0x7BFF))[0]
    assert fp16_max == 65504
    with pytest.raises(OverflowError):
        struct.pack("<e", -1e9)
    by_minimum = engine.softmax([s + (0.0 if v else -fp16_max) for s, v in zip(scores, visible)])
    assert by_minimum == pytest.approx(engine.softmax(scores, mask=visible), abs=1e-12)
    whole_row = [-math.inf] * 3
    top = max(whole_row)
    assert all(math.isnan(math.exp(s - top)) for s in whole_row)  # the softmax's usual shift: -inf - -inf
    has("02-attention-heatmap.md", "Libraries write $-\\infty$ or the most negative number the format holds",
        "$-10^9$ would not fit in half precision (fp16), whose largest number is 65,504",
        "A finite value matters only when a whole row is masked, where $-\\infty$ gives NaN")
    assert "such as $-10^9$, which gives the same weights" not in text_of("02-attention-heatmap.md")


def test_lesson_2_says_distance_fixes_no_weight_only_in_this_formula():
    has("02-attention-heatmap.md", "In this formula no weight is fixed by distance",
        "some models add a bias set by distance alone, such as ALiBi and T5")


def test_lesson_2_cost_counts():
    """Lesson 2 keeps the square, its memory and FlashAttention; the costs that need D, the
    projections, the heads and the feed-forward network are in lesson 4 (test below)."""
    has("02-attention-heatmap.md", f"{12 * 12} for twelve tokens, {24 * 24} for 24",
        "Computing them takes $n^2 d_k$ multiply-adds, and $AV$ takes $n^2 d_v$",
        "Lesson 4 sets this square beside the rest of a layer's cost",
        "memory grows like $n$ while the arithmetic stays $n^2$")
    assert "and so does $AV$" not in text_of("02-attention-heatmap.md")
    assert "nD^2" not in text_of("02-attention-heatmap.md")


def test_lesson_4_the_whole_layer_s_cost():
    """Corrects: O(n^2) time and memory as the whole story. Per layer with width D: the
    four projections take 4 n D^2 multiply-adds, the feed-forward network 8 n D^2, the
    tables of all heads 2 n^2 D (n^2 D for Q K^T, n^2 D for A V); the square costs more
    than everything else once n > 6 D."""
    D, h, n = 512, 8, 100
    assert h * 2 * n * n * (D // h) == 2 * n * n * D  # h tables, each with d_k = d_v = D / h

    def square(n):
        return 2 * n * n * D

    def rest(n):
        return 4 * n * D * D + 8 * n * D * D

    crossing = next(n for n in range(1, 100 * D) if square(n) > rest(n))
    assert crossing == 6 * D + 1
    has("04-two-heads.md",
        "the projections $W_Q$, $W_K$, $W_V$ and $W_O$ cost about $4nD^2$ multiply-adds",
        "with its hidden layer $4D$ wide, about $8nD^2$",
        "the tables of all heads, half for the scores and half for $AV$, cost about $2n^2 D$",
        f"larger than about $6D$: for $D = 512$, beyond about {6 * D:,} tokens")


# --- lesson 3: the lab ----------------------------------------------------------------------------


def lab_X(key="pronoun", alpha=0.0):
    tokens = sentence(key).text.split()
    return engine.embed_with_position([list(lab.VOCAB[w]) for w in tokens], alpha, omega=0.6)


I = [[1.0, 0.0], [0.0, 1.0]]


def test_lesson_3_only_w_q_w_k_transpose_matters():
    X = lab_X()
    plain = engine.self_attention(X, I, I, I)
    moved = engine.self_attention(X, [[2.0, 0.0], [0.0, 2.0]], [[0.5, 0.0], [0.0, 0.5]], I)
    assert flat(moved.weights) == pytest.approx(flat(plain.weights), abs=1e-12)
    has("03-attention-lab.md", "$W_Q = 2I$ with $W_K = \\tfrac12 I$ gives exactly the table of $W_Q = W_K = I$")


def test_lesson_3_shuffling_permutes_rows_and_columns_together_only_without_the_mask():
    """Corrects: "every row of the table is shuffled"."""
    X = lab_X()
    order = [3, 0, 6, 1, 5, 2, 4]
    shuffled = [X[p] for p in order]
    for causal, same in ((False, True), (True, False)):
        a = engine.self_attention(X, I, I, I, causal=causal).weights
        b = engine.self_attention(shuffled, I, I, I, causal=causal).weights
        permuted = [[a[order[r]][order[c]] for c in range(7)] for r in range(7)]
        assert (flat(b) == pytest.approx(flat(permuted), abs=1e-12)) is same
    has("03-attention-lab.md", "Without the mask, nothing in steps 2 to 5 knows where a token stands",
        "the rows and the columns of the table are shuffled together")


def test_lesson_3_the_position_tag_is_a_nearness_bonus_with_no_direction():
    """Corrects: "each leans towards the noun that follows it"."""
    for i in range(8):
        for j in range(8):
            p_i, p_j = engine.position_code(i, 0.6), engine.position_code(j, 0.6)
            assert engine.dot(p_i, p_j) == pytest.approx(math.cos(0.6 * (i - j)), abs=1e-12)
            mirrored = engine.position_code(2 * j - i, 0.6)  # as far from j, on the other side
            assert engine.dot(p_i, p_j) == pytest.approx(engine.dot(mirrored, p_j), abs=1e-12)
    r = engine.self_attention(lab_X("repeat", 1.0), I, I, I)
    tokens = sentence("repeat").text.split()
    assert tokens[max(range(6), key=r.weights[0].__getitem__)] == "cat"
    assert tokens[max(range(6), key=r.weights[4].__getitem__)] == "mat"
    bonus = [math.cos(engine.OMEGA * d) for d in range(8)]  # the distances of eight tokens
    lowest = math.pi / engine.OMEGA  # the cosine is periodic: lowest at 0.6 d = pi
    assert f"{lowest:.1f}" == "5.2" and min(range(8), key=bonus.__getitem__) == 5 and bonus[7] > bonus[5]
    has("03-attention-lab.md", "$\\alpha^2\\, p_i \\cdot p_j = \\alpha^2 \\cos(0.6(i - j))$",
        "a bonus for being near, within about five places, that does not care which side the other token is on",
        f"it is lowest near distance {lowest:.1f}, ${num(bonus[5])}$ at distance 5, and rises to "
        f"${num(bonus[7])}$ at distance 7".replace("−", "-"),
        f"puts its largest weight, {num(r.weights[0][1])} on *cat*")


def test_lesson_3_one_temperature_story():
    """Corrects: "Only the size of the scores matters ... divides by sqrt(d_k): without it,
    longer vectors would ...": the gaps matter, and sqrt(d_k) does not follow the projections."""
    X = lab_X()
    doubled = engine.self_attention(X, [[2.0, 0.0], [0.0, 2.0]], I, I)
    assert len(engine.projections(X, [[2.0, 0.0], [0.0, 2.0]], I, I)[0][0]) == 2  # d_k stays 2
    halved = engine.self_attention(X, I, I, I, temperature=0.5)
    assert flat(doubled.weights) == pytest.approx(flat(halved.weights), abs=1e-12)
    has("03-attention-lab.md", f"*cat* gets {num(doubled.weights[4][1], 3)} of the weight of *it*, what $W_Q = I$ "
        "gives at $T = 0.5$: the rule of lesson 1",
        "scaling $W_Q$ (or $W_K$) by $c$ scales every gap between scores by $c$",
        "with $W_Q = 2I$, $d_k$ is still 2")
    assert "Only the size of the scores matters" not in text_of("03-attention-lab.md")


def test_lesson_3_a_negated_w_k_sends_the_weight_of_it_away_from_cat():
    X = lab_X()
    tokens = sentence("pronoun").text.split()
    plain = engine.self_attention(X, I, I, I).weights[4]
    negated = engine.self_attention(X, I, [[-1.0, 0.0], [0.0, -1.0]], I).weights[4]
    top = max(range(7), key=negated.__getitem__)
    assert tokens[top] == "because"
    assert top == min(range(7), key=lambda j: engine.dot(X[4], X[j]))  # the most negative dot product
    has("03-attention-lab.md", "With $W_Q = I$ and $W_K = -I$, where does the weight of *it* go?",
        f"*cat* falls from {num(plain[1])} to {num(negated[1])}, and the largest weight, {num(negated[top])}, "
        "goes to *because*")


# --- lesson 4: heads ------------------------------------------------------------------------------

HEADS = FIGURES["attention-heads"]


def test_lesson_4_the_2_in_head_1_sharpens_it():
    state = first_state(HEADS, query="hungry")
    one = HEADS.apply(state, {"type": "set", "name": "h1.W_Q.0.0", "value": "1"})
    before = HEADS.scene(state)["values"]["weights"][0][6][1]
    after = HEADS.scene(one)["values"]["weights"][0][6][1]
    assert after < before
    has("04-two-heads.md", f"With a 1 there, *hungry* would give *cat* only {num(after)} in head 1",
        "a temperature of $\\tfrac12$")


def test_lesson_4_shapes_and_cost():
    """Corrects: "concatenation has 4, W_O is 4x2" for real heads, and "about the same
    work again" (the multiply-adds are equal; the memory is h n^2)."""
    D, h = 512, 8
    assert D // h == 64 and (D // h) * h == D
    assert h * (3 * D * (D // h)) == 3 * D * D
    has("04-two-heads.md", f"are ${D} \\times {D // h}$", f"$d_k = {D // h}$",
        f"$W_O$ is ${D} \\times {D}$", "concatenate back to exactly $D$",
        "hold $3D^2$ numbers together", "$h n^2$ numbers instead of $n^2$",
        "each from vectors with $h$ times fewer entries", "$h n^2$ exponentials in the softmax")
    assert "about the same work again" not in text_of("04-two-heads.md")
    assert "times shorter" not in text_of("04-two-heads.md")  # entries are counted, lengths measured


def test_lesson_4_a_zero_block_of_w_o_silences_a_head():
    state = first_state(HEADS, query="hungry")
    silenced = state
    for r, c in ((2, 0), (2, 1), (3, 0), (3, 1)):  # the rows of W_O that meet head 2's output
        silenced = HEADS.apply(silenced, {"type": "set", "name": f"W_O.{r}.{c}", "value": "0"})
    values = HEADS.scene(silenced)["values"]
    assert values["outputs"][6] == pytest.approx(values["contributions"][0][6], abs=1e-12)
    assert values["contributions"][1][6] == pytest.approx([0.0, 0.0], abs=1e-12)
    has("04-two-heads.md", "If the second block of $W_O$ were zero",
        f"$o^1 W_O^1 = ({num(values['outputs'][6][0])}, {num(values['outputs'][6][1])})$")


# --- lesson 5: position ---------------------------------------------------------------------------


def test_lesson_5_base_100_turns_more_clocks_at_offset_8():
    """Corrects: "every clock turns noticeably within a few steps" (base 100): its slowest
    clock turns 0.76° a step; at k = 8, 9 of 16 clocks have cos < 0.9, against 5."""
    turned = {b: sum(math.cos(8 * th) < 0.9 for th in engine.frequencies(32, b)) for b in (100, 10000)}
    assert turned == {100: 9, 10000: 5}
    slowest = math.degrees(engine.frequencies(32, 100)[-1])
    has("05-positional-encoding.md",
        f"With base 100, {turned[100]} of the 16 clocks have turned far enough at $k = 8$ that "
        f"$\\cos(\\theta_i k) < 0.9$, against {turned[10000]} with base 10000",
        f"the slowest clock of base 100 turns {slowest:.2f}° a step")
    assert "every clock turns noticeably" not in text_of("05-positional-encoding.md")


def test_lesson_5_base_100_stops_tracking_distance():
    """Corrects: "far-apart positions can come to look alike again"; the averages over far
    offsets were cut with a third of the lesson, and a question asks which base still tells
    offsets 200 and 300 apart."""
    sim = {b: {k: engine.pe_similarity(k, 32, b) for k in (8, 200, 300)} for b in (100, 10000)}
    turn = {b: 2 * math.pi / engine.frequencies(32, b)[-1] for b in (100, 10000)}
    assert abs(sim[100][200] - sim[100][300]) < 0.05 < sim[10000][200] - sim[10000][300]
    has("05-positional-encoding.md",
        f"positions 8 apart have similarity {sim[10000][8]:.2f} at base 10000 and {sim[100][8]:.2f} at base 100",
        f"goes round every {turn[100]:,.0f} positions, against {turn[10000]:,.0f} for base 10000",
        f"its similarities are {num(sim[10000][200])} at offset 200 and {num(sim[10000][300])} at 300",
        f"Base 100 gives {num(sim[100][200])} and {num(sim[100][300])}",
        f"at offset 200, {sum(th * 200 >= 2 * math.pi for th in engine.frequencies(32, 100))} of its 16 clocks "
        "have gone round at least once")
    text = text_of("05-positional-encoding.md")
    assert "look alike again" not in text and "Averaged over" not in text
    assert text.count(f"{sim[10000][8]:.2f}") == 1 and text.count(f"{sim[100][8]:.2f}") == 1  # stated once
    has("05-positional-encoding.md", "So base 100 separates nearby positions better.")
    assert "; yet its slowest clock" not in text


def rotate(p, angle):
    """M applied to a clock (sin a, cos a) -> (sin(a + angle), cos(a + angle))."""
    c, s = math.cos(angle), math.sin(angle)
    return [c * p[0] + s * p[1], -s * p[0] + c * p[1]]


def test_lesson_5_the_table_s_query_two_places_on_is_m2_applied_to_its_own_tag():
    state = first_state(HEAT)
    for i, (kind, away) in enumerate(hm_presets.SEEKS):
        if away != 2:
            continue
        own_tag = [x / hm_presets.KEY_SIZE for x in state["k"][i][2:]]  # the key holds 1.5 PE(i)
        asked = [x / hm_presets.QUERY_SIZE for x in state["q"][i][2:]]  # the query holds 3 PE(i + 2)
        assert asked == pytest.approx(rotate(own_tag, 2 * hm.OMEGA), abs=0.01), i
    assert hm_presets.SEEKS[0] == ("noun", 2) and state["tokens"][0] == "the"
    assert 2 * hm.OMEGA == 1
    has("05-positional-encoding.md",
        "The query of lesson 2's first *the*, \"a noun two places on\", holds three times the tag of position 2",
        "the tag of position 0 turned by $2\\omega = 1$ radian")


def test_lesson_5_a_rotated_query_looks_k_places_away():
    D, base = 32, 10000.0
    thetas = engine.frequencies(D, base)

    def turned(t, k):
        code = engine.sinusoidal(t, D, base)
        return [x for i, th in enumerate(thetas) for x in rotate(code[2 * i:2 * i + 2], th * k)]

    for i in (5, 20, 40):
        for k in (2, -1):
            q = turned(i, k)
            assert q == pytest.approx(engine.sinusoidal(i + k, D, base), abs=1e-9)
            best = max(range(64), key=lambda j: engine.dot(q, engine.sinusoidal(j, D, base)))
            assert best == i + k
    has("05-positional-encoding.md", "$PE(t + k) \\cdot PE(u)$, largest at $u = t + k$",
        "makes it largest at $u = t - 1$")


def test_lesson_5_the_four_terms_add_up_to_the_score():
    e_i, e_j = [0.3, -1.0, 2.0, 0.5], [1.1, 0.4, -0.7, 0.2]
    p_i, p_j = engine.sinusoidal(3, 4, 100), engine.sinusoidal(7, 4, 100)
    W = [[0.5, -1.0, 0.0, 2.0], [1.0, 0.3, -0.4, 0.0], [0.0, 0.2, 1.5, -1.0], [0.7, 0.0, 0.1, 0.9]]

    def form(a, b):
        return engine.dot(engine.matmul([a], W)[0], b)

    whole = form([x + y for x, y in zip(e_i, p_i)], [x + y for x, y in zip(e_j, p_j)])
    assert whole == pytest.approx(form(e_i, e_j) + form(e_i, p_j) + form(p_i, e_j) + form(p_i, p_j), abs=1e-12)
    has("05-positional-encoding.md", "$(e_t + PE(t))\\, W\\, (e_u + PE(u))^{\\top}$, a sum of four terms",
        "The original paper offered the rotation as a hypothesis")
    assert "can learn that one linear map" not in text_of("05-positional-encoding.md")


def test_lesson_5_the_paper_s_two_details_and_the_way_on():
    has("05-positional-encoding.md", "The paper multiplies the embedding by $\\sqrt{D}$ before adding the code",
        "position embeddings learned like word embeddings did about as well",
        "That idea, rotary positions, comes next in the track.")


def test_lesson_5_says_entries_for_a_count_and_norm_for_a_size():
    has("05-positional-encoding.md", "$PE(t)$ has as many entries as the embeddings, $D$")
    assert "same length $D$" not in text_of("05-positional-encoding.md")


def test_counts_and_shares_the_lessons_state_in_passing():
    rand = FIGURES["attention-heatmap"].apply(first_state(HEAT), {"type": "action", "name": "why-scale"})
    n = len(rand["tokens"])
    has("02-attention-heatmap.md", f"Across its {n * n} cells", f"$512^2 = {512 ** 2:,}$ scores".replace(",", "{,}"),
        f"${1024 ** 2:,}$".replace(",", "{,}"))
    has("03-attention-lab.md", f"against an even $1/7 \\approx {1 / 7:.2f}$")
    has("05-positional-encoding.md", f"$\\theta_0 = 1$ radian (about {math.degrees(1):.0f}°)")
