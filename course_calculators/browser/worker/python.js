// Python's start in the worker: restore the memory snapshot made at build time (the calculators
// already imported), checked against its sha256; if there is none, or anything about it fails,
// boot Python normally and load the calculators wheel by name from the site's lock file (Pyodide
// checks the wheel's sha256 against it).

import { MSG, BOOT_MODE } from "../shared/protocol.js";
import { checkSha256 } from "./sha256.js";
import { fetchSnapshot } from "./snapshot.js";
import { mark, timings } from "./timings.js";

/** The lock file's text, checked against its sha256 (it holds the wheel's sha256 in turn). */
async function fetchLock(url, sha256) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`lock file: HTTP ${response.status}`);
  const text = await response.text();
  await checkSha256(new TextEncoder().encode(text), sha256, () => "the lock file does not match this page's version");
  return text;
}

/** Start Python for an `init` message; `post` sends progress and, at the end, `ready`. Resolves
 * to course_calculators.run_json. */
export async function startPython({ indexURL, lockFileURL, lockSha256, snapshotURL, snapshotSha256 }, post) {
  const started = performance.now();
  post({ type: MSG.PROGRESS, stage: "Loading Python…" });
  const here = self.location.href;
  const lockURL = new URL(lockFileURL, here);
  // Pyodide lives in a folder named by its version (the page says which), hence a dynamic import.
  const pyodideURL = new URL(indexURL, here).href;
  // Everything the boot needs starts downloading now, side by side: the snapshot, the lock file,
  // Pyodide's loader and its Emscripten module (which loadPyodide would otherwise import only
  // once the loader runs, one download after the other).
  const snapshot = snapshotURL ? fetchSnapshot(new URL(snapshotURL, here).href, snapshotSha256) : null;
  if (snapshot) snapshot.catch(() => {}); // its failure is handled where it is awaited
  const lock = fetchLock(lockURL.href, lockSha256);
  lock.catch(() => {});
  const emscripten = import(`${pyodideURL}pyodide.asm.mjs`);
  const { loadPyodide } = await import(`${pyodideURL}pyodide.mjs`);
  const options = {
    indexURL: pyodideURL,
    createPyodideModule: (await emscripten).default,
    lockFileContents: lock,
    // Absolute: a relative base fails with "Invalid base URL" when a package loads.
    packageBaseUrl: new URL(".", lockURL).href,
    fullStdLib: false,
  };
  let pyodide = null;
  let runJson = null;
  let mode = BOOT_MODE.SNAPSHOT;
  if (snapshotURL) {
    try {
      pyodide = await loadPyodide({ ...options, _loadSnapshot: snapshot });
      mark("pyodideLoaded");
      runJson = pyodide.pyimport("course_calculators").run_json;
    } catch (err) {
      console.warn("calculators: the Python snapshot did not restore; booting normally.", err);
      pyodide = null;
    }
  }
  if (!pyodide) {
    mode = BOOT_MODE.BOOT;
    pyodide = await loadPyodide(options);
    post({ type: MSG.PROGRESS, stage: "Loading the calculators…" });
    await pyodide.loadPackage("course-calculators", { messageCallback: () => {}, errorCallback: (m) => console.warn(m) });
    runJson = pyodide.pyimport("course_calculators").run_json;
  }
  const python = pyodide.runPython("import sys; sys.version.split()[0]");
  mark("ready");
  post({ type: MSG.READY, bootMs: performance.now() - started, python, mode, timings });
  return runJson;
}
