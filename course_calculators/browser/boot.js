// Starts the calculators' Python worker as early as possible.
//
// The plugin puts this small script at the top of <head> (a classic script, before the style
// sheets, so it waits for nothing): on a page that holds a widget it creates the worker while
// the rest of the page downloads and parses, instead of after the theme's scripts. runtime.js,
// which runs after them, takes the worker over and replays any message it has already sent. On
// a page without widgets nothing starts until instant navigation brings one (runtime.js then
// calls start()).

import { MSG } from "./shared/protocol.js";
import { readRuntime } from "./shared/runtime-meta.js";

function createBoot(runtime) {
  return {
    runtime,
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
      worker.onmessage = (event) => this.messages.push(event.data);
      worker.onerror = (event) => {
        event.preventDefault();
        this.messages.push({ type: MSG.ERROR, message: "the Python runtime did not load" });
      };
      worker.postMessage({
        type: MSG.INIT, indexURL: this.runtime.pyodide, lockFileURL: this.runtime.lock,
        lockSha256: this.runtime.lockSha256, snapshotURL: this.runtime.snapshot,
        snapshotSha256: this.runtime.snapshotSha256,
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
}

if (!window.calculatorsBoot) {
  const boot = createBoot(readRuntime(document));
  window.calculatorsBoot = boot;
  const script = document.currentScript;
  if (boot.runtime && script && script.hasAttribute("data-start") && typeof Worker !== "undefined") {
    try { boot.start(); } catch (err) { boot.stop(); } // runtime.js reports it when it binds
  }
}
