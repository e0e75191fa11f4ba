// A widget's runs, latest value wins: one run in flight at most, a burst of requests ends in one
// more run with the newest inputs, answers of runs that were replaced or cancelled are ignored.
import { test } from "node:test";
import assert from "node:assert/strict";

import { ANSWER, RunQueue } from "../../../course_calculators/browser/page/run-queue.js";

/** A queue over a fake worker: `inputs` is what the form holds when a run is sent. */
function queue({ ready = true } = {}) {
  const world = { ready, inputs: "a", sent: [], cancelled: [] };
  world.q = new RunQueue({
    canRun: () => world.ready,
    send: (seq) => {
      world.sent.push([seq, world.inputs]);
      return () => world.cancelled.push(seq);
    },
  });
  return world;
}

test("a request is sent at once when the worker can run and nothing is in flight", () => {
  const w = queue();
  assert.equal(w.q.request(), true);
  assert.deepEqual(w.sent, [[1, "a"]]);
  assert.ok(w.q.busy);
  assert.equal(w.q.settle(1), ANSWER.CURRENT);
  assert.ok(!w.q.busy && !w.q.dirty);
  assert.deepEqual(w.cancelled, [1]); // its watchdog is cancelled once it is answered
});

test("before the worker is ready a request waits; the next request sends it", () => {
  const w = queue({ ready: false });
  assert.equal(w.q.request(), false);
  assert.ok(w.q.dirty && !w.q.busy);
  w.ready = true;
  assert.equal(w.q.request(), true); // what the worker's `ready` does for every widget
  assert.ok(!w.q.dirty);
});

test("a burst during a run ends in exactly one more run, with the newest inputs", () => {
  const w = queue();
  w.q.request();
  for (const inputs of ["b", "c", "d"]) {
    w.inputs = inputs;
    assert.equal(w.q.request(), false);
  }
  assert.deepEqual(w.sent, [[1, "a"]]);
  assert.equal(w.q.settle(1), ANSWER.SUPERSEDED); // its answer is for old inputs: not shown
  assert.deepEqual(w.sent, [[1, "a"], [2, "d"]]);
  assert.equal(w.q.settle(2), ANSWER.CURRENT);
  assert.equal(w.sent.length, 2);
});

test("answers of other runs are stale: a repeated one, an unknown one, one after cancel", () => {
  const w = queue();
  w.q.request();
  assert.equal(w.q.settle(7), ANSWER.STALE);
  assert.ok(w.q.busy);
  assert.equal(w.q.settle(1), ANSWER.CURRENT);
  assert.equal(w.q.settle(1), ANSWER.STALE);
  w.q.request();
  w.q.cancel(); // the worker was stopped
  assert.equal(w.q.settle(2), ANSWER.STALE);
  assert.deepEqual(w.cancelled, [1, 2]);
});

test("a cancelled run can be marked to run again when a new worker is ready", () => {
  const w = queue();
  w.q.request();
  w.ready = false; // the worker is being replaced
  w.q.cancel(true);
  assert.ok(w.q.dirty && !w.q.busy);
  w.q.cancel(false); // the culprit of a timeout: no run again by itself
  assert.ok(!w.q.dirty);
});

test("a superseded answer with the worker gone leaves the newest inputs due", () => {
  const w = queue();
  w.q.request();
  w.inputs = "b";
  w.q.request();
  w.ready = false;
  assert.equal(w.q.settle(1), ANSWER.SUPERSEDED);
  assert.ok(w.q.dirty && !w.q.busy);
  w.ready = true;
  w.q.request();
  assert.deepEqual(w.sent.at(-1), [2, "b"]);
});
