"""The worker's reload under ``mkdocs serve`` (``browser/worker/reload.js``): its Python, run here by
CPython over a site folder that stands for Pyodide's site-packages, with two wheels of the same
packages in which one module changed. Only the package that changed is imported afresh; the others
keep their modules, and the registry names every calculator again.

The Python runs in a child interpreter (``-I -S``) whose only site folder is the temporary one: the
code removes package folders, and must never see this checkout's.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import course_calculators
from course_calculators.plugin import wheel

RELOAD_JS = Path(course_calculators.__file__).parent / "browser" / "worker" / "reload.js"

CALC = '''from course_calculators.spec import Calculator, Number, Output

def compute(inputs):
    return {{"out": inputs["x"] * {factor}}}

SPEC = Calculator(id="{id}", title="{id}", compute=compute, params=(Number("x", "X", 3, 1, 100),),
                  outputs=(Output("out", "Out", "count", primary=True),))
'''

RUNNER = '''
import json, sys
site, new_wheel, names, code = sys.argv[1], sys.argv[2], json.loads(sys.argv[3]), sys.argv[4]
sys.path.insert(0, site)
import course_calculators
framework, kept = course_calculators, sys.modules["calc_b.speed"]
first = json.loads(course_calculators.run_json("area", "{}"))["raw"]["out"]
exec(code, {"path": new_wheel, "names": names})
import course_calculators
print(json.dumps({
    "first": first, "then": json.loads(course_calculators.run_json("area", "{}"))["raw"]["out"],
    "other": json.loads(course_calculators.run_json("speed", "{}"))["raw"]["out"],
    "framework_kept": course_calculators is framework, "other_kept": sys.modules["calc_b.speed"] is kept,
    "ids": sorted(course_calculators.CALCULATORS),
}))
'''


def package(root: Path, name: str, module: str, calc_id: str, factor: int) -> Path:
    folder = root / name
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "__init__.py").write_text('"""Test calculators."""\n')
    (folder / f"{module}.py").write_text(CALC.format(id=calc_id, factor=factor))
    return folder


def reinstall_code() -> str:
    m = re.search(r"const REINSTALL = `(.*?)`;", RELOAD_JS.read_text(), re.S)
    assert m, "reload.js has no REINSTALL"
    return m.group(1)


def test_a_reload_imports_afresh_only_the_package_that_changed(tmp_path):
    a = package(tmp_path / "src", "calc_a", "area", "area", 2)
    b = package(tmp_path / "src", "calc_b", "speed", "speed", 5)
    first = wheel.build_wheel(tmp_path / "w1", packages=[a, b], compress=False)
    site = tmp_path / "site"
    zipfile.ZipFile(first).extractall(site)  # as Pyodide installs it
    package(tmp_path / "src", "calc_a", "area", "area", 7)  # the save
    second = wheel.build_wheel(tmp_path / "w2", packages=[a, b], compress=False)
    names = wheel.lock_entry(second, second.name)["imports"]
    assert names == ["course_calculators", "calc_a", "calc_b"]
    proc = subprocess.run([sys.executable, "-I", "-S", "-c", RUNNER, str(site), str(second), json.dumps(names),
                           reinstall_code()], capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout)
    assert (got["first"], got["then"], got["other"]) == ("6", "21", "15")  # the new formula; the other as it was
    assert got["framework_kept"] and got["other_kept"]
    assert got["ids"] == ["area", "speed"]
    assert (site / "calc_a" / "area.py").read_text() == (a / "area.py").read_text()
