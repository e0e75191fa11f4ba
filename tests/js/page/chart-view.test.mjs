// A widget's charts: drawn at once on screen; out of view, a chart whose picture (the build's SVG,
// or the canvas's last drawing) no longer shows its latest result is marked data-stale and drawn
// in the background once its results stop changing, so that a printed page never shows an old
// picture beside new numbers; a result the picture already shows loads nothing.
import { test, mock, beforeEach, afterEach } from "node:test";
import assert from "node:assert/strict";

import { FakeElement, fakeDocument } from "../fake-dom.mjs";
import { DOM } from "../../../course_calculators/browser/shared/contract.js";

const observers = [];
globalThis.window = globalThis;
globalThis.IntersectionObserver = class {
  constructor(callback) { this.callback = callback; observers.push(this); }
  observe() {}
  disconnect() {}
  show(visible) { this.callback([{ isIntersecting: visible }]); }
};
globalThis.getComputedStyle = () => ({ getPropertyValue: () => "" });
fakeDocument();
const { ChartView } = await import("../../../course_calculators/browser/page/chart-view.js");

class FakeChart {
  static made = [];
  constructor(canvas, config) { this.canvas = canvas; this.config = config; this.updates = 0; FakeChart.made.push(this); }
  update() { this.updates += 1; }
  destroy() {}
}

const line = (values) => ({ kind: "line", title: "Memory", x_label: "Context", y_label: "GiB", labels: ["a", "b"],
  series: [{ name: "KV", values }], marker: null, summary: `KV ${values.join(", ")}`, y_log: false, x_log: false });

function view(built) {
  const figure = new FakeElement("figure");
  const canvas = new FakeElement("canvas");
  canvas.isConnected = true;
  canvas.closest = () => figure;
  const summary = new FakeElement("p");
  figure.answer({ [DOM.chartSummary]: [summary], [DOM.chartCanvasOf]: [canvas] });
  const data = new FakeElement("div", { dataset: { charts: JSON.stringify([built]) } });
  const root = new FakeElement("div").answer({ [DOM.chartData]: [data], [DOM.chart]: [figure], [DOM.chartCanvas]: [canvas] });
  const loads = [];
  const withChart = (fn) => { loads.push(1); fn(FakeChart); };
  const charts = new ChartView(root, withChart);
  return { charts, figure, summary, loads, observer: observers.at(-1) };
}

beforeEach(() => { FakeChart.made = []; mock.timers.enable({ apis: ["setTimeout"] }); });
afterEach(() => mock.timers.reset());

test("out of view, the build's own result needs no drawing: Chart.js is not loaded", () => {
  const { charts, figure, summary, loads } = view(line([1, 2]));
  charts.draw([line([1, 2])]);
  mock.timers.tick(1000);
  assert.equal(loads.length, 0);
  assert.ok(!("stale" in figure.dataset));
  assert.equal(summary.textContent, "KV 1, 2");
});

test("out of view, a new result marks the picture stale and draws it once the results stop", () => {
  const { charts, figure, summary, loads } = view(line([1, 2]));
  charts.draw([line([3, 4])]);
  assert.ok("stale" in figure.dataset);
  assert.equal(summary.textContent, "KV 3, 4"); // the text alternative follows at once
  mock.timers.tick(200);
  charts.draw([line([5, 6])]); // a burst: one drawing, of its last result
  mock.timers.tick(299);
  assert.equal(FakeChart.made.length, 0);
  mock.timers.tick(1);
  assert.equal(FakeChart.made.length, 1);
  assert.deepEqual(FakeChart.made[0].config.data.datasets[0].data, [5, 6]);
  assert.ok(!("stale" in figure.dataset) && "drawn" in figure.dataset);
  charts.draw([line([5, 6])]); // what the canvas shows already
  mock.timers.tick(1000);
  assert.equal(loads.length, 1);
  assert.ok(!("stale" in figure.dataset));
  charts.draw([line([1, 2])]); // back to the build's numbers: the canvas, not the SVG, shows: draw again
  assert.ok("stale" in figure.dataset);
  mock.timers.tick(300);
  assert.equal(FakeChart.made[0].updates, 1);
});

test("on screen a result is drawn at once", () => {
  const { charts, figure, observer } = view(line([1, 2]));
  observer.show(true);
  charts.draw([line([7, 8])]);
  assert.equal(FakeChart.made.length, 1);
  assert.ok("drawn" in figure.dataset && !("stale" in figure.dataset));
});

test("a pinned setting's series is drawn dashed in the colour of the live series it pins", () => {
  const { charts, observer } = view(line([1, 2]));
  observer.show(true);
  const chart = line([1, 2]);
  chart.series.push({ name: "KV (pinned)", values: [3, 4], pinned: true, like: 0 });
  charts.draw([chart]);
  const [live, pinned] = FakeChart.made[0].config.data.datasets;
  assert.equal(pinned.label, "KV (pinned)");
  assert.deepEqual(pinned.data, [3, 4]);
  assert.equal(pinned.borderColor, live.borderColor);
  assert.ok(pinned.borderDash.length > 0 && !(live.borderDash || []).length);
});
