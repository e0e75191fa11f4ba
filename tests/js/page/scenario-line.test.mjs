// "Your scenario": which of a widget's values are the reader's, from where; a filled shape is
// counted under what fills it.
import { test } from "node:test";
import assert from "node:assert/strict";

import { Scenario } from "../../../course_calculators/browser/page/scenario.js";
import { scenarioEntries, showScenarioLine } from "../../../course_calculators/browser/page/scenario-line.js";
import { DOM } from "../../../course_calculators/browser/shared/contract.js";
import { fakeDocument, fakeRoot } from "../fake-dom.mjs";

function storage() {
  const data = {};
  return { getItem: (k) => (k in data ? data[k] : null), setItem: (k, v) => { data[k] = String(v); } };
}

function field(tagName, name, value, dataset = {}, label = name) {
  return { tagName, name, value, dataset, labels: [{ textContent: label }],
           options: dataset.options ? dataset.options.map(([v, t]) => ({ value: v, text: t })) : [] };
}

test("entries name each value and its origin; a pasted config counts the fields it fills", () => {
  const here = { path: "/kv/", title: "KV cache" };
  const s = new Scenario(storage(), "", here);
  const config = field("TEXTAREA", "config", '{"a": 1}', { scenario: "config", fills: "model layers" }, "Or paste a config.json");
  const model = field("SELECT", "model", "custom", { scenario: "model", fills: "layers", custom: "custom", options: [["custom", "Custom shape"]] }, "Model");
  const layers = field("INPUT", "layers", "40", { scenario: "layers" }, "Layers (layers)");
  const context = field("INPUT", "context", "32768", { scenario: "context" }, "Context length (tokens)");
  s.set("config", config.value);
  s.set("layers", "40");
  s.set("context", "32768");
  const form = { scenarioFields: () => [["config", "config", config], ["model", "model", model], ["layers", "layers", layers], ["context", "context", context]] };
  const elsewhere = scenarioEntries(form, new Scenario(s.storage, "", { path: "/decode/", title: "Decode" }), "/decode/");
  assert.deepEqual(elsewhere.map((e) => [e.label, e.value, e.from]), [
    ["Or paste a config.json", "pasted (8 characters) (+1 of its fields)", "from “KV cache”"],
    ["Context length", "32768", "from “KV cache”"],
  ]);
  assert.equal(scenarioEntries(form, s, "/kv/")[1].from, "set on this page");
});

test("the line hides without a scenario and offers the page's example with one", () => {
  fakeDocument();
  const line = fakeRoot();
  line.hidden = true;
  const root = fakeRoot({ [DOM.scenarioLine]: [line] });
  let clicked = "";
  showScenarioLine(root, { entries: [{ name: "gpu", label: "GPU", value: "H200", from: "from a link" }], replaced: true,
                           example: false, onExample: () => { clicked = "example"; }, onMine: () => {}, onForget: () => {} });
  assert.equal(line.hidden, false);
  const button = line.children.find((c) => c.dataset && c.dataset.action === "scenario-example");
  button.dispatch("click");
  assert.equal(clicked, "example");
  showScenarioLine(root, { entries: [], replaced: false, example: false });
  assert.equal(line.hidden, true);
});
