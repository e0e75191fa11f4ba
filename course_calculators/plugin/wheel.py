"""The browser wheel for Pyodide, registered in a copy of Pyodide's ``pyodide-lock.json``.

The wheel holds the framework's browser half (``course_calculators`` without ``plugin/`` and
``browser/``) and the site's calculator packages (the plugin's ``packages`` option) beside it,
named in a generated ``course_calculators/_packages.json`` that ``course_calculators/__init__.py``
reads at import to register them.
It is zipped here with the standard library (the wheel format is a zip with a ``.dist-info``
folder whose RECORD lists each file's sha256, PEP 427), every entry dated 1980-01-01 so that the
same sources give the same bytes. Its lock file entry is written here too: the fields
pyodide-lock's ``add_wheels_to_spec`` (what ``pyodide lockfile add-wheels`` runs) writes for a
pure-Python wheel without dependencies — name, version, file name, sha256, top-level imports —
so that Pyodide checks the wheel's sha256 and loads it by name (``loadPackage("course-calculators")``).
Neither pyodide-build nor the ``wheel`` tool is needed at build time (a test compares the entry with
pyodide-lock's where that is installed).
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import zipfile
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
#: command line (``python -m course_calculators``, ``cli.py``), which is build-time only.
EXCLUDED_FILES = {course_calculators.PACKAGES_FILE, "__main__.py", "cli.py"}


class WheelError(RuntimeError):
    pass


def package_files(root: Path = PACKAGE_DIR) -> list[Path]:
    """The Python (and data) files of a package that ship to the browser: for the framework, all
    but ``plugin/`` and ``browser/``; never caches."""
    skipped = EXCLUDED_DIRS if root == PACKAGE_DIR else {"__pycache__"}
    files = []
    for folder, dirs, names in os.walk(root):  # symlinked folders not followed, as rglob does
        dirs[:] = [d for d in dirs if d not in skipped]  # never walked: browser/ alone holds ~60 files
        for name in names:
            path = Path(folder, name)
            if path.suffix not in (".py", ".json", ".txt") or not path.is_file():
                continue
            if root == PACKAGE_DIR and path.relative_to(root).as_posix() in EXCLUDED_FILES:
                continue
            files.append(path)
    return sorted(files, key=lambda path: path.relative_to(root).parts)  # rglob's order, sorted


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


#: Every entry of the wheel is dated so (the zip format's earliest date): reproducible bytes.
ZIP_DATE = (1980, 1, 1, 0, 0, 0)


def _record_hash(data: bytes) -> str:
    """A RECORD line's hash: sha256, urlsafe base64 without padding (PEP 376, PEP 427)."""
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def pack(files: dict[str, bytes], dist_info: str, out: Path, *, compress: bool = True) -> Path:
    """Zip ``files`` (archive name → bytes) into the wheel ``out``, with ``dist_info``/RECORD last;
    stored uncompressed unless ``compress`` (``mkdocs serve`` serves it over loopback)."""
    record = [f"{name},{_record_hash(data)},{len(data)}" for name, data in files.items()]
    record.append(f"{dist_info}/RECORD,,")
    entries = {**files, f"{dist_info}/RECORD": ("\n".join(record) + "\n").encode()}
    method = zipfile.ZIP_DEFLATED if compress else zipfile.ZIP_STORED
    with zipfile.ZipFile(out, "w", method) as zf:
        for name, data in entries.items():
            info = zipfile.ZipInfo(name, date_time=ZIP_DATE)
            info.compress_type = method
            info.external_attr = 0o644 << 16
            zf.writestr(info, data)
    return out


def build_wheel(out_dir: Path, version: str = course_calculators.__version__, packages: Sequence[Path] = (),
                *, compress: bool = True) -> Path:
    """Pack the browser wheel into ``out_dir`` and return its path.

    ``packages`` are the folders of extra calculator packages: each is copied beside
    ``course_calculators/`` and named, in order, in ``course_calculators/_packages.json``.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    files: dict[str, bytes] = {}
    for root, prefix in [(PACKAGE_DIR, DIST_NAME), *((extra, extra.name) for extra in packages)]:
        for path in package_files(root):
            files[f"{prefix}/{path.relative_to(root).as_posix()}"] = path.read_bytes()
    if packages:
        files[f"{DIST_NAME}/{course_calculators.PACKAGES_FILE}"] = (
            json.dumps([extra.name for extra in packages]) + "\n").encode()
    info = f"{DIST_NAME}-{version}.dist-info"
    files[f"{info}/METADATA"] = (f"Metadata-Version: 2.1\nName: {DIST_NAME}\nVersion: {version}\n"
                                 "Summary: Course calculators (stdlib only), as shipped to the browser\n").encode()
    files[f"{info}/WHEEL"] = (f"Wheel-Version: 1.0\nGenerator: {__name__}\nRoot-Is-Purelib: true\n"
                              "Tag: py3-none-any\n").encode()
    files[f"{info}/top_level.txt"] = "".join(f"{n}\n" for n in [DIST_NAME, *(e.name for e in packages)]).encode()
    for old in out_dir.glob("*.whl"):
        old.unlink()
    return pack(files, info, out_dir / f"{DIST_NAME}-{version}-py3-none-any.whl", compress=compress)


def _top_level_imports(whl: Path) -> list[str]:
    """The wheel's importable top-level names: its top folders that hold Python (as pyodide-lock reads them)."""
    names = zipfile.ZipFile(whl).namelist()
    tops = []
    for name in names:
        top, _, rest = name.partition("/")
        if rest and not top.endswith(".dist-info") and name.endswith(".py") and top not in tops:
            tops.append(top)
    return sorted(tops, key=lambda t: min(i for i, n in enumerate(names) if n.startswith(t + "/")))


def lock_entry(whl: Path, file_name: str) -> dict:
    """The lock file's entry for the browser wheel (a pure-Python wheel without dependencies)."""
    return {
        "name": LOCK_NAME,
        "version": whl.name.split("-")[1],
        "file_name": file_name,
        "install_dir": "site",
        "sha256": hashlib.sha256(whl.read_bytes()).hexdigest(),
        "package_type": "package",
        "imports": _top_level_imports(whl),
        "depends": [],
        "unvendored_tests": False,
        "tool": {},
    }


def write_lock(base_lock: Path, wheel: Path, out_lock: Path, base_path: Path | None = None) -> Path:
    """Add ``wheel`` to a copy of Pyodide's lock file (``base_lock``), written to ``out_lock``.

    The entry's ``file_name`` is the wheel's path relative to ``base_path`` (default: its folder).
    """
    try:
        data = json.loads(base_lock.read_text(encoding="utf-8"))
        packages = data["packages"]
    except (OSError, ValueError, KeyError) as exc:
        raise WheelError(f"{base_lock} is not Pyodide's lock file ({exc}): reinstall pyodide with npm") from None
    try:
        rel = wheel.resolve().relative_to((base_path or wheel.parent).resolve()).as_posix()
    except ValueError:
        raise WheelError(f"the wheel {wheel} is not under {base_path}") from None
    packages[LOCK_NAME] = lock_entry(wheel, rel)
    out_lock.write_text(json.dumps(data, sort_keys=True), encoding="utf-8")
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
