"""The snapshot kept between builds (``course_calculators/plugin/snapshot_cache.py``): made once
per key, copied whole into each build's folder, remade when what it is made from changes."""

from __future__ import annotations

import threading
from pathlib import Path

from course_calculators.plugin import snapshot_cache
from course_calculators.plugin.snapshot import Snapshot


def maker(folder: Path, calls: list[str], label: str = "a"):
    def make() -> Snapshot:
        calls.append(label)
        folder.mkdir(parents=True, exist_ok=True)
        files = {name: folder / name for name in ("snapshot-1234.bin.gz", "stdlib-s.zip", "stdlib-b.zip")}
        for name, path in files.items():
            path.write_bytes(f"{label}:{name}".encode())
        return Snapshot(path=files["snapshot-1234.bin.gz"], sha256="ab" * 32, calculators=("loan",),
                        stdlib=files["stdlib-s.zip"], boot_stdlib=files["stdlib-b.zip"])
    return make


def test_the_second_build_takes_the_first_ones_snapshot(tmp_path):
    calls: list[str] = []
    first = snapshot_cache.cached(tmp_path / "cache", "k1", tmp_path / "one", maker(tmp_path / "one", calls))
    second = snapshot_cache.cached(tmp_path / "cache", "k1", tmp_path / "two", maker(tmp_path / "two", calls, "b"))
    assert calls == ["a"]
    assert second.path.parent == tmp_path / "two" and second.path.read_bytes() == first.path.read_bytes()
    assert (second.sha256, second.calculators) == (first.sha256, first.calculators)
    assert second.stdlib.read_bytes() == b"a:stdlib-s.zip" and second.boot_stdlib.read_bytes() == b"a:stdlib-b.zip"


def test_another_key_makes_its_own(tmp_path):
    calls: list[str] = []
    snapshot_cache.cached(tmp_path / "cache", "k1", tmp_path / "one", maker(tmp_path / "one", calls))
    snapshot_cache.cached(tmp_path / "cache", "k2", tmp_path / "two", maker(tmp_path / "two", calls, "b"))
    assert calls == ["a", "b"]


def test_a_failed_make_keeps_nothing(tmp_path):
    def broken() -> Snapshot:
        raise RuntimeError("Node failed")

    try:
        snapshot_cache.cached(tmp_path / "cache", "k1", tmp_path / "one", broken)
    except RuntimeError:
        pass
    calls: list[str] = []
    snapshot_cache.cached(tmp_path / "cache", "k1", tmp_path / "two", maker(tmp_path / "two", calls))
    assert calls == ["a"]


def test_builds_at_once_make_it_once(tmp_path):
    calls: list[str] = []
    threads = [threading.Thread(target=snapshot_cache.cached,
                                args=(tmp_path / "cache", "k1", tmp_path / f"out{i}", maker(tmp_path / f"out{i}", calls)))
               for i in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert calls == ["a"]


def test_the_key_follows_the_sources_and_pyodides_files(tmp_path):
    pyodide = tmp_path / "pyodide"
    pyodide.mkdir()
    for name in snapshot_cache.PYODIDE:
        (pyodide / name).write_bytes(b"v1")
    one = snapshot_cache.key(pyodide, "digest-1")
    assert snapshot_cache.key(pyodide, "digest-1") == one
    assert snapshot_cache.key(pyodide, "digest-2") != one
    (pyodide / "pyodide.asm.wasm").write_bytes(b"v2")
    assert snapshot_cache.key(pyodide, "digest-1") != one
