// The page's worker client, against a fake boot.js and worker: it replays what the worker said
// before the page listened, watches the boot, times each run, and restarts or fails cleanly.
import { test, mock, beforeEach, afterEach } from "node:test";
import assert from "node:assert/strict";

import { WorkerClient } from "../../course_calculators/browser/page/worker-client.js";

const READY = { type: "ready", bootMs: 5, python: "3.13", mode: "snapshot", timings: {} };

function fakeBoot(early = []) {
  const boot = {
    runtime: { worker: "https://s/assets/calc/worker.js" },
    messages: [],
    started: 0,
    stopped: 0,
    worker: null,
    start() {
      if (!this.worker) {
        this.started += 1;
        this.worker = { posted: [], postMessage(m) { this.posted.push(m); } };
        this.messages = early.splice(0);
      }
      return this.worker;
    },
    stop() { this.stopped += 1; this.worker = null; this.messages = []; },
  };
  return boot;
}

function client(boot, options = {}) {
  const seen = { messages: [], failures: [] };
  const c = new WorkerClient(boot, {
    bootTimeoutMs: 60000, runTimeoutMs: () => 10000,
    onMessage: (m) => seen.messages.push(m), onFail: (m) => seen.failures.push(m), ...options,
  });
  return { c, seen };
}

beforeEach(() => mock.timers.enable({ apis: ["setTimeout"] }));
afterEach(() => mock.timers.reset());

test("messages sent before the page listened are replayed, in order", () => {
  const progress = { type: "progress", stage: "Loading the calculators…" };
  const { c, seen } = client(fakeBoot([progress, READY]));
  c.start();
  assert.deepEqual(seen.messages, [progress, READY]);
  assert.equal(c.status, "Loading the calculators…");
  assert.ok(c.ready && c.canRun);
  mock.timers.tick(60000);
  assert.deepEqual(seen.failures, []); // ready: no watchdog
});

test("a boot that never says ready fails after the boot timeout", () => {
  const boot = fakeBoot();
  const { c, seen } = client(boot, { bootTimeoutMs: 4000 });
  c.start();
  mock.timers.tick(3999);
  assert.deepEqual(seen.failures, []);
  mock.timers.tick(1);
  assert.equal(seen.failures.length, 1);
  assert.match(seen.failures[0], /^Interactive mode is unavailable: Python did not start within 4 s\./);
  assert.equal(boot.stopped, 1);
  c.start();
  assert.equal(boot.started, 1); // failed for good
});

test("the worker's boot error fails the page; a widget's error does not", () => {
  const { c, seen } = client(fakeBoot());
  c.start();
  c.worker.onmessage({ data: READY });
  const widgetError = { type: "error", widget: "calc-a", seq: 1, message: "boom" };
  c.worker.onmessage({ data: widgetError });
  assert.deepEqual(seen.messages, [READY, widgetError]);
  c.worker.onmessage({ data: { type: "error", message: "Python could not start: HTTP 404" } });
  assert.deepEqual(seen.failures, ["Interactive mode is unavailable: Python could not start: HTTP 404"]);
  assert.equal(c.worker, null);
});

test("messages of no known shape are dropped", (t) => {
  t.mock.method(console, "warn", () => {});
  const { c, seen } = client(fakeBoot());
  c.start();
  c.worker.onmessage({ data: { type: "ready" } });
  c.worker.onmessage({ data: { type: "result", widget: "calc-a", seq: 1 } });
  assert.deepEqual(seen.messages, []);
  assert.equal(c.ready, false);
});

test("a run past its time calls its timeout; one answered in time does not", () => {
  let limit = 10000;
  const { c } = client(fakeBoot([READY]), { runTimeoutMs: () => limit });
  c.start();
  const timedOut = [];
  const cancel = c.run({ type: "run", widget: "calc-a", calc: "a", seq: 1, inputs: {} }, () => timedOut.push(1));
  assert.equal(c.worker.posted.length, 1);
  mock.timers.tick(9999);
  cancel();
  mock.timers.tick(10);
  limit = 0; // read at each run
  c.run({ type: "run", widget: "calc-a", calc: "a", seq: 2, inputs: {} }, () => timedOut.push(2));
  mock.timers.tick(0);
  assert.deepEqual(timedOut, [2]);
});

test("stop and restart give a new worker that boots again", () => {
  const boot = fakeBoot([READY]);
  const { c } = client(boot);
  c.start();
  c.stop();
  assert.ok(!c.ready && !c.canRun && boot.stopped === 1);
  c.restart();
  assert.equal(boot.started, 2);
  assert.equal(c.status, "Restarting Python…");
  assert.equal(c.ready, false);
});

test("without boot.js (it did not load) the client has failed from the start", () => {
  const { c } = client(null);
  assert.match(c.failed, /the runtime did not load/);
  c.start();
  assert.equal(c.worker, null);
});

test("a worker that cannot be created fails with the reason", () => {
  const boot = fakeBoot();
  boot.start = () => { throw new Error("no Worker here"); };
  const { c, seen } = client(boot);
  c.start();
  assert.deepEqual(seen.failures, ["Interactive mode is unavailable: no Worker here"]);
});
