// The reader's first focus on mkdocs-material's search box asks the deferred search worker to
// start, once, on its channel; a focus elsewhere asks nothing; without BroadcastChannel, nothing.
import { test } from "node:test";
import assert from "node:assert/strict";

import { SEARCH_START, SEARCH_START_CHANNEL } from "../../../course_calculators/browser/shared/search-start.js";
import { SEARCH_INPUT, startSearchOnFocus } from "../../../course_calculators/browser/page/search-start.js";

function fakeDocument() {
  const listeners = new Set();
  return {
    listeners,
    addEventListener(type, fn, capture) { assert.equal(type, "focusin"); assert.equal(capture, true); listeners.add(fn); },
    removeEventListener(type, fn) { listeners.delete(fn); },
    focus(target) { [...listeners].forEach((fn) => fn({ target })); },
  };
}

const element = (selector) => ({ matches: (s) => s === selector });

function recordingChannel(posted) {
  return class {
    constructor(name) { this.name = name; }
    postMessage(message) { posted.push([this.name, message]); }
  };
}

test("the first focus on the search box posts the start on its channel, once", () => {
  const doc = fakeDocument(), posted = [];
  startSearchOnFocus(doc, recordingChannel(posted));
  doc.focus(element("input[name=context]")); // a widget's field
  doc.focus({}); // the document itself (no matches)
  assert.deepEqual(posted, []);
  doc.focus(element(SEARCH_INPUT));
  doc.focus(element(SEARCH_INPUT));
  assert.deepEqual(posted, [[SEARCH_START_CHANNEL, SEARCH_START]]);
  assert.equal(doc.listeners.size, 0);
});

test("stopping before any focus posts nothing; no BroadcastChannel, no listener", () => {
  const doc = fakeDocument(), posted = [];
  const stop = startSearchOnFocus(doc, recordingChannel(posted));
  stop();
  doc.focus(element(SEARCH_INPUT));
  assert.deepEqual(posted, []);
  startSearchOnFocus(doc, null);
  assert.equal(doc.listeners.size, 0);
});
