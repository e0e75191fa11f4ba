// A widget's form: its number fields, selects and text areas (one per parameter, by name) and the
// sliders beside the number fields. It reports the reader's edits and shows the values it is
// given; it never judges a value (Python clamps or refuses, and says so), nor what a setting of
// several fields means: a field that a model fills, set after the model, makes the model custom
// in Python (calculator.py's _fold), which the next result shows. It only keeps the order in
// which fields were set, since Python applies a run's inputs in that order.

import { DOM } from "../shared/contract.js";
import { sliderPosition, sliderValue } from "./slider.js";

export class Form {
  /** `onEdit(finalize, name)`: the reader changed the value of `name`; finalize is true when the
   * edit is complete (a number field's change event), so Python's value may replace what the
   * field shows. */
  constructor(root, onEdit) {
    this.fields = new Map();
    this.sliders = new Map();
    // The names set since Python's last result (by the reader or from outside), in order: a run
    // sends them last, because Python applies a run's inputs in order (a model set after its
    // shape fields fills them; a shape field set after its model makes the model custom).
    this.recent = [];
    root.querySelectorAll(DOM.fields).forEach((el) => this.fields.set(el.name, el));
    root.querySelectorAll(DOM.sliders).forEach((el) => this.sliders.set(el.dataset.for, el));
    const form = root.querySelector(DOM.form);
    if (form) form.addEventListener("submit", (e) => e.preventDefault());
    const edited = (name, finalize) => { this.touch([name]); onEdit(finalize, name); };
    this.fields.forEach((el, name) => {
      if (el.tagName === "SELECT") {
        el.addEventListener("change", () => edited(name, false));
      } else {
        el.addEventListener("input", () => { this.syncSlider(name, el.value); edited(name, false); });
        el.addEventListener("change", () => edited(name, true));
      }
    });
    this.sliders.forEach((slider, name) => {
      slider.addEventListener("input", () => {
        const field = this.fields.get(name);
        if (!field) return;
        field.value = sliderValue(slider);
        slider.setAttribute("aria-valuetext", field.value);
        edited(name, false);
      });
    });
  }

  /** Values from outside the form (a link, an embed message, another calculator), as a reader
   * would enter them. */
  enter(values) {
    this.setValues(values);
    this.touch(Object.keys(values));
  }

  /** `names` were just set: the next run sends them last, in this order. */
  touch(names) {
    names.forEach((name) => {
      if (!this.fields.has(name)) return;
      this.recent = this.recent.filter((n) => n !== name);
      this.recent.push(name);
    });
  }

  /** The fields an edit of `name` may change besides it: what fills it (its model, a pasted
   * text), what those fill, and what it fills itself (`data-fills`). Python's next result says
   * what each of them then carries to the other calculators (its `scenario`). */
  linked(name) {
    const names = new Set([name]);
    const fillsOf = (el) => (el.dataset.fills || "").split(" ").filter(Boolean);
    this.fields.forEach((el, other) => {
      const fills = fillsOf(el);
      if (other !== name && !fills.includes(name)) return;
      names.add(other);
      fills.forEach((n) => names.add(n));
    });
    return Array.from(names).filter((n) => this.fields.has(n));
  }

  /** The names of this form's fields that share a scenario, with that scenario's name. */
  scenarioFields() {
    const out = [];
    this.fields.forEach((el, name) => { if (el.dataset.scenario) out.push([name, el.dataset.scenario, el]); });
    return out;
  }

  has(name) {
    return this.fields.has(name);
  }

  /** Every field's value, as the raw string it holds; the ones set since the last result last. */
  values() {
    const raw = {};
    this.fields.forEach((el, name) => { if (!this.recent.includes(name)) raw[name] = el.value; });
    this.recent.forEach((name) => { raw[name] = this.fields.get(name).value; });
    return raw;
  }

  /** Put values into their fields (names without a field are skipped). */
  setValues(values) {
    Object.keys(values).forEach((name) => {
      const field = this.fields.get(name);
      if (!field) return;
      field.value = String(values[name]);
      this.syncSlider(name, field.value);
    });
  }

  /** Python's inputs for a result, and its log sliders' positions (`sliders`: the result's
   * `slider`). A number field being typed in keeps the reader's text until the edit is complete
   * (`finalize`): replacing "1" by "1024" while they type would fight them. */
  showResult(inputs, finalize, sliders = {}) {
    this.recent = []; // the fields now hold Python's inputs, which agree with each other
    const focused = document.activeElement;
    Object.keys(inputs).forEach((name) => {
      const field = this.fields.get(name);
      if (!field) return;
      const value = String(inputs[name]);
      if (field.tagName === "SELECT" || finalize || field !== focused) field.value = value;
      this.syncSlider(name, value, sliders[name]);
    });
  }

  /** Move `name`'s slider to `value`: a linear slider at once; a log slider to Python's
   * `position` (until a result gives it, the slider stays where it is). */
  syncSlider(name, value, position) {
    const slider = this.sliders.get(name);
    const v = Number(value);
    if (!slider || value === "" || !Number.isFinite(v)) return;
    const at = sliderPosition(slider, v, position);
    if (at !== null) slider.value = at;
    slider.setAttribute("aria-valuetext", value); // a log slider's own value is a position
  }
}
