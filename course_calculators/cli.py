"""``python -m course_calculators``: a whole course site in one command, and a calculator more.

    python -m course_calculators init my-course          # a site that builds and serves as it is
    python -m course_calculators new loan-ratio          # a calculator more, in the site of "."

``init`` writes ``mkdocs.yml`` (the snapshot cache on, so a rebuild takes about a second), a home
page and a page with a calculator, the site's calculator package with that calculator and its test,
``package.json`` with the front-end versions this framework is tested with, a README with the site's
two commands and a link to the authors' guide, and a ``.gitignore``. ``new``
adds a calculator to an existing site: its module, its test, a page that uses it, and every list
that names it (the package's ``MODULES``, the site's ``nav``). Nothing is ever overwritten. The
tests they write need only the standard library (``python -m unittest``).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from course_calculators import __version__, contract

#: The packages a site installs with npm: what the reader's browser loads, at the versions this
#: release is tested with (this repository's package.json holds the same; a test checks). The
#: framework's own browser runtime comes bundled in its distribution (plugin/esbuild.py, prebuilt).
FRONTEND = {"pyodide": "314.0.7", "chart.js": "4.6.1", "katex": "0.19.1"}
#: The authors' guide, which the site's README and home page link to.
GUIDE_URL = "https://github.com/course-calculators/course-calculators/blob/main/docs/authors.md"
#: Where ``init``'s site keeps its Pyodide snapshot between builds (the plugin's ``cache_dir``).
CACHE_DIR = ".cache/calculators"

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

# A unit says how a value reads: "m", "kg", "kWh", "°C" (SI, the prefix chosen by magnitude),
# "EUR" or "USD" (money), "percent", "fraction", "count", "number", or units.custom("m/s²").
OUTPUTS = (
    Output("result", "Result", "number", primary=True),
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
"""{module}: the calculator's figures against an independent computation.

