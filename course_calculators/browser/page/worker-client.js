// The page's side of the one Python worker, which lives for the whole page session and survives
// instant navigation. boot.js created it (on a page with widgets, from <head>); this takes it
// over, replays what it said before, watches the boot, times each run, and restarts it when asked.

import { MSG, isFromWorker } from "../shared/protocol.js";

const UNAVAILABLE = "Interactive mode is unavailable";
const DEFAULTS_SHOWN = "The values shown are for the defaults.";

export class WorkerClient {
  /**
   * @param boot window.calculatorsBoot (boot.js), or null when it did not run
   * @param options.bootTimeoutMs a boot that has not said `ready` by then has failed: Pyodide does
   *   not reject when its wasm fails to download, it waits forever
   * @param options.runTimeoutMs () => how long one run may take, read at each run
   * @param options.onMessage every valid message but a boot failure (`progress`, `ready`, and the
   *   widgets' `result` and `error`)
   * @param options.onFail (message) => the worker is gone for good; message says why, to readers
   */
  constructor(boot, { bootTimeoutMs, runTimeoutMs, onMessage, onFail }) {
    this.boot = boot;
    this.bootTimeoutMs = bootTimeoutMs;
    this.runTimeoutMs = runTimeoutMs;
    this.onMessage = onMessage;
    this.onFail = onFail;
    this.worker = null;
    this.ready = false; // the current worker said `ready`
    this.failed = boot && boot.runtime ? null
      : `${UNAVAILABLE} (the runtime did not load). ${DEFAULTS_SHOWN}`;
    this.status = "Loading Python…"; // for the widgets' status line
    this.bootTimer = 0;
  }

  get canRun() {
    return Boolean(this.worker) && this.ready;
  }

  /** Take the worker over (boot.js starts it if it has not), as soon as boot.js allows it. */
  start() {
    if (this.worker || this.failed) return;
    if (this.boot.allowed === false) {
      if (!this.waiting) this.boot.onAllowed(() => { this.waiting = false; this.start(); });
      this.waiting = true;
      return;
    }
    try {
      this.worker = this.boot.start();
    } catch (err) {
      this.fail(`${UNAVAILABLE}: ${err.message}`);
      return;
    }
    this.worker.onmessage = (event) => this.receive(event.data);
    this.worker.onerror = (event) => {
      event.preventDefault();
      this.fail(`${UNAVAILABLE} (the Python runtime did not load). ${DEFAULTS_SHOWN}`);
    };
    this.boot.messages.splice(0).forEach((msg) => this.receive(msg)); // sent before we listened
    if (!this.ready && !this.failed) {
      clearTimeout(this.bootTimer);
      this.bootTimer = setTimeout(() => {
        if (this.ready) return;
        const seconds = Math.round(this.bootTimeoutMs / 1000);
        this.fail(`${UNAVAILABLE}: Python did not start within ${seconds} s. ${DEFAULTS_SHOWN}`);
      }, this.bootTimeoutMs);
    }
  }

  receive(msg) {
    if (!isFromWorker(msg)) {
      console.warn("calculators: ignored a message of no known shape from the worker", msg);
      return;
    }
    if (msg.type === MSG.ERROR && !msg.widget) {
      this.fail(`${UNAVAILABLE}: ${msg.message}`);
      return;
    }
    if (msg.type === MSG.PROGRESS) this.status = msg.stage;
    if (msg.type === MSG.READY) {
      clearTimeout(this.bootTimer);
      this.ready = true;
    }
    this.onMessage(msg);
  }

  /** Post a `run`; `onTimeout()` follows unless the returned function is called first. */
  run(msg, onTimeout) {
    this.worker.postMessage(msg);
    const timer = setTimeout(onTimeout, this.runTimeoutMs());
    return () => clearTimeout(timer);
  }

  /** End the worker (Python cannot be interrupted from outside: a run past its time is stopped
   * this way); restart() or fail() follows. */
  stop() {
    this.boot.stop();
    this.worker = null;
    this.ready = false;
  }

  /** A new worker, after stop(): it boots from the snapshot. */
  restart() {
    this.status = "Restarting Python…";
    this.start();
  }

  /** After a failed start: forget the failure and start a new worker (a download that failed
   * may well succeed now). Only when a runtime exists and the worker is not running. */
  retry() {
    if (!this.failed || !this.boot || !this.boot.runtime) return false;
    this.failed = null;
    this.ready = false;
    this.retryable = false;
    this.status = "Loading Python…";
    this.start();
    return true;
  }

  /** No worker until retry(); `retryable`: a new start may succeed (a download failed). */
  fail(message, retryable = true) {
    clearTimeout(this.bootTimer);
    this.failed = message;
    this.retryable = retryable && Boolean(this.boot && this.boot.runtime);
    if (this.boot) this.boot.stop();
    this.worker = null;
    this.onFail(message);
  }
}
