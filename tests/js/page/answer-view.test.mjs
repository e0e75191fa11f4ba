// A widget's answer: Python's sentence and the bars' shares put in place, with no arithmetic.
import { test } from "node:test";
import assert from "node:assert/strict";

import { DOM } from "../../../course_calculators/browser/shared/contract.js";
import { showAnswer } from "../../../course_calculators/browser/page/answer-view.js";
import { FakeElement, fakeRoot } from "../fake-dom.mjs";

function bar() {
  const parts = ["weights", "free"].map((name) => Object.assign(new FakeElement("span", { dataset: { barPart: name } }), { style: {} }));
  const texts = ["weights", "free"].map((name) => new FakeElement("span", { dataset: { barText: name } }));
  const track = new FakeElement("div");
  const el = new FakeElement("div", { dataset: { bar: "Memory per GPU" } })
    .answer({ [DOM.barPart]: parts, [DOM.barText]: texts, [DOM.barSummary]: [track] });
  return { el, parts, texts, track };
}

test("the sentence and each part's share are Python's", () => {
  const sentence = new FakeElement("p");
  const b = bar();
  const root = fakeRoot({ [DOM.answer]: [sentence], [DOM.bar]: [b.el] });
  showAnswer(root, {
    answer: "It holds 27 requests.",
    bars: { "Memory per GPU": { parts: [{ name: "weights", text: "15 GiB", share: 62.5 }, { name: "free", text: "9 GiB", share: 37.5 }],
                                summary: "Memory per GPU: weights 15 GiB, free 9 GiB." } },
  });
  assert.equal(sentence.textContent, "It holds 27 requests.");
  assert.deepEqual(b.parts.map((p) => p.style.width), ["62.5%", "37.5%"]);
  assert.deepEqual(b.texts.map((t) => t.textContent), ["15 GiB", "9 GiB"]);
  assert.equal(b.track.getAttribute("aria-label"), "Memory per GPU: weights 15 GiB, free 9 GiB.");
});

test("a bar not computed empties: no old width stays as if current", () => {
  const b = bar();
  b.parts.forEach((p) => { p.style.width = "50%"; });
  showAnswer(fakeRoot({ [DOM.bar]: [b.el] }), { answer: "", bars: { "Memory per GPU": { parts: [], summary: "Memory per GPU: not computed." } } });
  assert.deepEqual(b.parts.map((p) => p.style.width), ["0%", "0%"]);
  assert.deepEqual(b.texts.map((t) => t.textContent), ["", ""]);
});

test("an optional part at 0 hides its legend entry, and shows it again once it is not", () => {
  const keys = ["weights", "lora"].map((name) => new FakeElement("li", { dataset: { barKey: name } }));
  const el = new FakeElement("div", { dataset: { bar: "Memory per GPU" } }).answer({ [DOM.barKey]: keys });
  const root = fakeRoot({ [DOM.bar]: [el] });
  const drawn = (shown) => ({ answer: "", bars: { "Memory per GPU": { parts: [
    { name: "weights", text: "15 GiB", share: 100, shown: true }, { name: "lora", text: "0 B", share: 0, shown }], summary: "" } } });
  showAnswer(root, drawn(false));
  assert.deepEqual(keys.map((k) => k.hidden), [false, true]);
  showAnswer(root, drawn(true));
  assert.deepEqual(keys.map((k) => k.hidden), [false, false]);
});
