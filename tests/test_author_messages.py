"""One mistake in an author's figures, one clear error at its place: a module that is not
UTF-8 at its bad byte, a declared Value that compute does not give at its ``Value(...)``,
a figures folder that cannot be loaded said once (at site.yml's ``figures:`` when that is
the cause) with nothing more for the lessons that use its figures and exercises, a live
role in a figure's caption at its line; and a warning for a figure whose first frame is
too big for a reader's phone."""
from __future__ import annotations

import pytest

from explorables.site_builder.commands.cli import main
from explorables.site_builder.markdown.directives.figure import SCENE_LIMIT
from figure_helpers import ROOT

SAMPLE = (ROOT / "site_builder" / "starter" / "figures" / "softmax_bars.py").read_text()
DOT = (ROOT / "tests" / "fixtures" / "exercises" / "dot_product.py").read_text()
LESSON = ("---\ntitle: Mine\norder: 1\n---\n\nText.\n\n:::{softmax-bars} three\n:a: 1\n:::\n\n"
          ":::{exercise} dot-2\n:::\n")
RETURN = '        return {"weights": weights, "top": max(weights)}\n'
TOP_LINE = 1 + SAMPLE.split('Value("top"')[0].count("\n")  # where the sample declares its value 'top'


@pytest.fixture
def site(author_site):
    return author_site(lessons={"index.md": "# Mine\n", "01-mine.md": LESSON},
                       figures={"softmax_bars.py": SAMPLE, "dot_product.py": DOT})


def errors_of(capsys) -> list[str]:
    """The build's errors and warnings, as printed, without the count line."""
    capsys.readouterr()
    code = main(["build"])
    err = capsys.readouterr().err
    assert "Traceback" not in err and "internal error" not in err
    return [code] + [line for line in err.splitlines() if not line.endswith(("written (there is no previous site).",
                                                                               "was left as it was."))]


NOT_UTF8 = {  # the module's bytes, the bad byte's line and column (in characters, as an editor counts)
    "comment-on-line-2": (b'"""Mine."""\n# caf\xe9 au lait\n', 2, 6, 0xe9),
    "string-on-line-3": (b'"""Mine."""\nx = 1\ny = "\xff"\n', 3, 6, 0xff),
    "first-byte": (b'\xfe"""Mine."""\n', 1, 1, 0xfe),
    "after-utf8-letters": ('"""Mine."""\n# é ü '.encode() + b"\xe9x\n", 2, 7, 0xe9),
}


@pytest.mark.parametrize("source, line, col, byte", NOT_UTF8.values(), ids=NOT_UTF8.keys())
def test_a_module_that_is_not_utf8_is_said_at_its_bad_byte(site, capsys, source, line, col, byte):
    (site / "figures" / "extra.py").write_bytes(source)
    assert errors_of(capsys) == [1, f"error: figures/extra.py:{line}:{col}: the file is not UTF-8 text (byte "
                                    f"0x{byte:02x} cannot be read)", "    save it as UTF-8 in your editor (e.g. "
                                    "iconv -f latin1 -t utf-8 FILE > NEW)"]


MISSING_FIX = '    return it from compute, e.g. {"top": ...}, or remove its Value'
MISSING = {
    "left-out": RETURN.replace(', "top": max(weights)', ""),
    "misspelled": RETURN.replace('"top"', '"tops"'),
    "returned-under-another-name": RETURN.replace('"top"', '"Top"'),
}


@pytest.mark.parametrize("returned", MISSING.values(), ids=MISSING.keys())
def test_a_value_compute_does_not_give_is_said_at_its_declaration(site, capsys, returned):
    (site / "figures" / "softmax_bars.py").write_text(SAMPLE.replace(RETURN, returned))
    assert errors_of(capsys) == [
        1, f"error: figures/softmax_bars.py:{TOP_LINE}:9: figure 'softmax-bars': drawing its first frame raised "
           f"KeyError: compute does not return the value 'top' declared on line {TOP_LINE} (nor does the state "
           f"hold it)", MISSING_FIX]


def test_a_value_missing_only_for_the_lessons_options_is_said_at_the_directive(site, capsys):
    source = SAMPLE.replace(RETURN, '        if s["c"] == 3:\n            return {"weights": weights}\n' + RETURN)
    (site / "figures" / "softmax_bars.py").write_text(source)
    (site / "content" / "01-mine.md").write_text(LESSON.replace(":a: 1\n", ":c: 3\n"))
    assert errors_of(capsys) == [
        1, f"error: content/01-mine.md:8:1: {{softmax-bars}} three: drawing its first frame raised KeyError: "
           f"compute does not return the value 'top' declared on line {TOP_LINE} (nor does the state hold it) "
           f"(softmax_bars.py:{TOP_LINE})", MISSING_FIX]


BROKEN = {  # the two modules as they are broken, and the one error the build gives (line, message)
    "syntax-error-annotated-name": (
        SAMPLE.replace('    name = "softmax-bars"', '    name: str = "softmax-bars"')
              .replace("def draw(", "def draw(("),
        DOT.replace('    name = "dot-2"', '    name: str = "dot-2"').replace("def solve(", "def solve(("),
        ["figures/dot_product.py:", "figures/softmax_bars.py:"]),
    "raises-with-constant-names": (
        SAMPLE.replace('    name = "softmax-bars"', '    name = NAME')
              .replace('NAMES = ("a", "b", "c")\n', 'NAMES = ("a", "b", "c")\nNAME = "softmax-bars"\n1 / 0\n'),
        DOT.replace('    name = "dot-2"', '    name = TYPE')
           .replace("@register", 'TYPE = "dot-" + "2"\n[][1]\n@register'),
        ["figures/dot_product.py:", "figures/softmax_bars.py:"]),
    "refused-import": ("import yaml\n" + SAMPLE, "import curses\n" + DOT,
                       ["figures/dot_product.py:1:1:", "figures/softmax_bars.py:1:1:"]),
}


