// Python's chart data mapped to Chart.js configurations: each series where Python put it, in the
// palette's colours, rules dashed, the marker on its point, log axes where Python asked for them.
// Presentation only: every number in a configuration is one of Python's.
import { test } from "node:test";
import assert from "node:assert/strict";

import { chartConfig } from "../../../course_calculators/browser/page/chart-config.js";

const COLOURS = { fg: "#111", grid: "#eee", series: ["#a00", "#0a0", "#00a"], rule: "#f00" };

const LINE = {
  kind: "line", title: "KV cache", x_label: "Context", y_label: "GiB", labels: ["1k", "2k", "4k"], marker: 1,
  y_log: false, x_log: false, summary: "…",
  series: [{ name: "fp16", values: [1, 2, 4] }, { name: "fp8", values: [0.5, 1, 2] }, { name: "HBM", values: [3, 3, 3], kind: "rule" }],
};

test("a line chart: one dataset per series, in order, with Python's values and labels", () => {
  const config = chartConfig(LINE, COLOURS);
  assert.equal(config.type, "line");
  assert.deepEqual(config.data.labels, ["1k", "2k", "4k"]);
  assert.deepEqual(config.data.datasets.map((d) => [d.label, d.data]), [["fp16", [1, 2, 4]], ["fp8", [0.5, 1, 2]], ["HBM", [3, 3, 3]]]);
  assert.deepEqual(config.data.datasets.map((d) => d.borderColor), ["#a00", "#0a0", "#f00"]);
  assert.deepEqual(config.options.scales.x.title, { display: true, text: "Context", color: "#111" });
  assert.equal(config.options.scales.y.type, "linear");
  assert.equal(config.options.animation, false);
});

test("the marker is a point on each plain series, never on a rule; a rule is dashed", () => {
  const [fp16, , rule] = chartConfig(LINE, COLOURS).data.datasets;
  assert.deepEqual(fp16.pointRadius, [0, 5, 0]);
  assert.equal(rule.pointRadius, 0);
  assert.deepEqual(rule.borderDash, [6, 4]);
  assert.equal(rule.type, "line");
  const unmarked = chartConfig({ ...LINE, marker: null }, COLOURS).data.datasets[0];
  assert.equal(unmarked.pointRadius, 0);
});

test("a bar chart draws bars, its rules as lines", () => {
  const config = chartConfig({ ...LINE, kind: "bar" }, COLOURS);
  assert.equal(config.type, "bar");
  assert.deepEqual(config.data.datasets.map((d) => d.type), ["bar", "bar", "line"]);
  assert.equal(config.data.datasets[0].pointRadius, 0); // no marker on bars
});

test("a log axis starts where Python's data does, not at zero; colours cycle past the palette", () => {
  const many = { ...LINE, y_log: true, series: [1, 2, 3, 4].map((n) => ({ name: `s${n}`, values: [n, n, n] })) };
  const config = chartConfig(many, COLOURS);
  assert.equal(config.options.scales.y.type, "logarithmic");
  assert.equal(config.options.scales.y.beginAtZero, false);
  assert.deepEqual(config.data.datasets.map((d) => d.borderColor), ["#a00", "#0a0", "#00a", "#a00"]);
});

const XY = {
  kind: "xy", title: "Roofline", x_label: "Batch", y_label: "tok/s", x_log: true, y_log: false, summary: "…",
  series: [
    { name: "ceiling", points: [[1, 10], [64, 640]] },
    { name: "measured", kind: "points", points: [[8, 70]], point_labels: ["vLLM 0.6, H100"] },
    { name: "you", kind: "marker", points: [[16, 150]] },
    { name: "limit", kind: "rule", points: [[1, 700], [64, 700]] },
  ],
};

test("an xy chart: points at Python's coordinates, lines for lines and rules, dots for the rest", () => {
  const config = chartConfig(XY, COLOURS);
  assert.equal(config.type, "scatter");
  const [ceiling, measured, you, limit] = config.data.datasets;
  assert.deepEqual(ceiling.data, [{ x: 1, y: 10 }, { x: 64, y: 640 }]);
  assert.deepEqual([ceiling.showLine, measured.showLine, you.showLine, limit.showLine], [true, false, false, true]);
  assert.deepEqual([ceiling.pointRadius, measured.pointRadius, you.pointRadius, limit.pointRadius], [0, 4, 6, 0]);
  assert.deepEqual(limit.borderDash, [6, 4]);
  assert.equal(limit.borderColor, "#f00");
  assert.equal(config.options.scales.x.type, "logarithmic");
  assert.equal(config.options.scales.y.beginAtZero, true);
});

test("an xy tooltip names the measured point Python labelled", () => {
  const config = chartConfig(XY, COLOURS);
  const label = config.options.plugins.tooltip.callbacks.label;
  const measured = config.data.datasets[1];
  assert.equal(label({ dataset: measured, dataIndex: 0, parsed: { y: 70 } }), "measured: vLLM 0.6, H100 — 70");
  assert.equal(label({ dataset: config.data.datasets[0], dataIndex: 1, parsed: { y: 640 } }), "ceiling: 640");
});
