"""What a SCORM package keeps in cmi.suspend_data (static/js/scorm-data.js), in Chromium:
the progress of a track comes back as it was (visits to the minute, reading to the
percent, tries up to 26); keys an author or a reader wrote ("constructor", "__proto__")
are keys like any other; a track with thousands of exercises still fits the 4,096
characters SCORM 1.2 allows, and scorm-again's SCORM 1.2 API takes it; what another
version of the package or anything else left is not read."""

from __future__ import annotations

import pytest
from conftest import ROOT

SCORM_AGAIN = ROOT / "tools" / "node_modules" / "scorm-again" / "dist" / "scorm12.js"

# A track of ``lessons`` lessons with ``exercises`` exercises and 7 questions each, and
# progress in every one of them: visited, read in part, every exercise tried, most solved.
MAKE = """([lessons, exercises, names]) => {
  const track = { lessons: [] };
  const data = { v: 1, last: "", lessons: Object.create(null) };
  for (let l = 0; l < lessons; l += 1) {
    const ids = [];
    for (let e = 0; e < exercises; e += 1) ids.push(names[(l + e) % names.length] + "-" + e);
    const questions = ["q-1", "q-2", "q-3", "q-4", "q-5", "q-6", "q-7"];
    const url = (l % 3 ? "part-" + (l % 3) + "/" : "") + "lesson-" + l + ".html";
    track.lessons.push({ url: url, title: "Lesson " + l, exercises: ids, questions: questions });
    const kept = { visited: 1764900000000 + l * 60000, read: ((l * 7) % 21) / 20,
      exercises: Object.create(null), questions: Object.create(null) };
    ids.forEach(function (id, e) {
      kept.exercises[id] = { solved: (l + e) % 4 !== 0, tries: 1 + ((l * 5 + e) % 30) };
    });
    questions.forEach(function (id, q) { if ((l + q) % 2) kept.questions[id] = true; });
    data.lessons[url] = kept;
    data.last = url;
  }
  return { track: track, data: data };
}"""

ROUND_TRIP = """([track, data]) => {
  const text = window.explorables.scorm.encode(data, track);
  return { text: text, back: window.explorables.scorm.decode(text, track) };
}"""


@pytest.fixture(scope="module")
def codec(browser):
    context = browser.new_context()
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.set_content("<!doctype html><title>suspend data</title>")
    page.add_script_tag(content=(ROOT / "static" / "js" / "scorm-data.js").read_text(encoding="utf-8"))
    page.add_script_tag(content=SCORM_AGAIN.read_text(encoding="utf-8"))
    yield page
    assert errors == []
    context.close()


def expected(data: dict) -> dict:
    """What the progress comes back as: visits to the minute, tries at most 26."""
    lessons = {}
    for url, kept in data["lessons"].items():
        lessons[url] = {
            "visited": kept["visited"] // 60000 * 60000,
            "read": kept["read"],
            "exercises": {
                id: {"solved": one["solved"], "tries": min(one["tries"], 26 if one["solved"] else 25)}
                for id, one in kept["exercises"].items()
            },
            "questions": kept["questions"],
        }
    return {"v": 1, "last": data["last"], "lessons": lessons}


def test_a_track_s_progress_comes_back_as_it_was(codec):
    made = codec.evaluate(MAKE, [24, 20, ["scaled", "constructor", "__proto__", "toString"]])
    result = codec.evaluate(ROUND_TRIP, [made["track"], made["data"]])
    assert len(result["text"]) <= 4096
    assert result["back"] == expected(made["data"])
    back = codec.evaluate(
        "([track, data]) => { const b = window.explorables.scorm.decode("
        "window.explorables.scorm.encode(data, track), track);"
        " const e = b.lessons['lesson-0.html'].exercises;"
        " return [Object.getPrototypeOf(e) === null, e['__proto__-2'].solved, e['constructor-1'].solved]; }",
        [made["track"], made["data"]],
    )
    assert back == [True, True, True]
    assert result["back"]["lessons"]["lesson-0.html"]["exercises"]["scaled-0"] == {"solved": False, "tries": 1}


def test_thousands_of_exercises_fit_4096_characters_and_scorm_again_takes_them(codec):
    made = codec.evaluate(MAKE, [70, 80, ["ex"]])  # 5,600 exercises
    result = codec.evaluate(ROUND_TRIP, [made["track"], made["data"]])
    assert len(result["text"]) <= 4096
    back, whole = result["back"], expected(made["data"])
    assert 20 < len(back["lessons"]) < 70  # as many lessons as fit, whole
    for url, lesson in back["lessons"].items():
        assert lesson["exercises"] == whole["lessons"][url]["exercises"]
        assert lesson["read"] == whole["lessons"][url]["read"]
    assert back["last"] == whole["last"]
    taken = codec.evaluate(
        """text => {
          const api = new Scorm12API({ logLevel: 5 });
          api.LMSInitialize("");
          return [api.LMSSetValue("cmi.suspend_data", text), api.LMSGetValue("cmi.suspend_data") === text];
        }""",
        result["text"],
    )
    assert taken == ["true", True]


def test_what_another_package_or_version_left_is_not_read(codec):
    made = codec.evaluate(MAKE, [3, 4, ["ex"]])
    text = codec.evaluate(
        "([track, data]) => window.explorables.scorm.encode(data, track)", [made["track"], made["data"]]
    )
    other = {"lessons": made["track"]["lessons"][:2]}  # a new version: a lesson fewer
    for kept, track in [
        (text, other),
        ("", made["track"]),
        ("page=4;score=10", made["track"]),
        (text.replace("~", "~~", 1), made["track"]),
        (text[:-1] + "!", made["track"]),
    ]:
        assert codec.evaluate("([text, track]) => window.explorables.scorm.decode(text, track)", [kept, track]) is None


def test_an_exercise_only_a_translation_names_is_kept_with_its_lesson(codec):
    """progress.js keeps a lesson's answers given in any of its languages, under the
    default language's page: an exercise a translation names otherwise (its own
    ``:name:``) comes back too."""
    track = {
        "lessons": [
            {"url": "rows.html", "title": "Rows", "exercises": ["weight"], "questions": ["q-1"]},
            {
                "url": "de/rows.html",
                "title": "Zeilen",
                "exercises": ["gewicht"],
                "questions": ["q-1", "q-2"],
                "language": "de",
                "lesson": "rows.html",
            },
        ]
    }
    kept = {
        "visited": 1764900000000,
        "read": 0.5,
        "exercises": {"weight": {"solved": False, "tries": 2}, "gewicht": {"solved": True, "tries": 3}},
        "questions": {"q-2": True},
    }
    data = {"v": 1, "last": "de/rows.html", "lessons": {"rows.html": kept}}
    result = codec.evaluate(ROUND_TRIP, [track, data])
    assert result["back"] == expected(data)
