// The chapter's shared choices: read from a link's short keys or the session, written back to
// both, never a select's custom value, cleared by a reset.
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
  assert.deepEqual(JSON.parse(storage.data["calculators-scenario"]), { gpu: "h200", model: "qwen2.5-72b" });
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
