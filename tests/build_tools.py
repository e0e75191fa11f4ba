"""The three build tools a book is tested on, each as the authors' guide gives its commands: MkDocs
1.6.1 and ProperDocs 1.6.x run the plugin; Zensical runs the Markdown extension, and
``python -m course_calculators finish`` does the rest.

:func:`build` builds a copy of a book with one tool into ``out``; every copy lists the extension
too (Zensical needs it, the plugin takes it over), so one ``mkdocs.yml`` serves all three.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
TOOLS = ("mkdocs", "properdocs", "zensical")
EXTENSION = "course_calculators.plugin.extension"


def commands(tool: str, out: Path) -> list[list[str]]:
    """The commands that build a site into ``out`` with ``tool`` (the guide's, with ``-d``)."""
    if tool == "zensical":  # it writes site/ beside mkdocs.yml: copied to out by build()
        return [[str(BIN / "zensical"), "build", "--clean", "-f", "mkdocs.yml"],
                [sys.executable, "-m", "course_calculators", "finish", "site", "-f", "mkdocs.yml"]]
    return [[str(BIN / tool), "build", "--strict", "-f", "mkdocs.yml", "-d", str(out)]]


def with_extension(mkdocs_yml: Path, packages: list[str]) -> None:
    """List the extension (for Zensical) in a copy's ``mkdocs.yml``, after pymdownx.superfences."""
    text = mkdocs_yml.read_text()
    if EXTENSION in text:
        return
    line = f"  - {EXTENSION}:\n      packages: [{', '.join(packages)}]\n"
    text, n = re.subn(r"^  - pymdownx\.superfences\n", lambda m: m.group(0) + line, text, count=1, flags=re.M)
    assert n == 1, "the book's mkdocs.yml lists pymdownx.superfences"
    mkdocs_yml.write_text(text)


def copy_book(book: Path, to: Path, packages: list[str]) -> Path:
    shutil.copytree(book, to, ignore=shutil.ignore_patterns("site", ".cache", "__pycache__", "*.egg-info"))
    text = (to / "mkdocs.yml").read_text().replace("../../node_modules", str(ROOT / "node_modules"))
    (to / "mkdocs.yml").write_text(text)
    with_extension(to / "mkdocs.yml", packages)
    return to


def build(tool: str, site: Path, out: Path, **env: str) -> list[subprocess.CompletedProcess]:
    """Build ``site`` with ``tool`` into ``out``; each command's completed process (checked)."""
    environ = {**os.environ, "NO_MKDOCS_2_WARNING": "1", **env}
    done = []
    for command in commands(tool, out):
        done.append(subprocess.run(command, cwd=site, env=environ, capture_output=True, text=True, timeout=900))
        assert done[-1].returncode == 0, f"{' '.join(command)}:\n{done[-1].stdout}\n{done[-1].stderr}"
    if tool == "zensical":
        if out.exists():
            shutil.rmtree(out)
        shutil.copytree(site / "site", out)
    return done
