// One page session of the calculators: every widget of the pages a reader visits (instant
// navigation keeps the session), the one Python worker they share (worker-client.js), the shared
// choices between them (scenario.js), the embed page's messages and the offline copy. It routes
// the worker's messages to their widgets, restarts a worker whose calculation ran away, and
// binds the widgets of each new page (hydrate); under `mkdocs serve`, it takes a rebuilt wheel into
// the running worker (reloadPython). runtime.js creates it and hands it what it needs.

import { DOM } from "../shared/contract.js";
import { MSG, STATE } from "../shared/protocol.js";
import { initMessage } from "../shared/runtime-manifest.js";
import { POLICY } from "../shared/start-policy.js";
import { chartLoader } from "./chart-loader.js";
import { createEmbedPage } from "./embed-page.js";
import { OfflineCopy } from "./offline-copy.js";
import { hideRetry, showRetry } from "./retry-button.js";
import { Scenario } from "./scenario.js";
import { Widget } from "./widget.js";
import { WorkerClient } from "./worker-client.js";

// A page whose calculations keep running away stops restarting Python after this many times.
const MAX_RESTARTS = 3;
const WAITING_STATUS = "Static values: Python starts when you change one";

function localStore() {
  try { return window.localStorage; } catch (err) { return null; } // storage can be denied
}

/** The page the reader is on, as a scenario's origin names it. */
function currentPage() {
  const h1 = document.querySelector("h1");
  return { path: location.pathname, title: ((h1 && h1.textContent) || document.title || "").trim() };
}

/** Whether the first document was reached through the history (back or forward). */
function arrivedThroughHistory() {
  try {
    const nav = performance.getEntriesByType("navigation")[0];
    return Boolean(nav && nav.type === "back_forward");
  } catch (err) { return false; }
}

export class PageSession {
  /**
   * @param options.runtime the page's runtime manifest (runtime-manifest.js), or null: the widgets
   *   then keep their build-time numbers and say so
   * @param options.policy when Python may start (start-policy.js); under ON_TOUCH the widgets wait
   *   for the reader's first touch
   * @param options.createWorker () => a new Worker of this runtime (worker-client.js), or null
   */
  constructor({ runtime, policy, createWorker }) {
    this.runtime = runtime;
    this.policy = policy;
    this.widgets = new Map(); // element id → Widget
    this.restarts = 0;
    this.reloads = 0; // under mkdocs serve: the new wheels the worker took in place
    this.reloadMs = null; // the last one's time in the worker
    this.boot = null; // the worker's `ready` message, once it came
    this.touched = policy !== POLICY.ON_TOUCH;
    this.client = new WorkerClient({
      createWorker: runtime ? createWorker : null,
      init: runtime ? initMessage(runtime, policy === POLICY.ON_TOUCH ? "slow" : "") : null,
      bootTimeoutMs: runtime ? runtime.boot_timeout_ms : 0,
      runTimeoutMs: runtime ? runtime.run_timeout_ms : 0,
      onMessage: (msg) => this.onMessage(msg),
      onFail: (message) => this.onFail(message),
    });
    this.embedPage = createEmbedPage({
      widgetFor: (root) => Array.from(this.widgets.values()).find((w) => w.root === root),
      version: runtime ? runtime.version : "",
    });
    // Offline reading is the course's, offered on its pages: not on an embed page, framed or
    // opened alone (with no footer, its control went above the widget and pushed it down).
    this.offline = new OfflineCopy(this.embedPage ? null : runtime, navigator.connection);
    this.scenario = this.embedPage ? null : new Scenario(localStore(), location.search, currentPage());
    // Instant navigation back or forward: the next hydrate's page is reached through the history.
    this.traversal = arrivedThroughHistory();
    window.addEventListener("popstate", () => { this.traversal = true; });
    // Where the snippet's embed.js lives: the site's root.
    this.siteRoot = runtime ? runtime.root : new URL("/", location.href).href;
    this.withChart = chartLoader(runtime);
  }

  /** Python may start (the start policy said so): the widgets already bound begin loading. */
  allow() {
    this.client.allow();
    if (this.touched) return;
    this.touched = true;
    this.widgets.forEach((w) => w.start());
  }

  /** Bind every widget of the document not bound yet; forget those that left it. */
  hydrate(doc = document) {
    this.widgets.forEach((w, id) => {
      if (w.root.isConnected) return;
      w.destroy();
      this.widgets.delete(id);
    });
    if (this.scenario) this.scenario.arrive(location.search, currentPage(), this.traversal);
    this.traversal = false;
    let bound = 0;
    doc.querySelectorAll(DOM.widget).forEach((root) => {
      if (root.dataset.bound) return;
      bound += 1;
      root.dataset.bound = "1";
      let w;
      try {
        w = new Widget(root, this);
      } catch (err) {
        console.error("calculators: cannot bind widget", root.id, err);
        return;
      }
      this.widgets.set(w.id, w);
      if (this.touched) w.start();
      else w.setStatus(WAITING_STATUS);
    });
    if (this.scenario && bound) {
      this.widgets.forEach((w) => w.showScenario());
      this.writeScenarioKeys(); // the address carries the reader's scenario: a copied link, a new tab
    }
    this.offline.mount(doc);
  }

