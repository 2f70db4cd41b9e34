"""Colour arithmetic for the contrast tests: the stylesheet's custom properties per colour
scheme, sRGB compositing, and WCAG 2.1 relative luminance and contrast ratio."""
from __future__ import annotations

import re
from pathlib import Path

from explorables.site_builder.output.scripts import stylesheet

STATIC = Path(__file__).resolve().parent.parent / "static"


def scheme(name: str, css: str | None = None) -> dict[str, str]:
    """Every `--ex-*` property that `:root` holds in the light or dark scheme."""
    css = css if css is not None else stylesheet(STATIC)
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    found: dict[str, str] = {}
    dark = r"@media (?:screen and )?\(prefers-color-scheme: dark\) \{\s*:root \{(.*?)\}\s*\}"
    dark_blocks = re.findall(dark, css, flags=re.S)
    light_blocks = re.findall(r"(?<![\w-]):root \{(.*?)\}", re.sub(dark, "", css, flags=re.S), flags=re.S)
    for block in light_blocks + (dark_blocks if name == "dark" else []):
        for prop, value in re.findall(r"--ex-([\w-]+):\s*([^;]+);", block):
            found[prop] = value.strip()
    return found


def rgb(value: str) -> tuple[float, float, float]:
    """#rgb or #rrggbb as three floats in 0..255."""
    h = value.strip().lstrip("#")
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    if not re.fullmatch(r"[0-9a-fA-F]{6}", h):
        raise ValueError(f"not a hex colour: {value!r}")
    return tuple(float(int(h[i:i + 2], 16)) for i in (0, 2, 4))


def mix(top, bottom, alpha: float):
    """`top` at `alpha` over an opaque `bottom` (what color-mix with transparent and
    canvas globalAlpha draw)."""
    return tuple(alpha * t + (1 - alpha) * b for t, b in zip(top, bottom))


def luminance(c) -> float:
    def channel(v: float) -> float:
        v /= 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(v) for v in c)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)
