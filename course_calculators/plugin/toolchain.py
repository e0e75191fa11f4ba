"""What the build needs besides Python packages, checked before any work starts: Node.js, at a
version the site's Pyodide supports (its ``package.json`` says which), for the memory snapshot.

Each shortfall is one message that names this package, what it needs, what it found and where,
and what to do: an author who never chose Node.js learns why the build wants it.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

#: The oldest Node.js the snapshot script is written for, whatever Pyodide's package says.
NODE_FLOOR = (18, 0, 0)


class ToolchainError(RuntimeError):
    pass


def _version(text: str) -> tuple[int, ...] | None:
    m = re.search(r"(\d+)\.(\d+)\.(\d+)", text)
    return tuple(int(p) for p in m.groups()) if m else None


def node_needed(pyodide_dir: Path) -> tuple[int, ...]:
    """The oldest Node.js both the snapshot script and this Pyodide (``engines.node``) accept."""
    try:
        engines = json.loads((pyodide_dir / "package.json").read_text(encoding="utf-8")).get("engines", {})
    except (OSError, ValueError):
        engines = {}
    wanted = _version(str(engines.get("node", ""))) or NODE_FLOOR
    return max(wanted, NODE_FLOOR)


def check_node(pyodide_dir: Path, node: str | None = None) -> str:
    """The path of a Node.js recent enough for the snapshot, or a :class:`ToolchainError` saying why not."""
    need = ".".join(map(str, node_needed(pyodide_dir)))
    advice = "install a newer Node.js (https://nodejs.org), or set `snapshot: false` in the plugin's options"
    found = node or shutil.which("node")
    if not found:
        raise ToolchainError(f"course-calculators needs Node.js >= {need} at build time, to make the Pyodide "
                             f"snapshot, and found no `node` on PATH: {advice}")
    try:
        proc = subprocess.run([found, "--version"], capture_output=True, text=True, timeout=30)
        have = _version(proc.stdout)
    except (OSError, subprocess.TimeoutExpired):
        have = None
    if have is None:
        raise ToolchainError(f"course-calculators needs Node.js >= {need} at build time; {found} --version "
                             f"gives no version: {advice}")
    if have < node_needed(pyodide_dir):
        raise ToolchainError(f"course-calculators needs Node.js >= {need} at build time (to make the Pyodide "
                             f"snapshot); {found} is {'.'.join(map(str, have))}: {advice}")
    return found
