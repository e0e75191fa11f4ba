// The chapter's shared choices: read from a link's short keys or the store, written back to
// both with where each came from, never a select's custom value, cleared by a reset.
import { test } from "node:test";
import assert from "node:assert/strict";

import { Scenario } from "../../../course_calculators/browser/page/scenario.js";

function memoryStorage(initial = {}) {
  const data = { ...initial };
  return { getItem: (k) => (k in data ? data[k] : null), setItem: (k, v) => { data[k] = String(v); }, data };
}

function select(value, options, custom = "custom") {
  return { tagName: "SELECT", value, dataset: { custom }, options: options.map((v) => ({ value: v })) };
}

function form(fields) {
  return { scenarioFields: () => fields };
}

test("a link's short keys win over the session's values", () => {
  const storage = memoryStorage({ "calculators-scenario": JSON.stringify({ gpu: "h100-sxm", gpus: "2" }) });
  const scenario = new Scenario(storage, "?gpu=h200&kv-cache.gpus=4");
  const gpu = select("h100-sxm", ["h100-sxm", "h200"]);
  const gpus = { tagName: "INPUT", value: "1", dataset: {} };
  assert.deepEqual(scenario.valuesFor(form([["gpu", "gpu", gpu], ["gpus", "gpus", gpus]])), { gpu: "h200", gpus: "2" });
});

test("a value a select cannot show, or its custom value, is not used or shared", () => {
  const scenario = new Scenario(memoryStorage(), "?model=no-such-model");
  const model = select("llama-3.1-8b", ["llama-3.1-8b", "custom"]);
  assert.deepEqual(scenario.valuesFor(form([["model", "model", model]])), {});
  assert.equal(scenario.set("model", "custom", model), false);
  assert.equal(scenario.set("model", "llama-3.1-8b", model), true);
});

test("choices are kept for the next pages, forgotten one by one, cleared by a reset", () => {
  const storage = memoryStorage();
  const scenario = new Scenario(storage, "");
  scenario.set("gpu", "h200");
  scenario.set("model", "qwen2.5-72b");
  assert.deepEqual(JSON.parse(storage.data["calculators-scenario"]).values, { gpu: "h200", model: "qwen2.5-72b" });
  scenario.forget("model");
  assert.deepEqual(new Scenario(storage, "").values, { gpu: "h200" });
  scenario.clear();
  assert.deepEqual(new Scenario(storage, "").values, {});
});

test("the address carries the page's choices in short keys, and drops cleared ones", () => {
  const scenario = new Scenario(memoryStorage(), "");
  scenario.set("gpu", "h200");
  const url = scenario.withKeys("https://site.test/inference/kv-cache/?kv-cache.context=4096&gpus=8", new Set(["gpu", "gpus"]));
  assert.equal(url.search, "?kv-cache.context=4096&gpu=h200");
});

test("storage that fails or holds junk never breaks a page", () => {
  const broken = { getItem: () => "{not json", setItem: () => { throw new Error("quota"); } };
  const scenario = new Scenario(broken, "");
  assert.deepEqual(scenario.values, {});
  scenario.set("gpu", "h200"); // does not throw
  assert.equal(new Scenario(null, "").values.gpu, undefined);
});

test("each value says where it came from: a link, this page, another page", () => {
  const storage = memoryStorage();
  const page = { path: "/inference/kv-cache/", title: "The KV cache" };
  const scenario = new Scenario(storage, "?gpu=h200", page);
  const gpu = select("h100-sxm", ["h100-sxm", "h200"]);
  const ctx = { tagName: "INPUT", value: "8192", dataset: {} };
  assert.deepEqual(scenario.valuesFor(form([["gpu", "gpu", gpu]])), { gpu: "h200" });
  scenario.set("context", "32768", ctx);
  assert.deepEqual(scenario.originOf("gpu", page.path), { from: "link", title: "The KV cache" });
  assert.deepEqual(scenario.originOf("context", page.path), { from: "here", title: "The KV cache" });
  // A new tab on another page: the same store.
  const other = new Scenario(storage, "", { path: "/inference/decode/", title: "Decode" });
  assert.deepEqual(other.originOf("context", "/inference/decode/"), { from: "elsewhere", title: "The KV cache" });
  assert.equal(other.originOf("model", "/inference/decode/"), null);
});

test("back through the history, the address's keys are older than the store", () => {
  const storage = memoryStorage();
  const scenario = new Scenario(storage, "", { path: "/a/", title: "A" });
  scenario.set("context", "65536");
  scenario.arrive("?context=4096", { path: "/b/", title: "B" }, true);
  const ctx = { tagName: "INPUT", value: "1", dataset: {} };
  assert.deepEqual(scenario.valuesFor(form([["context", "context", ctx]])), { context: "65536" });
  assert.equal(scenario.traversal, true);
  scenario.arrive("?context=4096", { path: "/b/", title: "B" }, false);
  assert.deepEqual(scenario.valuesFor(form([["context", "context", ctx]])), { context: "4096" });
  assert.equal(scenario.originOf("context", "/b/").from, "link");
});

test("an older entry (a plain object of values) is still read", () => {
  const storage = memoryStorage({ "calculators-scenario": JSON.stringify({ gpu: "h200" }) });
  assert.deepEqual(new Scenario(storage, "").values, { gpu: "h200" });
});