  onMessage(msg) {
    switch (msg.type) {
      case MSG.PROGRESS:
        this.widgets.forEach((w) => w.setStatus(msg.stage));
        break;
      case MSG.READY:
        this.boot = msg;
        this.widgets.forEach((w) => { if (!w.stalled) w.request(); });
        this.offline.auto();
        break;
      case MSG.RELOADED:
        this.reloads += 1;
        this.reloadMs = msg.ms;
        this.widgets.forEach((w) => {
          w.beforePython.forget(); // the build's answers before Python were the old Python's
          w.request();
        });
        break;
      case MSG.RESULT: {
        const w = this.widgets.get(msg.widget);
        if (w) w.onResult(msg.seq, msg.result);
        break;
      }
      case MSG.ERROR: {
        const w = this.widgets.get(msg.widget);
        if (w) w.onError(msg.seq, msg.message, msg.trace);
        break;
      }
    }
  }

  /** Under `mkdocs serve` (page/live-reload.js): `runtime` is the rebuilt site's manifest, whose
   * Python changed and nothing else of this page did. The running worker installs its wheel and
   * every widget runs again on it (MSG.RELOADED). False when no worker is running Python yet: the
   * build's numbers on the page are the old Python's, so the caller reloads the page. */
  reloadPython(runtime) {
    const init = initMessage(runtime, "");
    if (!this.widgets.size && !this.client.worker) {
      this.client.init = { ...init, hint: this.client.init.hint }; // nothing shown is Python's
    } else if (!this.client.reload(init)) {
      return false;
    }
    this.runtime = runtime;
    return true;
  }

  /** The worker is gone for good: every widget says why, with "Try again" when that may help. */
  onFail(message) {
    this.widgets.forEach((w) => {
      w.fail(message);
      if (this.client.retryable) showRetry(w.root, w.message, () => this.retry());
    });
  }

  /** A start that failed, once more: every widget loads again, with its numbers kept meanwhile. */
  retry() {
    this.widgets.forEach((w) => { hideRetry(w.root); w.message.textContent = ""; });
    if (this.client.retry()) this.widgets.forEach((w) => w.start());
  }

  /** A calculation ran past the time limit: end the worker, tell that widget, start a new one
   * (which recomputes every other widget whose run it ended). */
  timedOut(culprit) {
    this.client.stop();
    this.restarts += 1;
    this.widgets.forEach((w) => { if (w.queue.busy) w.cancelRun(w !== culprit); });
    culprit.stall(this.client.runTimeoutMs);
    if (this.restarts > MAX_RESTARTS) {
      this.client.fail("Interactive mode was switched off: calculations kept running too long. The values shown are the last computed.", false);
      return;
    }
    this.client.restart();
  }

  /** A reader set shared choices in `from` ([scenario, value, field] each): every other widget
   * with those scenarios takes them; `forget` names those that carry nothing now (Python's
   * answer: a model turned custom, an emptied text, a field its model fills). */
  shareScenario(from, entries, forget) {
    if (!this.scenario) return;
    [].concat(forget || []).filter(Boolean).forEach((name) => this.scenario.forget(name));
    const shared = entries.filter(([name, value, field]) => this.scenario.set(name, value, field));
    if (shared.length) {
      const values = Object.fromEntries(shared.map(([name, value]) => [name, value]));
      this.widgets.forEach((w) => {
        if (w === from) return;
        const mine = w.form.scenarioFields().filter(([, s]) => s in values).map(([param, s]) => [param, values[s]]);
        if (mine.length) w.enter(Object.fromEntries(mine));
      });
    }
    this.widgets.forEach((w) => w.showScenario());
    this.writeScenarioKeys();
  }

  /** Reset in any widget: the shared choices return to each widget's own starting values. */
  resetScenario(from) {
    if (!this.scenario) return;
    this.scenario.clear();
    this.widgets.forEach((w) => {
      if (w === from) return;
      const fields = w.form.scenarioFields().map(([param]) => param);
      if (!fields.length) return;
      w.form.setValues(Object.fromEntries(fields.map((param) => [param, w.initial[param]])));
      w.request();
    });
    this.widgets.forEach((w) => { w.replaced = false; w.example = false; w.showScenario(); });
    this.writeScenarioKeys();
  }

  /** The short keys of the shared choices this page's widgets use, in the address. */
  writeScenarioKeys() {
    const used = new Set();
    this.widgets.forEach((w) => w.form.scenarioFields().forEach(([, name]) => used.add(name)));
    const url = this.scenario.withKeys(location.href, used);
    if (url.href !== location.href) history.replaceState(history.state, "", url.href);
  }

  /** The read-only view of the session that window.calculatorsRuntime holds (the widget
   * contract documents it): for tests, the benchmark and an embedding page's scripts. */
  view() {
    const session = this;
    const ready = () => session.boot;
    return Object.freeze({
      MSG, STATE,
      get widgets() { return session.widgets; },
      get ready() { return session.client.ready; },
      get bootMs() { return ready() ? ready().bootMs : null; },
      get python() { return ready() ? ready().python : null; },
      get bootMode() { return ready() ? ready().mode : null; },
      get bootWhy() { return ready() ? ready().why || "" : null; },
      // Epoch milliseconds, made relative to this page's navigation start.
      get timings() {
        return ready() ? Object.fromEntries(Object.entries(ready().timings)
          .map(([k, t]) => [k, Math.round(t - performance.timeOrigin)])) : null;
      },
      get restarts() { return session.restarts; },
      get reloads() { return session.reloads; },
      get reloadMs() { return session.reloadMs; },
      get offline() { return session.offline.state; },
      get runTimeoutMs() { return session.client.runTimeoutMs; },
    });
  }
}
