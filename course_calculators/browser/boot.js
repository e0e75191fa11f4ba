// Starts the calculators' Python worker as early as possible.
//
// The plugin puts this small script at the top of <head> (a classic script, before the style
// sheets, so it waits for nothing): on a page that holds a widget it creates the worker while
// the rest of the page downloads and parses, which saves the time the theme's scripts take to
// load. runtime.js, which runs after the theme's scripts, takes the worker over and replays any
// message it has already sent. On a page without widgets nothing starts until instant navigation
// brings one (runtime.js then calls start()).
(function () {
  "use strict";
  if (window.calculatorsBoot) return;

  function readRuntime() {
    const meta = document.querySelector('meta[name="calculators-runtime"]');
    if (!meta) return null;
    try {
      const raw = JSON.parse(meta.getAttribute("content"));
      const abs = (u) => (u ? new URL(u, document.baseURI).href : "");
      return {
        worker: abs(raw.worker), pyodide: abs(raw.pyodide), lock: abs(raw.lock) + "?v=" + encodeURIComponent(raw.version || ""),
        charts: abs(raw.charts), chartsIntegrity: raw.chartsIntegrity || "", version: raw.version,
        snapshot: abs(raw.snapshot), snapshotSha256: raw.snapshotSha256 || "",
        sw: abs(raw.sw), lockSha256: raw.lockSha256 || "",
      };
    } catch (err) {
      console.error("calculators: bad runtime meta tag", err);
      return null;
    }
  }

  const boot = {
    runtime: readRuntime(),
    worker: null,
    /** Messages the worker sent before runtime.js listened. */
    messages: [],
    /** When the current worker was created (ms since navigation start). */
    startedAt: null,
    /** The worker, created (and sent `init`) on first call. Throws if it cannot be created. */
    start() {
      if (this.worker) return this.worker;
      if (!this.runtime) throw new Error("no calculators runtime on this page");
      const worker = new Worker(this.runtime.worker, { type: "module", name: "calculators" });
      this.messages = [];
      worker.onmessage = (event) => this.messages.push(event.data || {});
      worker.onerror = (event) => {
        event.preventDefault();
        this.messages.push({ type: "error", message: "the Python runtime did not load" });
      };
      worker.postMessage({
        type: "init", indexURL: this.runtime.pyodide, lockFileURL: this.runtime.lock, lockSha256: this.runtime.lockSha256,
        snapshotURL: this.runtime.snapshot, snapshotSha256: this.runtime.snapshotSha256,
      });
      this.worker = worker;
      this.startedAt = performance.now();
      return worker;
    },
    /** Terminate the worker (a runaway calculation, a failed boot); start() makes a new one. */
    stop() {
      if (this.worker) this.worker.terminate();
      this.worker = null;
      this.messages = [];
    },
  };
  window.calculatorsBoot = boot;

  const script = document.currentScript;
  if (boot.runtime && script && script.hasAttribute("data-start") && typeof Worker !== "undefined") {
    try { boot.start(); } catch (err) { boot.stop(); } // runtime.js reports it when it binds
  }
})();