@pytest.mark.parametrize("figure, exercise, said", BROKEN.values(), ids=BROKEN.keys())
def test_a_module_that_fails_is_said_once_and_not_again_by_the_lessons(site, capsys, figure, exercise, said):
    (site / "figures" / "softmax_bars.py").write_text(figure)
    (site / "figures" / "dot_product.py").write_text(exercise)
    errors = [line.removeprefix("error: ") for line in errors_of(capsys)[1:] if not line.startswith("    ")]
    assert [e[:len(s)] for e, s in zip(errors, said)] == said and len(errors) == 2, errors


def test_a_figures_folder_outside_the_site_is_said_at_site_yml_and_only_there(site, capsys, tmp_path_factory):
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    (elsewhere / "softmax_bars.py").write_text(SAMPLE)
    (site / "site.yml").write_text(f'title: "Mine"\nfigures: {elsewhere}\n')
    assert errors_of(capsys) == [
        1, f"error: site.yml:2:10: figures: {elsewhere.name} is outside the site folder (it is {elsewhere}); the "
           f"build reads nothing from outside it", "    move it into the site folder"]


CAPTIONS = {  # the caption, the role it holds
    "value": ("The top weight is {value}`three.top`.", "value"),
    "try": ("Then {try}`three.a = 3` and watch.", "try"),
    "adjust": ("Move {adjust}`three.a` to see.", "adjust"),
    "late-in-a-long-caption": ("Three bars, one for each score; their weights sum to one, {value}`three.top`.",
                               "value"),
    "numref": ("As in {numref}`three`.", "numref"),
    "eq": ("By {eq}`e1`.", "eq"),
}
WHY = {"numref": "a caption's words are plain Markdown, and the role would show as code",
       "eq": "a caption's words are plain Markdown, and the role would show as code"}


@pytest.mark.parametrize("caption, role", CAPTIONS.values(), ids=CAPTIONS.keys())
def test_a_live_role_in_a_caption_is_refused_at_its_line(site, capsys, caption, role):
    (site / "content" / "01-mine.md").write_text(LESSON.replace(":a: 1\n", f":a: 1\n:caption: {caption}\n"))
    col = len(":caption: ") + caption.index("{") + 1
    assert errors_of(capsys) == [
        1, f"error: content/01-mine.md:10:{col}: {{softmax-bars}} three: a caption cannot hold the role {{{role}}}: "
           f"{WHY.get(role, 'it is written once, beside the figure, and never changes')}",
        f"    put the {{{role}}} in the prose around the figure, or write the caption's words plainly"]


def test_a_caption_with_plain_words_and_markup_still_builds(site):
    (site / "content" / "01-mine.md").write_text(LESSON.replace(":a: 1\n", ":a: 1\n:caption: The *weights*, `w`.\n"))
    assert main(["build"]) == 0
    assert "<em>weights</em>, <code>w</code>." in (site / "_site" / "mine.html").read_text()


BIG = '''"""many: n points in a plane."""
from explorables.figures import Figure, Slider, plane, points, register


@register
class Many(Figure):
    name = "many"
    summary = "n points."
    params = (Slider("n", "Points", 10, lo=1, hi=400000, step=1, doc="How many points."),)

    def draw(self, s, v):
        n = int(s["n"])
        return [plane("p", *points("pt", [(i / n, (i * 7919 % n) / n) for i in range(n)]), x=(0, 1), y=(0, 1))]
'''
SIZES = {  # the lesson's figures (n of each), the warnings' lines, the limit's scale
    "small": ([10, 2000], [], 1),
    "one-big": ([60000], [8], 1),
    # which of several figures is warned of, each at its own line, is the same at a tenth of
    # the limit with a tenth of the points (one-big is the limit as shipped): a build of two
    # figures of 60,000 points took 2-5 s
    "two-big-one-small": ([6000, 10, 6100], [8, 18], 10),
}


@pytest.mark.parametrize("counts, warned, scale", SIZES.values(), ids=SIZES.keys())
def test_a_first_frame_too_big_for_a_phone_is_a_warning_at_its_directive(site, capsys, monkeypatch, counts, warned,
                                                                        scale):
    from explorables.site_builder.markdown.directives import figure

    limit = SCENE_LIMIT / scale
    monkeypatch.setattr(figure, "SCENE_LIMIT", limit)
    (site / "figures" / "many.py").write_text(BIG)
    lesson = "---\ntitle: Many\norder: 2\n---\n\nText.\n" + "".join(
        f"\n:::{{many}} m{i}\n:n: {n}\n:::\n\n" for i, n in enumerate(counts))
    (site / "content" / "02-many.md").write_text(lesson)
    out = errors_of(capsys)
    assert out[0] == 0
    warnings = [line for line in out[1:] if "first frame is" in line]
    assert [w.split(":")[2] for w in warnings] == [str(line) for line in warned]
    for warning in warnings:
        size = float(warning.split("first frame is ")[1].split(" MB")[0])
        assert size > limit / 1e6
        assert warning.startswith("warning: content/02-many.md:") and warning.endswith(
            "MB of the page (and as much again in print.html); a phone may not load a page this big")
        page = (site / "_site" / "many.html").stat().st_size
        assert page > size * 1e6 * 0.9
