// The widget contract as the browser reads it: the grammar of calculator ids and parameter
// names, the URL keys that carry a widget's inputs and the shared choices, and the page elements
// the runtime binds to.
// course_calculators/contract.py holds the same grammar for the build (a test checks that the two
// agree); the site's "Widget contract" page documents all of it for authors and embedders.

/** A calculator or preset id: kebab-case (`loan`, `thirty-year`). */
export const ID_PATTERN = "[a-z][a-z0-9]*(?:-[a-z0-9]+)*";
/** A parameter or output name: snake_case (`interest_rate`). */
export const NAME_PATTERN = "[a-z][a-z0-9_]*";
export const ID = new RegExp(`^${ID_PATTERN}$`);
export const NAME = new RegExp(`^${NAME_PATTERN}$`);

/** The reserved inputs of a run and URL keys (contract.PIN_KEY, BASE_KEY): a widget's pin, and
 * the fence's setting its inputs apply over. */
export const PIN_KEY = "pin";
export const BASE_KEY = "base";
/** A setting's word for the calculator's own defaults (setting.DEFAULT). */
export const SETTING_DEFAULT = "default";

/** The neighbourhood table's attribute (contract.NEIGHBOURHOOD_ATTR): the answers before Python. */
export const NEIGHBOURHOOD_ATTR = "data-neighbourhood";
/** An output, chart figure, pinned row, pin label or widget whose shown value is not the answer
 * to the inputs shown (contract.PENDING_ATTR): it also carries aria-busy="true", and calc.css marks it. */
export const PENDING_ATTR = "data-pending";
/** An output or widget whose run raised (contract.FAILED_ATTR); the output shows FAILED_TEXT. */
export const FAILED_ATTR = "data-failed";
export const FAILED_TEXT = "failed";

/** The <meta> tag that tells a page where the runtime lives (plugin/manifest.py writes it). */
export const RUNTIME_META = "calculators-runtime";
/** Under `mkdocs serve` only (contract.LIVE_META, LIVE_EVENT; plugin/live.py): the page's digest
 * and the build's state file, and the event fired on `document` after each rebuild. */
export const LIVE_META = "calculators-live";
export const LIVE_EVENT = "calculators:rebuilt";
/** Where things are, relative to the site root. */
export const EMBED_DIR = "embed";
export const EMBED_SCRIPT = "assets/calc/embed.js";

/**
 * The elements the runtime finds (plugin/templates/widget.html and embed.html make them).
 * Attributes it reads on them: the widget's data-calc (its calculator), data-state (STATE in
 * protocol.js), data-defaults (the calculator's own defaults: links and presets start from
 * them), data-initial (what this page's fence set: Reset returns to it), data-embed (an embed
 * page's widget), data-instance (its fence's `instance:` name); a slider's data-for (its field) and data-stops (a log slider's values, JSON);
 * an output's data-value and data-bool; a preset's data-values and data-notice; the source
 * view's data-source; a field's data-scenario (a choice shared by every calculator that has it)
 * and a select's data-fills / data-custom (the fields it fills, and its "none of these" value);
 * a chart figure's data-drawn (its canvas holds the live chart, so the build's SVG steps aside);
 * an inline figure's data-figure, data-output and data-follow; the pin bar's data-pin (the
 * fence's pin), each pinned value's data-pinned and data-value and each ratio's data-ratio and
 * data-value (live ÷ pinned, computed by Python); a printed input's data-input.
 */
