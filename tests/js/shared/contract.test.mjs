// The id and name grammar and the URL key rules (course_calculators/contract.py has the same;
// tests/unit/course_calculators/test_contract_js.py checks that the patterns agree, and that the
// shared choices' table below is its own).
import { test } from "node:test";
import assert from "node:assert/strict";

import { ID, NAME, paramOfKey, scenarioKey, scenarioOfKey, urlKey, urlName } from "../../../course_calculators/browser/shared/contract.js";

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

test("a shared choice travels under its scenario's own name, a plain key", () => {
  const cases = [
    ["gpu", "gpu"], ["kv_dtype", "kv_dtype"], ["kv-cache.context", null], ["kv-cache.pin", null], ["", null],
    ["GPU", null], ["utm-source", null],
  ];
  for (const [key, scenario] of cases) {
    assert.equal(scenarioOfKey(key), scenario, key);
    if (scenario) assert.equal(scenarioKey(scenario), key);
  }
});

test("a named instance has keys of its own; the default instance keeps the calculator's", () => {
  // tests/unit/course_calculators/test_contract_js.py checks this table against contract.py.
  assert.equal(urlKey(urlName("kv-cache", ""), "context", false), "kv-cache.context");
  assert.equal(urlKey(urlName("kv-cache", "second"), "context", false), "kv-cache~second.context");
  assert.equal(urlKey(urlName("kv-cache", "second"), "pin", false), "kv-cache~second.pin");
  assert.equal(urlName("kv-cache", undefined), "kv-cache");
  assert.equal(paramOfKey("kv-cache~second.context", "kv-cache", false), null); // not the default's
  assert.equal(paramOfKey("kv-cache.context", "kv-cache~second", false), null); // not the instance's
  assert.equal(paramOfKey("kv-cache~second.context", "kv-cache~second", false), "context");
  assert.equal(scenarioOfKey("kv-cache~second.context"), null);
});
