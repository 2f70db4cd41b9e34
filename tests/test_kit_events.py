"""The kit's helpers for option checks and event hooks (kit/events.py), a square plane by its
half-width, and the order a figure lists its options in."""

import pytest

from explorables.figures import (
    FieldError,
    Figure,
    Option,
    OptionError,
    OptionErrors,
    Slider,
    cell_of,
    held,
    plane,
    points,
    raise_all,
    unselectable,
)


def test_raise_all_raises_nothing_the_one_error_or_all_together():
    raise_all([])
    one = OptionError("keys", "expected 3 rows")
    with pytest.raises(OptionError) as caught:
        raise_all([one])
    assert caught.value is one
    with pytest.raises(OptionErrors) as both:
        raise_all([one, OptionError("query", "no such word")])
    assert "keys" in str(both.value) and "query" in str(both.value)


def test_held_keeps_a_dragged_point_inside_and_rounds_it():
    assert held(3.456, "-0.123", 2.4) == [2.4, -0.12]
    with pytest.raises(FieldError):
        held("far", 0, 2.4)


def test_cell_of_reads_a_grid_field_within_its_shape():
    assert cell_of("key.3.1", "key", (5, 2)) == (3, 1)
    assert cell_of("h1.W_Q.0.1", "h1.W_Q", (2, 2)) == (0, 1)
    for name in ("key.5.1", "key.3.2", "key.3", "keys.1.1", "xkey.1.1", "key.1.x", "key.-1.0", "key.².0"):
        assert cell_of(name, "key", (5, 2)) is None, name


def test_unselectable_names_the_figure_and_the_element():
    assert str(unselectable("attention-row", "a", (1, 2))) == "attention-row cannot select the mark 'a-1-2'"



def test_a_plane_by_its_half_width_is_square_and_centred():
    made = plane("p", points("a", [[1, 2]]), half=2.5, grid=1.0)
    assert made["x"] == made["y"] == [-2.5, 2.5] and made["square"] is True and made["grid"] == 1.0
    assert made == plane("p", points("a", [[1, 2]]), x=[-2.5, 2.5], y=[-2.5, 2.5], square=True, grid=1.0)
    with pytest.raises(TypeError, match="needs x="):
        plane("p", points("a", [[1, 2]]))


def test_option_order_lists_the_named_options_first_and_the_rest_as_declared():
    class Ordered(Figure):
        name = "ordered-test"
        params = (Slider("a", "a", 0.5, lo=0, hi=1), Slider("b", "b", 0.5, lo=0, hi=1))
        extra_options = (Option("c", "str", "", "c"), Option("d", "str", "", "d"))
        option_order = ("d", "b")

    assert [o.name for o in Ordered().options] == ["d", "b", "a", "c"]
    Ordered.option_order = ()
    assert [o.name for o in Ordered().options] == ["a", "b", "c", "d"]
    assert Ordered().declared("b").name == "b" and Ordered().param("c") is None
    with pytest.raises(KeyError, match="declares no parameter 'c'"):
        Ordered().declared("c")


def test_a_play_tick_reaches_on_tick_and_other_actions_name_it():
    from explorables.figures import Play

    class Counter(Figure):
        name = "counter-test"
        params = (Play("playing", "Play", False),)

        def on_tick(self, state):
            state["n"] = state.get("n", 0) + 1
            return state

    fig = Counter()
    assert fig.on_action({"playing": True}, "tick") == {"playing": True, "n": 1}
    with pytest.raises(ValueError, match=r"no action 'jump' \(known: tick, reset\)"):
        fig.on_action({}, "jump")
    Counter.on_tick = Figure.on_tick
    with pytest.raises(ValueError, match=r"counter-test has a Play parameter but no on_tick\(state\)"):
        fig.on_action({}, "tick")
