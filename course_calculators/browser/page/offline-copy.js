// Offline reading. The service worker (sw.js, written by the plugin) precaches the whole site so
// that it works offline. It is registered when the reader asks for it, with the control this
// module puts in the page's footer (it says how much will be downloaded, and what state the copy
// is in), or by itself on a fast, unmetered connection only, and then AUTO_DELAY_MS after Python is
// ready or a page without widgets has loaded, so that its downloads never compete with the first
// boot nor with whatever the page still does right after it. Never
// on a metered connection without asking, never from inside a frame (an embed on another site
// should not fill its reader's storage).

const AUTO_DELAY_MS = 6000;
const STATE = Object.freeze({ IDLE: "idle", SAVING: "saving", SAVED: "saved", FAILED: "failed" });
// Connection types a reader may pay for by the byte (navigator.connection.type, where it exists).
const METERED = ["cellular", "bluetooth", "wimax", "other", "unknown"];

/** Whether the connection is fast and not metered: the browser reports a fast effective type, no
 * Save-Data, and no metered type. Without navigator.connection (Firefox, Safari) nothing is
 * known, and the copy waits for the reader. */
export function unmetered(connection) {
  return Boolean(connection) && !connection.saveData && connection.effectiveType === "4g" &&
    !METERED.includes(connection.type);
}

function megabytes(bytes) {
  if (!bytes) return "";
  return bytes >= 1e6 ? `${Math.round(bytes / 1e6)} MB` : `${Math.max(1, Math.round(bytes / 1e3))} kB`;
}

const TEXT = {
  [STATE.IDLE]: (size) => ["Save for offline reading", `Not saved yet: the whole course${size && `, about ${size}`}.`],
  [STATE.SAVING]: (size) => ["Saving…", `Saving the course for offline reading${size && ` (about ${size})`}…`],
  [STATE.SAVED]: () => ["", "Saved for offline reading: this course works without a network."],
  [STATE.FAILED]: (size, why) => ["Try again", `Could not save for offline reading: ${why}`],
};

export class OfflineCopy {
  /** `runtime`: the page's manifest (its sw and offline_bytes); `connection`: navigator.connection. */
  constructor(runtime, connection) {
    this.runtime = runtime;
    this.connection = connection;
    this.available = Boolean(runtime && runtime.sw) && "serviceWorker" in navigator && window.top === window;
    this.state = STATE.IDLE;
    this.why = "";
    this.control = null;
    this.asked = false;
    if (this.available) this.readExisting();
  }

  async readExisting() {
    try {
      const reg = await navigator.serviceWorker.getRegistration(new URL(".", this.runtime.sw).href);
      if (!reg) return;
      if (reg.active) this.set(STATE.SAVED);
      else if (reg.installing || reg.waiting) this.watch(reg);
    } catch (err) { /* storage denied: stays idle */ }
  }

  /** Called once Python is ready (or a page without widgets has loaded): save by itself only on a
   * fast, unmetered connection. */
  auto() {
    if (!this.available || this.asked || this.autoTimer || !unmetered(this.connection)) return;
    this.autoTimer = setTimeout(() => { if (!this.asked) this.save(); }, AUTO_DELAY_MS);
  }

  save() {
    if (!this.available || this.state === STATE.SAVING || this.state === STATE.SAVED) return;
    this.asked = true;
    this.set(STATE.SAVING);
    navigator.serviceWorker.register(this.runtime.sw).then((reg) => this.watch(reg), (err) => {
      console.warn("calculators: offline mode unavailable:", err.message);
      this.set(STATE.FAILED, err.message);
    });
  }

  watch(reg) {
    const worker = reg.installing || reg.waiting;
    if (!worker) { this.set(reg.active ? STATE.SAVED : STATE.FAILED, "the browser refused it"); return; }
    this.set(STATE.SAVING);
    const follow = () => {
      if (worker.state === "activated") this.set(STATE.SAVED);
      else if (worker.state === "redundant") this.set(STATE.FAILED, "a download failed (is the network on?)");
    };
    worker.addEventListener("statechange", follow);
    follow();
  }

  set(state, why = "") {
    this.state = state;
    this.why = why;
    this.render();
  }

  /** Put the control into this page's footer (instant navigation replaces the footer: called again
   * for every page). */
  mount(doc = document) {
    if (!this.available) return;
    const host = doc.querySelector(".md-footer-meta__inner") || doc.querySelector("footer") || doc.body;
    if (this.control && host.contains(this.control)) return;
    this.control = doc.createElement("div");
    this.control.className = "calc-offline";
    this.control.dataset.calcOffline = "";
    const button = doc.createElement("button");
    button.type = "button";
    const note = doc.createElement("span");
    note.setAttribute("role", "status");
    // Set through the CSSOM (the security policy allows no style attribute): the footer's colours.
    Object.assign(this.control.style, { display: "flex", flexWrap: "wrap", alignItems: "center", gap: "0.5em",
      margin: "0.6em 0", fontSize: "0.64rem", color: "var(--md-footer-fg-color, inherit)" });
    Object.assign(button.style, { font: "inherit", color: "inherit", background: "transparent", cursor: "pointer",
      border: "1px solid currentColor", borderRadius: "0.2em", padding: "0.2em 0.6em" });
    button.addEventListener("click", () => this.save());
    this.control.append(button, note);
    host.prepend(this.control);
    this.render();
  }

  render() {
    if (!this.control) return;
    const [label, text] = TEXT[this.state](megabytes(this.runtime.offline_bytes), this.why);
    const [button, note] = this.control.children;
    this.control.dataset.state = this.state;
    button.textContent = label;
    button.hidden = !label;
    button.disabled = this.state === STATE.SAVING;
    note.textContent = text;
  }
}
