// Pin and compare, the browser's part: the pin's URL key, and nothing computed (the pin itself is
// Python's: a result's `pin`).
import { test } from "node:test";
import assert from "node:assert/strict";

import { pinOfQuery, withPin } from "../../../course_calculators/browser/page/pin.js";

test("the pin's key is <calc>.pin on a chapter page and pin on an embed page", () => {
  const q = "?kv-cache.pin=context%3D131072&pin=default&sampling.pin=x";
  assert.equal(pinOfQuery(q, "kv-cache", false), "context=131072");
  assert.equal(pinOfQuery(q, "kv-cache", true), "default");
  assert.equal(pinOfQuery("?kv-cache.pin=%20", "kv-cache", false), "");
  assert.equal(pinOfQuery("?kv-cache.context=1", "kv-cache", false), "");
});

test("writing a pin keeps every other key; an empty pin removes it", () => {
  const href = "https://x.test/p/?kv-cache.context=5&sampling.pin=default#calc-kv-cache";
  const pinned = withPin(href, "kv-cache", false, "context=8192");
  assert.equal(pinned.searchParams.get("kv-cache.pin"), "context=8192");
  assert.equal(pinned.searchParams.get("sampling.pin"), "default");
  assert.equal(pinned.hash, "#calc-kv-cache");
  assert.equal(withPin(pinned.href, "kv-cache", false, "").searchParams.has("kv-cache.pin"), false);
});
