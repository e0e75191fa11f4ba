// Figures in the prose that describe "the calculator below" (plugin/figures.py's `follow`): each
// keeps showing its output of the next widget of that calculator on the page, as the reader
// changes that widget. Python computed the text; this only copies it.

import { DOM } from "../shared/contract.js";

const FOLLOWS = Node.DOCUMENT_POSITION_FOLLOWING;

/** The following figures whose next widget of their calculator is `root`. */
export function followersOf(root) {
  const calc = root.dataset.calc;
  const widgets = Array.from(document.querySelectorAll(DOM.widget)).filter((w) => w.dataset.calc === calc);
  return Array.from(document.querySelectorAll(`${DOM.figure}[data-follow]`)).filter((figure) => {
    if (figure.dataset.figure !== calc) return false;
    const next = widgets.find((w) => figure.compareDocumentPosition(w) & FOLLOWS);
    return next === root;
  });
}

/** Show a result's outputs in the figures that follow its widget. */
export function showInFigures(figures, result) {
  figures.forEach((figure) => {
    const name = figure.dataset.output;
    if (!(name in result.raw)) return;
    figure.dataset.value = result.raw[name];
    figure.textContent = result.text[name];
  });
}
