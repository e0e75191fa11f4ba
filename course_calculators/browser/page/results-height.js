// The room a widget's sticky results take at the top of the screen, for the style sheet: a control
// that focus scrolls to stops below them (calc.css's scroll-margin-top), however tall the results
// of this calculator are and however they grow (a pin adds a line to each).

import { DOM } from "../shared/contract.js";

/** Keep `root`'s --calc-results-height equal to the height of its results; returns a stop function. */
export function keepResultsHeight(root) {
  const results = root.querySelector(DOM.results);
  if (!results || !window.ResizeObserver) return () => {};
  const observer = new ResizeObserver(() => {
    root.style.setProperty("--calc-results-height", `${Math.ceil(results.getBoundingClientRect().height)}px`);
  });
  observer.observe(results);
  return () => observer.disconnect();
}
