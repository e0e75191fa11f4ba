"""The browser wheel for Pyodide, registered in a copy of Pyodide's ``pyodide-lock.json``.

The wheel holds the framework's browser half (``course_calculators`` without ``plugin/`` and
``browser/``) and the site's calculator packages (the plugin's ``packages`` option) beside it,
named in a generated ``course_calculators/_packages.json`` that ``course_calculators/__init__.py``
reads at import to register them.
It is packed from a staging folder by ``wheel pack`` (a standard tool that writes RECORD with
hashes), with a fixed SOURCE_DATE_EPOCH so the same sources give the same bytes. The lock file
entry is written by pyodide-build's ``pyodide lockfile add-wheels``, so Pyodide checks the wheel's
sha256 and loads it by name (``loadPackage("course-calculators")``).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Sequence

import course_calculators

PACKAGE_DIR = Path(course_calculators.__file__).resolve().parent
DIST_NAME = "course_calculators"
#: The wheel's name in the lock file (canonicalized, as ``pyodide lockfile add-wheels`` writes it).
LOCK_NAME = "course-calculators"
#: The framework's build-time half and browser scripts never ship in the wheel.
EXCLUDED_DIRS = {"plugin", "browser", "__pycache__"}
#: Generated into the staged wheel only (a stray copy in the source tree is never shipped), and the
#: command line (``python -m course_calculators``), which is build-time only.
EXCLUDED_FILES = {course_calculators.PACKAGES_FILE, "__main__.py"}


class WheelError(RuntimeError):
    pass


def package_files(root: Path = PACKAGE_DIR) -> list[Path]:
    """The Python (and data) files of a package that ship to the browser: for the framework, all
    but ``plugin/`` and ``browser/``; never caches."""
    skipped = EXCLUDED_DIRS if root == PACKAGE_DIR else {"__pycache__"}
    files = []
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        if any(part in skipped for part in rel.parts) or not path.is_file():
            continue
        if root == PACKAGE_DIR and rel.as_posix() in EXCLUDED_FILES:
            continue
        if path.suffix in (".py", ".json", ".txt"):
            files.append(path)
    return files


def sources_digest(root: Path = PACKAGE_DIR, packages: Sequence[Path] = ()) -> str:
    """A digest of every file the wheel ships: the framework's browser half and each content package's."""
    h = hashlib.sha256()
    for path in package_files(root):
        h.update(str(path.relative_to(root)).encode())
        h.update(path.read_bytes())
    for extra in packages:
        for path in package_files(extra):
            h.update(f"{extra.name}/{path.relative_to(extra).as_posix()}".encode())
            h.update(path.read_bytes())
    return h.hexdigest()[:16]


def build_wheel(out_dir: Path, version: str = course_calculators.__version__, packages: Sequence[Path] = ()) -> Path:
    """Pack the browser wheel into ``out_dir`` and return its path.

    ``packages`` are the folders of extra calculator packages: each is copied beside
    ``course_calculators/`` and named, in order, in ``course_calculators/_packages.json``.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    stage = out_dir / "stage"
    shutil.rmtree(stage, ignore_errors=True)
    pkg = stage / DIST_NAME
    for root, dest_root in [(PACKAGE_DIR, pkg), *((extra, stage / extra.name) for extra in packages)]:
        for path in package_files(root):
            dest = dest_root / path.relative_to(root)
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, dest)
    if packages:
        (pkg / course_calculators.PACKAGES_FILE).write_text(json.dumps([extra.name for extra in packages]) + "\n")
    info = stage / f"{DIST_NAME}-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {DIST_NAME}\nVersion: {version}\n"
        "Summary: Course calculators (stdlib only), as shipped to the browser\n"
    )
    (info / "WHEEL").write_text(
        "Wheel-Version: 1.0\nGenerator: course_calculators.plugin.wheel\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    )
    (info / "top_level.txt").write_text("".join(f"{name}\n" for name in [DIST_NAME, *(e.name for e in packages)]))
    for old in out_dir.glob("*.whl"):
        old.unlink()
    env = {**os.environ, "SOURCE_DATE_EPOCH": "315532800"}
    proc = subprocess.run(
        [sys.executable, "-m", "wheel", "pack", str(stage), "--dest-dir", str(out_dir)],
        capture_output=True, text=True, env=env,
    )
    if proc.returncode != 0:
        raise WheelError(f"wheel pack failed: {proc.stderr.strip() or proc.stdout.strip()}")
    shutil.rmtree(stage)
    wheels = list(out_dir.glob("*.whl"))
    if len(wheels) != 1:
        raise WheelError(f"expected one wheel in {out_dir}, found {wheels}")
    return wheels[0]


def write_lock(base_lock: Path, wheel: Path, out_lock: Path, base_path: Path | None = None) -> Path:
    """Add ``wheel`` to a copy of Pyodide's lock file with ``pyodide lockfile add-wheels``.

    The entry's ``file_name`` is the wheel's path relative to ``base_path`` (default: its folder).
    """
    pyodide_cli = Path(sys.executable).with_name("pyodide")
    cmd = [str(pyodide_cli) if pyodide_cli.exists() else "pyodide", "lockfile", "add-wheels",
           "--input", str(base_lock), "--output", str(out_lock),
           "--base-path", str(base_path or wheel.parent), str(wheel)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0 or not out_lock.exists():
        raise WheelError(
            "pyodide lockfile add-wheels failed (is pyodide-build installed, with pyodide-lock[wheel]?):\n"
            + (proc.stderr.strip() or proc.stdout.strip())
        )
    return out_lock


def trim_lock(lock: Path, keep: tuple[str, ...]) -> Path:
    """Cut the lock file down to ``keep`` and their dependencies, in place.

    Pyodide's own lock lists ~360 packages (120 KB) that the calculators never load; every page
    would download it before Python starts. What remains still names Pyodide's ABI and version.
    """
    data = json.loads(lock.read_text())
    packages = data["packages"]
    wanted: set[str] = set()
    todo = list(keep)
    while todo:
        name = todo.pop()
        if name in wanted:
            continue
        if name not in packages:
            raise WheelError(f"{name!r} is not in the lock file {lock}")
        wanted.add(name)
        todo.extend(packages[name].get("depends", []))
    data["packages"] = {k: v for k, v in packages.items() if k in wanted}
    lock.write_text(json.dumps(data, indent=1, sort_keys=True))
    return lock
