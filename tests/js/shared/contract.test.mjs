// The id and name grammar and the URL key rule (course_calculators/contract.py has the same;
// tests/unit/course_calculators/test_contract_js.py checks that the patterns agree).
import { test } from "node:test";
import assert from "node:assert/strict";

import { ID, NAME, paramOfKey, urlKey } from "../../../course_calculators/browser/shared/contract.js";

test("ids are kebab-case and names snake_case", () => {
  ["kv-cache", "llama3-8b-128k", "a"].forEach((id) => assert.ok(ID.test(id), id));
  ["Kv-cache", "kv--cache", "kv-", "-kv", "kv_cache", "1kv", ""].forEach((id) => assert.ok(!ID.test(id), id));
  ["kv_heads", "context", "a1_"].forEach((n) => assert.ok(NAME.test(n), n));
  ["Kv", "kv-heads", "1a", "", "__proto__"].forEach((n) => assert.ok(!NAME.test(n), n));
});

test("chapter pages prefix the calculator id; embed pages use plain names", () => {
  assert.equal(urlKey("kv-cache", "context", false), "kv-cache.context");
  assert.equal(urlKey("kv-cache", "context", true), "context");
  assert.equal(paramOfKey("kv-cache.context", "kv-cache", false), "context");
  assert.equal(paramOfKey("kv-cache.", "kv-cache", false), "");
  assert.equal(paramOfKey("sampling.context", "kv-cache", false), null);
  assert.equal(paramOfKey("context", "kv-cache", false), null);
  assert.equal(paramOfKey("context", "kv-cache", true), "context");
  assert.equal(paramOfKey("kv-cache.context", "kv-cache", true), "kv-cache.context"); // an embed reads no prefix
});
