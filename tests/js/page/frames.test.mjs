// A chart's recorded steps: the browser picks frame i of Python's frames and changes nothing else.
import { test } from "node:test";
import assert from "node:assert/strict";

import { clampFrame, frameChart, hasAllFrames, runDuration, stepInterval, timelineChart } from "../../../course_calculators/browser/page/frames.js";

const chart = {
  kind: "bar", title: "T", x_label: "x", y_label: "y", labels: ["a", "b"], marker: null, summary: "all",
  series: [{ name: "s", values: [1, 2] }], frame: 1,
  frames: [
    { label: "Step 0", summary: "zero", series: [{ name: "s", values: [0, 0] }], stats: [], panels: [] },
    { label: "Step 9", summary: "nine", stats: [["Running", "3"]], panels: [], marker: 1 },
  ],
  timeline: { title: "Over the run", y_label: "%", labels: ["Step 0", "Step 9"], series: [{ name: "u", values: [5, 7] }] },
};

test("the page's HTML carries one step; Python's result brings them all", () => {
  assert.equal(hasAllFrames(chart), true);
  assert.equal(hasAllFrames({ ...chart, frames: [chart.frames[1]], frames_total: 2 }), false);
  assert.equal(hasAllFrames({ kind: "line" }), false);
});

test("a frame index stays in range", () => {
  assert.equal(clampFrame(-3, 5), 0);
  assert.equal(clampFrame(9, 5), 4);
  assert.equal(clampFrame("2", 5), 2);
  assert.equal(clampFrame(NaN, 5), 0);
});

test("the chart at a step takes that step's series, summary and marker; the rest is the chart's", () => {
  const zero = frameChart(chart, 0);
  assert.deepEqual(zero.series, [{ name: "s", values: [0, 0] }]);
  assert.equal(zero.summary, "zero");
  assert.equal(zero.marker, null);
  const nine = frameChart(chart, 1);
  assert.deepEqual(nine.series, chart.series);
  assert.equal(nine.summary, "nine");
  assert.equal(nine.marker, 1);
  assert.equal(nine.labels, chart.labels);
  assert.equal(chart.summary, "all"); // the chart itself is left alone
});

test("the timeline is a line over the steps, marked at the one shown", () => {
  const line = timelineChart(chart, 1);
  assert.equal(line.kind, "line");
  assert.deepEqual(line.labels, ["Step 0", "Step 9"]);
  assert.equal(line.marker, 1);
  assert.equal(line.series, chart.timeline.series);
});

test("a step shows for Python's frame_ms divided by the speed; the run lasts (frames − 1) steps", () => {
  const run = { frames: Array.from({ length: 48 }, (_, i) => ({ label: `Pass ${i + 1}`, summary: "" })), frame_ms: 638 };
  assert.equal(stepInterval(run), 638);
  assert.equal(stepInterval(run, 2), 319);
  assert.equal(stepInterval(run, 0.5), 1276);
  assert.equal(stepInterval(run, "4"), 159.5);
  assert.equal(stepInterval(run, 0), 638); // no speed: the default
  assert.equal(runDuration(run), 47 * 638);
  assert.ok(runDuration(run) >= 20000 && runDuration(run) <= 40000);
  assert.equal(runDuration(run, 4), 47 * 638 / 4);
  assert.equal(runDuration({ frames: [{}] }), 0);
});