Standard library only: ``python -m unittest`` from the site's folder runs it (so does pytest).
"""

from __future__ import annotations

import unittest

from {package} import {module}

SPEC = {module}.SPEC


class {test_class}(unittest.TestCase):
    def test_result_is_value_times_factor(self):
        for value, factor in [(10, 2), (0, 5), (1000, 0.5)]:
            with self.subTest(value=value, factor=factor):
                result = SPEC.run({{"value": value, "factor": factor}})
                self.assertAlmostEqual(result.values["result"], value * factor)

    def test_every_preset_runs_and_says_what_to_notice(self):
        for preset in SPEC.presets:
            with self.subTest(preset=preset.id):
                self.assertTrue(preset.notice)
                SPEC.check_overrides(preset.values)
                SPEC.run(preset.values)


if __name__ == "__main__":
    unittest.main()
'''

PAGE = '''\
# {title}

What this page teaches, and what to try with the calculator below. A number in the prose is the
calculator's own: with the defaults the result is {{calc {calc_id} result}}, and doubling 21 gives
{{calc {calc_id} result preset=double value=21}}. Math is typeset when the site builds:
$\\text{{result}} = \\text{{value}} \\times \\text{{factor}}$, or on a line of its own,

$$
r = v \\cdot f .
$$

```{fence} {calc_id}
```
'''

MKDOCS_YML = '''\
# Preview: `mkdocs serve`; build into site/: `mkdocs build` (README.md). The same file builds with
# ProperDocs (`properdocs build -f mkdocs.yml`) and with Zensical (`zensical build -f mkdocs.yml`,
# then `python -m course_calculators finish site -f mkdocs.yml`).
site_name: "{title}"
# The address the site is published at (instant navigation and the sitemap use it):
# SITE_URL=https://<user>.github.io/<repo>/ mkdocs build
site_url: !ENV [SITE_URL, "http://127.0.0.1:8000/"]
strict: true             # a broken calculator, fence or link fails the build

theme:
  name: material
  font: false            # no Google Fonts: the site makes no request outside its origin

plugins:
  - search
  - calculators:
      packages: [{package}]   # ./{package}/: this site's calculators
      # The Pyodide snapshot, kept between builds: a rebuild whose Python did not change takes
      # about a second instead of booting Pyodide again (delete the folder to start afresh).
      cache_dir: {cache_dir}
      math: true              # $…$ and $$…$$ typeset at build time by KaTeX (npm's katex): no KaTeX JavaScript ships

markdown_extensions:
  - admonition
  - tables
  - toc:
      permalink: true
  - pymdownx.arithmatex:      # writes the math for the build-time typesetting
      generic: true
  - pymdownx.superfences
  # The calculators' fence and figures on Zensical, which runs no MkDocs plugin (on MkDocs and
  # ProperDocs the plugin above takes this over).
  - course_calculators.plugin.extension:
      packages: [{package}]

nav:
  - Home: index.md
'''

INDEX = '''\
# {title}

A course whose numbers are computed: each calculator is a small Python module in `{package}/`,
run while the site builds (the page's HTML holds its numbers) and again in the reader's browser,
live, as they move its controls.

- [{calc_title}]({calc_id}.md)

Writing the course: the [authors' guide]({guide}) (a calculator's parts, fences, inline figures,
units, charts, and every option).
'''

README = '''\
# {title}

A course site: pages in `docs/` (Markdown), calculators in `{package}/` (one standard-library
Python module each), built by [MkDocs](https://www.mkdocs.org/) with Material and the
`course-calculators` plugin. Needs Python 3.11 or newer and Node.js 18 or newer. How to write
the pages and the calculators: the [authors' guide]({guide}).

## Once

```sh
python -m venv .venv && . .venv/bin/activate
{pip_install}
npm install                   # Pyodide and Chart.js, at the versions package.json pins
```

## The two commands

```sh
mkdocs serve                  # preview at http://127.0.0.1:8000/, rebuilt on every save
mkdocs build                  # the site, into site/: static files to publish anywhere
```

Publish with the address the site will have: `SITE_URL=https://<user>.github.io/<repo>/ mkdocs build`.

## Tests and a new calculator

```sh
python -m unittest            # the calculators' tests (standard library only)
python -m course_calculators new <id> --title "<Title>"   # module, test, page, nav entry
```
'''

GITIGNORE = "site/\nnode_modules/\n.venv/\n__pycache__/\n.cache/\n"


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
    if not body.strip():  # the first one
        init.write_text(text[: m.start("body")] + f'\n    "{module}",\n' + text[m.end("body"):], encoding="utf-8")
        return True
    sep = "" if body.endswith(",") else ","
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


def site_packages(mkdocs_yml: Path) -> list[str]:
    """The plugin's ``packages`` in ``mkdocs.yml`` (the flow form ``[a, b]`` or a block list)."""
    text = mkdocs_yml.read_text(encoding="utf-8")
    m = re.search(r"^\s*packages:\s*\[(?P<flow>[^\]]*)\]", text, re.M)
    if m:
        return [p.strip().strip("'\"") for p in m["flow"].split(",") if p.strip()]
    m = re.search(r"^(?P<indent>\s*)packages:\s*\n(?P<items>(?:(?P=indent)\s+-\s*.*\n?)+)", text, re.M)
    if m:
        return [line.split("-", 1)[1].split("#")[0].strip().strip("'\"") for line in m["items"].splitlines()]
    return []


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
    tests_init = root / tests_dir / "__init__.py"
    if not (root / tests_dir).exists() and package_dir is None:
        tests_init.parent.mkdir(parents=True)
        tests_init.write_text("")  # unittest's discovery enters packages only
    text = {"title": title.replace('"', "'"), "calc_id": calc_id, "module": module, "package": package,
            "fence": contract.FENCE_NAME,
            "test_class": "".join(p.capitalize() for p in module.split("_")) + "Test"}
    for path, template in zip(paths, (MODULE, TEST, PAGE)):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(template.format(**text), encoding="utf-8")
    registered = _register(init, module)
    mkdocs_yml = root / "mkdocs.yml"
    in_nav = mkdocs_yml.exists() and _add_to_nav(mkdocs_yml, title, f"{calc_id}.md")
    return Scaffold(*paths, registered=registered, in_nav=in_nav)


