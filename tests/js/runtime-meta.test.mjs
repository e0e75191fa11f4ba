// The runtime meta tag (build/manifest.py's for_page): its URLs, relative to the page, made
// absolute once, the site root among them.
import { test } from "node:test";
import assert from "node:assert/strict";

import { readRuntime } from "../../course_calculators/browser/shared/runtime-meta.js";

function page(content, baseURI = "https://example.org/course/inference/kv-cache/") {
  const meta = content === null ? null : { getAttribute: (name) => (name === "content" ? content : null) };
  return { baseURI, querySelector: (sel) => (sel === 'meta[name="calculators-runtime"]' ? meta : null) };
}

const META = {
  root: "../../", worker: "../../assets/calc/worker.js?v=abc", pyodide: "../../assets/pyodide/0.29.0/",
  lock: "../../assets/pyodide/pyodide-lock.json", charts: "", chartsIntegrity: "", lockSha256: "ff",
  snapshot: "../../assets/pyodide/snapshot-1.bin.gz", snapshotSha256: "ee", sw: "../../sw.js", version: "v1",
};

test("every URL is made absolute against the page; the root is the site's", () => {
  const runtime = readRuntime(page(JSON.stringify(META)));
  assert.equal(runtime.root, "https://example.org/course/");
  assert.equal(runtime.worker, "https://example.org/course/assets/calc/worker.js?v=abc");
  assert.equal(runtime.lock, "https://example.org/course/assets/pyodide/pyodide-lock.json?v=v1");
  assert.equal(runtime.sw, "https://example.org/course/sw.js");
  assert.equal(runtime.charts, "");
  assert.equal(runtime.snapshotSha256, "ee");
});

test("the site's home page has the root '.'", () => {
  const runtime = readRuntime(page(JSON.stringify({ ...META, root: "." }), "https://example.org/course/"));
  assert.equal(runtime.root, "https://example.org/course/");
});

test("no tag, or one that does not parse, gives no runtime", (t) => {
  t.mock.method(console, "error", () => {});
  assert.equal(readRuntime(page(null)), null);
  assert.equal(readRuntime(page("{not json")), null);
  assert.equal(console.error.mock.callCount(), 1);
});
