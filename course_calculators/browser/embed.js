// Host side of the embeds, loaded by other sites: one <script> and one element on any page become
// a sized iframe.
//
//   <div data-calculator-embed="loan" data-params="years=15" data-theme="dark"></div>
//   <script src="https://<site>/assets/calc/embed.js" async></script>
//
// Each element with data-calculator-embed gets an iframe of <site>/embed/<id>/?<params>&theme=…
// (the site is where this script came from), in place of its content (a fallback link, say).
// The iframe's height follows the embed's "resize" messages. The element receives bubbling
// CustomEvents "calculator:ready", "calculator:values", "calculator:error" and
// "calculator:resize" (detail: the message), and gets a method el.calculatorEmbed.set({param:
// value}) that posts "set".
//
// Messages are read only from one of our iframes' windows, from the site's origin, with the shape
// shared/embed-protocol.js checks. Nothing from a message or an attribute reaches innerHTML: the
// iframe's URL is built with URL/URLSearchParams, its title set as text.

import { EMBED_DIR, EMBED_SCRIPT, ID, NAME } from "./shared/contract.js";
import { EMBED_MSG, embedMessage, readEmbedMessage } from "./shared/embed-protocol.js";
import { isFlatRecord } from "./shared/plain-data.js";

const DEFAULT_HEIGHT = 480;

/** The site a script of this name came from: it is served at <site>/assets/calc/embed.js
 * (EMBED_SCRIPT), so the site is its URL without that path; null for a script elsewhere. */
function siteOf(script) {
  const url = new URL(script.src);
  url.search = "";
  url.hash = "";
  return url.pathname.endsWith("/" + EMBED_SCRIPT) ? new URL(url.pathname.slice(0, -EMBED_SCRIPT.length), url) : null;
}

const script = document.currentScript ||
  Array.from(document.querySelectorAll("script[src]")).find((s) => siteOf(s));
const site = script ? siteOf(script) : null;
const frames = new Map(); // iframe window → {element, frame}

function embedUrl(id, params, theme) {
  const url = new URL(`${EMBED_DIR}/${id}/`, site);
  new URLSearchParams(params || "").forEach((value, key) => {
    if (NAME.test(key) && key !== "theme") url.searchParams.append(key, value);
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
  const height = Number(element.getAttribute("data-height"));
  frame.style.cssText = `display:block;width:100%;border:0;height:${height > 0 ? height : DEFAULT_HEIGHT}px`;
  element.replaceChildren(frame);
  element.dataset.calculatorEmbedState = "loading";
  const entry = { element, frame };
  const post = (type, fields) => {
    if (frame.contentWindow) frame.contentWindow.postMessage(embedMessage(type, fields), site.origin);
  };
  element.calculatorEmbed = {
    frame,
    set(inputs) { if (isFlatRecord(inputs)) post(EMBED_MSG.SET, { inputs }); },
    get() { post(EMBED_MSG.GET, {}); },
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
  const msg = entry ? readEmbedMessage(event.data) : null;
  if (!msg) return;
  if (msg.type === EMBED_MSG.RESIZE) entry.frame.style.height = `${msg.detail.height}px`;
  if (msg.type === EMBED_MSG.READY || msg.type === EMBED_MSG.ERROR) entry.element.dataset.calculatorEmbedState = msg.type;
  entry.element.dispatchEvent(new CustomEvent(`calculator:${msg.type}`, { bubbles: true, detail: msg.detail }));
}

function scan(root) {
  (root || document).querySelectorAll("[data-calculator-embed]").forEach(mount);
}

if (site) {
  window.addEventListener("message", onMessage);
  window.calculatorEmbeds = { scan };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", () => scan());
  else scan();
}
