"""Fields a parameter owns besides its own control (kit/fields.py): the entries of ``Rows``,
a ``NumberChoice``'s typed field, a parameter's presets as actions, and a ``Play`` that
steps a slider. A figure that uses them writes no ``on_set``, ``on_action`` or ``on_tick``."""

import pytest

from explorables.figures import (
    Choice,
    FieldError,
    Figure,
    NumberChoice,
    Play,
    Rows,
    Slider,
    Value,
    bars,
)


class Typed(Figure):
    """Two tokens' keys typed entry by entry, a base typed beside its menu, a position played."""

    name = "typed-fields"
    params = (
        Play("playing", "Play", False, steps="t"),
        Slider("t", "t", 0, lo=0, hi=lambda s: s["last"], integer=True),
        NumberChoice("base", "Base", 100.0, presets=(10.0, 100.0), lo=2, hi=1000, what="the base", field="Any base"),
        Rows("k", "Keys", [[1.0, 0.0], [0.0, 1.0]], cells="key", limit=5, columns=("x", "y"), near="keys",
             entry=lambda s, i, c: f"{'xy'[c]} of {s['tokens'][i]}", then=lambda s, i: s.update(picked=i), step=3),
        Choice("mode", "Mode", "a", choices=(("a", "A"), ("b", "B"))),
    )
    values = (Value("t", "integer", "The position."),)

    def setup(self, state, options):
        state.update(tokens=["cat", "dog"], picked=0, last=3, seen=[])
        return state

    def changed(self, state, name):
        state["seen"].append(name)
        return state

    def draw(self, s, v):
        return [bars("keys", [abs(x) / 5 for x in s["k"][0]], label=["x", "y"])]


FIG = Typed()


def typed(state, name, value):
    return FIG.apply(state, {"type": "set", "name": name, "value": value})


def test_a_typed_entry_is_read_stored_and_picks_its_row():
    state = typed(FIG.initial_state({}), "key.1.0", " \u22122.5 ")
    assert state["k"] == [[1.0, 0.0], [-2.5, 1.0]]
    assert state["picked"] == 1 and state["step"] == 3 and state["seen"] == ["k"]


@pytest.mark.parametrize("value, message", [
    ("abc", "x of dog must be a number, got 'abc'"),
    ("7", "x of dog must be from -5 to 5, got 7"),
])
def test_a_refused_entry_comes_back_on_its_field_and_keeps_the_state(value, message):
    state = FIG.initial_state({})
    with pytest.raises(FieldError) as caught:
        typed(state, "key.1.0", value)
    assert (caught.value.name, caught.value.message) == ("key.1.0", message)
    assert state["k"] == [[1.0, 0.0], [0.0, 1.0]]


@pytest.mark.parametrize("name", ["key.2.0", "key.0.2", "k.0.0", "base_txt"])
def test_a_field_no_parameter_takes_is_no_control(name):
    with pytest.raises(FieldError, match=f"typed-fields has no control named '{name}'"):
        typed(FIG.initial_state({}), name, "1")


def test_the_grid_of_rows_is_a_row_a_thing_with_its_fields():
    grid = FIG.declared("k").grid(FIG.initial_state({}), "keys")
    assert grid["name"] == "keys" and grid["near"] == "keys" and grid["col_labels"] == ["x", "y"]
    assert [(r["label"], r["link"], [c["name"] for c in r["cells"]]) for r in grid["rows"]] == [
        ("cat", "t0", ["key.0.0", "key.0.1"]), ("dog", "t1", ["key.1.0", "key.1.1"])]


def test_a_number_choice_with_a_field_draws_it_beside_the_menu_and_reads_it():
    state = FIG.initial_state({})
    controls = FIG.scene(state)["controls"]
    names = [c["name"] for c in controls]
    assert names[names.index("base") + 1] == "base_text"
    field = controls[names.index("base_text")]
    assert (field["kind"], field["label"], field["value"]) == ("number", "Any base", "100")
    state = typed(state, "base_text", "250")
    assert state["base"] == 250.0 and state["seen"] == ["base"]
    assert [o["value"] for o in FIG.scene(state)["controls"][names.index("base")]["options"]] == ["10", "100", "250"]
    with pytest.raises(FieldError) as caught:
        typed(state, "base_text", "1")
    assert caught.value.name == "base_text" and "from 2 to 1000" in caught.value.message


def test_a_play_that_steps_a_slider_moves_it_on_and_back_to_its_lowest():
    state = FIG.initial_state({})
    seen = []
    for _ in range(5):
        state = FIG.apply(state, {"type": "action", "name": "tick"})
        seen.append(state["t"])
    assert seen == [1, 2, 3, 0, 1]


def test_a_play_that_steps_nothing_asks_for_on_tick():
    class Silent(Figure):
        name = "silent-play"
        params = (Play("playing", "Play", False),)

        def draw(self, s, v):
            return []

    with pytest.raises(ValueError, match="no on_tick"):
        Silent().apply(Silent().initial_state({}), {"type": "action", "name": "tick"})


def test_an_action_no_parameter_or_experiment_has_lists_the_known_ones():
    with pytest.raises(ValueError, match=r"typed-fields has no action 'fly' \(known: tick, reset\)"):
        FIG.apply(FIG.initial_state({}), {"type": "action", "name": "fly"})


def test_a_menu_with_custom_lists_it_only_while_the_state_holds_it_and_keeps_it():
    menu = Choice("head", "Head", "a", choices=(("a", "A"), ("b", "B")), custom="Your own")
    assert [o["value"] for o in menu.control_dict({"head": "a"})["options"]] == ["a", "b"]
    assert menu.control_dict({"head": "custom"})["options"][-1] == {"value": "custom", "label": "Your own"}
    assert menu.read(" custom ", {"head": "a"}) == "custom"
    plain = Choice("head", "Head", "a", choices=(("a", "A"), ("custom", "Mine")))
    assert [o["value"] for o in plain.control_dict({"head": "custom"})["options"]] == ["a", "custom"]
    with pytest.raises(FieldError):
        Choice("head", "Head", "a", choices=(("a", "A"),)).read("custom", {"head": "a"})


def test_a_setting_is_written_as_a_reader_types_it():
    from explorables.engine import locale
    from explorables.figures import setting

    assert [setting(x) for x in (0.1, 5.0, 100000.0, -2.5)] == ["0.1", "5", "100000", "-2.5"]
    locale.use("de")
    try:
        assert setting(0.1) == "0,1"
    finally:
        locale.use("en")
