// The page's worker client, against a fake Worker: it waits for the start policy, sends `init`,
// hears only its current worker, watches the boot, times each run, and restarts or fails cleanly.
import { test, mock, beforeEach, afterEach } from "node:test";
import assert from "node:assert/strict";

import { WorkerClient } from "../../../course_calculators/browser/page/worker-client.js";

const READY = { type: "ready", bootMs: 5, python: "3.13", mode: "snapshot", timings: {} };
const INIT = { type: "init", pyodide: "https://s/assets/pyodide/1/", lock: "https://s/assets/pyodide/pyodide-lock.json" };

/** A Worker's surface as the client uses it: listeners, postMessage, terminate. */
class FakeWorker {
  constructor() {
    this.posted = [];
    this.listeners = { message: [], error: [] };
    this.terminated = false;
  }
  addEventListener(type, fn) { this.listeners[type].push(fn); }
  postMessage(msg) { this.posted.push(msg); }
  terminate() { this.terminated = true; }
  /** The worker says `data`. */
  say(data) { this.listeners.message.forEach((fn) => fn({ data })); }
  /** Its script did not load. */
  crash() { this.listeners.error.forEach((fn) => fn({ preventDefault() {} })); }
}

function client(options = {}) {
  const seen = { messages: [], failures: [], workers: [] };
  const c = new WorkerClient({
    createWorker: () => { const w = new FakeWorker(); seen.workers.push(w); return w; },
    init: INIT, bootTimeoutMs: 60000, runTimeoutMs: 10000,
    onMessage: (m) => seen.messages.push(m), onFail: (m) => seen.failures.push(m), ...options,
  });
  return { c, seen };
}

/** A client whose worker was allowed, started and said `ready`; that worker. */
function readyClient(options) {
  const { c, seen } = client(options);
  c.allow();
  c.start();
  seen.workers[0].say(READY);
  return { c, seen, worker: seen.workers[0] };
}

beforeEach(() => mock.timers.enable({ apis: ["setTimeout"] }));
afterEach(() => mock.timers.reset());

test("no worker before the start policy allows it; then one, sent init first", () => {
  const { c, seen } = client();
  c.start();
  assert.equal(seen.workers.length, 0);
  c.allow();
  assert.equal(seen.workers.length, 1);
  assert.deepEqual(seen.workers[0].posted, [INIT]);
  c.allow();
  c.start();
  assert.equal(seen.workers.length, 1); // one worker for the session
});

test("allowed first, started later: the worker starts when asked", () => {
  const { c, seen } = client();
  c.allow();
  assert.equal(seen.workers.length, 0); // no widget asked yet
  c.start();
  assert.equal(seen.workers.length, 1);
});

test("what the worker says goes to onMessage; ready makes it runnable", () => {
  const { c, seen } = client();
  c.allow();
  c.start();
  const progress = { type: "progress", stage: "Loading the calculators…" };
  seen.workers[0].say(progress);
  seen.workers[0].say(READY);
  assert.deepEqual(seen.messages, [progress, READY]);
  assert.equal(c.status, "Loading the calculators…");
  assert.ok(c.ready && c.canRun);
  mock.timers.tick(60000);
  assert.deepEqual(seen.failures, []); // ready: no watchdog
});

test("a boot that never says ready fails after the boot timeout", () => {
  const { c, seen } = client({ bootTimeoutMs: 4000 });
  c.allow();
  c.start();
  mock.timers.tick(3999);
  assert.deepEqual(seen.failures, []);
  mock.timers.tick(1);
  assert.equal(seen.failures.length, 1);
  assert.match(seen.failures[0], /^Interactive mode is unavailable: Python did not start within 4 s\./);
  assert.ok(seen.workers[0].terminated);
  c.start();
  assert.equal(seen.workers.length, 1); // failed for good, until retry()
  assert.ok(c.retry());
  assert.equal(seen.workers.length, 2);
});

test("the worker's boot error fails the page; a widget's error does not", () => {
  const { c, seen, worker } = readyClient();
  const widgetError = { type: "error", widget: "calc-a", seq: 1, message: "boom" };
  worker.say(widgetError);
  assert.deepEqual(seen.messages, [READY, widgetError]);
  worker.say({ type: "error", message: "Python could not start: HTTP 404" });
  assert.deepEqual(seen.failures, ["Interactive mode is unavailable: Python could not start: HTTP 404"]);
  assert.equal(c.worker, null);
  assert.ok(c.retryable);
});

