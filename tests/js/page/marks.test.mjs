// The contract's marks on one element: not yet computed (with aria-busy) on and off, failed with
// its value gone; no element, nothing to do.
import { test } from "node:test";
import assert from "node:assert/strict";

import { FakeElement } from "../fake-dom.mjs";
import { FAILED_ATTR, FAILED_TEXT, PENDING_ATTR } from "../../../course_calculators/browser/shared/contract.js";
import { markFailed, markPending } from "../../../course_calculators/browser/page/marks.js";

test("not yet computed: the mark and aria-busy come and go together", () => {
  const out = new FakeElement("output", { textContent: "16 GiB" });
  markPending(out, true);
  assert.equal(out.getAttribute(PENDING_ATTR), "");
  assert.equal(out.getAttribute("aria-busy"), "true");
  assert.equal(out.textContent, "16 GiB"); // the value stays, marked
  markPending(out, false);
  assert.equal(out.hasAttribute(PENDING_ATTR), false);
  assert.equal(out.hasAttribute("aria-busy"), false);
  markPending(null, true); // a pin label a widget does not have
});

test("failed: no number computed for other inputs stays", () => {
  const figure = new FakeElement("span", { textContent: "$537", dataset: { value: "536.82" } });
  markFailed(figure);
  assert.equal(figure.getAttribute(FAILED_ATTR), "");
  assert.equal(figure.dataset.value, "");
  assert.equal(figure.textContent, FAILED_TEXT);
});
