// The calculators' Web Worker: one Pyodide for every widget of a page session.
//
// Messages (see MSG in runtime.js, the page side):
//   page → worker  {type: "init", lockFileURL}            boot Pyodide, load the calculators wheel
//                  {type: "run", widget, calc, seq, inputs} compute one widget (inputs: raw strings)
//   worker → page  {type: "progress", stage}               boot progress, for the widgets' status line
//                  {type: "ready", bootMs, python}          Python is up, the calculators imported
//                  {type: "result", widget, seq, result}    outputs, text, notes, charts
//                  {type: "error", widget?, seq?, message}  one widget's failure, or the boot's
//
// No formula lives here: the worker passes JSON to calculators.run_json and back.
import { loadPyodide } from "../pyodide/pyodide.mjs";

const MSG = Object.freeze({
  INIT: "init", RUN: "run", PROGRESS: "progress", READY: "ready", RESULT: "result", ERROR: "error",
});

let runJson = null;
let booting = null;

async function boot(lockFileURL) {
  const started = performance.now();
  postMessage({ type: MSG.PROGRESS, stage: "Loading Python…" });
  const indexURL = new URL("../pyodide/", import.meta.url).href;
  // An absolute lockFileURL: a relative one fails with "Invalid base URL" when a package loads.
  const pyodide = await loadPyodide({
    indexURL,
    lockFileURL: new URL(lockFileURL, import.meta.url).href,
    fullStdLib: false,
  });
  postMessage({ type: MSG.PROGRESS, stage: "Loading the calculators…" });
  await pyodide.loadPackage("calculators", { messageCallback: () => {}, errorCallback: (m) => console.warn(m) });
  const calculators = pyodide.pyimport("calculators");
  runJson = calculators.run_json;
  const python = pyodide.runPython("import sys; sys.version.split()[0]");
  postMessage({ type: MSG.READY, bootMs: performance.now() - started, python });
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
      booting = boot(msg.lockFileURL).catch((err) => {
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
