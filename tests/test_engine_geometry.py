"""engine.geometry: the convex hull, the point-in-hull test and key projections."""
from __future__ import annotations

import math
import random

import numpy as np
import pytest

from explorables.engine import convex_hull, point_in_hull, scalar_projection, unit, vector_projection


def _area(hull):
    """Shoelace area: positive for a counter-clockwise polygon."""
    return 0.5 * sum(a[0] * b[1] - b[0] * a[1] for a, b in zip(hull, hull[1:] + hull[:1]))


def test_square_with_inner_and_edge_points_by_hand():
    points = [(0, 0), (1, 0), (1, 1), (0, 1), (0.5, 0.5), (0.5, 0), (1, 1)]
    assert convex_hull(points) == [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]


def test_degenerate_hulls():
    assert convex_hull([(2, 3)]) == [(2.0, 3.0)]
    assert convex_hull([(2, 3), (2, 3), (2, 3)]) == [(2.0, 3.0)]
    assert convex_hull([(0, 0), (1, 1), (2, 2), (3, 3)]) == [(0.0, 0.0), (3.0, 3.0)]
    assert point_in_hull((1.5, 1.5), [(0, 0), (3, 3)])
    assert not point_in_hull((1.5, 1.6), [(0, 0), (3, 3)])
    assert point_in_hull((2, 3), [(2, 3)]) and not point_in_hull((2, 3.1), [(2, 3)])


@pytest.mark.parametrize("seed", range(40))
def test_hull_is_counter_clockwise_and_holds_every_point(seed):
    rng = random.Random(seed)
    points = [(rng.gauss(0, 3), rng.gauss(0, 3)) for _ in range(rng.randint(3, 40))]
    hull = convex_hull(points)
    assert _area(hull) > 0  # counter-clockwise
    for a, b, c in zip(hull, hull[1:] + hull[:1], hull[2:] + hull[:2]):  # every corner turns left
        assert (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]) > 0
    assert all(point_in_hull(p, hull) for p in points)
    assert set(hull) <= set(points)
    # a point clearly outside
    far = (max(p[0] for p in points) + 1.0, 0.0)
    assert not point_in_hull(far, hull)


def test_hull_of_huge_coordinates_does_not_overflow():
    big = 1e300
    hull = convex_hull([(-big, -big), (big, -big), (big, big), (-big, big), (0.0, 0.0)])
    assert hull == [(-big, -big), (big, -big), (big, big), (-big, big)]
    assert point_in_hull((0.0, 0.0), hull) and not point_in_hull((1.5 * big, 0.0), hull)


def test_projections_by_hand():
    assert scalar_projection([3.0, 4.0], [1.0, 0.0]) == 3.0
    assert scalar_projection([3.0, 4.0], [0.0, 2.0]) == 4.0
    assert scalar_projection([-1.0, 0.0], [5.0, 0.0]) == -1.0  # behind the arrow
    assert vector_projection([3.0, 4.0], [2.0, 2.0]) == pytest.approx([3.5, 3.5], abs=1e-15)
    assert unit([3.0, 4.0]) == pytest.approx([0.6, 0.8], abs=1e-15)
    assert unit([1e300, 1e300]) == pytest.approx([math.sqrt(0.5)] * 2, abs=1e-15)
    assert unit([5e-324, 0.0]) == [1.0, 0.0]


@pytest.mark.parametrize("seed", range(20))
def test_projection_matches_numpy(seed):
    rng = random.Random(seed)
    d = rng.randint(1, 6)
    k = np.array([rng.gauss(0, 2) for _ in range(d)])
    q = np.array([rng.gauss(0, 2) for _ in range(d)])
    reach = k @ q / np.linalg.norm(q)
    assert scalar_projection(k.tolist(), q.tolist()) == pytest.approx(reach, rel=1e-12, abs=1e-12)
    np.testing.assert_allclose(vector_projection(k.tolist(), q.tolist()), reach * q / np.linalg.norm(q),
                               rtol=1e-12, atol=1e-12)
    # the score is |q| times the reach
    assert k @ q == pytest.approx(np.linalg.norm(q) * scalar_projection(k.tolist(), q.tolist()), rel=1e-12, abs=1e-12)


BAD = [
    (lambda: convex_hull([]), "points is empty: it needs at least one row"),
    (lambda: convex_hull([(1.0, 2.0, 3.0)]), "points has 3 columns but points are 2-D (x, y)"),
    (lambda: convex_hull([(1.0, float("nan"))]), "points[0][1] must be a finite number, got nan"),
    (lambda: scalar_projection([1.0, 2.0], [0.0, 0.0]), "q has no direction: it is the zero vector [0.0, 0.0]"),
    (lambda: scalar_projection([1.0, 2.0], [1.0]), "q has 1 entries but k has 2; k and q must have the same length"),
    (lambda: vector_projection([1.0, float("inf")], [1.0, 0.0]), "k[1] must be a finite number, got inf"),
    (lambda: point_in_hull((1.0,), [(0.0, 0.0)]), "point has 1 entries but points are 2-D (x, y)"),
    (lambda: point_in_hull((1.0, 1.0), [(0.0, 0.0)], tol=float("nan")), "tol must be a finite number, got nan"),
]


@pytest.mark.parametrize("call,message", BAD, ids=[m[:50] for _, m in BAD])
def test_bad_input_raises_value_error_with_the_value(call, message):
    with pytest.raises(ValueError) as info:
        call()
    assert str(info.value) == message


def test_thin_hull_with_coordinates_far_apart_keeps_every_corner():
    """Regression: scaling all points by one power of two made 7e-73 underflow to 0,
    so this thin triangle lost its third corner and the centroid fell outside."""
    V = [(0.0, 0.0), (0.0, 2.291112313477997e251), (7.017857303080035e-73, 0.0)]
    hull = convex_hull(V)
    assert hull == [(0.0, 0.0), (7.017857303080035e-73, 0.0), (0.0, 2.291112313477997e251)]
    assert point_in_hull((2.3392857676933448e-73, 7.637041044926656e250), hull)


def test_turns_are_exact_where_floats_cannot_decide():
    # three points on a line that floats see as a tiny turn either way
    a, b, c = (0.5, 0.5), (12.0, 12.0), (24.0, 24.0)
    assert convex_hull([a, b, c]) == [a, c]
    # 1e300 and 1e-300 together: the products overflow, the fractions do not
    hull = convex_hull([(-1e300, 0.0), (1e300, 0.0), (0.0, 1e-300)])
    assert hull == [(-1e300, 0.0), (1e300, 0.0), (0.0, 1e-300)]
