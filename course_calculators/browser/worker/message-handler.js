// The worker's answers to the page's messages (shared/protocol.js): `init` starts Python once,
// each `run` computes one widget and answers it alone, and `reload` (under `mkdocs serve` only)
// takes a new wheel into the running interpreter; runs sent meanwhile wait for it. No DOM and no `self` here: worker.js wires
// this to the worker's messages, and tests call it with a fake Python.

import { MSG, isToWorker } from "../shared/protocol.js";
import { errorText } from "../shared/error-text.js";

// The type name Python's traceback gives course_calculators.failure.RunFailure on its last line.
const RUN_FAILURE = /^(?:[\w.]+\.)?RunFailure: /;

/** A Python traceback's last line: the exception itself. */
const lastLine = (trace) => trace.slice(trace.lastIndexOf("\n") + 1);

/**
 * A function that handles one message from the page.
 * @param post (msg) => send a message to the page
 * @param startPython (init, post) => a promise of `{ runJson, pyodide }`: run_json(calc, inputsJson)
 *   → JSON text, and the interpreter (start-python.js); it rejects when Python cannot start
 * @param reloadPython (pyodide, reload) => a promise of the new run_json, once the `reload`
 *   message's wheel is imported (worker/reload.js)
 */
export function createMessageHandler({ post, startPython, reloadPython }) {
  let runJson = null;
  let pyodide = null;
  let booting = null;
  let reloading = null;

  async function reload(msg) {
    const started = performance.now();
    try {
      const fresh = await reloadPython(pyodide, msg);
      if (runJson && typeof runJson.destroy === "function") runJson.destroy();
      runJson = fresh;
      post({ type: MSG.RELOADED, ms: performance.now() - started });
    } catch (err) {
      // As a boot's failure (no widget): the page says it in every widget. The old calculators
      // stay imported, but the page cannot tell which of its numbers they would still give.
      runJson = null;
      const trace = errorText(err).trim();
      post({ type: MSG.ERROR, message: `The calculators could not be reloaded: ${lastLine(trace)}`, trace });
    }
  }

  function run({ widget, calc, seq, inputs }) {
    try {
      post({ type: MSG.RESULT, widget, seq, result: JSON.parse(runJson(calc, JSON.stringify(inputs))) });
    } catch (err) {
      // A Python exception: its last line (the exception itself) to this widget alone, with the
      // traceback for the page's console; the worker keeps serving the others. When compute()
      // raised, course_calculators.run_json's RunFailure says where in one line: the author's
      // file and line, then the exception.
      const trace = errorText(err).trim();
      const last = (lastLine(trace) || "calculation failed").replace(RUN_FAILURE, "");
      post({ type: MSG.ERROR, widget, seq, message: last, trace });
    }
  }

  return async function handle(msg) {
    if (!isToWorker(msg)) {
      console.warn("calculators: the worker ignored a message of no known shape", msg);
      return;
    }
    if (msg.type === MSG.INIT) {
      if (!booting) {
        booting = startPython(msg, post).then((python) => { ({ runJson, pyodide } = python); }, (err) => {
          booting = null; // a later `init` may try again
          post({ type: MSG.ERROR, message: `Python could not start: ${errorText(err)}` });
        });
      }
      return;
    }
    if (booting) await booting;
    if (msg.type === MSG.RELOAD) {
      if (!pyodide) {
        post({ type: MSG.ERROR, message: "Python is not available" });
        return;
      }
      const previous = reloading;
      reloading = (async () => { if (previous) await previous; await reload(msg); })();
      await reloading;
      return;
    }
    if (reloading) await reloading;
    if (!runJson) {
      post({ type: MSG.ERROR, widget: msg.widget, seq: msg.seq, message: "Python is not available" });
      return;
    }
    run(msg);
  };
}
