"""Images of the lessons: their pixel size, read from the file, and their copy into the site.

``image_size`` reads the width and height from a PNG, GIF, JPEG, WebP or SVG header
(no imaging library needed), so every ``<img>`` carries explicit ``width`` and
``height`` and the text never shifts while it loads. ``copy_images`` copies every
image a page referenced into the built site, at the same path relative to content/.
"""
from __future__ import annotations

import posixpath
import re
import shutil
import struct
from pathlib import Path

EXTENSIONS = {".png", ".gif", ".jpg", ".jpeg", ".webp", ".svg", ".avif"}


def image_size(path: Path) -> tuple[int, int] | None:
    """(width, height) in pixels, or None when the header cannot be read."""
    data = path.read_bytes()[:65536] if path.suffix.lower() != ".svg" else path.read_bytes()
    try:
        if data[:8] == b"\x89PNG\r\n\x1a\n":
            return struct.unpack(">II", data[16:24])
        if data[:6] in (b"GIF87a", b"GIF89a"):
            return struct.unpack("<HH", data[6:10])
        if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
            kind = data[12:16]
            if kind == b"VP8X":
                return 1 + int.from_bytes(data[24:27], "little"), 1 + int.from_bytes(data[27:30], "little")
            if kind == b"VP8 ":
                w, h = struct.unpack("<HH", data[26:30])
                return w & 0x3FFF, h & 0x3FFF
            if kind == b"VP8L":
                bits = int.from_bytes(data[21:25], "little")
                return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
        if data[:2] == b"\xff\xd8":
            return _jpeg_size(data if len(data) < 65536 else path.read_bytes())
        if path.suffix.lower() == ".svg":
            return _svg_size(data.decode("utf-8", "replace"))
    except (struct.error, IndexError, ValueError):
        return None
    return None


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    at = 2
    while at + 9 < len(data):
        if data[at] != 0xFF:
            return None
        marker = data[at + 1]
        length = struct.unpack(">H", data[at + 2:at + 4])[0]
        if marker in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF):
            height, width = struct.unpack(">HH", data[at + 5:at + 9])
            return width, height
        at += 2 + length
    return None


def _svg_size(text: str) -> tuple[int, int] | None:
    root = re.search(r"<svg\b[^>]*>", text)
    if not root:
        return None
    tag = root.group(0)

    def number(name):
        found = re.search(rf'\b{name}\s*=\s*["\']\s*([\d.]+)\s*(px)?\s*["\']', tag)
        return float(found.group(1)) if found else None
    width, height = number("width"), number("height")
    if width and height:
        return round(width), round(height)
    box = re.search(r'viewBox\s*=\s*["\']\s*[-\d.]+[\s,]+[-\d.]+[\s,]+([\d.]+)[\s,]+([\d.]+)', tag)
    if box:
        return round(float(box.group(1))), round(float(box.group(2)))
    return None


def resolve(env: dict, src: str) -> tuple[Path, str] | None:
    """The file a page's relative image path names, and its path in the built site.

    None for addresses (http:, data:, /absolute) that are not the site's own files."""
    if re.match(r"^[a-z][a-z0-9+.-]*:", src, re.I) or src.startswith(("/", "#")) or not src:
        return None
    page = Path(env.get("path", "."))
    root = Path(env.get("content_root") or page.parent).resolve()
    file = (page.parent / src.split("#")[0].split("?")[0]).resolve()
    try:
        url = file.relative_to(root).as_posix()
    except ValueError:
        return file, ""  # outside the content folder: the caller reports it
    return file, url


def page_src(env: dict, url: str) -> str:
    """The address of an image (``url``: its path under the site's root) as written in
    the page: relative to the page's own folder, which mirrors its folder in content/."""
    page = Path(env.get("path", "."))
    root = Path(env.get("content_root") or page.parent).resolve()
    try:
        folder = page.parent.resolve().relative_to(root).as_posix()
    except ValueError:
        return url
    return url if folder in ("", ".") else posixpath.relpath(url, folder)


def copy_images(pages, content: Path, staging: Path) -> None:
    """Copy each referenced image to the same place under the site (if not there yet)."""
    for page in pages:
        for file, url in page.env.get("images", []):
            target = staging / url
            if not target.exists():
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(file, target)
