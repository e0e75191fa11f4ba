"""A Pyodide memory snapshot with the calculators imported, made at build time in Node.

Restoring it in the browser skips Python's start-up and the wheel's import (see the Performance
page). Of the raw image, only the 4 KiB pages that differ from the memory the instantiated
``pyodide.asm.wasm`` holds before any code runs (its data segments; zero beyond them) ship: the
worker takes the others from its own freshly instantiated module (``pack`` with a ``base``). The
result is gzip-compressed; the worker inflates it with ``DecompressionStream`` and spreads the
pages back. Its file name carries its content hash, and the worker checks the sha256 before
restoring. The image is bound to the exact ``pyodide.asm.wasm`` it was made with, so the plugin
makes it from the same ``node_modules/pyodide`` it ships.

The same Node run tells which standard-library modules Python had imported; :mod:`.stdlib` makes
the two small standard-library zips of the snapshot and of a normal boot from that.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import subprocess
from dataclasses import dataclass
from pathlib import Path

from . import stdlib
from .node import NodeError, find_node

SCRIPT = Path(__file__).with_name("snapshot.mjs")
#: The sparse formats: MAGIC (or MAGIC_DIFF), the image's length and the page size (little-endian
#: u32 each); MAGIC_DIFF adds a u32 prefix length and that many bytes of the image in full. Then a
#: bitmap with one bit per page of the rest (bit i & 7 of byte i >> 3: page i ships), then those
#: pages in order (the last one possibly short). A page that does not ship is zero (MAGIC) or the
#: base's (MAGIC_DIFF: the module's initial memory, zero beyond it). worker/snapshot.js reads both.
MAGIC = b"PYSNAP1\0"
MAGIC_DIFF = b"PYSNAPD\0"
PAGE = 4096


class SnapshotError(RuntimeError):
    pass


@dataclass(frozen=True)
class Snapshot:
    path: Path
    """The gzip-compressed image, named ``snapshot-<hash>.bin.gz``."""
    sha256: str
    """Hex sha256 of the compressed file, as the worker checks it."""
    calculators: tuple[str, ...]
    stdlib: Path
    """The standard-library zip mounted beside the restored image (what is not imported yet)."""
    boot_stdlib: Path
    """The standard-library zip of a normal boot: what Pyodide and the calculators import."""


def make_snapshot(pyodide_dir: Path, wheel: Path, out_dir: Path, node: str | None = None) -> Snapshot:
    """Boot Pyodide in Node with ``wheel`` imported and write the compressed snapshot and the two
    standard-library zips to ``out_dir``."""
    try:
        node = node or find_node()
    except NodeError as exc:
        raise SnapshotError(str(exc)) from None
    out_dir.mkdir(parents=True, exist_ok=True)
    raw = out_dir / "snapshot.bin"
    base = out_dir / "snapshot.bin.base"
    proc = subprocess.run([node, str(SCRIPT), str(pyodide_dir), str(wheel), str(raw)],
                          capture_output=True, text=True)
    if proc.returncode != 0 or not raw.exists() or not base.exists():
        tail = "\n".join((proc.stderr or proc.stdout).strip().splitlines()[-40:])
        raise SnapshotError(f"making the Pyodide snapshot failed:\n{tail}")
    try:
        report = json.loads(proc.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        raise SnapshotError(f"unexpected output from {SCRIPT.name}: {proc.stdout[-500:]!r}") from None
    image = raw.read_bytes()
    # mtime=0: the same image gives the same bytes, so the same name.
    data = gzip.compress(pack(image, base=base.read_bytes(), offset=header_length(image)), compresslevel=9, mtime=0)
    raw.unlink()
    base.unlink()
    sha = hashlib.sha256(data).hexdigest()
    for old in [*out_dir.glob("snapshot-*.bin.gz"), *out_dir.glob("stdlib-*.zip")]:
        old.unlink()
    path = out_dir / f"snapshot-{sha[:16]}.bin.gz"
    path.write_bytes(data)
    compiled = out_dir / "snapshot.bin.pyc.zip"
    zips = stdlib.write_zips(pyodide_dir / "python_stdlib.zip", wheel, report["imported_stdlib"],
                             report["booted_stdlib"], out_dir, compiled_zip=compiled if compiled.exists() else None)
    compiled.unlink(missing_ok=True)
    return Snapshot(path=path, sha256=sha, calculators=tuple(report["calculators"]),
                    stdlib=zips.snapshot, boot_stdlib=zips.boot)


def header_length(image: bytes) -> int:
    """The length of the header Pyodide puts before the memory in its snapshot (a u32 at byte 4),
    so that the pages compared with the base are the memory's own."""
    if len(image) < 8 or image[1:4] != b"snp":
        raise SnapshotError("the Pyodide snapshot has an unknown header")
    return int.from_bytes(image[4:8], "little")


def pack(image: bytes, page: int = PAGE, *, base: bytes | None = None, offset: int = 0) -> bytes:
    """The image in a sparse format (see MAGIC): with no base, its non-zero pages and a bitmap of
    them; with a base, ``image[:offset]`` whole, then the pages of the rest that differ from the
    base (zero beyond its end)."""
    diff = base is not None or offset
    base = base or b""
    body = image[offset:]
    count = -(-len(body) // page)
    bitmap = bytearray(-(-count // 8))
    pages = []
    for i in range(count):
        chunk = body[i * page:(i + 1) * page]
        same = base[i * page:i * page + len(chunk)]
        if chunk != same.ljust(len(chunk), b"\0"):
            bitmap[i >> 3] |= 1 << (i & 7)
            pages.append(chunk)
    head = (MAGIC_DIFF if diff else MAGIC) + len(image).to_bytes(4, "little") + page.to_bytes(4, "little")
    if diff:
        head += offset.to_bytes(4, "little") + image[:offset]
    return head + bytes(bitmap) + b"".join(pages)


def unpack(packed: bytes, base: bytes = b"") -> bytes:
    """The image again: what the worker's ``expandSnapshot`` and ``fillFromBase`` do, for tests."""
    magic = packed[:8]
    if magic not in (MAGIC, MAGIC_DIFF):
        raise SnapshotError("not a packed snapshot")
    total = int.from_bytes(packed[8:12], "little")
    page = int.from_bytes(packed[12:16], "little")
    at, offset = 16, 0
    if magic == MAGIC_DIFF:
        offset = int.from_bytes(packed[16:20], "little")
        at = 20 + offset
    count = -(-(total - offset) // page)
    bitmap = packed[at:at + -(-count // 8)]
    image = bytearray(packed[20:20 + offset] if offset else b"") + bytearray(total - offset)
    src = at + len(bitmap)
    for i in range(count):
        start = offset + i * page
        size = min(page, total - start)
        if bitmap[i >> 3] & (1 << (i & 7)):
            image[start:start + size] = packed[src:src + size]
            src += size
        else:
            chunk = base[i * page:i * page + size]
            image[start:start + len(chunk)] = chunk
    return bytes(image)
