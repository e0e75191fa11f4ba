// A widget's answer: the sentence Python computed (the result's `answer`) above the answer
// outputs, and each stacked bar of an output group (the result's `bars`: every part's share as
// Python computed it). This only moves Python's text and numbers into place: no arithmetic.

import { DOM } from "../shared/contract.js";

/** Show `result`'s answer sentence and bars in widget `root`. */
export function showAnswer(root, result) {
  const sentence = root.querySelector(DOM.answer);
  if (sentence && typeof result.answer === "string") sentence.textContent = result.answer;
  const bars = result.bars || {};
  root.querySelectorAll(DOM.bar).forEach((bar) => {
    const drawn = bars[bar.dataset.bar];
    if (!drawn) return;
    const parts = Object.fromEntries((drawn.parts || []).map((p) => [p.name, p]));
    bar.querySelectorAll(DOM.barPart).forEach((el) => {
      const part = parts[el.dataset.barPart];
      el.style.width = `${part ? part.share : 0}%`;
    });
    bar.querySelectorAll(DOM.barText).forEach((el) => {
      const part = parts[el.dataset.barText];
      el.textContent = part ? part.text : "";
    });
    bar.querySelectorAll(DOM.barKey).forEach((el) => {
      const part = parts[el.dataset.barKey];
      el.hidden = Boolean(part) && part.shown === false; // an optional part at 0: no legend entry
    });
    const track = bar.querySelector(DOM.barSummary);
    if (track && drawn.summary) track.setAttribute("aria-label", drawn.summary);
  });
}
