// The calculators' Web Worker: one Pyodide for every widget of a page session.
//
// It answers the messages of shared/protocol.js: `init` starts Python (worker/python.js), each
// `run` computes one widget. No formula lives here: the worker passes JSON to
// course_calculators.run_json and back.

import { MSG, isToWorker } from "./shared/protocol.js";
import { mark } from "./worker/timings.js";
import { startPython } from "./worker/python.js";

mark("workerStarted");
const post = (msg) => self.postMessage(msg);
let runJson = null;
let booting = null;

function run({ widget, calc, seq, inputs }) {
  try {
    const out = runJson(calc, JSON.stringify(inputs));
    post({ type: MSG.RESULT, widget, seq, result: JSON.parse(out) });
  } catch (err) {
    // A Python exception: report it to this widget alone; keep serving the others.
    const text = String(err && err.message ? err.message : err);
    const lines = text.trim().split("\n");
    post({ type: MSG.ERROR, widget, seq, message: lines[lines.length - 1] || "calculation failed" });
  }
}

self.onmessage = async (event) => {
  const msg = event.data;
  if (!isToWorker(msg)) {
    console.warn("calculators: the worker ignored a message of no known shape", msg);
    return;
  }
  if (msg.type === MSG.INIT) {
    if (!booting) {
      booting = startPython(msg, post).then((fn) => { runJson = fn; }, (err) => {
        booting = null;
        post({ type: MSG.ERROR, message: `Python could not start: ${err && err.message ? err.message : err}` });
      });
    }
    return;
  }
  if (booting) await booting;
  if (!runJson) {
    post({ type: MSG.ERROR, widget: msg.widget, seq: msg.seq, message: "Python is not available" });
    return;
  }
  run(msg);
};
