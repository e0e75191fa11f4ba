// The worker's message handling with a fake Python: `init` boots once, runs wait for the boot,
// each answer goes to its widget alone, a failed boot is told and may be tried again; a `reload`
// (under mkdocs serve) swaps run_json in the same interpreter, and runs sent meanwhile wait for it.
import { test } from "node:test";
import assert from "node:assert/strict";

import { createMessageHandler } from "../../../course_calculators/browser/worker/message-handler.js";

const INIT = { type: "init", pyodide: "https://s/assets/pyodide/1/", lock: "https://s/assets/pyodide/pyodide-lock.json" };
const run = (seq, inputs = { context: "4096" }, calc = "kv-cache") => ({ type: "run", widget: `calc-${calc}`, calc, seq, inputs });
const RESULT = { inputs: { context: 4096 }, raw: { kv: 1 }, text: { kv: "1 B" }, notes: [], charts: [] };

/** A handler over a fake Python whose boot resolves (or rejects) when the test says. */
function worker() {
  const w = { posted: [], boots: 0, calls: [] };
  w.runJson = (calc, json) => {
    w.calls.push([calc, JSON.parse(json)]);
    if (calc === "broken") throw new Error("Traceback (most recent call last):\n  File x\nValueError: unknown calculator id 'broken'");
    if (calc === "raises") {
      throw new Error("Traceback (most recent call last):\n  File \"/lib/my_calcs/double.py\", line 7\nZeroDivisionError: division by zero\n\n" +
        "The above exception was the direct cause of the following exception:\n\n" +
        "course_calculators.failure.RunFailure: my_calcs/double.py:7: ZeroDivisionError: division by zero");
    }
    return JSON.stringify(RESULT);
  };
  w.pyodide = { name: "the one interpreter" };
  w.reloads = [];
  w.handle = createMessageHandler({
    post: (msg) => w.posted.push(msg),
    startPython: () => {
      w.boots += 1;
      return new Promise((resolve, reject) => {
        w.bootOk = () => resolve({ runJson: w.runJson, pyodide: w.pyodide });
        w.bootFails = reject;
      });
    },
    reloadPython: (pyodide, msg) => new Promise((resolve, reject) => {
      w.reloads.push([pyodide, msg]);
      w.reloadOk = () => resolve((calc) => JSON.stringify({ ...RESULT, text: { kv: `new ${calc}` } }));
      w.reloadFails = reject;
    }),
  });
  return w;
}

test("a run before any init is answered: Python is not available", async () => {
  const w = worker();
  await w.handle(run(1));
  assert.deepEqual(w.posted, [{ type: "error", widget: "calc-kv-cache", seq: 1, message: "Python is not available" }]);
});

test("init boots once; runs sent during the boot are answered once it is done", async () => {
  const w = worker();
  await w.handle(INIT);
  await w.handle(INIT); // a second init (a page that asked twice) boots nothing more
  assert.equal(w.boots, 1);
  const pending = w.handle(run(1));
  assert.deepEqual(w.posted, []);
  w.bootOk();
  await pending;
  assert.deepEqual(w.posted, [{ type: "result", widget: "calc-kv-cache", seq: 1, result: RESULT }]);
  assert.deepEqual(w.calls, [["kv-cache", { context: "4096" }]]); // the raw strings, as the page sent them
});

test("a Python exception goes to its widget alone, as its last line; the worker keeps serving", async () => {
  const w = worker();
  await w.handle(INIT);
  w.bootOk();
  await w.handle(run(1, {}, "broken"));
  await w.handle(run(2));
  assert.equal(w.posted[0].message, "ValueError: unknown calculator id 'broken'");
  assert.equal(w.posted[0].widget, "calc-broken");
  assert.equal(w.posted[1].type, "result");
});

test("a compute() that raises answers its widget with the author's file and line, and the traceback", async () => {
  const w = worker();
  await w.handle(INIT);
  w.bootOk();
  await w.handle(run(1, {}, "raises"));
  assert.deepEqual(w.posted[0], {
    type: "error", widget: "calc-raises", seq: 1, message: "my_calcs/double.py:7: ZeroDivisionError: division by zero",
    trace: w.posted[0].trace,
  });
  assert.match(w.posted[0].trace, /^Traceback[\s\S]*double\.py", line 7/);
});

test("a boot that fails is told to the page, without a widget, and a later init tries again", async () => {
  const w = worker();
  await w.handle(INIT);
  w.bootFails(new Error("pyodide.asm.wasm: HTTP 404"));
  await w.handle(run(1)); // waits for the failed boot, then answers
  assert.deepEqual(w.posted, [
    { type: "error", message: "Python could not start: pyodide.asm.wasm: HTTP 404" },
    { type: "error", widget: "calc-kv-cache", seq: 1, message: "Python is not available" },
  ]);
  await w.handle(INIT);
  assert.equal(w.boots, 2);
});

test("a message of no known shape is ignored, with a warning", async (t) => {
  t.mock.method(console, "warn", () => {});
  const w = worker();
  await w.handle({ type: "run", widget: "calc-a", calc: "kv-cache", seq: 0, inputs: {} });
  await w.handle({ type: "init" });
  await w.handle("run");
  assert.deepEqual(w.posted, []);
  assert.equal(w.boots, 0);
  assert.equal(console.warn.mock.callCount(), 3);
});

/** Every promise already resolved has run its callbacks. */
const settled = () => new Promise((resolve) => setImmediate(resolve));
const RELOAD = { type: "reload", lock: "https://s/assets/pyodide/pyodide-lock.json?v=cd", lock_sha256: "cd" };

test("a reload keeps the interpreter; runs sent during it are answered by the new Python", async () => {
  const w = worker();
  await w.handle(INIT);
  w.bootOk();
  const reloading = w.handle(RELOAD);
  await settled();
  const pending = w.handle(run(1));
  await settled();
  assert.deepEqual(w.posted, []); // the run waits for the reload
  assert.deepEqual(w.reloads, [[w.pyodide, RELOAD]]);
  w.reloadOk();
  await reloading;
  await pending;
  assert.equal(w.boots, 1);
  assert.equal(w.posted[0].type, "reloaded");
  assert.ok(Number.isFinite(w.posted[0].ms));
  assert.deepEqual(w.posted[1], { type: "result", widget: "calc-kv-cache", seq: 1, result: { ...RESULT, text: { kv: "new kv-cache" } } });
  assert.deepEqual(w.calls, []); // the old run_json was not called
});

test("a reload that fails is told as a boot's failure, with the exception's last line", async () => {
  const w = worker();
  await w.handle(INIT);
  w.bootOk();
  const reloading = w.handle(RELOAD);
  await settled();
  w.reloadFails(new Error("Traceback (most recent call last):\n  File \"/lib/tiny/area.py\", line 3\nSyntaxError: invalid syntax"));
  await reloading;
  assert.deepEqual(w.posted[0], {
    type: "error", message: "The calculators could not be reloaded: SyntaxError: invalid syntax", trace: w.posted[0].trace,
  });
  await w.handle(run(2));
  assert.deepEqual(w.posted[1], { type: "error", widget: "calc-kv-cache", seq: 2, message: "Python is not available" });
});

test("a reload before Python started is refused: there is no interpreter to reload", async () => {
  const w = worker();
  await w.handle(RELOAD);
  assert.deepEqual(w.posted, [{ type: "error", message: "Python is not available" }]);
  assert.deepEqual(w.reloads, []);
});
