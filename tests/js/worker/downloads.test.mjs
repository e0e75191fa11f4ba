// The downloads watchdog, with a fake fetch and clock: a required download that fails or stalls
// rejects `failed` naming its file; an optional one (the snapshot) fails alone; Pyodide's own
// fetches go through the watch and take a response started early.
import { test, mock, beforeEach, afterEach } from "node:test";
import assert from "node:assert/strict";

import { CHECK_MS, Downloads, STALL_MS } from "../../../course_calculators/browser/worker/downloads.js";

const BASE = "https://s/assets/pyodide/1/";

/** `ms` pass with the watch looking on time, every CHECK_MS (the worker's thread is free). */
function awake(w, ms) {
  for (let t = 0; t < ms; t += CHECK_MS) {
    w.clock.t += CHECK_MS;
    mock.timers.tick(CHECK_MS);
  }
}

/** A body whose chunks the test pushes (`push`) and ends (`end`). */
function stream() {
  let ctl;
  const body = new ReadableStream({ start(c) { ctl = c; } });
  return { body, push: (n) => ctl.enqueue(new Uint8Array(n)), end: () => ctl.close() };
}

/** Downloads over a fake scope: `answers[url]` is the Response (or an Error) a fetch of it gets. */
function watch(answers = {}) {
  const clock = { t: 0 };
  const calls = [];
  const signals = [];
  const scope = {
    location: { href: "https://s/assets/calc/worker.js" },
    fetch: (url, init) => {
      calls.push(url);
      signals.push(init && init.signal);
      const answer = answers[url];
      if (answer instanceof Error) return Promise.reject(answer);
      return Promise.resolve(answer || new Response("ok"));
    },
  };
  const downloads = new Downloads({ scope, now: () => clock.t });
  const outcome = downloads.failed.then(() => "resolved", (err) => err.message);
  return { downloads, scope, clock, calls, signals, outcome };
}

/** Let the promises settle (fake timers hold only setInterval and setTimeout). */
const flush = () => new Promise((resolve) => setImmediate(resolve));

/** Whether `failed` has neither rejected nor resolved by now: the boot goes on. */
async function stillGoing(w) {
  let settled = false;
  w.outcome.then(() => { settled = true; });
  await flush();
  return !settled;
}

beforeEach(() => mock.timers.enable({ apis: ["setInterval"] }));
afterEach(() => mock.timers.reset());

test("a required download that fails over HTTP rejects `failed`, naming the file", async () => {
  const w = watch({ [`${BASE}pyodide.asm.wasm`]: new Response("", { status: 404 }) });
  await assert.rejects(w.downloads.fetch(`${BASE}pyodide.asm.wasm`), /pyodide\.asm\.wasm: HTTP 404/);
  assert.equal(await w.outcome, "pyodide.asm.wasm: HTTP 404");
  w.downloads.stop();
});

test("a network error is a failed download too", async () => {
  const w = watch({ [`${BASE}python_stdlib.zip?v=2`]: new TypeError("Failed to fetch") });
  await assert.rejects(w.downloads.fetch(`${BASE}python_stdlib.zip?v=2`));
  assert.equal(await w.outcome, "python_stdlib.zip: the download failed");
  w.downloads.stop();
});

test("an optional download's failure is its own, not the boot's", async () => {
  const w = watch({ "https://s/snapshot.bin.gz": new Response("", { status: 500 }) });
  await assert.rejects(w.downloads.fetch("https://s/snapshot.bin.gz", {}, { optional: true }), /HTTP 500/);
  mock.timers.tick(STALL_MS * 2);
  assert.ok(await stillGoing(w));
  w.downloads.stop();
});

