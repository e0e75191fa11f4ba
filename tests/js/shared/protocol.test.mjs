// The page ↔ worker protocol: its names, and shape checks that accept every message the page,
// and the worker send and refuse anything else.
import { test } from "node:test";
import assert from "node:assert/strict";

import { BOOT_MODE, MSG, SHAPES, STATE, isFromWorker, isToWorker } from "../../../course_calculators/browser/shared/protocol.js";

const INIT = {
  type: "init", pyodide: "https://s/assets/pyodide/0.1/", lock: "https://s/assets/pyodide/pyodide-lock.json?v=ab",
  lock_sha256: "ab", snapshot: "", snapshot_sha256: "",
};
const RUN = { type: "run", widget: "calc-kv-cache-2", calc: "kv-cache", seq: 3, inputs: { context: "4096", gpu: "h900" } };
const RESULT = {
  type: "result", widget: "calc-kv-cache", seq: 1,
  result: { inputs: { context: 4096 }, raw: { kv: "1" }, text: { kv: "1 B" }, notes: [], charts: [] },
};

test("the message names and states are the documented strings", () => {
  assert.deepEqual({ ...MSG }, {
    INIT: "init", RUN: "run", PROGRESS: "progress", READY: "ready", RESULT: "result", ERROR: "error",
    RELOAD: "reload", RELOADED: "reloaded",
  });
  assert.deepEqual(Object.values(STATE), ["static", "loading", "ready", "error"]);
  assert.deepEqual(Object.values(BOOT_MODE), ["snapshot", "boot"]);
  assert.ok(Object.isFrozen(MSG) && Object.isFrozen(STATE));
  assert.deepEqual(Object.keys(SHAPES.toWorker), [MSG.INIT, MSG.RUN, MSG.RELOAD]);
  assert.deepEqual(Object.keys(SHAPES.fromWorker), [MSG.PROGRESS, MSG.READY, MSG.RESULT, MSG.ERROR, MSG.RELOADED]);
});

test("messages to the worker of the documented shape are accepted", () => {
  assert.ok(isToWorker(INIT));
  assert.ok(isToWorker({ type: "init", pyodide: "a/", lock: "b" })); // optional fields absent
  assert.ok(isToWorker(RUN));
  assert.ok(isToWorker({ ...RUN, inputs: {} }));
  // A link's unknown keys and junk values travel as strings: Python's notes name them.
  assert.ok(isToWorker({ ...RUN, inputs: { "<img src=x>": "1", context: "" } }));
  assert.ok(isToWorker({ type: "reload", lock: INIT.lock, lock_sha256: "ab" })); // under mkdocs serve
  assert.ok(isToWorker({ type: "reload", lock: INIT.lock }));
});

test("messages to the worker of any other shape are refused", () => {
  const bad = [
    null, undefined, "run", [], 42, {}, { type: "nope" },
    { ...INIT, pyodide: "" }, { ...INIT, lock: 1 }, { ...INIT, snapshot: null }, { ...INIT, extra: 1 },
    { ...RUN, seq: 0 }, { ...RUN, seq: 1.5 }, { ...RUN, seq: "1" }, { ...RUN, calc: "Kv_Cache" }, { ...RUN, widget: 7 },
    { ...RUN, inputs: { context: 4096 } }, { ...RUN, inputs: ["4096"] }, { ...RUN, inputs: null },
    { type: "run", widget: "w", calc: "kv-cache", seq: 1 }, // no inputs
    { type: "reload" }, { type: "reload", lock: "" }, { type: "reload", lock: "a", lock_sha256: 1 },
    { type: "reload", lock: "a", pyodide: "b/" }, // a reload keeps its interpreter: no other field
    RESULT, // a worker's message is not one to it
  ];
  bad.forEach((msg) => assert.equal(isToWorker(msg), false, JSON.stringify(msg)));
  assert.equal(isToWorker(Object.assign(Object.create({ type: "run" }), RUN)), false); // not a plain object
});

test("messages from the worker of the documented shape are accepted", () => {
  const good = [
    { type: "progress", stage: "Loading Python…" },
    { type: "ready", bootMs: 812.5, python: "3.13.2", mode: "snapshot", timings: { workerStarted: 1.7e12, ready: 1.7e12 + 900 } },
    { type: "ready", bootMs: 0, python: "3.13.2", mode: "boot", timings: {} },
    RESULT,
    { type: "error", widget: "calc-kv-cache", seq: 2, message: "unknown calculator id 'x'" },
    { type: "error", message: "Python could not start: HTTP 404" }, // the boot's
    { type: "reloaded", ms: 84.2 },
  ];
  good.forEach((msg) => assert.ok(isFromWorker(msg), JSON.stringify(msg)));
});

test("messages from the worker of any other shape are refused", () => {
  const bad = [
    { type: "progress" }, { type: "progress", stage: 1 },
    { type: "ready", bootMs: NaN, python: "3", mode: "boot", timings: {} },
    { type: "ready", bootMs: 1, python: "3", mode: "warm", timings: {} },
    { type: "ready", bootMs: 1, python: "3", mode: "boot", timings: { ready: "soon" } },
    { ...RESULT, seq: -1 }, { ...RESULT, result: { inputs: {}, raw: {}, text: {} } },
    { ...RESULT, result: { ...RESULT.result, notes: "none" } }, { ...RESULT, result: null },
    { type: "error" }, { type: "error", message: "x", seq: 0 }, { type: "error", message: "x", stack: "" },
    { type: "reloaded" }, { type: "reloaded", ms: "fast" }, { type: "reloaded", ms: Infinity },
    RUN,
  ];
  bad.forEach((msg) => assert.equal(isFromWorker(msg), false, JSON.stringify(msg)));
});
