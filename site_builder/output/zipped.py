"""A folder's files as one zip, each entry deflated, the deflated form of a large file
kept for the next zip.

A bundle carries Pyodide as a script of data (18 MB of base64, output/offline.py) that is
the same in every bundle made with one Pyodide release, and deflating it took two thirds
of a bundle's time. So a file of ``LARGE`` bytes or more is deflated once and kept in the
cache, named by its content's hash, and the next zip copies those bytes. Python's zipfile
cannot write bytes deflated beforehand, hence this writer: the entries are those zipfile
writes with ZIP_DEFLATED at level 6 (the same deflated bytes), dated as the compiled
archives are (pyodide/ahead.py's DATE) so that the same files make the same zip,
readable by any unzipper (PKWARE's APPNOTE, without Zip64: a zip of 4 GiB or more is
refused).
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterable
from pathlib import Path

from ..disk import remembered
from ..errors import BuildError
from ..pyodide.ahead import DATE, sha
from ..pyodide.release import cache_dir

LARGE = 1 << 20  # bytes: a file this large has its deflated form kept
KEPT = 8  # deflated files the cache keeps, those used last
LEVEL = 6
# every entry's date and time (the compiled archives' DATE), in MS-DOS's formats
_DATE = (DATE[0] - 1980) << 9 | DATE[1] << 5 | DATE[2]
_TIME = DATE[3] << 11 | DATE[4] << 5 | DATE[5] // 2
_UTF8 = 0x800  # flag: the name is UTF-8
_MODE = 0o644 << 16  # a plain file, read by all, as a Unix unzipper sets it
_MADE_BY = 3 << 8 | 20  # on Unix, by a writer of version 2.0
_LIMIT = 0xFFFFFFFF  # sizes and offsets without Zip64


def deflated(data: bytes) -> bytes:
    """``data`` as a raw deflate stream, as a zip entry holds it."""
    packer = zlib.compressobj(LEVEL, zlib.DEFLATED, -15)
    return packer.compress(data) + packer.flush()


def _kept(data: bytes) -> bytes:
    """deflated(data) from the cache, or made and kept there. The cached file starts with
    the CRC-32 of the deflated bytes, checked before they are used."""
    path = cache_dir() / "deflated" / f"{sha(data)[:32]}.deflate"

    def make() -> bytes:
        packed = deflated(data)
        return zlib.crc32(packed).to_bytes(4, "little") + packed

    def whole(kept: bytes) -> bool:
        return len(kept) > 4 and zlib.crc32(kept[4:]) == int.from_bytes(kept[:4], "little")

    return remembered(path, make, whole, most=KEPT)[4:]


def write_zip(target: Path, files: Iterable[tuple[str, Path]]) -> None:
    """Write the zip ``target`` holding each (name in the zip, file) of ``files``."""
    central = []
    with open(target, "wb") as out:
        for name, path in files:
            data = path.read_bytes()
            packed = _kept(data) if len(data) >= LARGE else deflated(data)
            encoded = name.encode("utf-8")
            offset = out.tell()
            if offset + len(packed) > _LIMIT or len(data) > _LIMIT:
                raise BuildError(f"the zip would reach 4 GiB at {name}: write a folder instead (--folder)")
            flags = 0 if name.isascii() else _UTF8
            fields = (20, flags, zlib.DEFLATED, _TIME, _DATE, zlib.crc32(data), len(packed), len(data), len(encoded), 0)
            out.write(struct.pack("<IHHHHHIIIHH", 0x04034B50, *fields) + encoded)
            out.write(packed)
            entry = struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, _MADE_BY, *fields, 0, 0, 0, _MODE, offset)
            central.append(entry + encoded)
        start = out.tell()
        listing = b"".join(central)
        if len(central) > 0xFFFF or start + len(listing) > _LIMIT:
            raise BuildError("the zip would hold too many files or reach 4 GiB: write a folder instead (--folder)")
        out.write(listing)
        out.write(struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(central), len(central), len(listing), start, 0))
