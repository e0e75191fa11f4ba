"""A Pyodide memory snapshot with the calculators imported, made at build time in Node.

Restoring it in the browser skips Python's start-up and the wheel's import: the worker is ready
in about a third of the time a normal boot takes (see the Performance page). The raw image is
mostly zeros (≈30 MB), so it ships gzip-compressed (≈6 MB) and the worker inflates it with
``DecompressionStream``; its file name carries its content hash, and the worker checks the
sha256 before restoring. The image is bound to the exact ``pyodide.asm.wasm`` it was made with,
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
        tail = "\n".join((proc.stderr or proc.stdout).strip().splitlines()[-8:])
        raise SnapshotError(f"making the Pyodide snapshot failed:\n{tail}")
    try:
        report = json.loads(proc.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        raise SnapshotError(f"unexpected output from {SCRIPT.name}: {proc.stdout[-500:]!r}") from None
    # mtime=0: the same image gives the same bytes, so the same name.
    data = gzip.compress(raw.read_bytes(), compresslevel=6, mtime=0)
    raw.unlink()
    sha = hashlib.sha256(data).hexdigest()
    for old in out_dir.glob("snapshot-*.bin.gz"):
        old.unlink()
    path = out_dir / f"snapshot-{sha[:16]}.bin.gz"
    path.write_bytes(data)
    return Snapshot(path=path, sha256=sha, calculators=tuple(report["calculators"]))
