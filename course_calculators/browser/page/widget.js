// One widget: its form, its outputs, its runs in the worker (run-queue.js: latest value wins), its
// links. The HTML arrives with correct outputs for its inputs (computed at build time by the same
// Python); this moves values between the form and the worker and shows Python's answers (while
// Python cannot run, before-python.js answers from the build's table).

import { BASE_KEY, DOM, PIN_KEY, urlName } from "../shared/contract.js";
import { MSG, STATE } from "../shared/protocol.js";
import { Announcer } from "./announcer.js";
import { showAnswer } from "./answer-view.js";
import { BeforePython } from "./before-python.js";
import { scenarioEntries, showScenarioLine } from "./scenario-line.js";
import { ChartView } from "./chart-view.js";
import { Form } from "./form.js";
import { followersOf, showInFigures } from "./inline-figures.js";
import { keepResultsHeight } from "./results-height.js";
import { OutputsView } from "./outputs-view.js";
import { PIN_LABEL, PinView, pinOfQuery, withPin } from "./pin.js";
import { ANSWER, RunQueue } from "./run-queue.js";
import { embedSnippet, iframeSnippet } from "./embed-snippet.js";
import { bindSource } from "./source-view.js";
import { bindButtons } from "./buttons.js";
import { firstRunInputs, readQuery, throttle, withInputs } from "./url-state.js";

const URL_INTERVAL_MS = 250;

