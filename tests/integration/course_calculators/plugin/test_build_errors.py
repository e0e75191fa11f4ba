"""Build-time errors in real ``mkdocs build --strict`` runs: each fails, naming the file and the problem.

One small site per error kind (a page or two, the plugin alone, no snapshot): an unknown calculator
id, bad fence overrides (out of range, unknown parameter, not a number — all reported at once), an
invalid spec in a calculator package of the site's own, and a calculator whose ``compute()`` or
``chart()`` breaks on its first run. The unit-level checks behind each live in ``test_spec.py``,
``test_fence.py`` and ``test_packages.py``; here the point is what an author sees on the console.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[4]

CONFIG = """\
site_name: errors
theme: {{name: material, font: false}}
nav:
  - Lesson: course/lesson.md
plugins:
  - calculators:
      node_modules: {node_modules}
      snapshot: false
      charts: false
{extra}"""

VALID_MODULE = '''\
from course_calculators.spec import Calculator, Number, Output


def compute(p):
    return {"double": p["x"] * 2}


SPEC = Calculator(id="double", title="Double", params=(Number("x", "X", 2, 0, 10),),
                  outputs=(Output("double", "Twice x", "count"),), compute=compute)
'''


def build(tmp_path: Path, lesson: str, package: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """Build a one-page site whose page is ``docs/course/lesson.md``; ``package`` adds ``my_calcs``."""
    (tmp_path / "docs" / "course").mkdir(parents=True)
    (tmp_path / "docs" / "course" / "lesson.md").write_text("# Lesson\n\n" + lesson)
    extra = "      packages: [llm_inference]\n"
    if package is not None:
        pkg = tmp_path / "my_calcs"
        pkg.mkdir()
        (pkg / "__init__.py").write_text('"""This site\'s calculators."""\n')
        for name, text in package.items():
            (pkg / name).write_text(textwrap.dedent(text))
        extra = "      packages: [llm_inference, my_calcs]\n"
    (tmp_path / "mkdocs.yml").write_text(CONFIG.format(node_modules=ROOT / "node_modules", extra=extra))
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(tmp_path / "site")],
        cwd=tmp_path, capture_output=True, text=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )


def assert_fails_saying(proc: subprocess.CompletedProcess, *words: str) -> None:
    assert proc.returncode != 0, "the build should have failed"
    for word in words:
        assert word in proc.stderr, f"{word!r} not in:\n{proc.stderr}"
    assert "Traceback" not in proc.stderr, proc.stderr  # a message for the author, not a crash


def test_an_unknown_id_names_the_page_and_the_ids_that_exist(tmp_path):
    proc = build(tmp_path, "Some text.\n\n```calculator kv-cahce\n```\n")
    assert_fails_saying(proc, "course/lesson.md", "unknown calculator id 'kv-cahce'", "known ids:", "kv-cache")


def test_bad_overrides_name_the_page_the_calculator_and_every_problem(tmp_path):
    body = "```calculator kv-cache\ncontext: 99999999\ncontxt: 4096\nconcurrency: lots\ngpu: h900\n```\n"
    proc = build(tmp_path, body)
    assert_fails_saying(
        proc, "course/lesson.md", "calculator 'kv-cache'",
        "Context length: '99999999' is above the maximum",             # out of range
        "Unknown parameter 'contxt': did you mean 'context'?",          # unknown parameter
        "'lots' is not a number",                                       # not a number
        "'h900' is not a known choice",                                 # unknown choice
    )


def test_an_invalid_spec_in_a_site_package_names_its_module(tmp_path):
    broken = VALID_MODULE.replace('Number("x", "X", 2, 0, 10)', 'Number("x", "X", 20, 0, 10)')
    proc = build(tmp_path, "```calculator double\n```\n", {"double.py": broken})
    assert_fails_saying(proc, "my_calcs/double.py", "invalid calculator spec", "default 20 is outside [0, 10]")


def test_a_calculator_that_breaks_on_its_first_run_names_its_module_and_the_problem(tmp_path):
    # Valid as data, but its chart reads an output it does not have: found on its first run, in the
    # check of every calculator's defaults, presets and stops before the snapshot.
    broken = VALID_MODULE.replace(
        "outputs=(Output",
        'chart=lambda p, v: Chart("line", "T", "x", "y", ["a"], [{"name": "s", "values": [v["triple"]]}]),\n'
        "                  outputs=(Output",
    ).replace("import Calculator,", "import Calculator, Chart,")
    proc = build(tmp_path, "```calculator double\nx: 3\n```\n", {"double.py": broken})
    assert_fails_saying(proc, "my_calcs/double.py:4: calculator 'double' at the defaults", "chart() reads 'triple'",
                        "neither a parameter nor an output")


