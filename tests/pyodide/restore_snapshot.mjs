// Restores a built snapshot in Node `count` times, each in a fresh Pyodide, as the browser worker
// does: the worker's own readSnapshot, fillFromBase and withBaseFill (the memory grown to the
// snapshot's), then loadPyodide({_loadSnapshot}); each restored Python runs every calculator on
// its defaults.
// Usage: node restore_snapshot.mjs <snapshot.bin.gz> <stdlib.zip> <count> [--no-grow]
//   → prints a JSON array, one object per restore: ok, error, heap (the snapshot's memory),
//     memory (the module's when Pyodide restored), results (calculator id → run_json's output), ms.
// --no-grow restores as the worker did before withBaseFill grew the memory.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const [snapshotFile, stdlib, countArg, flag] = process.argv.slice(2);
const worker = (name) => import(pathToFileURL(path.join(root, "course_calculators/browser/worker", name)).href);
const { readSnapshot, fillFromBase, heapLength } = await worker("snapshot.js");
const { withBaseFill } = await worker("wasm.js");
const pyodideDir = path.join(root, "node_modules", "pyodide");
const { loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href);
const createModule = (await import(pathToFileURL(path.join(pyodideDir, "pyodide.asm.mjs")).href)).default;

const sparse = new Uint8Array(zlib.gunzipSync(fs.readFileSync(snapshotFile)));
const results = [];
for (let i = 0; i < Number(countArg); i++) {
  const started = performance.now();
  const image = readSnapshot(sparse); // a fresh image each time, as each page load inflates its own
  const heap = heapLength(image.image);
  const out = { ok: false, error: "", heap, memory: 0, results: null, ms: 0 };
  try {
    const fill = withBaseFill(createModule, (memory) => fillFromBase(image, memory), flag === "--no-grow" ? 0 : heap);
    const pyodide = await loadPyodide({
      indexURL: pyodideDir + path.sep,
      stdLibURL: stdlib || undefined,
      stdout: () => {},
      createPyodideModule: async (settings) => {
        const module = await fill(settings);
        const restore = module.API.restoreSnapshot;
        module.API.restoreSnapshot = (snapshot) => { out.memory = module.HEAP8.length; return restore(snapshot); };
        return module;
      },
      _loadSnapshot: image.image,
    });
    out.results = JSON.parse(pyodide.runPython(`
import json, course_calculators
json.dumps({calc_id: course_calculators.run_json(calc_id, "{}") for calc_id in course_calculators.CALCULATORS})
`));
    out.ok = true;
  } catch (err) {
    out.error = String((err && err.message) || err).slice(0, 2000);
  }
  out.ms = Math.round(performance.now() - started);
  results.push(out);
}
process.stdout.write(JSON.stringify(results));
