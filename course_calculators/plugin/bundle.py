"""The browser scripts the site serves, joined at build time from the ES modules in ``browser/``.

Each file at the top of ``browser/`` is the entry of the file of the same name under
``assets/calc/`` (:data:`BUNDLES`); the modules it imports (``browser/shared/``, ``page/``,
``worker/``) are joined into it, each in a function scope of its own, in dependency order. Tests
import the modules themselves (``node --test tests/js``); pages get one file per script, with one
integrity hash, and need no module loader.

The joiner reads a deliberately small part of the module syntax, each statement at the start of a
line (the top level):

- ``import {a, b as c} from "./x.js";`` — a relative path to a module of ``browser/``;
- ``export function|async function|class|const <name>`` — one name per declaration.

Anything else module-shaped is a :class:`BundleError` naming the file and line: default exports,
``export *``, export lists and re-exports, ``export let``/``var`` (an importer would hold a copy,
not the variable), other import forms, a dynamic ``import()`` of a module by name, ``import.meta``
in a classic script, top-level ``await``, import cycles, importing a name the module does not
export. The worker's dynamic ``import()`` of Pyodide's own files (a computed URL) stays as it is.
The output depends on the sources alone: the same files give the same bytes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

BROWSER = Path(__file__).resolve().parent.parent / "browser"

CLASSIC = "classic"  # a classic script: every module in one function scope, in strict mode
MODULE = "module"  # a module script (the worker): import.meta and import() of URLs allowed
COPY = "copy"  # served as the file holds it


@dataclass(frozen=True)
class Bundle:
    name: str  # the file under assets/calc/, and its entry under browser/
    kind: str


BUNDLES = (
    Bundle("boot.js", CLASSIC),
    Bundle("runtime.js", CLASSIC),
    Bundle("worker.js", MODULE),
    Bundle("embed.js", CLASSIC),
    Bundle("search-deferred.js", CLASSIC),
    Bundle("calc.css", COPY),
)


class BundleError(ValueError):
    """A module the joiner does not join; the message names the file and line and says why."""


_IDENT = r"[A-Za-z_$][\w$]*"
_IMPORT = re.compile(r"""^import[ \t]*\{(?P<names>[^}]*)\}[ \t]*from[ \t]*(?P<q>["'])(?P<spec>[^"'\n]*)(?P=q)[ \t]*;?""",
                     re.M)
_EXPORT = re.compile(rf"""^export[ \t]+(?=(?:async[ \t]+)?function\b[ \t]*\*?[ \t]*(?P<fn>{_IDENT})"""
                     rf"""|class[ \t]+(?P<cls>{_IDENT})|const[ \t]+(?P<const>{_IDENT})\s*=)""", re.M)
_ANY_IMPORT = re.compile(r"^[ \t]*import\b(?![ \t]*[(.])", re.M)
_ANY_EXPORT = re.compile(r"^[ \t]*export\b", re.M)
_DYNAMIC_BY_NAME = re.compile(r"""\bimport[ \t]*\([ \t]*(?:["']|`[./])""")
_IMPORT_META = re.compile(r"\bimport[ \t]*\.[ \t]*meta\b")
_TOP_AWAIT = re.compile(r"^(?:(?:const|let|var)[ \t]+[^=\n]+=[ \t]*)?await\b", re.M)
_NAME = re.compile(rf"({_IDENT})(?:\s+as\s+({_IDENT}))?")


@dataclass
class _Module:
    rel: str  # path under the root, "/"-separated
    body: str  # the source, its imports turned into bindings and "export " removed
    exports: list[str]
    imports: list[tuple[str, list[tuple[str, str]], str]]  # (module, [(name, local)], where)


def _var(rel: str) -> str:
    return "__module_" + re.sub(r"\W", "_", rel.removesuffix(".js"))


def _is_comment(text: str, pos: int) -> bool:
    start = text.rfind("\n", 0, pos) + 1
    return text[start:].lstrip().startswith(("//", "/*", "*"))


def _export_problem(line: str) -> str:
    rest = line.strip()[len("export"):].lstrip()
    if rest.startswith("default"):
        return "export default is not supported: export a named function, class or const"
    if rest.startswith("*"):
        return "export * is not supported: import the names from the module that defines them"
    if rest.startswith("{"):
        return "export lists and re-exports are not supported: write export before each declaration"
    if re.match(r"(let|var)\b", rest):
        return ("export let/var is not supported: an importer would hold a copy of the value, not the "
                "variable; export a const (an object, say) or a function that reads it")
    if line[:1] in " \t" and _EXPORT.match(line.lstrip()):
        return "an export must start its line (at the top level of the module)"
    return "this export form is not supported: export function|class|const <name>"


def _import_problem(line: str) -> str:
    rest = line.strip()[len("import"):].lstrip()
    if rest.startswith("*"):
        return 'namespace imports are not supported: import {name, ...} from "./x.js"'
    if rest.startswith(("'", '"')):
        return "an import for its side effects is not supported: import a function and call it"
    if rest.startswith("{"):
        if line[:1] in " \t":
            return "an import must start its line (at the top level of the module)"
        return 'cannot read this import: import {a, b as c} from "./x.js";'
    return 'default imports are not supported: import {name} from "./x.js"'


def _parse(root: Path, rel: str, *, module: bool) -> _Module:
    text = (root / rel).read_text(encoding="utf-8")

    def where(pos: int) -> str:
        return f"{root.name}/{rel}:{text.count(chr(10), 0, pos) + 1}"

    imports: list[tuple[str, list[tuple[str, str]], str]] = []
    import_starts = set()

    def binding(m: re.Match) -> str:
        import_starts.add(m.start())
        names = []
        for part in (p.strip() for p in m["names"].split(",")):
            if not part:
                continue
            nm = _NAME.fullmatch(part)
            if not nm:
                raise BundleError(f"{where(m.start())}: cannot read the imported name {part!r}")
            names.append((nm[1], nm[2] or nm[1]))
        if not names:
            raise BundleError(f"{where(m.start())}: this import names nothing")
        target = _resolve(root, rel, m["spec"], where(m.start()))
        imports.append((target, names, where(m.start())))
        fields = ", ".join(n if n == local else f"{n}: {local}" for n, local in names)
        return f"const {{ {fields} }} = {_var(target)};"

    body = _IMPORT.sub(binding, text)
    for m in _ANY_IMPORT.finditer(text):
        if m.start() not in import_starts and not _is_comment(text, m.start()):
            raise BundleError(f"{where(m.start())}: {_import_problem(text[m.start():text.find(chr(10), m.start())])}")
    for m in _DYNAMIC_BY_NAME.finditer(text):
        if not _is_comment(text, m.start()):
            raise BundleError(f"{where(m.start())}: a dynamic import() of a module by name is not supported: "
                              "import it statically (only a computed URL, such as Pyodide's files, may be imported)")
    if not module:
        for m in _IMPORT_META.finditer(text):
            if not _is_comment(text, m.start()):
                raise BundleError(f"{where(m.start())}: import.meta exists only in module scripts, and this "
                                  "module is joined into a classic one")
    m = _TOP_AWAIT.search(text)
    if m:
        raise BundleError(f"{where(m.start())}: top-level await is not supported: await inside a function")

    exports: list[str] = []
    export_starts = set()
    for m in _EXPORT.finditer(text):
        name = m["fn"] or m["cls"] or m["const"]
        if name in exports:
            raise BundleError(f"{where(m.start())}: {name!r} is exported twice")
        exports.append(name)
        export_starts.add(m.start())
    for m in _ANY_EXPORT.finditer(text):
        if m.start() not in export_starts and not _is_comment(text, m.start()):
            line = text[m.start():text.find("\n", m.start())]
            raise BundleError(f"{where(m.start())}: {_export_problem(line)}")
    body = re.sub(r"^export[ \t]+(?=(?:async[ \t]+)?function\b|class\b|const\b)", "", body, flags=re.M)
    locals_ = [local for _, names, _ in imports for _, local in names]
    twice = sorted({n for n in locals_ if locals_.count(n) > 1})
    if twice:
        raise BundleError(f"{root.name}/{rel}: imports {twice[0]!r} twice")
    return _Module(rel, body if body.endswith("\n") else body + "\n", exports, imports)


def _resolve(root: Path, rel: str, spec: str, where: str) -> str:
    if not spec.startswith(("./", "../")) or not spec.endswith(".js"):
        raise BundleError(f"{where}: only modules of {root.name}/ can be imported, by a relative path "
                          f"ending in .js (./x.js): got {spec!r}")
    target = (root / rel).parent / spec
    try:
        target_rel = target.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        raise BundleError(f"{where}: {spec!r} is outside {root.name}/") from None
    if not (root / target_rel).is_file():
        raise BundleError(f"{where}: {spec!r} does not exist ({root.name}/{target_rel})")
    return target_rel


def _graph(root: Path, entry: str, *, module: bool) -> list[_Module]:
    """The entry and every module it imports, each after the modules it imports (entry last)."""
    order: list[_Module] = []
    done: dict[str, _Module] = {}
    names: dict[str, str] = {}

    def visit(rel: str, path: tuple[str, ...]) -> _Module:
        if rel in path:
            cycle = " → ".join((*path[path.index(rel):], rel))
            raise BundleError(f"import cycle: {cycle}")
        if rel in done:
            return done[rel]
        mod = _parse(root, rel, module=module)
        for target, imported, where in mod.imports:
            dep = visit(target, (*path, rel))
            for name, _ in imported:
                if name not in dep.exports:
                    raise BundleError(f"{where}: imports {name!r} from {target}, which does not export it")
        var = _var(rel)
        if names.setdefault(var, rel) != rel:
            raise BundleError(f"{root.name}/{rel} and {root.name}/{names[var]} need the same name in the "
                              "bundle: rename one")
        done[rel] = mod
        order.append(mod)
        return mod

    visit(entry, ())
    return order


def join(entry: str, *, module: bool, root: Path = BROWSER) -> str:
    """The script made of ``root/entry`` and the modules it imports."""
    modules = _graph(root, entry, module=module)
    files = ", ".join(m.rel for m in modules)
    out = [f"// assets/calc/{entry}: joined by course_calculators/plugin/bundle.py from {root.name}/ ({files}).",
           "// Edit those modules, not this file.", ""]
    if not module:
        out += ["(function () {", '"use strict";', ""]
    for mod in modules:
        out.append(f"// -- {mod.rel}")
        if mod.rel == entry:
            out += ["(function () {", mod.body + "})();"]
        else:
            exports = ", ".join(mod.exports)
            out += [f"const {_var(mod.rel)} = (function () {{", mod.body + f"return Object.freeze({{ {exports} }});",
                    "})();", ""]
    if not module:
        out.append("})();")
    return "\n".join(out) + "\n"


def sources(root: Path = BROWSER) -> dict[str, tuple[Path, ...]]:
    """The files each served file is built from (what a build watches and tests scan), entry last."""
    found = {}
    for b in BUNDLES:
        rels = [b.name] if b.kind == COPY else [m.rel for m in _graph(root, b.name, module=b.kind == MODULE)]
        found[b.name] = tuple(root / rel for rel in rels)
    return found


def bundles(root: Path = BROWSER) -> dict[str, bytes]:
    """Every browser file of the runtime: name under ``assets/calc/`` → content."""
    return {b.name: (root / b.name).read_bytes() if b.kind == COPY
            else join(b.name, module=b.kind == MODULE, root=root).encode("utf-8")
            for b in BUNDLES}
