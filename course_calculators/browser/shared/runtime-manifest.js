// The runtime manifest a page carries in <meta name="calculators-runtime">, as
// course_calculators/plugin/manifest.py writes it, under the same field names: where the worker,
// Pyodide, the lock file, the snapshot and its standard-library zips, Chart.js, the service
// worker and the site root are; the checksums the worker checks; the offline copy's size; the
// boot and run time limits (plugin options). Its URLs are relative to the page; they are made
// absolute here, once, against the page that loaded the runtime, so they stay right after
// instant navigation changes the page's address. Nothing else is renamed or changed: the worker's
// `init` carries the same fields under the same names (initMessage).

import { RUNTIME_META } from "./contract.js";
import { MSG, SHAPES } from "./protocol.js";
import { isPlainObject } from "./plain-data.js";
import { metaJson } from "./meta-tag.js";

/** The fields that hold a URL. */
const URLS = ["root", "worker", "pyodide", "lock", "charts", "snapshot", "sw", "stdlib", "boot_stdlib"];
/** The fields that hold a count of milliseconds (the build always writes them). */
const LIMITS = ["boot_timeout_ms", "run_timeout_ms"];

/** The manifest with absolute URLs, or null when the page has none or it does not parse. */
export function readRuntime(doc) {
  const raw = metaJson(doc, RUNTIME_META);
  if (raw === undefined) return null;
  if (raw === null) {
    console.error("calculators: the runtime meta tag is not JSON");
    return null;
  }
  const limitsOk = isPlainObject(raw) && LIMITS.every((k) => Number.isFinite(raw[k]) && raw[k] > 0);
  if (!limitsOk || !raw.worker || !raw.pyodide || !raw.lock) {
    console.error("calculators: the runtime meta tag lacks fields of its manifest", raw);
    return null;
  }
  const runtime = Object.assign({}, raw);
  URLS.forEach((k) => { runtime[k] = raw[k] ? new URL(raw[k], doc.baseURI).href : ""; });
  runtime.offline_bytes = Number(raw.offline_bytes) || 0;
  return Object.freeze(runtime);
}

/** The `init` message of a worker of this runtime: the manifest's fields that `init` carries
 * (protocol.js's shape names them), and `hint` ("slow" when the connection asks to spare it). */
export function initMessage(runtime, hint) {
  const msg = { type: MSG.INIT, hint };
  Object.keys(SHAPES.toWorker[MSG.INIT]).forEach((field) => {
    if (field !== "hint" && runtime[field] !== undefined) msg[field] = runtime[field];
  });
  return msg;
}
