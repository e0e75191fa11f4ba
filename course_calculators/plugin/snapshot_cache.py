"""The memory snapshot kept between builds, in the plugin's ``cache_dir``.

Making a snapshot boots Pyodide in Node and imports every calculator: tens of seconds, for a file
that depends only on what it is made from. A build whose calculators did not change (a prose edit,
another ``mkdocs build`` of the same sources, several builds of one site at once) can take the
last one instead, as mkdocs-material's social plugin keeps its cards in ``.cache``. The key is a
digest of everything the snapshot is made from: the wheel's sources digest, Pyodide's wasm, its
lock and standard library, and this plugin's snapshot code. Builds running at once take turns on
a lock, so the second one finds what the first one made.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator

try:
    import fcntl
except ImportError:  # Windows: no lock; concurrent builds there may each make the snapshot
    fcntl = None

if TYPE_CHECKING:
    from .snapshot import Snapshot

HERE = Path(__file__).parent
#: The plugin's own files a snapshot's bytes depend on.
CODE = ("snapshot.mjs", "snapshot.py", "stdlib.py")
#: Pyodide's files a snapshot's bytes depend on.
PYODIDE = ("pyodide.asm.wasm", "pyodide.asm.mjs", "pyodide.mjs", "pyodide-lock.json", "python_stdlib.zip")
META = "snapshot.json"


def key(pyodide_dir: Path, sources_digest: str) -> str:
    """What a snapshot is made from, as one digest."""
    h = hashlib.sha256(sources_digest.encode() + b"\0")
    for path in [*(pyodide_dir / name for name in PYODIDE), *(HERE / name for name in CODE)]:
        h.update(path.name.encode() + b"\0")
        h.update(path.read_bytes() if path.exists() else b"")
    return h.hexdigest()[:32]


@contextmanager
def _locked(path: Path) -> Iterator[None]:
    with path.open("w") as handle:
        if fcntl is not None:
            fcntl.flock(handle, fcntl.LOCK_EX)
        yield


def cached(cache_dir: Path, snapshot_key: str, out_dir: Path, make: Callable[[], "Snapshot"]) -> "Snapshot":
    """The snapshot kept under ``snapshot_key``, copied into ``out_dir``; else ``make()``'s, kept."""
    from .snapshot import Snapshot

    cache_dir.mkdir(parents=True, exist_ok=True)
    kept = cache_dir / f"snapshot-{snapshot_key}"
    with _locked(cache_dir / f"snapshot-{snapshot_key}.lock"):
        if not (kept / META).exists():
            made = make()
            staging = cache_dir / f".snapshot-{snapshot_key}.partial"
            shutil.rmtree(staging, ignore_errors=True)
            staging.mkdir()
            for path in (made.path, made.stdlib, made.boot_stdlib):
                shutil.copyfile(path, staging / path.name)
            (staging / META).write_text(json.dumps({
                "path": made.path.name, "sha256": made.sha256, "calculators": list(made.calculators),
                "stdlib": made.stdlib.name, "boot_stdlib": made.boot_stdlib.name}))
            shutil.rmtree(kept, ignore_errors=True)
            staging.rename(kept)  # whole or absent: a build stopped halfway leaves nothing half kept
            return made
        meta = json.loads((kept / META).read_text())
        out_dir.mkdir(parents=True, exist_ok=True)
        for name in (meta["path"], meta["stdlib"], meta["boot_stdlib"]):
            shutil.copyfile(kept / name, out_dir / name)
    return Snapshot(path=out_dir / meta["path"], sha256=meta["sha256"], calculators=tuple(meta["calculators"]),
                    stdlib=out_dir / meta["stdlib"], boot_stdlib=out_dir / meta["boot_stdlib"])
