// What a widget shows before Python can run (browser/page/before-python.js): the build's answer
// for a state its neighbourhood table holds, "not yet computed" for any other (and for every
// moved state while the table is on its way), the charts only when the table's answer has them
// for the pin the build drew, and whether the form holds the rendered state. The widget is a
// stand-in recording what it was told; the table has the shape plugin/neighbourhood.py writes.
import { test } from "node:test";
import assert from "node:assert/strict";

import { FakeElement, fakeRoot } from "../fake-dom.mjs";
import { DOM, NEIGHBOURHOOD_ATTR } from "../../../course_calculators/browser/shared/contract.js";
import { parseTable } from "../../../course_calculators/browser/page/neighbourhood.js";

globalThis.Node ??= { DOCUMENT_POSITION_FOLLOWING: 4 }; // inline-figures.js reads it on import
const { BeforePython } = await import("../../../course_calculators/browser/page/before-python.js");

const BUILT_CHARTS = [{ id: "built" }];
const OWN_CHARTS = [{ id: "context-8192" }];

/** A table over `context` (a slider) and `model` (a choice); `charts`: whether it carries its
 * states' charts (the context stop has its own, the model's are the rendered state's). */
function table(charts = true) {
  return parseTable(JSON.stringify({
    v: 2,
    numbers: ["context"],
    charts,
    base: { model: "m8b", context: "4096" },
    outputs: ["bytes", "fits"],
    base_out: [["100", "100 B"], ["1", "yes"]],
    base_notes: "",
    base_changed: {},
    base_pin: "default",
    base_slider: { context: 12 },
    base_text: { context: "4,096 tokens" },
    base_scenario: { model: "m8b", context: "4096" },
    entries: [
      { set: ["context", "8192"], in: { context: "8192" }, out: [[0, "200", "200 B"]], notes: "", changed: { context: "8192" },
        pin: "context=8192", slider: { context: 13 }, text: { context: "8,192 tokens" }, scenario: { context: "8192" },
        ...(charts ? { charts: OWN_CHARTS } : {}) },
      { set: ["model", "m70b"], in: { model: "m70b" }, out: [[1, "0", "no"]], notes: "Does not fit.",
        changed: { model: "m70b" }, pin: "model=m70b", slider: {}, text: {}, scenario: { model: "m70b" } },
    ],
  }));
}

/** A stand-in for page/widget.js's Widget, as far as before-python.js reads and calls it, and
 * the table's fetch, resolved by the test (`arrive`). */
function widget({ values = {}, recent = [], pin = "", built = "", failed = "" } = {}) {
  const holder = new FakeElement("div", { attrs: { [NEIGHBOURHOOD_ATTR]: "assets/calc/tables/abc.json" } });
  const root = fakeRoot({ [DOM.neighbourhood]: [holder] });
  root.isConnected = true;
  const figure = new FakeElement("span", { dataset: { output: "bytes", value: "100" }, textContent: "100 B" });
  const w = {
    root, figure, figures: [figure], last: null, finalize: false, urlWrites: 0, shared: [],
    session: { siteRoot: "https://x.test/course/" },
    client: { failed, canRun: false },
    message: new FakeElement("p"),
    form: {
      current: { model: "m8b", context: "4096", ...values }, recent: [...recent], results: [],
      values() { return { ...this.current }; },
      showResult(inputs, finalize, slider) { this.results.push({ inputs, finalize, slider }); this.recent = []; },
    },
    view: {
      pending: null, chartsPending: null, shown: null, inputs: null,
      markPending(on) { this.pending = on; },
      show(result) { this.shown = result; },
      showInputs(text) { this.inputs = text; },
      markCharts(on) { this.chartsPending = on; },
    },
    pinView: { pin, built, told: [], beforePython(rendered, noPython) { this.told.push([rendered, noPython]); } },
    charts: { data: BUILT_CHARTS, drawn: [], draw(data) { this.data = data; this.drawn.push(data); } },
    writeUrl() { w.urlWrites += 1; },
    share(scenario) { w.shared.push(scenario); },
  };
  let arrive;
  const fetched = new Promise((resolve) => { arrive = resolve; });
  const asked = [];
  const before = new BeforePython(w, (address, siteRoot) => { asked.push([address, siteRoot]); return fetched; });
  return { w, before, asked, arrive: async (t) => { arrive(t); await fetched; await null; } };
}

test("it asks for the widget's own table, by the address its HTML carries and the site's root", () => {
  const { asked, before } = widget();
  assert.deepEqual(asked, [["assets/calc/tables/abc.json", "https://x.test/course/"]]);
  assert.equal(before.table, null);
  assert.equal(before.answered, null);
  assert.equal(before.offTable, false);
});

test("bound on the fence's values: the HTML already shows them, nothing is marked or redrawn", () => {
  const { w, before } = widget();
  before.show(true);
  assert.equal(w.view.pending, false);
  assert.deepEqual(w.pinView.told, [[true, false]]);
  assert.equal(before.offTable, false);
  assert.equal(w.view.shown, null);
  assert.equal(w.urlWrites, 0);
});

