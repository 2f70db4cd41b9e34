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
from collections.abc import MutableMapping
from pathlib import Path
from typing import Any

from ..errors import BuildError, SourceError
from ..structure.active_svg import active_message
from ..structure.files import unsafe_file_name

EXTENSIONS = {".png", ".gif", ".jpg", ".jpeg", ".webp", ".svg", ".avif"}


LARGEST = 100_000  # pixels on a side: an image larger than this is a broken or hostile file


class SizeError(ValueError):
    """An image whose header says what it is but whose size cannot be read: a file cut
    short, a side of 0, a number past LARGEST."""


def image_size(path: Path) -> tuple[int, int] | None:
    """(width, height) in pixels, or None when the header cannot be read."""
    try:
        return read_size(path)
    except SizeError:
        return None


def size_problem(path: Path) -> str:
    """Why the size of an image of a known kind cannot be read ("the PNG file is cut
    short"), or "" (also for kinds whose size is not read, such as AVIF)."""
    try:
        read_size(path)
    except SizeError as err:
        return str(err)
    return ""


def read_size(path: Path) -> tuple[int, int] | None:
    """(width, height) in pixels; None for a kind of image whose header is not read;
    SizeError for a PNG, GIF, JPEG, WebP or SVG whose size is broken."""
    data = path.read_bytes()[:65536] if path.suffix.lower() != ".svg" else path.read_bytes()
    kind = _kind(data, path)
    if kind is None:
        return None
    try:
        size = _size(kind, data, path)
    except (struct.error, IndexError, ValueError, OverflowError):
        size = None
    if size is None and kind == "SVG":
        return None  # width="100%" and no viewBox: a size the page does not set
    if size is None:
        raise SizeError(f"the {kind} file is cut short or its header is broken")
    width, height = size
    if not (0 < width <= LARGEST and 0 < height <= LARGEST):
        raise SizeError(
            f"the {kind} file says it is {_said(width)} by {_said(height)} pixels; "
            f"an image is 1 to {LARGEST:,} pixels on a side"
        )
    return int(width), int(height)  # whole already (_whole): what is not is out of range above


def _said(number: float) -> str:
    """A side as a message gives it: 1,280, or 'over 10^18' for one too large to round."""
    return f"{number:,.0f}" if abs(number) < 1e18 else "over 10^18"


def _kind(data: bytes, path: Path) -> str | None:
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return "PNG"
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return "GIF"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "WebP"
    if data[:2] == b"\xff\xd8":
        return "JPEG"
    if path.suffix.lower() == ".svg":
        return "SVG"
    return None


def _size(kind: str, data: bytes, path: Path) -> tuple[float, float] | None:
    if kind == "PNG":
        return struct.unpack(">II", data[16:24])
    if kind == "GIF":
        return struct.unpack("<HH", data[6:10])
    if kind == "WebP":
        chunk = data[12:16]
        if chunk == b"VP8X" and len(data) >= 30:
            return 1 + int.from_bytes(data[24:27], "little"), 1 + int.from_bytes(data[27:30], "little")
        if chunk == b"VP8 ":
            w, h = struct.unpack("<HH", data[26:30])
            return w & 0x3FFF, h & 0x3FFF
        if chunk == b"VP8L" and len(data) >= 25:
            bits = int.from_bytes(data[21:25], "little")
            return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
        return None
    if kind == "JPEG":
        return _jpeg_size(data if len(data) < 65536 else path.read_bytes())
    return _svg_size(data.decode("utf-8", "replace"))


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    at = 2
    while at + 9 < len(data):
        if data[at] != 0xFF:
            return None
        marker = data[at + 1]
        length = struct.unpack(">H", data[at + 2 : at + 4])[0]
        if marker in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF):
            height, width = struct.unpack(">HH", data[at + 5 : at + 9])
            return width, height
        if length < 2:  # a segment's length counts its own two bytes
            return None
        at += 2 + length
    return None


def _svg_size(text: str) -> tuple[float, float] | None:
    root = re.search(r"<svg\b[^>]*>", text)
    if not root:
        return None
    tag = root.group(0)

    def number(name):
        found = re.search(rf'\b{name}\s*=\s*["\']\s*([\d.]+)\s*(px)?\s*["\']', tag)
        return float(found.group(1)) if found else None

    width, height = number("width"), number("height")
    if width and height:
        return _whole(width), _whole(height)
    box = re.search(r'viewBox\s*=\s*["\']\s*[-\d.]+[\s,]+[-\d.]+[\s,]+([\d.]+)[\s,]+([\d.]+)', tag)
    if box:
        return _whole(float(box.group(1))), _whole(float(box.group(2)))
    return None


def _whole(number: float) -> float:
    """``number`` rounded, or itself when it is too large to round (inf): the caller
    says it is too large."""
    return round(number) if abs(number) < 1e18 else number


def resolve(env: MutableMapping[str, Any], src: str) -> tuple[Path, str] | None:
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


def page_src(env: MutableMapping[str, Any], url: str) -> str:
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
    """Copy each referenced image to the same place under the site (if not there yet:
    those of the author's folders are, checked as they were copied). An SVG that would
    run code when opened by itself is an error at its line (structure/active_svg.py)."""
    for page in pages:
        for file, url in page.env.get("images", []):
            target = staging / url
            found = active_message(file) if file.suffix.lower() == ".svg" and not target.exists() else None
            if found:
                raise BuildError([SourceError(file, *found)], root=Path(content).parent)
            named = next(
                (
                    problem
                    for part in (file, *file.parents)
                    if part != content and content in part.parents and (problem := unsafe_file_name(part))
                ),
                None,
            )
            if named and not target.exists():  # an image beside the lessons, not in a folder copied whole
                raise BuildError([named], root=Path(content).parent)
            if not target.exists():
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(file, target)
