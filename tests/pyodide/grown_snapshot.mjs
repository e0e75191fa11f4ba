// Makes a snapshot as plugin/snapshot.mjs does (the wheel unpacked into site-packages, the
// calculators imported and run once), except that Python first takes and frees 12 MiB: the
// memory grows past the 30 MiB the module starts with and stays grown, so the snapshot's memory
// is larger than a fresh module's, as in a build whose hash seed made Python allocate a little
// more (plugin/snapshot.mjs's own runs end 0.2 to 0.9 MiB short of 30 MiB, or just past it).
// Usage: node grown_snapshot.mjs <wheel> <out.bin>  → writes <out.bin> and <out.bin>.base (the
// memory as instantiated), as plugin/snapshot.mjs does; prints {initial, heap}.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const [wheel, out] = process.argv.slice(2);
const worker = (name) => import(pathToFileURL(path.join(root, "course_calculators/browser/worker", name)).href);
const { heapLength } = await worker("snapshot.js");
const { withBaseFill } = await worker("wasm.js");
const dir = path.join(root, "node_modules", "pyodide");
const { loadPyodide } = await import(pathToFileURL(path.join(dir, "pyodide.mjs")).href);
const createModule = (await import(pathToFileURL(path.join(dir, "pyodide.asm.mjs")).href)).default;
let initial = null;
const pyodide = await loadPyodide({
  indexURL: dir + path.sep,
  // The worker's own hook on the instantiated memory, here only to keep a copy of it (no growing).
  createPyodideModule: withBaseFill(createModule, (memory) => { initial = memory.slice(); }),
  _makeSnapshot: true,
  stdout: () => {},
});
pyodide.FS.writeFile("/tmp/course_calculators.whl", fs.readFileSync(wheel));
pyodide.runPython(`
import sysconfig, zipfile
zipfile.ZipFile("/tmp/course_calculators.whl").extractall(sysconfig.get_paths()["purelib"])
ballast = bytearray(12 << 20)
del ballast
import course_calculators
for calc_id in course_calculators.CALCULATORS:
    course_calculators.run_json(calc_id, "{}")
import sys, zipimport
sys.path_importer_cache.clear()
zipimport._zip_directory_cache.clear()
`);
const image = pyodide.makeMemorySnapshot();
fs.writeFileSync(out, image);
fs.writeFileSync(`${out}.base`, initial);
process.stdout.write(JSON.stringify({ initial: initial.length, heap: heapLength(image) }));
