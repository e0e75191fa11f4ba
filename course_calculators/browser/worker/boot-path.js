// Which start the worker makes: restore the build's memory snapshot, or boot Python normally.
//
// The snapshot saves the processor a second or more (no interpreter start, no imports), but it
// is several megabytes more to download than a normal boot with the small boot-time standard
// library. So it pays off only on a fast link: the worker measures how fast the first file (the
// wasm, needed either way) arrives, over its first WINDOW_MS or the whole file if it is done
// sooner, and takes the snapshot above FAST_BYTES_PER_S. A reader who asked to save data, or whose
// browser reports a slow connection, gets the normal boot without a measurement. The Performance
// page shows where the two paths cross.

import { POLICY, startPolicy } from "../shared/start-policy.js";

export const WINDOW_MS = 250;
/** Decoded bytes per second of the wasm (a static host gzips it to about 3/8 of its size). */
export const FAST_BYTES_PER_S = 8e6;

/** "slow" when the connection says to spare it (Save-Data, a slow effective type), else "". */
export function connectionHint(connection) {
  return startPolicy(connection) === POLICY.ON_TOUCH ? "slow" : "";
}

/** Measures one download: `onBytes(n, done)` goes to Downloads.prefetch; `rate` resolves to
 * bytes per second once WINDOW_MS have passed since the first byte, or the file is done. */
export class RateMeter {
  constructor(now = () => performance.now()) {
    this.now = now;
    this.first = null;
    this.bytes = 0;
    this.rate = new Promise((resolve) => { this.resolve = resolve; });
    this.onBytes = (n, done) => this.add(n, done);
  }

  add(n, done) {
    const t = this.now();
    if (this.first === null) {
      this.first = t;
      setTimeout(() => this.settle(), WINDOW_MS);
    }
    this.bytes += n;
    if (done || t - this.first >= WINDOW_MS) this.settle();
  }

  settle() {
    if (!this.resolve) return;
    const elapsed = Math.max(1, this.now() - this.first);
    this.resolve(this.bytes / (elapsed / 1000));
    this.resolve = null;
  }
}

/** "snapshot" or "boot", with the reason, for the ready message. */
export async function choosePath({ hasSnapshot, hint, meter }) {
  if (!hasSnapshot) return { path: "boot", why: "no snapshot" };
  if (hint === "slow") return { path: "boot", why: "the connection asks to save data" };
  const rate = await meter.rate;
  const mb = (rate / 1e6).toFixed(1);
  return rate >= FAST_BYTES_PER_S
    ? { path: "snapshot", why: `fast link (${mb} MB/s)` }
    : { path: "boot", why: `slow link (${mb} MB/s)` };
}
