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
    whl = wheel.build_wheel(out / "w", packages=[ROOT / "books/llm-inference/llm_inference"])
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
    again = wheel.build_wheel(tmp_path, packages=[ROOT / "books/llm-inference/llm_inference"])
    assert again.read_bytes() == whl.read_bytes()


def test_lock_registers_the_wheel_with_its_hash(built):
    whl, lock = built
    entry = json.loads(lock.read_text())["packages"][wheel.LOCK_NAME]
    assert entry["file_name"] == whl.name
    assert entry["sha256"] == hashlib.sha256(whl.read_bytes()).hexdigest()
    assert sorted(entry["imports"]) == ["course_calculators", "llm_inference"] and entry["depends"] == []
