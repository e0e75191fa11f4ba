// Injected before any page script (Playwright add_init_script): records, on the page's own clock
// (performance.now(), zero at navigation start), when the first correct value is in the page, when
// the kv-cache widget turns ready, first contentful paint and every long task. The bench reads
// window.__bench. EXPECTED is the default kv_bytes_total computed by CPython.
(() => {
  const EXPECTED = __EXPECTED__;
  // Browsers driven without Playwright (launch.py) get this script from the bench server, and it
  // reports its readings back to the server once the widget is ready.
  const BEACON = __BEACON__;
  const CALC = ".calc[data-calc='kv-cache']";
  const b = (window.__bench = { fcp: null, valueAt: null, readyAt: null, longtasks: [],
                                 timeOrigin: performance.timeOrigin });

  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.name === "first-contentful-paint") b.fcp = e.startTime;
    }).observe({ type: "paint", buffered: true });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) b.longtasks.push([e.startTime, e.duration]);
    }).observe({ type: "longtask", buffered: true });
  } catch (err) {
    b.observerError = String(err);
  }

  // A correct value counts once it is in the page and not hidden, wherever it sits: at the start
  // of the next frame after it enters the DOM (that frame paints it).
  // Kept cheap, so as not to weigh on the page it measures: the whole document is watched only
  // until the widget appears, then the widget alone, and nothing once both moments are known.
  let root = null;
  let seen = false;
  function check() {
    if (!root) {
      root = document.querySelector(CALC);
      if (!root) return;
      mo.disconnect();
      mo.observe(root, { childList: true, subtree: true, attributes: true, characterData: true,
                         attributeFilter: ["data-state", "data-value", "hidden", "class", "style"] });
    }
    const out = root.querySelector("output[data-output='kv_bytes_total']");
    // (Not checkVisibility(): forcing a style pass mid-parse would add work to the page.)
    if (!seen && out && out.dataset.value === EXPECTED && out.textContent.trim() && !out.closest("[hidden]")) {
      seen = true;
      requestAnimationFrame(() => { b.valueAt = performance.now(); });
    }
    if (b.readyAt === null && root.dataset.state === "ready") {
      b.readyAt = performance.now();
      if (BEACON) setTimeout(() => {
        const rt = window.calculatorsRuntime;
        b.mode = rt ? rt.bootMode : null;
        b.timings = rt ? rt.timings : null; // the worker's boot milestones, this page's clock
        navigator.sendBeacon("/__bench/result", JSON.stringify(b));
      }, 100);
    }
    if (seen && b.readyAt !== null) mo.disconnect();
  }
  const mo = new MutationObserver(check);
  mo.observe(document, { childList: true, subtree: true });
  check();
})();
