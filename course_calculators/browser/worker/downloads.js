// Every download of the worker, watched: the worker's own (the lock file, the snapshot) and
// Pyodide's (its wasm, its standard-library zip, the calculators wheel), which all go through the
// global fetch that install() wraps.
//
// Pyodide does not reject when one of its downloads fails: a failed wasm leaves loadPyodide
// waiting forever, a failed standard library is only logged. So a required download that fails
// (a network error, an HTTP error), or any download that stalls (no byte for STALL_MS while one is
// under way and the worker's thread was free to take one), rejects `failed`, which the boot races against loadPyodide. An optional download
// (the snapshot) only rejects its own response; the boot then goes on without it.

import { errorText } from "../shared/error-text.js";
import { mark } from "./timings.js";

export const STALL_MS = 4000;
/** The most a download may hold unread (the largest file, the snapshot, is smaller). */
export const BUFFER = 64 * 1024 * 1024;
/** How often the watch looks. */
export const CHECK_MS = 500;

export class Downloads {
  /** `scope`: the worker's global, whose fetch install() wraps (a test passes a fake one);
   * `now`: the clock, in milliseconds. */
  constructor({ scope = globalThis, now = () => performance.now() } = {}) {
    this.scope = scope;
    this.now = now;
    this.active = new Set(); // downloads (and imports) under way
    this.lastByte = now();
    this.bytes = 0; // decoded bytes received, all downloads
    this.optional = new Set(); // URLs whose failure is not the boot's
    this.early = new Map(); // URL → a response started before Pyodide asked for it
    this.failed = new Promise((_, reject) => { this.fail = reject; });
    this.failed.catch(() => {});
    this.lastCheck = now();
    this.timer = setInterval(() => this.checkStall(), CHECK_MS);
  }

  /** Replace the global fetch: Pyodide's downloads are watched too. */
  install() {
    const scope = this.scope;
    this.realFetch = scope.fetch.bind(scope);
    scope.fetch = (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input), scope.location.href).href;
      const early = this.early.get(url);
      if (early) {
        this.early.delete(url);
        return early;
      }
      return this.fetch(url, init);
    };
  }

  /** A watched fetch of `url`; `optional` downloads fail alone; `onBytes(n)` sees each chunk. */
  fetch(url, init, { optional = false, onBytes = null } = {}) {
    if (optional) this.optional.add(url);
    const name = url.split("?")[0].split("/").pop() || url;
    const controller = new AbortController();
    const job = { url, name, onBytes, abort: (reason) => controller.abort(reason) };
    this.active.add(job);
    this.lastByte = this.now();
    const started = (this.realFetch || this.scope.fetch)(url, { ...init, signal: controller.signal }).then((response) => {
      if (!response.ok) throw new Error(`${name}: HTTP ${response.status}`);
      if (!response.body) { this.active.delete(job); return response; }
      return new Response(response.body.pipeThrough(this.counter(job)), {
        status: response.status, statusText: response.statusText, headers: response.headers,
      });
    }).catch((err) => {
      this.active.delete(job);
      const error = err instanceof Error && err.message.startsWith(name) ? err : new Error(`${name}: the download failed`);
      this.report(url, error);
      throw error;
    });
    return started;
  }

  /** Start a download Pyodide will ask for later (it then gets this very response): `init` is
   * what Pyodide's own fetch would pass (its integrity, so that the check still holds). */
  prefetch(url, onBytes = null, init = {}) {
    const response = this.fetch(url, init, { onBytes });
    response.catch(() => {});
    this.early.set(url, response);
    return response;
  }

  /** A TransformStream that counts `job`'s bytes, and ends it. Its queue takes every chunk as it
   * comes (up to BUFFER bytes), whether or not the reader keeps up: a slow reader (the wasm's
   * streaming compilation on a loaded processor) would otherwise hold the network back, and its
   * backpressure would look like a stalled download. */
  counter(job) {
    return new TransformStream({
      transform: (chunk, controller) => {
        this.bytes += chunk.byteLength;
        this.lastByte = this.now();
        if (job.onBytes) job.onBytes(chunk.byteLength, false);
        controller.enqueue(chunk);
      },
      flush: () => {
        this.active.delete(job);
        if (job.onBytes) job.onBytes(0, true);
      },
    }, undefined, { highWaterMark: BUFFER, size: (chunk) => chunk.byteLength });
  }

  /** Count `promise` (a dynamic import) as a download under way until it settles. */
  track(name, promise) {
    const job = { url: name, name };
    this.active.add(job);
    this.lastByte = Math.max(this.lastByte, this.now());
    promise.then(() => this.active.delete(job), (err) => {
      this.active.delete(job);
      this.report(name, new Error(`${name}: did not load (${errorText(err)})`));
    });
    return promise;
  }

  report(url, error) {
    if (this.optional.has(url)) return;
    mark("downloadFailed");
    this.fail(error);
  }

  checkStall() {
    // A look that comes late means this thread was busy (parsing Pyodide's module, compiling,
    // restoring the snapshot on a slow or loaded processor), and no chunk could be taken in
    // meanwhile: that time is the processor's, not the network's silence, and does not count.
    const now = this.now();
    const late = now - this.lastCheck - CHECK_MS;
    this.lastCheck = now;
    if (late > CHECK_MS) this.lastByte = Math.min(now, this.lastByte + late);
    if (!this.active.size || now - this.lastByte < STALL_MS) return;
    const jobs = Array.from(this.active);
    const required = jobs.filter((j) => !this.optional.has(j.url));
    const stalled = (required[0] || jobs[0]).name;
    if (!required.length) {
      // Only an optional download is under way: it alone is given up, saying why.
      jobs.forEach((j) => {
        this.active.delete(j);
        if (j.abort) j.abort(new Error(`${j.name}: the download stalled (nothing arrived for ${STALL_MS / 1000} s)`));
      });
      this.lastByte = this.now();
      return;
    }
    this.fail(new Error(`${stalled}: the download stalled (nothing arrived for ${STALL_MS / 1000} s)`));
  }

  stop() {
    clearInterval(this.timer);
  }
}
