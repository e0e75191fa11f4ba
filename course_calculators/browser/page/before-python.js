// What a widget shows for the reader's moves while Python cannot run them (not ready yet, a
// worker restarting, or Python that never starts): the build's answer from the widget's
// neighbourhood table (neighbourhood.js fetches it and looks states up) when the table holds the
// form's state, else every output marked not yet computed, so that no number or picture computed
// for other inputs is ever shown as current. It also says whether the form holds the rendered
// state, whose outputs, charts and comparison the HTML already shows. Nothing is computed here.

import { DOM, NEIGHBOURHOOD_ATTR } from "../shared/contract.js";
import { showAnswer } from "./answer-view.js";
import { showInFigures } from "./inline-figures.js";
import { loadTable, lookup } from "./neighbourhood.js";

export class BeforePython {
  /** `w`: the widget (page/widget.js), bound as far as its charts. `load`: neighbourhood.js's
   * loadTable (injected by the tests). */
  constructor(w, load = loadTable) {
    this.w = w;
    this.table = null; // until it arrives a move is marked not yet computed
    this.offTable = false; // the form holds a state neither Python nor the table answered
    this.answered = null; // the table's answer shown, until Python's first result
    this.builtCharts = w.charts.data; // the rendered state's, as the build drew them
    const holder = w.root.querySelector(DOM.neighbourhood);
    load(holder && holder.getAttribute(NEIGHBOURHOOD_ATTR), w.session.siteRoot).then((t) => this.arrived(t));
  }

  /** The neighbourhood table came (or null: it cannot be read). A state shown as not yet
   * computed while it was on its way is answered from it now, if Python has not answered. */
  arrived(table) {
    const w = this.w;
    if (!table || !w.root.isConnected) return;
    this.table = table;
    if (this.offTable && !w.last && !w.client.canRun) this.show();
  }

  /** Python is not there yet (or will never be): show the build's answer for the form's state
   * when its table holds it, else mark every output as not yet computed. `binding`: the widget
   * is being bound, and its form holds the fence's values unless a link or the scenario set some. */
  show(binding = false) {
    const w = this.w;
    const found = this.table ? lookup(this.table, w.form.values()) : null;
    const rendered = this.atRendered(found);
    w.pinView.beforePython(rendered, Boolean(w.client.failed));
    if (rendered && binding) { w.view.markPending(false); return; } // the HTML shows it already
    this.offTable = !found;
    if (found) this.showAnswer(found);
    else w.view.markPending(true);
  }

  /** Whether the form holds the rendered state (`found`: the table's answer for the form, or
   * null). Without a table: the fence's values, untouched by a link, the scenario or the reader,
   * and no answer from Python since. */
  atRendered(found = this.table ? lookup(this.table, this.w.form.values()) : null) {
    if (this.table) return Boolean(found && found.base);
    return !this.w.last && !this.w.form.recent.length;
  }

  /** The table's answer: outputs, notes, inputs as Python's run leaves them, the figures that
   * follow the widget, and the charts when the table knows them (showCharts). */
  showAnswer(found) {
    const w = this.w;
    this.answered = found;
    w.view.markPending(false);
    w.view.show(found);
    showAnswer(w.root, found);
    // Python gone for good: say so beside the notes (the retry button follows the message).
    const gone = w.client.failed ? "Python could not start: these values were computed at build time for these inputs." : "";
    w.message.textContent = found.notes.concat(gone ? [gone] : []).join(" ");
    w.view.showInputs(found.inputs_text);
    w.form.showResult(found.inputs, w.finalize, found.slider);
    w.finalize = false;
    this.showCharts(found);
    showInFigures(w.figures, found);
    w.writeUrl();
    w.share(found.scenario);
  }

  /** The charts of a table's answer: the table's own for that state, or the build's when they
   * are the rendered state's; else (the table carries none: too big with them) marked not yet
   * computed until Python draws them. Either only while the pin is the one the build drew (its
   * curves are on the table's charts, or none). */
  showCharts(found) {
    const { charts, pinView, view } = this.w;
    const drawn = pinView.pin === pinView.built ? found.charts || (found.chartsBuilt ? this.builtCharts : null) : null;
    if (drawn && drawn !== charts.data) charts.draw(drawn);
    view.markCharts(!drawn);
  }

  /** The table was the build's Python's and Python changed (a reload under `mkdocs serve`). */
  forget() {
    this.table = null;
  }
}
