"""What ships to Pyodide runs on the standard library alone: the framework's browser half
(``course_calculators`` without ``plugin/`` and ``browser/``) and this site's ``llm_inference``.

Two checks: every import read from the source by the one checker the build uses
(``course_calculators/plugin/stdlib_only.py``), and a real import and run with third-party modules blocked.
"""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys
import textwrap

import pytest

import llm_inference
from course_calculators.plugin import stdlib_only
from course_calculators.plugin import wheel

ROOT = pathlib.Path(__file__).resolve().parents[4]
FRAMEWORK = ROOT / "course_calculators"
CHAPTER = ROOT / "calculators/llm_inference"
BLOCKED = ("markdown", "mkdocs", "numpy", "jinja2", "yaml", "pymdownx", "pygments")


def _sources() -> list[tuple[str, pathlib.Path]]:
    """(package, file) of every module that ships to the browser."""
    shipped = [p for p in wheel.package_files(FRAMEWORK) if p.suffix == ".py"]
    return ([("course_calculators", p) for p in shipped] + [("llm_inference", p) for p in stdlib_only.module_files(CHAPTER)])


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

    # the blocker works: numpy is installed in this venv, yet cannot be imported
    try:
        import numpy
    except ImportError as exc:
        assert "blocked" in str(exc), exc
    else:
        raise SystemExit("the import blocker did not block numpy")

    import course_calculators
    from course_calculators.spec import Calculator

    # every module of both packages, listed in MODULES or not, except the framework's build half
    seen = []

    def walk(path, prefix):
        for info in pkgutil.iter_modules(path, prefix):
            if info.name in ("course_calculators.plugin", "course_calculators.browser", "course_calculators.__main__"):
                continue
            module = importlib.import_module(info.name)
            seen.append(info.name)
            if info.ispkg:
                walk(module.__path__, info.name + ".")

    import llm_inference
    walk(course_calculators.__path__, "course_calculators.")
    walk(llm_inference.__path__, "llm_inference.")

    ran = []
    course_calculators.register_package("llm_inference")
    for name in llm_inference.MODULES:
        spec = importlib.import_module(f"llm_inference.{{name}}").SPEC
        assert isinstance(spec, Calculator), name
        json.dumps(spec.run().to_dict(), allow_nan=False)
        for preset in spec.presets:
            json.dumps(spec.run(preset.values).to_dict(), allow_nan=False)
        json.loads(course_calculators.run_json(spec.id, "{{}}"))
        ran.append(spec.id)

    # the model catalogue: every shape derived, a pasted config read and matched
    import llm_inference.models as models
    assert all(models.catalogue_shape(mid).kv_bytes_per_token(2) > 0 for mid in models.CATALOGUE)
    pasted = models.parse_config(json.dumps(models.CATALOGUE["deepseek-v3"].config))
    assert models.match_catalogue(pasted) == "deepseek-v3"

    leaked = sorted(m for m in sys.modules if m.partition(".")[0] in BLOCKED)
    assert not leaked, leaked
    print(json.dumps({{"modules": seen, "calculators": ran}}))
    """
).format(blocked=set(BLOCKED), root=str(ROOT))


def test_imports_and_runs_with_third_party_modules_blocked():
    # -I: isolated mode (no PYTHON* variables, no user site, no current directory on sys.path)
    proc = subprocess.run(
        [sys.executable, "-I", "-c", PROBE], capture_output=True, text=True, timeout=60, cwd=ROOT
    )
    assert proc.returncode == 0, proc.stderr + proc.stdout
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    assert len(report["calculators"]) == len(llm_inference.MODULES) >= 1
    # every shipped module, in subpackages too (llm_inference.models.data.llama, …)
    expected = {".".join((pkg, *p.relative_to(FRAMEWORK if pkg == "course_calculators" else CHAPTER)
                          .with_suffix("").parts)).removesuffix(".__init__") for pkg, p in _sources()}
    assert expected - {"course_calculators", "llm_inference"} <= set(report["modules"])


@pytest.mark.parametrize("package, path", _sources(), ids=lambda v: v if isinstance(v, str) else str(v.relative_to(ROOT)))
def test_every_import_is_stdlib_or_the_package(package, path):
    # The registry imports the packages a site lists, by name: the one place a computed name is right.
    registry = path == FRAMEWORK / "__init__.py"
    problems = stdlib_only.check_source(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)), package,
                                    computed_names=registry)
    assert not problems, "\n".join(map(str, problems))


def test_the_static_check_sees_both_packages():
    names = {f"{pkg}/{p.relative_to(FRAMEWORK if pkg == 'course_calculators' else CHAPTER).as_posix()}"
             for pkg, p in _sources()}
    assert {"course_calculators/__init__.py", "course_calculators/spec.py", "course_calculators/units/__init__.py",
            "course_calculators/units/money.py", "llm_inference/hardware.py", "llm_inference/kv_cache.py"} <= names
    assert not any("/plugin/" in str(p) or "/browser/" in str(p) for _, p in _sources())


def test_the_static_check_would_catch_a_third_party_import():
    found = stdlib_only.check_source("import numpy as np\nfrom yaml import safe_load\nfrom . import units\n", "x.py", "pkg")
    assert [(p.line, "numpy" in p.message or "yaml" in p.message) for p in found] == [(1, True), (2, True)]
    assert "numpy" not in sys.stdlib_module_names and "json" in sys.stdlib_module_names


def test_the_check_is_build_time_only_and_never_ships():
    shipped = {p.relative_to(FRAMEWORK).as_posix() for p in wheel.package_files(FRAMEWORK)}
    assert "plugin/stdlib_only.py" not in shipped and not any(name.startswith("plugin/") for name in shipped)
