// Under mkdocs serve: what a rebuild does to the open page. Its digest changed → the page reloads;
// only the lock file did → the session's worker takes the new wheel in place; neither → nothing.
// Rebuilds are handled one after the other, each on the state file it finds.
import { test } from "node:test";
import assert from "node:assert/strict";

import { ACTION, LiveReload, decide, readLive } from "../../../course_calculators/browser/page/live-reload.js";

function page(content, baseURI = "http://127.0.0.1:8000/inference/kv-cache/") {
  const meta = content === null ? null : { getAttribute: (name) => (name === "content" ? content : null) };
  return { baseURI, querySelector: (sel) => (sel === 'meta[name="calculators-live"]' ? meta : null) };
}

const LIVE = Object.freeze({ state: "http://127.0.0.1:8000/assets/calc/live.json", page: "inference/kv-cache/", digest: "d1" });
const STATE = { lock: "assets/pyodide/pyodide-lock.json?v=new", lock_sha256: "new", pages: { "inference/kv-cache/": "d1", "": "d0" } };
const RUNTIME = Object.freeze({ root: "http://127.0.0.1:8000/", lock: "http://127.0.0.1:8000/assets/pyodide/pyodide-lock.json?v=old", lock_sha256: "old" });

test("the meta tag is read with its state file made absolute; none in a production page", (t) => {
  const content = JSON.stringify({ state: "../../assets/calc/live.json", page: "inference/kv-cache/", digest: "d1" });
  assert.deepEqual({ ...readLive(page(content)) }, LIVE);
  assert.equal(readLive(page(null)), null);
  t.mock.method(console, "error", () => {});
  assert.equal(readLive(page("{not json")), null);
  assert.equal(readLive(page(JSON.stringify({ state: "", page: "", digest: "d" }))), null);
  assert.equal(readLive(page(JSON.stringify({ state: "x", page: "", digest: 1 }))), null);
});

test("a rebuild whose page digest is the same and whose lock is new asks for the Python alone", () => {
  assert.equal(decide(LIVE, "old", STATE), ACTION.PYTHON);
  assert.equal(decide(LIVE, "new", STATE), ACTION.NONE); // nothing of this page changed
  assert.equal(decide(LIVE, "old", { ...STATE, pages: { "inference/kv-cache/": "d2" } }), ACTION.PAGE); // the page did
  assert.equal(decide(LIVE, "old", { ...STATE, pages: {} }), ACTION.PAGE); // the page is gone
  assert.equal(decide(LIVE, "old", STATE, true), ACTION.PAGE); // instant navigation left the page that loaded
  [null, {}, { ...STATE, lock: 1 }, { ...STATE, pages: null }].forEach((state) =>
    assert.equal(decide(LIVE, "old", state), ACTION.PAGE, JSON.stringify(state))); // unreadable: as MkDocs would
});

function reloader({ states, canReload = true, moved = false }) {
  const seen = { fetched: [], reloadedPage: 0, runtimes: [] };
  const session = { reloadPython: (runtime) => { seen.runtimes.push(runtime); return canReload; } };
  const live = new LiveReload({
    live: LIVE, runtime: RUNTIME, session,
    fetchState: async (url) => { seen.fetched.push(url); const s = states.shift(); if (s instanceof Error) throw s; return s; },
    reloadPage: () => { seen.reloadedPage += 1; },
    moved: () => moved,
  });
  return { live, seen };
}

test("the Python alone: the session gets the runtime with the new lock, absolute; the page stays", async () => {
  const { live, seen } = reloader({ states: [STATE, STATE] });
  assert.equal(await live.rebuilt(), ACTION.PYTHON);
  assert.deepEqual(seen.fetched, [LIVE.state]);
  assert.equal(seen.reloadedPage, 0);
  assert.deepEqual({ ...seen.runtimes[0] }, { ...RUNTIME, lock: "http://127.0.0.1:8000/assets/pyodide/pyodide-lock.json?v=new", lock_sha256: "new" });
  assert.equal(await live.rebuilt(), ACTION.NONE); // the same build again: it runs that Python already
});

test("a session that cannot reload in place, a changed page or an unreadable state: the page reloads", async () => {
  for (const [options, want] of [
    [{ states: [STATE], canReload: false }, 1],
    [{ states: [{ ...STATE, pages: { "inference/kv-cache/": "d2" } }] }, 1],
    [{ states: [new Error("HTTP 404")] }, 1],
    [{ states: [STATE], moved: true }, 1],
  ]) {
    const { live, seen } = reloader(options);
    assert.equal(await live.rebuilt(), ACTION.PAGE);
    assert.equal(seen.reloadedPage, want);
  }
});

test("rebuilds are taken one after the other, each on the state file it finds", async () => {
  const second = { ...STATE, lock: "assets/pyodide/pyodide-lock.json?v=newer", lock_sha256: "newer" };
  const { live, seen } = reloader({ states: [STATE, second] });
  const [a, b] = await Promise.all([live.rebuilt(), live.rebuilt()]);
  assert.deepEqual([a, b], [ACTION.PYTHON, ACTION.PYTHON]);
  assert.deepEqual(seen.runtimes.map((r) => r.lock_sha256), ["new", "newer"]);
});

test("a session that throws reloads the page, and the next rebuild is still heard", async (t) => {
  t.mock.method(console, "error", () => {});
  const { live, seen } = reloader({ states: [STATE, { ...STATE, pages: { "inference/kv-cache/": "d2" } }] });
  live.session.reloadPython = () => { throw new Error("boom"); };
  assert.equal(await live.rebuilt(), ACTION.PAGE);
  assert.equal(await live.rebuilt(), ACTION.PAGE);
  assert.equal(seen.reloadedPage, 2);
  assert.equal(console.error.mock.callCount(), 1);
});
