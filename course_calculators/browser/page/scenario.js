// One scenario through the chapter: a field with data-scenario="gpu" (or "model", "gpus", …)
// shares the reader's choice with every other calculator that has a field of that scenario, on
// this page and on the next ones, until the reader resets it. The choice travels in the address
// in short keys (`?gpu=h200&gpus=8`, next to a widget's own `<calc>.<param>` keys, which win;
// contract.js's scenarioKey) and lives in sessionStorage across instant navigation and reloads.
// A select's "custom" value (a shape the reader typed) is that widget's own and is not shared.
// Embed pages keep to themselves.

import { SCENARIO_STORE, scenarioKey, scenarioOfKey } from "../shared/contract.js";

function usable(el, value) {
  if (el.tagName !== "SELECT") return true; // Python clamps or refuses any number, and says so
  return Array.from(el.options).some((o) => o.value === value) && value !== el.dataset.custom;
}

export class Scenario {
  /** `storage`: sessionStorage (or null); `search`: the page's query string. */
  constructor(storage, search) {
    this.storage = storage;
    this.values = {};
    try { Object.assign(this.values, JSON.parse((storage && storage.getItem(SCENARIO_STORE)) || "{}")); } catch (err) { /* a bad entry is no choice */ }
    // Plain keys of a chapter page's address: only those a scenario field names are used.
    this.linked = {};
    new URLSearchParams(search).forEach((value, key) => {
      const scenario = scenarioOfKey(key);
      if (scenario !== null) this.linked[scenario] = value;
    });
  }

  /** Values for a widget's scenario fields (the link's first, else the session's), before its
   * own keys are read from the address. */
  valuesFor(form) {
    const out = {};
    form.scenarioFields().forEach(([name, scenario, el]) => {
      const value = scenario in this.linked ? this.linked[scenario] : this.values[scenario];
      if (value !== undefined && usable(el, String(value))) out[name] = String(value);
    });
    return out;
  }

  /** The reader set `value` on a field of `scenario`: remember it. Returns whether it is shared
   * (a select's custom value is the widget's own). */
  set(scenario, value, el) {
    if (el && !usable(el, value)) return false;
    this.values[scenario] = value;
    delete this.linked[scenario];
    this.save();
    return true;
  }

  forget(scenario) {
    delete this.values[scenario];
    delete this.linked[scenario];
    this.save();
  }

  clear() {
    this.values = {};
    this.linked = {};
    this.save();
  }

  save() {
    try { if (this.storage) this.storage.setItem(SCENARIO_STORE, JSON.stringify(this.values)); } catch (err) { /* full or denied: the page still works */ }
  }

  /** `href` with the scenario's short keys (only those this page's widgets use). */
  withKeys(href, used) {
    const url = new URL(href);
    used.forEach((scenario) => {
      if (scenario in this.values) url.searchParams.set(scenarioKey(scenario), String(this.values[scenario]));
      else url.searchParams.delete(scenarioKey(scenario));
    });
    return url;
  }
}
