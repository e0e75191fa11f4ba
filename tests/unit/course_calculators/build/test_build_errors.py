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
    extra = "      packages: [calculators]\n"
    if package is not None:
        pkg = tmp_path / "my_calcs"
        pkg.mkdir()
        (pkg / "__init__.py").write_text('"""This site\'s calculators."""\n')
        for name, text in package.items():
            (pkg / name).write_text(textwrap.dedent(text))
        extra = "      packages: [calculators, my_calcs]\n"
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
    # Valid as data, but its chart reads an output it does not have: found on its first run, when
    # its embed page or the first page that shows it is rendered (whichever the build reaches first).
    broken = VALID_MODULE.replace(
        "outputs=(Output",
        'chart=lambda p, v: Chart("line", "T", "x", "y", ["a"], [{"name": "s", "values": [v["triple"]]}]),\n'
        "                  outputs=(Output",
    ).replace("import Calculator,", "import Calculator, Chart,")
    proc = build(tmp_path, "```calculator double\nx: 3\n```\n", {"double.py": broken})
    assert_fails_saying(proc, "calculator 'double' (my_calcs/double.py) failed to render", "chart() reads 'triple'",
                        "neither a parameter nor an output")
