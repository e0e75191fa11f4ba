"""The browser wheel: the framework's browser half and the listed packages, never build/ or browser/;
registered in Pyodide's lock with its hash."""

from __future__ import annotations

import hashlib
import json
import zipfile
from pathlib import Path

import pytest

from course_calculators.plugin import wheel

ROOT = Path(__file__).resolve().parents[4]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("wheel")
    whl = wheel.build_wheel(out / "w", packages=[ROOT / "calculators/llm_inference"])
    lock = wheel.write_lock(ROOT / "node_modules/pyodide/pyodide-lock.json", whl, out / "pyodide-lock.json")
    return whl, lock


def test_wheel_holds_no_build_time_package(built):
    whl, _ = built
    names = zipfile.ZipFile(whl).namelist()
    assert "llm_inference/__init__.py" in names and "llm_inference/kv_cache.py" in names
    assert "course_calculators/__init__.py" in names and "course_calculators/spec.py" in names
    assert not any(n.startswith(("course_calculators/plugin/", "course_calculators/browser/")) for n in names)
    assert not any(n.endswith(".pyc") for n in names)


def test_wheel_is_reproducible(built, tmp_path):
    whl, _ = built
    again = wheel.build_wheel(tmp_path, packages=[ROOT / "calculators/llm_inference"])
    assert again.read_bytes() == whl.read_bytes()


def test_lock_registers_the_wheel_with_its_hash(built):
    whl, lock = built
    entry = json.loads(lock.read_text())["packages"][wheel.LOCK_NAME]
    assert entry["file_name"] == whl.name
    assert entry["sha256"] == hashlib.sha256(whl.read_bytes()).hexdigest()
    assert sorted(entry["imports"]) == ["course_calculators", "llm_inference"] and entry["depends"] == []


def test_record_lists_every_file_with_its_hash(built):
    whl, _ = built
    import base64
    with zipfile.ZipFile(whl) as zf:
        names = zf.namelist()
        record = zf.read("course_calculators-" + whl.name.split("-")[1] + ".dist-info/RECORD").decode()
        rows = [line.split(",") for line in record.splitlines()]
        assert [r[0] for r in rows] == names  # RECORD last, naming itself without a hash
        for name, digest, size in rows[:-1]:
            data = zf.read(name)
            want = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            assert (digest, int(size)) == (f"sha256={want}", len(data)), name
        assert all(info.date_time == wheel.ZIP_DATE for info in zf.infolist())


def test_the_lock_entry_is_what_pyodide_lock_writes(built, tmp_path):
    # pyodide-lock (Python >= 3.12, in the test extras only) is the reference; the plugin needs none of it.
    utils = pytest.importorskip("pyodide_lock.utils")
    from pyodide_lock.spec import PyodideLockSpec

    whl, lock = built
    base = ROOT / "node_modules/pyodide/pyodide-lock.json"
    theirs = add = utils.add_wheels_to_spec(PyodideLockSpec.from_json(base), [whl], base_path=whl.parent)
    theirs.to_json(tmp_path / "theirs.json")
    wheel.trim_lock(tmp_path / "theirs.json", keep=(wheel.LOCK_NAME,))
    ours = tmp_path / "ours.json"
    ours.write_text(lock.read_text())
    wheel.trim_lock(ours, keep=(wheel.LOCK_NAME,))
    assert json.loads(ours.read_text()) == json.loads((tmp_path / "theirs.json").read_text())
    assert add.packages[wheel.LOCK_NAME].sha256 == hashlib.sha256(whl.read_bytes()).hexdigest()


def test_a_lock_that_is_not_pyodides_is_refused(built, tmp_path):
    whl, _ = built
    (tmp_path / "bad.json").write_text("{}")
    with pytest.raises(wheel.WheelError, match="not Pyodide's lock file"):
        wheel.write_lock(tmp_path / "bad.json", whl, tmp_path / "out.json")


def test_under_serve_the_wheel_is_stored_not_deflated_with_the_same_files(built, tmp_path):
    stored = wheel.build_wheel(tmp_path / "serve", packages=[ROOT / "calculators/llm_inference"], compress=False)
    with zipfile.ZipFile(stored) as fast, zipfile.ZipFile(built[0]) as packed:
        assert {i.compress_type for i in fast.infolist()} == {zipfile.ZIP_STORED}
        assert {n: fast.read(n) for n in fast.namelist()} == {n: packed.read(n) for n in packed.namelist()}
