// The embed page (embed/<id>/: one widget with data-embed, made to be framed by other sites): its
// theme, and inside a frame the messages of shared/embed-protocol.js to and from the host page.
//
// Origin rule: a message is read only when its source is window.parent and its origin is the
// parent's: the origin of document.referrer, or, when the host withheld its referrer, the origin
// of the first valid message. Messages go to that origin; while it is unknown, to "*" (they carry
// only the calculator's public inputs and outputs). Values from a message reach the same fields a
// reader types in, and from there Python's checks; nothing reaches innerHTML.

import { DOM } from "../shared/contract.js";
import { EMBED_MSG, embedMessage, readHostMessage } from "../shared/embed-protocol.js";
import { withInputs } from "./url-state.js";

/** The embed page's state, or null on every other page. `widgetFor(root)`: the bound widget of
 * that element, if any; `version`: the runtime's version, for the ready message. */
export function createEmbedPage({ widgetFor, version }) {
  const root = document.querySelector(DOM.embedWidget);
  return root ? new EmbedPage(root, widgetFor, version) : null;
}

class EmbedPage {
  constructor(root, widgetFor, version) {
    this.root = root;
    this.widgetFor = widgetFor;
    this.version = version;
    this.framed = window.parent !== window;
    let origin = "";
    try { if (document.referrer) origin = new URL(document.referrer).origin; } catch (err) { origin = ""; }
    this.origin = origin === "null" ? "" : origin;
    this.ready = false;
    this.last = null; // the latest result, for "get"
    this.height = -1;
    this.applyTheme();
  }

  // ?theme=light|dark, else the reader's prefers-color-scheme, followed live.
  applyTheme() {
    const query = new URLSearchParams(location.search).get("theme");
    const forced = query === "dark" || query === "light" ? query : null;
    const media = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;
    const apply = () => {
      const dark = forced ? forced === "dark" : Boolean(media && media.matches);
      document.body.setAttribute("data-md-color-scheme", dark ? "slate" : "default");
    };
    apply();
    if (!forced && media && media.addEventListener) media.addEventListener("change", apply);
  }

  owns(widget) {
    return widget.root === this.root;
  }

  post(type, fields) {
    if (!this.framed) return;
    window.parent.postMessage(embedMessage(type, fields), this.origin || "*");
  }

  postValues(widget, result) {
    this.post(EMBED_MSG.VALUES, { id: widget.calc, inputs: result.inputs, outputs: result.raw, text: result.text });
  }

  /** Listen to the host and report the content's height; only inside a frame. */
  start() {
    if (!this.framed) return;
    window.addEventListener("message", (event) => this.receive(event));
    const content = document.querySelector(DOM.embedContent) || document.body;
    const report = () => {
      const height = Math.ceil(content.getBoundingClientRect().height);
      if (height === this.height) return;
      this.height = height;
      this.post(EMBED_MSG.RESIZE, { height });
    };
    if (window.ResizeObserver) new ResizeObserver(report).observe(content);
    else window.addEventListener("resize", report);
    report();
  }

  receive(event) {
    if (event.source !== window.parent) return;
    if (this.origin && event.origin !== this.origin) return;
    const widget = this.widgetFor(this.root);
    if (!widget) return;
    const msg = readHostMessage(event.data, (name) => widget.form.has(name));
    if (!msg) return;
    if (!this.origin && event.origin !== "null") this.origin = event.origin;
    if (msg.type === EMBED_MSG.SET) widget.enter(msg.inputs);
    else if (this.last) this.postValues(widget, this.last);
  }

  /** The widget showed a result: update "Open in the chapter", tell the host. */
  rendered(widget, result) {
    if (!this.owns(widget)) return;
    const link = document.querySelector(DOM.chapterLink);
    if (link) {
      // The chapter link holds only this calculator's keys: all of them are replaced.
      link.href = withInputs(link.href, { calc: widget.calc, embed: false, isParam: () => true, changed: result.changed }).href;
    }
    this.last = result;
    if (!this.ready) {
      this.ready = true;
      this.post(EMBED_MSG.READY, { id: widget.calc, version: this.version });
    }
    this.postValues(widget, result);
  }

  /** The widget failed; called once its message is set, and posted after this task's changes. */
  failed(widget) {
    if (!this.owns(widget)) return;
    queueMicrotask(() => this.post(EMBED_MSG.ERROR, { id: widget.calc, message: widget.message.textContent }));
  }
}
