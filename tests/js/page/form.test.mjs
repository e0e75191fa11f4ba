// A widget's form: its fields by name, the reader's edits reported (complete or not), values put
// in and read back as the raw strings, the sliders beside the number fields, and Python's values
// shown without fighting a reader who is typing.
import { test } from "node:test";
import assert from "node:assert/strict";

import { FakeElement, fakeDocument, fakeRoot } from "../fake-dom.mjs";
import { DOM } from "../../../course_calculators/browser/shared/contract.js";
import { Form } from "../../../course_calculators/browser/page/form.js";

const doc = fakeDocument();

/** A form of: a model select that fills `layers` and `kv_heads`, those two number fields, a
 * `context` field with a log slider, a config text area that fills `layers`, a `gpu` select. */
function form() {
  const field = (tag, name, value, dataset = {}) => new FakeElement(tag, { name, value, dataset });
  const model = field("select", "model", "llama-3.1-8b", { fills: "layers kv_heads", custom: "custom", scenario: "model" });
  const layers = field("input", "layers", "32");
  const kvHeads = field("input", "kv_heads", "8");
  const context = field("input", "context", "8192");
  const config = field("textarea", "config", "", { fills: "layers" });
  const gpu = field("select", "gpu", "h100", { scenario: "gpu" });
  const slider = new FakeElement("input", { value: "3", dataset: { for: "context", stops: "[1024,2048,4096,8192,16384]" } });
  const fields = { model, layers, kv_heads: kvHeads, context, config, gpu };
  const root = fakeRoot({ [DOM.fields]: Object.values(fields), [DOM.sliders]: [slider], [DOM.form]: [new FakeElement("form")] });
  const edits = [];
  const f = new Form(root, (finalize, name) => edits.push([name, finalize]));
  return { f, fields, slider, edits };
}

test("the fields by name, and their raw strings", () => {
  const { f } = form();
  assert.ok(f.has("layers") && !f.has("nope"));
  assert.deepEqual(f.values(), { model: "llama-3.1-8b", layers: "32", kv_heads: "8", context: "8192", config: "", gpu: "h100" });
  f.setValues({ context: 4096, nope: "1" }); // names without a field are skipped
  assert.equal(f.values().context, "4096");
});

test("a reader's typing is an edit; leaving the field completes it", () => {
  const { fields, edits } = form();
  fields.context.value = "16";
  fields.context.dispatch("input");
  fields.context.dispatch("change");
  fields.gpu.value = "h200";
  fields.gpu.dispatch("change"); // a select's change is a choice, not a completed typing
  assert.deepEqual(edits, [["context", false], ["context", true], ["gpu", false]]);
});

test("a log slider stands for the stops Python listed; a typed value's position is Python's", () => {
  const { f, fields, slider, edits } = form();
  slider.value = "1";
  slider.dispatch("input");
  assert.equal(fields.context.value, "2048");
  assert.equal(slider.getAttribute("aria-valuetext"), "2048");
  assert.deepEqual(edits, [["context", false]]);
  fields.context.value = "15000";
  fields.context.dispatch("input");
  assert.equal(slider.value, "1"); // until Python answers
  assert.equal(slider.getAttribute("aria-valuetext"), "15000");
  f.showResult({ context: 15000 }, true, { context: 4 });
  assert.equal(slider.value, "4");
  f.setValues({ context: "" }); // an empty field leaves the slider where it is
  assert.equal(slider.value, "4");
});

test("Python's values replace the fields, except one the reader is typing in", () => {
  const { f, fields } = form();
  doc.activeElement = fields.context;
  fields.context.value = "1";
  f.showResult({ context: 1024, layers: 32, model: "llama-3.1-8b" }, false, { context: 0 });
  assert.equal(fields.context.value, "1"); // "1" on its way to "1024"
  assert.equal(f.sliders.get("context").value, "0");
  f.showResult({ context: 1024 }, true); // the edit is complete
  assert.equal(fields.context.value, "1024");
  doc.activeElement = null;
});

test("the fields that share a scenario, with its name", () => {
  const { f, fields } = form();
  assert.deepEqual(f.scenarioFields(), [["model", "model", fields.model], ["gpu", "gpu", fields.gpu]]);
});

test("the fields an edit may change: what fills it, what those fill, what it fills itself", () => {
  const field = (tag, name, value, dataset = {}) => new FakeElement(tag, { name, value, dataset });
  const fields = {
    model: field("select", "model", "custom", { fills: "layers", custom: "custom", scenario: "model" }),
    layers: field("input", "layers", "40", { scenario: "layers" }),
    config: field("textarea", "config", "{}", { fills: "layers model", scenario: "config" }),
    context: field("input", "context", "4096", { scenario: "context" }),
  };
  const f = new Form(fakeRoot({ [DOM.fields]: Object.values(fields), [DOM.sliders]: [],
                                [DOM.form]: [new FakeElement("form")] }), () => {});
  const sorted = (names) => [...names].sort();
  assert.deepEqual(sorted(f.linked("layers")), ["config", "layers", "model"]); // both fill it
  assert.deepEqual(sorted(f.linked("model")), ["config", "layers", "model"]); // the text fills the model too
  assert.deepEqual(sorted(f.linked("config")), ["config", "layers", "model"]);
  assert.deepEqual(f.linked("context"), ["context"]); // nothing fills it
  // whatever the values: which of them carry what is Python's answer (its `scenario`)
  fields.model.value = "llama-3.1-8b";
  fields.config.value = "";
  assert.deepEqual(sorted(f.linked("layers")), ["config", "layers", "model"]);
});

test("the form decides nothing about filled fields: Python's answer turns the model custom", () => {
  const { f, fields } = form();
  fields.layers.value = "40";
  fields.layers.dispatch("input");
  assert.equal(fields.model.value, "llama-3.1-8b"); // until Python says otherwise
  f.showResult({ model: "custom", layers: 40 }, true);
  assert.equal(fields.model.value, "custom");
});

test("a run sends the fields set since the last result last, in the order they were set", () => {
  const { f, fields } = form();
  fields.layers.value = "40";
  fields.layers.dispatch("input");
  f.enter({ model: "qwen2.5-7b" }); // a model after the shape: Python fills the shape from it
  assert.deepEqual(Object.keys(f.values()).slice(-2), ["layers", "model"]);
  f.enter({ layers: "28" });
  assert.deepEqual(Object.keys(f.values()).slice(-2), ["model", "layers"]);
  f.showResult({ model: "custom", layers: 28 }, true); // the fields now agree: no order left
  assert.deepEqual(Object.keys(f.values()), ["model", "layers", "kv_heads", "context", "config", "gpu"]);
});
