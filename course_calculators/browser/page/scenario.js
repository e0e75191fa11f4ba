// One scenario through the chapter: a field with data-scenario="world" (or "rate", "config", …)
// shares the reader's value with every other calculator that has a field of that scenario, on
// this page, on the next ones, after navigating back and in a new tab, until the reader resets it.
// The values travel in the address in short keys (`?world=moon&rate=5`, next to a widget's own
// `<calc>.<param>` keys, which win on a link; contract.js's scenarioKey) and live in localStorage
// (contract.js's SCENARIO_STORE), each with where it came from: a link, or the page it was set on
// (page/scenario-line.js says so). A select's "custom" value (a shape the reader typed) is that
// widget's own and is not shared. Embed pages keep to themselves.

import { ORIGIN, SCENARIO_STORE, scenarioKey, scenarioOfKey } from "../shared/contract.js";

function usable(el, value) {
  if (el.tagName !== "SELECT") return true; // Python clamps or refuses any number, and says so
  return Array.from(el.options).some((o) => o.value === value) && value !== el.dataset.custom;
}

/** The stored entry, in the current form ({values, origins}) or the older plain {scenario: value}. */
function readStore(storage) {
  let entry = {};
  try { entry = JSON.parse((storage && storage.getItem(SCENARIO_STORE)) || "{}") || {}; } catch (err) { entry = {}; } // a bad entry is no choice
  if (typeof entry !== "object" || Array.isArray(entry)) return { values: {}, origins: {} };
  if (!entry.values || typeof entry.values !== "object") return { values: { ...entry }, origins: {} };
  return { values: { ...entry.values }, origins: { ...(entry.origins || {}) } };
}

export class Scenario {
  /** `storage`: localStorage (or null); `search`: the page's query string; `page`: {path, title}
   * of the page the reader is on. */
  constructor(storage, search, page = { path: "", title: "" }) {
    this.storage = storage;
    const { values, origins } = readStore(storage);
    this.values = values;
    this.origins = origins; // scenario → {from: ORIGIN.LINK | ORIGIN.PAGE, path, title}
    this.linked = {};
    this.page = page;
    this.arrive(search, page, false);
  }

  /** A page of the session was reached (the first one, or by instant navigation): its address's
   * short keys are a link's values — unless the reader came back through the history
   * (`traversal`), where the address holds what this session wrote itself, older than the store. */
  arrive(search, page, traversal) {
    this.page = page;
    this.traversal = Boolean(traversal);
    this.linked = {};
    if (this.traversal) return;
    new URLSearchParams(search).forEach((value, key) => {
      const scenario = scenarioOfKey(key);
      if (scenario !== null) this.linked[scenario] = value;
    });
  }

  /** Values for a widget's scenario fields (the link's first, else the stored ones), before its
   * own keys are read from the address. A link's value that a field takes is kept (from a link). */
  valuesFor(form) {
    const out = {};
    form.scenarioFields().forEach(([name, scenario, el]) => {
      const linked = scenario in this.linked;
      const value = linked ? this.linked[scenario] : this.values[scenario];
      if (value === undefined || !usable(el, String(value))) return;
      out[name] = String(value);
      if (linked && this.values[scenario] !== String(value)) {
        this.values[scenario] = String(value);
        this.origins[scenario] = { from: ORIGIN.LINK, path: this.page.path, title: this.page.title };
        this.save();
      }
    });
    return out;
  }

  /** Whether the reader's scenario holds a value for `scenario`. */
  has(scenario) {
    return scenario in this.values || scenario in this.linked;
  }

  /** Where the value of `scenario` came from, seen from the page at `path`: ORIGIN.LINK,
   * ORIGIN.HERE, ORIGIN.ELSEWHERE (with the page's title), or null when there is none. */
  originOf(scenario, path) {
    if (!(scenario in this.values)) return null;
    const o = this.origins[scenario] || {};
    if (o.from === ORIGIN.LINK) return { from: ORIGIN.LINK, title: o.title || "" };
    return o.path === path ? { from: ORIGIN.HERE, title: o.title || "" } : { from: ORIGIN.ELSEWHERE, title: o.title || "" };
  }

  /** The reader set `value` on a field of `scenario`: remember it, set on this page. Returns
   * whether it is shared (a select's custom value is the widget's own). */
  set(scenario, value, el) {
    if (el && !usable(el, value)) return false;
    this.values[scenario] = value;
    this.origins[scenario] = { from: ORIGIN.PAGE, path: this.page.path, title: this.page.title };
    delete this.linked[scenario];
    this.save();
    return true;
  }

  forget(scenario) {
    delete this.values[scenario];
    delete this.origins[scenario];
    delete this.linked[scenario];
    this.save();
  }

  clear() {
    this.values = {};
    this.origins = {};
    this.linked = {};
    this.save();
  }

  save() {
    try {
      if (this.storage) this.storage.setItem(SCENARIO_STORE, JSON.stringify({ values: this.values, origins: this.origins }));
    } catch (err) { /* full or denied: the page still works */ }
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
