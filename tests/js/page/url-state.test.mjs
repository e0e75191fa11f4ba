// URL state: what a link says to one widget, the first run's raw inputs, and the links a widget
// writes (every input that differs from the calculator's own defaults, nothing else).
import { test, mock } from "node:test";
import assert from "node:assert/strict";

import { firstRunInputs, readQuery, throttle, withInputs } from "../../../course_calculators/browser/page/url-state.js";

const PARAMS = ["context", "gpu", "concurrency"];
const isParam = (name) => PARAMS.includes(name);
const chapter = { calc: "kv-cache", embed: false, isParam };
const embed = { calc: "kv-cache", embed: true, isParam };

test("a chapter page reads its own prefixed keys, keeps unknown ones of its prefix, ignores others", () => {
  const q = "?kv-cache.context=131072&kv-cache.gpu=h900&sampling.top_p=0.9&context=5&kv-cache.no_such=1&kv-cache.=x&theme=dark";
  assert.deepEqual(readQuery(q, chapter), {
    values: { context: "131072", gpu: "h900" },
    unknown: { no_such: "1" },
  });
});

test("an embed page reads plain keys and keeps no unknown ones (they may be the host's)", () => {
  assert.deepEqual(readQuery("context=4096&theme=dark&kv-cache.gpu=h100&utm_source=x", embed), {
    values: { context: "4096" }, unknown: {},
  });
});

test("a repeated key counts with its last value; values are the link's own strings", () => {
  assert.deepEqual(readQuery("?kv-cache.context=1&kv-cache.context=%3Cimg%3E", chapter).values, { context: "<img>" });
  assert.deepEqual(readQuery("?kv-cache.context=", chapter).values, { context: "" });
});

test("the first run sends the link's strings where the form still shows what it made of them", () => {
  // A number field emptied "0x1F"; a select could not hold "h900" and shows its first option.
  const link = { raw: { context: "0x1F", gpu: "h900", no_such: "1" }, shown: { context: "", gpu: "h100-sxm" } };
  assert.deepEqual(firstRunInputs({ context: "", gpu: "h100-sxm", concurrency: "1" }, link),
    { context: "0x1F", gpu: "h900", concurrency: "1", no_such: "1" });
  // The reader edited context since: their edit counts.
  assert.deepEqual(firstRunInputs({ context: "2048", gpu: "h100-sxm", concurrency: "1" }, link),
    { context: "2048", gpu: "h900", concurrency: "1", no_such: "1" });
  const formValues = { context: "1" };
  firstRunInputs(formValues, { raw: { context: "x" }, shown: { context: "1" } });
  assert.deepEqual(formValues, { context: "1" }); // not modified in place
  // A key named like an Object.prototype member is an unknown key, not a field.
  assert.equal(firstRunInputs({}, { raw: { constructor: "x" }, shown: {} }).constructor, "x");
});

test("a chapter link replaces this widget's keys and keeps every other", () => {
  const href = "https://s/inference/kv-cache/?sampling.top_p=0.9&kv-cache.context=8&kv-cache.no_such=1#fig";
  const url = withInputs(href, { ...chapter, changed: { gpu: "h200" } });
  assert.equal(url.href, "https://s/inference/kv-cache/?sampling.top_p=0.9&kv-cache.no_such=1&kv-cache.gpu=h200#fig");
  assert.equal(withInputs(url.href, { ...chapter, changed: {} }).search, "?sampling.top_p=0.9&kv-cache.no_such=1");
});

test("an embed link uses plain keys", () => {
  const url = withInputs("https://s/embed/kv-cache/?theme=dark&context=8", { ...embed, changed: { context: "131072", gpu: "h200" } });
  assert.equal(url.search, "?theme=dark&context=131072&gpu=h200");
});

test("the address is written at once, then at most once per interval, and the last value always", () => {
  mock.timers.enable({ apis: ["setTimeout"] });
  try {
    const written = [];
    const write = throttle((v) => written.push(v), 250);
    write(1);
    write(2);
    write(3);
    assert.deepEqual(written, [1]);
    mock.timers.tick(250);
    assert.deepEqual(written, [1, 3]);
    write(4);
    assert.deepEqual(written, [1, 3, 4]);
    mock.timers.tick(250);
    assert.deepEqual(written, [1, 3, 4, 4]);
  } finally {
    mock.timers.reset();
  }
});