test("a state set by a link before the table came is not yet computed, then answered when it comes", async () => {
  const { w, before, arrive } = widget({ values: { context: "8192" }, recent: ["context"] });
  before.show(true);
  assert.equal(w.view.pending, true);
  assert.deepEqual(w.pinView.told, [[false, false]]);
  assert.equal(before.offTable, true);
  assert.equal(before.answered, null);
  w.finalize = true;
  await arrive(table());
  assert.equal(before.offTable, false);
  assert.equal(w.view.pending, false);
  assert.deepEqual(w.view.shown.raw, { bytes: "200", fits: "1" });
  assert.equal(before.answered, w.view.shown);
  assert.equal(before.answered.pin, "context=8192"); // what Pin and Copy link use before Python
  assert.deepEqual(w.view.inputs, { context: "8,192 tokens" });
  assert.deepEqual(w.form.results, [{ inputs: { model: "m8b", context: "8192" }, finalize: true, slider: { context: 13 } }]);
  assert.equal(w.finalize, false);
  assert.equal(w.figure.textContent, "200 B"); // the prose's figure that follows the widget
  assert.equal(w.message.textContent, "");
  assert.equal(w.urlWrites, 1);
  assert.deepEqual(w.shared, [{ model: "m8b", context: "8192" }]);
});

test("a table that comes after Python answered, while Python can run, or to a page left, changes nothing", async () => {
  for (const late of [(w) => { w.last = { raw: {} }; }, (w) => { w.client.canRun = true; }]) {
    const { w, before, arrive } = widget({ values: { context: "8192" }, recent: ["context"] });
    before.show();
    late(w);
    await arrive(table());
    assert.ok(before.table); // kept for the next time Python cannot run
    assert.equal(w.view.shown, null);
    assert.equal(w.view.pending, true);
  }
  const gone = widget({ values: { context: "8192" }, recent: ["context"] });
  gone.before.show();
  gone.w.root.isConnected = false;
  await gone.arrive(table());
  assert.equal(gone.before.table, null);
  assert.equal(gone.w.view.shown, null);
  const unreadable = widget({ values: { context: "8192" }, recent: ["context"] });
  unreadable.before.show();
  await unreadable.arrive(null);
  assert.equal(unreadable.before.table, null);
  assert.equal(unreadable.w.view.pending, true);
});

test("with the table: a move it holds is answered, any other is not yet computed", async () => {
  const { w, before, arrive } = widget();
  await arrive(table());
  w.form.current.model = "m70b";
  before.show();
  assert.equal(before.offTable, false);
  assert.deepEqual(w.view.shown.raw, { bytes: "100", fits: "0" });
  assert.equal(w.message.textContent, "Does not fit.");
  w.form.current = { model: "m8b", context: "5000" }; // between two stops: no answer
  before.show();
  assert.equal(before.offTable, true);
  assert.equal(w.view.pending, true);
  assert.deepEqual(w.pinView.told.at(-1), [false, false]);
  w.form.current = { model: "m8b", context: "4096.0" }; // the rendered state, however it is spelled
  before.show();
  assert.equal(before.offTable, false);
  assert.equal(before.answered.base, true);
  assert.deepEqual(w.pinView.told.at(-1), [true, false]);
});

test("Python that never starts: the table's answer says its values are the build's", async () => {
  const { w, before, arrive } = widget({ failed: "Python could not load." });
  await arrive(table());
  w.form.current.model = "m70b";
  before.show();
  assert.equal(w.message.textContent, "Does not fit. Python could not start: these values were computed at build time for these inputs.");
  assert.deepEqual(w.pinView.told.at(-1), [false, true]);
  w.form.current.model = "m99"; // off the table: the pin says it cannot be computed
  before.show();
  assert.equal(w.view.pending, true);
  assert.deepEqual(w.pinView.told.at(-1), [false, true]);
});

test("the charts: the table's own for a state, the build's for the rendered state, else not yet computed", async () => {
  const { w, before, arrive } = widget();
  await arrive(table(true));
  w.form.current.context = "8192";
  before.show();
  assert.deepEqual(w.charts.data, OWN_CHARTS);
  assert.equal(w.view.chartsPending, false);
  w.form.current.context = "4096"; // back: the build's picture, drawn again
  before.show();
  assert.equal(w.charts.data, BUILT_CHARTS); // the very data the build drew, not a copy
  assert.deepEqual(w.charts.drawn, [OWN_CHARTS, BUILT_CHARTS]);
  w.form.current.model = "m70b"; // a state whose charts are the rendered state's: nothing to redraw
  before.show();
  assert.equal(w.charts.drawn.length, 2);
  assert.equal(w.view.chartsPending, false);

  const small = widget();
  await small.arrive(table(false)); // a table without charts (too big with them)
  small.w.form.current.context = "8192";
  small.before.show();
  assert.deepEqual(small.w.charts.drawn, []);
  assert.equal(small.w.view.chartsPending, true);
});

test("a pin other than the build's: the charts it would draw on are not yet computed", async () => {
  const { w, before, arrive } = widget({ pin: "context=2048", built: "default" });
  await arrive(table(true));
  w.form.current.context = "8192";
  before.show();
  assert.deepEqual(w.charts.drawn, []);
  assert.equal(w.view.chartsPending, true);
  assert.deepEqual(w.view.shown.raw, { bytes: "200", fits: "1" }); // the outputs are the table's still
});

test("the rendered state without a table: the fence's values, untouched, and no answer from Python", () => {
  const { w, before } = widget();
  assert.equal(before.atRendered(), true);
  w.form.recent = ["context"];
  assert.equal(before.atRendered(), false);
  w.form.recent = [];
  w.last = { raw: {} };
  assert.equal(before.atRendered(), false);
});

test("a table forgotten (Python changed under mkdocs serve) answers nothing more", async () => {
  const { w, before, arrive } = widget();
  await arrive(table());
  w.form.current.context = "8192";
  before.forget();
  before.show();
  assert.equal(before.offTable, true);
  assert.equal(w.view.pending, true);
  assert.equal(w.view.shown, null);
});
