// Pin and compare: a reader pins the current setting and keeps changing inputs; each output then
// shows the pinned value beside the live one, with the ratio live ÷ pinned. The pin is a setting
// (course_calculators/setting.py's query form: `preset=<id>&<param>=<value>&…`, or "default"),
// Python's `pin` of the result shown when the reader pins; it travels in the address as
// `<calc>.pin` (`pin` on an embed page) and goes to Python with every run, which recomputes the
// pinned outputs and the ratios. This module only shows what Python returned.

import { DOM, PIN_KEY, urlKey } from "../shared/contract.js";

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

export class PinView {
  /** `onToggle()`: the reader pressed the pin button. */
  constructor(root, onToggle) {
    this.root = root;
    this.bar = root.querySelector(DOM.pinBar);
    this.button = root.querySelector(DOM.pinButton);
    this.label = root.querySelector(DOM.pinLabel);
    this.rows = root.querySelectorAll(DOM.pinnedRow);
    // The fence's own pin (`pin:` in the page's Markdown), already shown by the build.
    this.pin = this.bar ? this.bar.dataset.pin || "" : "";
    if (this.button) {
      this.button.disabled = false;
      this.button.addEventListener("click", onToggle);
    }
  }

  get pinned() {
    return Boolean(this.pin);
  }

  /** Pin `pin` ("" unpins). The values show when Python's next result arrives. */
  set(pin) {
    this.pin = pin;
    if (this.button) {
      this.button.setAttribute("aria-pressed", String(this.pinned));
      this.button.textContent = this.pinned ? "Unpin" : "Pin to compare";
    }
    if (!this.pinned) this.show(null);
    else if (this.label) this.label.textContent = "Pinned: computing…";
  }

  /** Python's comparison (a result's `compare`), or null: nothing pinned. */
  show(compared) {
    if (this.label) this.label.textContent = compared ? compared.summary : "";
    this.rows.forEach((row) => {
      const name = row.dataset.pinnedFor;
      const out = compared && compared.outputs[name];
      row.hidden = !out;
      if (!out) return;
      const value = row.querySelector(DOM.pinnedValue);
      const ratio = row.querySelector(DOM.ratio);
      value.dataset.value = out.raw;
      value.textContent = out.text;
      ratio.dataset.value = out.ratio;
      ratio.textContent = "· now " + out.ratio_text;
    });
  }
}
