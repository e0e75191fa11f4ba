// The embed ↔ host messages: what the embed page accepts from its host, and what a host
// (embed.js) accepts from an embed, as the event details it passes on.
import { test } from "node:test";
import assert from "node:assert/strict";

import {
  EMBED_MSG, ERROR_MAX, HEIGHT_MAX, SOURCE, VALUE_MAX, embedMessage, readEmbedMessage, readHostMessage,
} from "../../../course_calculators/browser/shared/embed-protocol.js";

const isParam = (name) => ["context", "gpu"].includes(name);

test("every message carries source: calculators", () => {
  assert.equal(SOURCE, "calculators");
  assert.deepEqual(embedMessage(EMBED_MSG.RESIZE, { height: 10 }), { source: "calculators", type: "resize", height: 10 });
  assert.deepEqual(Object.values(EMBED_MSG), ["ready", "resize", "values", "error", "set", "get"]);
});

test("the embed accepts set with known parameters and short values, and get", () => {
  const set = { source: SOURCE, type: "set", inputs: { context: 4096, gpu: "h100-sxm" } };
  assert.deepEqual(readHostMessage(set, isParam), { type: "set", inputs: set.inputs });
  assert.deepEqual(readHostMessage({ source: SOURCE, type: "get" }, isParam), { type: "get" });
  assert.ok(readHostMessage({ source: SOURCE, type: "set", inputs: { gpu: "x".repeat(VALUE_MAX) } }, isParam));
});

test("the embed refuses anything else from its host", () => {
  const bad = [
    null, "set", [], { type: "set", inputs: { context: 1 } }, { source: "other", type: "get" },
    { source: SOURCE, type: "set", inputs: {} }, { source: SOURCE, type: "set", inputs: [2048] },
    { source: SOURCE, type: "set", inputs: { nope: 1 } }, { source: SOURCE, type: "set", inputs: { context: { v: 1 } } },
    { source: SOURCE, type: "set", inputs: { context: Infinity } }, { source: SOURCE, type: "set", inputs: { context: null } },
    { source: SOURCE, type: "set", inputs: { gpu: "x".repeat(VALUE_MAX + 1) } },
    { source: SOURCE, type: "values", inputs: {} }, { source: SOURCE, type: "resize", height: 3 },
  ];
  bad.forEach((msg) => assert.equal(readHostMessage(msg, isParam), null, JSON.stringify(msg)));
});

test("a host reads the embed's messages as event details: copies, cut to size", () => {
  assert.deepEqual(readEmbedMessage({ source: SOURCE, type: "resize", height: 300.2 }), { type: "resize", detail: { height: 301 } });
  assert.deepEqual(readEmbedMessage({ source: SOURCE, type: "ready", id: "kv-cache", version: "abc" }),
    { type: "ready", detail: { id: "kv-cache", version: "abc" } });
  assert.deepEqual(readEmbedMessage({ source: SOURCE, type: "ready", id: "kv-cache" }).detail.version, "");
  const error = readEmbedMessage({ source: SOURCE, type: "error", id: "kv-cache", message: "x".repeat(ERROR_MAX + 9) });
  assert.equal(error.detail.message.length, ERROR_MAX);
  const inputs = { context: 4096 };
  const values = readEmbedMessage({ source: SOURCE, type: "values", id: "kv-cache", inputs, outputs: { kv: "1" }, text: { kv: "1 B" } });
  assert.deepEqual(values.detail, { id: "kv-cache", inputs, outputs: { kv: "1" }, text: { kv: "1 B" } });
  assert.notEqual(values.detail.inputs, inputs);
  assert.deepEqual(readEmbedMessage({ source: SOURCE, type: "values", id: "a", inputs: {}, outputs: {}, text: [1] }).detail.text, {});
});

test("a host refuses embed messages of any other shape", () => {
  const bad = [
    { type: "resize", height: 3 }, { source: SOURCE, type: "resize", height: -1 },
    { source: SOURCE, type: "resize", height: HEIGHT_MAX + 1 }, { source: SOURCE, type: "resize", height: "3" },
    { source: SOURCE, type: "ready", id: "Not An Id" }, { source: SOURCE, type: "error", id: "kv-cache" },
    { source: SOURCE, type: "values", id: "kv-cache", inputs: { a: {} }, outputs: {} },
    { source: SOURCE, type: "values", id: "kv-cache", inputs: {} },
    { source: SOURCE, type: "set", inputs: { context: 1 } }, { source: SOURCE, type: "get" },
  ];
  bad.forEach((msg) => assert.equal(readEmbedMessage(msg), null, JSON.stringify(msg)));
});