def pip_install_line() -> str:
    """The ``pip install`` line that gives this site's framework the way this one was installed: a
    local wheel or clone by its path (read from pip's ``direct_url.json``, PEP 610), a package
    index's release by its version."""
    import importlib.metadata
    from urllib.parse import unquote, urlparse

    try:
        direct = importlib.metadata.distribution("course-calculators").read_text("direct_url.json")
        url = json.loads(direct)["url"] if direct else ""
    except (importlib.metadata.PackageNotFoundError, ValueError, KeyError, TypeError):
        url = ""
    parsed = urlparse(url)
    if parsed.scheme == "file":
        return f"pip install '{unquote(parsed.path)}'   # course-calculators, from where this site's was installed"
    if url:
        return f"pip install 'course-calculators @ {url}'"
    return f'pip install "course-calculators>={__version__}"'


def default_package(folder: Path) -> str:
    """A package name from the site's folder: ``physics-course`` → ``physics_course_calcs``."""
    stem = re.sub(r"\W+", "_", folder.resolve().name.lower()).strip("_") or "site"
    if not stem[0].isalpha():
        stem = f"site_{stem}"
    return f"{stem}_calcs"


def init(folder: Path, *, package: str | None = None, title: str | None = None,
         calc_id: str = "first-calculator", calc_title: str | None = None) -> list[Path]:
    """Write a whole site into ``folder`` (made if missing); return the files written."""
    package = package or default_package(folder)
    if not package.isidentifier():
        raise ScaffoldError(f"{package!r} is not a package name (a Python identifier, such as physics_calcs)")
    title = title or folder.resolve().name.replace("-", " ").replace("_", " ").strip().capitalize() or "A course"
    calc_title = calc_title or calc_id.replace("-", " ").capitalize()
    site_files = {
        "mkdocs.yml": MKDOCS_YML,
        "docs/index.md": INDEX,
        "README.md": README,
        ".gitignore": GITIGNORE,
        "package.json": "",
        f"{package}/__init__.py": '"""{title}: this site\'s calculators, one stdlib-only module each."""\n\n'
                                  "#: The calculator modules, in the order the site lists them.\nMODULES = ()\n",
        "tests/__init__.py": "",
    }
    taken = [name for name in site_files if (folder / name).exists()]
    if taken:
        raise ScaffoldError(f"{folder} already holds {', '.join(taken)}: nothing written "
                            "(`new` adds a calculator to an existing site)")
    words = {"title": title.replace('"', "'"), "package": package, "calc_id": calc_id, "calc_title": calc_title,
             "version": __version__, "guide": GUIDE_URL, "cache_dir": CACHE_DIR,
             "pip_install": pip_install_line()}
    package_json = {"name": re.sub(r"[^a-z0-9-]+", "-", folder.resolve().name.lower()).strip("-") or "course-site",
                    "private": True,
                    "description": "Front-end files the calculators plugin copies into the site: Pyodide and "
                                   "Chart.js, at the versions course-calculators is tested with.",
                    "dependencies": dict(FRONTEND)}
    written = []
    for name, template in site_files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        content = json.dumps(package_json, indent=2) + "\n" if name == "package.json" else template.format(**words)
        path.write_text(content, encoding="utf-8")
        written.append(path)
    made = create(folder, calc_id, package, calc_title)
    return written + [made.module, made.test, made.page]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m course_calculators", description=__doc__.split("\n\n")[0])
    parser.add_argument("--version", action="version", version=f"course-calculators {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    start = sub.add_parser("init", help="write a whole site: mkdocs.yml, pages, a calculator package and its test")
    start.add_argument("folder", nargs="?", type=Path, default=Path("."), help="where (default: .; made if missing)")
    start.add_argument("--package", help="the calculator package's name (default: from the folder's name)")
    start.add_argument("--title", help="the site's title (default: from the folder's name)")
    start.add_argument("--calculator", default="first-calculator", help="the first calculator's id (kebab-case)")
    new = sub.add_parser("new", help="add a calculator to the site: module, test, page; register it")
    new.add_argument("id", help="the calculator id, kebab-case (loan-ratio)")
    new.add_argument("--package", help="the calculator package (default: the one mkdocs.yml lists)")
    new.add_argument("--package-dir", type=Path, help="the package's folder, when it is not <root>/<package>")
    new.add_argument("--title", help="the calculator's title (default: from the id)")
    new.add_argument("--root", type=Path, default=Path("."), help="the site's folder, with mkdocs.yml (default: .)")
    new.add_argument("--tests", default="tests", help="where the test goes, relative to the root (default: tests)")
    done = sub.add_parser("finish", help="finish a site another tool built (Zensical): runtime, Pyodide, math, CSP, offline")
    done.add_argument("site", type=Path, help="the built site's folder (site/)")
    done.add_argument("-f", "--config-file", type=Path, default=Path("mkdocs.yml"), help="the site's mkdocs.yml")
    return parser


def _finish(args: argparse.Namespace) -> int:
    # The build-time half of the framework (mkdocs, Node): imported only by this command.
    from mkdocs.exceptions import PluginError

    from course_calculators.plugin import finish

    try:
        finish.finish_site(args.site, args.config_file)
    except PluginError as exc:
        print(f"course-calculators finish: {exc}", file=sys.stderr)
        return 1
    return 0


def _init(args: argparse.Namespace) -> int:
    written = init(args.folder, package=args.package, title=args.title, calc_id=args.calculator)
    for path in written:
        print(f"wrote {path}")
    where = "" if args.folder.resolve() == Path.cwd() else f"cd {args.folder}\n  "
    print(f"\nThen:\n  {where}npm install          # Pyodide, Chart.js and KaTeX, as package.json pins them\n"
          "  mkdocs serve         # the site at http://127.0.0.1:8000/, rebuilt on every save\n"
          "  python -m unittest   # the calculator's test")
    return 0


def _new(args: argparse.Namespace) -> int:
    mkdocs_yml = args.root / "mkdocs.yml"
    if not mkdocs_yml.exists():
        raise ScaffoldError(f"no mkdocs.yml in {args.root.resolve()}: run this in the site's folder (or give --root), "
                            "or make a site first: python -m course_calculators init")
    listed = site_packages(mkdocs_yml)
    package = args.package
    if package is None:
        if len(listed) != 1:
            raise ScaffoldError(f"mkdocs.yml lists {len(listed)} calculator packages ({', '.join(listed) or 'none'}): "
                                "say which with --package")
        package = listed[0]
    title = args.title or args.id.replace("-", " ").capitalize()
    made = create(args.root, args.id, package, title, tests_dir=args.tests, package_dir=args.package_dir)
    for path in (made.module, made.test, made.page):
        print(f"wrote {path}")
    print(f"{'added to' if made.registered else 'no MODULES list in'} {made.module.parent / '__init__.py'}")
    print("added to nav in mkdocs.yml" if made.in_nav else "mkdocs.yml has no nav: MkDocs lists the page itself")
    if package not in listed:
        print(f"add {package} to the plugin's packages in mkdocs.yml: packages: [{', '.join([*listed, package])}]")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command == "finish":
            return _finish(args)
        return _init(args) if args.command == "init" else _new(args)
    except ScaffoldError as exc:
        print(f"course-calculators: {exc}", file=sys.stderr)
        return 2
