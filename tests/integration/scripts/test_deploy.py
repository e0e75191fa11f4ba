"""``make deploy``: it asks for the published address, and given one builds for it and publishes."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from tests.tools import need

ROOT = Path(__file__).resolve().parents[3]


def test_make_deploy_asks_for_the_published_address():
    make = need("make")
    env = {k: v for k, v in os.environ.items() if k != "SITE_URL"}
    proc = subprocess.run([make, "-s", "deploy"], cwd=ROOT, capture_output=True, text=True, env=env)
    assert proc.returncode != 0
    assert "SITE_URL=https://<user>.github.io/<repo>/" in proc.stdout + proc.stderr
    proc = subprocess.run([make, "-s", "deploy-url", "SITE_URL=https://u.github.io/r"], cwd=ROOT,
                          capture_output=True, text=True, env=env)
    assert proc.returncode != 0 and "must end with /" in proc.stdout + proc.stderr
    # Given the address, it builds for it and publishes (dry run: -n prints, runs nothing).
    proc = subprocess.run([make, "-n", "deploy", "SITE_URL=https://u.github.io/r/"], cwd=ROOT,
                          capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stderr
    assert "SITE_URL=https://u.github.io/r/ .venv/bin/mkdocs gh-deploy --strict --force" in proc.stdout
