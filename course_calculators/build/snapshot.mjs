// Makes the Pyodide memory snapshot the browser worker restores instead of booting Python.
//
// Usage: node snapshot.mjs <pyodide_dir> <wheel> <out.bin>
//
// Boots Pyodide from the npm package (the same files the site serves), unpacks the calculators
// wheel into site-packages, imports the package and runs every calculator once on its defaults
// (so every module a calculation needs is already imported), then writes the memory image.
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
// Any failure is reported as its message alone (a Python error's message is its traceback), with
// exit code 1: Node's own report of an uncaught error quotes the throwing source line, one line of
// minified Pyodide over a megabyte long, and a pipe cuts it off before the message.
try {
  const { loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href);
  const pyodide = await loadPyodide({
    indexURL: path.resolve(pyodideDir) + path.sep,
    _makeSnapshot: true,
    stdout: () => {},
  });
  pyodide.FS.writeFile("/tmp/course_calculators.whl", fs.readFileSync(wheel));
  const report = pyodide.runPython(`
import json, sysconfig, zipfile
zipfile.ZipFile("/tmp/course_calculators.whl").extractall(sysconfig.get_paths()["purelib"])
import course_calculators
for calc_id in course_calculators.CALCULATORS:
    course_calculators.run_json(calc_id, "{}")
json.dumps({"calculators": sorted(course_calculators.CALCULATORS), "version": course_calculators.__version__})
`);
  fs.writeFileSync(out, pyodide.makeMemorySnapshot());
  process.stdout.write(report);
} catch (err) {
  process.stderr.write(`${err && err.message ? err.message : err}\n`);
  process.exitCode = 1;
}
