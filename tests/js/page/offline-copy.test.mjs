// When the offline copy may be made without asking: a fast connection that is not metered.
import { test } from "node:test";
import assert from "node:assert/strict";

globalThis.navigator ??= {};
globalThis.window ??= globalThis;
const { unmetered } = await import("../../../course_calculators/browser/page/offline-copy.js");

test("the offline copy is made by itself only on a fast connection that is not metered", () => {
  assert.equal(unmetered(undefined), false); // nothing known: ask
  assert.equal(unmetered({ effectiveType: "4g", saveData: false }), true); // a desktop browser tells no type
  assert.equal(unmetered({ effectiveType: "4g", type: "wifi" }), true);
  assert.equal(unmetered({ effectiveType: "4g", type: "ethernet" }), true);
  assert.equal(unmetered({ effectiveType: "4g", type: "cellular" }), false);
  assert.equal(unmetered({ effectiveType: "4g", saveData: true, type: "wifi" }), false);
  assert.equal(unmetered({ effectiveType: "3g", type: "wifi" }), false);
});