def assert_one_line(proc: subprocess.CompletedProcess, *words: str) -> None:
    """The build fails with one ERROR line that says it all (plus MkDocs' own "Aborted" line)."""
    assert_fails_saying(proc, *words)
    errors = [line for line in proc.stderr.splitlines() if line.strip() and not line.startswith("Aborted")]
    assert len(errors) == 1, proc.stderr
    assert len(errors[0]) < 600, errors[0]


def build_with_chapter_copy(tmp_path: Path, edit) -> subprocess.CompletedProcess:
    """A site whose own ``calculators/`` is a copy of this repository's, edited by ``edit(folder)``."""
    import shutil

    shutil.copytree(ROOT / "calculators/llm_inference", tmp_path / "llm_inference", ignore=shutil.ignore_patterns("__pycache__"))
    edit(tmp_path / "llm_inference")
    return build(tmp_path, "```calculator kv-cache\n```\n")


def test_a_third_party_import_under_calculators_is_one_line_naming_module_line_and_import(tmp_path):
    def edit(folder):
        path = folder / "sampling.py"
        path.write_text(path.read_text().replace("from __future__ import annotations\n",
                                                 "from __future__ import annotations\n\nimport numpy\n", 1))

    proc = build_with_chapter_copy(tmp_path, edit)
    line = next(i for i, text in enumerate((tmp_path / "llm_inference/sampling.py").read_text().splitlines(), 1)
                if text == "import numpy")
    assert_one_line(proc, f"llm_inference/sampling.py:{line}", "'numpy'", "not in the standard library")


def test_a_dynamic_import_is_caught_too(tmp_path):
    def edit(folder):
        path = folder / "sampling.py"
        path.write_text(path.read_text() + '\n\ndef _later():\n    return __import__("numpy")\n')

    proc = build_with_chapter_copy(tmp_path, edit)
    assert_one_line(proc, "llm_inference/sampling.py:", "'numpy'", "dynamically")


def test_an_out_of_range_default_is_one_line(tmp_path):
    def edit(folder):
        path = folder / "sampling.py"
        text = path.read_text()
        assert 'Number("temperature", "Temperature", 1' in text
        path.write_text(text.replace('Number("temperature", "Temperature", 1', 'Number("temperature", "Temperature", 99', 1))

    proc = build_with_chapter_copy(tmp_path, edit)
    assert_one_line(proc, "llm_inference/sampling.py", "invalid calculator spec", "temperature", "outside")


def test_a_fence_error_in_a_real_build_names_page_and_line(tmp_path):
    proc = build(tmp_path, "Text.\n\n```calculator kv-cache\nlayers: 32\ncontext: lots\n```\n")
    # lesson.md: line 1 "# Lesson", 2 blank, 3 "Text.", 4 blank, 5 the fence, 6 layers, 7 context
    assert_fails_saying(proc, "course/lesson.md:7: calculator 'kv-cache'", "'lots' is not a number")


def test_a_failure_in_the_node_step_shows_pythons_own_error(tmp_path):
    """Valid in CPython, broken under Pyodide: the snapshot step reports the Python traceback."""
    only_in_pyodide = VALID_MODULE.replace(
        "def compute(p):\n",
        "def compute(p):\n    import sys\n    if sys.platform == 'emscripten':\n"
        "        raise RuntimeError('this calculator cannot run in the browser')\n")
    (tmp_path / "docs" / "course").mkdir(parents=True)
    (tmp_path / "docs" / "course" / "lesson.md").write_text("# Lesson\n\n```calculator double\n```\n")
    pkg = tmp_path / "my_calcs"
    pkg.mkdir()
    (pkg / "__init__.py").write_text('"""Calculators."""\n')
    (pkg / "double.py").write_text(only_in_pyodide)
    config = CONFIG.format(node_modules=ROOT / "node_modules", extra="      packages: [my_calcs]\n")
    (tmp_path / "mkdocs.yml").write_text(config.replace("      snapshot: false\n", ""))
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(tmp_path / "site")],
        cwd=tmp_path, capture_output=True, text=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert proc.returncode != 0
    assert "making the Pyodide snapshot failed" in proc.stderr
    assert "RuntimeError: this calculator cannot run in the browser" in proc.stderr
    assert 'File "/lib/python3' in proc.stderr or "my_calcs/double.py" in proc.stderr  # Python's traceback
    assert max(len(line) for line in proc.stderr.splitlines()) < 1000, "minified JavaScript in the message"


