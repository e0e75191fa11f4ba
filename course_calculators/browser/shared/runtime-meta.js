// The runtime manifest a page carries in <meta name="calculators-runtime"> (build/manifest.py):
// where the worker, Pyodide, the lock file, the snapshot and its standard-library zips, Chart.js,
// the service worker and the site root are, and how many bytes the offline copy downloads. Its
// URLs are relative to the page; they are made absolute here, once, against the page that
// loaded the runtime, so they stay right after instant navigation changes the page's address.

import { RUNTIME_META } from "./contract.js";

/** The manifest with absolute URLs, or null when the page has none or it does not parse. */
export function readRuntime(doc) {
  const meta = doc.querySelector(`meta[name="${RUNTIME_META}"]`);
  if (!meta) return null;
  try {
    const raw = JSON.parse(meta.getAttribute("content"));
    const abs = (u) => (u ? new URL(u, doc.baseURI).href : "");
    return {
      root: abs(raw.root), worker: abs(raw.worker), pyodide: abs(raw.pyodide),
      lock: abs(raw.lock) + "?v=" + encodeURIComponent(raw.version || ""), lockSha256: raw.lockSha256 || "",
      charts: abs(raw.charts), chartsIntegrity: raw.chartsIntegrity || "", version: raw.version,
      snapshot: abs(raw.snapshot), snapshotSha256: raw.snapshotSha256 || "", sw: abs(raw.sw),
      stdlib: abs(raw.stdlib), bootStdlib: abs(raw.bootStdlib), offlineBytes: Number(raw.offlineBytes) || 0,
    };
  } catch (err) {
    console.error("calculators: bad runtime meta tag", err);
    return null;
  }
}
