// Which elements of a widget show its values, and carry the contract's marks together: each
// output (its text and data-value), the figures in the prose that follow the widget, the answer
// sentence, the charts' figures, the printed page's input cells and the root. The widget decides
// when (a result from Python, the build's table, nothing yet); this module, what each mark covers.

import { DOM, FAILED_ATTR } from "../shared/contract.js";
import { markFailed, markPending } from "./marks.js";

export class OutputsView {
  /** `root`: the widget's element; `figures`: the prose's figures that follow it. */
  constructor(root, figures) {
    this.root = root;
    this.outputs = root.querySelectorAll(DOM.outputs);
    this.figures = figures;
  }

  /** Each output's text and data-value from a result (Python's, or the table's). */
  show(result) {
    this.outputs.forEach((el) => {
      const name = el.dataset.output;
      if (!(name in result.raw)) return;
      el.dataset.value = result.raw[name];
      if (el.hasAttribute("data-bool")) el.dataset.bool = result.raw[name];
      el.textContent = result.text[name];
    });
  }

  /** The inputs as a printed page shows them (Python's text for each). */
  showInputs(texts) {
    this.root.querySelectorAll(DOM.printInput).forEach((cell) => {
      if (cell.dataset.input in texts) cell.textContent = texts[cell.dataset.input];
    });
  }

  /** Mark (or unmark) every output, the figures that follow, the sentence, the charts and the
   * widget as not yet computed: what they show is not the answer to the inputs shown. */
  markPending(on) {
    const mark = (el) => markPending(el, on);
    this.outputs.forEach(mark);
    this.figures.forEach(mark); // the prose's figures show the widget's outputs
    this.root.querySelectorAll(DOM.answer).forEach(mark); // the sentence rests on the outputs
    mark(this.root);
    this.markCharts(on);
  }

  markCharts(on) {
    this.root.querySelectorAll(DOM.chart).forEach((fig) => markPending(fig, on));
  }

  /** The run for the inputs shown raised: no output keeps a number computed for other inputs. */
  markFailed() {
    this.markPending(false);
    this.root.setAttribute(FAILED_ATTR, "");
    [...this.outputs, ...this.figures].forEach(markFailed);
  }

  clearMarks() {
    this.markPending(false);
    this.root.removeAttribute(FAILED_ATTR);
    [...this.outputs, ...this.figures].forEach((el) => el.removeAttribute(FAILED_ATTR));
  }
}
