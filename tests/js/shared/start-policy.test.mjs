// When Python may start on a page: after the first render, or at the reader's first touch for a
// connection that asks to save data; the worker's hint says the same.
import { test } from "node:test";
import assert from "node:assert/strict";

import { POLICY, startPolicy } from "../../../course_calculators/browser/shared/start-policy.js";
import { connectionHint } from "../../../course_calculators/browser/worker/boot-path.js";

test("Save-Data or a slow effective type waits for a touch; anything else starts after the first render", () => {
  assert.equal(startPolicy(undefined), POLICY.AFTER_RENDER); // no navigator.connection (Firefox, Safari)
  assert.equal(startPolicy({ effectiveType: "4g", saveData: false }), POLICY.AFTER_RENDER);
  for (const c of [{ saveData: true, effectiveType: "4g" }, { effectiveType: "3g" }, { effectiveType: "2g" }, { effectiveType: "slow-2g" }]) {
    assert.equal(startPolicy(c), POLICY.ON_TOUCH, JSON.stringify(c));
    assert.equal(connectionHint(c), "slow");
  }
  assert.equal(connectionHint({ effectiveType: "4g" }), "");
});
