"""A new calculator in one command: its module, its test, a page that uses it, and every list that
names it (the package's ``MODULES``, the site's ``nav``).

    python -m course_calculators new loan-ratio --package loan_calcs --title "Loan-to-value ratio"

Run from the folder of ``mkdocs.yml``. What it writes builds at once (``mkdocs build --strict``)
and its test passes; then replace the example physics with yours. Nothing is overwritten.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from course_calculators import contract

MODULE = '''\
"""{title}: what it computes, in a sentence or two, and the formula.

    result = value × factor
"""

from __future__ import annotations

from typing import Any, Mapping

from course_calculators.spec import Calculator, Number, Output, Preset

PARAMS = (
    Number("value", "Value", 10, 0, 1000, step=1, help="What the reader starts from."),
    Number("factor", "Factor", 2, 0, 10, step=0.1, integer=False),
)

OUTPUTS = (
    Output("result", "Result", "count", primary=True),
)

PRESETS = (
    Preset("double", "Double it", {{"value": 10, "factor": 2}}, "Twice the value."),
)


def compute(inputs: Mapping[str, Any]) -> dict[str, float]:
    return {{"result": inputs["value"] * inputs["factor"]}}


SPEC = Calculator(
    id="{calc_id}",
    title="{title}",
    summary="{title}.",
    params=PARAMS,
    outputs=OUTPUTS,
    presets=PRESETS,
    compute=compute,
)
'''

TEST = '''\
"""{module}: the calculator's figures against an independent computation."""

from __future__ import annotations

import pytest

from {package} import {module}

SPEC = {module}.SPEC


@pytest.mark.parametrize("value, factor", [(10, 2), (0, 5), (1000, 0.5)])
def test_result_is_value_times_factor(value, factor):
    result = SPEC.run({{"value": value, "factor": factor}})
    assert result.values["result"] == pytest.approx(value * factor)


def test_every_preset_runs_and_says_what_to_notice():
    for preset in SPEC.presets:
        assert preset.notice
        SPEC.check_overrides(preset.values)
        SPEC.run(preset.values)
'''

PAGE = '''\
# {title}

What this page teaches, and what to try with the calculator below.

```{fence} {calc_id}
```
'''


class ScaffoldError(RuntimeError):
    pass


@dataclass(frozen=True)
class Scaffold:
    module: Path
    test: Path
    page: Path
    registered: bool  # added to the package's MODULES
    in_nav: bool  # added to mkdocs.yml's nav


def _module_name(calc_id: str) -> str:
    return calc_id.replace("-", "_")


def _register(init: Path, module: str) -> bool:
    """Add ``module`` to the package's ``MODULES`` tuple, if it lists its modules (else every
    public module is a calculator and nothing needs adding)."""
    text = init.read_text(encoding="utf-8")
    m = re.search(r"^MODULES\s*=\s*\((?P<body>.*?)\)", text, re.S | re.M)
    if not m:
        return False
    body = m["body"].rstrip()
    sep = "" if not body.strip() or body.endswith(",") else ","
    indent = "\n    " if "\n" in body else " "
    new = f'{body}{sep}{indent}"{module}",' + ("\n" if "\n" in body else "")
    init.write_text(text[: m.start("body")] + new + text[m.end("body"):], encoding="utf-8")
    return True


def _add_to_nav(mkdocs_yml: Path, title: str, page: str) -> bool:
    """Append the page to the top level of ``nav`` (when the site has one; without ``nav`` MkDocs
    lists every page by itself)."""
    text = mkdocs_yml.read_text(encoding="utf-8")
    m = re.search(r"^nav:\n(?P<items>(?:[ \t]+.*\n?|\n)*)", text, re.M)
    if not m:
        return False
    items = m["items"].rstrip("\n")
    indent = re.match(r"[ \t]*", items).group(0) if items else "  "
    entry = f'{indent}- "{title}": {page}'
    end = m.start("items") + len(items)
    text = text[:end] + ("\n" if items else "") + entry + text[end:]
    mkdocs_yml.write_text(text if text.endswith("\n") else text + "\n", encoding="utf-8")
    return True


def create(root: Path, calc_id: str, package: str, title: str, *, docs_dir: str = "docs",
           tests_dir: str = "tests", package_dir: Path | None = None) -> Scaffold:
    """Write the calculator ``calc_id`` into ``root/<package>/``, or into ``package_dir`` (a package
    kept in a distribution of its own); the package is made if missing."""
    if not contract.is_id(calc_id):
        raise ScaffoldError(f"{calc_id!r} is not a calculator id: kebab-case, such as loan-ratio")
    if not package.isidentifier():
        raise ScaffoldError(f"{package!r} is not a package name")
    module = _module_name(calc_id)
    pkg = package_dir if package_dir is not None else root / package
    paths = (pkg / f"{module}.py", root / tests_dir / f"test_{module}.py", root / docs_dir / f"{calc_id}.md")
    taken = [str(p) for p in paths if p.exists()]
    if taken:
        raise ScaffoldError(f"already there, nothing written: {', '.join(taken)}")
    pkg.mkdir(parents=True, exist_ok=True)
    init = pkg / "__init__.py"
    if not init.exists():
        init.write_text('"""This site\'s calculators: one stdlib-only module each, defining SPEC."""\n')
    text = {"title": title.replace('"', "'"), "calc_id": calc_id, "module": module, "package": package,
            "fence": contract.FENCE_NAME}
    for path, template in zip(paths, (MODULE, TEST, PAGE)):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(template.format(**text), encoding="utf-8")
    registered = _register(init, module)
    mkdocs_yml = root / "mkdocs.yml"
    in_nav = mkdocs_yml.exists() and _add_to_nav(mkdocs_yml, title, f"{calc_id}.md")
    return Scaffold(*paths, registered=registered, in_nav=in_nav)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m course_calculators", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    new = sub.add_parser("new", help="create a calculator: module, test, page; register it")
    new.add_argument("id", help="the calculator id, kebab-case (loan-ratio)")
    new.add_argument("--package", default="calculators", help="the calculator package (default: calculators)")
    new.add_argument("--package-dir", type=Path, help="the package's folder, when it is not <root>/<package>")
    new.add_argument("--title", help="the calculator's title (default: from the id)")
    new.add_argument("--root", type=Path, default=Path("."), help="the site's folder, with mkdocs.yml (default: .)")
    new.add_argument("--tests", default="tests", help="where the test goes, relative to the root (default: tests)")
    args = parser.parse_args(argv)
    title = args.title or args.id.replace("-", " ").capitalize()
    try:
        made = create(args.root, args.id, args.package, title, tests_dir=args.tests,
                      package_dir=args.package_dir)
    except ScaffoldError as exc:
        print(f"calculators: {exc}", file=sys.stderr)
        return 2
    for path in (made.module, made.test, made.page):
        print(f"wrote {path}")
    print(f"{'added to' if made.registered else 'no MODULES list in'} {made.module.parent / '__init__.py'}")
    print("added to nav in mkdocs.yml" if made.in_nav else "mkdocs.yml has no nav: MkDocs lists the page itself")
    packages = (args.root / "mkdocs.yml").read_text() if (args.root / "mkdocs.yml").exists() else ""
    if args.package not in packages:
        print(f"add {args.package} to the plugin's packages in mkdocs.yml: packages: [{args.package}]")
    return 0
