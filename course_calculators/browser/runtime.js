// The calculators' page script: binds every widget (`.calc[data-calc]`) to one shared Python
// worker, and keeps them bound across mkdocs-material's instant navigation.
//
// The plugin puts it at the top of every page's <head>, deferred: it downloads while the page
// parses and runs once the document is parsed (after the theme's own scripts), before
// DOMContentLoaded. The HTML arrives with correct outputs (computed at build time by the same
// Python); this script only moves values between the forms and the worker: it never computes a
// number. When Python may start is the start policy's (shared/start-policy.js): right after the
// page's own first render, so that the page's first paint, its largest paint and its main thread
// never wait for the runtime; or, for a reader who asked to save data or whose connection is
// slow, only when the reader first touches a widget (the build's numbers are right until then,
// and nothing of the runtime is fetched before). Everything else is page/session.js's, which
// this hands the runtime manifest, the policy and the way to create the worker. Under
// `mkdocs serve` only (the page then has the live meta tag), a rebuild whose only change is the
// calculators' Python reaches the running worker instead of reloading the page (page/live-reload.js).

import { DOM, LIVE_EVENT } from "./shared/contract.js";
import { readRuntime } from "./shared/runtime-manifest.js";
import { POLICY, TOUCH_EVENTS, afterFirstRender, startPolicy } from "./shared/start-policy.js";
import { resetPalette } from "./page/chart-config.js";
import { LiveReload, readLive } from "./page/live-reload.js";
import { startSearchOnFocus } from "./page/search-start.js";
import { PageSession } from "./page/session.js";

function main() {
  const runtime = readRuntime(document);
  const policy = startPolicy(navigator.connection);
  const createWorker = typeof Worker === "undefined" ? null
    : () => new Worker(runtime.worker, { type: "module", name: "calculators" });
  const session = new PageSession({ runtime, policy, createWorker });

  if (policy === POLICY.AFTER_RENDER) {
    afterFirstRender(() => session.allow());
  } else {
    const onFirstTouch = (event) => {
      if (!event.target.closest || !event.target.closest(DOM.widget)) return;
      TOUCH_EVENTS.forEach((type) => document.removeEventListener(type, onFirstTouch, true));
      session.allow();
    };
    TOUCH_EVENTS.forEach((type) => document.addEventListener(type, onFirstTouch, true));
  }

  startSearchOnFocus(document);
  window.addEventListener("load", () => { if (!session.client.worker && !session.widgets.size) session.offline.auto(); });
  // Printing: every chart shows the latest result, in the light palette (paper is white; the
  // print style sheet switches the page's colours, and the live charts are drawn again in them).
  let printedScheme = null;
  window.addEventListener("beforeprint", () => {
    if (document.body.getAttribute("data-md-color-scheme") === "slate") {
      printedScheme = "slate";
      document.body.setAttribute("data-md-color-scheme", "default"); // the observer below redraws
    }
    session.widgets.forEach((w) => w.charts.drawStale());
  });
  window.addEventListener("afterprint", () => {
    if (printedScheme) document.body.setAttribute("data-md-color-scheme", printedScheme);
    printedScheme = null;
  });
  // Charts follow the light/dark palette toggle.
  new MutationObserver(() => { resetPalette(); session.widgets.forEach((w) => w.charts.redraw()); })
    .observe(document.body, { attributes: true, attributeFilter: ["data-md-color-scheme"] });

  const live = runtime ? readLive(document) : null;
  if (live) {
    const loadedAt = location.pathname;
    const reloader = new LiveReload({
      live, runtime, session,
      fetchState: (url) => fetch(url, { cache: "no-store" }).then((r) => (r.ok ? r.json() : null)),
      reloadPage: () => location.reload(),
      moved: () => location.pathname !== loadedAt,
    });
    // The plugin's inline script fires this after each rebuild and reloads the page unless it
    // is cancelled: from here on, this page decides.
    document.addEventListener(LIVE_EVENT, (event) => {
      event.preventDefault();
      reloader.rebuilt();
    });
  }

  // The documented read-only handle (docs/widget-contract.md).
  window.calculatorsRuntime = session.view();
  if (session.embedPage) session.embedPage.start();

  // mkdocs-material announces every page, instant navigation included; another theme has one page.
  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(() => session.hydrate());
  } else {
    session.hydrate();
  }
}

// Deferred, the document is parsed by now; included otherwise, this waits for it.
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", main, { once: true });
else main();
