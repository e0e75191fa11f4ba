"""A Pyodide memory snapshot with the calculators imported, made at build time in Node.

Restoring it in the browser skips Python's start-up and the wheel's import: the worker is ready
in under half the time a normal boot takes (see the Performance page). The raw image (31 MB) is
half zeros, so it ships *sparse* — only the 4 KiB pages that hold something, with a bitmap of
which (``pack``) — and gzip-compressed (≈6 MB); the worker inflates it with
``DecompressionStream`` and spreads the pages back (inflating half the bytes saves ≈0.1 s on two
cores). Its file name carries its content hash, and the worker checks the sha256 before restoring. The image is bound to the exact ``pyodide.asm.wasm`` it was made with,
so the plugin makes it from the same ``node_modules/pyodide`` it ships.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

SCRIPT = Path(__file__).with_name("snapshot.mjs")
#: The sparse format: MAGIC, the image's length and the page size (little-endian u32 each), a
#: bitmap with one bit per page (bit i & 7 of byte i >> 3: page i holds something), then those
#: pages in order (the last one possibly short). worker.js's ``expandSnapshot`` reads it.
MAGIC = b"PYSNAP1\0"
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


def make_snapshot(pyodide_dir: Path, wheel: Path, out_dir: Path, node: str | None = None) -> Snapshot:
    """Boot Pyodide in Node with ``wheel`` imported and write the compressed snapshot to ``out_dir``."""
    node = node or shutil.which("node")
    if not node:
        raise SnapshotError("Node.js is needed to make the Pyodide snapshot (or set `snapshot: false`)")
    out_dir.mkdir(parents=True, exist_ok=True)
    raw = out_dir / "snapshot.bin"
    proc = subprocess.run([node, str(SCRIPT), str(pyodide_dir), str(wheel), str(raw)],
                          capture_output=True, text=True)
    if proc.returncode != 0 or not raw.exists():
        tail = "\n".join((proc.stderr or proc.stdout).strip().splitlines()[-40:])
        raise SnapshotError(f"making the Pyodide snapshot failed:\n{tail}")
    try:
        report = json.loads(proc.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        raise SnapshotError(f"unexpected output from {SCRIPT.name}: {proc.stdout[-500:]!r}") from None
    # mtime=0: the same image gives the same bytes, so the same name.
    data = gzip.compress(pack(raw.read_bytes()), compresslevel=6, mtime=0)
    raw.unlink()
    sha = hashlib.sha256(data).hexdigest()
    for old in out_dir.glob("snapshot-*.bin.gz"):
        old.unlink()
    path = out_dir / f"snapshot-{sha[:16]}.bin.gz"
    path.write_bytes(data)
    return Snapshot(path=path, sha256=sha, calculators=tuple(report["calculators"]))


def pack(image: bytes, page: int = PAGE) -> bytes:
    """The image in the sparse format (see MAGIC): its non-zero pages and a bitmap of them."""
    count = -(-len(image) // page)
    bitmap = bytearray(-(-count // 8))
    pages = []
    for i in range(count):
        chunk = image[i * page:(i + 1) * page]
        if chunk.count(0) != len(chunk):
            bitmap[i >> 3] |= 1 << (i & 7)
            pages.append(chunk)
    return MAGIC + len(image).to_bytes(4, "little") + page.to_bytes(4, "little") + bytes(bitmap) + b"".join(pages)


def unpack(packed: bytes) -> bytes:
    """The image again: what the worker's ``expandSnapshot`` does, for tests."""
    if packed[:8] != MAGIC:
        raise SnapshotError("not a packed snapshot")
    total = int.from_bytes(packed[8:12], "little")
    page = int.from_bytes(packed[12:16], "little")
    count = -(-total // page)
    bitmap = packed[16:16 + -(-count // 8)]
    image = bytearray(total)
    src = 16 + len(bitmap)
    for i in range(count):
        if bitmap[i >> 3] & (1 << (i & 7)):
            size = min(page, total - i * page)
            image[i * page:i * page + size] = packed[src:src + size]
            src += size
    return bytes(image)
