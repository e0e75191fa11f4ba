"""Lighthouse (npm ``lighthouse``, pinned in package.json) on every chapter page, mobile and desktop.

Lighthouse drives Chromium itself (``CHROME_PATH``, the flags below) and simulates its own
throttling (mobile: a slow 4G link and a 4× slower processor), so the pages are served at full
speed; the scores are Lighthouse's performance category, 0–100.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

CHROME_FLAGS = "--headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --disable-sync"
METRICS = {
    "fcp_ms": "first-contentful-paint", "lcp_ms": "largest-contentful-paint", "tbt_ms": "total-blocking-time",
    "cls": "cumulative-layout-shift", "si_ms": "speed-index", "bytes": "total-byte-weight",
}


def binary(node_modules: Path) -> Path | None:
    path = node_modules / ".bin" / "lighthouse"
    return path if path.exists() else None


def audit(node_modules: Path, url: str, preset: str, chrome: str) -> dict:
    """One Lighthouse run of ``url`` with ``preset`` "mobile" or "desktop"."""
    cmd = [str(binary(node_modules)), url, "--only-categories=performance", "--output=json", "--output-path=stdout",
           "--quiet", f"--chrome-flags={CHROME_FLAGS}", "--max-wait-for-load=60000"]
    if preset == "desktop":
        cmd.append("--preset=desktop")
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=240, env={**os.environ, "CHROME_PATH": chrome})
    if proc.returncode != 0:
        raise RuntimeError(f"lighthouse {preset} {url}: {(proc.stderr or proc.stdout).strip()[-400:]}")
    report = json.loads(proc.stdout)
    score = report["categories"]["performance"]["score"]
    out = {"score": None if score is None else round(score * 100)}
    for key, audit_id in METRICS.items():
        out[key] = report["audits"].get(audit_id, {}).get("numericValue")
    return out