export const DOM = Object.freeze({
  widget: ".calc[data-calc]",
  embedWidget: ".calc[data-embed]",
  form: "form",
  fields: "input[type=number][name], select[name], textarea[name]",
  sliders: "input[type=range][data-for]",
  outputs: "output[data-output]",
  presets: "button[data-preset]",
  reset: '[data-action="reset"]',
  copyLink: '[data-action="copy-link"]',
  copySnippet: '[data-action="copy-embed"]',
  snippet: "[data-embed-snippet]",
  iframeSnippet: "[data-embed-iframe]", // its data-height (px, the build's) and data-title
  copyIframe: '[data-action="copy-embed-iframe"]',
  message: "[data-message]",
  notice: "p[data-notice]", // (a preset's data-notice is the text it shows here)
  results: ".calc__results",
  pinBar: "[data-pin-bar]",
  pinButton: '[data-action="pin"]',
  pinLabel: "[data-pin-label]",
  pinnedRow: "[data-pinned-for]",
  pinnedValue: "[data-pinned]",
  ratio: "[data-ratio]",
  printInput: "[data-print-inputs] [data-input]",
  params: ".calc__params",
  more: "details.calc__more",
  status: "[data-status]",
  announce: "[data-announce]",
  output: ".calc__out",
  primaryOutput: ".calc__out--primary",
  chartData: "[data-charts]",
  neighbourhood: "[data-neighbourhood]",
  chart: "figure[data-chart]",
  chartCanvas: "figure[data-chart] canvas",
  chartSummary: "[data-chart-summary]",
  chartTable: "[data-chart-table]",
  chartBox: ".calc__canvas",
  chartCanvasOf: ".calc__canvas > canvas", // a figure's first: its chart's (a timeline's comes after)
  player: "[data-player]",
  figure: ".calc-figure[data-figure]",
  source: "details.calc__source[data-source]",
  sourceCode: ".calc__code",
  embedContent: "[data-calc-embed-content]",
  chapterLink: "a[data-chapter-link]",
  // The answer (page/answer-view.js): the sentence, and each output group's stacked bar.
  answer: "[data-answer]",
  bar: "[data-bar]",
  barPart: "[data-bar-part]",
  barText: "[data-bar-text]",
  barKey: "[data-bar-key]",
  barSummary: "[data-bar-summary]",
  group: "[data-group]",
  // The reader's scenario line (page/scenario-line.js) and its buttons, and each entry's field.
  scenarioLine: "[data-scenario-line]",
  scenarioItem: "[data-scenario-item]",
  scenarioExample: '[data-action="scenario-example"]',
  scenarioMine: '[data-action="scenario-mine"]',
  scenarioForget: '[data-action="scenario-forget"]',
});

// A widget's inputs travel in the query string: `<calc-id>.<param>` on a chapter page (several
// calculators may share it), plain `<param>` on an embed page (one calculator). A fence's
// `instance: <name>` line gives its widget keys of its own, `<calc-id>~<name>.<param>`; the default
// instance keeps `<calc-id>.<param>`. This is the only place that rule is written
// (contract.url_key and contract.url_name are the build's copy of it).

/** A fence's line naming one of several widgets of a calculator (the root's data-instance). */
export const INSTANCE_KEY = "instance";
export const INSTANCE_SEPARATOR = "~";

/** The prefix of a widget's URL keys: `loan`, or `loan~second` for its instance "second".
 * The functions below take it where they say `calc`. */
export function urlName(calc, instance) {
  return instance ? calc + INSTANCE_SEPARATOR + instance : calc;
}

function urlPrefix(calc, embed) {
  return embed ? "" : calc + ".";
}

/** The query key of one input: `loan.years` on a chapter page, `years` on an embed page. */
export function urlKey(calc, param, embed) {
  return urlPrefix(calc, embed) + param;
}

/** The parameter a query key names for this widget (possibly ""), or null when it is not its key. */
export function paramOfKey(key, calc, embed) {
  const prefix = urlPrefix(calc, embed);
  return key.startsWith(prefix) ? key.slice(prefix.length) : null;
}

// A shared choice (a field's data-scenario: the planet, the rate) travels in a chapter page's query
// string under the scenario's own name, plain (`?world=moon`), beside the widgets' keys, which win,
// and from page to page and tab to tab in localStorage (contract.scenario_key and SCENARIO_STORE are the
// build's copy). Embed pages read none.

/** The localStorage entry of the reader's scenario: {values: {scenario: value}, origins:
 * {scenario: {from, path, title}}} (an older entry, a plain {scenario: value}, is read too). */
export const SCENARIO_STORE = "calculators-scenario";

/** Where a scenario value came from (its stored `from`: a link or a page), and how a page sees
 * it (set here, or on another page). */
export const ORIGIN = Object.freeze({ LINK: "link", PAGE: "page", HERE: "here", ELSEWHERE: "elsewhere" });

/** The query key of a shared choice on a chapter page: `world` for the scenario "world". */
export function scenarioKey(scenario) {
  return scenario;
}

/** The scenario a chapter page's query key names, or null (a widget's `<calc>.<param>` key). */
export function scenarioOfKey(key) {
  return NAME.test(key) ? key : null;
}
