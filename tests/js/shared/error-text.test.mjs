// A caught value's text: an Error's message, or anything else as a string.
import { test } from "node:test";
import assert from "node:assert/strict";

import { errorText } from "../../../course_calculators/browser/shared/error-text.js";

test("an error says its message; a thrown string, a number or nothing says itself", () => {
  assert.equal(errorText(new Error("wheel: HTTP 404")), "wheel: HTTP 404");
  assert.equal(errorText({ message: "aborted" }), "aborted"); // a DOMException has one too
  assert.equal(errorText("stalled"), "stalled");
  assert.equal(errorText(7), "7");
  assert.equal(errorText(undefined), "undefined");
  assert.equal(errorText(new Error("")), "Error"); // no message: the error itself
});
