"""The two baselines the site is compared with, built into one folder from ``node_modules``.

Both compute the same kv-cache numbers as the chapter's widget, with the same self-hosted Pyodide
and the same calculators code, but the way most Pyodide pages do it: on the main thread.

- ``plain.html``: ``loadPyodide()`` from ``pyodide.mjs`` in a module script, then the calculators
  wheel (built by ``course_calculators.plugin.wheel`` and registered in a copy of Pyodide's lock file).
- ``pyscript.html``: PyScript from ``@pyscript/core``'s ``dist/``, its config's ``interpreter``
  pointing at the same ``pyodide.mjs``, the calculators' sources copied into Pyodide's file
  system through the config's ``files`` (PyScript installs wheels with micropip, which is not
  self-hosted here).

Layout of the folder: ``plain.html``, ``pyscript.html``, ``pyscript.json``, ``pyodide/``,
``pyscript/``, ``src/calculators/``.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import course_calculators
from course_calculators.plugin import wheel

TEMPLATES = Path(__file__).parent / "templates"
PAGES = {"plain": "plain.html", "pyscript": "pyscript.html"}
TITLES = {"plain": "plain Pyodide", "pyscript": "PyScript"}
#: The chapter's calculators, the package the site lists.
CHAPTER = Path(__file__).resolve().parents[2] / "calculators" / "llm_inference"
#: What a page needs from the Pyodide package: loader, Emscripten module, wasm binary, stdlib.
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")


def page(name: str) -> str:
    """One baseline page, with the shared widget markup filled in."""
    widget = (TEMPLATES / "widget.html").read_text().replace("__TITLE__", TITLES[name])
    return (TEMPLATES / PAGES[name]).read_text().replace("__WIDGET__", widget)


def pyscript_config(sources: list[str]) -> dict:
    """PyScript's config: the self-hosted interpreter and each calculators file into the FS."""
    return {
        "interpreter": "./pyodide/pyodide.mjs",
        "files": {f"./src/{rel}": f"./{rel}" for rel in sources},
    }


def build(out: Path, node_modules: Path) -> Path:
    """Write both baselines into ``out`` (emptied first) and return it."""
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    pyodide_src = node_modules / "pyodide"
    pyodide_dst = out / "pyodide"
    pyodide_dst.mkdir()
    for name in PYODIDE_FILES:
        shutil.copy2(pyodide_src / name, pyodide_dst / name)
    chapter = [CHAPTER]
    whl = wheel.build_wheel(pyodide_dst / "wheels", packages=chapter)
    wheel.write_lock(pyodide_src / "pyodide-lock.json", whl, pyodide_dst / "pyodide-lock.json",
                     base_path=pyodide_dst)

    shutil.copytree(node_modules / "@pyscript" / "core" / "dist", out / "pyscript",
                    ignore=shutil.ignore_patterns("*.map"))

    sources = []
    for root in (wheel.PACKAGE_DIR, *chapter):
        for path in wheel.package_files(root):
            rel = (Path(root.name) / path.relative_to(root)).as_posix()
            dest = out / "src" / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, dest)
            sources.append(rel)
    # As in the wheel: the framework registers the chapter's package at import.
    names = f"{wheel.DIST_NAME}/{course_calculators.PACKAGES_FILE}"
    (out / "src" / names).write_text(json.dumps([CHAPTER.name]))
    sources.append(names)
    (out / "pyscript.json").write_text(json.dumps(pyscript_config(sources), indent=2))

    for name, filename in PAGES.items():
        (out / filename).write_text(page(name))
    return out
