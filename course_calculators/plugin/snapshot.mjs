// Makes the Pyodide memory snapshot the browser worker restores instead of booting Python.
//
// Usage: node snapshot.mjs <pyodide_dir> <wheel> <out.bin>
//
// Boots Pyodide from the npm package (the same files the site serves), unpacks the calculators
// wheel into site-packages, imports the package and runs every calculator once on its defaults
// (so every module a calculation needs is already imported), then writes the memory image to
// <out.bin> and the memory the instantiated module held before any code ran (its data segments)
// to <out.bin>.base: snapshot.py ships only the pages of the image that differ from it, and the
// worker takes the others from its own freshly instantiated module. Then boots a second Pyodide
// normally, as the worker's other path does, and with it compiles the standard library into
// <out.bin>.pyc.zip (the zips the site ships hold bytecode, see compileStdlib). Prints a JSON
// report: the calculators, and the standard-library files each of the two had imported.
//
// The image restores only with the very same pyodide.asm.wasm: the plugin names it by content.
// No JavaScript object may be alive in Python at snapshot time, so the wheel goes in through the
// file system, not loadPackage.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, wheel, out] = process.argv.slice(2);
if (!pyodideDir || !wheel || !out) {
  console.error("usage: node snapshot.mjs <pyodide_dir> <wheel> <out.bin>");
  process.exit(2);
}

/** createPyodideModule, with the module's memory copied as instantiation left it. */
function capturingInitialMemory(createModule, keep) {
  return (settings) => {
    const instantiate = settings.instantiateWasm;
    settings.instantiateWasm = (imports, success) => instantiate(imports, (instance, module) => {
      keep(new Uint8Array(instance.exports.memory.buffer).slice());
      success(instance, module);
    });
    return createModule(settings);
  };
}

/** The standard-library files a normal boot imports, as the worker makes it: Pyodide's boot,
 * loadPackage of the wheel (its package loader imports more than the snapshot's own unpacking),
 * the calculators and one run of each. */
async function normalBoot(dir) {
  const { loadPyodide } = await import(pathToFileURL(path.join(dir, "pyodide.mjs")).href);
  const pyodide = await loadPyodide({ indexURL: dir + path.sep, stdout: () => {} });
  await pyodide.loadPackage(path.resolve(wheel), { messageCallback: () => {} });
  const booted = JSON.parse(pyodide.runPython(`
import json, sys
import course_calculators
for calc_id in course_calculators.CALCULATORS:
    course_calculators.run_json(calc_id, "{}")
zip_prefix = f"/lib/python{sys.version_info[0]}{sys.version_info[1]}.zip/"
json.dumps(sorted({f[len(zip_prefix):] for m in list(sys.modules.values())
                   if isinstance(f := getattr(m, "__file__", None), str) and f.startswith(zip_prefix)}))
`));
  fs.writeFileSync(`${out}.pyc.zip`, compileStdlib(pyodide));
  return booted;
}

/** Every module of the mounted standard library compiled by this very Python (its bytecode is
 * bound to the interpreter's version): a zip of `<name>.pyc` for each `<name>.py`, stored. The
 * bytecode is unchecked-hash (no source to compare with) and optimized (-OO: no docstrings nor
 * asserts): the browser's Python then reads each module without compiling it (the processor's
 * largest share of a normal boot), from a file about 1.6 times the source's size once deflated. */
function compileStdlib(pyodide) {
  pyodide.runPython(`
import importlib.util, sys, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc
zip_path = f"/lib/python{sys.version_info[0]}{sys.version_info[1]}.zip"
with zipfile.ZipFile(zip_path) as src, zipfile.ZipFile("/tmp/stdlib-pyc.zip", "w", zipfile.ZIP_STORED) as dest:
    for info in src.infolist():
        if not info.filename.endswith(".py"):
            continue
        source = src.read(info)
        try:
            code = compile(source, f"{zip_path}/{info.filename}", "exec", dont_inherit=True, optimize=2)
        except SyntaxError:  # a test file that is meant not to compile: it stays source
            continue
        dest.writestr(zipfile.ZipInfo(info.filename + "c", info.date_time),
                      bytes(_code_to_hash_pyc(code, importlib.util.source_hash(source), checked=False)))
`);
  return pyodide.FS.readFile("/tmp/stdlib-pyc.zip");
}

// Any failure is reported as its message alone (a Python error's message is its traceback), with
// exit code 1: Node's own report of an uncaught error quotes the throwing source line, one line of
// minified Pyodide over a megabyte long, and a pipe cuts it off before the message.
try {
  const dir = path.resolve(pyodideDir);
  const { loadPyodide } = await import(pathToFileURL(path.join(dir, "pyodide.mjs")).href);
  const emscripten = await import(pathToFileURL(path.join(dir, "pyodide.asm.mjs")).href);
  let initial = null;
  const pyodide = await loadPyodide({
    indexURL: dir + path.sep,
    createPyodideModule: capturingInitialMemory(emscripten.default, (bytes) => { initial = bytes; }),
    _makeSnapshot: true,
    stdout: () => {},
  });
  if (!initial) throw new Error("the module's initial memory was not captured");
  pyodide.FS.writeFile("/tmp/course_calculators.whl", fs.readFileSync(wheel));
  // The import caches are emptied last: the restored heap then reads the directory of whichever
  // standard-library zip the worker mounts (a smaller one than the one used here).
  const report = pyodide.runPython(`
import json, sys, sysconfig, zipfile
zipfile.ZipFile("/tmp/course_calculators.whl").extractall(sysconfig.get_paths()["purelib"])
import course_calculators
for calc_id in course_calculators.CALCULATORS:
    course_calculators.run_json(calc_id, "{}")
zip_prefix = f"/lib/python{sys.version_info[0]}{sys.version_info[1]}.zip/"
stdlib = sorted({f[len(zip_prefix):] for m in list(sys.modules.values())
                 if isinstance(f := getattr(m, "__file__", None), str) and f.startswith(zip_prefix)})
report = json.dumps({"calculators": sorted(course_calculators.CALCULATORS),
                     "version": course_calculators.__version__, "imported_stdlib": stdlib})
del stdlib, zip_prefix
import zipimport
sys.path_importer_cache.clear()
zipimport._zip_directory_cache.clear()
report
`);
  fs.writeFileSync(out, pyodide.makeMemorySnapshot());
  fs.writeFileSync(`${out}.base`, initial);
  process.stdout.write(JSON.stringify({ ...JSON.parse(report), booted_stdlib: await normalBoot(dir) }));
} catch (err) {
  process.stderr.write(`${err && err.message ? err.message : err}\n`);
  process.exitCode = 1;
}