test("a worker script that does not load fails the page", () => {
  const { c, seen } = client();
  c.allow();
  c.start();
  seen.workers[0].crash();
  assert.match(seen.failures[0], /the Python runtime did not load/);
});

test("messages of no known shape are dropped", (t) => {
  t.mock.method(console, "warn", () => {});
  const { c, seen } = client();
  c.allow();
  c.start();
  seen.workers[0].say({ type: "ready" });
  seen.workers[0].say({ type: "result", widget: "calc-a", seq: 1 });
  assert.deepEqual(seen.messages, []);
  assert.equal(c.ready, false);
  assert.equal(console.warn.mock.callCount(), 2);
});

test("a run past its time calls its timeout; one answered in time does not", () => {
  const { c, seen } = readyClient({ runTimeoutMs: 10000 });
  const timedOut = [];
  const cancel = c.run({ type: "run", widget: "calc-a", calc: "a", seq: 1, inputs: {} }, () => timedOut.push(1));
  assert.equal(seen.workers[0].posted.length, 2); // init, run
  mock.timers.tick(9999);
  cancel();
  mock.timers.tick(10);
  c.run({ type: "run", widget: "calc-a", calc: "a", seq: 2, inputs: {} }, () => timedOut.push(2));
  mock.timers.tick(10000);
  assert.deepEqual(timedOut, [2]);
});

test("stop and restart give a new worker that boots again; the old one is no longer heard", () => {
  const { c, seen, worker: old } = readyClient();
  c.stop();
  assert.ok(!c.ready && !c.canRun && old.terminated);
  c.restart();
  assert.equal(seen.workers.length, 2);
  assert.equal(c.status, "Restarting Python…");
  assert.equal(c.ready, false);
  old.say(READY); // a message already on its way from the ended worker
  assert.equal(c.ready, false);
  assert.deepEqual(seen.workers[1].posted, [INIT]);
});

test("without a runtime (no manifest) the client has failed from the start", () => {
  const { c, seen } = client({ createWorker: null });
  assert.match(c.failed, /the runtime did not load/);
  c.allow();
  c.start();
  assert.equal(c.worker, null);
  assert.equal(c.retry(), false);
  assert.deepEqual(seen.failures, []);
});

test("a worker that cannot be created fails with the reason", () => {
  const { c, seen } = client({ createWorker: () => { throw new Error("no Worker here"); } });
  c.allow();
  c.start();
  assert.deepEqual(seen.failures, ["Interactive mode is unavailable: no Worker here"]);
});

test("a failure that no new start can mend offers no retry", () => {
  const { c, seen } = client();
  c.allow();
  c.start();
  c.fail("switched off", false);
  assert.equal(c.retryable, false);
  assert.deepEqual(seen.failures, ["switched off"]);
});

test("under mkdocs serve, a ready worker takes a new wheel in place; a later worker boots it", () => {
  const { c, seen, worker } = readyClient({ init: { ...INIT, hint: "slow" } });
  const fresh = { ...INIT, lock: "https://s/assets/pyodide/pyodide-lock.json?v=new", lock_sha256: "cd", hint: "" };
  assert.equal(c.reload(fresh), true);
  assert.deepEqual(worker.posted.at(-1), { type: "reload", lock: fresh.lock, lock_sha256: "cd" });
  worker.say({ type: "reloaded", ms: 40 });
  assert.deepEqual(seen.messages.at(-1), { type: "reloaded", ms: 40 });
  assert.equal(seen.workers.length, 1); // no new worker, no new boot
  c.stop();
  c.restart();
  assert.deepEqual(seen.workers[1].posted[0], { ...fresh, hint: "slow" }); // the new wheel, the page's hint
});

test("a reload needs a ready worker: before one, the caller reloads the page", () => {
  const { c, seen } = client();
  c.allow();
  c.start(); // booting, not ready
  assert.equal(c.reload({ ...INIT, lock: "https://s/new" }), false);
  assert.equal(seen.workers[0].posted.length, 1); // init only
});
