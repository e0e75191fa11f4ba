// mkdocs-material's search worker, started late.
//
// Material sends the search index to its worker as soon as a page loads, and building the index
// (lunr) keeps a core busy: on a two-core machine, the core Python's start needs. The plugin
// points Material at this wrapper instead; it holds the messages and loads the real worker (named
// in its own URL, ?worker=…, same origin only) when the reader first focuses the search box (the
// page says so on SEARCH_START_CHANNEL: page/search-start.js), or once START_AFTER_MS have
// passed. Material's messages and replies are unchanged. (A classic worker script: esbuild
// bundles it as one, with the one shared module it imports.)

import { SEARCH_START_CHANNEL } from "./shared/search-start.js";

// Half a minute: a reader who stays that long may search next, and by then Python has started
// on any link but the slowest. Building the index keeps a core busy, which a visit that never
// searches need not pay for.
const START_AFTER_MS = 30_000;
const held = [];
let started = false;

function realWorker() {
  const name = new URL(self.location.href).searchParams.get("worker");
  if (!name) return null;
  const url = new URL(name, self.location.href);
  return url.origin === self.location.origin ? url.href : null;
}

function start() {
  if (started) return;
  started = true;
  self.removeEventListener("message", hold);
  const url = realWorker();
  if (!url) return;
  importScripts(url);
  for (const data of held.splice(0)) self.dispatchEvent(new MessageEvent("message", { data }));
}

function hold(event) {
  held.push(event.data);
  if (held.length > 1) start(); // the first message sets the index up; any later one is a query
}

self.addEventListener("message", hold);
setTimeout(start, START_AFTER_MS);
if (typeof BroadcastChannel === "function") new BroadcastChannel(SEARCH_START_CHANNEL).onmessage = start;
