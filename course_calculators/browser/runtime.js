// Page side of the calculators: binds every widget (`.calc[data-calc]`) to one shared Python
// worker, and keeps them bound across mkdocs-material's instant navigation.
//
// The HTML arrives with correct outputs (computed at build time by the same Python). This script
// only moves values between the form and the worker: it never computes a number. Each widget's
// data-state goes static → loading → ready (or error). One job per module: page/worker-client.js
// (the worker), page/widget.js (one widget), page/embed-page.js (an embed page's messages),
// page/offline.js (the offline copy), page/retry.js (a start that failed); shared/ holds what the
// page, the worker and boot.js share. Under boot.js's ON_TOUCH policy (Save-Data, a slow
// connection) the widgets keep their build-time numbers, and Python starts when the reader
// first touches one.

import { DOM } from "./shared/contract.js";
import { MSG, STATE } from "./shared/protocol.js";
import { readRuntime } from "./shared/runtime-meta.js";
import { POLICY, TOUCH_EVENTS } from "./shared/start-policy.js";
import { chartLoader, resetPalette } from "./page/charts.js";
import { createEmbedPage } from "./page/embed-page.js";
import { OfflineCopy } from "./page/offline.js";
import { hideRetry, showRetry } from "./page/retry.js";
import { Scenario } from "./page/scenario.js";
import { Widget } from "./page/widget.js";
import { WorkerClient } from "./page/worker-client.js";

// boot.js (top of <head>) read the runtime meta tag and, on a page with widgets, already started
// the worker. Without it (it failed to load, or its integrity check refused it) the widgets keep
// their build-time numbers and say so.
const boot = window.calculatorsBoot || null;
const runtime = boot ? boot.runtime : null;
// A page whose calculations keep running away stops restarting Python after this many times.
const MAX_RESTARTS = 3;
const widgets = new Map(); // element id → Widget

const api = {
  widgets, MSG, STATE,
  get ready() { return client.ready; },
  bootMs: null, python: null, bootMode: null, bootWhy: null, timings: null, restarts: 0,
  get offline() { return offline.state; },
  // Python cannot be interrupted from outside (that needs SharedArrayBuffer, hence cross-origin
  // isolation headers, which GitHub Pages cannot send): a calculation that runs past this limit
  // ends its worker, and a new one boots (from the snapshot).
  runTimeoutMs: window.calculatorsRunTimeoutMs || 10000,
};

const client = new WorkerClient(boot, {
  bootTimeoutMs: window.calculatorsBootTimeoutMs || 60000,
  runTimeoutMs: () => api.runTimeoutMs,
  onMessage,
  onFail: (message) => widgets.forEach((w) => {
    w.fail(message);
    if (client.retryable) showRetry(w.root, w.message, retry);
  }),
});
const offline = new OfflineCopy(runtime, navigator.connection);

/** A start that failed, once more: every widget loads again, with its numbers kept meanwhile. */
function retry() {
  widgets.forEach((w) => { hideRetry(w.root); w.message.textContent = ""; });
  if (client.retry()) widgets.forEach((w) => w.start());
}

/** Under ON_TOUCH, whether Python waits for the reader's first touch of a widget. */
const untouched = () => Boolean(boot && boot.policy === POLICY.ON_TOUCH && !boot.allowed);
const WAITING_STATUS = "Static values: Python starts when you change one";

function onFirstTouch(event) {
  if (!event.target.closest || !event.target.closest(DOM.widget)) return;
  TOUCH_EVENTS.forEach((type) => document.removeEventListener(type, onFirstTouch, true));
  boot.allow();
  widgets.forEach((w) => w.start());
}
if (untouched()) TOUCH_EVENTS.forEach((type) => document.addEventListener(type, onFirstTouch, true));
const embedPage = createEmbedPage({
  widgetFor: (root) => Array.from(widgets.values()).find((w) => w.root === root),
  version: runtime ? runtime.version : "",
});
function sessionStore() {
  try { return window.sessionStorage; } catch (err) { return null; } // storage can be denied
}

const scenario = embedPage ? null : new Scenario(sessionStore(), location.search);

/** The short keys of the shared choices this page's widgets use, in the address. */
function writeScenarioKeys() {
  const used = new Set();
  widgets.forEach((w) => w.form.scenarioFields().forEach(([, name]) => used.add(name)));
  const url = scenario.withKeys(location.href, used);
  if (url.href !== location.href) history.replaceState(history.state, "", url.href);
}

