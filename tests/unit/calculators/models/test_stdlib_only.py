"""calculators.models runs on the standard library alone: it ships to Pyodide as is."""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys
import textwrap

ROOT = pathlib.Path(__file__).resolve().parents[4]
BLOCKED = ("numpy", "markdown", "mkdocs", "jinja2", "yaml", "pymdownx", "pytest")

PROBE = textwrap.dedent(
    """
    import importlib, json, pkgutil, sys

    BLOCKED = {blocked!r}

    class Blocker:
        def find_spec(self, name, path=None, target=None):
            if name.partition(".")[0] in BLOCKED:
                raise ImportError(f"blocked third-party import: {{name}}")
            return None

    sys.meta_path.insert(0, Blocker())
    sys.path.insert(0, {root!r})
    try:
        import numpy
    except ImportError as exc:
        assert "blocked" in str(exc), exc
    else:
        raise SystemExit("the import blocker did not block numpy")

    import calculators.models as models

    seen = []
    for info in pkgutil.walk_packages(models.__path__, "calculators.models."):
        importlib.import_module(info.name)
        seen.append(info.name)
    shapes = {{mid: models.catalogue_shape(mid).kv_bytes_per_token(2) for mid in models.CATALOGUE}}
    pasted = models.parse_config(json.dumps(models.CATALOGUE["deepseek-v3"].config))
    assert models.match_catalogue(pasted) == "deepseek-v3"
    leaked = sorted(m for m in sys.modules if m.partition(".")[0] in BLOCKED)
    assert not leaked, leaked
    print(json.dumps({{"modules": seen, "models": len(shapes)}}))
    """
).format(blocked=set(BLOCKED), root=str(ROOT))


def test_the_package_imports_and_runs_with_third_party_modules_blocked():
    proc = subprocess.run([sys.executable, "-I", "-c", PROBE], check=False, capture_output=True, text=True,
                          timeout=60, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr + proc.stdout
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    files = {p.relative_to(ROOT / "calculators").with_suffix("").as_posix().replace("/", ".")
             for p in (ROOT / "calculators" / "models").rglob("*.py") if p.stem != "__init__"}
    assert {f"calculators.{name}" for name in files} <= set(report["modules"])
    assert report["models"] >= 30


def test_every_import_is_stdlib_or_relative():
    import ast

    for path in (ROOT / "calculators" / "models").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                names = [node.module or ""]
            else:
                continue
            for name in names:
                assert name.partition(".")[0] in sys.stdlib_module_names, f"{path}: imports {name}"
