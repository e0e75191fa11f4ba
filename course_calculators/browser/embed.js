// Host side of the embeds: one <script> and one element on any page become a sized iframe.
//
//   <div data-calculator-embed="kv-cache" data-params="context=131072" data-theme="dark"></div>
//   <script src="https://<site>/assets/calc/embed.js" async></script>
//
// Each element with data-calculator-embed gets an iframe of <site>/embed/<id>/?<params>&theme=…
// (the site is where this script came from), in place of its content (a fallback link, say).
// The iframe's height follows the embed's "resize" messages. The element receives bubbling
// CustomEvents "calculator:ready", "calculator:values", "calculator:error" and "calculator:resize" (detail: the
// message), and gets a method el.calculatorEmbed.set({param: value}) that posts "set".
//
// Messages are read only from one of our iframes' windows, from the site's origin, with the
// documented shape: {source: "calculators", type, ...}. Nothing from a message or an attribute
// reaches innerHTML: the iframe's URL is built with URL/URLSearchParams, its title set as text.
(function () {
  "use strict";

  const SOURCE = "calculators";
  const ID = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
  const PARAM = /^[a-z][a-z0-9_]*$/;
  const MAX_HEIGHT = 100000;

  const script = document.currentScript ||
    Array.from(document.querySelectorAll("script[src]")).find((s) => /\/assets\/calc\/embed\.js(?:[?#]|$)/.test(s.src));
  if (!script) return;
  const site = new URL("../../", script.src); // <site>/assets/calc/embed.js → <site>/
  const frames = new Map(); // iframe window → {element, frame}

  function isPlainObject(value) {
    if (value === null || typeof value !== "object") return false;
    const proto = Object.getPrototypeOf(value);
    return proto === Object.prototype || proto === null;
  }

  function isFlatRecord(value) {
    return isPlainObject(value) && Object.keys(value).every((k) => {
      const v = value[k];
      return v === null || typeof v === "string" || typeof v === "number" || typeof v === "boolean";
    });
  }

  function embedUrl(id, params, theme) {
    const url = new URL(`embed/${id}/`, site);
    new URLSearchParams(params || "").forEach((value, key) => {
      if (PARAM.test(key) && key !== "theme") url.searchParams.append(key, value);
    });
    if (theme === "light" || theme === "dark") url.searchParams.set("theme", theme);
    return url;
  }

  function mount(element) {
    if (element.dataset.calculatorEmbedState) return;
    const id = element.getAttribute("data-calculator-embed") || "";
    if (!ID.test(id)) {
      element.dataset.calculatorEmbedState = "invalid";
      return;
    }
    const url = embedUrl(id, element.getAttribute("data-params"), element.getAttribute("data-theme"));
    const frame = document.createElement("iframe");
    frame.src = url.href;
    frame.title = element.getAttribute("data-title") || `Calculator: ${id}`;
    frame.loading = "lazy";
    frame.setAttribute("allow", "clipboard-write");
    frame.style.cssText = "display:block;width:100%;border:0;height:" +
      (Number(element.getAttribute("data-height")) > 0 ? Number(element.getAttribute("data-height")) : 480) + "px";
    element.replaceChildren(frame);
    element.dataset.calculatorEmbedState = "loading";
    const entry = { element, frame };
    element.calculatorEmbed = {
      frame,
      set(inputs) {
        if (!isFlatRecord(inputs) || !frame.contentWindow) return;
        frame.contentWindow.postMessage({ source: SOURCE, type: "set", inputs }, site.origin);
      },
      get() {
        if (frame.contentWindow) frame.contentWindow.postMessage({ source: SOURCE, type: "get" }, site.origin);
      },
    };
    // The window exists once the iframe is in the document; keep the map keyed by it.
    if (frame.contentWindow) frames.set(frame.contentWindow, entry);
  }

  function entryFor(source) {
    if (frames.has(source)) return frames.get(source);
    // A lazy iframe's window can be replaced when it navigates: look again.
    for (const entry of frames.values()) {
      if (entry.frame.contentWindow === source) { frames.set(source, entry); return entry; }
    }
    return null;
  }

  function onMessage(event) {
    if (event.origin !== site.origin) return;
    const entry = entryFor(event.source);
    const msg = event.data;
    if (!entry || !isPlainObject(msg) || msg.source !== SOURCE) return;
    let detail = null;
    if (msg.type === "resize") {
      const h = msg.height;
      if (typeof h !== "number" || !Number.isFinite(h) || h < 0 || h > MAX_HEIGHT) return;
      entry.frame.style.height = `${Math.ceil(h)}px`;
      detail = { height: Math.ceil(h) };
    } else if (msg.type === "ready") {
      if (typeof msg.id !== "string" || !ID.test(msg.id)) return;
      entry.element.dataset.calculatorEmbedState = "ready";
      detail = { id: msg.id, version: typeof msg.version === "string" ? msg.version : "" };
    } else if (msg.type === "error") {
      if (typeof msg.id !== "string" || !ID.test(msg.id) || typeof msg.message !== "string") return;
      entry.element.dataset.calculatorEmbedState = "error";
      detail = { id: msg.id, message: msg.message.slice(0, 500) };
    } else if (msg.type === "values") {
      if (typeof msg.id !== "string" || !ID.test(msg.id) || !isFlatRecord(msg.inputs) || !isFlatRecord(msg.outputs)) return;
      detail = {
        id: msg.id, inputs: Object.assign({}, msg.inputs), outputs: Object.assign({}, msg.outputs),
        text: isFlatRecord(msg.text) ? Object.assign({}, msg.text) : {},
      };
    } else {
      return;
    }
    entry.element.dispatchEvent(new CustomEvent(`calculator:${msg.type}`, { bubbles: true, detail }));
  }

  function scan(root) {
    (root || document).querySelectorAll("[data-calculator-embed]").forEach(mount);
  }

  window.addEventListener("message", onMessage);
  window.calculatorEmbeds = { scan };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", () => scan());
  else scan();
})();
