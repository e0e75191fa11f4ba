// Injected by a test server at the top of <head>, before every other script, for WebKit, whose
// WebDriver reports no console messages: records what the browser would print as an error —
// console.error calls, uncaught exceptions and rejections, resources that fail to load, and
// Content-Security-Policy violations — in sessionStorage, so that a reload keeps the record.
(() => {
  const KEY = "__consoleProbe";
  const record = (text) => {
    try {
      const seen = JSON.parse(sessionStorage.getItem(KEY) || "[]");
      seen.push(String(text).slice(0, 500));
      sessionStorage.setItem(KEY, JSON.stringify(seen));
    } catch (e) { /* storage full or blocked: nothing better to do */ }
  };
  const describe = (v) => (v && v.stack) || (v && v.message) || String(v);
  const consoleError = console.error.bind(console);
  console.error = (...args) => { record(args.map(describe).join(" ")); consoleError(...args); };
  window.addEventListener("error", (e) => {
    if (e instanceof ErrorEvent) record(`uncaught: ${e.message} (${e.filename}:${e.lineno})`);
    else if (e.target && (e.target.src || e.target.href)) record(`failed to load ${e.target.src || e.target.href}`);
  }, true);
  window.addEventListener("unhandledrejection", (e) => record(`unhandled rejection: ${describe(e.reason)}`));
  document.addEventListener("securitypolicyviolation", (e) =>
    record(`CSP ${e.effectiveDirective} blocked ${e.blockedURI || "inline"} (${e.sourceFile}:${e.lineNumber})`));
})();
