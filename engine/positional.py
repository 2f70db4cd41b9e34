"""Position codes: how attention learns the order of the tokens.

Attention alone treats its input as a set. Adding a code of the position t to each token
vector breaks the tie between equal tokens at different places.

Sinusoidal encoding (Vaswani et al. 2017), for an even dimension D and a base b:

    PE(t)_{2i}   = sin(theta_i t)
    PE(t)_{2i+1} = cos(theta_i t)          theta_i = b^(-2i/D),  i = 0 .. D/2 - 1

Each pair is a clock hand at the angle theta_i t. A shift by k turns every hand by
theta_i k whatever t is, so the normalised similarity depends on the offset only:

    PE(t) . PE(t + k) / (D/2) = (2/D) sum_i cos(theta_i k)

The lessons' 2-D code is one such pair with a fixed angular step omega = 0.6, scaled by a
strength s and added to the embedding e_t of the token at position t = 0, 1, ...:

    p_t = (sin(omega t), cos(omega t)),      x_t = e_t + s p_t
"""

from __future__ import annotations

import math

from .linalg import Matrix, as_matrix, as_number, clamp, describe, is_integral

OMEGA = 0.6  # angular step of the lessons' 2-D position code, radians per position


def _check_dim(dim: object) -> int:
    if not is_integral(dim) or int(dim) < 2 or int(dim) % 2:
        raise ValueError(f"dim must be an even integer >= 2, got {describe(dim)}")
    return int(dim)


def _check_base(base: object) -> float:
    value = as_number("base", base)
    if value < 1.0:
        raise ValueError(f"base must be a finite number >= 1, got {value!r}")
    return value


def frequencies(dim: int, base: float = 10000.0) -> list[float]:
    """theta_i = base^(-2i/D) for i = 0 .. D/2 - 1: the turn of each clock per position."""
    return list(_thetas(_check_dim(dim), _check_base(base)))  # (D/2,)


_THETAS: dict[tuple[int, float], tuple[float, ...]] = {}  # (D, base) -> their frequencies


def _thetas(D: int, b: float) -> tuple[float, ...]:
    """``frequencies`` of a checked D and base, computed once: a figure's curve asks
    for the codes of a thousand positions with the same D and base."""
    found = _THETAS.get((D, b))
    if found is None:
        if len(_THETAS) >= 64:
            _THETAS.clear()
        found = _THETAS[D, b] = tuple(b ** (-2 * i / D) for i in range(D // 2))
    return found


def sinusoidal(position: float, dim: int, base: float = 10000.0) -> list[float]:
    """PE(t) = (sin theta_0 t, cos theta_0 t, sin theta_1 t, cos theta_1 t, ...), length D."""
    t = as_number("position", position)
    angles = [theta * t for theta in _thetas(_check_dim(dim), _check_base(base))]  # theta <= 1: finite
    pe = [0.0] * (2 * len(angles))  # (D,): the sines at the even places, the cosines at the odd
    pe[0::2], pe[1::2] = map(math.sin, angles), map(math.cos, angles)
    return pe


def pe_similarity_terms(offset: float, dim: int, base: float = 10000.0) -> list[float]:
    """cos(theta_i k) for i = 0 .. D/2 - 1: clock i's share of PE(t) . PE(t + k).

    Each pair contributes sin(a) sin(b) + cos(a) cos(b) = cos(b - a) = cos(theta_i k);
    their sum over D/2 is ``pe_similarity``. The first terms (fast clocks) swing with k,
    the last (slow clocks) stay near 1.
    """
    k = as_number("offset", offset)
    return [math.cos(theta * k) for theta in frequencies(dim, base)]  # (D/2,)


def pe_similarity(offset: float, dim: int, base: float = 10000.0) -> float:
    """PE(t) . PE(t + k) / (D/2) = (2/D) sum_i cos(theta_i k), the same for every t.

    1 at k = 0; for D = 32 and k = 8 it is 0.658 with base 10000 and 0.401 with base 100.
    """
    terms = pe_similarity_terms(offset, dim, base)
    return math.fsum(terms) / len(terms)


def position_code(t: float, omega: float = OMEGA) -> list[float]:
    """p_t = (sin(omega t), cos(omega t)), the lessons' 2-D code of position t."""
    t = as_number("t", t)
    omega = as_number("omega", omega)
    angle = clamp(omega * t)  # sin and cos of a finite angle are defined
    return [math.sin(angle), math.cos(angle)]


def embed_with_position(E: Matrix, s: float = 1.0, *, omega: float = OMEGA) -> list[list[float]]:
    """x_t = e_t + s p_t for the rows e_t of E (shape (T, 2)), positions t = 0 .. T-1.

    s = 0 leaves the embeddings as they are: equal tokens then stay equal.
    """
    E = as_matrix("E", E, cols=2, cols_of="the position code p_t is 2-D")
    s = as_number("s", s)
    X = []  # (T, 2)
    for t, e_t in enumerate(E):
        p_t = position_code(t, omega)
        X.append([clamp(e + s * p) for e, p in zip(e_t, p_t, strict=True)])  # saturates, never inf
    return X


__all__ = [
    "OMEGA",
    "embed_with_position",
    "frequencies",
    "pe_similarity",
    "pe_similarity_terms",
    "position_code",
    "sinusoidal",
]
