"""The joiner (``build/bundle.py``): ES modules in, one script per served file out.

A small module graph in a temporary folder shows what it joins and in which order, and every
form it refuses; the real bundles must parse as JavaScript and keep no module syntax of ours.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from course_calculators.plugin import bundle
from course_calculators.plugin.bundle import BundleError
from tests.tools import need



def write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


GRAPH = {
    "shared/log.js": 'globalThis.order = (globalThis.order || []).concat("log");\n'
                     "export const seen = [];\n"
                     "export function say(text) { seen.push(text); }\n",
    "shared/names.js": 'import { say } from "./log.js";\n'
                       'globalThis.order.push("names");\n'
                       "export class Greeter { hello(n) { say(`hello ${n}`); } }\n"
                       'export const WHO = "world";\n',
    "page/main.js": "import {\n  Greeter,\n  WHO as who,\n} from \"../shared/names.js\";\n"
                    'import { say, seen } from "../shared/log.js";\n'
                    'globalThis.order.push("main");\n'
                    "new Greeter().hello(who);\n"
                    'say("again");\n'
                    "globalThis.seen = seen;\n"
                    "// export default is not a statement inside a comment\n",
}


def run_classic(tmp_path: Path, source: str) -> str:
    script = tmp_path / "bundle.cjs"
    script.write_text(source + "\nconsole.log(JSON.stringify({order: globalThis.order, seen: globalThis.seen}));\n")
    proc = subprocess.run([need("node"), str(script)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip()


def test_modules_run_once_each_in_dependency_order(tmp_path):
    root = write(tmp_path / "src", GRAPH)
    out = bundle.join("page/main.js", module=False, root=root)
    assert run_classic(tmp_path, out) == '{"order":["log","names","main"],"seen":["hello world","again"]}'
    assert out.index("// -- shared/log.js") < out.index("// -- shared/names.js") < out.index("// -- page/main.js")
    assert out.count("// -- shared/log.js") == 1  # imported twice, joined once
    assert '"use strict";' in out and not re.search(r"^\s*(import|export)\b", out, re.M)


def test_the_output_depends_on_the_sources_alone(tmp_path):
    root = write(tmp_path / "src", GRAPH)
    first = bundle.join("page/main.js", module=False, root=root)
    assert bundle.join("page/main.js", module=False, root=root) == first
    copy = write(tmp_path / "other" / "src", GRAPH)
    assert bundle.join("page/main.js", module=False, root=copy) == first
    assert bundle.bundles() == bundle.bundles()


def test_sources_list_each_module_once_entry_last(tmp_path):
    found = bundle.sources()
    assert list(found) == ["boot.js", "runtime.js", "worker.js", "embed.js", "search-deferred.js", "calc.css"]
    for name, files in found.items():
        assert files[-1] == bundle.BROWSER / name and len(set(files)) == len(files)
        assert all(f.is_file() for f in files)
    assert bundle.BROWSER / "shared" / "protocol.js" in found["boot.js"]
    assert bundle.BROWSER / "shared" / "protocol.js" in found["worker.js"]
    assert bundle.BROWSER / "shared" / "protocol.js" in found["runtime.js"]


def test_a_module_bundle_keeps_import_meta_and_computed_imports(tmp_path):
    root = write(tmp_path / "src", {
        "w.js": 'import { base } from "./u.js";\nconst mod = () => import(`${base()}pyodide.mjs`);\n',
        "u.js": "export function base() { return new URL(\".\", import.meta.url).href; }\n",
    })
    out = bundle.join("w.js", module=True, root=root)
    assert "import(`${base()}pyodide.mjs`)" in out and "import.meta.url" in out
    assert '"use strict"' not in out  # a module is strict already
    with pytest.raises(BundleError, match=r"src/u\.js:1: import\.meta exists only in module scripts"):
        bundle.join("w.js", module=False, root=root)


REFUSED = [
    ("export default function f() {}\n", r"m\.js:1: export default is not supported"),
    ('export * from "./x.js";\n', r"m\.js:1: export \* is not supported"),
    ("const a = 1;\nexport { a };\n", r"m\.js:2: export lists and re-exports are not supported"),
    ('export { a } from "./x.js";\n', r"m\.js:1: export lists and re-exports"),
    ("export let n = 0;\n", r"m\.js:1: export let/var is not supported: an importer would hold a copy"),
    ("export var n = 0;\n", r"m\.js:1: export let/var"),
    ("export const { a, b } = obj;\n", r"m\.js:1: this export form is not supported"),
    ("if (x) {\n  export function f() {}\n}\n", r"m\.js:2: an export must start its line"),
    ('import x from "./x.js";\n', r"m\.js:1: default imports are not supported"),
    ('import * as x from "./x.js";\n', r"m\.js:1: namespace imports are not supported"),
    ('import "./x.js";\n', r"m\.js:1: an import for its side effects is not supported"),
    ('\n  import { a } from "./x.js";\n', r"m\.js:2: an import must start its line"),
    ('const x = await import("./x.js");\n', r"m\.js:1: a dynamic import\(\) of a module by name"),
    ("const x = () => import('chart.js');\n", r"m\.js:1: a dynamic import\(\) of a module by name"),
    ('import { a } from "chart.js";\n', r"m\.js:1: only modules of src/ can be imported, by a relative path"),
    ('import { a } from "./x";\n', r"m\.js:1: only modules of src/ can be imported"),
    ('import { a } from "../../etc/x.js";\n', r"m\.js:1: '../../etc/x.js' is outside src/"),
    ('import { a } from "./missing.js";\n', r"m\.js:1: './missing.js' does not exist"),
    ('import { nope } from "./x.js";\n', r"m\.js:1: imports 'nope' from x\.js, which does not export it"),
    ('import { a } from "./x.js";\nimport { b as a } from "./x.js";\n', r"m\.js: imports 'a' twice"),
    ('import { } from "./x.js";\n', r"m\.js:1: this import names nothing"),
    ("export function f() {}\nexport const f = 1;\n", r"m\.js:2: 'f' is exported twice"),
    ("await ready;\n", r"m\.js:1: top-level await is not supported"),
    ('import { a } from "./x.js";\nexport const c = 1;\n', None),  # accepted
]


@pytest.mark.parametrize("source, message", REFUSED, ids=[s.splitlines()[-1].strip()[:40] for s, _ in REFUSED])
def test_unsupported_syntax_is_a_clear_error(tmp_path, source, message):
    root = write(tmp_path / "src", {"m.js": source, "x.js": "export const a = 1;\nexport const b = 2;\n"})
    if message is None:
        assert "const { a } = __module_x;" in bundle.join("m.js", module=False, root=root)
        return
    with pytest.raises(BundleError, match=message):
        bundle.join("m.js", module=False, root=root)


def test_an_import_cycle_is_refused(tmp_path):
    root = write(tmp_path / "src", {
        "a.js": 'import { b } from "./b.js";\nexport const a = 1;\n',
        "b.js": 'import { c } from "./c.js";\nexport const b = 1;\n',
        "c.js": 'import { a } from "./a.js";\nexport const c = 1;\n',
    })
    with pytest.raises(BundleError, match="import cycle: a.js → b.js → c.js → a.js"):
        bundle.join("a.js", module=False, root=root)


def test_two_modules_that_would_share_a_name_are_refused(tmp_path):
    root = write(tmp_path / "src", {
        "m.js": 'import { a } from "./a-b.js";\nimport { b } from "./a_b.js";\n',
        "a-b.js": "export const a = 1;\n", "a_b.js": "export const b = 1;\n",
    })
    with pytest.raises(BundleError, match="need the same name in the bundle"):
        bundle.join("m.js", module=False, root=root)


@pytest.mark.parametrize("name", [b.name for b in bundle.BUNDLES if b.kind != bundle.COPY])
def test_every_bundle_parses_and_keeps_no_module_syntax_of_ours(tmp_path, name):
    kind = next(b.kind for b in bundle.BUNDLES if b.name == name)
    text = bundle.bundles()[name].decode()
    path = tmp_path / (name.removesuffix(".js") + (".mjs" if kind == bundle.MODULE else ".cjs"))
    path.write_text(text)
    proc = subprocess.run([need("node"), "--check", str(path)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert not re.search(r"^\s*export\b", text, re.M)
    assert not re.search(r"^\s*import\b(?!\s*[(.])", text, re.M)
    assert not re.search(r"""\bimport\s*\(\s*["'`]\.""", text)
    assert not re.search(r"\beval\(|new Function\(", text)  # the pages' policy has no 'unsafe-eval'


def test_the_served_names_are_the_ones_the_plugin_serves():
    assert set(bundle.bundles()) == {"boot.js", "runtime.js", "worker.js", "embed.js", "search-deferred.js", "calc.css"}
    assert bundle.bundles()["calc.css"] == (bundle.BROWSER / "calc.css").read_bytes()


def test_every_browser_module_reads_in_one_sitting():
    long = {p.relative_to(bundle.BROWSER).as_posix(): n for p in bundle.BROWSER.rglob("*.js")
            if (n := len(p.read_text().splitlines())) > 250}
    assert long == {}
