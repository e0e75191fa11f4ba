// Starts the calculators' Python worker, when the page can spare it.
//
// The plugin puts this small script at the top of <head> (a classic script, before the style
// sheets, so it waits for nothing). It decides when Python may start (shared/start-policy.js):
// right after the page's own first render, so that the page's first paint, its largest paint and
// its main thread never wait for the runtime; or, for a reader who asked to save data or whose
// connection is slow, only when the reader first touches a widget (the build's numbers are right
// until then, and nothing of the runtime is fetched before). runtime.js, which runs after the
// theme's scripts, takes the worker over and replays any message it has already sent. On a page
// without widgets nothing starts until instant navigation brings one (runtime.js then calls start()).

import { MSG } from "./shared/protocol.js";
import { readRuntime } from "./shared/runtime-meta.js";
import { POLICY, afterFirstRender, startPolicy } from "./shared/start-policy.js";

function createBoot(runtime, policy) {
  return {
    runtime,
    policy,
    /** Whether the worker may be created now (see the policy); onAllowed() waits for it. */
    allowed: false,
    waiting: [],
    worker: null,
    /** Messages the worker sent before runtime.js listened. */
    messages: [],
    /** When the current worker was created (ms since navigation start). */
    startedAt: null,
    allow() {
      if (this.allowed) return;
      this.allowed = true;
      this.waiting.splice(0).forEach((fn) => fn());
    },
    onAllowed(fn) {
      if (this.allowed) fn(); else this.waiting.push(fn);
    },
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
        snapshotSha256: this.runtime.snapshotSha256, stdlibURL: this.runtime.stdlib,
        bootStdlibURL: this.runtime.bootStdlib, hint: this.policy === POLICY.ON_TOUCH ? "slow" : "",
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
  const boot = createBoot(readRuntime(document), startPolicy(navigator.connection));
  window.calculatorsBoot = boot;
  const script = document.currentScript;
  const eager = boot.runtime && script && script.hasAttribute("data-start") && typeof Worker !== "undefined";
  if (boot.policy === POLICY.AFTER_RENDER) {
    afterFirstRender(() => {
      boot.allow();
      if (!eager || boot.worker) return;
      try { boot.start(); } catch (err) { boot.stop(); } // runtime.js reports it when it binds
    });
  }
}
