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

Points are scaled by a power of two (exact) before the cross products, so coordinates as
large as 1e300 do not overflow.
"""
from __future__ import annotations

import math

from .linalg import Matrix, Vector, as_matrix, as_number, as_vector, dot, exponent, scale

Point = tuple[float, float]


def _cross(o: Point, a: Point, b: Point) -> float:
    """cross(a - o, b - o): > 0 when o -> a -> b turns counter-clockwise."""
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _scaled(points: list[Point], e: int) -> list[Point]:
    return [(math.ldexp(x, -e), math.ldexp(y, -e)) for x, y in points]


def convex_hull(points: Matrix) -> list[Point]:
    """The corners of the convex hull, counter-clockwise, from the leftmost (then lowest).

    Repeated points and points inside an edge are left out, so one distinct point gives
    a hull of one point and points on a line give the two ends.
    """
    P = as_matrix("points", points, cols=2, cols_of="points are 2-D (x, y)")
    unique = sorted(set((x, y) for x, y in P))  # by x, then y
    if len(unique) < 3:
        return unique
    e = exponent([c for p in unique for c in p])
    S = dict(zip(unique, _scaled(unique, e)))  # each point -> its copy with |coordinates| < 1

    def chain(ordered: list[Point]) -> list[Point]:
        hull: list[Point] = []
        for p in ordered:
            while len(hull) >= 2 and _cross(S[hull[-2]], S[hull[-1]], S[p]) <= 0:
                hull.pop()  # hull[-1] is not a counter-clockwise corner
            hull.append(p)
        return hull

    lower = chain(unique)
    upper = chain(unique[::-1])
    return lower[:-1] + upper[:-1]  # each chain ends where the other starts


def point_in_hull(point: Vector, hull: Matrix, tol: float = 1e-9) -> bool:
    """True if point lies in the counter-clockwise convex polygon ``hull`` (as made by
    ``convex_hull``), allowing a distance of ``tol`` times the largest coordinate.

    A hull of one point or two points (a segment) is handled as that point or segment.
    """
    p = tuple(as_vector("point", point, 2, of="points are 2-D (x, y)"))
    H = [tuple(c) for c in as_matrix("hull", hull, cols=2, cols_of="points are 2-D (x, y)")]
    tol = as_number("tol", tol)
    e = exponent([c for q in H + [p] for c in q])
    (p,) = _scaled([p], e)
    H = _scaled(H, e)  # now every |coordinate| < 1, so tol is relative to the largest
    if len(H) == 1:
        return math.hypot(p[0] - H[0][0], p[1] - H[0][1]) <= tol
    if len(H) == 2:
        (ax, ay), (bx, by) = H
        length2 = (bx - ax) ** 2 + (by - ay) ** 2
        t = 0.0 if length2 == 0 else ((p[0] - ax) * (bx - ax) + (p[1] - ay) * (by - ay)) / length2
        t = min(1.0, max(0.0, t))  # the nearest point of the segment
        return math.hypot(p[0] - (ax + t * (bx - ax)), p[1] - (ay + t * (by - ay))) <= tol
    for a, b in zip(H, H[1:] + H[:1]):
        edge = math.hypot(b[0] - a[0], b[1] - a[1])
        if _cross(a, b, p) < -tol * edge:  # p lies more than tol to the right of a -> b
            return False
    return True


def unit(q: Vector) -> list[float]:
    """q / |q|, the direction of q; ValueError for the zero vector."""
    q = as_vector("q", q)
    e = exponent(q)
    q_hat = scale(q, -e)  # the same direction, |entries| < 1, so |q_hat| cannot overflow
    norm = math.hypot(*q_hat)
    if norm == 0.0:
        raise ValueError(f"q has no direction: it is the zero vector {q!r}")
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
