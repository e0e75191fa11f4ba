// The few DOM surfaces the browser modules under test read, without a browser: elements with
// attributes, dataset, listeners and children, and roots that answer querySelector(All) from a
// table of the exact selectors a module asks for (shared/contract.js's DOM names them). Not a DOM
// implementation: a test that needs more than this belongs in tests/e2e.

export class FakeElement {
  constructor(tagName, { name = "", value = "", dataset = {}, attrs = {}, textContent = "" } = {}) {
    this.tagName = tagName.toUpperCase();
    this.name = name;
    this.value = value;
    this.dataset = { ...dataset };
    this.attrs = { ...attrs };
    this.textContent = textContent;
    this.children = [];
    this.listeners = {};
    this.disabled = false;
    this.className = "";
    this.classes = new Set();
    this.classList = { add: (c) => this.classes.add(c), contains: (c) => this.classes.has(c) };
    this.styles = {};
    this.style = { setProperty: (k, v) => { this.styles[k] = v; } };
    this.selectors = {};
  }

  addEventListener(type, fn) { (this.listeners[type] ||= []).push(fn); }
  removeEventListener(type, fn) { this.listeners[type] = (this.listeners[type] || []).filter((f) => f !== fn); }
  /** Fire `type` at this element, as the browser would. */
  dispatch(type, extra = {}) {
    const event = { type, target: this, preventDefault() { this.defaultPrevented = true; }, ...extra };
    (this.listeners[type] || []).slice().forEach((fn) => fn(event));
    return event;
  }

  setAttribute(k, v) { this.attrs[k] = String(v); }
  getAttribute(k) { return Object.prototype.hasOwnProperty.call(this.attrs, k) ? this.attrs[k] : null; }
  hasAttribute(k) { return Object.prototype.hasOwnProperty.call(this.attrs, k); }
  removeAttribute(k) { delete this.attrs[k]; }

  append(...nodes) { nodes.forEach((n) => this.children.push(n)); }
  appendChild(node) { this.children.push(node); return node; }
  replaceChildren(...nodes) { this.children = nodes; }

  /** Answer these selectors (exact strings) with these elements. */
  answer(selectors) { Object.assign(this.selectors, selectors); return this; }
  querySelectorAll(sel) { return this.selectors[sel] || []; }
  querySelector(sel) { return (this.selectors[sel] || [])[0] || null; }
}

/** A root element whose querySelector(All) answers from `selectors` (selector → elements). */
export function fakeRoot(selectors = {}) {
  return new FakeElement("div").answer(selectors);
}

/** `globalThis.document` with createElement and an activeElement (what the modules read). */
export function fakeDocument() {
  const doc = { activeElement: null, createElement: (tag) => new FakeElement(tag) };
  globalThis.document = doc;
  return doc;
}
