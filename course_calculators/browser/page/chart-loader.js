// Chart.js, loaded on first use from the site's own copy (the runtime manifest names it, with its
// integrity hash), for the line, bar and xy charts.

/** A function `withChart(fn)` that calls fn(Chart) once Chart.js is loaded (from the runtime's
 * manifest, with its integrity hash), or never when the site has no charts or it fails to load. */
export function chartLoader(runtime) {
  let loading = null;
  return function withChart(fn) {
    if (window.Chart) { fn(window.Chart); return; }
    if (!runtime || !runtime.charts) return;
    if (!loading) {
      loading = new Promise((resolve, reject) => {
        const s = document.createElement("script");
        s.src = runtime.charts;
        if (runtime.charts_integrity) s.integrity = runtime.charts_integrity;
        s.async = true;
        s.onload = () => resolve(window.Chart);
        s.onerror = () => reject(new Error("chart library failed to load"));
        document.head.appendChild(s);
      });
    }
    loading.then(fn, () => {});
  };
}
