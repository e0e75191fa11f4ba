// The marks of the widget contract an element carries when what it shows is not Python's answer
// to the inputs shown: not yet computed (PENDING_ATTR with aria-busy: the page dims it and says
// so) or failed (FAILED_ATTR: the run for these inputs raised, and no number computed for other
// inputs stays). Outputs, the answer sentence, charts, pinned rows, the pin label and the figures
// in the prose that follow a widget all carry them the same way.

import { FAILED_ATTR, FAILED_TEXT, PENDING_ATTR } from "../shared/contract.js";

/** Mark `el` as not yet computed (`on`), or take the mark away. Nothing happens for no element. */
export function markPending(el, on) {
  if (!el) return;
  if (on) { el.setAttribute(PENDING_ATTR, ""); el.setAttribute("aria-busy", "true"); }
  else { el.removeAttribute(PENDING_ATTR); el.removeAttribute("aria-busy"); }
}

/** Mark a value's element (an output, a figure) as failed: its value and text say so. */
export function markFailed(el) {
  el.setAttribute(FAILED_ATTR, "");
  el.dataset.value = "";
  el.textContent = FAILED_TEXT;
}
