// Which elements a widget's values and marks cover: the outputs (text and data-value), the figures
// that follow it, the sentence, the charts and the root marked together; a failure leaves no
// number computed for other inputs; the printed page's input cells.
import { test } from "node:test";
import assert from "node:assert/strict";

import { FakeElement, fakeRoot } from "../fake-dom.mjs";
import { DOM, FAILED_ATTR, FAILED_TEXT, PENDING_ATTR } from "../../../course_calculators/browser/shared/contract.js";
import { OutputsView } from "../../../course_calculators/browser/page/outputs-view.js";

function widget() {
  const kv = new FakeElement("output", { dataset: { output: "kv", value: "1" }, textContent: "1 B" });
  const fits = new FakeElement("output", { dataset: { output: "fits", value: "true", bool: "true" },
                                           attrs: { "data-bool": "" }, textContent: "yes" });
  const sentence = new FakeElement("p");
  const chart = new FakeElement("figure");
  const cell = new FakeElement("td", { dataset: { input: "context" }, textContent: "8,192" });
  const root = fakeRoot({ [DOM.outputs]: [kv, fits], [DOM.answer]: [sentence], [DOM.chart]: [chart],
                          [DOM.printInput]: [cell] });
  const figure = new FakeElement("span", { textContent: "1 B", dataset: { value: "1" } });
  return { view: new OutputsView(root, [figure]), root, kv, fits, sentence, chart, cell, figure };
}

test("a result's text and raw value go to each output it has; the others stay", () => {
  const w = widget();
  w.view.show({ raw: { fits: false }, text: { fits: "no" } });
  assert.equal(w.fits.textContent, "no");
  assert.equal(w.fits.dataset.value, false);
  assert.equal(w.fits.dataset.bool, false);
  assert.equal(w.kv.textContent, "1 B");
  w.view.showInputs({ context: "65,536", other: "x" });
  assert.equal(w.cell.textContent, "65,536");
});

test("not yet computed: outputs, following figures, sentence, charts and root marked together", () => {
  const w = widget();
  w.view.markPending(true);
  for (const el of [w.kv, w.fits, w.figure, w.sentence, w.chart, w.root]) {
    assert.equal(el.getAttribute(PENDING_ATTR), "", el.tagName);
    assert.equal(el.getAttribute("aria-busy"), "true");
  }
  w.view.markPending(false);
  w.view.markCharts(true); // a chart the table does not carry, beside outputs it answers
  assert.equal(w.chart.hasAttribute(PENDING_ATTR), true);
  assert.equal(w.kv.hasAttribute(PENDING_ATTR), false);
});

test("failed: no value of other inputs stays, and the next result clears the marks", () => {
  const w = widget();
  w.view.markPending(true);
  w.view.markFailed();
  assert.equal(w.root.getAttribute(FAILED_ATTR), "");
  assert.equal(w.root.hasAttribute(PENDING_ATTR), false);
  for (const el of [w.kv, w.fits, w.figure]) {
    assert.equal(el.textContent, FAILED_TEXT);
    assert.equal(el.dataset.value, "");
  }
  w.view.clearMarks();
  for (const el of [w.root, w.kv, w.figure]) assert.equal(el.hasAttribute(FAILED_ATTR), false);
});