function formatSeconds(ms) {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${Math.round(ms)} ms`;
}

export class Widget {
  /** `session`: {client (worker-client.js), embedPage (or null), scenario (or null), siteRoot,
   * withChart, timedOut(widget), shareScenario, resetScenario}: session.js's PageSession. */
  constructor(root, session) {
    this.root = root;
    this.session = session;
    this.client = session.client;
    this.id = root.id;
    this.calc = root.dataset.calc;
    // The prefix of its URL keys: `<calc>`, or `<calc>~<instance>` for a fence's `instance:` line.
    this.urlName = urlName(this.calc, root.dataset.instance);
    this.embed = root.hasAttribute("data-embed");
    this.initial = JSON.parse(root.dataset.initial || "{}"); // the inputs this page's fence gives
    // This page's fence setting: every run's `base`, against which Python measures what the
    // address carries (the result's `changed`).
    this.setting = root.dataset.setting || "";
    this.figures = followersOf(root); // the prose's figures that follow this widget
    this.view = new OutputsView(root, this.figures);
    this.message = root.querySelector(DOM.message);
    this.notice = root.querySelector(DOM.notice);
    this.status = root.querySelector(DOM.status);
    this.snippet = root.querySelector(DOM.snippet);
    this.iframeSnippet = root.querySelector(DOM.iframeSnippet);
    this.queue = new RunQueue({
      canRun: () => this.client.canRun,
      send: (seq) => this.client.run(
        { type: MSG.RUN, widget: this.id, calc: this.calc, seq, inputs: this.runInputs() },
        () => this.session.timedOut(this)),
    });
    this.finalize = false;
    this.stalled = false; // its last run was stopped for taking too long
    this.announcer = new Announcer(root);
    // The shared fields the reader's edits touched since the last answer: that answer (Python's,
    // or the build's table) says what each of them carries to the other calculators.
    this.unshared = new Set();
    this.form = new Form(root, (finalize, name) => {
      if (finalize) this.finalize = true;
      this.edited(name);
      this.request();
    });
    // The reader's scenario (the planet, a rate, a pasted text…) replaces the fence's values; the
    // widget's own link keys win (except on a way back through the history: scenario.js).
    this.replaced = false; // the scenario changed some of the fence's values on arrival
    this.example = false; // the reader asked for the page's own example instead
    if (session.scenario && !this.embed) {
      const arrived = session.scenario.valuesFor(this.form);
      this.replaced = Object.keys(arrived).some((name) => String(this.initial[name]) !== arrived[name]);
      this.form.enter(arrived);
    }
    const page = location.pathname;
    this.writeUrl = throttle(() => {
      // A write still due when instant navigation has moved on belongs to this widget's page,
      // not to the next one (it would carry this calculator's keys there).
      if (location.pathname !== page || !root.isConnected) return;
      const url = this.linkFor();
      if (url.href !== location.href) history.replaceState(history.state, "", url.href);
    }, URL_INTERVAL_MS);
    this.pinView = new PinView(root, () => this.togglePin());
    this.last = null; // Python's latest result
    bindButtons(this);
    this.applyUrl();
    this.charts = new ChartView(root, session.withChart);
    this.builtCharts = this.charts.data; // the rendered state's, as the build drew them
    this.charts.draw(this.charts.data);
    bindSource(root);
    this.stopResultsHeight = keepResultsHeight(root);
    // Until Python can run: the build's answers for the rendered state's neighbourhood, from a
    // table fetched beside the page (before-python.js).
    this.beforePython = new BeforePython(this);
    // A link or the reader's scenario may have set inputs, a link a pin: never beside the
    // fence's outputs or its comparison.
    this.beforePython.show(true);
  }

  /** Values from outside the form (the embed API, another calculator), entered as a reader would. */
  enter(values) {
    this.form.enter(values);
    this.finalize = true;
    this.request();
  }

  /** The reader edited `name`: if its field is shared, the answer for the new inputs shares it,
   * and the fields the edit may change with it (a model and its shape: Form.linked). */
  edited(name) {
    const field = this.form.fields.get(name);
    if (!field || !field.dataset.scenario || !this.session.shareScenario || this.embed) return;
    this.example = false;
    this.form.linked(name).forEach((n) => this.unshared.add(n));
  }

  /** An answer for the form's inputs came (`carried`: its `scenario`, what each shared field
   * carries by Python's rule, setting.py's carried): every other calculator takes the values of
   * the fields the reader touched, and forgets the ones that carry nothing now. */
  share(carried) {
    if (!this.unshared.size || !carried) return;
    const entries = [];
    const forget = [];
    this.unshared.forEach((name) => {
      const el = this.form.fields.get(name);
      const scenario = el && el.dataset.scenario;
      if (!scenario || !(scenario in carried)) return;
      if (carried[scenario] === null) forget.push(scenario);
      else entries.push([scenario, carried[scenario], el]);
    });
    this.unshared.clear();
    this.session.shareScenario(this, entries, forget);
  }

  /** The "your scenario" line: which values are the reader's, and from where (scenario-line.js). */
  showScenario() {
    const scenario = this.session.scenario;
    if (!scenario || this.embed) return;
    const entries = scenarioEntries(this.form, scenario, location.pathname);
    showScenarioLine(this.root, {
      entries, replaced: this.replaced, example: this.example,
      onExample: () => this.useExample(),
      onMine: () => this.useScenario(),
      onForget: () => { this.form.setValues(this.initial); this.session.resetScenario(this); this.request(); },
    });
  }

  /** Back to the page's own example (the fence's values: what the prose quotes); the scenario is
   * kept for the other pages and one click away. */
  useExample() {
    this.example = true;
    this.form.setValues(this.initial);
    this.form.touch(Object.keys(this.initial));
    this.finalize = true;
    this.request();
    this.showScenario();
  }

  /** The reader's scenario again, after the page's example. */
  useScenario() {
    this.example = false;
    if (this.session.scenario) this.form.enter(this.session.scenario.valuesFor(this.form));
    this.finalize = true;
    this.request();
    this.showScenario();
  }

  showNotice(text) {
    if (!this.notice) return;
    this.notice.textContent = text;
    this.notice.hidden = !text;
  }

  /** The embed snippet of `setting` (Python's `pin` of the inputs shown: what differs from the
   * calculator's defaults). */
  showSnippet(setting) {
    if (this.snippet) this.snippet.textContent = embedSnippet(this.calc, setting, this.session.siteRoot);
    if (this.iframeSnippet) {
      const { height, title } = this.iframeSnippet.dataset;
      this.iframeSnippet.textContent = iframeSnippet(this.calc, setting, this.session.siteRoot, { height, title });
    }
  }

  // The first run sends the link's own strings (see url-state.js's firstRunInputs); a field
  // edited since keeps its edit.
  applyUrl() {
    const linkPin = pinOfQuery(location.search, this.urlName, this.embed);
    if (linkPin) this.pinView.set(linkPin); // a link's pin wins over the fence's
    const { values, unknown } = readQuery(location.search, { calc: this.urlName, embed: this.embed, isParam: (n) => this.form.has(n) });
    delete unknown[PIN_KEY]; // reserved inputs: the pin is read above, the base is the fence's
    delete unknown[BASE_KEY];
    // Back through the history, the address holds what this session wrote before: the reader's
    // scenario, set since on another page, is newer than its keys.
    const scenario = this.session.scenario;
    if (scenario && scenario.traversal && !this.embed) {
      Object.keys(values).forEach((name) => {
        const field = this.form.fields.get(name);
        if (field && field.dataset.scenario && scenario.has(field.dataset.scenario)) delete values[name];
      });
    }
    this.form.enter(values);
    const shown = {};
    Object.keys(values).forEach((name) => { shown[name] = this.form.fields.get(name).value; });
    this.link = { raw: Object.assign(unknown, values), shown };
  }

  /** The run's inputs: the form's (in the order they were set), the fence's setting they apply
   * over, and the pin, whose outputs Python computes beside them. */
  runInputs() {
    const inputs = this.link ? firstRunInputs(this.form.values(), this.link) : this.form.values();
    if (this.setting) inputs[BASE_KEY] = this.setting;
    if (this.pinView.pinned) inputs[PIN_KEY] = this.pinView.pin;
    return inputs;
  }

  /** Pin the setting shown now (Python's `pin` of its last result; before one, of the table's
   * answer shown, or of the fence's state), or unpin. Inputs that nothing has computed yet (off
   * the table, before Python) are pinned as the form holds them: Python's comparison gives
   * their canonical pin (`compare.pin`), which then replaces it. */
  togglePin() {
    if (this.pinView.pinned) this.pinView.set("");
    else if (!this.last && this.beforePython.offTable) this.pinView.set(new URLSearchParams(this.form.values()).toString());
    else {
      const shown = this.last || this.beforePython.answered;
      this.pinView.set(shown && shown.pin ? shown.pin : this.setting);
    }
    this.writeUrl();
    this.request();
  }

  /** This page's address with the widget's keys: Python's `changed` of its last result (before
   * one, the keys stay as the link gave them) and the pin. */
  linkFor() {
    const known = this.last || this.beforePython.answered; // Python's result, or the build's answer before it
    const url = known ? withInputs(location.href, {
      calc: this.urlName, embed: this.embed, isParam: (n) => this.form.has(n), changed: known.changed,
    }) : new URL(location.href);
    return withPin(url.href, this.urlName, this.embed, this.pinView.pin);
  }

  setState(state) {
    this.root.dataset.state = state;
    if (state === STATE.ERROR && this.session.embedPage) this.session.embedPage.failed(this);
  }

  setStatus(text) {
    if (this.status) this.status.textContent = text;
  }

  start() {
    if (this.client.failed) { this.fail(this.client.failed); return; }
    this.setState(STATE.LOADING);
    this.setStatus(this.client.status);
    this.client.start();
    if (this.client.ready) this.request();
    else this.pinView.beforePython(this.beforePython.atRendered(), false); // starting (again): not "cannot"
  }

  /** A run with the form's inputs now, or as soon as the worker can take one (its `ready` runs
   * every widget). */
  request() {
    if (!this.client.canRun) this.beforePython.show();
    else this.pinView.computing();
    this.stalled = false;
    if (this.queue.request()) {
      if (this.root.dataset.state !== STATE.READY) this.setState(STATE.LOADING);
    } else if (this.queue.busy) {
      this.setState(STATE.LOADING);
    }
  }

  /** No run in flight and none due: what the widget shows is Python's answer to its inputs. */
  get settled() {
    return !this.queue.busy && !this.queue.dirty;
  }

  /** Forget the run in flight (its worker was stopped); `again`: run once more when a worker is ready. */
  cancelRun(again = false) {
    this.queue.cancel(again);
  }

  onResult(seq, result) {
    if (this.queue.settle(seq) !== ANSWER.CURRENT) return;
    this.render(result);
    this.setState(STATE.READY);
    this.setStatus("Live: computed by Python in your browser");
  }

  onError(seq, message, trace = "") {
    if (this.queue.settle(seq) !== ANSWER.CURRENT) return;
    this.setState(STATE.ERROR);
    this.view.markFailed();
    this.pinView.unavailable(PIN_LABEL.FAILED);
    this.message.textContent = "This calculation failed: " + message;
    this.setStatus("Error");
    console.error(`calculators: ${this.calc} (${this.id}) failed: ${message}${trace ? "\n" + trace : ""}`);
  }

  /** Its run took longer than `limitMs` and the worker was replaced. */
  stall(limitMs) {
    this.stalled = true;
    this.setState(STATE.ERROR);
    this.pinView.unavailable(PIN_LABEL.STOPPED);
    this.message.textContent = `This calculation took longer than ${formatSeconds(limitMs)} and was stopped. ` +
      "Python restarted; change an input to try again.";
    this.setStatus("Stopped: the calculation took too long");
  }

  fail(message) {
    this.cancelRun();
    this.setState(STATE.ERROR);
    this.pinView.beforePython(this.beforePython.atRendered(), true);
    this.message.textContent = message;
    this.setStatus("Static values (interactive mode unavailable)");
  }

  render(result) {
    this.link = null; // from now on the form holds Python's values
    this.view.clearMarks();
    this.beforePython.answered = null; // Python's answer replaces the table's
    this.view.show(result);
    this.last = result;
    showAnswer(this.root, result);
    const notes = (result.notes || []).concat(result.compare ? result.compare.notes : []);
    this.message.textContent = notes.join(" ");
    this.pinView.show(this.pinView.pinned ? result.compare || null : null);
    this.view.showInputs(result.inputs_text || {});
    this.form.showResult(result.inputs, this.finalize, result.slider || {});
    this.finalize = false;
    this.charts.draw(result.charts || []);
    showInFigures(this.figures, result);
    this.writeUrl();
    this.announcer.rendered();
    this.showSnippet(result.pin);
    this.share(result.scenario);
    if (this.session.embedPage) this.session.embedPage.rendered(this, result);
  }

  /** The widget left the page (instant navigation). */
  destroy() {
    this.stopResultsHeight();
    this.charts.destroy();
  }
}
