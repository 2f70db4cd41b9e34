"""Plane geometry the figures draw: the hull of the values and the reach of each key.

An attention output o = sum_j a_j v_j with a_j >= 0 and sum_j a_j = 1 is a convex
combination of the values, so it always lies in their convex hull: the smallest convex
polygon holding every v_j. The hull is found with Andrew's monotone chain (1979), in
O(n log n): sort the points, then build the lower and upper chains, dropping every point
where the chain turns clockwise. The turn of o -> a -> b is the sign of

    cross(a - o, b - o) = (a_x - o_x)(b_y - o_y) - (a_y - o_y)(b_x - o_x)

(positive: counter-clockwise). The reach of a key k along the query q is the scalar
projection k . q / |q|: since q . k = |q| (k . q / |q|), it is the length that the score
multiplies by |q|.

The turn test is exact (in fractions when floats cannot decide), so the hull is right
for every finite input, coordinates of 1e300 and 1e-300 together included.
"""

from __future__ import annotations

import math

from .linalg import Matrix, Vector, as_matrix, as_number, as_vector, describe, dot, exponent, scale

Point = tuple[float, float]


def _turn(o: Point, a: Point, b: Point) -> int:
    """The sign of cross(a - o, b - o): +1 when o -> a -> b turns counter-clockwise,
    -1 clockwise, 0 on a line. Exact for every finite input.

    The float cross product decides when it is clearly away from 0 (Shewchuk's error
    bound for this determinant); otherwise, or on overflow, it is recomputed exactly in
    fractions, which any float converts to without error.
    """
    left = (a[0] - o[0]) * (b[1] - o[1])
    right = (a[1] - o[1]) * (b[0] - o[0])
    det = left - right
    bound = 3.3306690738754716e-16 * (abs(left) + abs(right)) + 1e-300  # rounding, underflow
    if math.isfinite(det) and math.isfinite(bound) and abs(det) > bound:
        return 1 if det > 0 else -1
    from fractions import Fraction  # noqa: PLC0415  rarely needed: not imported when the worker starts

    o_x, o_y, a_x, a_y, b_x, b_y = map(Fraction, (*o, *a, *b))
    exact = (a_x - o_x) * (b_y - o_y) - (a_y - o_y) * (b_x - o_x)
    return (exact > 0) - (exact < 0)


def convex_hull(points: Matrix) -> list[Point]:
    """The corners of the convex hull, counter-clockwise, from the leftmost (then lowest).

    Repeated points and points inside an edge are left out, so one distinct point gives
    a hull of one point and points on a line give the two ends.
    """
    P = as_matrix("points", points, cols=2, cols_of="points are 2-D (x, y)")
    unique = sorted({(x, y) for x, y in P})  # by x, then y
    if len(unique) < 3:
        return unique

    def chain(ordered: list[Point]) -> list[Point]:
        hull: list[Point] = []
        for p in ordered:
            while len(hull) >= 2 and _turn(hull[-2], hull[-1], p) <= 0:
                hull.pop()  # hull[-1] is not a counter-clockwise corner
            hull.append(p)
        return hull

    lower = chain(unique)
    upper = chain(unique[::-1])
    return lower[:-1] + upper[:-1]  # each chain ends where the other starts


def _distance_to_segment(p: Point, a: Point, b: Point) -> float:
    """The distance from p to the segment a-b (a point when a = b)."""
    d_x, d_y = b[0] - a[0], b[1] - a[1]
    w_x, w_y = p[0] - a[0], p[1] - a[1]
    length = math.hypot(d_x, d_y)
    if length == 0.0:
        return math.hypot(w_x, w_y)
    u_x, u_y = d_x / length, d_y / length  # unit vector along the segment
    t = min(length, max(0.0, w_x * u_x + w_y * u_y))  # how far along it the nearest point is
    return math.hypot(w_x - t * u_x, w_y - t * u_y)


def point_in_hull(point: Vector, hull: Matrix, tol: float = 1e-9) -> bool:
    """True if point lies in the counter-clockwise convex polygon ``hull`` (as made by
    ``convex_hull``), allowing a distance of ``tol`` times the largest coordinate.

    A hull of one point or two points (a segment) is handled as that point or segment.
    """
    x, y = as_vector("point", point, 2, of="points are 2-D (x, y)")
    p: Point = (x, y)
    H: list[Point] = [(a, b) for a, b in as_matrix("hull", hull, cols=2, cols_of="points are 2-D (x, y)")]
    tol = as_number("tol", tol)
    largest = max(abs(c) for q in [*H, p] for c in q)
    if largest > 2.0**1020:  # differences of such coordinates could overflow: quarter them
        p, H = _quartered(p), [_quartered(q) for q in H]
        largest /= 4.0
    slack = tol * largest
    if len(H) <= 2:
        return _distance_to_segment(p, H[0], H[-1]) <= slack
    for a, b in zip(H, H[1:] + H[:1], strict=True):
        d_x, d_y = b[0] - a[0], b[1] - a[1]
        length = math.hypot(d_x, d_y)
        if length == 0.0:
            continue
        # signed distance of p from the line a -> b, positive on the left (inside)
        left = (d_x / length) * (p[1] - a[1]) - (d_y / length) * (p[0] - a[0])
        if left < -slack:
            return False
    return True


def _quartered(q: Point) -> Point:
    return (q[0] / 4.0, q[1] / 4.0)


def unit(q: Vector) -> list[float]:
    """q / |q|, the direction of q; ValueError for the zero vector."""
    q = as_vector("q", q)
    e = exponent(q)
    q_hat = scale(q, -e)  # the same direction, |entries| < 1, so |q_hat| cannot overflow
    norm = math.hypot(*q_hat)
    if norm == 0.0:
        raise ValueError(f"q has no direction: it is the zero vector {describe(q)}")
    return [x / norm for x in q_hat]


def scalar_projection(k: Vector, q: Vector) -> float:
    """k . q / |q|: how far key k reaches along the query's arrow (negative: behind it)."""
    k = as_vector("k", k)
    q = as_vector("q", q, len(k), of=f"k has {len(k)}; k and q must have the same length")
    return dot(k, unit(q))


def vector_projection(k: Vector, q: Vector) -> list[float]:
    """(k . u) u with u = q / |q|: the foot of key k on the line of the query."""
    k = as_vector("k", k)
    q = as_vector("q", q, len(k), of=f"k has {len(k)}; k and q must have the same length")
    u = unit(q)
    reach = dot(k, u)
    return [reach * x for x in u]


__all__ = ["Point", "convex_hull", "point_in_hull", "scalar_projection", "unit", "vector_projection"]
