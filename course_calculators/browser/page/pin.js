// Pin and compare: a reader pins the current setting and keeps changing inputs; each output then
// shows the pinned value beside the live one, with the ratio live ÷ pinned. The pin is a setting
// (course_calculators/setting.py's query form: `preset=<id>&<param>=<value>&…`, or "default"),
// Python's `pin` of the result shown when the reader pins; it travels in the address as
// `<calc>.pin` (`pin` on an embed page) and goes to Python with every run, which recomputes the
// pinned outputs and the ratios. This module only shows what Python returned (or, before Python,
// the build's comparison of the rendered state with the fence's pin); whatever Python has not
// computed for the inputs shown is marked not yet computed (data-pending, aria-busy), never shown
// as current.

import { DOM, PIN_KEY, urlKey } from "../shared/contract.js";
import { markPending as mark } from "./marks.js";

/** The pin a query string gives this widget, or "" (its key is `<calc>.pin`, `pin` on an embed). */
export function pinOfQuery(search, calc, embed) {
  const value = new URLSearchParams(search).get(urlKey(calc, PIN_KEY, embed));
  return value && value.trim() ? value : "";
}

/** `href` with this widget's pin key set to `pin`, or removed when `pin` is "". */
export function withPin(href, calc, embed, pin) {
  const url = new URL(href);
  const key = urlKey(calc, PIN_KEY, embed);
  if (pin) url.searchParams.set(key, pin);
  else url.searchParams.delete(key);
  return url;
}

/** What the pin's label says while Python has not computed the pinned setting beside the inputs
 * shown: it is not ready yet, it could not start, or it is computing now. */
export const PIN_LABEL = Object.freeze({
  WAITING: "Pinned: not yet computed (waiting for Python)",
  NO_PYTHON: "Pinned: cannot be computed without Python",
  COMPUTING: "Pinned: computing…",
  FAILED: "Pinned: not computed (this calculation failed)",
  STOPPED: "Pinned: not computed (the calculation took too long)",
});

export class PinView {
  /** `onToggle()`: the reader pressed the pin button. */
  constructor(root, onToggle) {
    this.root = root;
    this.bar = root.querySelector(DOM.pinBar);
    this.button = root.querySelector(DOM.pinButton);
    this.label = root.querySelector(DOM.pinLabel);
    this.rows = root.querySelectorAll(DOM.pinnedRow);
    // The fence's own pin (`pin:` in the page's Markdown), already shown by the build: its
    // comparison with the rendered state, kept to show again while that is the state and the pin.
    this.pin = this.bar ? this.bar.dataset.pin || "" : "";
    this.built = this.pin;
    this.builtLabel = this.label ? this.label.textContent : "";
    this.builtRows = Array.from(this.rows, (row) => this.read(row));
    this.shown = this.pin; // the pin whose values the rows show now (Python's or the build's)
    if (this.button) {
      this.button.disabled = false;
      this.button.addEventListener("click", onToggle);
    }
  }

  get pinned() {
    return Boolean(this.pin);
  }

  /** Pin `pin` ("" unpins). The values show when Python's next result arrives; meanwhile the
   * widget says why they are not there (computing, beforePython). */
  set(pin) {
    this.pin = pin;
    if (this.button) {
      this.button.setAttribute("aria-pressed", String(this.pinned));
      this.button.textContent = this.pinned ? "Unpin" : "Pin to compare";
    }
    if (!this.pinned) this.show(null);
  }

  /** Python is computing the inputs shown: a pin whose values the rows do not hold yet says so. */
  computing() {
    if (this.pinned && this.pin !== this.shown) this.pending(PIN_LABEL.COMPUTING);
  }

  /** Python cannot compute now (not ready yet, or `failed` to start): the build's comparison
   * while the form holds the `rendered` state and the pin is the fence's; otherwise the rows and
   * the label are marked not yet computed, and the label says why. Nothing is computed here. */
  beforePython(rendered, failed) {
    if (!this.pinned) return;
    if (rendered && this.pin === this.built) { this.restore(); return; }
    this.pending(failed ? PIN_LABEL.NO_PYTHON : PIN_LABEL.WAITING);
  }

  /** Not computed for another reason (the run failed or was stopped): `text` says which. */
  unavailable(text) {
    if (this.pinned) this.pending(text);
  }

  /** Mark the label and every row not yet computed: a row keeps the build's pinned value when the
   * pin is the build's (the ratio, against other live inputs, goes), else shows none. */
  pending(text) {
    if (this.label) { this.label.textContent = text; mark(this.label, true); }
    this.rows.forEach((row, i) => {
      const built = this.builtRows[i];
      const same = this.pin === this.built; // the build's pinned values are this pin's
      this.write(row, { hidden: same && built.hidden, value: same ? built.value : ["", ""], ratio: ["", ""] });
      mark(row, true);
    });
    this.shown = "";
  }

  /** The build's comparison again (the rendered state, the fence's pin). */
  restore() {
    if (this.label) { this.label.textContent = this.builtLabel; mark(this.label, false); }
    this.rows.forEach((row, i) => { this.write(row, this.builtRows[i]); mark(row, false); });
    this.shown = this.built;
  }

  read(row) {
    const value = row.querySelector(DOM.pinnedValue);
    const ratio = row.querySelector(DOM.ratio);
    return {
      hidden: Boolean(row.hidden),
      value: value ? [value.dataset.value || "", value.textContent] : ["", ""],
      ratio: ratio ? [ratio.dataset.value || "", ratio.textContent] : ["", ""],
    };
  }

  write(row, { hidden, value, ratio }) {
    row.hidden = hidden;
    const v = row.querySelector(DOM.pinnedValue);
    const r = row.querySelector(DOM.ratio);
    if (v) [v.dataset.value, v.textContent] = value;
    if (r) [r.dataset.value, r.textContent] = ratio;
  }

  /** Python's comparison (a result's `compare`), or null: nothing pinned. Its `pin`, the
   * canonical form of the pin, replaces the one the page or a link gave. */
  show(compared) {
    if (compared && compared.pin) this.pin = compared.pin;
    if (this.label) { this.label.textContent = compared ? compared.summary : ""; mark(this.label, false); }
    this.shown = compared ? this.pin : "";
    this.rows.forEach((row) => {
      mark(row, false);
      const name = row.dataset.pinnedFor;
      const out = compared && compared.outputs[name];
      row.hidden = !out;
      if (!out) return;
      this.write(row, { hidden: false, value: [out.raw, out.text], ratio: [out.ratio, "· now " + out.ratio_text] });
    });
  }
}