const session = {
  client,
  embedPage,
  scenario,
  /** A reader set shared choices in `from` ([scenario, value, field] each): every other widget
   * with those scenarios takes them; `forget` names a choice they no longer match (the model of
   * a shape the reader typed). */
  shareScenario(from, entries, forget) {
    if (!scenario) return;
    if (forget) scenario.forget(forget);
    const shared = entries.filter(([name, value, field]) => scenario.set(name, value, field));
    if (!shared.length) { writeScenarioKeys(); return; }
    const values = Object.fromEntries(shared.map(([name, value]) => [name, value]));
    widgets.forEach((w) => {
      if (w === from) return;
      const mine = w.form.scenarioFields().filter(([, s]) => s in values).map(([param, s]) => [param, values[s]]);
      if (mine.length) w.enter(Object.fromEntries(mine));
    });
    writeScenarioKeys();
  },
  /** Reset in any widget: the shared choices return to each widget's own starting values. */
  resetScenario(from) {
    if (!scenario) return;
    scenario.clear();
    widgets.forEach((w) => {
      if (w === from) return;
      const fields = w.form.scenarioFields().map(([param]) => param);
      if (!fields.length) return;
      w.form.setValues(Object.fromEntries(fields.map((param) => [param, w.initial[param]])));
      w.request();
    });
    writeScenarioKeys();
  },
  // Where the snippet's embed.js lives: the meta tag's root (read here too when boot.js did not run).
  siteRoot: ((boot ? runtime : readRuntime(document)) || {}).root || new URL("/", location.href).href,
  withChart: chartLoader(runtime),
  timedOut,
};

function onMessage(msg) {
  switch (msg.type) {
    case MSG.PROGRESS:
      widgets.forEach((w) => w.setStatus(msg.stage));
      break;
    case MSG.READY:
      api.bootMs = msg.bootMs;
      api.python = msg.python;
      api.bootMode = msg.mode;
      api.bootWhy = msg.why || "";
      api.timings = Object.fromEntries(
        Object.entries(msg.timings).map(([k, t]) => [k, Math.round(t - performance.timeOrigin)]));
      widgets.forEach((w) => { if (!w.stalled) w.request(); });
      offline.auto();
      break;
    case MSG.RESULT: {
      const w = widgets.get(msg.widget);
      if (w) w.onResult(msg.seq, msg.result);
      break;
    }
    case MSG.ERROR: {
      const w = widgets.get(msg.widget);
      if (w) w.onError(msg.seq, msg.message);
      break;
    }
  }
}

/** A calculation ran past the time limit: end the worker, tell that widget, start a new one. */
function timedOut(culprit) {
  const limit = api.runTimeoutMs;
  client.stop();
  api.restarts += 1;
  widgets.forEach((w) => {
    if (!w.inflight) return;
    w.cancelRun(); // the new worker recomputes it (on `ready`), except the culprit
    w.dirty = w !== culprit;
  });
  culprit.stall(limit);
  if (api.restarts > MAX_RESTARTS) {
    client.fail("Interactive mode was switched off: calculations kept running too long. The values shown are the last computed.", false);
    return;
  }
  client.restart();
}

function hydrate() {
  widgets.forEach((w, id) => {
    if (w.root.isConnected) return;
    w.destroy();
    widgets.delete(id);
  });
  document.querySelectorAll(DOM.widget).forEach((root) => {
    if (root.dataset.bound) return;
    root.dataset.bound = "1";
    let w;
    try {
      w = new Widget(root, session);
    } catch (err) {
      console.error("calculators: cannot bind widget", root.id, err);
      return;
    }
    widgets.set(w.id, w);
    if (untouched()) w.setStatus(WAITING_STATUS);
    else w.start();
  });
  offline.mount();
}

window.addEventListener("load", () => { if (!client.worker && !widgets.size) offline.auto(); });
// Printing: every chart shows the latest result, in the light palette (paper is white; the print
// style sheet switches the page's colours, and the live charts are drawn again in them).
let printedScheme = null;
window.addEventListener("beforeprint", () => {
  if (document.body.getAttribute("data-md-color-scheme") === "slate") {
    printedScheme = "slate";
    document.body.setAttribute("data-md-color-scheme", "default"); // the observer below redraws
  }
  widgets.forEach((w) => w.charts.drawStale());
});
window.addEventListener("afterprint", () => {
  if (printedScheme) document.body.setAttribute("data-md-color-scheme", printedScheme);
  printedScheme = null;
});
// Charts follow the light/dark palette toggle.
new MutationObserver(() => { resetPalette(); widgets.forEach((w) => w.charts.redraw()); })
  .observe(document.body, { attributes: true, attributeFilter: ["data-md-color-scheme"] });

window.calculatorsRuntime = api;
if (embedPage) embedPage.start();

if (window.document$ && typeof window.document$.subscribe === "function") {
  window.document$.subscribe(() => hydrate()); // mkdocs-material: every page, instant navigation included
} else if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", hydrate);
} else {
  hydrate();
}
