// The neighbourhood table's lookup (browser/page/neighbourhood.js): a state the build computed
// answers, any other has no answer. The table below has the shape plugin/neighbourhood.py writes
// (tests/unit/course_calculators/plugin/test_neighbourhood.py checks the Python side).
import { test } from "node:test";
import assert from "node:assert/strict";

import { differences, loadTable, lookup, parseTable, sameValue } from "../../../course_calculators/browser/page/neighbourhood.js";

const TABLE = JSON.stringify({
  v: 2,
  numbers: ["context", "layers"],
  base: { model: "m8b", layers: "32", context: "4096", config: "" },
  outputs: ["bytes", "fits"],
  base_out: [["100", "100 B"], ["1", "yes"]],
  base_notes: "",
  base_changed: {},
  base_pin: "default",
  base_slider: { context: 12 },
  base_text: { context: "4,096 tokens" },
  base_scenario: { model: "m8b", layers: null, context: "4096" },
  entries: [
    { set: ["context", "8192"], in: { context: "8192" }, out: [[0, "200", "200 B"]], notes: "", changed: { context: "8192" }, pin: "context=8192",
      slider: { context: 13 }, text: { context: "8,192 tokens" }, scenario: { context: "8192" } },
    // a model fills its shape: the entry's inputs hold the filled field too
    { set: ["model", "m70b"], in: { model: "m70b", layers: "80" }, out: [[0, "900", "900 B"], [1, "0", "no"]],
      notes: "Does not fit.", changed: { model: "m70b" }, slider: {}, text: {} },
    // a filled field moved: the model turns custom
    { set: ["layers", "40"], in: { model: "custom", layers: "40" }, out: [[0, "125", "125 B"]], notes: "Model is now custom.",
      changed: { model: "custom", layers: "40" }, slider: {}, text: {}, scenario: { model: null, layers: "40" } },
  ],
});

const table = parseTable(TABLE);
const form = (over = {}) => Object.assign({ model: "m8b", layers: "32", context: "4096", config: "" }, over);

test("no table, or one of another version, is null", () => {
  assert.equal(parseTable(""), null);
  assert.equal(parseTable("{not json"), null);
  assert.equal(parseTable(JSON.stringify({ v: 99, entries: [], base: {} })), null);
  assert.equal(parseTable(JSON.stringify({ v: 1, entries: [], base: {} })), null); // before charts
  assert.equal(lookup(null, form()), null);
});

test("the rendered state answers with the build's own outputs", () => {
  const got = lookup(table, form());
  assert.equal(got.base, true);
  assert.deepEqual(got.raw, { bytes: "100", fits: "1" });
  assert.deepEqual(got.notes, []);
});

test("a slider stop answers with its outputs, the others kept from the rendered state", () => {
  const got = lookup(table, form({ context: "8192" }));
  assert.equal(got.base, false);
  assert.deepEqual(got.raw, { bytes: "200", fits: "1" });
  assert.deepEqual(got.text, { bytes: "200 B", fits: "yes" });
  assert.equal(got.slider.context, 13);
  assert.deepEqual(got.changed, { context: "8192" });
  assert.equal(got.pin, "context=8192"); // what the Pin button pins before Python
  assert.equal(lookup(table, form()).pin, "default");
  assert.equal(got.inputs_text.context, "8,192 tokens");
});

test("a number field matches by value, not by spelling", () => {
  assert.ok(lookup(table, form({ context: "8192.0" })));
  assert.ok(lookup(table, form({ context: "8.192e3" })));
  assert.ok(sameValue(table, "context", " 4096 ", "4096"));
  assert.ok(!sameValue(table, "context", "", "0")); // an emptied field is no number
  assert.ok(!sameValue(table, "model", "M8B", "m8b")); // a choice is its word
});

test("an off-grid value, two controls moved, or free text have no answer", () => {
  assert.equal(lookup(table, form({ context: "5000" })), null);
  assert.equal(lookup(table, form({ context: "8192", model: "m70b" })), null);
  assert.equal(lookup(table, form({ config: "{}" })), null);
  assert.equal(lookup(table, form({ context: "" })), null);
});

