// Offline reading. The service worker (sw.js, written by the plugin) precaches the whole site so
// that it works offline after this visit. It is registered only once Python is ready, or once a
// page without widgets has loaded, so that its downloads never compete with the first boot; never
// from inside a frame (an embed on another site should not fill its reader's storage).

/** A function that registers the runtime's service worker, the first time it is called. */
export function offlineRegistration(runtime) {
  let registered = false;
  return function register() {
    if (registered || !runtime || !runtime.sw || !("serviceWorker" in navigator) || window.top !== window) return;
    registered = true;
    navigator.serviceWorker.register(runtime.sw)
      .catch((err) => console.warn("calculators: offline mode unavailable:", err.message));
  };
}
