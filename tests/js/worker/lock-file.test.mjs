// The lock file read for the wheel's URL and integrity: what Pyodide's loadPackage fetches, so that
// the worker's early download of the wheel is the very request Pyodide would have made.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";

import { WHEEL, sriOfHex, wheelOf } from "../../../course_calculators/browser/worker/lock-file.js";

test("a hex sha256 becomes the Subresource Integrity value of the same digest", () => {
  const digest = createHash("sha256").update("wheel").digest();
  assert.equal(sriOfHex(digest.toString("hex")), `sha256-${digest.toString("base64")}`);
});

test("the wheel's URL is its file name against the package base, with its integrity", () => {
  const sha = "ab".repeat(32);
  const lock = JSON.stringify({ packages: { [WHEEL]: { file_name: "0123/course_calculators-1-py3-none-any.whl", sha256: sha } } });
  assert.deepEqual(wheelOf(lock, "https://example.org/site/assets/pyodide/"), {
    url: "https://example.org/site/assets/pyodide/0123/course_calculators-1-py3-none-any.whl",
    integrity: sriOfHex(sha),
  });
});

test("a lock file without the wheel gives no early download", () => {
  assert.equal(wheelOf(JSON.stringify({ packages: {} }), "https://example.org/"), null);
});
