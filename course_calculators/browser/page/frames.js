// A chart's recorded simulation steps (Python's `frames`, spec.Chart): which step to show next,
// and the chart as it stands at a step. Pure functions of Python's data: the browser never steps
// a simulation itself, it only picks frame i of the ones Python recorded.

/** Whether a chart holds every recorded step (the page's HTML carries only the one it shows). */
export function hasAllFrames(chart) {
  return Boolean(chart && Array.isArray(chart.frames) && chart.frames.length > 0 &&
    !(chart.frames_total > chart.frames.length));
}

/** The frame index `i` brought into range [0, count − 1]. */
export function clampFrame(i, count) {
  return Math.min(Math.max(0, Math.trunc(Number(i) || 0)), Math.max(0, count - 1));
}

/** The chart at frame `i`: that step's series, summary and marker in place of the chart's own. */
export function frameChart(chart, i) {
  const frame = chart.frames[clampFrame(i, chart.frames.length)];
  const out = Object.assign({}, chart, { summary: frame.summary });
  if (frame.series) out.series = frame.series;
  if (frame.marker !== undefined) out.marker = frame.marker;
  return out;
}

/** The timeline as a line chart (chart-config.js configures it) with its marker at frame `i`. */
export function timelineChart(chart, i) {
  const t = chart.timeline;
  return { kind: "line", title: t.title, x_label: "Step", y_label: t.y_label, labels: t.labels,
    series: t.series, marker: i, summary: t.title, y_log: false, x_log: false };
}

/** A step's time for a chart without Python's `frame_ms` (every chart with frames has one). */
const FALLBACK_FRAME_MS = 1000;

/** How long each step shows at `speed` (1 the default, 2 twice as fast): Python's `frame_ms`
 * (the whole run in the chart's play_seconds at 1×) divided by the reader's speed. */
export function stepInterval(chart, speed = 1) {
  const ms = chart && Number(chart.frame_ms) > 0 ? Number(chart.frame_ms) : FALLBACK_FRAME_MS;
  const s = Number(speed) > 0 ? Number(speed) : 1;
  return ms / s;
}

/** The time from the first step to the last at `speed`: what a reader waits for the whole run. */
export function runDuration(chart, speed = 1) {
  const count = chart && Array.isArray(chart.frames) ? chart.frames.length : 0;
  return Math.max(0, count - 1) * stepInterval(chart, speed);
}
