"""The browser scripts the site serves, by file name under ``assets/calc/``.

Each is served as the file in ``browser/`` holds it.
"""

from __future__ import annotations

from pathlib import Path

BROWSER = Path(__file__).resolve().parent.parent / "browser"
#: Files served as they are (scripts and the style sheet).
FILES = ("boot.js", "runtime.js", "worker.js", "embed.js", "search-deferred.js", "calc.css")


def bundles() -> dict[str, bytes]:
    """Every browser file of the runtime: name under ``assets/calc/`` → content."""
    return {name: (BROWSER / name).read_bytes() for name in FILES}
