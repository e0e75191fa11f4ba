"""What to run when the front-end packages are missing: the npm line that fits the site.

A site with a ``package-lock.json`` beside ``mkdocs.yml`` (this repository) installs exactly what
the lock holds, with ``npm ci``; one without a lock (a site ``init`` made, whose ``package.json``
pins versions but has no lock yet) cannot run ``npm ci`` (npm refuses without a lock), so it is
given the ``npm install`` line that installs the packages the reader's browser loads, at the
versions this framework is tested with (:data:`course_calculators.cli.FRONTEND`).
"""

from __future__ import annotations

from pathlib import Path

from course_calculators.cli import FRONTEND


def install_line() -> str:
    """``npm install --save-exact pyodide@… chart.js@… …``: every front-end package, pinned."""
    return "npm install --save-exact " + " ".join(f"{name}@{version}" for name, version in FRONTEND.items())


def advice(site_root: Path | str | None) -> str:
    """The command to run beside ``mkdocs.yml``, as a sentence's end: ``run `npm ci` …``."""
    root = Path(site_root) if site_root else Path(".")
    if (root / "package-lock.json").exists():
        return "run `npm ci` beside mkdocs.yml (package-lock.json pins every package)"
    return f"run `{install_line()}` beside mkdocs.yml"
