// "Your scenario": one compact line in a widget saying which of its values are the reader's
// scenario (page/scenario.js) and where each came from — a link, another page (named), this page
// — with one click back to the page's own example (whose figures the prose quotes) and one to
// forget the scenario. It shows what the fields hold (Python's values); it decides nothing.

import { DOM, ORIGIN } from "../shared/contract.js";

const FROM = {
  [ORIGIN.LINK]: () => "from a link",
  [ORIGIN.HERE]: () => "set on this page",
  [ORIGIN.ELSEWHERE]: (title) => (title ? `from “${title}”` : "from another page"),
};

function labelOf(el) {
  const label = el.labels && el.labels[0];
  const text = label ? label.textContent : el.name;
  return String(text).replace(/\s*\([^)]*\)\s*$/, "").trim(); // without its unit
}

function valueText(el) {
  if (el.tagName === "SELECT") {
    const option = Array.from(el.options).find((o) => o.value === el.value);
    return option ? option.text : el.value;
  }
  if (el.tagName === "TEXTAREA") return `pasted (${el.value.length.toLocaleString("en-US")} characters)`;
  return el.value;
}

/**
 * The entries of a widget's line: [{name, label, value, from}] for each of its scenario fields
 * that the scenario holds. A field that another of them fills (a model's shape, beside the
 * model or a pasted config also held) is counted under its filler, not listed.
 */
export function scenarioEntries(form, scenario, path) {
  const fields = form.scenarioFields().filter(([, s]) => scenario.originOf(s, path));
  const held = new Set(fields.map(([name]) => name));
  const filledBy = {};
  fields.forEach(([name, , el]) => {
    (el.dataset.fills || "").split(" ").filter((n) => n && held.has(n)).forEach((n) => { if (!(n in filledBy)) filledBy[n] = name; });
  });
  // A filler filled by another one (a model beside a pasted config) is the config's.
  const entries = [];
  fields.forEach(([name, s, el]) => {
    if (name in filledBy) return;
    const origin = scenario.originOf(s, path);
    const filled = Object.keys(filledBy).filter((n) => filledBy[n] === name).length;
    entries.push({ name, label: labelOf(el), value: valueText(el) + (filled ? ` (+${filled} of its fields)` : ""),
                   from: FROM[origin.from](origin.title) });
  });
  return entries;
}

function element(tag, className, text) {
  const el = document.createElement(tag);
  if (className) el.className = className;
  if (text !== undefined) el.textContent = text;
  return el;
}

/** Draw the line in `root` (its [data-scenario-line]): `entries` (scenarioEntries), whether they
 * replaced the page's example on arrival (`replaced`), whether the widget shows the example now
 * (`example`), and the buttons' actions. */
export function showScenarioLine(root, { entries, replaced, example, onExample, onMine, onForget }) {
  const line = root.querySelector(DOM.scenarioLine);
  if (!line) return;
  if (!entries.length) { line.hidden = true; line.replaceChildren(); return; }
  const parts = [element("span", "calc__scenario-title", example ? "This page's example; your scenario: " : "Your scenario: ")];
  entries.forEach((e, i) => {
    const item = element("span", "calc__scenario-item");
    item.dataset.scenarioItem = e.name;
    item.append(element("span", "", `${e.label} ${e.value} `), element("small", "calc__scenario-from", `(${e.from})`));
    parts.push(item);
    if (i < entries.length - 1) parts.push(element("span", "", " · "));
  });
  if (replaced && !example) parts.push(element("span", "calc__scenario-note", " — in place of this page's example."));
  const button = (action, text, fn) => {
    const b = element("button", "calc__tool calc__scenario-button", text);
    b.type = "button";
    b.dataset.action = action;
    b.addEventListener("click", fn);
    return b;
  };
  parts.push(example ? button("scenario-mine", "Use my scenario", onMine)
    : button("scenario-example", "This page's example", onExample));
  parts.push(button("scenario-forget", "Forget my scenario", onForget));
  line.replaceChildren(...parts);
  line.hidden = false;
}