test("a choice that fills answers both as the reader set it and as Python left the fields", () => {
  const set = lookup(table, form({ model: "m70b" }));
  assert.deepEqual(set.raw, { bytes: "900", fits: "0" });
  assert.equal(set.inputs.layers, "80"); // the form then shows the filled field
  assert.deepEqual(set.notes, ["Does not fit."]);
  assert.deepEqual(lookup(table, form({ model: "m70b", layers: "80" })).raw, set.raw);
  const custom = lookup(table, form({ layers: "40" }));
  assert.equal(custom.inputs.model, "custom");
  assert.deepEqual(lookup(table, form({ layers: "40", model: "custom" })).raw, custom.raw);
});

test("an answer says what each shared field carries, as Python's run of that state said", () => {
  assert.deepEqual(lookup(table, form()).scenario, { model: "m8b", layers: null, context: "4096" });
  assert.deepEqual(lookup(table, form({ context: "8192" })).scenario, { model: "m8b", layers: null, context: "8192" });
  // the model turned custom: it carries nothing, and the shape the reader made carries itself
  assert.deepEqual(lookup(table, form({ layers: "40" })).scenario, { model: null, layers: "40", context: "4096" });
});

test("differences are the fields that differ from the rendered state", () => {
  assert.deepEqual(differences(table, form({ context: "8192", other: "x" })), ["context"]);
});

// A table that carries its entries' charts (plugin/neighbourhood.py does when they fit whole).
const CHART = (v) => [{ kind: "line", series: [{ name: "y", values: [v, v] }], summary: `y ${v}` }];
const charted = parseTable(JSON.stringify({
  ...JSON.parse(TABLE),
  charts: true,
  entries: [
    { ...JSON.parse(TABLE).entries[0], charts: CHART(200) },
    { ...JSON.parse(TABLE).entries[1] }, // its charts are the rendered state's
  ],
}));

test("a table with charts answers a move with that state's charts, or says they are the build's", () => {
  const moved = lookup(charted, form({ context: "8192" }));
  assert.deepEqual(moved.charts, CHART(200));
  assert.equal(moved.chartsBuilt, false);
  const same = lookup(charted, form({ model: "m70b" }));
  assert.equal(same.charts, null);
  assert.equal(same.chartsBuilt, true);
  const base = lookup(charted, form());
  assert.equal(base.charts, null);
  assert.equal(base.chartsBuilt, true);
});

test("a table without charts gives none for a move: the page marks the charts not yet computed", () => {
  const moved = lookup(table, form({ context: "8192" }));
  assert.equal(moved.charts, null);
  assert.equal(moved.chartsBuilt, false);
  assert.equal(lookup(table, form()).chartsBuilt, true); // the rendered state's are the build's
});

test("a table is fetched once per address, shared by the widgets that ask, and a failed fetch is tried again", async () => {
  const asked = [];
  const read = async (url) => { asked.push(url); return TABLE; };
  const site = "https://site/course/";
  const [a, b] = await Promise.all([loadTable("t/1.json", site, read), loadTable("t/1.json", site, read)]);
  assert.equal(a, b);
  assert.equal(a.base.context, "4096");
  assert.deepEqual(asked, ["https://site/course/t/1.json"]); // relative to the site's root

  let fail = true;
  const flaky = async (url) => { asked.push(url); if (fail) throw new Error("offline"); return TABLE; };
  assert.equal(await loadTable("t/2.json", site, flaky), null);
  fail = false;
  assert.equal((await loadTable("t/2.json", site, flaky)).base.model, "m8b");
  assert.equal(await loadTable("", site, read), null); // a widget without a table
  assert.equal(await loadTable(null, site, read), null);
  assert.equal(await loadTable("t/3.json", site, async () => "{\"v\":1}"), null); // another version
});
