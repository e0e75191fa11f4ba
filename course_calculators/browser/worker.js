// The calculators' Web Worker: one Pyodide for every widget of a page session.
//
// Messages (see MSG in runtime.js, the page side):
//   page → worker  {type: "init", indexURL, lockFileURL, lockSha256?, snapshotURL?, snapshotSha256?}
//                                                          boot Python, import the calculators
//                  {type: "run", widget, calc, seq, inputs} compute one widget (inputs: raw strings)
//   worker → page  {type: "progress", stage}               boot progress, for the widgets' status line
//                  {type: "ready", bootMs, python, mode}    Python is up, the calculators imported;
//                                                          mode: "snapshot" or "boot"
//                  {type: "result", widget, seq, result}    outputs, text, notes, charts
//                  {type: "error", widget?, seq?, message}  one widget's failure, or the boot's
//
// Boot: restore the memory snapshot made at build time (calculators already imported), checked
// against its sha256; if there is none, or anything about it fails, boot Python normally and load
// the calculators wheel by name from the site's lock file (Pyodide checks the wheel's sha256).
// No formula lives here: the worker passes JSON to course_calculators.run_json and back.

const MSG = Object.freeze({
  INIT: "init", RUN: "run", PROGRESS: "progress", READY: "ready", RESULT: "result", ERROR: "error",
});

let runJson = null;
let booting = null;
/** Boot milestones, as epoch milliseconds (the page and the benchmark read them). */
const timings = {};
const mark = (name) => { timings[name] = performance.timeOrigin + performance.now(); };
mark("workerStarted");

function hex(buffer) {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Throws `mismatch(actual)` unless `bytes` has this sha256. crypto.subtle exists only in secure
 * contexts (https, localhost); elsewhere the files are same-origin and their URLs carry their
 * version, and nothing is checked. */
async function checkSha256(bytes, sha256, mismatch) {
  if (!sha256 || !self.crypto || !crypto.subtle) return;
  const actual = hex(await crypto.subtle.digest("SHA-256", bytes));
  if (actual !== sha256) throw new Error(mismatch(actual));
}

/** The snapshot, fetched, checked against its sha256 and inflated (it ships gzip-compressed).
 * Inflating runs while the bytes arrive, and the checksum of the compressed bytes while the
 * inflating finishes; the image goes to Pyodide only once both are done. */
async function fetchSnapshot(url, sha256) {
  const response = await fetch(url);
  if (!response.ok || !response.body) throw new Error(`snapshot: HTTP ${response.status}`);
  const [forHash, forImage] = response.body.tee();
  const checked = new Response(forHash).arrayBuffer().then((packed) =>
    checkSha256(packed, sha256, (actual) => `snapshot: sha256 mismatch (${actual.slice(0, 12)}…)`));
  const inflated = new Response(forImage.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer()
    .then((sparse) => { mark("snapshotInflated"); return sparse; });
  const [, sparse] = await Promise.all([checked, inflated]);
  mark("snapshotChecked");
  return expandSnapshot(new Uint8Array(sparse));
}

/** The memory image from its sparse form (snapshot.py's ``pack``): a header, a bitmap of the
 * 4 KiB pages that hold something, those pages; every other byte is zero. */
function expandSnapshot(sparse) {
  const magic = "PYSNAP1\0";
  for (let i = 0; i < magic.length; i++) {
    if (sparse[i] !== magic.charCodeAt(i)) throw new Error("snapshot: unknown format");
  }
  const view = new DataView(sparse.buffer, sparse.byteOffset, sparse.byteLength);
  const total = view.getUint32(8, true);
  const page = view.getUint32(12, true);
  const count = Math.ceil(total / page);
  const bitmap = sparse.subarray(16, 16 + Math.ceil(count / 8));
  const image = new Uint8Array(total);
  let src = 16 + bitmap.length;
  for (let i = 0; i < count; i++) {
    if (!(bitmap[i >> 3] & (1 << (i & 7)))) continue;
    const start = i * page;
    const size = Math.min(page, total - start);
    if (src + size > sparse.length) throw new Error("snapshot: truncated");
    image.set(sparse.subarray(src, src + size), start);
    src += size;
  }
  if (src !== sparse.length) throw new Error("snapshot: trailing bytes");
  return image;
}

/** The lock file's text, checked against its sha256 (it holds the wheel's sha256 in turn). */
async function fetchLock(url, sha256) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`lock file: HTTP ${response.status}`);
  const text = await response.text();
  await checkSha256(new TextEncoder().encode(text), sha256, () => "the lock file does not match this page's version");
  return text;
}

async function boot({ indexURL, lockFileURL, lockSha256, snapshotURL, snapshotSha256 }) {
  const started = performance.now();
  postMessage({ type: MSG.PROGRESS, stage: "Loading Python…" });
  const lockURL = new URL(lockFileURL, import.meta.url);
  // Pyodide lives in a folder named by its version (the page says which), hence a dynamic import.
  const pyodideURL = new URL(indexURL, import.meta.url).href;
  // Everything the boot needs starts downloading now, side by side: the snapshot, the lock file,
  // Pyodide's loader and its 1.2 MB Emscripten module (which loadPyodide would otherwise import
  // only once the loader runs: that alone put ~300 ms on the critical path).
  const snapshot = snapshotURL ? fetchSnapshot(new URL(snapshotURL, import.meta.url).href, snapshotSha256) : null;
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
  let mode = "snapshot";
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
    mode = "boot";
    pyodide = await loadPyodide(options);
    postMessage({ type: MSG.PROGRESS, stage: "Loading the calculators…" });
    await pyodide.loadPackage("course-calculators", { messageCallback: () => {}, errorCallback: (m) => console.warn(m) });
    runJson = pyodide.pyimport("course_calculators").run_json;
  }
  const python = pyodide.runPython("import sys; sys.version.split()[0]");
  mark("ready");
  postMessage({ type: MSG.READY, bootMs: performance.now() - started, python, mode, timings });
}

function run({ widget, calc, seq, inputs }) {
  try {
    const out = runJson(calc, JSON.stringify(inputs || {}));
    postMessage({ type: MSG.RESULT, widget, seq, result: JSON.parse(out) });
  } catch (err) {
    // A Python exception: report it to this widget alone; keep serving the others.
    const text = String(err && err.message ? err.message : err);
    const lines = text.trim().split("\n");
    postMessage({ type: MSG.ERROR, widget, seq, message: lines[lines.length - 1] || "calculation failed" });
  }
}

self.onmessage = async (event) => {
  const msg = event.data || {};
  if (msg.type === MSG.INIT) {
    if (!booting) {
      booting = boot(msg).catch((err) => {
        booting = null;
        postMessage({ type: MSG.ERROR, message: `Python could not start: ${err && err.message ? err.message : err}` });
      });
    }
    return;
  }
  if (msg.type === MSG.RUN) {
    if (booting) await booting;
    if (!runJson) {
      postMessage({ type: MSG.ERROR, widget: msg.widget, seq: msg.seq, message: "Python is not available" });
      return;
    }
    run(msg);
  }
};
