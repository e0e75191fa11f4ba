// A widget's inputs in the page's address: read from a link when the widget binds, written back
// (throttled) as the reader changes them. Keys follow contract.js (`<calc-id>.<param>` on a chapter
// page, `<param>` on an embed page). A link carries every input that differs from the page's
// fence setting (Python's `changed`), so on that page it reproduces exactly what its reader saw.

import { paramOfKey, urlKey } from "../shared/contract.js";

const own = (obj, key) => Object.prototype.hasOwnProperty.call(obj, key);

/**
 * What a query string says to one widget: `values`, its parameters (`isParam(name)`) as the link
 * spells them, and `unknown`, other keys with this chapter widget's prefix (Python's notes then
 * name them; an embed page's plain keys may be anyone's, so it keeps none).
 */
export function readQuery(search, { calc, embed, isParam }) {
  const values = {};
  const unknown = {};
  new URLSearchParams(search).forEach((value, key) => {
    const name = paramOfKey(key, calc, embed);
    if (name === null) return;
    if (isParam(name)) values[name] = value;
    else if (!embed && name) unknown[name] = value;
  });
  return { values, unknown };
}

/**
 * The inputs of the first run after a link: the form's values, except where a field still shows
 * what the form made of the link's string (a number field empties "0x1F", a select cannot hold
 * "h900"), which sends the link's own string, plus the link's unknown keys. Python then says what
 * the link said. `link.raw` holds the link's strings, `link.shown` what the fields showed.
 */
export function firstRunInputs(formValues, link) {
  const raw = Object.assign({}, formValues);
  Object.keys(link.raw).forEach((name) => {
    if (!own(link.shown, name) || raw[name] === link.shown[name]) raw[name] = link.raw[name];
  });
  return raw;
}

/** `href` with this widget's keys replaced by `changed` (Python's: {param: canonical text}); other keys stay. */
export function withInputs(href, { calc, embed, isParam, changed }) {
  const url = new URL(href);
  Array.from(url.searchParams.keys()).forEach((key) => {
    const name = paramOfKey(key, calc, embed);
    if (name !== null && isParam(name)) url.searchParams.delete(key);
  });
  Object.keys(changed).forEach((name) => url.searchParams.set(urlKey(calc, name, embed), changed[name]));
  return url;
}

/** `write(value)` at most once per `ms`: the first call at once, the last one always (after the
 * interval). history.replaceState costs a few milliseconds and browsers rate-limit it. */
export function throttle(write, ms) {
  let latest;
  let timer = 0;
  return (value) => {
    latest = value;
    if (timer) return;
    write(latest);
    timer = setTimeout(() => { timer = 0; write(latest); }, ms);
  };
}
