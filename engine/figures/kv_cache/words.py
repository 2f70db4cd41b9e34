"""The figure's wording: keys of the catalogue (engine/locales/), ``figure.kv_cache.*``,
looked up when they are shown or filled in; the option docs stay English."""

from __future__ import annotations

from explorables.figures import Words, formula, num

say = Words("figure.kv_cache")  # the figure's catalogue keys, figure.kv_cache.*

SUMMARY, TITLE, STATUS = say.all("summary title status")

DOC_T = "The token being generated first shown (0 to 7)."
DOC_CACHE = "Whether the decoder keeps the keys and values of earlier tokens."
DOC_LAYERS = "The number of layers L of the model the counters are for."
DOC_HEADS = "The number of heads h."
DOC_DK = "The entries d_k of one head's query, key and value; the model's width is D = h·d_k."
DOC_SHARE = "Keys and values shared across heads: none, grouped (g groups) or one (multi-query)."
DOC_GROUPS = "The number of key/value groups g when shared in groups: a divisor of h (else the largest below it)."
DOC_BYTES = "Bytes per number in the cache: 4, 2 or 1."
DOC_CONTEXT = "The length N of text whose cache the memory counter also gives (1 to 500000)."

PLAY, PLAY_HELP = say.all("play play_help")
T, CACHE = say.all("t cache")
LAYERS, HEADS, DK = say.all("layers heads d_k")
SHARE, GROUPS, BYTES = say.all("share groups bytes")
SHARE_CHOICES = (
    ("none", say("share_none")),
    ("grouped", say("share_grouped")),
    ("one", say("share_one")),
)
BYTES_CHOICES = ((4, "4 (fp32)"), (2, "2 (fp16, bf16)"), (1, "1 (int8)"))

INTEGERS = (
    "t",
    "n",
    "D",
    "kv_heads",
    "context",
    "step_cached",
    "step_full",
    "total_cached",
    "total_full",
    "cache_bytes",
    "token_bytes",
    "context_bytes",
)
TEXTS = (
    "step_cached_text",
    "step_full_text",
    "total_cached_text",
    "total_full_text",
    "cache_text",
    "token_text",
    "context_text",
)
DOCS = {
    "t": "The token being generated, t (from 0).",
    "n": "The keys its query reads, n = t + 1.",
    "D": "The model's width D = h·d_k.",
    "kv_heads": "The key/value heads the cache keeps: h, g or 1.",
    "context": "The length N of text the last memory counter is for (the option :context:).",
    "step_cached": "Multiply-adds of this token, all layers, with the cache.",
    "step_full": "Multiply-adds of this token, all layers, without the cache.",
    "total_cached": "Multiply-adds of the tokens 0 to t, all layers, with the cache.",
    "total_full": "Multiply-adds of the tokens 0 to t, all layers, without the cache.",
    "cache_bytes": "Bytes of the cache after the tokens 0 to t.",
    "token_bytes": "Bytes of the cache a token.",
    "context_bytes": "Bytes of the cache after N tokens.",
    "ratio": "Multiply-adds up to this token without the cache over with it.",
    "weights": "The table's weights, rows 0 to t (0 where masked or not yet computed).",
    "outputs": "The outputs o_0 .. o_t.",
    "playing": "Whether Play is running.",
}
DOCS.update(
    {
        name: DOCS[name[:-5] + ("_bytes" if name[:-5] + "_bytes" in DOCS else "")] + " Written for people."
        for name in TEXTS
    }
)
SAY_MEMORY = say("announce_memory")

TABLE_TITLE, TABLE_CAPTION, CELL_TIP, CELL_MASKED = say.all("table_title table_caption cell_tip cell_masked")
CELL_LATER, CELL_DETAIL = say.all("cell_later cell_detail")
KEY_LITTLE, KEY_MUCH = say.all("figure.key.little_weight figure.key.much_weight")

KEPT_TITLE, KEPT_CAPTION = say.all("kept_title kept_caption")
KEPT, NEW, AGAIN = say.all("kept new again")
KEPT_KEY = say.all("kept_key new_key again_key")
KEPT_TIP = say("kept_tip")

COUNT_TITLE = say("count_title")
COUNT_ITEMS = say.all("step_with step_without total_with total_without")
COUNT_NOTE, MEMORY_TITLE = say.all("count_note memory_title")
MEMORY_ITEMS = say.all("memory_now memory_token memory_context")
MEMORY_NOTE = say("memory_note")

X_STEP = (*say.button("x_step"), say("x_step_see"))
X_OFF = (*say.button("x_off"), say("x_off_see"))
X_SHARE = (*say.button("x_share"), say("x_share_see"))

UNITS = ("B", "KiB", "MiB", "GiB", "TiB")


def size(n_bytes: float) -> str:
    """Bytes for people, in powers of 1024: 512 KiB, 6.75 MiB, 2 GiB."""
    x, k = float(n_bytes), 0
    while x >= 1024 and k < len(UNITS) - 1:
        x, k = x / 1024, k + 1
    digits = 0 if x >= 100 or x == int(x) else 1 if x >= 10 else 2
    return formula(f"{num(x, digits)} {UNITS[k]}")  # one left-to-right run in Hebrew too


SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def count(n: int) -> str:
    """A count for people: whole up to 99,999 (grouped as the language groups), then
    with three significant digits and a power of ten: 1.61 × 10⁹."""
    if n < 100_000:
        return num(n, 0)
    power = len(str(int(n))) - 1
    return formula(f"{num(n / 10**power, 2)} × 10{str(power).translate(SUPERSCRIPT)}")
