// The page's side of the one Python worker, which lives for the whole page session and survives
// instant navigation: it creates the worker when the start policy allows it (runtime.js calls
// allow()), sends it `init`, checks what it says, watches the boot, times each run, and ends or
// replaces it when asked.

import { MSG, isFromWorker } from "../shared/protocol.js";
import { errorText } from "../shared/error-text.js";

const UNAVAILABLE = "Interactive mode is unavailable";
const DEFAULTS_SHOWN = "The values shown are for the defaults.";

export class WorkerClient {
  /**
   * @param options.createWorker () => a new Worker (runtime.js makes it from the runtime manifest),
   *   or null when the page has no runtime: the client then has failed from the start
   * @param options.init the `init` message every new worker is sent first
   * @param options.bootTimeoutMs a boot that has not said `ready` by then has failed: Pyodide does
   *   not reject when its wasm fails to download, it waits forever
   * @param options.runTimeoutMs how long one run may take (Python cannot be interrupted from
   *   outside: a run past this limit is ended with its worker)
   * @param options.onMessage every valid message but a boot failure (`progress`, `ready`, and the
   *   widgets' `result` and `error`)
   * @param options.onFail (message) => the worker is gone for good; message says why, to readers
   */
  constructor({ createWorker, init, bootTimeoutMs, runTimeoutMs, onMessage, onFail }) {
    this.createWorker = createWorker || null;
    this.init = init;
    this.bootTimeoutMs = bootTimeoutMs;
    this.runTimeoutMs = runTimeoutMs;
    this.onMessage = onMessage;
    this.onFail = onFail;
    this.worker = null;
    this.allowed = false; // the start policy lets Python start (allow())
    this.wanted = false; // start() was called before that
    this.ready = false; // the current worker said `ready`
    this.failed = this.createWorker ? null : `${UNAVAILABLE} (the runtime did not load). ${DEFAULTS_SHOWN}`;
    this.retryable = false;
    this.status = "Loading Python…"; // for the widgets' status line
    this.bootTimer = 0;
  }

  get canRun() {
    return Boolean(this.worker) && this.ready;
  }

  /** The start policy allows Python now: a start asked for meanwhile happens. */
  allow() {
    if (this.allowed) return;
    this.allowed = true;
    if (this.wanted) this.start();
  }

  /** Create the worker and send it `init`, as soon as the start policy allows it. */
  start() {
    if (this.worker || this.failed) return;
    if (!this.allowed) { this.wanted = true; return; }
    let worker;
    try {
      worker = this.createWorker();
    } catch (err) {
      this.fail(`${UNAVAILABLE}: ${errorText(err)}`);
      return;
    }
    // Only the current worker is heard: one that was ended may still have a message on its way.
    worker.addEventListener("message", (event) => { if (this.worker === worker) this.receive(event.data); });
    worker.addEventListener("error", (event) => {
      event.preventDefault();
      if (this.worker === worker) this.fail(`${UNAVAILABLE} (the Python runtime did not load). ${DEFAULTS_SHOWN}`);
    });
    this.worker = worker;
    worker.postMessage(this.init);
    clearTimeout(this.bootTimer);
    this.bootTimer = setTimeout(() => {
      if (this.ready || this.worker !== worker) return;
      const seconds = Math.round(this.bootTimeoutMs / 1000);
      this.fail(`${UNAVAILABLE}: Python did not start within ${seconds} s. ${DEFAULTS_SHOWN}`);
    }, this.bootTimeoutMs);
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

  /** Under `mkdocs serve` (page/live-reload.js): the build's Python changed; the running worker
   * takes the new wheel of `init` (a new runtime's) in place, and every later worker boots it.
   * False when no worker is ready to (the caller reloads the page instead). */
  reload(init) {
    if (!this.canRun) return false;
    this.init = { ...init, hint: this.init.hint };
    this.worker.postMessage({ type: MSG.RELOAD, lock: init.lock, lock_sha256: init.lock_sha256 });
    return true;
  }

  /** Post a `run`; `onTimeout()` follows unless the returned function is called first. */
  run(msg, onTimeout) {
    this.worker.postMessage(msg);
    const timer = setTimeout(onTimeout, this.runTimeoutMs);
    return () => clearTimeout(timer);
  }

  /** End the worker (Python cannot be interrupted from outside: a run past its time is stopped
   * this way); restart() or fail() follows. */
  stop() {
    clearTimeout(this.bootTimer);
    if (this.worker) this.worker.terminate();
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
    if (!this.failed || !this.createWorker) return false;
    this.failed = null;
    this.ready = false;
    this.retryable = false;
    this.status = "Loading Python…";
    this.start();
    return true;
  }

  /** No worker until retry(); `retryable`: a new start may succeed (a download failed). */
  fail(message, retryable = true) {
    this.stop();
    this.failed = message;
    this.retryable = retryable && Boolean(this.createWorker);
    this.onFail(message);
  }
}