# -- every run checked before the snapshot: the defaults, each preset, each control's stops -------

CHECKED_MODULE = '''\
from course_calculators.spec import Calculator, Number, Output, Preset


def compute(p):
    x = p["x"]
    y = 10 / (x - {zero_at})
    return {returned}


SPEC = Calculator(id="double", title="Double", params=(Number("x", "X", 2, 0, 10),),
                  outputs=(Output("double", "Twice x", "count"),), compute=compute,
                  presets=(Preset("{preset_id}", "Preset", {{"x": {preset_x}}}),))
'''
#: The line of ``y = 10 / (x - …)`` in CHECKED_MODULE, and of compute's ``return`` (where a wrong
#: result is fixed: failure.return_line).
RAISES_AT, RETURN_AT = 6, 7


def build_checked(tmp_path: Path, *, zero_at: float = 99, preset_x: int = 3, returned: str = '{"double": x * 2}',
                  snapshot: bool = True) -> subprocess.CompletedProcess:
    """A site of one calculator whose compute() divides by ``x - zero_at``; the snapshot is on (as
    an author's site has it): the check must stop the build before it."""
    module = CHECKED_MODULE.format(zero_at=zero_at, returned=returned, preset_id="three", preset_x=preset_x)
    (tmp_path / "docs" / "course").mkdir(parents=True)
    (tmp_path / "docs" / "course" / "lesson.md").write_text("# Lesson\n\n```calculator double\n```\n")
    pkg = tmp_path / "my_calcs"
    pkg.mkdir()
    (pkg / "__init__.py").write_text('"""Calculators."""\n')
    (pkg / "double.py").write_text(module)
    config = CONFIG.format(node_modules=ROOT / "node_modules", extra="      packages: [my_calcs]\n")
    if snapshot:
        config = config.replace("      snapshot: false\n", "")
    (tmp_path / "mkdocs.yml").write_text(config)
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(tmp_path / "site")],
        cwd=tmp_path, capture_output=True, text=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )


def assert_checked(proc: subprocess.CompletedProcess, *words: str) -> None:
    """One line, before any snapshot: no Pyodide, no traceback frame."""
    assert_one_line(proc, *words)
    assert "snapshot" not in proc.stderr and "pyodide" not in proc.stderr.lower(), proc.stderr
    assert 'File "' not in proc.stderr, proc.stderr


def test_defaults_that_raise_are_one_line_with_file_and_line_in_compute(tmp_path):
    proc = build_checked(tmp_path, zero_at=2)
    assert_checked(proc, f"my_calcs/double.py:{RAISES_AT}:", "calculator 'double' at the defaults",
                   "ZeroDivisionError: division by zero")


def test_a_preset_that_raises_is_one_line_naming_it(tmp_path):
    proc = build_checked(tmp_path, zero_at=3, preset_x=3)
    assert_checked(proc, f"my_calcs/double.py:{RAISES_AT}:", "calculator 'double' with preset 'three'",
                   "ZeroDivisionError")


def test_part_of_a_sliders_range_that_raises_is_one_line_naming_the_stop(tmp_path):
    proc = build_checked(tmp_path, zero_at=9)
    assert_checked(proc, f"my_calcs/double.py:{RAISES_AT}:", "calculator 'double' with x=9", "ZeroDivisionError")


def test_an_undeclared_output_is_one_line_naming_the_return(tmp_path):
    proc = build_checked(tmp_path, returned='{"double": x * 2, "triple": x * 3}')
    assert_checked(proc, f"my_calcs/double.py:{RETURN_AT}:", "calculator 'double' at the defaults",
                   "compute() returned ['triple'], which no output declares")


def test_nan_is_one_line_naming_the_return_and_the_stop(tmp_path):
    proc = build_checked(tmp_path, returned='{"double": float("nan") if x == 10 else x * 2}')
    assert_checked(proc, f"my_calcs/double.py:{RETURN_AT}:", "calculator 'double' with x=10",
                   "output 'double' is not a finite number (nan)")
