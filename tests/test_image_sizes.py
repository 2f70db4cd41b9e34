"""An image whose header says what it is but whose size is broken (a file cut short, a
side of 0, a number no image has) is an author's error at the image's line, never an
internal error, for PNG, GIF, JPEG, WebP and SVG alike."""
from __future__ import annotations

import random
import struct

import pytest
from sections_site import make_site

from explorables.site_builder.commands.build import build_site
from explorables.site_builder.errors import BuildError
from explorables.site_builder.output.images import image_size, size_problem

LIMIT = "an image is 1 to 100,000 pixels on a side"


def png(width: int, height: int) -> bytes:
    return b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR" + struct.pack(">II", width, height) + b"\x08\x02\0\0\0" + b"\0" * 20


def gif(width: int, height: int) -> bytes:
    return b"GIF89a" + struct.pack("<HH", width, height) + b"\0" * 20


def jpeg(width: int, height: int) -> bytes:
    return (b"\xff\xd8" + b"\xff\xe0\x00\x10JFIF\0\x01\x01\0\0\x01\0\x01\0\0"
            + b"\xff\xc0\x00\x11\x08" + struct.pack(">HH", height, width) + b"\x03" + b"\0" * 20)


def webp(chunk: bytes, body: bytes) -> bytes:
    return b"RIFF" + struct.pack("<I", 4 + len(body)) + b"WEBP" + chunk + body


def vp8x(width: int, height: int) -> bytes:
    return webp(b"VP8X", b"\x0a\0\0\0" + b"\0" * 4 + (width - 1).to_bytes(3, "little")
                + (height - 1).to_bytes(3, "little") + b"\0" * 8)


def svg(attributes: str) -> bytes:
    return f'<svg xmlns="http://www.w3.org/2000/svg" {attributes}><circle r="1"/></svg>'.encode()


@pytest.mark.parametrize("name, data, size", [
    ("a.png", png(640, 360), (640, 360)),
    ("a.gif", gif(32, 16), (32, 16)),
    ("a.jpg", jpeg(800, 600), (800, 600)),
    ("a.webp", vp8x(300, 200), (300, 200)),
    ("a.svg", svg('width="120" height="80"'), (120, 80)),
    ("a.svg", svg('viewBox="0 0 300 150"'), (300, 150)),
    ("a.svg", svg('width="0" height="0" viewBox="0 0 30 15"'), (30, 15)),  # 0: the viewBox says
])
def test_good_images_give_their_size(tmp_path, name, data, size):
    (tmp_path / name).write_bytes(data)
    assert image_size(tmp_path / name) == size
    assert size_problem(tmp_path / name) == ""


@pytest.mark.parametrize("name, data, problem", [
    ("a.svg", svg(f'width="{"9" * 400}" height="10"'), f"the SVG file says it is over 10^18 by 10 pixels; {LIMIT}"),
    ("a.svg", svg(f'viewBox="0 0 {"1" * 30} 5"'), f"the SVG file says it is over 10^18 by 5 pixels; {LIMIT}"),
    ("a.svg", svg('width="200000" height="10"'), f"the SVG file says it is 200,000 by 10 pixels; {LIMIT}"),
    ("a.svg", svg('viewBox="0 0 0 0"'), f"the SVG file says it is 0 by 0 pixels; {LIMIT}"),
    ("a.png", png(0, 360), f"the PNG file says it is 0 by 360 pixels; {LIMIT}"),
    ("a.png", png(2**31, 10), f"the PNG file says it is 2,147,483,648 by 10 pixels; {LIMIT}"),
    ("a.png", png(640, 360)[:20], "the PNG file is cut short or its header is broken"),
    ("a.gif", gif(0, 0), f"the GIF file says it is 0 by 0 pixels; {LIMIT}"),
    ("a.gif", b"GIF89a\x01", "the GIF file is cut short or its header is broken"),
    ("a.jpg", jpeg(0, 600), f"the JPEG file says it is 0 by 600 pixels; {LIMIT}"),
    ("a.jpg", jpeg(800, 600)[:24], "the JPEG file is cut short or its header is broken"),
    ("a.jpg", b"\xff\xd8\xff\xe0\x00\x00" + b"\0" * 30, "the JPEG file is cut short or its header is broken"),
    ("a.webp", vp8x(300, 200)[:26], "the WebP file is cut short or its header is broken"),
    ("a.webp", webp(b"VP8 ", b"\0" * 10 + b"\0\0\0\0"), f"the WebP file says it is 0 by 0 pixels; {LIMIT}"),
    ("a.webp", webp(b"ABCD", b"\0" * 20), "the WebP file is cut short or its header is broken"),
])
def test_a_broken_size_is_said_plainly(tmp_path, name, data, problem):
    (tmp_path / name).write_bytes(data)
    assert image_size(tmp_path / name) is None
    assert size_problem(tmp_path / name) == problem


@pytest.mark.parametrize("data", [png(640, 360), gif(32, 16), jpeg(800, 600), vp8x(300, 200)])
def test_every_cut_and_every_flipped_byte_of_a_header_is_read_or_refused(tmp_path, data):
    chance = random.Random(7)
    path = tmp_path / "a.img"
    for cut in range(len(data)):
        path.write_bytes(data[:cut])
        assert image_size(path) is None or image_size(path)[0] > 0
        flipped = bytearray(data)
        flipped[cut] = chance.randrange(256)
        path.write_bytes(bytes(flipped))
        size = image_size(path)
        assert size is None or all(0 < side <= 100_000 for side in size)


@pytest.mark.parametrize("file, data, problem", [
    ("big.svg", svg(f'width="{"9" * 400}" height="10"'), f"the SVG file says it is over 10^18 by 10 pixels; {LIMIT}"),
    ("cut.png", png(640, 360)[:20], "the PNG file is cut short or its header is broken"),
    ("zero.gif", gif(0, 5), f"the GIF file says it is 0 by 5 pixels; {LIMIT}"),
    ("cut.jpg", jpeg(800, 600)[:24], "the JPEG file is cut short or its header is broken"),
])
def test_a_broken_image_is_an_error_at_its_line(tmp_path, file, data, problem):
    content = make_site(tmp_path)
    (content / "basics" / "img" / file).write_bytes(data)
    (content / "basics" / "03-images.md").write_text(
        f"---\ntitle: Images\n---\nText.\n\n:::{{figure}} img/{file}\n:alt: it\nIt.\n:::\n\nAnd ![it](img/{file}) here.\n",
        encoding="utf-8")
    with pytest.raises(BuildError) as info:
        build_site(content, tmp_path / "out")
    assert str(info.value) == (
        f"content/basics/03-images.md:6:13: {{figure}}: cannot read the size of 'img/{file}': {problem}\n"
        "    save the image again from an image editor\n"
        f"content/basics/03-images.md:11:11: cannot read the size of image 'img/{file}': {problem}\n"
        "    save the image again from an image editor\n"
        "2 errors; nothing was written (there is no previous site).")
