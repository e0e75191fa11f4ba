// The one reader of the plugin's JSON meta tags: the tag's JSON, no tag, content that is not JSON.
import { test } from "node:test";
import assert from "node:assert/strict";

import { metaJson } from "../../../course_calculators/browser/shared/meta-tag.js";

function page(tags) {
  return { querySelector: (sel) => {
    const name = /^meta\[name="(.+)"\]$/.exec(sel)[1];
    return name in tags ? { getAttribute: (attr) => (attr === "content" ? tags[name] : null) } : null;
  } };
}

test("a tag's JSON, parsed", () => {
  assert.deepEqual(metaJson(page({ "calculators-runtime": '{"root": "../"}' }), "calculators-runtime"), { root: "../" });
});

test("no such tag: undefined; content that is not JSON: null", () => {
  const doc = page({ "calculators-live": "{not json" });
  assert.equal(metaJson(doc, "calculators-runtime"), undefined);
  assert.equal(metaJson(doc, "calculators-live"), null);
});
