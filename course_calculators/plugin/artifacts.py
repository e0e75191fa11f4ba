"""The build's Python artifacts: the browser wheel, its lock file and the memory snapshot.

Making them takes seconds (the snapshot boots Pyodide in Node), and ``mkdocs serve`` rebuilds on
every Markdown edit, so they are remade only when the sources they hold change.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from . import wheel

if TYPE_CHECKING:
    from . import snapshot


class ArtifactError(RuntimeError):
    """Making the wheel, the lock file or the snapshot failed; the message says what to fix."""


@dataclass(frozen=True)
class Artifacts:
    digest: str
    """A digest of every source file the wheel ships (its folder is named by it: each deployment
    gives the wheel a new URL, so no browser pairs a cached old wheel with the new lock)."""
    wheel: Path
    lock: Path
    lock_sha256: str
    snapshot: snapshot.Snapshot | None


class ArtifactCache:
    """Makes the artifacts into ``out`` and keeps the last ones while the sources are unchanged."""

    def __init__(self, out: Path, cache_dir: Path | None = None) -> None:
        self.out = out
        #: Where snapshots are kept between builds (the plugin's ``cache_dir``), or None.
        self.cache_dir = cache_dir
        self._last: Artifacts | None = None

    def get(self, pyodide_dir: Path, packages: Sequence[Path], *, with_snapshot: bool,
            compress: bool = True, digest: str | None = None) -> Artifacts:
        """The artifacts of ``packages``; under ``mkdocs serve`` (no snapshot, ``compress`` off) a
        save remakes the wheel (its files stored, not deflated) and the lock, in milliseconds.
        ``digest``: :func:`.wheel.sources_digest` of ``packages`` when this build has it already."""
        digest = digest or wheel.sources_digest(packages=packages)
        last = self._last
        if last and last.digest == digest and (last.snapshot is not None) == with_snapshot:
            return last
        try:
            whl = wheel.build_wheel(self.out / "wheels" / digest, packages=packages, compress=compress)
            lock = wheel.write_lock(pyodide_dir / "pyodide-lock.json", whl, self.out / "pyodide-lock.json",
                                    base_path=self.out / "wheels")
            wheel.trim_lock(lock, keep=(wheel.LOCK_NAME,))
        except wheel.WheelError as exc:
            raise ArtifactError(str(exc)) from None
        snap = None
        if with_snapshot:
            def make() -> snapshot.Snapshot:
                return _make_snapshot(pyodide_dir, whl, self.out / "snapshot")

            if self.cache_dir is None:
                snap = make()
            else:
                from . import snapshot_cache

                snap = snapshot_cache.cached(self.cache_dir, snapshot_cache.key(pyodide_dir, digest),
                                             self.out / "snapshot", make)
        self._last = Artifacts(digest, whl, lock, hashlib.sha256(lock.read_bytes()).hexdigest(), snap)
        return self._last


def _make_snapshot(pyodide_dir: Path, whl: Path, out: Path) -> snapshot.Snapshot:
    from . import snapshot  # with the standard-library zips it makes: read only by a build that snapshots

    try:
        return snapshot.make_snapshot(pyodide_dir, whl, out)
    except snapshot.SnapshotError as exc:
        raise ArtifactError(str(exc)) from None
