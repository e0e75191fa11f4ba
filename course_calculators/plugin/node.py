"""Node.js, which a build runs twice: esbuild bundles the browser runtime, and Pyodide in Node
makes the memory snapshot. Both ask here, so a missing or too old Node is one clear error."""

from __future__ import annotations

import functools
import re
import shutil
import subprocess

#: esbuild's and Pyodide's own floor (their package.json ``engines``).
MIN_VERSION = (18, 0)
INSTALL = "install it from https://nodejs.org/ or your system's packages"


class NodeError(RuntimeError):
    """No usable Node.js; the message is one line that says what to install."""


def _needed(found: str) -> str:
    want = ".".join(map(str, MIN_VERSION))
    return (f"course-calculators needs Node.js {want} or newer at build time (esbuild bundles its browser "
            f"runtime, Pyodide makes its snapshot): {found}; {INSTALL}")


@functools.cache
def _version(node: str) -> tuple[int, ...] | None:
    try:
        out = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    m = re.match(r"v?(\d+)\.(\d+)", out.strip())
    return (int(m[1]), int(m[2])) if m else None


def find_node() -> str:
    """The path of a Node.js that is new enough, or NodeError."""
    node = shutil.which("node")
    if node is None:
        raise NodeError(_needed("none found on PATH"))
    version = _version(node)
    if version is None:
        raise NodeError(_needed(f"{node} does not say its version"))
    if version < MIN_VERSION:
        raise NodeError(_needed(f"{node} is v{'.'.join(map(str, version))}"))
    return node
