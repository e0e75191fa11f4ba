"""The computer and software a benchmark ran on, for the report (Linux first, fallbacks elsewhere)."""

from __future__ import annotations

import json
import os
import platform
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _memory_gib() -> float | None:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return round(int(line.split()[1]) / 1024 / 1024, 1)
    except OSError:
        pass
    return None


def _os_name() -> str:
    try:
        for line in Path("/etc/os-release").read_text().splitlines():
            if line.startswith("PRETTY_NAME="):
                return f"{line.split('=', 1)[1].strip(chr(34))} (Linux {platform.release()})"
    except OSError:
        pass
    return platform.platform()


def _npm_version(node_modules: Path, package: str) -> str | None:
    try:
        return json.loads((node_modules / package / "package.json").read_text())["version"]
    except (OSError, KeyError, ValueError):
        return None


def describe(node_modules: Path, chromium: str) -> dict:
    """Machine and versions, plus the load average when the bench started (other work on the
    machine makes every figure slower)."""
    try:
        load = [round(x, 2) for x in os.getloadavg()]
    except OSError:
        load = None
    try:
        playwright = metadata.version("playwright")
    except metadata.PackageNotFoundError:
        playwright = None
    return {
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "cpu": _cpu_model(),
        "cores": os.cpu_count(),
        "memory_gib": _memory_gib(),
        "os": _os_name(),
        "load_average": load,
        "chromium": chromium,
        "playwright": playwright,
        "python": platform.python_version(),
        "pyodide": _npm_version(node_modules, "pyodide"),
        "pyscript": _npm_version(node_modules, "@pyscript/core"),
    }
