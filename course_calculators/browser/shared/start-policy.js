// When Python may start on a page (runtime.js applies it, and the worker reads the same rule).
//
// AFTER_RENDER: once the page's own first render is done (the frame after DOMContentLoaded), so
// that the runtime's downloads and its processor time never delay the page's paints.
// ON_TOUCH: when the reader first touches a widget, for a reader who asked to save data or whose
// connection the browser reports as slow (navigator.connection, where it exists).

export const POLICY = Object.freeze({ AFTER_RENDER: "after-render", ON_TOUCH: "on-touch" });
const SLOW_TYPES = ["slow-2g", "2g", "3g"];

export function startPolicy(connection) {
  if (connection && (connection.saveData || SLOW_TYPES.includes(connection.effectiveType))) return POLICY.ON_TOUCH;
  return POLICY.AFTER_RENDER;
}

/** `fn` after the page's first render: the frame that follows DOMContentLoaded has painted. */
export function afterFirstRender(fn) {
  const go = () => requestAnimationFrame(() => setTimeout(fn, 0));
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", go, { once: true });
  else go();
}

/** The events that count as touching a widget (pointer, keyboard, focus, an edit). */
export const TOUCH_EVENTS = ["pointerdown", "keydown", "focusin", "input", "change"];
