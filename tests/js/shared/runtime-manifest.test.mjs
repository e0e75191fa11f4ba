// The runtime manifest of a page's meta tag (plugin/manifest.py's for_page): its URLs, relative to
// the page, made absolute once, the site root among them; every other field kept under its name;
// the worker's `init` made of the manifest's own fields.
import { test } from "node:test";
import assert from "node:assert/strict";

import { initMessage, readRuntime } from "../../../course_calculators/browser/shared/runtime-manifest.js";
import { SHAPES, isToWorker } from "../../../course_calculators/browser/shared/protocol.js";

function page(content, baseURI = "https://example.org/course/inference/kv-cache/") {
  const meta = content === null ? null : { getAttribute: (name) => (name === "content" ? content : null) };
  return { baseURI, querySelector: (sel) => (sel === 'meta[name="calculators-runtime"]' ? meta : null) };
}

const META = {
  root: "../../", worker: "../../assets/calc/worker.js?v=abc", pyodide: "../../assets/pyodide/0.29.0/",
  lock: "../../assets/pyodide/pyodide-lock.json?v=v1", lock_sha256: "ff", version: "v1",
  boot_timeout_ms: 60000, run_timeout_ms: 10000, charts: "", charts_integrity: "",
  snapshot: "../../assets/pyodide/snapshot-1.bin.gz", snapshot_sha256: "ee", sw: "../../sw.js",
  stdlib: "../../assets/pyodide/stdlib-snapshot-1.zip", boot_stdlib: "", offline_bytes: "1200",
};

test("every URL is made absolute against the page; the root is the site's", () => {
  const runtime = readRuntime(page(JSON.stringify(META)));
  assert.equal(runtime.root, "https://example.org/course/");
  assert.equal(runtime.worker, "https://example.org/course/assets/calc/worker.js?v=abc");
  assert.equal(runtime.lock, "https://example.org/course/assets/pyodide/pyodide-lock.json?v=v1");
  assert.equal(runtime.sw, "https://example.org/course/sw.js");
  assert.equal(runtime.stdlib, "https://example.org/course/assets/pyodide/stdlib-snapshot-1.zip");
  assert.equal(runtime.charts, "");
  assert.equal(runtime.boot_stdlib, "");
});

test("every other field keeps its name and value; the offline size is a number", () => {
  const runtime = readRuntime(page(JSON.stringify(META)));
  assert.deepEqual(Object.keys(runtime).sort(), Object.keys(META).sort());
  assert.equal(runtime.snapshot_sha256, "ee");
  assert.equal(runtime.run_timeout_ms, 10000);
  assert.equal(runtime.offline_bytes, 1200);
  assert.ok(Object.isFrozen(runtime));
});

test("the site's home page has the root '.'", () => {
  const runtime = readRuntime(page(JSON.stringify({ ...META, root: "." }), "https://example.org/course/"));
  assert.equal(runtime.root, "https://example.org/course/");
});

test("no tag, one that does not parse, or one without its fields gives no runtime", (t) => {
  t.mock.method(console, "error", () => {});
  assert.equal(readRuntime(page(null)), null);
  assert.equal(readRuntime(page("{not json")), null);
  assert.equal(readRuntime(page(JSON.stringify({ ...META, run_timeout_ms: 0 }))), null);
  assert.equal(readRuntime(page(JSON.stringify({ ...META, worker: "" }))), null);
  assert.equal(readRuntime(page("[]")), null);
  assert.equal(console.error.mock.callCount(), 4);
});

test("init carries the manifest's own fields under their names, and the connection's hint", () => {
  const runtime = readRuntime(page(JSON.stringify(META)));
  const init = initMessage(runtime, "slow");
  assert.ok(isToWorker(init));
  assert.deepEqual(Object.keys(init).sort(), ["type", ...Object.keys(SHAPES.toWorker.init)].sort());
  for (const field of Object.keys(SHAPES.toWorker.init)) {
    if (field !== "hint") assert.equal(init[field], runtime[field], field);
  }
  assert.equal(init.hint, "slow");
  assert.equal(init.pyodide, "https://example.org/course/assets/pyodide/0.29.0/");
});
