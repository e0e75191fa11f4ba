// Pin and compare, the browser's part: the pin's URL key, what the pin's rows and label show while
// Python has not computed the pin (never "computing…" without Python), and nothing computed (the
// pin itself is Python's: a result's `pin`).
import { test } from "node:test";
import assert from "node:assert/strict";

import { FakeElement, fakeRoot } from "../fake-dom.mjs";
import { DOM, PENDING_ATTR } from "../../../course_calculators/browser/shared/contract.js";
import { PIN_LABEL, PinView, pinOfQuery, withPin } from "../../../course_calculators/browser/page/pin.js";

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

/** A widget's pin bar and one pinned row per output, as widget.html writes them; `built`: the
 * fence's pin and the build's comparison ({summary, outputs: {name: [raw, text, ratio, ratio_text]}}). */
function pinWidget(names, built = null) {
  const rows = names.map((name) => {
    const out = built && built.outputs[name];
    const value = new FakeElement("span", { dataset: { pinned: name, value: out ? out[0] : "" }, textContent: out ? out[1] : "" });
    const ratio = new FakeElement("span", { dataset: { ratio: name, value: out ? out[2] : "" }, textContent: out ? "· now " + out[3] : "" });
    const row = new FakeElement("dd", { dataset: { pinnedFor: name } }).answer({ [DOM.pinnedValue]: [value], [DOM.ratio]: [ratio] });
    row.hidden = !out;
    return row;
  });
  const bar = new FakeElement("div", { dataset: { pin: built ? built.pin : "" } });
  const button = new FakeElement("button");
  const label = new FakeElement("span", { textContent: built ? built.summary : "" });
  const root = fakeRoot({ [DOM.pinBar]: [bar], [DOM.pinButton]: [button], [DOM.pinLabel]: [label], [DOM.pinnedRow]: rows });
  return { root, rows, label, button, view: new PinView(root, () => {}) };
}

const busy = (el) => el.hasAttribute(PENDING_ATTR) && el.getAttribute("aria-busy") === "true";
const text = (row) => [row.hidden, row.querySelector(DOM.pinnedValue).textContent, row.querySelector(DOM.ratio).textContent];
const BUILT = { pin: "context=4096", summary: "Pinned: context 4,096. Now: context 8,192.",
  outputs: { bytes: ["100", "100 B", "2", "2.00×"], fits: ["1", "yes", "", "same"] } };

test("pinning before Python marks the label and every row not yet computed, never 'computing…'", () => {
  const { view, rows, label } = pinWidget(["bytes", "fits"]);
  view.set("context=8192");
  view.beforePython(false, false);
  assert.equal(label.textContent, PIN_LABEL.WAITING);
  assert.ok(busy(label));
  rows.forEach((row) => { assert.ok(busy(row)); assert.deepEqual(text(row), [false, "", ""]); });
  assert.ok(!label.textContent.includes("computing"));
});

test("when Python cannot start the label says the pin cannot be computed without it", () => {
  const { view, rows, label } = pinWidget(["bytes"]);
  view.set("context=8192");
  view.beforePython(false, false);
  view.beforePython(false, true); // the boot failed or timed out
  assert.equal(label.textContent, PIN_LABEL.NO_PYTHON);
  assert.ok(busy(label) && busy(rows[0]));
  view.beforePython(false, false); // "Try again": starting once more
  assert.equal(label.textContent, PIN_LABEL.WAITING);
});

test("the fence's pin at the rendered state keeps the build's comparison, before and without Python", () => {
  const { view, rows, label } = pinWidget(["bytes", "fits", "other"], BUILT);
  assert.equal(view.pinned, true);
  view.beforePython(true, true);
  assert.equal(label.textContent, BUILT.summary);
  assert.ok(!busy(label));
  assert.deepEqual(rows.map(text), [[false, "100 B", "· now 2.00×"], [false, "yes", "· now same"], [true, "", ""]]);
  assert.ok(rows.every((row) => !busy(row)));
});

test("another live state keeps the fence's pinned values but not its ratios; back at the rendered state, all of it", () => {
  const { view, rows, label } = pinWidget(["bytes", "other"], BUILT);
  view.beforePython(false, false); // a table answer: the live outputs moved
  assert.equal(label.textContent, PIN_LABEL.WAITING);
  assert.deepEqual(text(rows[0]), [false, "100 B", ""]);
  assert.equal(rows[0].querySelector(DOM.ratio).dataset.value, "");
  assert.deepEqual(text(rows[1]), [true, "", ""]); // the build had no pinned value for it
  assert.ok(busy(rows[0]));
  view.beforePython(true, false);
  assert.equal(label.textContent, BUILT.summary);
  assert.deepEqual(text(rows[0]), [false, "100 B", "· now 2.00×"]);
  assert.ok(!busy(rows[0]) && !busy(label));
});

test("another pin than the fence's shows none of the build's pinned values", () => {
  const { view, rows } = pinWidget(["bytes"], BUILT);
  view.set("context=65536");
  view.beforePython(true, false);
  assert.deepEqual(text(rows[0]), [false, "", ""]);
  assert.ok(busy(rows[0]));
});

test("with Python ready a new pin says computing until its result; Python's comparison clears every mark", () => {
  const { view, rows, label } = pinWidget(["bytes"]);
  view.set("context=8192");
  view.computing();
  assert.equal(label.textContent, PIN_LABEL.COMPUTING);
  view.show({ summary: "Pinned: context 8,192.", outputs: { bytes: { raw: "5", text: "5 B", ratio: "1", ratio_text: "1.00×" } } });
  assert.equal(label.textContent, "Pinned: context 8,192.");
  assert.ok(!busy(label) && !busy(rows[0]));
  assert.deepEqual(text(rows[0]), [false, "5 B", "· now 1.00×"]);
  view.computing(); // the same pin, the live inputs moved: its values come with the next result, no flicker
  assert.equal(label.textContent, "Pinned: context 8,192.");
  view.unavailable(PIN_LABEL.FAILED);
  assert.equal(label.textContent, PIN_LABEL.FAILED);
  assert.ok(busy(rows[0]));
});

test("unpinning hides every row and clears the marks", () => {
  const { view, rows, label, button } = pinWidget(["bytes"]);
  view.set("context=8192");
  view.beforePython(false, true);
  view.set("");
  assert.equal(button.getAttribute("aria-pressed"), "false");
  assert.equal(label.textContent, "");
  assert.ok(rows[0].hidden && !busy(rows[0]) && !busy(label));
  view.beforePython(false, true); // nothing pinned: nothing to say
  assert.equal(label.textContent, "");
});
