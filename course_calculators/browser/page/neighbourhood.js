// The answers a widget gives before Python is ready (and when it never starts): its
// neighbourhood table, computed at build time by the same compute() for the rendered state with
// one control moved at a time (plugin/neighbourhood.py writes it as a JSON file, whose address
// the widget's HTML carries). This only fetches and looks a state up — it computes nothing: a
// state the table does not hold (or a table not there yet) has no answer, and the widget then
// marks its outputs as not yet computed. No DOM here (tests/js runs it in Node).

const VERSION = 2;

/** Each table's fetch, by absolute URL: a page's widgets (and the pages instant navigation
 * brings) share one. A failed fetch is forgotten, so that the next widget tries again. */
const tables = new Map();

async function fetchText(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.text();
}

/** The table at `address` (its widget's `data-neighbourhood`, relative to the site's root
 * `siteRoot`), or null (no address, unreadable, of another version, or its fetch failed). `read`
 * fetches a URL's text (injected by the tests). */
export function loadTable(address, siteRoot, read = fetchText) {
  if (!address) return Promise.resolve(null);
  const url = new URL(address, siteRoot).href;
  if (!tables.has(url)) {
    tables.set(url, read(url).then(parseTable, () => {
      tables.delete(url);
      return null;
    }));
  }
  return tables.get(url);
}

/** The table of a table file's text, or null (none, or of another version). */
export function parseTable(text) {
  if (!text) return null;
  let table;
  try { table = JSON.parse(text); } catch (err) { return null; }
  if (!table || table.v !== VERSION || !Array.isArray(table.entries) || !table.base) return null;
  table.numeric = new Set(table.numbers || []);
  return table;
}

function number(text) {
  const t = String(text).trim();
  if (t === "") return NaN;
  return Number(t);
}

/** Whether a field's raw text `a` is the canonical value `b` of parameter `name`: the same number
 * for a number field (the field may say "4096.0" or "1e3"), the same word otherwise. */
export function sameValue(table, name, a, b) {
  if (!table.numeric.has(name)) return String(a) === String(b);
  const x = number(a);
  const y = number(b);
  if (!Number.isFinite(x) || !Number.isFinite(y)) return false;
  return Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(y));
}

/** The parameters whose field (`values`: name → raw text) differs from the rendered state. */
export function differences(table, values) {
  return Object.keys(values).filter((name) => name in table.base && !sameValue(table, name, values[name], table.base[name]));
}

function matches(table, entry, values, diff) {
  const [name, value] = entry.set;
  if (diff.length === 1 && diff[0] === name && sameValue(table, name, values[name], value)) return true;
  // The state the entry's run left the fields in (a model's shape filled, a model turned custom).
  const keys = Object.keys(entry.in);
  return keys.length === diff.length && diff.every((n) => n in entry.in && sameValue(table, n, values[n], entry.in[n]));
}

function answer(table, entry) {
  const raw = {};
  const text = {};
  table.outputs.forEach((name, i) => { [raw[name], text[name]] = table.base_out[i]; });
  const base = entry === null;
  if (!base) entry.out.forEach(([i, r, t]) => { raw[table.outputs[i]] = r; text[table.outputs[i]] = t; });
  return {
    base, // the rendered state itself: its charts are the build's
    inputs: Object.assign({}, table.base, base ? {} : entry.in),
    raw,
    text,
    notes: (base ? table.base_notes : entry.notes) ? [base ? table.base_notes : entry.notes] : [],
    changed: base ? table.base_changed : entry.changed,
    pin: base ? table.base_pin : entry.pin,
    slider: Object.assign({}, table.base_slider, base ? {} : entry.slider),
    inputs_text: Object.assign({}, table.base_text, base ? {} : entry.text),
    answer: base || !("answer" in entry) ? table.base_answer : entry.answer,
    bars: base || !("bars" in entry) ? table.base_bars : entry.bars,
    scenario: Object.assign({}, table.base_scenario, base ? {} : entry.scenario),
    // The charts: an entry's own (a table that carries them), or the rendered state's (the
    // build's picture in the HTML); neither when the table carries none.
    charts: !base && table.charts && entry.charts ? entry.charts : null,
    chartsBuilt: base || Boolean(table.charts && !entry.charts),
  };
}

/** The build's answer for a form whose fields hold `values` (name → raw text), or null when the
 * table does not hold that state. The answer has a result's fields (raw, text, notes, inputs,
 * slider, changed, pin, inputs_text, answer, bars, scenario, charts: the entry's own or null),
 * `chartsBuilt`: whether its charts are the rendered state's, and `base`: whether it is the
 * rendered state. */
export function lookup(table, values) {
  if (!table) return null;
  const diff = differences(table, values);
  if (diff.length === 0) return answer(table, null);
  const entry = table.entries.find((e) => matches(table, e, values, diff));
  return entry ? answer(table, entry) : null;
}
