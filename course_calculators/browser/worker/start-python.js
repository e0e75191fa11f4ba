// Python's start in the worker. Two paths (worker/boot-path.js chooses): restore the memory snapshot
// made at build time (the calculators already imported), with the tiny standard-library zip of
// what is not imported yet; or boot Python normally with the boot-time zip and load the
// calculators wheel by name from the site's lock file (Pyodide checks its sha256 against it); on
// that path the boot zip's download starts with the wasm's and the wheel's once the wasm is in, so
// that the interpreter starts while the wheel arrives (worker/lock-file.js names it). If
// the snapshot fails (blocked, stalled, damaged), the normal boot follows. Every download is
// watched (worker/downloads.js): a required one that fails or stalls ends the start with an error
// naming the file, which the page shows with a retry.

import { MSG, BOOT_MODE } from "../shared/protocol.js";
import { errorText } from "../shared/error-text.js";
import { Downloads } from "./downloads.js";
import { RateMeter, choosePath, connectionHint } from "./boot-path.js";
import { WHEEL, fetchLock, wheelOf } from "./lock-file.js";
import { fetchSnapshot, fillFromBase, heapLength } from "./snapshot.js";
import { mark, timings } from "./timings.js";
import { compileEarly, withBaseFill } from "./wasm.js";

const abs = (url, here) => (url ? new URL(url, here).href : "");

/** Start Python for an `init` message; `post` sends progress and, at the end, `ready`. Resolves
 * to `{ runJson, pyodide }`: course_calculators.run_json and the interpreter (which a `reload`,
 * worker/reload.js, keeps); rejects when a download fails or stalls. */
export async function startPython(init, post) {
  const downloads = new Downloads();
  downloads.install();
  try {
    return await Promise.race([boot(init, post, downloads), downloads.failed]);
  } finally {
    downloads.stop();
  }
}

async function boot(init, post, downloads) {
  const started = performance.now();
  post({ type: MSG.PROGRESS, stage: "Loading Python…" });
  const here = self.location.href;
  const lockURL = new URL(init.lock, here);
  const pyodideURL = new URL(init.pyodide, here).href;
  // Everything the boot needs starts downloading now, side by side: the wasm (measured: how fast
  // it comes decides the path, and it is compiled as it arrives), the lock file, Pyodide's loader
  // and its Emscripten module (which loadPyodide would otherwise import one after the other).
  const meter = new RateMeter();
  let wasmDone;
  const wasmArrived = new Promise((resolve) => { wasmDone = resolve; });
  const wasm = downloads.prefetch(`${pyodideURL}pyodide.asm.wasm`, (n, done) => {
    meter.onBytes(n, done);
    if (done) { mark("wasmArrived"); wasmDone(); }
  });
  downloads.failed.catch(() => {}); // raced in startPython
  const compiled = compileEarly(wasm);
  const lock = fetchLock(downloads, lockURL.href, init.lock_sha256);
  lock.catch(() => {});
  // Pyodide lives in a folder named by its version (the page says which), hence dynamic imports.
  const emscripten = downloads.track("pyodide.asm.mjs", import(`${pyodideURL}pyodide.asm.mjs`));
  const loader = downloads.track("pyodide.mjs", import(`${pyodideURL}pyodide.mjs`));
  const snapshotURL = abs(init.snapshot, here);
  const choice = await choosePath({
    hasSnapshot: Boolean(snapshotURL), meter,
    hint: init.hint || connectionHint(self.navigator && self.navigator.connection),
  });
  mark("pathChosen");
  let snapshot = null;
  if (choice.path === BOOT_MODE.SNAPSHOT) {
    snapshot = fetchSnapshot(snapshotURL, init.snapshot_sha256,
      (url) => downloads.fetch(url, {}, { optional: true }));
    snapshot.catch(() => {});
  }
  const options = {
    indexURL: pyodideURL,
    lockFileContents: lock,
    // Absolute: a relative base fails with "Invalid base URL" when a package loads.
    packageBaseUrl: new URL(".", lockURL).href,
    fullStdLib: false,
  };
  if (choice.path === BOOT_MODE.BOOT) {
    // On the normal boot, nothing waits for a download it could have had sooner: the boot zip
    // starts now (Pyodide would ask for it only once its two modules are in), and the wheel as
    // soon as the wasm is in, so that it arrives while the interpreter starts instead of after.
    const bootStdlib = abs(init.boot_stdlib, here);
    if (bootStdlib) downloads.prefetch(bootStdlib);
    Promise.all([lock, wasmArrived]).then(([text]) => {
      const wheel = wheelOf(text, options.packageBaseUrl);
      if (wheel) downloads.prefetch(wheel.url, null, { integrity: wheel.integrity });
    }).catch(() => {});
  }
  const { loadPyodide } = await loader;
  const createModule = (await emscripten).default;
  compiled.catch((err) => downloads.fail(new Error(`pyodide.asm.wasm: ${err.message}`)));
  // Why a chosen snapshot was given up, for the ready message's reason (and the console).
  let givenUp = "";
  const image = snapshot ? await snapshot.catch((err) => {
    console.warn("calculators: the Python snapshot did not load; booting normally.", err);
    givenUp = `; the snapshot did not load (${errorText(err)})`;
    return null;
  }) : null;
  let pyodide = null;
  let runJson = null;
  let mode = BOOT_MODE.SNAPSHOT;
  if (image) {
    try {
      pyodide = await loadPyodide({
        ...options,
        stdLibURL: abs(init.stdlib, here) || undefined,
        createPyodideModule: withBaseFill(createModule, (memory) => fillFromBase(image, memory),
          heapLength(image.image)),
        _loadSnapshot: image.image,
      });
      mark("pyodideLoaded");
      runJson = pyodide.pyimport("course_calculators").run_json;
    } catch (err) {
      console.warn("calculators: the Python snapshot did not restore; booting normally.", err);
      givenUp = `; the snapshot did not restore (${errorText(err)})`;
      pyodide = null;
    }
  }
  if (!pyodide) {
    mode = BOOT_MODE.BOOT;
    pyodide = await loadPyodide({
      ...options, stdLibURL: abs(init.boot_stdlib, here) || undefined, createPyodideModule: createModule,
    });
    mark("pyodideLoaded");
    post({ type: MSG.PROGRESS, stage: "Loading the calculators…" });
    await pyodide.loadPackage(WHEEL, { messageCallback: () => {}, errorCallback: (m) => console.warn(m) });
    mark("wheelLoaded");
    runJson = pyodide.pyimport("course_calculators").run_json;
  }
  const python = pyodide.runPython("import sys; sys.version.split()[0]");
  mark("ready");
  post({ type: MSG.READY, bootMs: performance.now() - started, python, mode, timings, why: choice.why + givenUp });
  return { runJson, pyodide };
}