test("bytes keep a download alive; none for STALL_MS while it is under way is a stall", async () => {
  const body = stream();
  const w = watch({ [`${BASE}pyodide.asm.wasm`]: new Response(body.body) });
  const seen = [];
  const response = await w.downloads.fetch(`${BASE}pyodide.asm.wasm`, {}, { onBytes: (n, done) => seen.push([n, done]) });
  const reader = response.body.getReader();
  for (let i = 0; i < 3; i++) { // a chunk every STALL_MS - 1: never stalled
    w.clock.t += STALL_MS - 1;
    body.push(100);
    await reader.read();
    mock.timers.tick(500);
  }
  assert.equal(w.downloads.bytes, 300);
  assert.deepEqual(seen, [[100, false], [100, false], [100, false]]);
  assert.ok(await stillGoing(w));
  awake(w, STALL_MS);
  assert.equal(await w.outcome, `pyodide.asm.wasm: the download stalled (nothing arrived for ${STALL_MS / 1000} s)`);
  w.downloads.stop();
});

test("time the worker's thread was busy is not silence: a late look does not call a stall", async () => {
  const body = stream();
  const w = watch({ [`${BASE}pyodide.asm.wasm`]: new Response(body.body) });
  await w.downloads.fetch(`${BASE}pyodide.asm.wasm`);
  w.clock.t += STALL_MS * 2; // one look, 8 s late: the thread was compiling
  mock.timers.tick(CHECK_MS);
  assert.ok(await stillGoing(w));
  awake(w, STALL_MS); // then 4 s awake with nothing: a stall
  assert.match(await w.outcome, /stalled/);
  w.downloads.stop();
});

test("a finished download is no longer watched", async () => {
  const body = stream();
  const w = watch({ [`${BASE}pyodide.asm.wasm`]: new Response(body.body) });
  const response = await w.downloads.fetch(`${BASE}pyodide.asm.wasm`);
  body.push(10);
  body.end();
  await response.arrayBuffer();
  assert.equal(w.downloads.active.size, 0);
  w.clock.t += STALL_MS * 10;
  mock.timers.tick(500);
  assert.ok(await stillGoing(w));
  w.downloads.stop();
});

test("an optional download that stalls alone is given up, not the boot", async () => {
  const body = stream();
  const w = watch({ "https://s/snapshot.bin.gz": new Response(body.body) });
  await w.downloads.fetch("https://s/snapshot.bin.gz", {}, { optional: true });
  awake(w, STALL_MS);
  assert.equal(w.downloads.active.size, 0);
  assert.ok(w.signals[0].aborted); // its fetch is aborted, saying why (the boot's reason shows it)
  assert.match(w.signals[0].reason.message, /snapshot\.bin\.gz: the download stalled \(nothing arrived for 4 s\)/);
  assert.ok(await stillGoing(w));
  w.downloads.stop();
});

test("install: Pyodide's own fetches are watched, and get the response started early", async () => {
  const w = watch({ [`${BASE}pyodide.asm.wasm`]: new Response("wasm") });
  w.downloads.install();
  const early = w.downloads.prefetch(`${BASE}pyodide.asm.wasm`);
  const asked = w.scope.fetch("../pyodide/1/pyodide.asm.wasm"); // relative to the worker, as Pyodide asks
  assert.equal(asked, early);
  assert.equal(await (await asked).text(), "wasm");
  assert.deepEqual(w.calls, [`${BASE}pyodide.asm.wasm`]); // one download, not two
  await w.scope.fetch(`${BASE}python_stdlib.zip`);
  assert.deepEqual(w.calls, [`${BASE}pyodide.asm.wasm`, `${BASE}python_stdlib.zip`]);
  w.downloads.stop();
});

test("an import that fails is a failed download, named", async () => {
  const w = watch();
  const imported = w.downloads.track("pyodide.mjs", Promise.reject(new Error("404")));
  await assert.rejects(imported);
  assert.equal(await w.outcome, "pyodide.mjs: did not load (404)");
  w.downloads.stop();
});

test("a reader that does not keep up is not a stall: the bytes are taken as they come", async () => {
  const body = stream();
  const w = watch({ [`${BASE}pyodide.asm.wasm`]: new Response(body.body) });
  const response = await w.downloads.fetch(`${BASE}pyodide.asm.wasm`);
  for (let i = 0; i < 3; i++) body.push(1000); // nobody reads the response yet
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(w.downloads.bytes, 3000);
  body.end();
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(w.downloads.active.size, 0); // the network's part is done, unread or not
  assert.equal((await response.arrayBuffer()).byteLength, 3000);
  w.downloads.stop();
});
